"""Turns: whose turn it is, which actions a side may take, Learn, reserve pawns and extra turns.

Conventions for the other modules of this engine:

* ``may_explore`` (and the other ``may_*`` checks) return ``None`` when the action may go
  on, or an ``illegal`` Outcome (the situation unchanged) to return at once::

      refused = turns.may_explore(s, trail)
      if refused is not None:
          return refused

* ``hands.draw`` and ``hands.cleanup`` change the named player's cards. ``who`` is a key of
  ``players`` (a house, or ``dark-arts``). A scenario may omit ``players``, ``path`` or
  ``turn``: then the step is still cited, but nothing is counted.
* Open questions raise ``Undetermined`` through ``trail.choice`` / ``trail.interpret``;
  the referee turns that into the verdict ``undetermined``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesref.referee import Outcome, Trail
from rulesref.ruling import Verdict
from rulesref.scenario import refuse_unknown_keys
from rulesref.source import Loaded

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Explore, Situation

HOUSE = "house"
DARK_ARTS = "dark-arts"
PHASES = ("normal", "last-hands")


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

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "deck": self.deck, "discard": self.discard}
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


# --- reading the situation -----------------------------------------------------------

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


def _mapping(doc: Loaded, path: tuple[str, ...], value: Any, allowed: tuple[str, ...]) -> dict[str, Any]:

    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(path, f"expected a mapping with some of: {', '.join(allowed)}")
    refuse_unknown_keys(doc, path, value, allowed)
    return value


def count(doc: Loaded, path: tuple[str | int, ...], value: Any, top: int | None = None) -> int:
    """A whole number >= 0 (and <= top), or a ScenarioError at that field."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise doc.error(path, f"expected a whole number 0 or more, got {value!r}")
    if top is not None and value > top:
        raise doc.error(path, f"expected at most {top}, got {value!r}")
    return value


def _flag(doc: Loaded, path: tuple[str, ...], value: Any) -> bool:
    if not isinstance(value, bool):
        raise doc.error(path, f"expected true or false, got {value!r}")
    return value


def read_players(doc: Loaded, houses: list[str]) -> dict[str, Player]:
    """``players:`` (optional): each house in play and/or ``dark-arts``, with card counts."""
    raw = _mapping(doc, ("players",), doc.data.get("players"), (*_known_houses(doc, houses), DARK_ARTS))
    out: dict[str, Player] = {}
    for name, body in raw.items():
        where = ("players", str(name))
        da = name == DARK_ARTS
        fields = _mapping(doc, where, body, _DARK_ARTS_KEYS if da else _PLAYER_KEYS)
        hand, deck, discard = (count(doc, (*where, k), fields.get(k, 0)) for k in _PLAYER_KEYS)
        p = Player(hand=hand, deck=deck, discard=discard, dark_arts=da)
        if da:
            p.progress = count(doc, (*where, "progress"), fields.get("progress", 0), top=3)
            p.markers = _markers(doc, (*where, "markers"), fields.get("markers", []), houses)
            p.location_card = _location_card(doc, (*where, "location-card"), fields.get("location-card"))
        out[str(name)] = p
    return out


def _markers(doc: Loaded, path: tuple[str, ...], value: Any, houses: list[str]) -> list[str]:
    from rulesref.games.houses_vs_dark_arts.path import ALL_HOUSES

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
    from rulesref.games.houses_vs_dark_arts.path import ALL_HOUSES

    if doc.data.get("houses") is not None:
        return list(houses)
    return list(dict.fromkeys([*houses, *ALL_HOUSES]))


def read_turn(doc: Loaded, houses: list[str]) -> Turn | None:
    """``turn:`` (optional): whose turn, the phase and what already happened this turn."""
    if "turn" not in doc.data:
        return None
    raw = _mapping(doc, ("turn",), doc.data["turn"], _TURN_KEYS)
    side = raw.get("side", HOUSE if raw.get("house") else None)
    if side not in (HOUSE, DARK_ARTS):
        raise doc.error(("turn", "side"), f"expected side: house or dark-arts, got {side!r}")
    house = raw.get("house")
    if side == HOUSE:
        if house is None and len(houses) == 1:
            house = houses[0]
        known = _known_houses(doc, houses)
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
        acquired=_flag(doc, ("turn", "acquired"), raw.get("acquired", False)),
        phase=phase,
        actions_taken=count(doc, ("turn", "actions-taken"), raw.get("actions-taken", 0)),
        played=count(doc, ("turn", "played"), raw.get("played", 0)),
        extra=_flag(doc, ("turn", "extra"), raw.get("extra", False)),
        final_hands_out=None if out is None else _flag(doc, ("turn", "final-hands-out"), out),
    )


