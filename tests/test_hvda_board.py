"""Houses vs. Dark Arts board and movement: unreadable situations name file, line and field.

Each case is a one-line change to a small valid scenario; the error must point at the
line and the field that is wrong, and the CLI must print one line and exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.errors import ScenarioError
from rulesref.referee import check_file

BASE = """\
game: houses-vs-dark-arts
title: base
board:
  grid: 5x4
  walls: [b1-b2]
  bonus: {a3: draw}
pawns:
  g1: {house: gryffindor, at: a1}
  g2: {house: gryffindor, at: c2}
  d1: {side: dark-arts, at: c3}
action:
  explore:
    card: {movement: 3+3}
    moves:
      - {pawn: g1, path: [a1, b1, c1]}
"""


def write(tmp_path: Path, old: str = "", new: str = "") -> Path:
    text = BASE.replace(old, new) if old else BASE
    assert not old or old in BASE
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_base_is_legal(tmp_path: Path) -> None:
    assert check_file(write(tmp_path)).verdict.value == "legal"


CASES = [
    # (what, old, new, line, field, words in the message)
    ("unknown space", "at: a1}", "at: f9}", 8, "pawns.g1.at", ["unknown space 'f9'", "a1..e4"]),
    ("pawn in two places", "at: a1}", "at: [a1, b1]}", 8, "pawns.g1.at", ["more than one place"]),
    (
        "path not from the pawn's space",
        "path: [a1, b1, c1]",
        "path: [b1, c1]",
        15,
        "action.explore.moves[0].path[0]",
        ["g1 is on a1"],
    ),
    ("unknown pawn in moves", "{pawn: g1,", "{pawn: g9,", 15, "action.explore.moves[0]", ["unknown pawn 'g9'"]),
    (
        "unknown space in a path",
        "[a1, b1, c1]",
        "[a1, b1, z1]",
        15,
        "action.explore.moves[0].path[2]",
        ["unknown space 'z1'"],
    ),
    (
        "wall between non-neighbours",
        "walls: [b1-b2]",
        "walls: [b1-c2]",
        5,
        "board.walls[0]",
        ["do not share a border", "corner"],
    ),
    ("wall naming no spaces", "walls: [b1-b2]", "walls: [b1-q7]", 5, "board.walls[0]", ["does not name two spaces"]),
    ("misspelt top-level key", "board:", "bord:", 3, "bord", ["unknown key 'bord'", "did you mean 'board'"]),
    ("misspelt board key", "walls:", "wals:", 5, "board.wals", ["did you mean 'walls'"]),
    ("misspelt pawn key", "at: c3}", "att: c3}", 10, "pawns.d1.att", ["did you mean 'at'"]),
    ("misspelt explore key", "    moves:", "    movs:", 14, "action.explore.movs", ["did you mean 'moves'"]),
    ("bad movement", "movement: 3+3", "movement: 3x3", 13, "action.explore.card.movement", ["3+3"]),
    ("unknown bonus icon", "{a3: draw}", "{a3: treasure}", 6, "board.bonus.a3", ["unknown bonus icon"]),
    ("unknown side", "side: dark-arts", "side: villains", 10, "pawns.d1.side", ["unknown side"]),
    ("bad grid", "grid: 5x4", "grid: big", 4, "board.grid", ["COLUMNSxROWS"]),
    (
        "unknown allowance",
        "{movement: 3+3}",
        "{movement: 3+3, allows: [flying]}",
        13,
        "action.explore.card.allows[0]",
        ["unknown allowance"],
    ),
    (
        "negative earlier-cards",
        "    moves:",
        "    earlier-cards: -1\n    moves:",
        14,
        "action.explore.earlier-cards",
        ["whole number"],
    ),
    (
        "earlier-cards without turn",
        "    moves:",
        "    earlier-cards: 1\n    moves:",
        14,
        "action.explore.earlier-cards",
        ["turn"],
    ),
]


@pytest.mark.parametrize(("old", "new", "line", "field", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_unreadable(tmp_path: Path, old: str, new: str, line: int, field: str, words: list[str]) -> None:
    path = write(tmp_path, old, new)
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    text = str(caught.value)
    assert f"{path}:{line}:" in text
    assert f": {field}: " in text
    for word in words:
        assert word in text


def test_unknown_house(tmp_path: Path) -> None:
    path = write(tmp_path, "board:", "houses: [gryffindor]\nboard:")
    path.write_text(path.read_text().replace("house: gryffindor, at: c2", "house: gryfindor, at: c2"))
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    assert "pawns.g2.house" in str(caught.value)
    assert "did you mean 'gryffindor'" in str(caught.value)


def test_stun_needs_a_choice_when_several_spaces(tmp_path: Path) -> None:
    path = write(tmp_path, "path: [a1, b1, c1]", "path: [a1, a2, b2, c2]")
    path.write_text(
        path.read_text()
        .replace("g2: {house: gryffindor, at: c2}", "g2: {house: gryffindor, at: e4}")
        .replace("d1: {side: dark-arts, at: c3}", "d1: {side: dark-arts, at: c2}")
    )
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    assert "relocate" in str(caught.value)
    assert "action.explore" in str(caught.value)


def test_bump_needs_a_choice_when_several_pawns(tmp_path: Path) -> None:
    text = BASE.replace("g1: {house: gryffindor, at: a1}", "g1: {house: gryffindor, at: c2}").replace(
        "      - {pawn: g1, path: [a1, b1, c1]}", "      - {pawn: d1, path: [c3, c2]}"
    )
    path = tmp_path / "bump.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    assert "bump: PAWN" in str(caught.value)


def test_cli_prints_one_line_and_exits_2(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path, "at: a1}", "at: f9}")
    result = cli("check", str(path))
    assert result.code == 2
    lines = [line for line in (result.out + result.err).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert f"{path}:8:" in lines[0] and "pawns.g1.at" in lines[0]
    assert "Traceback" not in result.out + result.err


# --- small model tests: build a board from one line, ask it a question -----------------


def board(text: str):  # type: ignore[no-untyped-def]
    import yaml

    from rulesref.games.houses_vs_dark_arts.board_reader import read_board
    from rulesref.source import Loaded

    return read_board(Loaded({"board": yaml.safe_load(text)}, "<test>", {}, {}))


def test_full_border_adjacency_only() -> None:
    b = board("{grid: 3x3}")
    assert b.adjacent("a1", "b1") and b.adjacent("b1", "a1") and b.adjacent("a1", "a2")
    assert not b.adjacent("a1", "b2") and b.corner("a1", "b2")
    assert not b.adjacent("a1", "c1") and not b.corner("a1", "c1")


def test_named_spaces_and_borders() -> None:
    b = board("{grid: 2x2, spaces: [great-hall, owlery], borders: [b2-great-hall, [owlery, a1]]}")
    assert b.adjacent("great-hall", "b2") and b.adjacent("a1", "owlery")
    assert b.great_hall == "great-hall"


def test_great_hall_exists_off_the_map() -> None:
    b = board("{grid: 2x2}")
    assert b.great_hall == "great-hall" and not b.neighbours["great-hall"]


def test_walls_obstacles_passages() -> None:
    b = board("{grid: 3x3, walls: [a1-b1], obstacles: {b1-b2: door}, passages: {red: [a3, c1]}}")
    assert b.wall("b1", "a1") and not b.wall("b1", "b2")
    assert b.obstacle("b2", "b1") == "door"
    assert b.passages["a3"] == ("red", "c1") and b.passages["c1"] == ("red", "a3")


# --- a location of several spaces (issue 13: the documented reading location-area) -------

AREA = """\
game: houses-vs-dark-arts
title: Two pawns in a location of two spaces
board: {grid: 5x4, location: [d4, e4]}
pawns:
  d1: {side: dark-arts, at: d4}
  d2: {side: dark-arts, at: e4}
path: {length: 20, marker: 17, orange: 8, red: 14, events: [14, 17]}
players:
  dark-arts: {progress: 3, location-card: next-red}
action: {check: victory}
"""


@pytest.mark.parametrize(("option", "verdict", "together"), [("whole-area", "legal", 2), ("one-space", "illegal", 1)])
def test_a_location_of_several_spaces_reaches_the_location_area_reading(
    tmp_path: Path, option: str, verdict: str, together: int
) -> None:
    path = tmp_path / "area.yaml"
    path.write_text(AREA, encoding="utf-8")
    ruling = check_file(path, [("location-area", option)])
    assert ruling.verdict.value == verdict
    assert ruling.readings["location-area"] == option
    assert ruling.state["pawns-at-location"] == together


def test_an_empty_location_list_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "area.yaml"
    path.write_text(AREA.replace("[d4, e4]", "[]"), encoding="utf-8")
    with pytest.raises(ScenarioError, match="expected a space id or a list of space ids") as err:
        check_file(path)
    assert err.value.field == "board.location"
