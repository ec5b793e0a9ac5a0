"""Train the phrasing model (rulesref/learned.py) and write rules/ranker.json.

    pip install -e '.[train]'
    python bench/ranker.py [--c C] [--keep N] [--check]

A multinomial logistic regression (scikit-learn, lbfgs) over the tf-idf features that
rulesref/learned.py computes, trained on every clause's title and asks: no bench question
is among them. Each class keeps only its KEEP largest weights (by size), so the file stays
small and a cold `ask` reads little; the idf is kept for every feature those weights use.
``--check`` trains, writes nothing, and says whether rules/ranker.json is the model these
lines and settings give (its fingerprint), which `rulesref lint` checks too.

Run it after any change to a clause's title or asks: the index ignores a model whose
fingerprint no longer matches the rule packs (see learned.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref import learned  # noqa: E402
from rulesref.corpus import game_folders, load_game  # noqa: E402

C = 10.0
"""Inverse regularisation strength: chosen on held-out sets 1-33 (bench/README.md)."""
KEEP = 1000
"""Weights kept per class, the largest by size."""
DIGITS = 5
"""Significant digits a weight or idf keeps in the file."""


def train(lines: list[tuple[str, str]], c: float, keep: int) -> dict[str, object]:
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

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
        for j in np.argsort(-np.abs(row))[:keep]:
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
        "trained_on": learned.fingerprint(lines),
        "settings": {"c": c, "keep": keep},
        "classes": classes,
        "bias": [_round(float(b)) for b in model.intercept_],
        "features": features,
    }


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
    if args.check:
        shipped = learned.read(ROOT / "rules")
        current = shipped is not None and shipped["trained_on"] == learned.fingerprint(lines)
        print(
            "rules/ranker.json is current" if current else "rules/ranker.json is stale or missing: run bench/ranker.py"
        )
        return 0 if current else 1
    model = train(lines, args.c, args.keep)
    text = json.dumps(model, separators=(",", ":"), ensure_ascii=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    table: dict[str, list[object]] = model["features"]  # type: ignore[assignment]
    print(
        f"{args.out}: {len(lines)} lines, {len(model['classes'])} classes, "  # type: ignore[arg-type]
        f"{len(table['names'])} features, {len(table['weights'])} weights, {len(text)} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
