"""Explore's movement: the card's allowance, split cards, and each step of a pawn's path.

The Explore is ruled in a fixed order: who explores, the card is played, the card's points
are shared out (move.split), then each move in turn: may the pawn move at all (stunned?),
its steps one by one, then what its end space brings (encounters, then bonus); last, the
played card is discarded. The first rule broken stops the ruling; an illegal Explore
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulesref.games.houses_vs_dark_arts import bonus, encounters, hands, track, turns
from rulesref.games.houses_vs_dark_arts.model import (
    DARK_ARTS,
    HOUSE,
    RESERVE,
    Card,
    Explore,
    Move,
    PathStep,
    Pawn,
    Situation,
    Via,
)
from rulesref.ruling import Outcome, Trail, Verdict


@dataclass
class Run:
    """What this Explore has done so far: the facts later steps depend on."""

    explore: Explore
    side: str | None
    """The side whose pawns move (None: no pawn moves and no turn given)."""
    visited: dict[str, list[str]] = field(default_factory=dict)
    """Each House pawn's spaces this turn, start first (move.no-backtrack)."""
    crossings: int = 0
    """Obstacles crossed with the card's effect so far (open.obstacle-cards)."""
    effect_checked: bool = False
    """The effect's colour has been checked against the Path."""

    @property
    def card(self) -> Card:
        assert self.explore.card is not None
        return self.explore.card


def explore(s: Situation, trail: Trail, ex: Explore) -> Outcome:
    """Rule on an Explore: the card's movement for one or two pawns, and what the moves bring."""
    run = Run(ex, _side(s, ex))
    turns.may_explore(s, trail, ex)
    if ex.earlier and s.turn is not None and s.turn.played < ex.earlier:
        s.turn.played = ex.earlier  # the earlier cards of this Explore were played this turn
    who = s.turn.who if s.turn is not None else (DARK_ARTS if run.side == DARK_ARTS else _house_of(s, ex))
    if ex.card is not None and who is not None:
        hands.play_card(s, trail, who)
    share_out(s, trail, run)
    for i, move in enumerate(ex.moves):
        walk(s, trail, run, move)
        encounters.resolve(s, trail, run.explore, move)
        bonus.resolve(s, trail, move, first_of_two=len(ex.moves) == 2 and i == 0)
    if not ex.moves:
        trail.rule("move.fewer-points", "No pawn moves: a card's movement is an allowance, not an obligation.")
        s.told.append("no pawn moves")
        if ex.card is not None:
            # a card played with no move is played for its effect, which must be unlocked
            _effect_usable(s, trail, run, "played for its effect alone")
    if ex.card is not None and who is not None and (who in s.players or s.turn is not None):
        hands.cleanup(s, trail, who, s.turn.played if s.turn is not None and s.turn.played else 1)
    return Outcome(Verdict.LEGAL, "; ".join(s.told) + ".", s.to_state())


def _side(s: Situation, ex: Explore) -> str | None:
    """The exploring side: the turn's, else that of the first pawn moved."""
    if s.turn is not None:
        return s.turn.side
    return s.pawns[ex.moves[0].pawn].side if ex.moves else None


def _house_of(s: Situation, ex: Explore) -> str | None:
    return s.pawns[ex.moves[0].pawn].house if ex.moves else None


# --- the card's points ------------------------------------------------------------------


