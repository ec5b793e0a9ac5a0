"""Who moved into whom: the House stun and the Dark Arts bump (never a duel).

Both procedures start only when a pawn *ends* its move on a space holding an opposing
pawn (encounter.no-duel). Passing through is movement's question (open.pass-through).
"""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts import track
from rulesref.games.houses_vs_dark_arts.model import DARK_ARTS, HOUSE, RESERVE, Explore, Move, Pawn, Situation
from rulesref.ruling import Trail


def resolve(s: Situation, trail: Trail, ex: Explore, move: Move) -> None:
    """After a pawn's move: a stun or a bump if it ended on opposing pawns."""
    pawn = s.pawns[move.pawn]
    if not move.steps:
        return  # a pawn that did not move has moved into no one
    there = [p for p in s.at(pawn.at, but=pawn.id) if p.side != pawn.side]
    if not there:
        return
    names = ", ".join(p.id for p in there)
    house = pawn.side == HOUSE
    what = "stun" if house else "bump"
    # encounter.no-duel says which procedure by who moved in; whether a stunned pawn meets it
    # at all is open (open.pass-through, open.bump-stunned), so then the step claims no more
    so = f"the {what} procedure applies, if any" if all(p.stunned for p in there) else f"this is a {what}"
    trail.rule(
        "encounter.no-duel",
        f"{pawn.id} ({'House' if house else 'Dark Arts'}) ended its move on {pawn.at} with {names} "
        f"({'Dark Arts' if house else 'House'}): the {'House' if house else 'Dark Arts'} pawn moved in, "
        f"so {so}, not a duel.",
    )
    (stun if house else bump)(s, trail, ex, pawn, there)


# --- the stun ---------------------------------------------------------------------------


def stun(s: Situation, trail: Trail, ex: Explore, pawn: Pawn, there: list[Pawn]) -> None:
    """Both pawns are stunned; the House player moves the Dark Arts pawn next door."""
    if len(there) > 1:
        raise trail.undetermined(
            "open.stun-several",
            f"{pawn.id} ended on {pawn.at} with {len(there)} Dark Arts "
            "pawns; the stun is described for one Dark Arts pawn only.",
        )
    target = there[0]
    if target.stunned:
        # open.pass-through: ending on a Dark Arts pawn that is already stunned
        option = trail.reading("stun-stunned", f"{target.id} on {pawn.at} is already stunned.")
        if option == "no-encounter":
            return
    # encounter.stun: both pawns are laid on their sides
    trail.rule("encounter.stun", f"Both {pawn.id} and {target.id} are stunned (laid on their sides).")
    pawn.stunned = target.stunned = True
    s.told.append(f"{pawn.id} and {target.id} are stunned")
    relocate(s, trail, ex, target)


def relocate(s: Situation, trail: Trail, ex: Explore, target: Pawn) -> None:
    """The House player puts the stunned Dark Arts pawn on an adjacent space (encounter.stun-relocate)."""
    board, space = s.board, target.at
    chosen = ex.relocate.get(target.id)
    if chosen is None:
        # adjacent spaces that neither option of stun-placement closes: no wall, no Protected Area
        near = sorted(board.neighbours[space])
        open_ = [n for n in near if not board.wall(space, n) and n not in board.protected]
        if len(open_) > 1:
            raise s.doc.error(
                ("action", "explore"),
                f"the move stuns {target.id} on {space}: say where the House player "
                f"puts it, relocate: {{{target.id}: SPACE}}",
                hint=f"adjacent spaces: {', '.join(open_)}",
            )
        closed = [
            f"{n} (across a castle wall)" if board.wall(space, n) else f"{n} (a Protected Area)"
            for n in near
            if n not in open_
        ]
        if closed:
            # open.stun-placement: the board restrictions on the placement (reading stun-placement)
            trail.reading(
                "stun-placement",
                f"The placement obeys the board restrictions on a Dark Arts pawn, which close "
                f"{', '.join(closed)} to the stunned {target.id}.",
                clause="encounter.stun-relocate",
            )
        if not open_ or not _placement_ok(s, trail, target, space, open_[0]):
            _no_space(s, trail, target, space)
            return
        chosen = open_[0]
    elif not _placement_ok(s, trail, target, space, chosen):
        raise trail.refuse(f"the stunned {target.id} cannot be put on {chosen}")
    target.at = chosen
    trail.rule(
        "encounter.stun-relocate", f"The House player puts the stunned {target.id} on {chosen}, next to {space}."
    )
    s.told.append(f"{target.id} is put on {chosen}")


