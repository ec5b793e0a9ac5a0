"""Reading ``board:`` and ``pawns:``: the castle map and who stands where.

A border is the pair of spaces it separates; a wall or an obstacle stands on a border,
and only full-border neighbours have one (board.adjacency, board.corners). What a pawn
may do on the map is movement's business.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from rulesref.errors import RulesrefError, did_you_mean
from rulesref.fields import refuse_unknown_keys
from rulesref.games.houses_vs_dark_arts.model import (
    ALL_HOUSES,
    BONUS_NAMES,
    COLUMNS,
    DARK_ARTS,
    GREAT_HALL,
    HOUSE,
    RESERVE,
    Board,
    Border,
    Pawn,
    border,
    corner,
    show,
    summary,
)
from rulesref.source import Loaded, PathKey

BOARD_KEYS = (
    "grid",
    "spaces",
    "borders",
    "walls",
    "obstacles",
    "protected",
    "bonus",
    "fly-off",
    "passages",
    "great-hall",
    "location",
)
_GRID = re.compile(r"^\s*(\d+)\s*[x×]\s*(\d+)\s*$")


def _name(value: Any) -> str | None:
    """A space or label as written, lowercased; None when it is not a plain word."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value).strip().lower()
    return text or None


class _Reader:
    """Reads the ``board`` mapping, failing with the field that is wrong."""

    def __init__(self, doc: Loaded) -> None:
        self.doc = doc
        raw = doc.data.get("board")
        if raw is None:
            raise doc.error((), "missing required key 'board'", hint="e.g. board: {grid: 5x4}")
        if not isinstance(raw, dict):
            raise doc.error(("board",), "expected a mapping, e.g. {grid: 5x4, walls: [b1-b2]}")
        refuse_unknown_keys(doc, ("board",), raw, BOARD_KEYS, keys="board keys")
        self.raw: dict[str, Any] = raw
        self.spaces: list[str] = []
        self.columns = self.rows = 0
        self.links: dict[str, set[str]] = {}

    def fail(self, path: PathKey, message: str, hint: str | None = None) -> RulesrefError:
        return self.doc.error(("board", *path), message, hint=hint)

    def items(self, key: str) -> list[Any]:
        value = self.raw.get(key) or []
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return [value]  # `walls: b1-b2` is a list of one
        if not isinstance(value, list):
            raise self.fail((key,), "expected a list")
        return value

    def space(self, value: Any, path: PathKey) -> str:
        name = _name(value)
        if name is None or name not in self.links:
            hint = did_you_mean(str(value), self.spaces) or f"the board has {self.summary()}"
            raise self.fail(path, f"unknown space {value!r}", hint=hint)
        return name

    def summary(self) -> str:
        return summary(self.spaces, self.columns * self.rows)

    def border(self, value: Any, path: PathKey) -> tuple[str, str]:
        """A border written ``a1-b1`` or ``[a1, b1]``."""
        if isinstance(value, list):
            if len(value) != 2:
                raise self.fail(path, "a border is two spaces, e.g. [a1, b1] or a1-b1")
            return self.space(value[0], (*path, 0)), self.space(value[1], (*path, 1))
        text = _name(value)
        if text is None:
            raise self.fail(path, "a border is two spaces, e.g. [a1, b1] or a1-b1")
        cuts = [(text[:i], text[i + 1 :]) for i, ch in enumerate(text) if ch == "-"]
        known = [(a, b) for a, b in cuts if a in self.links and b in self.links]
        if len(known) == 1:
            return known[0]
        if len(known) > 1:
            raise self.fail(path, f"border {value!r} can be split more than one way", hint="write it as a list: [a, b]")
        raise self.fail(
            path,
            f"{value!r} does not name two spaces of the board",
            hint=f"write a border as a1-b1 or [a1, b1]; the board has {self.summary()}",
        )

    def neighbour_border(self, value: Any, path: PathKey, what: str) -> Border:
        a, b = self.border(value, path)
        if b not in self.links[a]:
            hint = "they touch only at a corner" if corner(a, b) else "walls and obstacles stand on a shared border"
            raise self.fail(path, f"{what} between {a} and {b}, which do not share a border", hint=hint)
        return border(a, b)


