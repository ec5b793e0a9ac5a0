"""Benchmark `rulesref ask` against a plain BM25 baseline, and time a cold `ask`.

    python bench/lookup.py [--questions FILE] [--runs N] [--no-timing]

Each question (bench/questions.yaml: q, id, also, game, kind) is asked of every game at
once, as a player would. A question counts as right at top-1 when the first result is its
``id`` or one of its ``also`` ids, and at top-3 when one of them is in the first three.
MRR uses the rank of the first right id in the first ten (0 when absent). The baseline is
Okapi BM25 over each clause's title, text, asks and tags: lowercase alphanumeric words,
no stemming, no stop words, no glossary, no typo tolerance.

Timing: the installed `rulesref ask` (the console script beside this Python) against
`python -c "import typer, rich, rapidfuzz, yaml"`, run alternately, with the index cache
and Python's bytecode caches warm (as after `pip install .`). Wall medians are the target's
measure; CPU medians are printed too because they move less when the machine is busy.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from rulesref import lookup  # noqa: E402
from rulesref.corpus import Clause, game_folders, load_game  # noqa: E402

Ranker = Callable[[str], list[str]]
"""A question -> clause ids, best first."""
DEPTH = 10
TIMED_QUESTION = "can the DA pawn go thru a wall??"


@dataclass(frozen=True)
class Question:
    q: str
    id: str
    also: tuple[str, ...]
    game: str
    kind: str

    @property
    def right(self) -> frozenset[str]:
        return frozenset((self.id, *self.also))


def load_questions(path: Path) -> list[Question]:
    """The question set; a malformed entry stops the benchmark with its index."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(Question(item["q"], item["id"], tuple(item.get("also") or ()), item["game"], item["kind"]))
        except (KeyError, TypeError) as exc:
            raise SystemExit(f"{path}: question {i}: missing {exc}") from None
    return out


# --- the rankers ---------------------------------------------------------------------


def rulesref_ranker() -> Ranker:
    def rank(q: str) -> list[str]:
        return [h.clause.id for h in lookup.ask(q, top=DEPTH).hits]

    return rank


