"""A small text picture of the board for the renderer. (helper A)"""

from __future__ import annotations

from rulesref.ruling import Ruling


def draw(ruling: Ruling) -> str | None:
    return None
