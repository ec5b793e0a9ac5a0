"""The Houses vs. Dark Arts model: the values a ruling reads and changes, and the game's constants.

Nothing here reads a file or rules on anything: the readers (reader.py, board_reader.py)
build these values from a scenario, and the rule modules change them through a Trail.
Every constant of the game is defined here once.
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesref.source import Loaded

HOUSE = "house"
DARK_ARTS = "dark-arts"
ALL_HOUSES = ("gryffindor", "hufflepuff", "ravenclaw", "slytherin")
COLOURS = ("white", "orange", "red")
"""The effect colours, in the order the Dark Arts Path unlocks them."""
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
"""A grid's column letters: space ``b3`` is column b, row 3."""
RESERVE = "reserve"
"""Where a Dark Arts pawn off the board stands; not a space."""
GREAT_HALL = "great-hall"
"""The Great Hall's default space id; added off the map when the board does not show it."""
HAND_TARGET = 5
"""Draw to five: the hand total a Replenish (and the last-hand phase) draws up to."""
PHASES = ("normal", "last-hands")


# --- the board -----------------------------------------------------------------------------

Border = frozenset[str]


class Bonus(str, enum.Enum):
    """The icon on a bonus space (bonus.icon)."""

    ACQUIRE = "acquire"
    """Acquire a card."""
    DRAW = "draw"
    """Draw 1 card."""
    ANOTHER_TURN = "another-turn"
    """Take another turn."""


BONUS_NAMES = {
    "acquire": Bonus.ACQUIRE,
    "acquire-card": Bonus.ACQUIRE,
    "draw": Bonus.DRAW,
    "draw-1": Bonus.DRAW,
    "draw-one": Bonus.DRAW,
    "draw-card": Bonus.DRAW,
    "another-turn": Bonus.ANOTHER_TURN,
    "extra-turn": Bonus.ANOTHER_TURN,
}
"""Icon names a scenario may write; the ruling's state echoes the name as written."""


def border(a: str, b: str) -> Border:
    """The border between two spaces, the same whichever way round it is named."""
    return frozenset((a, b))


def show(b: Border) -> str:
    """``a1-b1``, in a stable order."""
    return "-".join(sorted(b))


def grid_pos(space: str) -> tuple[int, int] | None:
    """(column index, row) of a grid space such as ``b3``; None for a named space."""
    if len(space) >= 2 and space[0] in COLUMNS and space[1:].isdigit():
        return COLUMNS.index(space[0]), int(space[1:])
    return None


def corner(a: str, b: str) -> bool:
    """Whether two grid spaces touch only at a corner (diagonal neighbours)."""
    pa, pb = grid_pos(a), grid_pos(b)
    return pa is not None and pb is not None and abs(pa[0] - pb[0]) == 1 and abs(pa[1] - pb[1]) == 1


def summary(spaces: list[str] | tuple[str, ...], grid: int) -> str:
    """``a1..e4, owlery``: a board's spaces in a few words, for hints."""
    first = f"{spaces[0]}..{spaces[grid - 1]}" if grid else ""
    return ", ".join(x for x in (first, *spaces[grid:]) if x) or "no spaces"


