"""Actions, Replenish, drawing and cleanup. (helper B)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesref.referee import Outcome, Trail
from rulesref.source import Loaded

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Situation


class Player:
    """STUB: to be written."""

    def to_state(self) -> dict[str, Any]:
        raise NotImplementedError


class Turn:
    """STUB: to be written."""

    def to_state(self) -> dict[str, Any]:
        raise NotImplementedError


def read_players(doc: Loaded, houses: list[str]) -> dict[str, Player]:
    return {}


def read_turn(doc: Loaded, houses: list[str]) -> Turn | None:
    return None


def may_explore(s: Situation, trail: Trail) -> None:
    """Check the side whose turn it is may take Explore (raise/return per the rules)."""
    raise NotImplementedError


def draw(s: Situation, trail: Trail, who: str, n: int, cause: str) -> None:
    """Draw n cards for a player (reshuffling the discard pile into an empty deck)."""
    raise NotImplementedError


def cleanup(s: Situation, trail: Trail, who: str, played: int) -> None:
    """End of turn: cards played this turn are discarded."""
    raise NotImplementedError


def replenish(s: Situation, trail: Trail) -> Outcome:
    raise NotImplementedError


def learn(s: Situation, trail: Trail) -> Outcome:
    raise NotImplementedError