def _placement_ok(s: Situation, trail: Trail, target: Pawn, space: str, to: str) -> bool:
    """Whether the stunned pawn may go from ``space`` to ``to``; each refusal is cited."""
    board = s.board
    if not board.adjacent(space, to):
        # encounter.stun-relocate: an adjacent space, sharing a full border
        trail.rule(
            "encounter.stun-relocate", f"{to} is not adjacent to {space}: the stunned pawn goes to an adjacent space."
        )
        return False
    # open.stun-placement: "the board restrictions" the placement obeys are a reading (both
    # options bar walls and Protected Areas; they differ on obstacles and bonus spaces)
    barred = board.wall(space, to) or to in board.protected
    if barred:
        # encounter.stun-relocate: the placement respects the board restrictions
        trail.rule(
            "encounter.stun-relocate",
            f"The House player places the stunned {target.id} on an adjacent space, respecting the board "
            f"restrictions: {to} is checked against them.",
        )
    if board.wall(space, to):
        trail.reading(
            "stun-placement",
            f"A castle wall stands between {space} and {to}: the stunned pawn cannot be put across it.",
            clause="move.walls",
        )
        return False
    if to in board.protected:
        trail.reading(
            "stun-placement",
            f"{to} is a Protected Area, which a Dark Arts pawn may not enter: the stunned pawn cannot be put there.",
            clause="board.protected-areas",
        )
        return False
    kind = board.obstacle(space, to)
    if kind is not None or to in board.bonus:
        what = f"The House player would put {target.id} " + (
            f"across the {kind} obstacle" if kind else f"onto the bonus space {to}"
        )
        lenient = (
            "a Dark Arts pawn ignores obstacles, so that does not bar it"
            if kind
            else "the printed rules put no restriction on bonus spaces"
        )
        option = trail.reading(
            "stun-placement",
            {"strict": f"{what}: under the strict reading that bars it.", "dark-arts-step": f"{what}: {lenient}."},
        )
        if option == "strict":
            return False
    others = [p.id for p in s.at(to, but=target.id)]
    if others:
        # open.stun-placement: may it be put on an occupied space?
        option = trail.reading("stun-onto-pawn", f"{to} holds {', '.join(others)}.")
        if option == "empty-only":
            return False
    # open.great-hall: may Dark Arts pawns be in the Great Hall?
    return not (
        to == board.great_hall
        and to not in board.protected
        and trail.reading("great-hall-dark-arts", f"{to} is the Great Hall.") == "protected"
    )


def _no_space(s: Situation, trail: Trail, target: Pawn, space: str) -> None:
    # open.stun-no-space: no adjacent space can take the stunned pawn
    option = trail.reading("stun-no-space", f"No adjacent space of {space} can take the stunned {target.id}.")
    if option == "reserve":
        # whether leaving the board revives it is said by no page and by neither option
        target.at = RESERVE
        target.unstated = target.unstated | {"stunned"}
    s.told.append(f"{target.id} {'goes to the reserve' if option == 'reserve' else 'stays on ' + space}")


# --- the bump ---------------------------------------------------------------------------


