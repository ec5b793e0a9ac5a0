"""Bonus spaces: only a House pawn that ends its move there takes the icon's bonus."""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts import hands, turns
from rulesref.games.houses_vs_dark_arts.model import HOUSE, Bonus, Move, Situation
from rulesref.ruling import Trail

SAYS = {
    Bonus.ACQUIRE: "acquire a card",
    Bonus.DRAW: "draw 1 card",
    Bonus.ANOTHER_TURN: "take another turn",
}


def resolve(s: Situation, trail: Trail, move: Move, *, first_of_two: bool) -> None:
    """After a pawn's move: bonus spaces passed give nothing; the end space may give its bonus."""
    pawn = s.pawns[move.pawn]
    board = s.board
    if pawn.side != HOUSE:
        if move.steps and board.bonus_icon(move.end) is not None:
            # bonus.end-on-space: bonuses are for House pawns
            trail.rule(
                "bonus.end-on-space", f"{pawn.id} is a Dark Arts pawn: the bonus space {move.end} gives it nothing."
            )
        return
    for step in move.steps[:-1]:
        if board.bonus_icon(step.to) is not None:
            # bonus.end-on-space: passing over is not ending there
            trail.rule("bonus.end-on-space", f"{pawn.id} only passes over the bonus space {step.to}: no bonus.")
    icon = board.bonus_icon(move.end)
    if not move.steps or icon is None or pawn.at != move.end:
        return
    if first_of_two:
        # open.split-bonus: does the first pawn of a split card take its bonus?
        option = trail.reading(
            "split-bonus",
            f"{pawn.id} stops on the bonus space {move.end} with the first part "
            "of a split card, before the second move.",
        )
        if option == "no-bonus":
            return
    trail.rule("bonus.end-on-space", f"{pawn.id} ends its move on the bonus space {move.end}.")
    trail.rule("bonus.icon", f"The icon there is {board.bonus[move.end]}: {pawn.house} may {SAYS[icon]}.")
    s.facts.setdefault("bonus", {})[pawn.id] = board.bonus[move.end]
    s.told.append(f"{pawn.id} takes the {board.bonus[move.end]} bonus on {move.end}")
    who = pawn.house or ""
    if icon is Bonus.DRAW:
        hands.draw(s, trail, who, 1, "bonus")
    elif icon is Bonus.ANOTHER_TURN:
        turns.another_turn(s, trail)
