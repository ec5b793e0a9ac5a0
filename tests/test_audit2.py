"""Findings of source audit 2 (reports/audit2.md): each test would have caught one.

The sources are the shared facts files and source pages; a step must cite a clause that
says what the step says, and where the sources are silent the step rests on a named
reading or an open clause.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.games import find_game
from rulesref.referee import check_file
from rulesref.ruling import Basis, Ruling, Verdict

ROOT = Path(__file__).resolve().parents[1]
PACG = ROOT / "scenarios" / "pacg"
HVDA = ROOT / "scenarios" / "houses-vs-dark-arts"


def _rule(folder: Path, name: str) -> Ruling:
    ruling = check_file(folder / f"{name}.yaml")
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    return ruling


# --- 5.1 / 4.7: no source gives the reroll a last moment -----------------------------


def test_a_reroll_after_the_damage_was_answered_is_undetermined_without_a_reading() -> None:
    ruling = _rule(PACG, "reroll-after-damage-undetermined")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert [s.clause for s in ruling.steps if s.basis is Basis.OPEN] == ["open.reroll-after-damage"]


@pytest.mark.parametrize(("option", "verdict"), [("refused", Verdict.ILLEGAL), ("allowed", Verdict.LEGAL)])
def test_a_reroll_after_the_damage_was_answered_rests_on_a_reading(option: str, verdict: Verdict) -> None:
    name = "reroll-after-damage-reduced" if option == "refused" else "reroll-after-damage-allowed"
    ruling = _rule(PACG, name)
    assert ruling.verdict is verdict and ruling.readings == {"reroll-after-damage": option}
    # nothing about rerolls rests on the sub-step order as a rule
    assert not [s for s in ruling.steps if s.clause == "check.sub-steps"]


def test_no_reading_without_a_default_is_left_without_its_open_clause() -> None:
    game = find_game("pacg")
    reading = game.readings["reroll-after-damage"]
    assert reading.default is None and game.clause(reading.open).kind == "open"


# --- 1.1: check.sub-steps says its order is inferred -----------------------------------


def test_the_sub_step_order_is_stated_as_inferred_and_says_nothing_of_rerolls() -> None:
    clause = find_game("pacg").clause("check.sub-steps")
    assert "inferred" in clause.text and "titles" in clause.text
    words = " ".join([clause.text, *(m.correction for m in clause.misreadings)])
    assert "reroll" not in words and "later moment" not in words


# --- 4.6: the hero point reroll says it is a hero point --------------------------------


def test_the_hero_point_reroll_names_the_hero_point_and_not_a_guess() -> None:
    ruling = _rule(PACG, "hero-point-reroll")
    [step] = [s for s in ruling.steps if s.clause == "check.hero-point"]
    assert "such as" not in step.says and "hero point" in step.says
    assert "worked out from the replaced roll" in step.says