def share_out(s: Situation, trail: Trail, run: Run) -> None:
    """Check the moves fit the card: one pawn up to the total, or a split card's two parts."""
    moves = run.explore.moves
    if not moves:
        return
    card = run.card
    costs = [m.cost for m in moves]
    if len(card.parts) == 1:
        if len(moves) > 1:
            # the pages give sharing between pawns for a split card only (open.plain-card-pawns)
            trail.reading(
                "plain-card-pawns",
                {
                    "one-pawn": f"Only a split card (such as 3 + 3) shares its movement; a {card.text()} moves "
                    "one pawn.",
                    "shared": f"A {card.text()} card may share its movement between two different pawns, "
                    f"up to {card.total} in all.",
                },
                clause="open.plain-card-pawns",
                refuse={"one-pawn": f"a {card.text()} card moves one pawn, not {len(moves)} moves"},
            )
            shared = len(moves) == 2 and moves[0].pawn != moves[1].pawn and sum(costs) <= card.total
            if not shared:  # beyond what even the sharing reading allows
                raise trail.refuse(f"a {card.text()} card cannot be shared as {' and '.join(map(str, costs))}")
            return
        _within(trail, moves[0], card.total, f"the {card.text()} card")
        return
    if len(moves) == 1:
        # move.split: one pawn may take the whole of a split card
        trail.rule("move.split", f"With a {card.text()} card one pawn may move up to {card.total} spaces.")
        _within(trail, moves[0], card.total, f"the {card.text()} card")
        return
    if len(moves) > 2:
        raise trail.illegal(
            "move.split",
            f"A {card.text()} card moves one pawn, or two different pawns; not {len(moves)}.",
            f"a {card.text()} card cannot be shared among {len(moves)} moves",
        )
    a, b = card.parts
    if moves[0].pawn == moves[1].pawn:
        trail.rule("move.split", f"A {card.text()} card moves one pawn up to {card.total}, or two different pawns.")
        # open.split-cards: may one pawn take the two parts as two moves?
        trail.reading(
            "split-one-pawn",
            f"{moves[0].pawn} is moved twice with one {card.text()} card ({costs[0]}, then {costs[1]}).",
            clause="open.split-cards",  # the step names the open question it settles
            refuse={
                "single-move": f"{moves[0].pawn} cannot move {costs[0]}, stop and move {costs[1]} with a "
                f"{card.text()} card: one pawn makes one move of up to {card.total}"
            },
        )
    else:
        trail.rule("move.split", f"A {card.text()} card may move two different pawns, up to {a} and {b} spaces.")
    if not ((costs[0] <= a and costs[1] <= b) or (costs[0] <= b and costs[1] <= a)):
        raise trail.illegal(
            "move.split",
            f"Moving {costs[0]} and {costs[1]} is not a division of {card.text()}: each pawn "
            f"gets at most its own part.",
            f"a {card.text()} card cannot be split {costs[0]} and {costs[1]}",
        )
    if costs[0] + costs[1] < card.total:
        trail.rule(
            "move.fewer-points",
            f"The moves use {costs[0]} and {costs[1]} of {card.text()}; using fewer points than a part allows is fine.",
        )


def _within(trail: Trail, move: Move, allowance: int, what: str) -> None:
    if move.cost > allowance:
        for step in move.steps:
            if step.via is Via.PASSAGE:
                # move.passage-cost: a passage is paid for like a step
                trail.rule("move.passage-cost", f"The Secret Passageway to {step.to} counts 1 movement point.")
        raise trail.illegal(
            "move.fewer-points",
            f"{move.pawn}'s path costs {move.cost} points but {what} gives at most "
            f"{allowance}: the card's number is a maximum.",
            f"{move.pawn} cannot move {move.cost} with {what} (at most {allowance})",
        )
    # move.fewer-points: the card's number is an upper limit
    fewer = "; using fewer is allowed" if move.cost < allowance else ""
    trail.rule("move.fewer-points", f"{move.pawn} uses {move.cost} of the {allowance} points{fewer}.")


# --- one pawn's path ----------------------------------------------------------------------