def read_board(doc: Loaded) -> Board:
    """Read ``board:``; ScenarioError naming file, line and field on anything wrong."""
    r = _Reader(doc)
    _read_grid(r)
    _read_named(r)
    for i, item in enumerate(r.items("borders")):
        a, b = r.border(item, ("borders", i))
        if a == b:
            raise r.fail(("borders", i), "a space cannot border itself")
        r.links[a].add(b)
        r.links[b].add(a)
    walls = frozenset(r.neighbour_border(v, ("walls", i), "a wall") for i, v in enumerate(r.items("walls")))
    obstacles = _read_obstacles(r)
    both = sorted(show(b) for b in walls & set(obstacles))
    if both:
        raise r.fail(
            ("obstacles",), f"{both[0]} has both a wall and an obstacle", hint="a border holds one or the other"
        )
    protected = frozenset(r.space(v, ("protected", i)) for i, v in enumerate(r.items("protected")))
    fly_off = tuple(dict.fromkeys(r.space(v, ("fly-off", i)) for i, v in enumerate(r.items("fly-off"))))
    great_hall = r.space(r.raw.get("great-hall", GREAT_HALL), ("great-hall",))
    location = _read_location(r)
    return Board(
        spaces=tuple(r.spaces),
        neighbours={s: frozenset(n) for s, n in r.links.items()},
        walls=walls,
        obstacles=obstacles,
        protected=protected,
        bonus=_read_bonus(r),
        fly_off=fly_off,
        passages=_read_passages(r),
        great_hall=great_hall,
        location=location,
        columns=r.columns,
        rows=r.rows,
    )


def _read_grid(r: _Reader) -> None:
    raw = r.raw.get("grid")
    if raw is None:
        return
    m = _GRID.match(str(raw))
    if not m or isinstance(raw, bool):
        raise r.fail(("grid",), f"expected COLUMNSxROWS such as 5x4, got {raw!r}")
    cols, rows = int(m.group(1)), int(m.group(2))
    if not (1 <= cols <= len(COLUMNS) and 1 <= rows <= 99):
        raise r.fail(("grid",), f"a grid has 1-26 columns and 1-99 rows, got {raw!r}")
    r.columns, r.rows = cols, rows
    spaces, links = _grid(cols, rows)
    r.spaces.extend(spaces)
    r.links.update((name, set(near)) for name, near in links.items())


@functools.lru_cache(maxsize=32)
def _grid(cols: int, rows: int) -> tuple[tuple[str, ...], dict[str, frozenset[str]]]:
    """A grid's spaces in spreadsheet order (a1 b1 ... a2 ...) and their side-sharing neighbours."""
    spaces = tuple(f"{COLUMNS[c]}{r}" for r in range(1, rows + 1) for c in range(cols))
    links = {
        f"{COLUMNS[c]}{r}": frozenset(
            f"{COLUMNS[c + dc]}{r + dr}"
            for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= c + dc < cols and 1 <= r + dr <= rows
        )
        for r in range(1, rows + 1)
        for c in range(cols)
    }
    return spaces, links


def _read_named(r: _Reader) -> None:
    for i, value in enumerate(r.items("spaces")):
        name = _name(value)
        if name is None:
            raise r.fail(("spaces", i), f"a space is named by a word, got {value!r}")
        if name == RESERVE:
            raise r.fail(("spaces", i), "'reserve' is where Dark Arts pawns wait off the board, not a space")
        if name in r.links:
            raise r.fail(("spaces", i), f"space {name!r} is already on the board")
        r.spaces.append(name)
        r.links[name] = set()
    hall = _name(r.raw.get("great-hall", GREAT_HALL))
    if hall is None:
        raise r.fail(("great-hall",), "expected the id of the Great Hall's space")
    if hall not in r.links and "great-hall" not in r.raw:
        # the Great Hall always exists; off the map when the scenario does not draw it
        r.spaces.append(hall)
        r.links[hall] = set()
    if not r.spaces:
        raise r.fail((), "the board has no spaces", hint="give a grid (grid: 5x4) or named spaces")


