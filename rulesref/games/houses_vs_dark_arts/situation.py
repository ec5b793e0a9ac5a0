"""The scenario read into a Situation, and the action dispatched to the module that rules on it.

The Situation is mutable on purpose: the engine applies an action to it step by step,
and ``to_state`` gives the resulting state in the scenario's own shape. What an Explore
plays and moves (card, moves, choices) is read here too, so the rule modules only rule.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any

from rulesref.errors import did_you_mean
from rulesref.games.houses_vs_dark_arts import board as board_mod
from rulesref.games.houses_vs_dark_arts import drawing
from rulesref.games.houses_vs_dark_arts import path as path_mod
from rulesref.games.houses_vs_dark_arts import turns as turns_mod
from rulesref.referee import Outcome, Trail
from rulesref.scenario import Scenario, refuse_unknown_keys
from rulesref.source import Loaded, PathKey

SITUATION_KEYS = ("board", "houses", "pawns", "path", "players", "turn", "action")
ACTIONS = ("explore", "replenish", "learn", "advance", "check")
HOUSE = "house"
DARK_ARTS = "dark-arts"


@dataclass
class Pawn:
    """A pawn on the board or in the Dark Arts reserve."""

    id: str
    side: str
    """``house`` or ``dark-arts``."""
    house: str | None
    """The House pawn's house; None for a Dark Arts pawn."""
    at: str
    """A space id, or ``reserve`` for a Dark Arts pawn off the board."""
    stunned: bool = False

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "at": self.at, "stunned": self.stunned}
        if self.house:
            out["house"] = self.house
        return out


@dataclass
class Situation:
    """Everything a ruling may read or change."""

    doc: Loaded
    board: board_mod.Board
    houses: list[str]
    pawns: dict[str, Pawn]
    path: path_mod.Track | None
    players: dict[str, turns_mod.Player]
    turn: turns_mod.Turn | None
    action: str
    """Which action is in question: one of ACTIONS."""
    body: Any
    """The action's own mapping (or value), read by the module that rules on it."""
    facts: dict[str, Any] = field(default_factory=dict)
    """What the action produced beyond positions (bonus taken, cards acquired...), for the state."""
    told: list[str] = field(default_factory=list)
    """What happened, in short phrases, for the ruling's summary (not part of the state)."""

    def to_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {"pawns": {p.id: p.to_state() for p in self.pawns.values()}}
        if self.path is not None:
            state["path"] = self.path.to_state()
        if self.players:
            state["players"] = {name: p.to_state() for name, p in self.players.items()}
        if self.turn is not None:
            state["turn"] = self.turn.to_state()
        state.update(self.facts)
        return state

    def at(self, space: str, *, but: str | None = None) -> list[Pawn]:
        """The pawns standing on a space (the one named ``but`` left out)."""
        return [p for p in self.pawns.values() if p.at == space and p.id != but]


def read_situation(scenario: Scenario) -> Situation:
    """Read and validate the situation; ScenarioError names file, line and field."""
    doc = scenario.doc
    action, body = _read_action(doc)
    if action == "explore" or "board" in doc.data:
        board = board_mod.read_board(doc)
        drawing.remember(doc.data, board)
    else:
        # a question about cards or the Path needs no map: the pawns' spaces will do
        board = board_mod.loose_board(doc)
    listed = _read_houses(doc)
    pawns = board_mod.read_pawns(doc, board, listed, required=action == "explore")
    # without a houses list, the houses in play are those of the House pawns
    houses = listed if listed is not None else list(dict.fromkeys(p.house for p in pawns.values() if p.house))
    return Situation(
        doc=doc,
        board=board,
        houses=houses,
        pawns=pawns,
        path=path_mod.read_path(doc),
        players=turns_mod.read_players(doc, houses),
        turn=turns_mod.read_turn(doc, houses),
        action=action,
        body=body,
    )


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


def act(s: Situation, trail: Trail) -> Outcome:
    """Rule on the action in question."""
    from rulesref.games.houses_vs_dark_arts import movement, replenish, victory

    handlers = {
        "explore": movement.explore,
        "replenish": replenish.replenish,
        "learn": turns_mod.learn,
        "advance": path_mod.advance_action,
        "check": victory.check,
    }
    return handlers[s.action](s, trail)