def walk(s: Situation, trail: Trail, run: Run, move: Move) -> None:
    """Check and make one pawn's move, step by step."""
    pawn = s.pawns[move.pawn]
    steps = move.steps
    # move.stunned: a stunned pawn is not moved by movement or by effects
    if pawn.stunned:
        raise trail.illegal(
            "move.stunned",
            f"{pawn.id} is stunned, so neither the card's movement nor its effects can move it until it is revived.",
            f"{pawn.id} is stunned and cannot move",
        )
    # Whether this pawn may be moved at all is asked once the move is ruled (turns.ask_turn_questions):
    # a path a rule forbids is illegal whoever may move the pawn, and however a reserve pawn enters.
    if pawn.side != run.side:
        s.turn_questions.append(
            lambda: _open(
                trail,
                "open.move-other-side",
                f"{pawn.id} is not a pawn of the exploring side; whether a card may move the other side's pawns "
                "is not settled by the known pages.",
            )
        )
    elif s.turn is not None and s.turn.side == HOUSE and pawn.house != s.turn.house:
        house, turn_house = pawn.house, s.turn.house
        s.turn_questions.append(
            lambda: _open(
                trail,
                "open.move-other-house",
                f"It is {turn_house}'s turn and {pawn.id} is a {house} "
                "pawn; whether a House player may move another house's pawn is not settled.",
            )
        )
    if pawn.at == RESERVE:
        # open.reserve-deployment: how a reserve pawn comes onto the board is a reading
        if not steps:
            _deployed(s, trail, pawn.id, enters=False)
        s.turn_questions.append(lambda: _deployed(s, trail, pawn.id))
        _enter(s, trail, pawn, steps[0].to, "placed")
        pawn.at, steps = steps[0].to, steps[1:]
    seen = run.visited.setdefault(pawn.id, [pawn.at])
    here = pawn.at
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if step.via is Via.WALK:
            _step(s, trail, run, pawn, here, step, last=last)
        elif step.via is Via.FLY:
            _fly(s, trail, run, pawn, here, step, first=i == 0, last=last)
        else:
            _passage(s, trail, run, pawn, here, step)
        _backtrack(s, trail, run, pawn, seen, step)
        if not last:
            _pass_through(s, trail, pawn, step.to)
        seen.append(step.to)
        here = step.to
    if steps:
        _share(s, trail, pawn, here)
    pawn.at = here
    s.told.append(f"{pawn.id} moves {move.route()} ({move.cost} point{'s' if move.cost != 1 else ''})")


def _open(trail: Trail, clause: str, says: str) -> None:
    """An open question on whether the pawn may be moved: ends the ruling undetermined."""
    raise trail.undetermined(clause, says)


def _deployed(s: Situation, trail: Trail, pawn: str, *, enters: bool = True) -> None:
    """A reserve pawn in this Explore: refused unless it ``enters`` the board and reserve-deployment=by-explore."""
    if turns.deploy(s, trail, pawn) != "by-explore" or not enters:
        raise trail.refuse(f"{pawn} is in the reserve and does not enter the board by this Explore")


def _step(s: Situation, trail: Trail, run: Run, pawn: Pawn, here: str, step: PathStep, *, last: bool = True) -> None:
    """An ordinary step: full border, no wall, obstacles by side, Protected Areas."""
    board, to = s.board, step.to
    if not board.adjacent(here, to):
        if board.corner(here, to):
            # board.corners: a corner contact is not a border
            raise trail.illegal(
                "board.corners",
                f"{here} and {to} touch only at a corner, so {pawn.id} cannot step between them.",
                f"{pawn.id} cannot step diagonally from {here} to {to}",
            )
        # board.adjacency: a step crosses a full shared border
        raise trail.illegal(
            "board.adjacency",
            f"{here} and {to} do not share a border, so {to} is not one step from {here}.",
            f"{to} is not adjacent to {here}",
        )
    if board.wall(here, to):
        if pawn.side == DARK_ARTS or "obstacle" in run.card.allows:
            # board.wall-not-obstacle: what passes obstacles does not pass walls
            who = "the Dark Arts exemption" if pawn.side == DARK_ARTS else "the card's obstacle effect"
            trail.rule("board.wall-not-obstacle", f"A castle wall is not an obstacle, so {who} does not help.")
        # move.walls: a castle wall is never a route, for any pawn
        raise trail.illegal(
            "move.walls",
            f"A castle wall stands between {here} and {to}: no pawn may cross it.",
            f"{pawn.id} cannot cross the wall between {here} and {to}",
        )
    kind = board.obstacle(here, to)
    if kind is not None:
        _obstacle(s, trail, run, pawn, here, to, kind)
    _enter(s, trail, pawn, to, "step", passing=not last)


