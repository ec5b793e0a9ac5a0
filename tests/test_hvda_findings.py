"""Houses vs. Dark Arts: the issue 12 audit findings stay fixed.

Each finding was a ruling that stated, as a settled rule, something no source line states
(or a step citing a clause that does not say it). The scenario files check the verdicts
and the clauses cited; these tests check what a scenario's ``expect`` cannot: the *basis*
of a step (rule, reading or open), that no step of the kind the audit found comes back,
and the one-line errors that replace a quiet default.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.corpus import load_game
from rulesref.errors import ScenarioError
from rulesref.referee import check_file
from rulesref.ruling import Basis, Ruling, Verdict

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios" / "houses-vs-dark-arts"
PACK = ROOT / "rules" / "houses-vs-dark-arts"

BOARD = """\
game: houses-vs-dark-arts
title: finding
"""


def _rule(tmp_path: Path, body: str, name: str = "finding.yaml") -> Ruling:
    path = tmp_path / name
    path.write_text(BOARD + body, encoding="utf-8")
    return check_file(path)


def _basis(ruling: Ruling, clause: str) -> set[Basis]:
    return {s.basis for s in ruling.steps if s.clause == clause}


# --- 1. a House player moving another house's pawn ----------------------------------------


def test_moving_another_houses_pawn_cites_its_own_open_question() -> None:
    ruling = check_file(SCENARIOS / "move-other-house-pawn.yaml")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert ruling.steps[-1].clause == "open.move-other-house"
    assert ruling.steps[-1].basis is Basis.OPEN
    # open.house-explore is the reading house-explore's question, not this one
    assert all(s.basis is Basis.READING for s in ruling.steps if s.clause == "open.house-explore")


# --- 2. the Fly Off destination --------------------------------------------------------------

FLY = """\
board: {{grid: 5x4, fly-off: [a1, e1]}}
pawns:
  d1: {{side: dark-arts, at: a1}}
{readings}action:
  explore:
    card: {{movement: 2, allows: [fly-off]}}
    moves:
      - {{pawn: d1, path: [a1, fly: {to}]}}
"""


def test_a_transfer_to_another_fly_off_point_needs_no_reading(tmp_path: Path) -> None:
    ruling = _rule(tmp_path, FLY.format(readings="", to="e1"))
    assert ruling.verdict is Verdict.LEGAL
    assert "fly-off-destination" not in ruling.readings
    assert ruling.state["pawns"]["d1"]["at"] == "e1"


@pytest.mark.parametrize(
    ("option", "verdict", "at"),
    [(None, Verdict.UNDETERMINED, "a1"), ("fly-off-point", Verdict.ILLEGAL, "a1"), ("any-space", Verdict.LEGAL, "c3")],
)
def test_landing_off_a_fly_off_point_rests_on_the_reading(
    tmp_path: Path, option: str | None, verdict: Verdict, at: str
) -> None:
    readings = f"readings: {{fly-off-destination: {option}}}\n" if option else ""
    ruling = _rule(tmp_path, FLY.format(readings=readings, to="c3"))
    assert ruling.verdict is verdict
    destination = [s for s in ruling.steps if s.clause == "open.fly-off-destination"]
    assert destination, "the step names the open question"
    assert destination[0].basis is (Basis.OPEN if option is None else Basis.READING)
    # no rule step says a transfer must end on a Fly Off Point
    assert not any(s.basis is Basis.RULE and "Fly Off Point" in s.says and "c3" in s.says for s in ruling.steps)
    if verdict is not Verdict.UNDETERMINED:
        assert ruling.state["pawns"]["d1"]["at"] == at


def test_the_departure_is_still_a_fly_off_point(tmp_path: Path) -> None:
    body = FLY.format(readings="readings: {fly-off-destination: any-space}\n", to="e1").replace("at: a1", "at: b1")
    ruling = _rule(tmp_path, body.replace("[a1, fly: e1]", "[b1, fly: e1]"))
    assert ruling.verdict is Verdict.ILLEGAL
    assert ruling.steps[-1].clause == "board.fly-off-points" and ruling.steps[-1].basis is Basis.RULE


# --- 3. a bonus space and a Dark Arts pawn; the acquire bonus -----------------------------------


def test_a_dark_arts_pawn_on_a_bonus_space_rests_on_a_reading() -> None:
    ruling = check_file(SCENARIOS / "bonus-dark-arts-ends-there.yaml")
    assert ruling.verdict is Verdict.LEGAL
    assert ruling.readings.get("bonus-dark-arts") == "no-bonus"
    assert Basis.RULE not in _basis(ruling, "bonus.end-on-space")
    assert _basis(ruling, "open.bonus-dark-arts") == {Basis.READING}
    assert "bonus" not in ruling.state


def test_what_an_acquire_bonus_gives_is_an_open_step_and_its_counts_are_left_out() -> None:
    # no page says where an acquired card goes, so no count after it is stated (audit 5)
    ruling = check_file(SCENARIOS / "bonus-acquire-icon.yaml")
    assert ruling.verdict is Verdict.LEGAL
    assert _basis(ruling, "open.bonus-acquire") == {Basis.OPEN}
    hufflepuff = ruling.state.get("players", {}).get("hufflepuff", {})
    assert not {"hand", "deck", "discard"} & hufflepuff.keys()


# --- 4. a further card in the same Explore, for either side ------------------------------------


@pytest.mark.parametrize(
    ("name", "reading"),
    [
        ("action-dark-arts-explore-one-card-reading.yaml", "dark-arts-explore-cards"),
        ("action-house-explore-one-card-reading.yaml", "house-explore-cards"),
    ],
)
def test_a_further_card_in_one_explore_is_refused_by_a_reading_on_either_side(name: str, reading: str) -> None:
    ruling = check_file(SCENARIOS / name)
    assert ruling.verdict is Verdict.ILLEGAL
    assert ruling.steps[-1].basis is Basis.READING
    assert ruling.steps[-1].reading == f"{reading}=one-card"


def test_the_two_readings_are_alike_and_neither_has_a_default() -> None:
    game = load_game(PACK)
    dark, house = game.readings["dark-arts-explore-cards"], game.readings["house-explore-cards"]
    assert [o.id for o in dark.options] == [o.id for o in house.options] == ["one-card", "several-cards"]
    # "a card" (the Dark Arts Explore) does not say "only one"; no page describes the House Explore (audit3 1.2)
    assert dark.default is None and house.default is None


# --- 5. effect colours and the clean-up for House cards -------------------------------------------

HOUSE_EXPLORE = """\
board: {{grid: 5x4}}
houses: [gryffindor, slytherin]
pawns:
  {pawn}: {{{owner}, at: a1}}
