"""Every scenario file is a test case: its ruling must meet its own ``expect`` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.errors import RulesrefError
from rulesref.games import all_games
from rulesref.referee import check_file
from rulesref.ruling import Basis, Verdict

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT / "scenarios")) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    ruling = check_file(path)
    assert ruling.expect is not None, f"{path.name} has no expect block: a scenario must say what it tests"
    assert "verdict" in (ruling.expect and _expect_keys(path)), f"{path.name}: expect must name the verdict"
    assert ruling.expect.ok, (
        f"{path.name}: {'; '.join(ruling.expect.mismatches)}\n"
        f"verdict={ruling.verdict.value} summary={ruling.summary!r}\n"
        + "\n".join(f"  {s.clause}: {s.says}" for s in ruling.steps)
    )
    assert ruling.steps, f"{path.name}: a ruling must cite at least one clause"


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT / "scenarios")) for p in SCENARIOS])
def test_a_verdict_that_turns_on_a_reading_says_so_in_a_deciding_step(path: Path) -> None:
    # Where another option of a reading the ruling used gives another verdict, the steps the
    # verdict rests on include one resting on a reading (or an open one): a deciding step
    # marked `rule` would present the reading's consequence as printed rule.
    ruling = check_file(path, picture=False)
    readings = {r.id: r for g in all_games() for r in g.readings.values() if g.id == ruling.game}
    deciding = [s for s in ruling.steps if s.decides]
    for rid, option in ruling.readings.items():
        for other in (o.id for o in readings[rid].options if o.id != option):
            try:
                changed = check_file(path, [(rid, other)], picture=False)
            except RulesrefError:  # the situation does not say enough to rule under that option
                assert rid not in ruling.moot, f"{path.name}: {rid}={other} cannot be ruled, so it is not moot"
                continue
            if rid in ruling.moot:
                assert (changed.verdict, changed.summary, changed.state) == (
                    ruling.verdict,
                    ruling.summary,
                    ruling.state,
                ), f"{path.name}: {rid} is listed as ruling the same, but {rid}={other} rules otherwise"
            if changed.verdict is not ruling.verdict and ruling.verdict is not Verdict.LEGAL:
                assert any(s.basis is not Basis.RULE for s in deciding), (
                    f"{path.name}: {rid}={other} rules {changed.verdict.value}, yet every step deciding "
                    f"{ruling.verdict.value} is a rule step"
                )


def _expect_keys(path: Path) -> set[str]:
    from rulesref.source import load_yaml

    return set(load_yaml(path).data.get("expect") or {})


def test_many_files_are_ruled_in_parallel_exactly_as_one_by_one(tmp_path: Path, monkeypatch) -> None:
    """check_many forks workers for a big folder; order, rulings and errors must not change."""
    import pickle

    from rulesref import referee
    from rulesref.errors import ScenarioError

    files = SCENARIOS[:150] * 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: pacg\ntitle: x\ntitle: y\n")
    files = [*files[:100], bad, *files[100:]]
    monkeypatch.setattr(referee, "PARALLEL_FROM", 10**9)
    serial = list(referee.check_many(files))
    monkeypatch.setattr(referee, "PARALLEL_FROM", 2)
    parallel = list(referee.check_many(files))
    assert [type(r) for r in parallel] == [type(r) for r in serial]
    assert isinstance(parallel[100], ScenarioError) and str(parallel[100]) == str(serial[100])
    assert [r.to_json() for r in parallel if not isinstance(r, Exception)] == [
        r.to_json() for r in serial if not isinstance(r, Exception)
    ]
    error = ScenarioError("unknown key 'x'", file="a.yaml", line=3, column=5, field="pawns.x", hint="did you mean?")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.field, copy.line) == (ScenarioError, str(error), "pawns.x", 3)
