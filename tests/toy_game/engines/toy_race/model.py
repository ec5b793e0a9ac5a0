"""Toy Race, the model: the race as the scenario gives it, and the move in question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Race:
    """The track's last space and where each pawn stands (0: before the first space)."""

    last: int
    pawns: dict[str, int]
    winner: str | None = None

    def to_state(self) -> dict[str, Any]:
        return {"pawns": dict(self.pawns), "winner": self.winner}

    def draw(self) -> str:
        """``0 . r . b`` : the track, a pawn by its initial on its space."""
        cells = ["."] * (self.last + 1)
        for pawn, at in self.pawns.items():
            cells[at] = pawn[0] if cells[at] == "." else "+"
        return " ".join(cells)


@dataclass(frozen=True)
class Move:
    """``action: {move: PAWN, roll: N}``."""

    pawn: str
    roll: int
