"""Reading a Houses vs. Dark Arts scenario into the model: the situation and the action in question.

The board and pawns are read by board_reader; the houses, the Dark Arts Path, the players,
the turn and the action's own body here. Every refusal names file, line and field; the
rule modules get typed values only, and rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rulesref.errors import did_you_mean
from rulesref.fields import count, flag, mapping, refuse_unknown_keys
from rulesref.games.houses_vs_dark_arts import board_reader
from rulesref.games.houses_vs_dark_arts.model import (
    ADVANCING,
    ALL_HOUSES,
    COLOURS,
    DARK_ARTS,
    HOUSE,
    NOT_ADVANCING,
    PHASES,
    RESERVE,
    Action,
    Advance,
    Card,
    Check,
    Explore,
    Learn,
    Move,
    PathStep,
    Pawn,
    Player,
    Replenish,
    Situation,
    Track,
    Turn,
    Via,
    card_moment,
)
from rulesref.ruling import Scenario
from rulesref.source import Loaded, PathKey

SITUATION_KEYS = ("board", "houses", "pawns", "path", "players", "turn", "action")
ACTIONS = ("explore", "replenish", "learn", "advance", "check")


def read_situation(scenario: Scenario) -> tuple[Situation, Action]:
    """Read and validate the situation and the action; ScenarioError names file, line and field."""
    doc = scenario.doc
    action, body = _read_action(doc)
    if action == "explore" or "board" in doc.data:
        board = board_reader.read_board(doc)
    else:
        # a question about cards or the Path needs no map: the pawns' spaces will do
        board = board_reader.loose_board(doc)
    listed = _read_houses(doc)
    pawns = board_reader.read_pawns(doc, board, listed, required=action == "explore")
    # without a houses list, the houses in play are those of the House pawns
    houses = listed if listed is not None else list(dict.fromkeys(p.house for p in pawns.values() if p.house))
    s = Situation(
        doc=doc,
        board=board,
        houses=houses,
        pawns=pawns,
        path=read_track(doc),
        players=read_players(doc, houses),
        turn=read_turn(doc, houses),
        houses_listed=listed is not None,
    )
    da = s.players.get(DARK_ARTS)
    if s.path is not None and da is not None and da.location_card is not None:
        card_moment(doc, s.path, da.location_card)  # a moment the Path cannot hold or has not reached
    readers: dict[str, Callable[[Situation, Any], Action]] = {
        "explore": _read_explore,
        "replenish": _read_replenish,
        "learn": _read_learn,
        "advance": _read_advance,
        "check": _read_check,
    }
    return s, readers[action](s, body)


def _read_houses(doc: Loaded) -> list[str] | None:
    if doc.data.get("houses") is None:
        return None
    raw = doc.data["houses"]
    if not isinstance(raw, list) or not all(isinstance(h, str) and h.strip() for h in raw):
        raise doc.error(("houses",), "expected a list of house names, e.g. [gryffindor, slytherin]")
    houses = [h.strip().lower() for h in raw]
    if len(set(houses)) != len(houses):
        raise doc.error(("houses",), "a house is listed twice")
    return houses


def _read_action(doc: Loaded) -> tuple[str, Any]:
    raw = doc.data["action"]
    if isinstance(raw, str):
        raw = {raw: {}}
    if not isinstance(raw, dict) or len(raw) != 1:
        raise doc.error(("action",), f"expected exactly one action: {', '.join(ACTIONS)}")
    ((kind, body),) = raw.items()
    if kind not in ACTIONS:
        raise doc.error(("action", kind), f"unknown action {kind!r}", key=True, hint=did_you_mean(str(kind), ACTIONS))
    return str(kind), body


# --- the players and the turn -------------------------------------------------------------------

_PLAYER_KEYS = ("hand", "deck", "discard")
_DARK_ARTS_KEYS = (*_PLAYER_KEYS, "markers", "progress", "location-card")
LOCATION_CARD = ("first-red", "next-red", "last-space")
_CARD_ALIASES = {"second-red": "next-red", "last": "last-space", "last-path-space": "last-space"}
_PHASE_ALIASES = {
    "normal": "normal",
    "last-hands": "last-hands",
    "last-hand": "last-hands",
    "last-hand-phase": "last-hands",
}
"""Accepted spellings of the phases (players say 'last hand' and 'last hands')."""
_TURN_KEYS = ("side", "house", "acquired", "phase", "actions-taken", "played", "extra", "final-hands-out")


def read_players(doc: Loaded, houses: list[str]) -> dict[str, Player]:
    """``players:`` (optional): each house in play and/or ``dark-arts``, with card counts."""
    raw = mapping(doc, ("players",), doc.data.get("players"), (*_known_houses(doc, houses), DARK_ARTS))
    out: dict[str, Player] = {}
    for name, body in raw.items():
        where = ("players", str(name))
        da = name == DARK_ARTS
        fields = mapping(doc, where, body, _DARK_ARTS_KEYS if da else _PLAYER_KEYS)
        hand, deck, discard = (count(doc, (*where, k), fields.get(k, 0)) for k in _PLAYER_KEYS)
        given = frozenset(k for k in _PLAYER_KEYS if k in fields)
        p = Player(hand=hand, deck=deck, discard=discard, dark_arts=da, given=given)
        if da:
            p.progress = count(doc, (*where, "progress"), fields.get("progress", 0), top=3)
            p.markers = _markers(doc, (*where, "markers"), fields.get("markers", []), houses)
            p.location_card = _location_card(doc, (*where, "location-card"), fields.get("location-card"))
        out[str(name)] = p
    return out


def _markers(doc: Loaded, path: tuple[str, ...], value: Any, houses: list[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        raise doc.error(path, "expected a list of houses whose Markers the Dark Arts holds")
    for i, house in enumerate(value):
        if house not in houses and house not in ALL_HOUSES:
            raise doc.error((*path, i), f"unknown house {house!r}", hint=f"houses: {', '.join(houses or ALL_HOUSES)}")
    if len(set(value)) != len(value):
        raise doc.error(path, "a House Marker is listed twice")
    return list(value)


def _location_card(doc: Loaded, path: tuple[str, ...], value: Any) -> str | int | None:
    if value is None or value is False:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value  # the Path space where it was taken; victory.py names it from the path
    value = _CARD_ALIASES.get(value, value) if isinstance(value, str) else value
    if value not in LOCATION_CARD:
        raise doc.error(
            path,
            f"expected when the location card was taken: {', '.join(LOCATION_CARD)} "
            f"(or the Path space number), got {value!r}",
        )
    return str(value)


def _known_houses(doc: Loaded, houses: list[str]) -> list[str]:
    """The houses a player key may name: those listed in ``houses:``, else any of the four."""
    if doc.data.get("houses") is not None:
        return list(houses)
    return list(dict.fromkeys([*houses, *ALL_HOUSES]))


def read_turn(doc: Loaded, houses: list[str]) -> Turn | None:
    """``turn:`` (optional): whose turn, the phase and what already happened this turn."""
    if "turn" not in doc.data:
        return None
    raw = mapping(doc, ("turn",), doc.data["turn"], _TURN_KEYS)
    side = raw.get("side", HOUSE if raw.get("house") else None)
    if side not in (HOUSE, DARK_ARTS):
        raise doc.error(("turn", "side"), f"expected side: house or dark-arts, got {side!r}")
    house = raw.get("house")
    if side == HOUSE:
        if house is None and len(houses) == 1:
            house = houses[0]
        known = _known_houses(doc, houses)
        if house is None:
            raise doc.error(
                ("turn", "house"),
                "a House turn needs the house whose turn it is: add turn.house (or list houses: with one house)",
                hint=f"houses: {', '.join(known)}",
            )
        if house not in known:
            raise doc.error(("turn", "house"), f"expected the house whose turn it is, one of {known}, got {house!r}")
    elif house is not None:
        raise doc.error(("turn", "house"), "a Dark Arts turn has no house")
    phase = raw.get("phase", "normal")
    if isinstance(phase, str):  # a list or mapping cannot be an alias key: refused just below
        phase = _PHASE_ALIASES.get(phase, phase)
    if phase not in PHASES:
        raise doc.error(("turn", "phase"), f"expected phase: {' or '.join(PHASES)}, got {phase!r}")
    out = raw.get("final-hands-out")
    return Turn(
        side=side,
        house=house,
        acquired=flag(doc, ("turn", "acquired"), raw.get("acquired", False)),
        phase=phase,
        actions_taken=count(doc, ("turn", "actions-taken"), raw.get("actions-taken", 0)),
        played=count(doc, ("turn", "played"), raw.get("played", 0)),
        extra=flag(doc, ("turn", "extra"), raw.get("extra", False)),
        final_hands_out=None if out is None else flag(doc, ("turn", "final-hands-out"), out),
    )


def _need_turn(s: Situation, action: str) -> None:
    """Refuse an action without the turn, which it needs to know who takes it."""
    if s.turn is None:
        raise s.doc.error((), f"{action} needs `turn:` to know who takes it, e.g. turn: {{side: dark-arts}}")


# --- the Dark Arts Path ---------------------------------------------------------------------

_TRACK_KEYS = ("length", "marker", "orange", "red", "events", "unlocked")


def read_track(doc: Loaded) -> Track | None:
    """``path:`` (optional): length, marker, orange, red, events, unlocked."""

    if "path" not in doc.data:
        return None
    raw = mapping(doc, ("path",), doc.data["path"], _TRACK_KEYS)
    for key in ("length", "marker"):
        if key not in raw:
            raise doc.error(("path",), f"missing required key {key!r}", hint="e.g. path: {length: 20, marker: 12}")
    length = count(doc, ("path", "length"), raw["length"])
    if length < 1:
        raise doc.error(("path", "length"), "a Path has at least 1 space")
    marker = count(doc, ("path", "marker"), raw["marker"])
    if marker > length:
        raise doc.error(("path", "marker"), f"the Marker is on space {marker}, beyond the last space ({length})")
    zones: dict[str, int | None] = {}
    for key in ("orange", "red"):
        value = raw.get(key)
        zones[key] = None if value is None else count(doc, ("path", key), value)
        if value is not None and not 1 <= value <= length:
            raise doc.error(("path", key), f"the {key} zone must start on a space 1..{length}, got {value}")
    if zones["orange"] is not None and zones["red"] is not None and zones["orange"] >= zones["red"]:
        raise doc.error(
            ("path", "orange"), f"the orange zone ({zones['orange']}) must start before the red zone ({zones['red']})"
        )
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise doc.error(("path", "events"), "expected a list of Event Space numbers")
    for i, e in enumerate(events):
        if count(doc, ("path", "events", i), e) < 1 or e > length:
            raise doc.error(("path", "events", i), f"an Event Space must be a space 1..{length}, got {e}")
    if len(set(events)) != len(events):
        raise doc.error(("path", "events"), "an Event Space is listed twice")
    track = Track(length, marker, zones["orange"], zones["red"], sorted(events))
    unlocked = raw.get("unlocked")
    if unlocked is not None:
        if not isinstance(unlocked, list) or not all(c in COLOURS for c in unlocked):
            raise doc.error(("path", "unlocked"), f"expected a list of colours: {', '.join(COLOURS)}")
        track.kept = {c for c in unlocked if c not in track.unlocked()}
    return track


# --- the action's own body ---------------------------------------------------------------------

EXPLORE_KEYS = ("card", "moves", "relocate", "bump", "earlier-cards")
CARD_KEYS = ("movement", "effect", "allows")
ALLOWS = ("obstacle", "fly-off", "passage")
_MOVEMENT = re.compile(r"^\s*(\d+)\s*(?:\+\s*(\d+)\s*)?$")


def _read_explore(s: Situation, body: Any) -> Explore:
    """The Explore's body; ScenarioError naming the field on anything unreadable."""
    doc = s.doc
    where: PathKey = ("action", "explore")
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise doc.error(where, "expected {card: ..., moves: [...]}")
    refuse_unknown_keys(doc, where, body, EXPLORE_KEYS, keys="explore keys")
    moves = _read_moves(s, body.get("moves"), (*where, "moves"))
    card = _read_card(doc, body["card"], (*where, "card")) if body.get("card") is not None else None
    if card is None and moves:
        raise doc.error(where, "a move needs the card that gives it: card: {movement: 3}")
    relocate: dict[str, str] = {}
    raw = body.get("relocate") or {}
    if not isinstance(raw, dict):
        raise doc.error((*where, "relocate"), "expected {DARK_ARTS_PAWN: SPACE}, e.g. {d1: d3}")
    for pid, space in raw.items():
        pawn = _pawn(s, pid, (*where, "relocate", pid))
        if pawn.side != DARK_ARTS:
            raise doc.error(
                (*where, "relocate", pid), f"{pid} is a House pawn; only a stunned Dark Arts pawn is relocated"
            )
        relocate[pawn.id] = _space(s, space, (*where, "relocate", pid))
    bump = body.get("bump")
    if bump is not None:
        pawn = _pawn(s, bump, (*where, "bump"))
        if pawn.side != HOUSE:
            raise doc.error((*where, "bump"), f"{bump} is a Dark Arts pawn; a bump picks a House pawn")
        bump = pawn.id
    earlier = count(doc, (*where, "earlier-cards"), body.get("earlier-cards", 0))
    if earlier and card is None:
        raise doc.error((*where, "earlier-cards"), "a further card in this Explore needs `card`, e.g. card: 3")
    return Explore(card, moves, relocate, bump, earlier)