path: {{length: 20, marker: 9, orange: 8, red: 14}}
players:
  {who}: {{hand: 3, deck: 7, discard: 2}}
turn: {turn}
action:
  explore:
    card: {{movement: 2, effect: {colour}}}
    moves: {moves}
"""
EFFECT_ONLY = "[]"
"""No move: the card is played for its effect, whose colour is then checked."""


@pytest.mark.parametrize("colour", ["white", "orange"])
def test_a_house_cards_colour_and_cleanup_are_reading_steps(tmp_path: Path, colour: str) -> None:
    body = HOUSE_EXPLORE.format(
        pawn="g1",
        owner="house: gryffindor",
        who="gryffindor",
        turn="{side: house, house: gryffindor}",
        colour=colour,
        moves=EFFECT_ONLY,
    )
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.LEGAL
    assert ruling.readings.get("house-effects") == "as-dark-arts"
    cited = {"action.effect-colours", "path.zones", "action.cleanup"} & {s.clause for s in ruling.steps}
    assert "action.cleanup" in cited and cited & {"action.effect-colours", "path.zones"}
    for clause in cited:
        assert _basis(ruling, clause) == {Basis.READING}, clause


def test_the_dark_arts_cards_colour_and_cleanup_stay_rules(tmp_path: Path) -> None:
    body = HOUSE_EXPLORE.format(
        pawn="d1",
        owner="side: dark-arts",
        who="dark-arts",
        turn="{side: dark-arts}",
        colour="orange",
        moves=EFFECT_ONLY,
    )
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.LEGAL
    assert "house-effects" not in ruling.readings
    assert _basis(ruling, "path.zones") == {Basis.RULE}
    assert _basis(ruling, "action.cleanup") == {Basis.RULE}


def test_under_dark_arts_only_a_house_card_is_neither_locked_nor_discarded() -> None:
    ruling = check_file(SCENARIOS / "reading-house-effects-dark-arts-only.yaml")
    assert ruling.verdict is Verdict.LEGAL
    assert "action.cleanup" not in {s.clause for s in ruling.steps}
    assert ruling.state["turn"]["played"] == 1


# --- 6. Replenish with cards in hand ----------------------------------------------------------------

REPLENISH = """\
houses: [gryffindor, slytherin]
players:
  gryffindor: {{hand: {hand}, deck: 9, discard: 0}}
