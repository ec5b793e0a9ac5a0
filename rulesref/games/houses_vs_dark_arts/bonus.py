"""Bonus spaces: a House pawn that ends its move there takes the icon's bonus; passing over gives nothing.

Whether a Dark Arts pawn takes one is open (reading ``bonus-dark-arts``, default ``no-bonus``),
and so is what the acquire-a-card bonus gives (``open.bonus-acquire``).
"""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts import hands, turns
from rulesref.games.houses_vs_dark_arts.model import DARK_ARTS, HOUSE, RESERVE, Bonus, Move, Situation, name
from rulesref.ruling import Trail

SAYS = {
    Bonus.ACQUIRE: "acquires a card",
    Bonus.DRAW: "draws 1 card",
    Bonus.ANOTHER_TURN: "takes another turn",
}
"""What each icon gives (bonus.icon); the page makes none of them optional."""


def _dark_arts_bonus(pawn: str, space: str) -> dict[str, str]:
    """The words of reading bonus-dark-arts for a Dark Arts pawn ending its move on a bonus space."""
    ends = f"{pawn}, a Dark Arts pawn, ends its move on the bonus space {space}: "
    return {
        "no-bonus": ends + "the bonus is printed for a House pawn ending there, and under this reading a "
        "Dark Arts pawn takes nothing.",
        "takes-bonus": ends + "Dark Arts pawns take bonuses as House pawns do.",
    }


def _bumped_off_the_bonus(s: Situation, trail: Trail, move: Move) -> None:
    """A Dark Arts pawn that takes bonuses (by reading) ended on one, then went back to the reserve with its bump."""
    pawn = s.pawns[move.pawn]
    trail.reading("bonus-dark-arts", _dark_arts_bonus(pawn.id, move.end), clause="open.bonus-dark-arts")
    trail.open(
        "open.bonus-dark-arts",
        f"{pawn.id} went back to the reserve with its bump: whether it still takes the bonus of {move.end} is not "
        "settled, so the state gives it none.",
    )
    s.told.append(f"whether {pawn.id} takes the {s.board.bonus[move.end]} bonus of {move.end} is not settled")


def resolve(s: Situation, trail: Trail, move: Move, *, first_of_two: bool) -> None:
    """After a pawn's move: bonus spaces passed give nothing; the end space may give its bonus."""
    pawn = s.pawns[move.pawn]
    board = s.board
    for step in move.steps[:-1]:
        if board.bonus_icon(step.to) is not None and pawn.side == HOUSE:
            # bonus.end-on-space: passing over is not ending there
            trail.rule("bonus.end-on-space", f"{pawn.id} only passes over the bonus space {step.to}: no bonus.")
    icon = board.bonus_icon(move.end)
    if not move.steps or icon is None:
        return
    if pawn.at == RESERVE and pawn.side != HOUSE and trail.choice("bonus-dark-arts") == "takes-bonus":
        _bumped_off_the_bonus(s, trail, move)
    if pawn.at != move.end:
        return
    if pawn.side != HOUSE:
        # open.bonus-dark-arts: the pages give the bonus to House pawns only
        option = trail.reading("bonus-dark-arts", _dark_arts_bonus(pawn.id, move.end), clause="open.bonus-dark-arts")
        if option == "no-bonus":
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
    who = pawn.house or DARK_ARTS
    if icon is Bonus.ANOTHER_TURN:  # whether it gives a turn here is another_turn's (a chain, the last hands)
        icon_says = f"The icon there is {board.bonus[move.end]}."
    else:
        icon_says = f"The icon there is {board.bonus[move.end]}: {name(who)} {SAYS[icon]}."
    if pawn.side == HOUSE:
        trail.rule("bonus.end-on-space", f"{pawn.id} ends its move on the bonus space {move.end}.")
        trail.rule("bonus.icon", icon_says)
    else:
        # bonus.icon is printed for a House pawn's bonus: a Dark Arts pawn takes it only by the reading
        trail.reading("bonus-dark-arts", icon_says, clause="bonus.icon")
    s.facts.setdefault("bonus", {})[pawn.id] = board.bonus[move.end]
    told = len(s.told)
    s.told.append(f"{pawn.id} takes the {board.bonus[move.end]} bonus on {move.end}")
    if icon is Bonus.DRAW:
        hands.draw(s, trail, who, 1, "bonus")
    elif icon is Bonus.ANOTHER_TURN:
        if not turns.another_turn(s, trail, dark_arts=pawn.side != HOUSE):
            # no further turn (the last hands, or no chain): the summary says only where it ended
            s.told[told] = f"{pawn.id} ends on the {board.bonus[move.end]} bonus space {move.end}"
    else:
        # open.bonus-acquire: what the acquisition gives is not in the known pages
        trail.open(
            "open.bonus-acquire",
            f"What {name(who)} acquires with the bonus (which card, from which deck, where it goes) "
            "is not in the known pages, so the state leaves that player's card counts out.",
        )
        player = s.players.get(who)
        if player is not None:
            hands.unstate(player, "hand", "deck", "discard")