def _obstacle(s: Situation, trail: Trail, run: Run, pawn: Pawn, here: str, to: str, kind: str) -> None:
    if pawn.side == DARK_ARTS:
        # move.obstacles-dark-arts: all four types are ignored, no card needed
        trail.rule(
            "move.obstacles-dark-arts",
            f"{pawn.id} is a Dark Arts pawn: it ignores the {kind} obstacle between {here} and {to}.",
        )
        return
    card = run.card
    if "obstacle" not in card.allows:
        # move.obstacles-house: only an applicable card effect gets a House pawn across
        raise trail.illegal(
            "move.obstacles-house",
            f"A {kind} obstacle stands between {here} and {to}, and the card has no effect that crosses obstacles.",
            f"{pawn.id} cannot cross the {kind} obstacle between {here} and {to} without a card effect",
        )
    if card.obstacle_types and kind not in card.obstacle_types:
        raise trail.illegal(
            "move.obstacles-house",
            f"The card's effect crosses {', '.join(sorted(card.obstacle_types))}, "
            f"which does not apply to the {kind} obstacle between {here} and {to}.",
            f"the card's effect does not apply to the {kind} obstacle between {here} and {to}",
        )
    if not card.obstacle_types:
        # open.obstacle-cards: must the effect name the obstacle's type?
        trail.reading(
            "obstacle-type",
            f"The card's effect crosses obstacles without naming a type; the "
            f"obstacle between {here} and {to} is a {kind}.",
            refuse={"named-type": f"the card's effect names no obstacle type, so it does not cover the {kind}"},
        )
    run.crossings += 1
    if run.crossings > 1:
        # open.obstacle-cards: one crossing per effect, or every crossing?
        trail.reading(
            "obstacle-crossings",
            f"This is obstacle crossing number {run.crossings} with the same card effect.",
            refuse={"one-crossing": f"one card effect covers one obstacle crossing; this is crossing {run.crossings}"},
        )
    _effect_usable(s, trail, run, "crossing obstacles")
    trail.rule(
        "move.obstacles-house", f"The card's effect lets {pawn.id} cross the {kind} obstacle between {here} and {to}."
    )


def _effect_usable(s: Situation, trail: Trail, run: Run, use: str) -> None:
    """The effect that gives an allowance must be unlocked (action.effect-colours)."""
    colour = run.card.effect
    if colour is None or run.effect_checked:
        return
    run.effect_checked = True
    if colour != "white" and s.path is None:
        raise s.doc.error(
            ("action", "explore", "card", "effect"),
            f"the card's {colour} effect is used ({use})",
            hint="give path: {marker: N, orange: N, red: N} to tell whether it is unlocked",
        )
    if not track.unlocked(s, trail, colour, run.side):
        raise trail.refuse(f"the card's {colour} effect ({use}) is not unlocked yet")


def _enter(s: Situation, trail: Trail, pawn: Pawn, to: str, how: str, *, passing: bool = False) -> None:
    """Where a Dark Arts pawn may not go: Protected Areas, and perhaps the Great Hall.

    ``passing``: the pawn would only go through ``to``, so the summary says so.
    """
    if pawn.side != DARK_ARTS:
        return
    board = s.board
    if to in board.protected:
        if how == "fly":
            # open.fly-off: may a Dark Arts transfer land in a Protected Area?
            option = trail.reading("fly-off-protected", f"{pawn.id} would transfer into the Protected Area {to}.")
            if option == "allowed":
                return
        else:
            # board.protected-areas: not to stop there, not to cross it
            trail.rule(
                "board.protected-areas",
                f"{to} is a Protected Area: a Dark Arts pawn may neither enter nor pass through it.",
            )
        raise trail.refuse(f"{pawn.id} cannot {'pass through' if passing else 'enter'} the Protected Area {to}")
    if to == board.great_hall:
        # open.great-hall: is the Great Hall closed to the Dark Arts?
        trail.reading(
            "great-hall-dark-arts",
            f"{pawn.id} would enter the Great Hall ({to}), which the board does not mark as a Protected Area.",
            refuse={"protected": f"{pawn.id} cannot enter the Great Hall (reading great-hall-dark-arts=protected)"},
        )