def _read_obstacles(r: _Reader) -> dict[Border, str]:
    raw = r.raw.get("obstacles") or {}
    if isinstance(raw, list):
        raise r.fail(("obstacles",), "give each obstacle its type label", hint="e.g. obstacles: {c1-c2: door}")
    if not isinstance(raw, dict):
        raise r.fail(("obstacles",), "expected a mapping of border -> obstacle type, e.g. {c1-c2: door}")
    out: dict[Border, str] = {}
    for key, kind in raw.items():
        b = r.neighbour_border(key, ("obstacles", key), "an obstacle")
        label = _name(kind)
        if label is None:
            raise r.fail(("obstacles", key), "expected the obstacle's type label, e.g. door")
        if b in out:
            raise r.fail(("obstacles", key), f"border {show(b)} is listed twice")
        out[b] = label
    return out


def _read_bonus(r: _Reader) -> dict[str, str]:
    raw = r.raw.get("bonus") or {}
    if not isinstance(raw, dict):
        raise r.fail(("bonus",), "expected a mapping of space -> icon, e.g. {a3: draw}")
    out = {}
    for key, icon in raw.items():
        space = r.space(key, ("bonus", key))
        name = _name(icon)
        if name not in BONUS_NAMES:
            raise r.fail(
                ("bonus", key),
                f"unknown bonus icon {icon!r}",
                hint=did_you_mean(str(icon), BONUS_NAMES) or "icons: acquire, draw, another-turn",
            )
        out[space] = name
    return out


def _read_passages(r: _Reader) -> dict[str, tuple[str, str]]:
    raw = r.raw.get("passages") or {}
    if not isinstance(raw, dict):
        raise r.fail(("passages",), "expected a mapping of colour -> [entrance, entrance], e.g. {red: [a4, e2]}")
    out: dict[str, tuple[str, str]] = {}
    for colour, ends in raw.items():
        if not isinstance(ends, list) or len(ends) != 2:
            raise r.fail(("passages", colour), "a coloured symbol pairs exactly two entrances, e.g. [a4, e2]")
        a, b = (r.space(v, ("passages", colour, i)) for i, v in enumerate(ends))
        if a == b:
            raise r.fail(("passages", colour), "the two entrances must be different spaces")
        for i, end in enumerate((a, b)):
            if end in out:
                raise r.fail(("passages", colour, i), f"{end} is already an entrance ({out[end][0]})")
        out[a], out[b] = (str(colour), b), (str(colour), a)
    return out


def _read_location(r: _Reader) -> tuple[str, ...]:
    """``location: d4``, or ``location: [d4, e4]`` for a location of several spaces (an area)."""
    raw = r.raw.get("location")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        return (r.space(raw, ("location",)),)
    if not raw:
        raise r.fail(("location",), "expected a space id or a list of space ids")
    return tuple(dict.fromkeys(r.space(v, ("location", i)) for i, v in enumerate(raw)))


def loose_board(doc: Loaded) -> Board:
    """The board of a scenario that gives none: the spaces its pawns stand on, no borders."""
    raw = doc.data.get("pawns")
    spaces = [GREAT_HALL]
    for spec in raw.values() if isinstance(raw, dict) else ():
        at = _name(spec.get("at")) if isinstance(spec, dict) else None
        if at is not None and at != RESERVE and at not in spaces:
            spaces.append(at)
    return Board(
        spaces=tuple(spaces),
        neighbours={s: frozenset() for s in spaces},
        walls=frozenset(),
        obstacles={},
        protected=frozenset(),
        bonus={},
        fly_off=(),
        passages={},
        great_hall=GREAT_HALL,
        location=(),
    )


# --- pawns ---------------------------------------------------------------------------

SIDES = {"house": HOUSE, "dark-arts": DARK_ARTS, "darkarts": DARK_ARTS, "da": DARK_ARTS}
"""How a scenario may write a side."""
PAWN_KEYS = ("side", "house", "at", "stunned")