class BM25:
    """Okapi BM25 (k1 1.2, b 0.75) over title + text + asks + tags, one document per clause."""

    def __init__(self, clauses: Iterable[Clause], k1: float = 1.2, b: float = 0.75) -> None:
        self.ids: list[str] = []
        self.docs: list[Counter[str]] = []
        for c in clauses:
            self.ids.append(c.id)
            self.docs.append(Counter(tokens(" ".join((c.title, c.text, *c.asks, *c.tags)))))
        self.k1, self.b = k1, b
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lengths) / len(self.docs)
        df: Counter[str] = Counter(t for d in self.docs for t in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def rank(self, q: str) -> list[str]:
        scores = []
        for i, d in enumerate(self.docs):
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
            s = sum(self.idf[t] * d[t] * (self.k1 + 1) / (d[t] + norm) for t in set(tokens(q)) if t in d)
            if s > 0:
                scores.append((-s, i))
        return [self.ids[i] for _, i in sorted(scores)[:DEPTH]]


def tokens(text: str) -> list[str]:
    import re

    return re.findall(r"[a-z0-9]+", text.lower())


# --- scoring -------------------------------------------------------------------------


@dataclass
class Tally:
    n: int = 0
    top1: int = 0
    top3: int = 0
    rr: float = 0.0

    def add(self, ranked: Sequence[str], right: frozenset[str]) -> None:
        self.n += 1
        self.top1 += bool(ranked[:1] and ranked[0] in right)
        self.top3 += any(r in right for r in ranked[:3])
        self.rr += next((1 / (i + 1) for i, r in enumerate(ranked) if r in right), 0.0)

    def row(self) -> str:
        if not self.n:
            return "   -      -      -  "
        return f"{self.top1 / self.n:6.1%} {self.top3 / self.n:6.1%} {self.rr / self.n:6.3f}"


@dataclass
class Report:
    overall: Tally
    groups: dict[str, Tally]
    misses: list[tuple[Question, list[str]]]


def evaluate(questions: Sequence[Question], rank: Ranker) -> Report:
    """Top-1, top-3 and MRR overall, per game and per kind, with the top-1 misses."""
    overall = Tally()
    groups: dict[str, Tally] = defaultdict(Tally)
    misses = []
    for q in questions:
        ranked = rank(q.q)
        for t in (overall, groups[f"game {q.game}"], groups[f"kind {q.kind}"]):
            t.add(ranked, q.right)
        if not (ranked and ranked[0] in q.right):
            misses.append((q, ranked))
    return Report(overall, dict(sorted(groups.items())), misses)


def misreading_flags(questions: Sequence[Question]) -> tuple[int, int, int, int]:
    """(flagged, of misreading-kind questions; flagged, of the others) on the top hit."""
    hit_m = n_m = hit_o = n_o = 0
    for q in questions:
        hits = lookup.ask(q.q, top=1).hits
        flagged = bool(hits and hits[0].misreading)
        if q.kind == "misreading":
            n_m, hit_m = n_m + 1, hit_m + flagged
        else:
            n_o, hit_o = n_o + 1, hit_o + flagged
    return hit_m, n_m, hit_o, n_o


# --- timing --------------------------------------------------------------------------


# Timed as a user runs them: Python may cache compiled modules (an installed package has
# them from the start; a checkout writes them on the first run), whatever this shell says.
TIMING_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_times(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of each run of a command."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=TIMING_ENV)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def rulesref_command() -> list[str]:
    """The installed console script next to this Python (a pyenv shim would add its own time)."""
    here = Path(sys.executable).parent / "rulesref"
    found = str(here) if here.exists() else shutil.which("rulesref")
    return [found] if found else [sys.executable, "-m", "rulesref"]


def timing(runs: int) -> None:
    ask = [*rulesref_command(), "ask", TIMED_QUESTION]
    deps = [sys.executable, "-c", "import typer, rich, rapidfuzz, yaml"]
    for argv in (ask, deps):  # warm the index cache and the compiled-module caches
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=TIMING_ENV)
    t_ask: tuple[list[float], list[float]] = ([], [])
    t_deps: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):  # interleaved, so a busy moment slows both alike
        for total, argv in ((t_ask, ask), (t_deps, deps)):
            wall, cpu = run_times(argv, 1)
            total[0].extend(wall)
            total[1].extend(cpu)
    print(f"\ncold start, {runs} runs each, interleaved (index and bytecode caches warm; {ask[0]}):")
    print(f"  {'':50} {'wall median':>11} {'wall min':>9} {'CPU median':>11}")
    shown_ask = f'rulesref ask "{TIMED_QUESTION}"'
    shown_deps = 'python -c "import typer, rich, rapidfuzz, yaml"'
    for label, (walls, cpus) in ((shown_ask, t_ask), (shown_deps, t_deps)):
        print(f"  {label:50} {_ms(statistics.median(walls))} {_ms(min(walls), 9)} {_ms(statistics.median(cpus))}")
    ratio = statistics.median(t_ask[0]) / statistics.median(t_deps[0])
    cpu_ratio = statistics.median(t_ask[1]) / statistics.median(t_deps[1])
    print(f"  ratio (wall medians) {ratio:.2f}; (CPU medians) {cpu_ratio:.2f}; target <= 1.30")


def _ms(seconds: float, width: int = 11) -> str:
    return f"{seconds * 1000:{width - 3}.0f} ms"


# --- output --------------------------------------------------------------------------


def print_reports(ours: Report, base: Report) -> None:
    print(f"{'':34} {'rulesref':^21}   {'BM25 baseline':^21}")
    print(f"{'':34} {'top-1':>6} {'top-3':>6} {'MRR':>6}   {'top-1':>6} {'top-3':>6} {'MRR':>6}    n")
    print(f"{'all':34} {ours.overall.row()}   {base.overall.row()}  {ours.overall.n:3}")
    for name, tally in ours.groups.items():
        print(f"{name:34} {tally.row()}   {base.groups[name].row()}  {tally.n:3}")


def print_misses(report: Report) -> None:
    print(f"\nrulesref top-1 misses ({len(report.misses)}):")
    for q, ranked in report.misses:
        got = ", ".join(ranked[:3]) or "(no result)"
        also = f" (or {', '.join(q.also)})" if q.also else ""
        print(f"  [{q.kind}] {q.q}\n      expected {q.id}{also}; got {got}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=Path, default=ROOT / "bench" / "questions.yaml")
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each command")
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args(argv)
    questions = load_questions(args.questions)
    clauses = [c for folder in game_folders() for c in load_game(folder).clauses.values()]
    print(f"{args.questions.name}: {len(questions)} questions, {len(clauses)} clauses, both games searched at once")
    print("right = the expected id, or one of its `also` ids; MRR over the first 10 results\n")
    ours = evaluate(questions, rulesref_ranker())
    base = evaluate(questions, BM25(clauses).rank)
    print_reports(ours, base)
    hit_m, n_m, hit_o, n_o = misreading_flags(questions)
    print(f"\nmisreading flagged on the top answer: {hit_m}/{n_m} misreading questions, {hit_o}/{n_o} others")
    print_misses(ours)
    if not args.no_timing:
        timing(args.runs)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "100")
    sys.exit(main())