def need_turn(s: Situation, action: str) -> Turn:
    """The turn, which an action needs to know who takes it; else a ScenarioError."""
    if s.turn is None:
        raise s.doc.error((), f"{action} needs `turn:` to know who takes it, e.g. turn: {{side: dark-arts}}")
    return s.turn


def refuse(s: Situation, trail: Trail, clause: str, says: str) -> Outcome:
    """An illegal ruling: cite why, and leave the situation unchanged."""
    trail.rule(clause, says)
    return Outcome(Verdict.ILLEGAL, says, s.to_state())


# --- which actions a side may take ------------------------------------------------------


def may_act(s: Situation, trail: Trail, action: str) -> Outcome | None:
    """Checks every action shares: a second action this turn, an extra turn's scope. None: go on.

    Whether a player may take more than one action a turn is open (open.turn-order). For the
    Dark Arts the sources suggest one (reading ``dark-arts-actions``, default ``one-action``);
    for a House player nothing is suggested (reading ``house-actions``, no default), so a
    second House action is ``undetermined`` unless the reading is chosen.
    """
    turn = s.turn
    if turn is None:
        return None
    if turn.extra:
        # open.another-turn: what an extra turn from a bonus space allows
        trail.interpret(
            "another-turn",
            "This is an extra turn from an another-turn bonus space; it is "
            "taken as another turn like any other turn of that player.",
            clause="open.another-turn",
        )
    if turn.actions_taken == 0:
        return None
    if turn.side == DARK_ARTS:
        # action.dark-arts-choice: each turn the Dark Arts chooses Explore or Replenish
        trail.rule("action.dark-arts-choice", "Each turn the Dark Arts chooses between Explore and Replenish.")
        reading, one = "dark-arts-actions", trail.choice("dark-arts-actions") == "one-action"
        says = (
            "one action a turn, as the explainer page suggests for the Dark Arts, so no second action."
            if one
            else "the Dark Arts may take a further action in the same turn."
        )
    else:
        reading, one = "house-actions", trail.choice("house-actions") == "one-action"
        says = "a House player takes one action a turn." if one else "a House player may take further actions."
    option = trail.interpret(
        reading, f"{cap_name(turn.who)} has already taken an action this turn: {says}", clause="open.turn-order"
    )
    if one:
        return Outcome(
            Verdict.ILLEGAL,
            f"{cap_name(turn.who)} has already taken this turn's one action; "
            f"{action} is not allowed (reading {reading}={option}).",
            s.to_state(),
        )
    return None


def may_explore(s: Situation, trail: Trail, ex: Explore | None = None) -> Outcome | None:
    """Called at the start of an Explore. None: the Explore may go on; else an illegal Outcome.

    The Dark Arts Explore is a rule (action.dark-arts-explore). A House Explore is an open
    question (open.house-explore): the reading ``house-explore`` (default ``as-dark-arts``)
    says how it is taken, and ``house-explore-cards`` (no default) whether a further card may
    be played in the same Explore (``explore.earlier-cards``). A scenario without ``turn:``
    is not checked.
    """
    refused = may_act(s, trail, "Explore")
    earlier = ex.earlier if ex is not None else 0
    if refused is not None:
        return refused
    if s.turn is None:
        if earlier:
            raise s.doc.error(("action", "explore", "earlier-cards"), "a further card needs turn: to know who Explores")
        return None
    if s.turn.side == DARK_ARTS:
        if earlier:
            # action.dark-arts-explore: the Dark Arts Explore is one card played and resolved
            return refuse(
                s,
                trail,
                "action.dark-arts-explore",
                f"A Dark Arts Explore plays a card and resolves it; {earlier} card(s) were already played in "
                "this Explore, and a further card is not part of it.",
            )
        # action.dark-arts-choice / action.dark-arts-explore: Explore is one of its two actions
        trail.rule(
            "action.dark-arts-explore",
            "The Dark Arts Explores: it plays a card and resolves its movement, an unlocked effect of it, or both.",
        )
        return None
    who = cap_name(s.turn.who)
    effect_only = ex is not None and ex.card is not None and not ex.moves
    option = trail.interpret(
        "house-explore",
        f"{who} Explores: "
        + (
            "a card is played for its movement, an unlocked effect, or both, as in the Dark Arts Explore."
            if trail.choice("house-explore") == "as-dark-arts"
            else "the card played must move a pawn; it is not played for its effect alone."
        ),
        clause="open.house-explore",
    )
    if option == "movement-required" and effect_only:
        return Outcome(
            Verdict.ILLEGAL,
            f"{who} may not play a card for its effect alone in a House Explore (reading house-explore={option}).",
            s.to_state(),
        )
    if earlier:
        # open.house-explore: may several cards be played in one House Explore? (no default)
        cards = trail.interpret(
            "house-explore-cards",
            f"{who} has already played {earlier} card(s) in this Explore and plays a further one: "
            + (
                "a House Explore plays one card, so not allowed."
                if trail.choice("house-explore-cards") == "one-card"
                else "a House Explore may play several cards."
            ),
            clause="open.house-explore",
        )
        if cards == "one-card":
            return Outcome(
                Verdict.ILLEGAL,
                f"{who} has already played a card in this Explore; a further card is not allowed "
                f"(reading house-explore-cards={cards}).",
                s.to_state(),
            )
    return None