turn: {{side: house, house: gryffindor}}
action: replenish
"""


@pytest.mark.parametrize(("hand", "cited"), [(0, False), (2, True)])
def test_replenish_with_cards_in_hand_cites_that_it_needs_no_empty_hand(tmp_path: Path, hand: int, cited: bool) -> None:
    ruling = _rule(tmp_path, REPLENISH.format(hand=hand))
    assert ruling.verdict is Verdict.LEGAL
    assert ("replenish.cards-in-hand" in {s.clause for s in ruling.steps}) is cited
    assert ruling.state["players"]["gryffindor"]["hand"] == 5


# --- no rule step rests on an open question, in any shipped ruling ----------------------------------


def test_no_shipped_ruling_gives_an_open_question_as_a_rule() -> None:
    game = load_game(PACK)
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for step in check_file(path).steps:
            if step.basis is Basis.RULE:
                assert game.clauses[step.clause].kind != "open", f"{path.name}: {step.clause}: {step.says}"


def test_a_house_player_without_a_card_is_refused_on_the_house_explore_reading(tmp_path: Path) -> None:
    body = HOUSE_EXPLORE.format(
        pawn="g1",
        owner="house: gryffindor",
        who="gryffindor",
        turn="{side: house, house: gryffindor}",
        colour="white",
        moves="[{pawn: g1, path: [a1, b1]}]",
    ).replace("hand: 3", "hand: 0")
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.ILLEGAL
    assert [s.basis for s in ruling.steps if s.clause == "open.house-explore"] == [Basis.READING, Basis.READING]


# --- 7. a default is never the reason for a ruling: the error asks for the field ---------------------

QUIET = {
    "hand-left-out-card-to-play": (
        """board: {grid: 5x4}
houses: [gryffindor, slytherin]
pawns:
  d1: {side: dark-arts, at: a1}
players:
  dark-arts: {markers: [gryffindor]}
turn: {side: dark-arts}
action:
  explore:
    card: 1
    moves:
      - {pawn: d1, path: [a1, b1]}
""",
        "players.dark-arts.hand",
        8,
    ),
    "houses-left-out-marker-set": (
        """board: {grid: 5x4}
pawns:
  g1: {house: gryffindor, at: b1}
  d1: {side: dark-arts, at: a1}
players:
  dark-arts: {hand: 2, deck: 5}
action:
  explore:
    card: 1
    moves:
      - {pawn: d1, path: [a1, b1]}
""",
        "houses",
        1,
    ),
    "hand-left-out-discard": (
        """houses: [gryffindor]
players:
  gryffindor: {deck: 5}
turn: {side: house}
action: {replenish: {discard: 2}}
""",
        "players.gryffindor.hand",
        5,
    ),
    "hand-left-out-discard-all": (
        """houses: [gryffindor]
players:
  gryffindor: {deck: 5}
turn: {side: house}
action: {replenish: {discard: all}}
""",
        "players.gryffindor.hand",
        5,
    ),
    "hand-left-out-final-hands": (
        """houses: [gryffindor]
players:
  gryffindor: {hand: 0}
  dark-arts: {progress: 1}
path: {length: 20, marker: 20}
turn: {side: house, phase: last-hands}
action: {check: draw}
""",
        "players.dark-arts.hand",
        6,
    ),
    "effect-check-whose-card": (
        """path: {length: 20, marker: 4, orange: 8, red: 14}
readings: {house-effects: dark-arts-only}
action: {check: {effect: orange}}
""",
        "turn",
        1,
    ),
    "transfer-in-place": (
        """board: {grid: 5x4, fly-off: [a1, e1]}
pawns:
  d1: {side: dark-arts, at: a1}
action:
  explore:
    card: {movement: 2, allows: [fly-off]}
    moves:
      - {pawn: d1, path: [a1, fly: a1]}
