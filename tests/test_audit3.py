"""Findings of source audit 3 (reports/audit3.md), and the sweep it asked for: each test would have caught one.

The sources are the shared facts files and source pages. Where the shared sources list calls
a point not settled and suggests no answer, no default decides it: the ruling is
undetermined (or leaves the state it decides unstated) until a reading is chosen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.corpus import load_game
from rulesref.errors import ScenarioError
from rulesref.referee import check_file
from rulesref.ruling import Basis, Ruling, Verdict

ROOT = Path(__file__).resolve().parents[1]
PACG = ROOT / "scenarios" / "pacg"
HVDA = ROOT / "scenarios" / "houses-vs-dark-arts"
HVDA_PACK = ROOT / "rules" / "houses-vs-dark-arts"
PACG_PACK = ROOT / "rules" / "pacg"


def _rule(folder: Path, name: str, overrides: tuple[tuple[str, str], ...] = ()) -> Ruling:
    ruling = check_file(folder / f"{name}.yaml", overrides)
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    return ruling


def _rule_text(tmp_path: Path, text: str, overrides: tuple[tuple[str, str], ...] = ()) -> Ruling:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return check_file(path, overrides, picture=False)


# --- 1.1: a draw with both piles empty states no hand without a reading -----------------------


def test_the_open_clause_for_both_piles_empty_decides_nothing() -> None:
    game = load_game(HVDA_PACK)
    text = game.clauses["open.draw-both-empty"].text
    assert "counts only the cards there were" not in text
    assert game.readings["draw-both-empty"].default is None


@pytest.mark.parametrize("name", ["draw-deck-and-discard-empty", "user-replenish-house-reshuffle"])
def test_the_replenish_stands_but_the_hand_is_left_unstated(name: str) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is Verdict.LEGAL
    [player] = [p for p in ruling.state["players"].values() if "hand" not in p]
    assert "deck" not in player
    assert any(s.clause == "open.draw-both-empty" and s.basis is Basis.OPEN for s in ruling.steps)
    assert "hand 3" not in ruling.summary and "hand 4" not in ruling.summary


@pytest.mark.parametrize(("option", "hand", "deck"), [("short-draw", 3, 0), ("no-draw", 1, 2)])
def test_the_short_draw_is_a_named_reading(option: str, hand: int, deck: int) -> None:
    ruling = _rule(HVDA, f"reading-draw-both-empty-{option}")
    assert ruling.state["players"]["dark-arts"]["hand"] == hand
    assert ruling.state["players"]["dark-arts"]["deck"] == deck
    assert any(s.reading == f"draw-both-empty={option}" for s in ruling.steps)


# --- 1.2 and the sweep: no default where the list says "not settled" and suggests nothing -----

NOT_SETTLED = {
    # reading: the shared sources list's open question that leaves it not settled
    "dark-arts-explore-cards": "the same question as open 4's, for the Dark Arts",
    "fly-off-sides": "open 14: may a House pawn use one?",
    "another-turn": "open 18",
    "hand-limit": "open 19",
    "last-hand-end": "open 20: when exactly does it end?",
    "last-hand-reshuffle": "open 20: may the draw pile still be reshuffled?",
    "great-hall-stunned": "open 22: stunned or active?",
    "draw-both-empty": "row 22 covers an empty deck only",
    "stunned-at-location": "audit4 1.1(a): the project's own open.location-stunned",
    "fly-off-protected": "open 14: is a transfer into a Protected Area forbidden?",
}


@pytest.mark.parametrize("reading", sorted(NOT_SETTLED))
def test_a_point_the_list_leaves_unsettled_has_no_default(reading: str) -> None:
    r = load_game(HVDA_PACK).readings[reading]
    assert r.default is None, NOT_SETTLED[reading]
    assert r.why and "No default" in r.why


@pytest.mark.parametrize("pack", [HVDA_PACK, PACG_PACK])
def test_no_default_claims_to_add_no_rule(pack: Path) -> None:
    for r in load_game(pack).readings.values():
        words = " ".join((r.why or "").split())
        assert "adds no rule" not in words and "invents nothing" not in words, r.id


@pytest.mark.parametrize(
    ("name", "clause"),
    [
        ("action-dark-arts-explore-second-card-undetermined", "open.dark-arts-explore-cards"),
        ("special-fly-off-house-pawn-undetermined", "open.fly-off"),
        ("turn-extra-turn-bonus-chain-undetermined", "open.another-turn"),
        ("end-hands-empty-undetermined", "open.last-hand"),
    ],
)
def test_a_ruling_on_an_unsettled_point_is_undetermined(name: str, clause: str) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is Verdict.UNDETERMINED
    assert ruling.steps[-1].clause == clause and ruling.steps[-1].basis is Basis.OPEN


def test_the_same_dark_arts_explore_is_refused_only_under_the_chosen_reading() -> None:
    ruling = _rule(HVDA, "action-dark-arts-explore-one-card-reading")
    assert ruling.verdict is Verdict.ILLEGAL
    assert ruling.steps[-1].reading == "dark-arts-explore-cards=one-card"


def test_a_house_pawn_flies_off_under_the_chosen_reading() -> None:
    ruling = _rule(HVDA, "special-fly-off-house-pawn")
    assert ruling.verdict is Verdict.LEGAL
    assert any(s.reading == "fly-off-sides=both-sides" for s in ruling.steps)


def test_the_icon_giving_another_turn_is_a_rule_and_what_the_turn_holds_is_not() -> None:
    ruling = _rule(HVDA, "bonus-another-turn")
    icon = [s for s in ruling.steps if "gives the player another turn" in s.says]
    assert icon and all(s.clause == "bonus.icon" and s.basis is Basis.RULE for s in icon)
    assert not any(s.reading and s.reading.startswith("another-turn=") for s in ruling.steps)


def test_cards_still_in_hand_mean_the_final_hands_have_not_run_out_on_either_reading() -> None:
    ruling = _rule(HVDA, "end-cards-left-play-goes-on")
    assert ruling.verdict is Verdict.LEGAL and ruling.state["result"] == "none"
    assert not any(s.reading and s.reading.startswith("last-hand-end=") for s in ruling.steps)


@pytest.mark.parametrize("name", ["bump-great-hall-stunned-not-stated", "bump-single-house-pawn"])
def test_a_bump_stands_but_the_bumped_pawns_stun_is_left_unstated(name: str) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is Verdict.LEGAL
    assert "stunned" not in ruling.state["pawns"]["g1"]
    assert any(s.clause == "open.great-hall" and s.basis is Basis.OPEN for s in ruling.steps)


def test_a_hand_over_five_is_ruled_but_not_counted_without_the_reading() -> None:
    ruling = _rule(HVDA, "probe-replenish-hand-over-five")
    assert ruling.verdict is Verdict.LEGAL
    assert "hand" not in ruling.state["players"]["gryffindor"]
    kept = _rule(HVDA, "probe-replenish-hand-over-five", (("hand-limit", "no-limit"),))
    assert kept.state["players"]["gryffindor"]["hand"] == 7


LAST_HANDS_HAND_LEFT_OUT = """\
game: houses-vs-dark-arts
title: a hand left out in the last-hand phase
board: {grid: 5x4}
houses: [gryffindor]
players:
  gryffindor: {hand: 0}
  dark-arts: {progress: 1}