def name(who: str) -> str:
    """A players key as the game says it: ``the Dark Arts``, ``Gryffindor``."""
    return "the Dark Arts" if who == DARK_ARTS else who.capitalize()


def cap_name(who: str) -> str:
    """name() at the start of a sentence."""
    return "The Dark Arts" if who == DARK_ARTS else who.capitalize()


def in_last_hands(s: Situation) -> bool:
    """The last-hand phase: said by the turn, or the Marker stands on the last Path space."""
    if s.turn is not None and s.turn.phase == "last-hands":
        return True
    return s.path is not None and s.path.marker >= s.path.length


# --- Learn -------------------------------------------------------------------------------


def learn(s: Situation, trail: Trail) -> Outcome:
    """Learn: House only; what it does is an open question (reading ``learn``, no default)."""
    turn = need_turn(s, "Learn")
    if s.body not in (None, {}):
        raise s.doc.error(("action", "learn"), "expected learn: {} (what Learn does is a reading, not an input)")
    # action.learn-house-only: the Dark Arts never Learns
    if turn.side == DARK_ARTS:
        return refuse(
            s,
            trail,
            "action.learn-house-only",
            "Learn is a House action only: the Dark Arts chooses Explore or Replenish.",
        )
    refused = may_act(s, trail, "Learn")
    if refused is not None:
        return refused
    trail.rule("action.learn-house-only", f"{cap_name(turn.who)} is a House player, so Learn is one of their actions.")
    option = trail.choice("learn")
    goes = "hand" if option == "card-to-hand" else "discard pile"
    trail.interpret(
        "learn",
        f"{cap_name(turn.who)} Learns: one card is taken from the Library into their {goes}.",
        clause="open.learn",
    )
    player = s.players.get(turn.who)
    if player is not None:
        if option == "card-to-hand":
            player.hand += 1
        else:
            player.discard += 1
    return Outcome(Verdict.LEGAL, f"{cap_name(turn.who)} Learns (reading learn={option}).", s.to_state())


def deploy(s: Situation, trail: Trail, pawn: str) -> str:
    """A Dark Arts pawn leaves the reserve: open.reserve-deployment; returns the reading's option."""
    return trail.interpret(
        "reserve-deployment",
        f"{pawn} comes onto the board from the Dark Arts reserve.",
        clause="open.reserve-deployment",
    )


def another_turn(s: Situation, trail: Trail) -> bool:
    """An another-turn bonus is earned: whether it gives a further turn (False: it does not).

    The answer is also put in the state as ``another-turn: true|false``.
    """
    if s.turn is not None and s.turn.extra:
        option = trail.choice("another-turn")
        trail.interpret(
            "another-turn",
            "The bonus is earned during an extra turn: "
            + (
                "it is again another turn, as each time the bonus is earned."
                if option == "full-turn"
                else "extra turns do not chain, so no further turn."
            ),
            clause="open.another-turn",
        )
        s.facts["another-turn"] = option != "no-chain"
        return option != "no-chain"
    s.facts["another-turn"] = True
    trail.interpret(
        "another-turn", "The bonus gives the player another turn after this one.", clause="open.another-turn"
    )
    return True
