"""Time the strict YAML loader (rulesref.source.load_yaml) over every shipped YAML file.

    python bench/source.py [--runs N]

The files (rules/**, scenarios/**, bench/*.yaml) are read into memory once, so the figures
are the loader's own work: parsing, building the values and their marks, and the checks.
Each run loads every file once; the script prints the median and the best run, overall and
per group, as wall time and as CPU time (CPU moves less when the machine is busy), and the
time to refuse a few hostile documents (an alias bomb, deep nesting, a long flat list).
It asserts nothing: compare the figures of two commits run on the same machine.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref.errors import RulesrefError  # noqa: E402  (after the path is set)
from rulesref.source import load_yaml  # noqa: E402

GROUPS = {
    "rules": sorted((ROOT / "rules").rglob("*.yaml")),
    "scenarios": sorted((ROOT / "scenarios").rglob("*.yaml")),
    "bench": sorted((ROOT / "bench").glob("*.yaml")),
}
LOL = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)
HOSTILE = {
    "alias bomb (9 levels of 9 aliases)": LOL,
    "1,000 open brackets": "x: " + "[" * 1000,
    "60 nested mappings": "".join(" " * i + "a:\n" for i in range(60)),
    "100,000 aliases in a list": "a: &a [x, y]\nb: [" + "*a, " * 100_000 + "]\n",
    "flat list of 40,000 words": "[" + "x, " * 40_000 + "]\n",
}


def _time(texts: list[tuple[Path, str]]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for path, text in texts:
        with contextlib.suppress(RulesrefError):  # a hostile document is refused: the time to refuse it is the figure
            load_yaml(path, text=text)
    return time.perf_counter() - wall, time.process_time() - cpu


def _report(name: str, runs: list[tuple[float, float]], files: int, size: int) -> None:
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    print(
        f"{name:38} {files:4} files {size / 1000:8.1f} kB   "
        f"wall median {statistics.median(walls) * 1000:8.1f} ms (best {min(walls) * 1000:7.1f})   "
        f"CPU median {statistics.median(cpus) * 1000:8.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each group (default 15)")
    args = parser.parse_args()
    groups = {name: [(p, p.read_text(encoding="utf-8")) for p in paths] for name, paths in GROUPS.items()}
    groups["all shipped files"] = [item for texts in list(groups.values()) for item in texts]
    for name, texts in groups.items():
        _time(texts)  # a first run warms the imports and caches
        runs = [_time(texts) for _ in range(args.runs)]
        _report(name, runs, len(texts), sum(len(t) for _, t in texts))
    print()
    for name, text in HOSTILE.items():
        texts = [(Path("hostile.yaml"), text)]
        runs = [_time(texts) for _ in range(max(3, args.runs // 3))]
        _report(name, runs, 1, len(text))


if __name__ == "__main__":
    main()