def bump(s: Situation, trail: Trail, ex: Explore, pawn: Pawn, there: list[Pawn]) -> None:
    """Great Hall, reserve, House Marker, then the acquisition (once a turn)."""
    victim = _victim(s, trail, ex, pawn, there)
    # open.bump-stunned: is a stunned House pawn bumped?
    stunned = {
        "bump": f"{victim.id} is stunned, and is bumped like any other House pawn.",
        "no-bump": f"{victim.id} is stunned, so nothing happens and the two pawns share the space.",
    }
    if victim.stunned and trail.reading("bump-stunned", stunned) == "no-bump":
        return
    space = pawn.at
    trail.rule("bump.bump", f"{pawn.id} bumps {victim.id} on {space}.")
    # bump.great-hall: the bumped pawn goes to the Great Hall
    victim.at = s.board.great_hall
    trail.rule("bump.great-hall", f"{victim.id} goes to the Great Hall ({victim.at}).")
    # open.great-hall: stunned or not on arrival (no default: the bump stands, the pawn's state is not stated)
    arrives = trail.reading_or_open(
        "great-hall-stunned",
        {
            "unchanged": f"{victim.id} arrives in the Great Hall as it was: the bump does not stun it.",
            "stunned": f"{victim.id} arrives in the Great Hall stunned.",
        },
        clause="open.great-hall",
        about=f"Whether {victim.id} arrives in the Great Hall stunned",
    )
    if arrives is None:
        victim.unstated = victim.unstated | {"stunned"}
    elif arrives == "stunned":
        victim.stunned = True
    # bump.reserve: the attacker leaves the board
    pawn.at, pawn.stunned = RESERVE, False
    trail.rule("bump.reserve", f"{pawn.id} returns to the Dark Arts reserve.")
    s.told.append(f"{pawn.id} bumps {victim.id} to the Great Hall and returns to the reserve")
    s.acquisition_to_come = not _acquired(s)
    _marker(s, trail, victim)
    s.acquisition_to_come = False
    _acquire(s, trail)


def _victim(s: Situation, trail: Trail, ex: Explore, pawn: Pawn, there: list[Pawn]) -> Pawn:
    ids = [p.id for p in there]
    if ex.bump is not None and ex.bump not in ids:
        raise s.doc.error(
            ("action", "explore", "bump"),
            f"{ex.bump} is not on {pawn.at}, where {pawn.id} ends",
            hint=f"House pawns there: {', '.join(ids)}",
        )
    if len(there) == 1:
        return there[0]
    if ex.bump is None:
        raise s.doc.error(
            ("action", "explore"),
            f"{pawn.id} ends on {pawn.at} with {', '.join(ids)}: say which one the Dark Arts player bumps, bump: PAWN",
        )
    # bump.bump: with several House pawns there, one is chosen
    trail.rule("bump.bump", f"{', '.join(ids)} share {pawn.at}; the Dark Arts player picks {ex.bump} to bump.")
    return s.pawns[ex.bump]


def _marker(s: Situation, trail: Trail, victim: Pawn) -> None:
    house = victim.house or "?"
    da = s.players.get(DARK_ARTS)
    if da is not None and house in da.markers:
        # bump.marker: a Marker already held is not taken again
        trail.rule("bump.marker", f"The Dark Arts already holds the {house} Marker: nothing is taken.")
        return
    trail.rule("bump.marker", f"The Dark Arts takes the {house} Marker.")
    s.told.append(f"the Dark Arts takes the {house} Marker")
    s.facts["marker-taken"] = house
    if da is not None:
        da.markers.append(house)
        track.complete_marker_set(s, trail)


def _acquired(s: Situation) -> bool:
    return (s.turn is not None and s.turn.acquired) or s.facts.get("acquired") is True


def _acquire(s: Situation, trail: Trail) -> None:
    if _acquired(s):
        # bump.acquire-once: one acquisition a turn, however many bumps
        trail.rule("bump.acquire-once", "The bump acquisition has already been made this turn: no second one.")
        s.facts.setdefault("acquired", False)
        return
    # bump.acquire: the last step of the bump
    trail.rule(
        "bump.acquire",
        "Last step of the bump: the Dark Arts looks at the top 2 Acquire cards, puts one on "
        "top of its draw deck and the other under the Acquire deck.",
    )
    s.facts["acquired"] = True
    s.told.append("the Dark Arts makes the bump acquisition")
    if s.turn is not None:
        s.turn.acquired = True
    da = s.players.get(DARK_ARTS)
    if da is not None:
        da.deck += 1