@dataclass(frozen=True)
class Board:
    """The castle map as the scenario describes it."""

    spaces: tuple[str, ...]
    """Every space id, grid spaces first (a1, b1, ...), then named spaces."""
    neighbours: dict[str, frozenset[str]]
    """Full-border neighbours of each space (walls included: a wall is on a border)."""
    walls: frozenset[Border]
    """Borders with a castle wall: never a route."""
    obstacles: dict[Border, str]
    """Borders with an obstacle, and the obstacle's type label."""
    protected: frozenset[str]
    """Protected Area spaces: closed to Dark Arts pawns."""
    bonus: dict[str, str]
    """Bonus spaces and their icon, as written (see BONUS_NAMES)."""
    fly_off: tuple[str, ...]
    """Fly Off Points; a transfer goes from one to another."""
    passages: dict[str, tuple[str, str]]
    """Secret Passageway entrances: entrance -> (colour, the paired entrance)."""
    great_hall: str
    """The Great Hall's space id."""
    location: tuple[str, ...]
    """The assigned location for the Dark Arts win: one space, or the spaces of an area; () if not given."""
    columns: int = 0
    """Grid columns (a..), 0 without a grid."""
    rows: int = 0
    """Grid rows (1..), 0 without a grid."""

    def adjacent(self, a: str, b: str) -> bool:
        """Whether a and b share a full border (board.adjacency)."""
        return b in self.neighbours.get(a, ())

    def corner(self, a: str, b: str) -> bool:
        """Whether a and b are grid spaces that touch only at a corner (board.corners)."""
        return corner(a, b) and a in self.neighbours and b in self.neighbours

    def wall(self, a: str, b: str) -> bool:
        """Whether a castle wall stands between a and b."""
        return border(a, b) in self.walls

    def obstacle(self, a: str, b: str) -> str | None:
        """The type of the obstacle between a and b, if any."""
        return self.obstacles.get(border(a, b))

    def bonus_icon(self, space: str) -> Bonus | None:
        """The bonus a House pawn ending here would take."""
        name = self.bonus.get(space)
        return BONUS_NAMES[name] if name is not None else None

    def describe(self) -> str:
        """``a1..e4`` plus the named spaces, for hints."""
        return summary(self.spaces, self.columns * self.rows)


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
    unstated: frozenset[str] = frozenset()
    """What the ruling cannot state of the pawn (an open question decides it): left out of the state."""

    def to_state(self) -> dict[str, Any]:
        known = {"side": self.side, "at": self.at, "stunned": self.stunned}
        out: dict[str, Any] = {k: v for k, v in known.items() if k not in self.unstated}
        if self.house:
            out["house"] = self.house
        return out


# --- the players, the turn and the Dark Arts Path --------------------------------------------


@dataclass
class Player:
    """One player's cards (counts only: which cards they are never matters here)."""

    hand: int = 0
    deck: int = 0
    """The draw deck."""
    discard: int = 0
    """The discard pile."""
    markers: list[str] = field(default_factory=list)
    """House Markers held (Dark Arts only)."""
    progress: int = 0
    """Progress Tokens held, 0-3 (Dark Arts only)."""
    location_card: str | int | None = None
    """When the Dark Arts took the location card: first-red, next-red, last-space (or the
    Path space number); None if not taken."""
    dark_arts: bool = False
    given: frozenset[str] = frozenset()
    """The card counts the scenario wrote. One left out counts as 0, but is never the reason
    for a ruling: a step that turns on it asks for it instead."""
    unstated: frozenset[str] = frozenset()
    """Card counts the ruling cannot state (an open question decides them): left out of the state."""

    def to_state(self) -> dict[str, Any]:
        counts = {"hand": self.hand, "deck": self.deck, "discard": self.discard}
        out: dict[str, Any] = {k: v for k, v in counts.items() if k not in self.unstated}
        if self.dark_arts:
            out.update(markers=list(self.markers), progress=self.progress, **{"location-card": self.location_card})
        return out


@dataclass
class Turn:
    """Whose turn it is and what has already happened in it."""

    side: str
    """``house`` or ``dark-arts``."""
    house: str | None = None
    """The House player's house; None on the Dark Arts turn."""
    acquired: bool = False
    """The bump acquisition has already happened this turn (bump.acquire-once)."""
    phase: str = "normal"
    """``normal`` or ``last-hands`` (after the Marker reaches the last Path space)."""
    actions_taken: int = 0
    """Actions already taken this turn, before the one in question."""
    played: int = 0
    """Cards played this turn and not yet discarded (discarded at the end of the turn)."""
    extra: bool = False
    """This turn is an extra turn from an another-turn bonus space."""
    final_hands_out: bool | None = None
    """Last-hand phase: the final hands have run out (None: work it out from the hands)."""

    @property
    def who(self) -> str:
        """The players key of whoever's turn it is."""
        return self.house if self.side == HOUSE and self.house else DARK_ARTS

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "side": self.side,
            "acquired": self.acquired,
            "phase": self.phase,
            "actions-taken": self.actions_taken,
            "played": self.played,
            "extra": self.extra,
        }
        if self.house:
            out["house"] = self.house
        if self.final_hands_out is not None:
            out["final-hands-out"] = self.final_hands_out
        return out


