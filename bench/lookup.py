"""Benchmark `rulesref ask` against a plain BM25 baseline, and time a cold `ask`.

    python bench/lookup.py [--questions FILE] [--runs N] [--no-timing] [--loo N] [--perturb]

Each question (bench/questions.yaml: q, id, also, game, kind) is asked of every game at
once, as a player would. A question counts as right at top-1 when the first result is its
``id`` or one of its ``also`` ids, and at top-3 when one of them is in the first three.
MRR uses the rank of the first right id in the first ten (0 when absent). A question with
``id: null`` is out of scope: the packs hold no answer, and the right thing is a refusal.
The figures are printed overall, per game and per kind, with the refusal confusion (in-scope
questions refused, out-of-scope questions answered); top-1, top-3 and MRR count in-scope
questions only, and an in-scope question refused is a miss.

The baseline is Okapi BM25 (the rank-bm25 library, k1 1.2, b 0.75) over each clause's title,
text, asks and tags: lowercase alphanumeric words, no stemming, no stop words, no glossary,
no typo tolerance. It is an outside yardstick, not one of rulesref's own parts, and it never
refuses.

Generalisation checks that use no held-out questions: ``--loo N`` asks N of the clauses'
own ``asks`` (a fixed sample; 0 = all) of an index built without that ask, and
``--perturb`` asks machine-made variants of the question set: one word dropped, a 1-edit
typo in a short word, and everything lowercased with the punctuation stripped.

Timing: the installed `rulesref ask` (the console script beside this Python) against
`python -c "import typer, rich, rapidfuzz, yaml"`, run alternately, with the index cache
and Python's bytecode caches warm (as after `pip install .`). Wall medians are the target's
measure; CPU medians are printed too because they move less when the machine is busy.
"""

from __future__ import annotations

import argparse
import os
import random as random_module
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
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
    id: str | None
    """None: out of scope, the right answer is a refusal."""
    also: tuple[str, ...]
    game: str | None
    kind: str

    @property
    def right(self) -> frozenset[str]:
        return frozenset((self.id, *self.also)) if self.id else frozenset()

    @property
    def in_scope(self) -> bool:
        return self.id is not None