class Illegal(Exception):
    """A rule forbids the action: it is refused and the situation stays as it was."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


# --- what an Explore plays and moves -------------------------------------------------

EXPLORE_KEYS = ("card", "moves", "relocate", "bump", "earlier-cards")
CARD_KEYS = ("movement", "effect", "allows")
COLOURS = ("white", "orange", "red")
ALLOWS = ("obstacle", "fly-off", "passage")
_MOVEMENT = re.compile(r"^\s*(\d+)\s*(?:\+\s*(\d+)\s*)?$")


class Via(str, enum.Enum):
    """How a pawn gets from one space of its path to the next."""

    WALK = "walk"
    """An ordinary step across a full border: 1 movement point."""
    FLY = "fly"
    """A Fly Off transfer from one Fly Off Point to another: 0 points (move.fly-off-cost)."""
    PASSAGE = "passage"
    """A Secret Passageway to the paired entrance: 1 point (move.passage-cost)."""


COST = {Via.WALK: 1, Via.FLY: 0, Via.PASSAGE: 1}


@dataclass(frozen=True)
class Card:
    """The card played for the Explore."""

    parts: tuple[int, ...]
    """``(4,)`` for a 4; ``(3, 3)`` for a 3 + 3 split card."""
    effect: str | None
    """The colour of the effect that gives ``allows`` (white, orange, red); None if not said."""
    allows: frozenset[str]
    """What the effect lets a pawn do: obstacle, fly-off, passage."""
    obstacle_types: frozenset[str] = frozenset()
    """Obstacle types the effect names; empty when it names none."""

    @property
    def total(self) -> int:
        return sum(self.parts)

    def text(self) -> str:
        return " + ".join(map(str, self.parts))


@dataclass(frozen=True)
class Step:
    """One step of a pawn's path."""

    via: Via
    to: str
    field: PathKey
    """Where the step is written, for error messages."""


@dataclass(frozen=True)
class Move:
    """One pawn's path for this card, start space first."""

    pawn: str
    start: str
    steps: tuple[Step, ...]
    field: PathKey

    @property
    def cost(self) -> int:
        """Movement points spent; a reserve pawn's first space is where it is put, not a step."""
        steps = self.steps[1:] if self.start == board_mod.RESERVE else self.steps
        return sum(COST[s.via] for s in steps)

    @property
    def end(self) -> str:
        return self.steps[-1].to if self.steps else self.start

    def route(self) -> str:
        marks = {Via.WALK: ">", Via.FLY: " fly>", Via.PASSAGE: " passage>"}
        return self.start + "".join(f"{marks[s.via]}{s.to}" for s in self.steps)


@dataclass(frozen=True)
class Explore:
    """The Explore in question: the card, the moves in order, and the players' choices."""

    card: Card | None
    moves: tuple[Move, ...]
    relocate: dict[str, str]
    """Where the House player puts each Dark Arts pawn it stuns."""
    bump: str | None
    """Which House pawn a Dark Arts pawn bumps, where several share the space."""
    earlier: int = 0
    """Cards already played earlier in this same Explore: the card in question is a further one."""


def read_explore(s: Situation) -> Explore:
    """The Explore's body; ScenarioError naming the field on anything unreadable."""
    doc, body = s.doc, s.body
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
    earlier = body.get("earlier-cards", 0)
    if not isinstance(earlier, int) or isinstance(earlier, bool) or earlier < 0:
        raise doc.error((*where, "earlier-cards"), f"expected a whole number 0 or more, got {earlier!r}")
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
            if start == board_mod.RESERVE or start in s.board.neighbours:
                raise doc.error(
                    (*path_field, 0),
                    f"{pawn.id} is on {expected}, not {path[0]!r}",
                    hint=f"a path starts on the pawn's own space ({expected}); a pawn is in one place",
                )
            _space(s, path[0], (*path_field, 0))
        steps = tuple(_read_step(s, item, (*path_field, i)) for i, item in enumerate(path[1:], 1))
        move = Move(pawn.id, expected, steps, path_field)
        ends[pawn.id] = move.end
        moves.append(move)
    return tuple(moves)


def _read_step(s: Situation, item: Any, where: PathKey) -> Step:
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
        return Step(Via(kind), _space(s, to, where), where)
    if isinstance(item, str) and ":" in item:
        kind, _, to = item.partition(":")
        kind = kind.strip().lower()
        if kind in ("fly", "passage"):
            return Step(Via(kind), _space(s, to, where), where)
    return Step(Via.WALK, _space(s, item, where), where)
