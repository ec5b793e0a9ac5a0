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
    # the dropped damage is check.damage's to state (audit3 4.3), not the hero point's
    assert "worked out from the replaced roll" not in step.says
    assert any("worked out from the replaced roll" in s.says for s in ruling.steps if s.clause == "check.damage")


# --- 4.1 / 4.2 / 4.3 / 5.2: the Dark Arts Path ----------------------------------------

EFFECT_ADVANCES = [
    "path-advance-to-last-space",
    "path-effect-enters-red-zone",
    "probe-advance-past-last-space-stops",
    "probe-advance-to-last-space",
    "user-advance-into-red-event",
]


@pytest.mark.parametrize("name", EFFECT_ADVANCES)
def test_a_card_or_event_advance_is_not_ruled_by_path_marker(name: str) -> None:
    # path.marker names only a House Replenish and the House Marker set as advancing it
    ruling = _rule(HVDA, name)
    said = [s for s in ruling.steps if "card or event effect advances" in s.says]
    assert said and all(s.clause != "path.marker" and s.basis is not Basis.RULE for s in said)


@pytest.mark.parametrize(
    "name", ["path-effect-enters-red-zone", "path-markers-reach-event-every-advance", "user-advance-into-red-event"]
)
def test_an_event_reached_by_an_advance_other_than_a_replenish_rests_on_event_trigger(name: str) -> None:
    ruling = _rule(HVDA, name)
    resolved = [s for s in ruling.steps if "resolved as after a House Replenish" in s.says]
    assert resolved and all(s.basis is Basis.READING and s.reading == "event-trigger=every-advance" for s in resolved)


def test_an_advance_past_the_last_space_is_undetermined_unless_a_reading_is_chosen() -> None:
    ruling = _rule(HVDA, "probe-advance-past-last-space")
    assert ruling.verdict is Verdict.UNDETERMINED and "path-overflow" not in ruling.readings
    assert any(s.basis is Basis.OPEN and s.clause == "open.path-overflow" for s in ruling.steps)
    stops = _rule(HVDA, "probe-advance-past-last-space-stops")
    assert stops.verdict is Verdict.LEGAL and stops.readings.get("path-overflow") == "stops-at-last"
    stop = [s for s in stops.steps if "moves no further" in s.says]
    assert stop and all(s.basis is Basis.READING and s.clause == "open.path-overflow" for s in stop)


@pytest.mark.parametrize(
    ("name", "verdict", "marker"),
    [
        ("probe-advance-past-last-space-stops", Verdict.LEGAL, 20),
        ("probe-advance-past-last-space-not-made", Verdict.ILLEGAL, 19),
    ],
)
def test_an_advance_past_the_last_space_rests_on_path_overflow(name: str, verdict: Verdict, marker: int) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is verdict and ruling.state["path"]["marker"] == marker
    assert "path-overflow" in ruling.readings


def test_no_zone_is_named_for_a_space_when_the_zones_are_not_given() -> None:
    # path.zones: the pages do not say where the zones lie; space 20 was once "white zone"
    # here and "red zone" in path-advance-to-last-space
    ruling = _rule(HVDA, "probe-advance-past-last-space-stops")
    assert not [s for s in ruling.steps if "zone)" in s.says]
    given = _rule(HVDA, "path-advance-to-last-space")
    assert any("space 20 (red zone)" in s.says for s in given.steps)


# --- 4.4 / 4.5: steps cite the clause that says what they say --------------------------

PACG_SCENARIOS = sorted(PACG.glob("*.yaml"))


@pytest.mark.parametrize("name", ["cannot-be-evaded", "user-25-cannot-evade"])
def test_cannot_be_evaded_is_decided_by_cannot_beats_can(name: str) -> None:
    ruling = _rule(PACG, name)
    refused = [s for s in ruling.steps if "cannot be evaded" in s.says and "illegal" in s.says]
    assert refused and {s.clause for s in refused} == {"golden.cannot-beats-can"}


@pytest.mark.parametrize("scenario", PACG_SCENARIOS, ids=[p.name for p in PACG_SCENARIOS])
def test_a_damage_response_step_cites_damage_responses_not_a_step_without_text(scenario: Path) -> None:
    ruling = check_file(scenario)
    responding = [s for s in ruling.steps if "may respond to it" in s.says]
    assert {s.clause for s in responding} <= {"damage.responses", "check.damage"}


# --- 4.8 / 4.9: a Dark Arts bonus and a draw with nothing left ----------------------------


def test_a_dark_arts_bonus_icon_step_rests_on_the_reading() -> None:
    ruling = _rule(HVDA, "reading-bonus-dark-arts-takes-bonus")
    icon = [s for s in ruling.steps if s.clause == "bonus.icon"]
    assert icon and all(s.basis is Basis.READING and s.reading == "bonus-dark-arts=takes-bonus" for s in icon)


@pytest.mark.parametrize(
    "name", ["draw-deck-and-discard-empty", "draw-reshuffle-after-discard", "user-replenish-house-reshuffle"]
)
def test_a_short_draw_with_deck_and_discard_empty_is_not_ruled_by_draw_reshuffle(name: str) -> None:
    ruling = _rule(HVDA, name)
    short = [s for s in ruling.steps if "both empty" in s.says]
    # open without the reading draw-both-empty, a reading step with it (audit3 1.1)
    assert short and all(s.clause == "open.draw-both-empty" and s.basis in (Basis.OPEN, Basis.READING) for s in short)


# --- 1.2 - 1.8: clause and reading words that said more than their sources ----------------


def test_the_split_correction_allows_an_uneven_split_within_three_each() -> None:
    clause = find_game("houses-vs-dark-arts").clause("move.split")
    words = " ".join([clause.text, *(m.correction for m in clause.misreadings)])
    assert "Any uneven split" not in words and "No other division" not in words
    for name in ("user-split-3-and-2", "split-1-and-3"):
        assert _rule(HVDA, name).verdict is Verdict.LEGAL


@pytest.mark.parametrize(
    ("game", "clause", "overstated"),
    [
        ("houses-vs-dark-arts", "encounter.no-duel", "roll"),
        ("houses-vs-dark-arts", "bump.great-hall", "stays in play"),
        ("houses-vs-dark-arts", "path.house-markers", "As soon as"),
        ("pacg", "encounter.no-one-else", "The most others can do"),
        ("pacg", "golden.impossible-instruction", "not a failure"),
    ],
)
def test_a_clause_says_no_more_than_its_source(game: str, clause: str, overstated: str) -> None:
    found = find_game(game).clause(clause)
    words = " ".join([found.text, *(m.correction for m in found.misreadings)])
    assert overstated not in words


@pytest.mark.parametrize("reading", ["fly-off-sides", "another-turn"])
def test_a_default_that_settles_an_open_question_does_not_claim_to_add_no_rule(reading: str) -> None:
    found = find_game("houses-vs-dark-arts").readings[reading]
    words = " ".join([found.why, *(o.says for o in found.options)])
    assert "adds no rule" not in words and "adds nothing" not in words