def load_questions(path: Path) -> list[Question]:
    """The question set; a malformed entry stops the benchmark with its index."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(Question(item["q"], item["id"], tuple(item.get("also") or ()), item.get("game"), item["kind"]))
        except (KeyError, TypeError) as exc:
            raise SystemExit(f"{path}: question {i}: missing {exc}") from None
    return out


# --- the rankers ---------------------------------------------------------------------


def rulesref_ranker() -> Ranker:
    def rank(q: str) -> list[str]:
        return [h.clause.id for h in lookup.ask(q, top=DEPTH).hits]

    return rank


class BM25:
    """Okapi BM25 (rank-bm25's BM25Okapi, k1 1.2, b 0.75) over title + text + asks + tags,
    one document per clause."""

    def __init__(self, clauses: Iterable[Clause], k1: float = 1.2, b: float = 0.75) -> None:
        from rank_bm25 import BM25Okapi

        self.ids: list[str] = []
        docs: list[list[str]] = []
        for c in clauses:
            self.ids.append(c.id)
            docs.append(tokens(" ".join((c.title, c.text, *c.asks, *c.tags))))
        self.model = BM25Okapi(docs, k1=k1, b=b)

    def rank(self, q: str) -> list[str]:
        words = tokens(q)
        if not words:
            return []
        scores = self.model.get_scores(words)
        ranked = sorted((-float(x), i) for i, x in enumerate(scores) if x > 0)
        return [self.ids[i] for _, i in ranked[:DEPTH]]


def tokens(text: str) -> list[str]:
    import re

    return re.findall(r"[a-z0-9]+", text.lower())


# --- scoring -------------------------------------------------------------------------


@dataclass
class Tally:
    n: int = 0
    """In-scope questions."""
    top1: int = 0
    top3: int = 0
    rr: float = 0.0
    refused: int = 0
    """In-scope questions given no answer."""
    outside: int = 0
    """Out-of-scope questions."""
    answered: int = 0
    """Out-of-scope questions given an answer."""

    def add(self, ranked: Sequence[str], right: frozenset[str]) -> None:
        if not right:  # out of scope: only a refusal is right
            self.outside += 1
            self.answered += bool(ranked)
            return
        self.n += 1
        self.top1 += bool(ranked[:1] and ranked[0] in right)
        self.top3 += any(r in right for r in ranked[:3])
        self.rr += next((1 / (i + 1) for i, r in enumerate(ranked) if r in right), 0.0)
        self.refused += not ranked

    def row(self) -> str:
        if not self.n:
            return "   -      -      -  "
        return f"{self.top1 / self.n:6.1%} {self.top3 / self.n:6.1%} {self.rr / self.n:6.3f}"

    def confusion(self) -> str:
        """In-scope refused and out-of-scope answered, as counts and shares."""
        inside = f"{self.refused}/{self.n} ({self.refused / self.n:.1%})" if self.n else "-"
        outside = f"{self.answered}/{self.outside} ({self.answered / self.outside:.1%})" if self.outside else "-"
        return f"in-scope refused {inside}; out-of-scope answered {outside}"


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
        for t in (overall, groups[f"game {q.game or 'none'}"], groups[f"kind {q.kind}"]):
            t.add(ranked, q.right)
        missed = (not ranked or ranked[0] not in q.right) if q.in_scope else bool(ranked)
        if missed:
            misses.append((q, ranked))
    return Report(overall, dict(sorted(groups.items())), misses)


def misreading_flags(questions: Sequence[Question]) -> tuple[int, int, int, int]:
    """(flagged, of misreading-kind questions; flagged, of the others) on the top hit."""
    hit_m = n_m = hit_o = n_o = 0
    for q in questions:
        hits = lookup.ask(q.q, top=1).hits
        flagged = bool(hits and hits[0].misreading)
        if q.kind in ("misreading", "claim"):
            n_m, hit_m = n_m + 1, hit_m + flagged
        else:
            n_o, hit_o = n_o + 1, hit_o + flagged
    return hit_m, n_m, hit_o, n_o


# --- generalisation checks -------------------------------------------------------------


def leave_one_out(sample: int, seed: int = 1) -> Tally:
    """Each sampled ask of a clause, asked of an index built without that ask."""
    import dataclasses
    import random

    from rulesref import cache, index
    from rulesref.corpus import rules_root

    games = [load_game(folder) for folder in game_folders()]
    items = [(gi, c, j) for gi, g in enumerate(games) for c in g.clauses.values() for j in range(len(c.asks))]
    if sample and sample < len(items):
        items = random.Random(seed).sample(items, sample)
    root = rules_root().resolve()
    key = cache.key(root)
    tally = Tally()
    for gi, c, j in items:
        fewer = c._replace(asks=tuple(a for k, a in enumerate(c.asks) if k != j))
        game = dataclasses.replace(games[gi], clauses={**games[gi].clauses, c.id: fewer})
        built = index.build_games([game if k == gi else g for k, g in enumerate(games)])
        lookup._loaded.clear()
        lookup._loaded[key] = {"key": key, "games": built}
        tally.add([h.clause.id for h in lookup.ask(c.asks[j], top=DEPTH).hits], frozenset({c.id}))
    lookup._loaded.clear()
    return tally


def _function_words() -> frozenset[str]:
    from rulesref.index import STOP

    return STOP | {"or", "what", "when", "who", "how", "why", "which", "where"}


def perturbations(questions: Sequence[Question], seed: int = 1) -> dict[str, list[Question]]:
    """Machine-made variants of the questions: a word dropped, a short word misspelt, plain lowercase."""
    import random
    import re

    rnd = random.Random(seed)
    function = _function_words()
    out: dict[str, list[Question]] = {"drop a word": [], "typo in a short word": [], "lowercase, no punctuation": []}
    for q in questions:
        ws = q.q.split()
        if len(ws) >= 4:
            k = rnd.randrange(len(ws))
            out["drop a word"].append(_variant(q, " ".join(ws[:k] + ws[k + 1 :])))
        short = [i for i, w in enumerate(ws) if 3 <= len(w) <= 4 and w.isalpha() and w.lower() not in function]
        if short:
            i = rnd.choice(short)
            out["typo in a short word"].append(_variant(q, " ".join([*ws[:i], _typo(ws[i], rnd), *ws[i + 1 :]])))
        out["lowercase, no punctuation"].append(_variant(q, re.sub(r"[^\w\s]", "", q.q.lower())))
    return out


def _variant(q: Question, text: str) -> Question:
    return Question(text, q.id, q.also, q.game, q.kind)


def _typo(word: str, rnd: random_module.Random) -> str:
    """One edit after the first letter: a letter changed, dropped, doubled or swapped."""
    i = rnd.randrange(1, len(word))
    kind = rnd.choice(("change", "drop", "double", "swap"))
    if kind == "change":
        return word[:i] + rnd.choice([c for c in "aeiourstnl" if c != word[i]]) + word[i + 1 :]
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    j = i if i < len(word) - 1 else i - 1
    return word[:j] + word[j + 1] + word[j] + word[j + 2 :] if j >= 1 else word[:i] + word[i] + word[i:]


def print_generalisation(questions: Sequence[Question], loo: int | None, perturb: bool) -> None:
    if perturb:
        print("\nperturbed questions (top-1 top-3 MRR):")
        for name, variants in perturbations(questions).items():
            print(f"  {name:32} {evaluate(variants, rulesref_ranker()).overall.row()}  {len(variants):3}")
    if loo is not None:
        tally = leave_one_out(loo)
        print(f"\nleave-one-out over the clauses' asks (top-1 top-3 MRR): {tally.row()}  {tally.n:3}")


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
    print(f"{'all (in scope)':34} {ours.overall.row()}   {base.overall.row()}  {ours.overall.n:3}")
    for name, tally in ours.groups.items():
        if tally.n:
            print(f"{name:34} {tally.row()}   {base.groups[name].row()}  {tally.n:3}")
    print(f"\nrefusal (rulesref): {ours.overall.confusion()}")
    for name, tally in ours.groups.items():
        if name.startswith("game ") and (tally.n or tally.outside):
            print(f"  {name:32} {tally.confusion()}")


def print_misses(report: Report) -> None:
    print(f"\nrulesref misses ({len(report.misses)}): top-1 wrong, in-scope refused, out-of-scope answered")
    for q, ranked in report.misses:
        got = ", ".join(ranked[:3]) or "(refused)"
        also = f" (or {', '.join(q.also)})" if q.also else ""
        wanted = f"{q.id}{also}" if q.in_scope else "a refusal"
        print(f"  [{q.kind}] {q.q}\n      expected {wanted}; got {got}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--questions", type=Path, action="append", help="a question set (repeatable; default bench/questions.yaml)"
    )
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each command")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--loo", type=int, metavar="N", help="leave-one-out over N sampled asks (0: all)")
    parser.add_argument("--perturb", action="store_true", help="also ask perturbed variants of the questions")
    args = parser.parse_args(argv)
    files = args.questions or [ROOT / "bench" / "questions.yaml"]
    questions = [q for f in files for q in load_questions(f)]
    clauses = [c for folder in game_folders() for c in load_game(folder).clauses.values()]
    names = " + ".join(f.name for f in files)
    print(f"{names}: {len(questions)} questions, {len(clauses)} clauses, both games searched at once")
    print("right = the expected id, or one of its `also` ids; MRR over the first 10 results\n")
    ours = evaluate(questions, rulesref_ranker())
    base = evaluate(questions, BM25(clauses).rank)
    print_reports(ours, base)
    hit_m, n_m, hit_o, n_o = misreading_flags(questions)
    print(f"\nmisreading flagged on the top answer: {hit_m}/{n_m} misreading questions, {hit_o}/{n_o} others")
    print_misses(ours)
    print_generalisation(questions, args.loo, args.perturb)
    if not args.no_timing:
        timing(args.runs)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "100")
    sys.exit(main())
