"""A third game, added without touching cli.py, render.py or referee.py (tests/toy_game/).

Toy Race is written the way docs/corpus.md ("Adding a game") says: its pack (rules/toy-race/),
a model, a reader on rulesref.fields and a rule module on the Trail. Here its folder is put
on the path of ``rulesref.games`` and RULESREF_RULES at its rules, and its scenarios are
ruled through the referee and the real CLI.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulesref.games
from rulesref.errors import ScenarioError
from rulesref.games import all_games
from rulesref.referee import check_file
from rulesref.ruling import Basis, Verdict

TOY = Path(__file__).parent / "toy_game"
SCENARIOS = sorted((TOY / "scenarios").glob("*.yaml"))


@pytest.fixture(autouse=True)
def toy_race(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("RULESREF_RULES", str(TOY / "rules"))
    monkeypatch.setattr(rulesref.games, "__path__", [*rulesref.games.__path__, str(TOY / "engines")])
    all_games.cache_clear()
    yield
    all_games.cache_clear()
    for name in [m for m in sys.modules if m.startswith("rulesref.games.toy_race")]:
        del sys.modules[name]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_toy_scenario_holds_its_expectation(path: Path) -> None:
    ruling = check_file(path)
    assert ruling.game == "toy-race"
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect


def test_the_toy_ruling_cites_its_pack_and_draws_its_picture() -> None:
    ruling = check_file(TOY / "scenarios" / "landing-send-back.yaml")
    assert [(s.clause, s.basis) for s in ruling.steps] == [("race.move", Basis.RULE), ("open.landing", Basis.READING)]
    assert ruling.readings == {"landing": "send-back"}
    assert ruling.picture == "b . . . r . ."
    assert check_file(TOY / "scenarios" / "win.yaml", picture=False).picture is None


def test_an_open_question_and_a_claim_are_settled_by_the_shared_referee() -> None:
    ruling = check_file(TOY / "scenarios" / "landing-open.yaml")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert [c.upheld for c in ruling.claims] == [None]


def test_the_cli_rules_on_the_toy_game(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("check", str(TOY / "scenarios"), "--json")
    assert result.code == 0, result.err
    assert '"game": "toy-race"' in result.out
    shown = cli("check", str(TOY / "scenarios" / "overshoot.yaml"))
    assert shown.code == 0 and "ILLEGAL" in shown.out and "race.no-overshoot" in shown.out


def test_a_toy_scenario_that_cannot_be_read_names_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: toy-race\ntitle: t\ntrack: 6\npawns: {red: 1}\naction: {move: red, rol: 2}\n")
    with pytest.raises(ScenarioError) as err:
        check_file(bad)
    e = err.value
    assert (e.file, e.line, e.column, e.field) == (str(bad), 5, 21, "action.rol")
    assert (e.message, e.hint) == ("unknown key 'rol'", "did you mean 'roll'?")
