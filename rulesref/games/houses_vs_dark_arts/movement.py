"""Explore's movement: allowance, split cards, routes. (helper A)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesref.referee import Outcome, Trail

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Situation


def explore(s: Situation, trail: Trail) -> Outcome:
    raise NotImplementedError