@dataclass
class Track:
    """The Dark Arts Path as the scenario gives it, and where its Marker stands.

    Spaces are numbered 1..length; the Marker may also stand on 0 (before the first space).
    ``orange`` and ``red`` name the first space of each zone; every space before ``orange``
    is white. ``events`` lists the Event Spaces; a *red* Event Space is one in the red zone.
    """

    length: int
    """The number of spaces; the last one starts the last-hand phase."""
    marker: int
    """The space the Dark Arts Marker is on."""
    orange: int | None = None
    """First space of the orange zone (None: not given)."""
    red: int | None = None
    """First space of the red zone (None: not given)."""
    events: list[int] = field(default_factory=list)
    """The Event Spaces, in order."""
    kept: set[str] = field(default_factory=set)
    """Colours unlocked earlier that the Marker's zone no longer shows (after a move back)."""

    def zone(self, space: int | None = None) -> str:
        at = self.marker if space is None else space
        if self.red is not None and at >= self.red:
            return "red"
        if self.orange is not None and at >= self.orange:
            return "orange"
        return "white"

    def unlocked(self) -> list[str]:
        reached = COLOURS[: COLOURS.index(self.zone()) + 1]
        return [c for c in COLOURS if c in reached or c in self.kept]

    def red_events(self) -> list[int]:
        return [] if self.red is None else self.events[bisect_left(self.events, self.red) :]

    def taken_at(self, card: str | int) -> int | None:
        """The space a location card's moment names: the number given, the last space, or the
        first or next red Event Space (None if the Path has no such space)."""
        if isinstance(card, int):
            return card
        if card == "last-space":
            return self.length
        reds = self.red_events()
        at = ("first-red", "next-red").index(card)
        return reds[at] if at < len(reds) else None

    def red_rank(self, space: int) -> int | None:
        """The place (0 = first) of Event Space ``space`` among the red ones; None if it is not one."""
        if self.red is None or space < self.red:
            return None
        i = bisect_left(self.events, space)
        if i == len(self.events) or self.events[i] != space:
            return None
        return i - bisect_left(self.events, self.red)

    def zone_given(self) -> bool:
        """Whether the zone the Marker is in follows from the zones the scenario gives: no page
        says where they lie, so a Path given without them has no zone to report."""
        at = self.marker
        if self.red is not None and at >= self.red:
            return True
        if self.orange is not None:
            return at < self.orange or self.red is not None
        return False

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"length": self.length, "marker": self.marker, "events": list(self.events)}
        if self.zone_given():
            out["unlocked"] = self.unlocked()
            if self.zone() != "white":  # no page names a white zone: before orange is no zone at all
                out["zone"] = self.zone()
        if self.orange is not None:
            out["orange"] = self.orange
        if self.red is not None:
            out["red"] = self.red
        return out


# --- the actions in question -----------------------------------------------------------------


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
class PathStep:
    """One step of a pawn's path: to the next space, walking or by a transfer."""

    via: Via
    to: str


@dataclass(frozen=True)
class Move:
    """One pawn's path for this card, start space first."""

    pawn: str
    start: str
    steps: tuple[PathStep, ...]

    @property
    def cost(self) -> int:
        """Movement points spent; a reserve pawn's first space is where it is put, not a step."""
        steps = self.steps[1:] if self.start == RESERVE else self.steps
        return sum(COST[s.via] for s in steps)

    @property
    def end(self) -> str:
        return self.steps[-1].to if self.steps else self.start

    def route(self) -> str:
        marks = {Via.WALK: ">", Via.FLY: " fly>", Via.PASSAGE: " passage>"}
        return self.start + "".join(f"{marks[s.via]}{s.to}" for s in self.steps)


@dataclass(frozen=True)
class Explore:
    """``explore:`` in question: the card, the moves in order, and the players' choices."""

    card: Card | None
    moves: tuple[Move, ...]
    relocate: dict[str, str]
    """Where the House player puts each Dark Arts pawn it stuns."""
    bump: str | None
    """Which House pawn a Dark Arts pawn bumps, where several share the space."""
    earlier: int = 0
    """Cards already played earlier in this same Explore: the card in question is a further one."""


@dataclass(frozen=True)
class Replenish:
    """``replenish:`` in question."""

    discard: int | None
    """Cards to discard by choice; None stands for ``all``."""


@dataclass(frozen=True)
class Learn:
    """``learn:`` in question (what Learn does is a reading, not an input)."""


@dataclass(frozen=True)
class Advance:
    """``advance:`` in question: the Marker moved ``spaces`` (back when negative) because of ``cause``."""

    spaces: int
    cause: str


@dataclass(frozen=True)
class Check:
    """``check:`` in question: ``kind`` is victory, draw, end, turn-end or effect."""

    kind: str
    who: str
    """Whose victory (``dark-arts``, ``house``, a house), or the effect's colour."""