def _fly(
    s: Situation, trail: Trail, run: Run, pawn: Pawn, here: str, step: PathStep, *, first: bool, last: bool
) -> None:
    """A Fly Off transfer: the card must allow it, it leaves from a Fly Off Point, and it costs nothing.

    Where it may land is open (reading ``fly-off-destination``, no default), asked only
    when the destination is not a Fly Off Point.
    """
    board, to = s.board, step.to
    if "fly-off" not in run.card.allows:
        # board.fly-off-points: no transfer without a card that allows it
        raise trail.illegal(
            "board.fly-off-points",
            "The card played does not allow a Fly Off Point transfer.",
            f"{pawn.id} cannot fly off without a card that allows it",
        )
    if here not in board.fly_off:
        # board.fly-off-points: the page does not say where a transfer starts; the shared
        # list's open 14 presumes the pawn stands on a Fly Off Point, which the clause takes as given
        raise trail.illegal(
            "board.fly-off-points",
            f"{here} is not a Fly Off Point; a transfer is taken to start on one (the shared sources list's "
            "open question 14 presumes the pawn stands on a Fly Off Point).",
            f"{pawn.id} cannot make a Fly Off transfer from {here}, which is not a Fly Off Point",
        )
    if to not in board.fly_off:
        # open.fly-off-destination: the pages name no destination (a transfer to another
        # Fly Off Point needs no reading: both options allow it)
        landing = f"{pawn.id} would land on {to}, which is not a Fly Off Point: "
        trail.reading(
            "fly-off-destination",
            {
                "fly-off-point": landing + "a transfer goes to another Fly Off Point, so it cannot land there.",
                "any-space": landing + "a transfer may land on a space that is not a Fly Off Point.",
            },
            clause="open.fly-off-destination",
            refuse={
                "fly-off-point": f"{pawn.id} cannot transfer to {to}, which is not a Fly Off Point "
                "(reading fly-off-destination=fly-off-point)"
            },
        )
    if pawn.side == HOUSE:
        # open.fly-off: may House pawns use Fly Off Points at all?
        trail.reading(
            "fly-off-sides",
            f"{pawn.id} is a House pawn using a Fly Off Point.",
            refuse={"dark-arts-only": f"{pawn.id} is a House pawn; Fly Off Points are for the Dark Arts (reading)"},
        )
    if not first:
        # open.fly-off: must the transfer begin the move?
        trail.reading(
            "fly-off-start",
            f"{pawn.id} reaches the Fly Off Point {here} during its move and then transfers.",
            refuse={"start-only": f"{pawn.id} must start its move on the Fly Off Point to transfer"},
        )
    if not last:
        # open.fly-off: may the pawn go on moving after the transfer?
        trail.reading(
            "fly-off-continue",
            f"{pawn.id} keeps moving after the transfer to {to}.",
            refuse={"ends-move": f"{pawn.id}'s move ends with the transfer to {to}"},
        )
    _effect_usable(s, trail, run, "Fly Off")
    _enter(s, trail, pawn, to, "fly")
    # move.fly-off-cost: the transfer is free
    trail.rule("move.fly-off-cost", f"{pawn.id} transfers from {here} to {to} for 0 movement points.")


def _passage(s: Situation, trail: Trail, run: Run, pawn: Pawn, here: str, step: PathStep) -> None:
    """A Secret Passageway: House only, card required, 1 point, paired entrances."""
    to = step.to
    if pawn.side == DARK_ARTS:
        # move.passage-house-only: no card opens a passage to the Dark Arts
        raise trail.illegal(
            "move.passage-house-only",
            f"{pawn.id} is a Dark Arts pawn: Secret Passageways are for House pawns only.",
            f"{pawn.id} cannot use a Secret Passageway",
        )
    if "passage" not in run.card.allows:
        # move.passage-cost: the card in use must permit the passage
        raise trail.illegal(
            "move.passage-cost",
            "The card played does not allow using a Secret Passageway.",
            f"{pawn.id} cannot use a Secret Passageway without a card that allows it",
        )
    pair = s.board.passages.get(here)
    if pair is None or pair[1] != to:
        # board.secret-passageways: a passage links the two entrances of one colour
        where = f"{here}'s passage ({pair[0]}) leads to {pair[1]}" if pair else f"{here} is not a passage entrance"
        raise trail.illegal(
            "board.secret-passageways",
            f"{where}; a passage links two entrances with the same coloured symbol.",
            f"no Secret Passageway leads from {here} to {to}",
        )
    _effect_usable(s, trail, run, "Secret Passageway")
    # move.passage-cost: 1 movement point
    trail.rule("move.passage-cost", f"{pawn.id} takes the {pair[0]} passage from {here} to {to} for 1 movement point.")


