"""Houses vs. Dark Arts, turns part: unreadable situations fail with file, line and field.

Illegal requests are rulings (the scenario files test those); what is tested here is
input the referee cannot read: it must raise ScenarioError naming where, never crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.errors import ScenarioError
from rulesref.referee import check_file
from rulesref.ruling import Verdict

BASE = """\
game: houses-vs-dark-arts
title: bad input
board: {grid: 5x4, location: d4}
houses: [gryffindor, slytherin]
pawns:
  g1: {house: gryffindor, at: a1}
  d1: {side: dark-arts, at: d4}
"""

BAD = {
    "negative-hand": (
        "players:\n  gryffindor: {hand: -1, deck: 3, discard: 0}\nturn: {side: house, house: gryffindor}\n"
        "action: replenish\n",
        "players.gryffindor.hand",
        9,
    ),
    "marker-beyond-track": ("path: {length: 20, marker: 21}\naction: {advance: 1}\n", "path.marker", 8),
    "orange-after-red": (
        "path: {length: 20, marker: 3, orange: 15, red: 14}\naction: {advance: 1}\n",
        "path.orange",
        8,
    ),
    "event-off-track": ("path: {length: 20, marker: 3, events: [14, 25]}\naction: {advance: 1}\n", "path.events[1]", 8),
    "unknown-house-in-players": (
        "players:\n  ravenclaw: {hand: 2}\naction: {check: victory}\n",
        "players.ravenclaw",
        9,
    ),
    "progress-above-three": (
        "players:\n  dark-arts: {progress: 4}\naction: {check: victory}\n",
        "players.dark-arts.progress",
        9,
    ),
    "unknown-player-key": (
        "players:\n  dark-arts: {hands: 4}\naction: {check: victory}\n",
        "players.dark-arts.hands",
        9,
    ),
    "bad-phase": ("turn: {side: dark-arts, phase: endgame}\naction: replenish\n", "turn.phase", 8),
    "turn-house-not-in-play": ("turn: {side: house, house: hufflepuff}\naction: replenish\n", "turn.house", 8),
    "dark-arts-turn-with-house": ("turn: {side: dark-arts, house: gryffindor}\naction: replenish\n", "turn.house", 8),
    "bad-discard": (
        "turn: {side: house, house: gryffindor}\naction: {replenish: {discard: some}}\n",
        "action.replenish.discard",
        9,
    ),
    "unknown-check": ("action: {check: winner}\n", "action.check", 8),
    "unknown-cause": (
        "path: {length: 20, marker: 3}\naction: {advance: {cause: replenishing}}\n",
        "action.advance.cause",
        9,
    ),
    "replenish-without-turn": ("action: replenish\n", None, None),
    "location-card-not-reached": (
        "path: {length: 20, marker: 15, red: 14, events: [14, 17]}\n"
        "players:\n  dark-arts: {progress: 3, location-card: next-red}\naction: {check: victory}\n",
        "players.dark-arts.location-card",
        10,
    ),
    "location-card-space-not-red-event": (
        "path: {length: 20, marker: 15, red: 14, events: [14, 17]}\n"
        "players:\n  dark-arts: {progress: 3, location-card: 12}\naction: {check: victory}\n",
        "players.dark-arts.location-card",
        10,
    ),
    "victory-without-dark-arts-player": ("action: {check: victory}\n", "players", None),
    # a card played for its effect alone: a red effect needs the Path to say if it is unlocked
    "effect-alone-without-path": (
        "turn: {side: dark-arts}\naction:\n  explore:\n    card: {movement: 2, effect: red}\n",
        "action.explore.card.effect",
        11,
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_names_file_line_field(tmp_path: Path, name: str) -> None:
    body, field, line = BAD[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    err = caught.value
    assert err.file == str(path)
    if field is not None:
        assert err.field == field, str(err)
    if line is not None:
        assert err.line == line, str(err)


def test_bad_input_exit_code_two(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + "path: {length: 20, marker: 21}\naction: {advance: 1}\n", encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 2
    assert "path.marker" in result.err and "Traceback" not in result.err


def test_illegal_is_a_ruling_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "learn.yaml"
    path.write_text(BASE + "turn: {side: dark-arts}\naction: learn\n", encoding="utf-8")
    ruling = check_file(path)
    assert ruling.verdict is Verdict.ILLEGAL
    assert [s.clause for s in ruling.steps] == ["action.learn-house-only"]


def test_omitted_parts_do_not_crash(tmp_path: Path) -> None:
    """No players and no path: the House Replenish still cites every step, counting nothing."""
    path = tmp_path / "bare.yaml"
    path.write_text(BASE + "turn: {side: house, house: gryffindor}\naction: replenish\n", encoding="utf-8")
    ruling = check_file(path)
    assert ruling.verdict is Verdict.LEGAL
    cited = [s.clause for s in ruling.steps]
    assert {"replenish.house-order", "draw.to-five", "replenish.house-advance", "path.marker"} <= set(cited)


# --- issue 12: steps that rest on a reading say so; a draw asks whether the Houses won --------

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "houses-vs-dark-arts"


def test_a_step_back_that_counts_only_by_a_reading_rests_on_it() -> None:
    """A passage straight back is backtracking only if transfers count: no rule step after that reading."""
    ruling = check_file(SCENARIOS / "reading-transfer-backtrack-counts.yaml")
    first = next(i for i, s in enumerate(ruling.steps) if s.reading == "transfer-backtrack=counts")
    assert [s.reading for s in ruling.steps[first:]] == ["transfer-backtrack=counts"] * 2
    assert ruling.verdict is Verdict.ILLEGAL


@pytest.mark.parametrize(
    ("overrides", "verdict", "result"),
    [
        ((), Verdict.UNDETERMINED, None),
        ((("house-victory", "not-met"),), Verdict.LEGAL, "draw"),
        ((("house-victory", "met"),), Verdict.ILLEGAL, "houses"),
    ],
)
def test_a_draw_consults_the_house_victory_reading(
    overrides: tuple[tuple[str, str], ...], verdict: Verdict, result: str | None
) -> None:
    ruling = check_file(SCENARIOS / "end-draw-needs-the-house-victory-reading.yaml", overrides)
    assert ruling.verdict is verdict
    assert ruling.state.get("result") == result
    assert "open.house-victory" in {s.clause for s in ruling.steps}