ADVANCING = {
    "replenish": "a House Replenish",
    "house-markers": "the full set of House Markers",
    "effect": "a card or event effect",
}
"""What may advance the Dark Arts Marker (``advance: {cause: ...}``), in words."""
NOT_ADVANCING = {
    "event": "draw.no-advance",
    "library-book": "draw.no-advance",
    "bonus": "draw.no-advance",
    "dark-arts-replenish": "replenish.dark-arts-no-advance",
}
"""What never advances it, and the clause that says so."""

Action = Explore | Replenish | Learn | Advance | Check


# --- the whole situation --------------------------------------------------------------------


@dataclass
class Situation:
    """Everything a ruling may read or change.

    Mutable on purpose: the engine applies an action to it step by step, and ``to_state``
    gives the resulting state in the scenario's own shape.
    """

    doc: Loaded
    """The scenario as loaded: a rule module names a field of it when a choice is missing."""
    board: Board
    houses: list[str]
    pawns: dict[str, Pawn]
    path: Track | None
    players: dict[str, Player]
    turn: Turn | None
    houses_listed: bool = False
    """The scenario lists the houses in play (``houses:``); else they are the House pawns' houses."""
    facts: dict[str, Any] = field(default_factory=dict)
    """What the action produced beyond positions (bonus taken, cards acquired...), for the state."""
    told: list[str] = field(default_factory=list)
    """What happened, in short phrases, for the ruling's summary (not part of the state)."""
    acquisition_to_come: bool = False
    """A bump is being resolved and its last step, the acquisition, is still to come."""
    turn_questions: list[Callable[[], None]] = field(default_factory=list)
    """Readings on whether the turn allows the action at all (a second action, a further card):
    asked once the action itself is ruled (``turns.ask_turn_questions``), since an action a
    rule forbids is illegal whatever they say."""

    def to_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {"pawns": {p.id: p.to_state() for p in self.pawns.values()}}
        if self.path is not None:
            state["path"] = self.path.to_state()
        if self.players:
            state["players"] = {name: p.to_state() for name, p in self.players.items()}
        if self.turn is not None:
            state["turn"] = self.turn.to_state()
            if self.path is not None and self.path.marker >= self.path.length:  # the last space starts them
                state["turn"]["phase"] = "last-hands"
        state.update(self.facts)
        return state

    def at(self, space: str, *, but: str | None = None) -> list[Pawn]:
        """The pawns standing on a space (the one named ``but`` left out)."""
        return [p for p in self.pawns.values() if p.at == space and p.id != but]


def name(who: str) -> str:
    """A players key as the game says it: ``the Dark Arts``, ``Gryffindor``."""
    return "the Dark Arts" if who == DARK_ARTS else who.capitalize()


def cap_name(who: str) -> str:
    """name() at the start of a sentence."""
    return "The Dark Arts" if who == DARK_ARTS else who.capitalize()


CARD_MOMENTS = {
    "first-red": "the first red Event Space",
    "next-red": "the next red Event Space",
    "last-space": "the last Path space",
}
"""When the location card can be taken, as a ruling says it."""


def card_moment(doc: Loaded, track: Track | None, card: str | int) -> str:
    """The location card's moment as a name (a Path space number is named from the path); a
    moment the Path cannot hold, or one the Marker has not reached, is refused."""
    where = ("players", DARK_ARTS, "location-card")
    if isinstance(card, str):
        if track is not None:
            space = track.taken_at(card)
            rank = ("first-red", "next-red").index(card) if card != "last-space" else -1
            if space is None and (track.red is not None or rank >= len(track.events)):  # events left out: none
                raise doc.error(
                    where,
                    f"taken at {CARD_MOMENTS[card]}, but the Path's Event Spaces {track.events} hold no such space",
                )
            if space is not None and track.marker < space:
                raise doc.error(
                    where,
                    f"taken at {CARD_MOMENTS[card]} (space {space}), but the Marker is only on space {track.marker}",
                )
        return card
    if track is None:
        raise doc.error(
            where,
            "a Path space number needs `path:` to tell which Event Space it is; or write "
            "first-red, next-red or last-space",
        )
    reds = track.red_events()
    if card in reds[:2]:
        when = ("first-red", "next-red")[reds.index(card)]
    elif card == track.length:
        when = "last-space"
    else:
        raise doc.error(
            where,
            f"space {card} is neither of the first two red Event Spaces {reds[:2]} nor the "
            f"last Path space ({track.length})",
        )
    if track.marker < card:
        raise doc.error(where, f"taken at space {card}, but the Marker is only on space {track.marker}")
    return when