path: {length: 20, marker: 20}
turn: {side: house, phase: last-hands}
action: {check: draw}
"""


def test_a_hand_left_out_is_asked_for_only_where_it_would_decide(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        _rule_text(tmp_path, LAST_HANDS_HAND_LEFT_OUT)
    assert caught.value.field == "players.dark-arts.hand"
    # under one-more-round the hands decide nothing: the draw is refused without them
    ruling = _rule_text(tmp_path, LAST_HANDS_HAND_LEFT_OUT, (("last-hand-end", "one-more-round"),))
    assert ruling.verdict is Verdict.ILLEGAL


# --- 1.3 / 1.4 / 1.5: wording --------------------------------------------------------------


def test_the_fly_off_clause_says_the_start_is_presumed_not_printed() -> None:
    text = " ".join(load_game(HVDA_PACK).clauses["board.fly-off-points"].text.split())
    assert "from one" not in text and "presume" in text
    ruling = _rule(HVDA, "special-fly-off-not-a-point")
    [step] = [s for s in ruling.steps if s.decides]
    assert step.clause == "board.fly-off-points" and "presumes" in step.says


def test_replenish_with_cards_in_hand_does_not_rest_on_editorial_advice() -> None:
    clause = load_game(HVDA_PACK).clauses["replenish.cards-in-hand"]
    assert "003:24" not in clause.source and "003:14-18" in clause.source


def test_the_stun_placement_default_is_worded_as_a_choice() -> None:
    why = " ".join((load_game(HVDA_PACK).readings["stun-placement"].why or "").split())
    assert "adds no rule" not in why and "open question 10" in why and "choice" in why


# --- 4.1 / 5.1 (already fixed): a plain card moving two pawns ----------------------------------


@pytest.mark.parametrize("name", ["probe-plain-card-two-pawns", "split-plain-card-two-pawns"])
def test_a_plain_card_moving_two_pawns_is_refused_only_by_a_reading(name: str) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is Verdict.ILLEGAL
    [step] = [s for s in ruling.steps if s.decides]
    assert step.basis is Basis.READING and step.reading == "plain-card-pawns=one-pawn"
    assert not any(s.basis is Basis.RULE and "moves one pawn" in s.says for s in ruling.steps)


def test_a_plain_card_moving_two_pawns_is_undetermined_without_the_reading() -> None:
    assert _rule(HVDA, "plain-card-two-pawns-undetermined").verdict is Verdict.UNDETERMINED


# --- 4.2: the summoned villain ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["summoned-villain-no-win", "user-30-summoned-villain-no-win"])
def test_a_summoned_villain_is_not_banished_by_the_resolve_step(name: str) -> None:
    ruling = _rule(PACG, name)
    resolve = [s for s in ruling.steps if s.clause == "step.resolve-bane"]
    assert resolve and not any("banished" in s.says for s in resolve)
    assert any(s.clause == "verb.summon" and "vault" in s.says for s in ruling.steps)
    assert not any("has no villain steps" in s.says for s in ruling.steps)


def test_the_win_after_a_summoned_villain_is_refused_on_never_wins() -> None:
    ruling = _rule(PACG, "summoned-villain-no-win")
    assert ruling.verdict is Verdict.ILLEGAL
    [step] = [s for s in ruling.steps if s.decides]
    assert step.clause == "encounter.summoned-card" and "never wins" in step.says


def test_whether_a_summoned_villains_location_closes_is_open() -> None:
    ruling = _rule(PACG, "summoned-villain-close-undetermined")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert [s.clause for s in ruling.steps if s.basis is Basis.OPEN] == ["open.summoned-villain-steps"]


# --- 4.3: the hero point steps say only what check.hero-point says ------------------------------


@pytest.mark.parametrize("name", ["hero-point-reroll", "reroll-after-damage-allowed"])
def test_the_reroll_step_neither_claims_a_spent_hero_point_nor_drops_the_damage(name: str) -> None:
    ruling = _rule(PACG, name)
    [step] = [s for s in ruling.steps if s.clause == "check.hero-point"]
    assert "with a hero point" not in step.says and "reroll" in step.says
    assert "not dealt" not in step.says and "not suffered" not in step.says


def test_the_replaced_rolls_damage_is_dropped_by_the_reading_when_the_reading_decides() -> None:
    ruling = _rule(PACG, "reroll-after-damage-allowed")
    dropped = [s for s in ruling.steps if "not suffered" in s.says or "not dealt" in s.says]
    assert dropped and all(s.basis is Basis.READING for s in dropped)
    assert dropped[0].reading == "reroll-after-damage=allowed"


# --- audit 4 --------------------------------------------------------------------------------


def test_a_win_that_turns_on_a_stunned_pawn_is_undetermined() -> None:
    assert _rule(HVDA, "victory-stunned-pawn-undetermined").verdict is Verdict.UNDETERMINED
    counted = _rule(HVDA, "victory-stunned-pawn-counts")
    assert counted.verdict is Verdict.LEGAL and counted.state["result"] == "dark-arts"


def test_a_dark_arts_transfer_into_a_protected_area_is_undetermined() -> None:
    ruling = _rule(HVDA, "probe-fly-off-into-protected")
    assert ruling.verdict is Verdict.UNDETERMINED and ruling.steps[-1].clause == "open.fly-off"


@pytest.mark.parametrize(
    ("clause", "gone"),
    [
        ("move.passage-house-only", "whatever card"),
        ("move.obstacles-dark-arts", "Protected Areas are not obstacles"),
    ],
)
def test_the_movement_clauses_say_no_more_than_page_000(clause: str, gone: str) -> None:
    c = load_game(HVDA_PACK).clauses[clause]
    words = " ".join([c.text, *(m.correction for m in c.misreadings)])
    assert gone not in " ".join(words.split()) and "No card lets" not in words


def test_whether_the_first_encounters_guard_holds_for_the_avenger_is_open() -> None:
    ruling = _rule(PACG, "avenger-guards-undetermined")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert ruling.state["card"]["at"] == "unknown" and ruling.state["win"] == "open"
    assert not any(s.basis is Basis.RULE and "unguarded again" in s.says for s in ruling.steps)
    assert _rule(PACG, "avenger-corners-villain").state["card"]["at"] == "escaped"
    assert _rule(PACG, "avenger-guards-hold").state["win"] is True


def test_a_guard_made_again_by_the_avenger_needs_no_reading() -> None:
    ruling = _rule(PACG, "avenger-guards-again")
    assert not any(s.reading and s.reading.startswith("avenger-guards=") for s in ruling.steps)
    assert not any(s.clause == "open.avenger-guards" for s in ruling.steps)


def test_the_opening_step_keeps_the_clauses_exception() -> None:
    ruling = _rule(PACG, "boggart-lem-then-amiri")
    [step] = [s for s in ruling.steps if s.clause == "encounter.purpose"]
    assert "may only help" not in step.says and "using powers" not in step.says
    assert "sequential chain" in step.says


def test_after_an_avenger_fails_no_one_may_avenge_again() -> None:
    ruling = _rule(PACG, "avenge-twice")
    resolves = [s for s in ruling.steps if s.clause == "step.resolve-bane" and s.says.startswith("Resolve:")]
    # the original encounter's resolve offers the avenge; the avenger's does not
    assert len(resolves) == 2
    assert "may avenge it" in resolves[0].says and "may avenge it" not in resolves[1].says
    assert any(s.clause == "step.avenge" and "avenged only once" in s.says for s in ruling.steps)


@pytest.mark.parametrize(
    ("name", "clause"),
    [("end-draw-claimed-too-early", "victory.end-of-track"), ("probe-draw-hands-not-out", "victory.draw-game")],
)
def test_the_not_a_draw_rulings_cite_the_draw_rules(name: str, clause: str) -> None:
    ruling = _rule(HVDA, name)
    assert ruling.verdict is Verdict.ILLEGAL
    [step] = [s for s in ruling.steps if s.decides]
    assert step.clause == clause


def test_skipping_the_only_check_is_refused_by_the_encounter_purpose() -> None:
    ruling = _rule(PACG, "skip-the-only-check")
    [step] = [s for s in ruling.steps if s.decides]
    assert step.clause == "encounter.purpose"


@pytest.mark.parametrize("option", [None, "turn-continues", "play-stops"])
def test_an_after_encounter_effect_cancelled_by_the_close_is_illegal_on_any_after_win_reading(
    option: str | None,
) -> None:
    overrides = (("after-win", option),) if option else ()
    ruling = check_file(PACG / "after-win-effect-cancelled-by-the-close.yaml", overrides)
    assert ruling.verdict is Verdict.ILLEGAL
    assert ruling.state["events"][-1] == "illegal"
    assert not any(s.clause == "open.play-after-win" for s in ruling.steps)


def test_what_an_extra_turn_holds_is_a_reading_asked_only_for_an_action_other_than_explore() -> None:
    # open question 18: is the extra turn a full turn with a choice of action? (audit 6, N1)
    replenish = _rule(HVDA, "turn-extra-turn-replenish-undetermined")
    assert replenish.verdict is Verdict.UNDETERMINED
    explore = _rule(HVDA, "turn-extra-turn-plain-move")
    assert not any(s.reading and s.reading.startswith("extra-turn-actions=") for s in explore.steps)


def test_an_another_turn_bonus_in_the_last_hand_phase_gives_no_stated_turn() -> None:
    ruling = _rule(HVDA, "bonus-another-turn-last-hands")
    assert ruling.verdict is Verdict.LEGAL and "another-turn" not in ruling.state
    assert any(s.clause == "open.another-turn" and s.basis is Basis.OPEN for s in ruling.steps)


def test_the_another_turn_icon_step_states_no_turn_where_the_turn_is_open() -> None:
    # audit 7, F1: the icon's rule step names the icon; the turn is another_turn's to give
    for name in ("bonus-another-turn-last-hands", "turn-extra-turn-bonus-chain-undetermined"):
        ruling = _rule(HVDA, name)
        assert not any("may take another turn" in s.says for s in ruling.steps if s.basis is Basis.RULE)


def test_a_stunned_pawn_sent_to_the_reserve_has_no_stated_stun() -> None:
    # audit 9, H4: no page and neither option says leaving the board revives it
    ruling = _rule(HVDA, "reading-stun-no-space-reserve")
    assert ruling.state["pawns"]["d1"]["at"] == "reserve" and "stunned" not in ruling.state["pawns"]["d1"]


def test_a_bonus_that_gives_no_further_turn_is_not_summarised_as_taken() -> None:
    # audit 9, H5
    ruling = _rule(HVDA, "turn-extra-turn-bonus-no-chain")
    assert "takes the another-turn bonus" not in ruling.summary


def test_a_path_given_without_its_zones_reports_no_zone() -> None:
    # audit 10, J1: no page says where the zones lie, so none is reported unless given
    ruling = _rule(HVDA, "user-end-of-track-alone")
    path = ruling.state.get("path", {})
    assert "zone" not in path and "unlocked" not in path