def _pawn(s: Situation, pid: Any, where: PathKey) -> Pawn:
    pawn = s.pawns.get(str(pid))
    if pawn is None:
        raise s.doc.error(
            where, f"unknown pawn {pid!r}", hint=did_you_mean(str(pid), s.pawns) or f"pawns: {', '.join(s.pawns)}"
        )
    return pawn


def _space(s: Situation, value: Any, where: PathKey) -> str:
    name = str(value).strip().lower() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if name is None or name not in s.board.neighbours:
        raise s.doc.error(
            where,
            f"unknown space {value!r}",
            hint=did_you_mean(str(value), s.board.spaces) or f"the board has {s.board.describe()}",
        )
    return name


def _read_card(doc: Loaded, raw: Any, where: PathKey) -> Card:
    if not isinstance(raw, dict):
        raw = {"movement": raw}  # `card: 3+3` is short for {movement: 3+3}
    refuse_unknown_keys(doc, where, raw, CARD_KEYS, keys="card keys")
    movement = raw.get("movement", 0)
    m = _MOVEMENT.match(str(movement)) if not isinstance(movement, bool) else None
    if m is None:
        raise doc.error((*where, "movement"), f"expected a movement such as 4 or 3+3, got {movement!r}")
    parts = tuple(int(g) for g in m.groups() if g is not None)
    if len(parts) == 2 and 0 in parts:
        raise doc.error((*where, "movement"), f"each part of a split movement is at least 1, got {movement!r}")
    effect = raw.get("effect")
    if effect is not None and effect not in COLOURS:
        raise doc.error(
            (*where, "effect"),
            f"unknown effect colour {effect!r}",
            hint=did_you_mean(str(effect), COLOURS) or f"colours: {', '.join(COLOURS)}",
        )
    allows: set[str] = set()
    types: set[str] = set()
    items = raw.get("allows") or []
    if not isinstance(items, list):
        items = [items]
    for i, item in enumerate(items):
        kind, named = _allowance(item)
        if kind not in ALLOWS:
            raise doc.error(
                (*where, "allows", i),
                f"unknown allowance {item!r}",
                hint=did_you_mean(str(kind), ALLOWS) or "allows: obstacle (or obstacle:TYPE), fly-off, passage",
            )
        allows.add(kind)
        if named:
            types.add(named)
    return Card(parts, effect, frozenset(allows), frozenset(types))


