"""The Dark Arts win, the last-hand phase and the draw. (helper B)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesref.referee import Outcome, Trail

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Situation


def check(s: Situation, trail: Trail) -> Outcome:
    raise NotImplementedError