def read_pawns(doc: Loaded, board: Board, houses: list[str] | None, *, required: bool = True) -> dict[str, Pawn]:
    """Read ``pawns:``; houses is the ``houses`` list, or None to accept any house."""
    raw = doc.data.get("pawns")
    if raw is None and not required:
        return {}
    if raw is None:
        raise doc.error((), "missing required key 'pawns'", hint="e.g. pawns: {g1: {house: gryffindor, at: a1}}")
    if not isinstance(raw, dict) or not raw:
        raise doc.error(("pawns",), "expected a mapping of pawn id -> {house or side, at}")
    pawns: dict[str, Pawn] = {}
    for pid, spec in raw.items():
        where: PathKey = ("pawns", pid)
        if not isinstance(spec, dict):
            raise doc.error(where, "expected {house: NAME, at: SPACE} or {side: dark-arts, at: SPACE}")
        refuse_unknown_keys(doc, where, spec, PAWN_KEYS, keys="pawn keys")
        side, house = _side_and_house(doc, where, spec, houses)
        at = _name(spec.get("at"))
        if "at" not in spec:
            raise doc.error(where, f"pawn {pid} needs 'at': the space it stands on")
        if isinstance(spec["at"], list):
            raise doc.error((*where, "at"), f"pawn {pid} is in more than one place", hint="a pawn stands on one space")
        if at == RESERVE:
            if side != DARK_ARTS:
                raise doc.error((*where, "at"), "only Dark Arts pawns wait in the reserve")
        elif at not in board.neighbours:
            raise doc.error(
                (*where, "at"),
                f"unknown space {spec['at']!r}",
                hint=did_you_mean(str(spec["at"]), board.spaces) or f"the board has {board.describe()}",
            )
        stunned = spec.get("stunned", False)
        if not isinstance(stunned, bool):
            raise doc.error((*where, "stunned"), "expected true or false")
        if stunned and at == RESERVE:
            raise doc.error((*where, "stunned"), "the referee reads a reserve pawn as off the board, not stunned")
        pawns[str(pid)] = Pawn(str(pid), side, house, str(at), stunned)
    return pawns


def _side_and_house(
    doc: Loaded, where: PathKey, spec: dict[str, Any], houses: list[str] | None
) -> tuple[str, str | None]:
    side = None
    if "side" in spec:
        word = (_name(spec["side"]) or "").replace(" ", "-").replace("_", "-")
        side = SIDES.get(word)
        if side is None:
            raise doc.error(
                (*where, "side"),
                f"unknown side {spec['side']!r}",
                hint=did_you_mean(word, ("house", "dark-arts")) or "sides: house, dark-arts",
            )
    house = _name(spec.get("house")) if "house" in spec else None
    if house is not None and SIDES.get(house.replace(" ", "-").replace("_", "-")) == DARK_ARTS and side != HOUSE:
        return DARK_ARTS, None  # `house: dark-arts` is read as the Dark Arts side
    if "house" in spec and house is None:
        raise doc.error((*where, "house"), "expected a house name, e.g. gryffindor")
    if house is not None:
        if side == DARK_ARTS:
            raise doc.error((*where, "house"), "a Dark Arts pawn has no house")
        if houses is not None and house not in houses:
            raise doc.error(
                (*where, "house"),
                f"unknown house {spec['house']!r}: not among the houses in play",
                hint=did_you_mean(house, houses) or f"houses: {', '.join(houses)}",
            )
        if houses is None and house not in ALL_HOUSES:
            near = did_you_mean(house, ALL_HOUSES)
            if near:  # without a houses: list any name is a house, but a near miss is a typo
                raise doc.error((*where, "house"), f"unknown house {spec['house']!r}", hint=near)
        return HOUSE, house
    if side == HOUSE:
        if houses is not None and len(houses) == 1:
            return HOUSE, houses[0]
        raise doc.error(
            where,
            "a House pawn needs its house, e.g. house: gryffindor",
            hint="side: house alone names the house only when houses: lists one, e.g. houses: [gryffindor]",
        )
    if side is None:
        raise doc.error(where, "say whose pawn this is: house: NAME or side: dark-arts")
    return side, None
