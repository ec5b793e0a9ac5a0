"""Train the phrasing model (rulesref/learned.py) and write rules/ranker.json.

    pip install -e '.[train]'
    python bench/ranker.py [--c C] [--keep N] [--check]

A multinomial logistic regression (scikit-learn, lbfgs) over the tf-idf features that
rulesref/learned.py computes, trained on every clause's title and asks and on the
questions of the bench sets named in SETS, the out-of-scope ones as one more class
(learned.OUT): those sets are training data, and only sets outside SETS measure the
model. Each class keeps only its KEEP largest weights (by size; the out-of-scope class
OUT_KEEP), so the file stays small and a cold `ask` reads little; the idf is kept for every
feature those weights use. ``--check`` says whether rules/ranker.json was trained on these clause
lines (its fingerprint, which `rulesref lint` checks too) and on these bench sets as they
are now (a digest kept in its settings).

Run it after any change to a clause's title or asks: the index ignores a model whose
fingerprint no longer matches the rule packs (see learned.py). The fingerprint covers the
clause lines only, since an installed rulesref carries no bench to check against.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from rulesref import learned  # noqa: E402
from rulesref.corpus import game_folders, load_game  # noqa: E402

C = 10.0
"""Inverse regularisation strength: chosen on held-out sets 1-33 (bench/README.md)."""
SETS = (
    "holdout",
    *(f"holdout{n}" for n in range(2, 127) if n not in (34, 35, 42, 43, 44)),
    *("roles", "roles2", "roles3", "short", "short2", "scope", "scope2", "scope3"),
)
"""The bench sets the model learns from: every set run before held-out 127. bench/questions.yaml
stays out, so tests/test_bench.py compares rulesref with BM25 on questions the model has not
seen (bench/README.md)."""
KEEP = 1000
"""Weights kept per class, the largest by size."""
OUT_KEEP = 10000
"""Weights kept for the out-of-scope class (learned.OUT): its questions share no topic, so
its evidence is spread over many more words than a clause's."""
DIGITS = 5
"""Significant digits a weight or idf keeps in the file."""


def bench_lines(sets: Iterable[str]) -> list[tuple[str, str]]:
    """(class, question) for each question of the named bench sets, in order: an
    out-of-scope one is of the class learned.OUT."""
    return [
        (f"{q['game']}/{q['id']}" if q["id"] is not None else learned.OUT, q["q"])
        for name in sets
        for q in yaml.safe_load((ROOT / "bench" / f"{name}.yaml").read_text(encoding="utf-8"))
    ]


def train(
    lines: list[tuple[str, str]], c: float, keep: int, extra: Sequence[tuple[str, str]] = ()
) -> dict[str, object]:
    """The model of the clause ``lines`` and the ``extra`` (bench) lines; its fingerprint is
    of ``lines`` alone."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    fingerprint = learned.fingerprint(lines)
    lines = [*lines, *extra]
    counts = [learned.features(line) for _, line in lines]
    df: dict[str, int] = {}
    for d in counts:
        for f in d:
            df[f] = df.get(f, 0) + 1
    n = len(lines)
    # scikit-learn's smoothed idf, as TfidfVectorizer computes it
    idf = {f: math.log((1 + n) / (1 + k)) + 1.0 for f, k in df.items()}
    names = sorted(idf)
    column = {f: i for i, f in enumerate(names)}
    rows, cols, vals = [], [], []
    for r, d in enumerate(counts):
        for f, x in learned.weighted(d, idf).items():
            rows.append(r)
            cols.append(column[f])
            vals.append(x)
    matrix = csr_matrix((vals, (rows, cols)), shape=(n, len(names)))
    classes = sorted({cls for cls, _ in lines})
    label = {cls: i for i, cls in enumerate(classes)}
    y = np.array([label[cls] for cls, _ in lines])
    model = LogisticRegression(C=c, max_iter=3000)
    model.fit(matrix, y)
    weights = model.coef_
    table: dict[str, list[tuple[int, float]]] = {}
    for k in range(len(classes)):
        row = weights[k]
        for j in np.argsort(-np.abs(row))[: OUT_KEEP if classes[k] == learned.OUT else keep]:
            if row[j] != 0.0:
                table.setdefault(names[j], []).append((k, _round(float(row[j]))))
    kept = sorted(table)
    features: dict[str, list[float]] = {"names": kept, "idf": [_round(idf[f]) for f in kept], "starts": [0]}
    features["owners"], features["weights"] = [], []
    for f in kept:
        for k, w in table[f]:
            features["owners"].append(k)
            features["weights"].append(w)
        features["starts"].append(len(features["owners"]))
    return {
        "format": learned.FORMAT,
        "trained_on": fingerprint,
        "settings": {
            "c": c,
            "keep": keep,
            "out_keep": OUT_KEEP,
            "sets": list(SETS),
            "bench": learned.fingerprint(extra),
        },
        "classes": classes,
        "bias": [_round(float(b)) for b in model.intercept_],
        "features": features,
    }


def _settings(path: Path) -> dict[str, object]:
    """The settings the shipped model was trained with (learned.read keeps only what `ask` uses)."""
    settings = json.loads(path.read_text(encoding="utf-8")).get("settings")
    return settings if isinstance(settings, dict) else {}


def _round(x: float) -> float:
    return float(f"{x:.{DIGITS}g}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--c", type=float, default=C)
    parser.add_argument("--keep", type=int, default=KEEP)
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / learned.FILE)
    parser.add_argument("--check", action="store_true", help="only say whether the shipped model is current")
    args = parser.parse_args(argv)
    lines = learned.training_lines(load_game(folder) for folder in game_folders(ROOT / "rules"))
    extra = bench_lines(SETS)
    if args.check:
        shipped = learned.read(ROOT / "rules")
        current = (
            shipped is not None
            and shipped["trained_on"] == learned.fingerprint(lines)
            and _settings(ROOT / "rules" / learned.FILE).get("bench") == learned.fingerprint(extra)
        )
        print(
            "rules/ranker.json is current" if current else "rules/ranker.json is stale or missing: run bench/ranker.py"
        )
        return 0 if current else 1
    model = train(lines, args.c, args.keep, extra)
    text = json.dumps(model, separators=(",", ":"), ensure_ascii=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    table: dict[str, list[object]] = model["features"]  # type: ignore[assignment]
    print(
        f"{args.out}: {len(lines)} clause lines and {len(extra)} bench questions, "
        f"{len(model['classes'])} classes, "  # type: ignore[arg-type]
        f"{len(table['names'])} features, {len(table['weights'])} weights, {len(text)} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