def _allowance(item: Any) -> tuple[str, str | None]:
    """``obstacle``, ``obstacle:door`` or ``{obstacle: door}`` -> (kind, named type)."""
    if isinstance(item, dict) and len(item) == 1:
        ((kind, named),) = item.items()
        return str(kind).strip().lower(), str(named).strip().lower()
    text = str(item).strip().lower()
    kind, _, named = text.partition(":")
    return kind.strip(), named.strip() or None


def _read_moves(s: Situation, raw: Any, where: PathKey) -> tuple[Move, ...]:
    doc = s.doc
    if raw is None:
        return ()
    if isinstance(raw, dict):  # {g1: [a1, b1]} is short for [{pawn: g1, path: [a1, b1]}]
        entries = [((*where, pid), pid, path) for pid, path in raw.items()]
    elif isinstance(raw, list):
        entries = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict) or set(item) - {"pawn", "path"} or "pawn" not in item or "path" not in item:
                extra = sorted(set(item) - {"pawn", "path"}, key=str) if isinstance(item, dict) else []
                hint = did_you_mean(str(extra[0]), ("pawn", "path")) if extra else None
                raise doc.error((*where, i), "a move is {pawn: ID, path: [START, SPACE, ...]}", hint=hint)
            entries.append(((*where, i, "path"), item["pawn"], item["path"]))
    else:
        raise doc.error(where, "expected a list of {pawn: ID, path: [START, ...]}")
    moves = []
    ends: dict[str, str] = {}
    for path_field, pid, path in entries:
        pawn = _pawn(s, pid, path_field[:-1] if path_field[-1] == "path" else path_field)
        if not isinstance(path, list) or not path:
            raise doc.error(path_field, f"expected the path of {pawn.id} as a list of spaces, starting where it stands")
        start = str(path[0]).strip().lower() if isinstance(path[0], (str, int)) else None
        expected = ends.get(pawn.id, pawn.at)
        if start != expected:
            if start == RESERVE or start in s.board.neighbours:
                raise doc.error(
                    (*path_field, 0),
                    f"{pawn.id} is on {expected}, not {path[0]!r}",
                    hint=f"a path starts on the pawn's own space ({expected}); a pawn is in one place",
                )
            _space(s, path[0], (*path_field, 0))
        steps = tuple(_read_step(s, item, (*path_field, i)) for i, item in enumerate(path[1:], 1))
        _no_transfer_in_place(s, expected, steps, path_field)
        move = Move(pawn.id, expected, steps)
        ends[pawn.id] = move.end
        moves.append(move)
    return tuple(moves)


