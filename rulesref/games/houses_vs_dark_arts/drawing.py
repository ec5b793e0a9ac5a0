"""A small text picture of the board for the renderer: pawns, walls, obstacles, the path taken.

Grid rows are drawn top to bottom (row 1 first). Between two cells of a row, ``|`` is a
castle wall and ``:`` an obstacle; under a cell, ``---`` is a wall and ``...`` an obstacle.
A pawn shows its id (upper case when stunned; ``+`` when others share the space). Plain
text only: render.py decides how to show it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rulesref.games.houses_vs_dark_arts.model import COLUMNS, Board

_MARKS = (("#", "protected"), ("+", "bonus"), ("^", "fly-off"), ("~", "passage"), ("*", "path"))


def draw(board: Board, data: dict[str, Any], state: dict[str, Any]) -> str:
    """The board of a ruling: the pawns where ``state`` (else the scenario ``data``) puts them, the moves written."""
    return picture(board, _pawns(state.get("pawns") or data.get("pawns") or {}), _trail(data))


def picture(board: Board, pawns: dict[str, list[str]], trail: list[tuple[str, list[str]]]) -> str:
    """The drawing: the grid, the named spaces, a legend and the moves."""
    path = {space.split(":")[-1] for _, spaces in trail for space in spaces}
    width = max([3, *(len(p[0]) + 1 for p in pawns.values() if p)])
    width = min(width, 6)
    lines: list[str] = []
    if board.columns:
        lines.append("    " + "".join(COLUMNS[c].center(width) + " " for c in range(board.columns)).rstrip())
        for row in range(1, board.rows + 1):
            cells = ""
            for col in range(board.columns):
                here = f"{COLUMNS[col]}{row}"
                cells += _cell(board, here, pawns, path).center(width)
                if col + 1 < board.columns:
                    cells += _between(board, here, f"{COLUMNS[col + 1]}{row}", "|", ":", " ")
            lines.append(f"{row:>3} {cells}".rstrip())
            if row < board.rows:
                under = " ".join(
                    _between(
                        board, f"{COLUMNS[c]}{row}", f"{COLUMNS[c]}{row + 1}", "-" * width, "." * width, " " * width
                    )
                    for c in range(board.columns)
                )
                if under.strip():
                    lines.append(f"    {under}".rstrip())
    grid = {f"{COLUMNS[c]}{r}" for c in range(board.columns) for r in range(1, board.rows + 1)}
    for space in board.spaces:
        if space in grid or (space == board.great_hall and not board.neighbours[space] and not pawns.get(space)):
            continue
        links = ", ".join(sorted(board.neighbours[space]))
        who = " ".join(pawns.get(space, [])) or _cell(board, space, {}, path)
        lines.append(f"    {space}" + (f" (borders {links})" if links else "") + f": {who}")
    marked = _marked(board, path)
    used = [f"{mark} {name}" for mark, name in _MARKS if marked[mark]]
    if used:
        lines.append("    " + "  ".join(used))
    for pawn, spaces in trail:
        lines.append(f"    {pawn}: {' > '.join(spaces)}")
    return "\n".join(lines)


def _cell(board: Board, space: str, pawns: dict[str, list[str]], path: set[str]) -> str:
    here = pawns.get(space)
    if here:
        return here[0] + ("+" if len(here) > 1 else "")
    if space in path:
        return "*"
    return next((mark for mark, present in _marked(board, path).items() if space in present), ".")


def _between(board: Board, a: str, b: str, wall: str, obstacle: str, none: str) -> str:
    if board.wall(a, b):
        return wall
    if board.obstacle(a, b) is not None:
        return obstacle
    return none


def _marked(board: Board, path: set[str]) -> dict[str, Collection[str]]:
    """The spaces each mark of the legend stands on (``_MARKS``), in the order a cell shows them."""
    return {"#": board.protected, "+": board.bonus, "^": board.fly_off, "~": board.passages, "*": path}


def _pawns(raw: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pid, spec in raw.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("at"), str):
            continue
        label = str(pid).upper() if spec.get("stunned") else str(pid)
        out.setdefault(spec["at"].strip().lower(), []).append(label)
    return out


def _trail(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Each move's spaces as written in action.explore.moves (already validated)."""
    action = data.get("action")
    body = action.get("explore") if isinstance(action, dict) else None
    moves = body.get("moves") if isinstance(body, dict) else None
    if isinstance(moves, dict):
        moves = [{"pawn": k, "path": v} for k, v in moves.items()]
    out = []
    for move in moves if isinstance(moves, list) else []:
        if isinstance(move, dict) and isinstance(move.get("path"), list):
            out.append((str(move.get("pawn")), [_space(item) for item in move["path"]]))
    return out


def _space(item: Any) -> str:
    if isinstance(item, dict) and item:
        kind, to = next(iter(item.items()))
        return f"{kind}:{to}"
    return str(item).strip().lower()
