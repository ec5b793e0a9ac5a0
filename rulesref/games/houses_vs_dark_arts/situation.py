"""The scenario read into a Situation, and the action dispatched to the module that rules on it.

The Situation is mutable on purpose: the engine applies an action to it step by step,
and ``to_state`` gives the resulting state in the scenario's own shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulesref.errors import did_you_mean
from rulesref.games.houses_vs_dark_arts import board as board_mod
from rulesref.games.houses_vs_dark_arts import path as path_mod
from rulesref.games.houses_vs_dark_arts import turns as turns_mod
from rulesref.referee import Outcome, Trail
from rulesref.scenario import Scenario
from rulesref.source import Loaded

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


def read_situation(scenario: Scenario) -> Situation:
    """Read and validate the situation; ScenarioError names file, line and field."""
    doc = scenario.doc
    board = board_mod.read_board(doc)
    houses = _read_houses(doc)
    pawns = board_mod.read_pawns(doc, board, houses)
    action, body = _read_action(doc)
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


def _read_houses(doc: Loaded) -> list[str]:
    raw = doc.data.get("houses", [])
    if not isinstance(raw, list) or not all(isinstance(h, str) and h.strip() for h in raw):
        raise doc.error(("houses",), "expected a list of house names, e.g. [gryffindor, slytherin]")
    if len(set(raw)) != len(raw):
        raise doc.error(("houses",), "a house is listed twice")
    return [h.strip().lower() for h in raw]


def _read_action(doc: Loaded) -> tuple[str, Any]:
    raw = doc.data["action"]
    if isinstance(raw, str):
        raw = {raw: {}}
    if not isinstance(raw, dict) or len(raw) != 1:
        raise doc.error(("action",), f"expected exactly one action: {', '.join(ACTIONS)}")
    (kind, body), = raw.items()
    if kind not in ACTIONS:
        raise doc.error(("action", kind), f"unknown action {kind!r}", key=True, hint=did_you_mean(str(kind), ACTIONS))
    return str(kind), body


def act(s: Situation, trail: Trail) -> Outcome:
    """Rule on the action in question."""
    from rulesref.games.houses_vs_dark_arts import movement, victory

    handlers = {
        "explore": movement.explore,
        "replenish": turns_mod.replenish,
        "learn": turns_mod.learn,
        "advance": path_mod.advance_action,
        "check": victory.check,
    }
    return handlers[s.action](s, trail)