def _no_transfer_in_place(s: Situation, start: str, steps: tuple[PathStep, ...], where: PathKey) -> None:
    """A transfer to the space the pawn already stands on moves it nowhere: not a step of a path."""
    here = start
    for i, step in enumerate(steps, 1):
        if step.via is not Via.WALK and step.to == here:
            raise s.doc.error(
                (*where, i),
                f"a {step.via.value} transfer from {here} to {here} moves the pawn nowhere",
                hint="leave it out of the path, or name the space it leads to",
            )
        here = step.to


def _read_step(s: Situation, item: Any, where: PathKey) -> PathStep:
    """``b1`` (a step), ``{fly: e1}`` / ``fly:e1`` or ``{passage: e2}`` / ``passage:e2``."""
    if isinstance(item, dict) and len(item) == 1:
        ((kind, to),) = item.items()
        kind = str(kind).strip().lower()
        if kind not in ("fly", "passage"):
            raise s.doc.error(
                where,
                f"unknown transfer {kind!r}",
                hint=did_you_mean(kind, ("fly", "passage")) or "transfers: fly, passage",
            )
        return PathStep(Via(kind), _space(s, to, where))
    if isinstance(item, str) and ":" in item:
        kind, _, to = item.partition(":")
        kind = kind.strip().lower()
        if kind in ("fly", "passage"):
            return PathStep(Via(kind), _space(s, to, where))
    return PathStep(Via.WALK, _space(s, item, where))


