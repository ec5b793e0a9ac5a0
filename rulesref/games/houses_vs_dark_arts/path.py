"""The Dark Arts Path: marker, zones, Event Spaces. (helper B)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesref.referee import Outcome, Trail
from rulesref.source import Loaded

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Situation


class Track:
    """STUB: to be written."""

    def to_state(self) -> dict[str, Any]:
        raise NotImplementedError


def read_path(doc: Loaded) -> Track | None:
    return None


def advance(s: Situation, trail: Trail, spaces: int, cause: str) -> None:
    """Advance the Dark Arts Marker, reporting zones entered and Event Spaces reached."""
    raise NotImplementedError


def unlocked(s: Situation, trail: Trail, colour: str) -> bool:
    """Whether an effect of this colour may be used now (white always; orange/red by zone)."""
    raise NotImplementedError


def advance_action(s: Situation, trail: Trail) -> Outcome:
    raise NotImplementedError
