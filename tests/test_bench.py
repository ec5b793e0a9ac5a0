"""The public question set (bench/questions.yaml): `ask` must find the right clause.

Data-driven, not a timing test: `python bench/lookup.py` prints the full report, the BM25
baseline beside it and the cold start time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "bench" / "questions.yaml"
TOP1, TOP3 = 0.90, 0.97


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_lookup", ROOT / "bench" / "lookup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    if not QUESTIONS.is_file():
        pytest.skip("bench/questions.yaml is not there")
    mp = pytest.MonkeyPatch()
    mp.setenv("RULESREF_CACHE", str(tmp_path_factory.mktemp("cache")))
    yield _bench()
    mp.undo()


def test_every_expected_id_exists(bench: ModuleType) -> None:
    from rulesref.games import all_games

    known = {c for g in all_games() for c in g.clauses}
    wrong = [(q.q, sorted(q.right - known)) for q in bench.load_questions(QUESTIONS) if q.right - known]
    assert not wrong, f"questions name clauses that do not exist: {wrong}"


def test_public_questions_find_the_right_clause(bench: ModuleType) -> None:
    report = bench.evaluate(bench.load_questions(QUESTIONS), bench.rulesref_ranker())
    n = report.overall.n
    top1, top3 = report.overall.top1 / n, report.overall.top3 / n
    misses = "\n".join(
        f"  {q.q!r}: expected {q.id}{' or ' + ', '.join(q.also) if q.also else ''}, got {got[:3]}"
        for q, got in report.misses
    )
    assert top1 >= TOP1 and top3 >= TOP3, (
        f"top-1 {top1:.1%} (>= {TOP1:.0%}), top-3 {top3:.1%} (>= {TOP3:.0%})\n{misses}"
    )


def test_rulesref_beats_plain_bm25(bench: ModuleType) -> None:
    from rulesref.games import all_games

    questions = bench.load_questions(QUESTIONS)
    ours = bench.evaluate(questions, bench.rulesref_ranker()).overall
    base = bench.evaluate(questions, bench.BM25(c for g in all_games() for c in g.clauses.values()).rank).overall
    assert ours.top1 > base.top1 and ours.rr > base.rr