_REPLENISH_KEYS = ("discard",)


def _read_replenish(s: Situation, body: Any) -> Replenish:
    """``replenish: {}`` or ``{discard: N}`` (N a number, or all)."""
    _need_turn(s, "Replenish")
    if body is None or body == {}:
        return Replenish(0)
    if not isinstance(body, dict):
        raise s.doc.error(("action", "replenish"), "expected {} or {discard: N} (N a number, or all)")
    mapping(s.doc, ("action", "replenish"), body, _REPLENISH_KEYS)
    n = body.get("discard", 0)
    if n == "all":
        return Replenish(None)
    return Replenish(count(s.doc, ("action", "replenish", "discard"), n))


def _read_learn(s: Situation, body: Any) -> Learn:
    _need_turn(s, "Learn")
    if body not in (None, {}):
        raise s.doc.error(("action", "learn"), "expected learn: {} (what Learn does is a reading, not an input)")
    return Learn()


def _read_advance(s: Situation, body: Any) -> Advance:
    """``advance: N`` or ``advance: {spaces: N, cause: C}``."""
    if isinstance(body, int) and not isinstance(body, bool):
        return Advance(body, "effect")
    fields = mapping(s.doc, ("action", "advance"), body, ("spaces", "cause"))
    spaces = fields.get("spaces", 1)
    if not isinstance(spaces, int) or isinstance(spaces, bool):
        raise s.doc.error(("action", "advance", "spaces"), f"expected a whole number of spaces, got {spaces!r}")
    cause = fields.get("cause", "effect")
    known = (*ADVANCING, *NOT_ADVANCING)
    if cause not in known:
        raise s.doc.error(
            ("action", "advance", "cause"),
            f"unknown cause {cause!r}",
            hint=did_you_mean(str(cause), known) or f"causes: {', '.join(known)}",
        )
    return Advance(spaces, str(cause))