""",
        "action.explore.moves[0].path[1]",
        10,
    ),
}


@pytest.mark.parametrize("case", sorted(QUIET))
def test_a_field_a_ruling_would_turn_on_is_asked_for(tmp_path: Path, case: str) -> None:
    body, field, line = QUIET[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(BOARD + body, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    assert caught.value.field == field
    assert caught.value.line == line
    assert "\n" not in str(caught.value)


def test_the_cli_refuses_a_left_out_hand_with_exit_2_and_one_line(tmp_path: Path, cli) -> None:
    body, field, _ = QUIET["hand-left-out-card-to-play"]
    path = tmp_path / "dispute.yaml"
    path.write_text(BOARD + body, encoding="utf-8")
    r = cli("check", str(path))
    assert r.code == 2
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and field in lines[0] and "hand: N" in lines[0], r.err
    assert "Traceback" not in r.err


def test_a_hand_given_as_0_is_still_ruled(tmp_path: Path) -> None:
    body = QUIET["hand-left-out-card-to-play"][0].replace("{markers: [gryffindor]}", "{hand: 0, markers: [gryffindor]}")
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.ILLEGAL
    assert ruling.steps[-1].clause == "action.dark-arts-explore"


def test_an_effect_of_no_stated_side_rests_on_the_reading_unless_white(tmp_path: Path) -> None:
    path = "path: {length: 20, marker: 4, orange: 8, red: 14}\n"
    orange = _rule(tmp_path, path + "action: {check: {effect: orange}}\n", "orange.yaml")
    assert orange.verdict is Verdict.ILLEGAL
    assert _basis(orange, "action.effect-colours") == {Basis.READING}
    white = _rule(tmp_path, path + "action: {check: {effect: white}}\n", "white.yaml")
    assert white.verdict is Verdict.LEGAL
    assert "house-effects" not in white.readings  # white is usable on every reading, for either side


def test_a_deck_left_out_is_not_claimed_empty(tmp_path: Path) -> None:
    body = REPLENISH.format(hand=2).replace("{hand: 2, deck: 9, discard: 0}", "{hand: 2}")
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.LEGAL
    assert "draw.reshuffle" not in {s.clause for s in ruling.steps}
    assert ruling.state["players"]["gryffindor"]["hand"] == 5


def test_a_hand_left_out_is_drawn_to_five_without_a_count(tmp_path: Path) -> None:
    body = REPLENISH.format(hand=2).replace("{hand: 2, deck: 9, discard: 0}", "{deck: 9}")
    ruling = _rule(tmp_path, body)
    assert ruling.verdict is Verdict.LEGAL
    drawn = [s.says for s in ruling.steps if s.clause == "draw.to-five"]
    assert drawn and not any("holds 0" in says for says in drawn)
    assert "replenish.cards-in-hand" not in {s.clause for s in ruling.steps}


# --- 5. a Dark Arts extra turn and another-turn bonus rest on bonus-dark-arts ---------------------


@pytest.mark.parametrize(
    "name",
    [
        "audit8-dark-arts-extra-turn-no-bonus.yaml",
        "audit8-dark-arts-extra-turn-takes-bonus.yaml",
        "audit7-dark-arts-another-turn-by-reading.yaml",
    ],
)
def test_a_bonus_for_the_dark_arts_is_never_a_rule_step(name: str) -> None:
    # bonus.icon is printed for a House pawn's bonus (audit 7 F8, audit 8 G4)
    ruling = check_file(SCENARIOS / name)
    assert "bonus-dark-arts" in ruling.turns_on
    assert Basis.RULE not in _basis(ruling, "bonus.icon")
    assert all("Dark Arts" not in s.says for s in ruling.steps if s.basis is Basis.RULE and "bonus" in s.clause)


def test_a_house_extra_turn_is_the_situations_premise() -> None:
    ruling = check_file(SCENARIOS / "turn-extra-turn-plain-move.yaml")
    first = ruling.steps[0]
    assert first.clause == "bonus.icon" and first.basis is Basis.RULE
    assert first.says.startswith("The situation gives this as the extra turn")


def test_a_bump_that_sends_the_pawn_off_its_bonus_space_leaves_the_bonus_open() -> None:
    ruling = check_file(SCENARIOS / "audit11-dark-arts-bump-on-a-bonus-space.yaml")
    assert Basis.OPEN in _basis(ruling, "open.bonus-dark-arts")
    assert "bonus" not in ruling.state and "not settled" in ruling.summary


# --- 6. audit 12: words that claimed more than the rule -------------------------------------------


def test_a_bonus_icon_is_not_worded_as_optional_and_a_stunned_pawn_is_not_said_to_be_bumped() -> None:
    for path in sorted(SCENARIOS.glob("*.yaml")):
        ruling = check_file(path, picture=False)
        for s in ruling.steps:
            assert " may draw 1 card" not in s.says and " may acquire a card" not in s.says, (path.name, s.says)
            if s.clause == "encounter.no-duel" and ruling.readings.keys() & {"bump-stunned", "stun-stunned"}:
                assert "so this is a" not in s.says, (path.name, s.says)


def test_the_marker_on_the_last_space_puts_the_turn_in_the_last_hands() -> None:
    ruling = check_file(SCENARIOS / "replenish-dark-arts-marker-on-last-space-illegal.yaml")
    assert ruling.state["turn"]["phase"] == "last-hands"


def test_no_white_zone_is_named_and_a_red_event_space_is_said_to_be_taken_as_one() -> None:
    # the pages name only orange and red zones (audit 14, S6), and no line says an Event
    # Space in the red zone is a red Event Space (S5): the step says it is taken so
    for path in sorted(SCENARIOS.glob("*.yaml")):
        ruling = check_file(path, picture=False)
        assert ruling.state.get("path", {}).get("zone") != "white", path.name
        assert not any("white zone" in s.says for s in ruling.steps), path.name
    by_number = check_file(SCENARIOS / "victory-location-card-by-space-number.yaml")
    assert any("Event Space in the red zone, taken as" in s.says for s in by_number.steps)


# --- 7. audit 15 ---------------------------------------------------------------------------------


def test_a_zone_the_path_does_not_give_is_not_named_in_a_step(tmp_path: Path) -> None:
    only_red = tmp_path / "red-only.yaml"
    only_red.write_text(
        BOARD + "board: {grid: 5x4}\npawns:\n  g1: {house: gryffindor, at: a1}\n"
        "path: {length: 20, marker: 5, red: 14}\nplayers:\n  gryffindor: {hand: 2, deck: 6, discard: 0}\n"
        "turn: {side: house, house: gryffindor}\naction: {replenish: {}}\n",
        encoding="utf-8",
    )
    ruling = check_file(only_red)
    marker = [s.says for s in ruling.steps if s.clause == "path.marker"]
    assert marker and not any("zone" in says for says in marker), marker


def test_each_reserve_deployment_option_is_worded_for_itself(tmp_path: Path) -> None:
    scenario = tmp_path / "reserve.yaml"
    scenario.write_text(
        BOARD + "board: {grid: 5x4}\nhouses: [gryffindor]\npawns:\n  d2: {side: dark-arts, at: reserve}\n"
        "action:\n  explore:\n    card: 2\n    moves:\n      - {pawn: d2, path: [reserve, a1, a2]}\n",
        encoding="utf-8",
    )
    refused = check_file(scenario, [("reserve-deployment", "by-replenish")])
    assert refused.verdict is Verdict.ILLEGAL
    deciding = [s for s in refused.steps if s.decides]
    assert any("not by an Explore" in s.says for s in deciding), [s.says for s in deciding]


def test_a_named_red_event_space_the_path_lacks_is_refused(tmp_path: Path) -> None:
    # audit 16, U5: as a space number that is no red Event Space already was
    scenario = tmp_path / "next-red.yaml"
    scenario.write_text(
        BOARD + "board: {grid: 5x4, location: c1}\nhouses: [gryffindor]\npawns:\n  d1: {side: dark-arts, at: c1}\n"
        "path: {length: 20, marker: 18, orange: 8, red: 14, events: [14]}\n"
        "players:\n  dark-arts: {hand: 3, deck: 7, discard: 2, progress: 3, location-card: next-red}\n"
        "turn: {side: dark-arts}\naction: {check: victory}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as refused:
        check_file(scenario)
    assert "hold no such space" in refused.value.message


def test_the_dark_arts_bonus_step_does_not_say_only() -> None:
    ruling = check_file(SCENARIOS / "bonus-dark-arts-ends-there.yaml")
    assert not any("House pawns only" in s.says for s in ruling.steps)


@pytest.mark.parametrize(
    ("marker", "card", "said"),
    [
        (16, "next-red", "but the Marker is only on space 16"),
        (13, "first-red", "but the Marker is only on space 13"),
        (16, "17", "but the Marker is only on space 16"),
        (15, "next-red", "but the Marker is only on space 15"),  # the Replenish reaches no red space
        (16, "15", "space 15 is neither of the first two red Event Spaces"),
    ],
)
def test_a_location_card_the_marker_has_not_reached_is_refused_whatever_the_action(
    tmp_path: Path, cli, marker: int, card: str, said: str
) -> None:
    # audits 21 Z2 and 22 K2-K4: the card cannot be held before the Marker reaches its space,
    # nor at a space that is no moment of taking it, whether or not the action asks about victory
    path = tmp_path / "dispute.yaml"
    path.write_text(
        "game: houses-vs-dark-arts\ntitle: t\nhouses: [gryffindor]\n"
        f"path: {{length: 20, marker: {marker}, orange: 8, red: 14, events: [14, 17]}}\n"
        "players:\n  gryffindor: {hand: 5, deck: 5, discard: 0}\n"
        f"  dark-arts: {{hand: 3, deck: 5, discard: 0, location-card: {card}}}\n"
        "turn: {side: house, house: gryffindor}\naction: replenish\n",
        encoding="utf-8",
    )
    r = cli("check", str(path))
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert r.code == 2 and len(lines) == 1, r.err
    assert "players.dark-arts.location-card" in lines[0] and said in lines[0]
