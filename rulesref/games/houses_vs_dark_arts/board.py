"""The castle map: spaces, full-border adjacency, walls, obstacles and special spaces. (helper A)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesref.source import Loaded

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Pawn


class Board:
    """STUB: to be written."""


def read_board(doc: Loaded) -> Board:
    raise NotImplementedError


def read_pawns(doc: Loaded, board: Board, houses: list[str]) -> dict[str, Pawn]:
    raise NotImplementedError


_: Any = None