CHECKS = ("victory", "draw", "end", "turn-end")
_CHECK_ALIASES = {
    "win": "victory",
    "end-of-track": "end",
    "game-end": "end",
    "cleanup": "turn-end",
    "end-turn": "turn-end",
}


def _read_check(s: Situation, body: Any) -> Check:
    where = ("action", "check")
    if isinstance(body, str):
        body = _CHECK_ALIASES.get(body, body)
        if body not in CHECKS:
            raise s.doc.error(
                where, f"unknown check {body!r}", hint=did_you_mean(body, CHECKS) or f"checks: {', '.join(CHECKS)}"
            )
        if body == "turn-end":
            _need_turn(s, "check: turn-end")
        return Check(body, DARK_ARTS)
    if isinstance(body, dict) and list(body) == ["effect"]:
        colour = body["effect"]
        if colour not in COLOURS:
            raise s.doc.error((*where, "effect"), f"expected an effect colour: {', '.join(COLOURS)}, got {colour!r}")
        return Check("effect", str(colour))
    if isinstance(body, dict) and list(body) == ["victory"]:
        who = body["victory"]
        # without a houses: list any of the four may be named, as in players:
        named = s.houses if s.doc.data.get("houses") is not None else [*s.houses, *ALL_HOUSES]
        if who in (DARK_ARTS, HOUSE, "houses") or who in named:
            return Check("victory", str(who))
        raise s.doc.error((*where, "victory"), f"whose victory? dark-arts, house, or a house in play; got {who!r}")
    raise s.doc.error(where, f"expected one of: {', '.join(CHECKS)}, {{victory: house}} or {{effect: orange}}")
