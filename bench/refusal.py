"""Fit the refusal model of `ask` (rulesref/lookup.py OUT_OF_SCOPE) and print how it refuses.

    python bench/refusal.py [--questions FILE ...] [--weight W] [--l2 L] [--at P]

The model is a logistic regression on what the ranking already knows about a question
(lookup.refusal_features): the best clause's score, analysed score, closest line and matched
terms, the log of its evidence, the best left-out topic's score, and the log of the question's
content words. Its label is whether the question is out of scope (``id: null``). An
out-of-scope question counts ``--weight`` times an in-scope one, since answering one aloud
costs more than refusing a question that had an answer.

It prints the weights to put in OUT_OF_SCOPE (fitted on every set given), then, for each set
left out in turn and the model fitted on the others, the refusal confusion of the ranking with
the model added at ``--at``, against the ranking without it. The left-out figures are the
honest ones: a set the model was fitted on measures nothing.

Pure Python (Newton's method on a handful of features), so the fit needs nothing installed.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from rulesref import index, lookup  # noqa: E402

FEATURES = ("score", "own", "line", "matched", "evidence", "left_out", "words")
DEFAULT_SETS = ("holdout*.yaml", "scope*.yaml", "short*.yaml", "roles*.yaml", "questions.yaml")
ITERATIONS = 12


class Row:
    def __init__(self, name: str, features: dict[str, float], out: bool, refused: bool) -> None:
        self.set, self.features, self.out, self.refused = name, features, out, refused


def rows_of(path: Path) -> list[Row]:
    """Each question of a set with a clause to rank: its features, label and the refusal without the model."""
    every = lookup.load_index()["games"]
    rows = []
    for item in yaml.safe_load(path.read_text(encoding="utf-8")):
        tokens = index.words(item["q"])[: lookup.MAX_WORDS]
        if not any(t not in index.STOP for t in tokens):
            continue
        ranked = lookup._same_words_first(lookup._rank(item["q"], tokens, every, every))
        clauses = [r for r in ranked if not r.left_out]
        if not clauses:
            continue
        refused = ranked[0].left_out or not lookup.answers(clauses[0])
        rows.append(Row(path.stem, lookup.refusal_features(ranked, tokens), item["id"] is None, refused))
    return rows


def fit(rows: Sequence[Row], weight: float, l2: float) -> dict[str, float]:
    """Logistic regression by Newton's method on standardised features; weights on the raw ones."""
    k = len(FEATURES)
    mean = [sum(r.features[f] for r in rows) / len(rows) for f in FEATURES]
    sd = [
        math.sqrt(sum((r.features[f] - m) ** 2 for r in rows) / len(rows)) or 1.0
        for f, m in zip(FEATURES, mean, strict=True)
    ]
    xs = [[1.0, *((r.features[f] - m) / s for f, m, s in zip(FEATURES, mean, sd, strict=True))] for r in rows]
    ys = [1.0 if r.out else 0.0 for r in rows]
    cs = [weight if r.out else 1.0 for r in rows]
    w = [0.0] * (k + 1)
    for _ in range(ITERATIONS):
        grad = [l2 * wi if i else 0.0 for i, wi in enumerate(w)]
        hess = [[(l2 if i == j and i else 0.0) for j in range(k + 1)] for i in range(k + 1)]
        for x, y, c in zip(xs, ys, cs, strict=True):
            p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, sum(a * b for a, b in zip(w, x, strict=True))))))
            for i in range(k + 1):
                grad[i] += c * (p - y) * x[i]
                for j in range(i, k + 1):
                    hess[i][j] += c * p * (1 - p) * x[i] * x[j]
        for i in range(k + 1):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
    out = {"bias": w[0] - sum(w[i + 1] * m / s for i, (m, s) in enumerate(zip(mean, sd, strict=True)))}
    out.update({f: w[i + 1] / s for i, (f, s) in enumerate(zip(FEATURES, sd, strict=True))})
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def chance(weights: dict[str, float], features: dict[str, float]) -> float:
    saved = dict(lookup.OUT_OF_SCOPE)
    lookup.OUT_OF_SCOPE.update(weights)
    try:
        return lookup.out_of_scope(features)
    finally:
        lookup.OUT_OF_SCOPE.update(saved)


def confusion(rows: Sequence[Row], refused: Sequence[bool]) -> str:
    ins = [f for r, f in zip(rows, refused, strict=True) if not r.out]
    outs = [f for r, f in zip(rows, refused, strict=True) if r.out]
    a = f"in scope refused {sum(ins)}/{len(ins)} ({100 * sum(ins) / len(ins):.1f}%)" if ins else "in scope -"
    b = f"out of scope answered {len(outs) - sum(outs)}/{len(outs)}" if outs else "out of scope -"
    return f"{a}; {b}" + (f" ({100 * (len(outs) - sum(outs)) / len(outs):.1f}%)" if outs else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, action="append", help="a question set (repeatable)")
    parser.add_argument("--weight", type=float, default=3.0, help="weight of an out-of-scope question")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the standardised weights")
    parser.add_argument("--at", type=float, default=lookup.REFUSE_AT, help="chance at which to refuse")
    args = parser.parse_args(argv)
    paths = args.questions or sorted({p for pattern in DEFAULT_SETS for p in (ROOT / "bench").glob(pattern)})
    by_set = {p.stem: rows_of(p) for p in paths}
    rows = [r for rs in by_set.values() for r in rs]
    weights = fit(rows, args.weight, args.l2)
    print(f"fitted on {len(rows)} questions of {len(by_set)} sets (weight {args.weight}, l2 {args.l2}):")
    print("OUT_OF_SCOPE = {" + ", ".join(f'"{k}": {v:.4f}' for k, v in weights.items()) + "}")
    print(f"\neach set left out, the model fitted on the others, refusing at {args.at}:")
    before_all: list[bool] = []
    after_all: list[bool] = []
    held: list[Row] = []
    for name, test in by_set.items():
        others = [r for r in rows if r.set != name]
        w = fit(others, args.weight, args.l2)
        after = [r.refused or chance(w, r.features) >= args.at for r in test]
        before = [r.refused for r in test]
        print(f"  {name:10} without {confusion(test, before)}\n  {'':10} with    {confusion(test, after)}")
        before_all += before
        after_all += after
        held += test
    print("\nall sets, left out in turn:")
    print(f"  without {confusion(held, before_all)}\n  with    {confusion(held, after_all)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