def _backtrack(s: Situation, trail: Trail, run: Run, pawn: Pawn, seen: list[str], step: PathStep) -> None:
    """House pawns may not backtrack this turn (move.no-backtrack); its meaning is a reading."""
    if pawn.side != HOUSE:
        return
    to = step.to
    if to in seen:
        if step.via is not Via.WALK:
            # open.passage-backtrack: does a transfer count for backtracking?
            option = trail.reading(
                "transfer-backtrack",
                f"{pawn.id}'s {step.via.value} transfer returns it to {to}, where it has already been this turn.",
            )
            if option == "exempt":
                return
        if len(seen) >= 2 and seen[-2] == to:
            says = (
                f"{pawn.id} would go straight back from {seen[-1]} to {to}: a House "
                "pawn may not backtrack in the same turn."
            )
            refusal = f"{pawn.id} cannot backtrack from {seen[-1]} to {to}"
            if step.via is not Via.WALK:
                # the transfer is a step back only by the reading just recorded: the refusal rests on it too
                trail.reading("transfer-backtrack", says)
                raise trail.refuse(refusal)
            # move.no-backtrack: straight back to the space just left is backtracking on any reading
            raise trail.illegal("move.no-backtrack", says, refusal)
        trail.rule("move.no-backtrack", f"{pawn.id} is a House pawn: it may not backtrack in the same turn.")
        again = f"{pawn.id} would re-enter {to}, which it already visited this turn (not the space it just left)"
        trail.reading(
            "backtrack",
            {
                "no-revisit": f"{again}: re-entering a space visited this turn is backtracking.",
                "no-reverse": f"{again}: only a step straight back is backtracking, so it may.",
            },
            clause="open.backtrack-meaning",  # the step names the open question it settles
            refuse={
                "no-revisit": f"{pawn.id} cannot re-enter {to}: that is backtracking (reading backtrack=no-revisit)"
            },
        )
        return
    others = [p for p, spaces in run.visited.items() if p != pawn.id and s.pawns[p].side == HOUSE and to in spaces[1:]]
    if others and trail.choice("backtrack") == "no-revisit":
        # open.backtrack-meaning: does the ban reach across the pawns of one split card?
        trail.reading(
            "backtrack-split",
            f"{pawn.id} enters {to}, which {others[0]} entered earlier with the same card.",
            refuse={
                "shared": f"{pawn.id} cannot enter {to}, already entered by {others[0]} "
                "(reading backtrack-split=shared)"
            },
        )


def _pass_through(s: Situation, trail: Trail, pawn: Pawn, space: str) -> None:
    """Moving on through a space that holds other pawns (open.pass-through)."""
    there = s.at(space, but=pawn.id)
    if not there:
        return
    opposing = [p for p in there if p.side != pawn.side]
    names = ", ".join(p.id for p in there)
    option = trail.reading(
        "pass-through", f"{pawn.id} moves on through {space}, which holds {names}.", clause="open.pass-through"
    )
    if option == "blocked" or (option == "opponents-block" and opposing):
        raise trail.refuse(f"{pawn.id} cannot move through {space} ({names} there; reading pass-through={option})")


def _share(s: Situation, trail: Trail, pawn: Pawn, space: str) -> None:
    """Ending on a space that holds a pawn of the same side (open.pass-through)."""
    friends = [p.id for p in s.at(space, but=pawn.id) if p.side == pawn.side]
    if not friends:
        return
    if pawn.side == DARK_ARTS and "share-space" not in trail.choices:
        # the default stands on the bump's several House pawns on one space; nothing says it of Dark Arts pawns
        raise trail.undetermined(
            "open.pass-through",
            f"{pawn.id} ends its move on {space} with {', '.join(friends)} of its own side. Whether Dark Arts "
            "pawns may share a space is not settled (choose with --reading share-space=OPTION).",
        )
    trail.reading(
        "share-space",
        f"{pawn.id} ends its move on {space} with {', '.join(friends)} of its own side.",
        clause="open.pass-through",  # no clause says it: the bump only names several House pawns on one space
        refuse={
            "forbidden": f"{pawn.id} cannot end its move on {space} with {', '.join(friends)} "
            "(reading share-space=forbidden)"
        },
    )
