"""Turns: which actions a side may take, Learn, reserve pawns and extra turns.

A check that finds the action forbidden raises through the Trail (``raise
trail.illegal(...)``, or ``trail.refuse`` after a reading's step), and the ruling ends
``illegal`` with the situation unchanged; an open question the readings do not settle
ends it ``undetermined``. ``who`` is a key of ``players`` (a house, or ``dark-arts``).
A scenario may omit ``players``, ``path`` or ``turn``: then the step is still cited, but
nothing is counted.
"""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts.model import DARK_ARTS, Explore, Learn, Situation, Turn, cap_name, name
from rulesref.ruling import Outcome, Trail, Undetermined, Verdict


def _turn(s: Situation) -> Turn:
    assert s.turn is not None, "the reader demands turn: for this action"
    return s.turn


# --- which actions a side may take ------------------------------------------------------


def may_act(s: Situation, trail: Trail, action: str) -> None:
    """Checks every action shares: an extra turn's scope, and a second action this turn.

    What an extra turn from an another-turn bonus holds is open (open 18): an Explore is
    allowed in it on either option of ``extra-turn-actions``, so only another action asks
    that reading (no default), once the action itself is ruled. Chaining is ``another_turn``.

    Whether a player may take more than one action a turn is open (open.turn-order). For the
    Dark Arts the sources suggest one (reading ``dark-arts-actions``, default ``one-action``);
    for a House player nothing is suggested (reading ``house-actions``, no default). That
    reading is asked once the action itself is ruled (``ask_turn_questions``): an action a
    rule forbids is illegal on either option, so the reading decides only an action that is
    otherwise legal.
    """
    turn = s.turn
    if turn is None:
        return
    if turn.extra:
        _extra_turn(trail, turn)
        if action != "Explore":
            s.turn_questions.append(lambda: _extra_turn_action(s, trail, action))
    if turn.actions_taken > 0:
        s.turn_questions.append(lambda: _second_action(s, trail, action))


def _extra_turn(trail: Trail, turn: Turn) -> None:
    """The extra turn the situation gives: a House pawn's bonus, or a Dark Arts pawn's only by reading."""
    given = "The situation gives this as the extra turn an another-turn bonus gave "
    if turn.side != DARK_ARTS:
        trail.rule("bonus.icon", given + f"{name(turn.who)}.")
        return
    # bonus.icon is printed for a House pawn's bonus: a Dark Arts extra turn exists only by the reading
    trail.reading(
        "bonus-dark-arts",
        {
            "takes-bonus": given + "the Dark Arts, whose pawns take bonuses as House pawns do.",
            "no-bonus": given + "the Dark Arts, but a Dark Arts pawn takes no bonus, so there is no such turn.",
        },
        clause="open.bonus-dark-arts",
        refuse={"no-bonus": "a Dark Arts pawn takes no bonus, so the Dark Arts has no extra turn from one"},
    )


def _extra_turn_action(s: Situation, trail: Trail, action: str) -> None:
    """An action other than Explore in an extra turn: the reading extra-turn-actions (Illegal if refused)."""
    who = cap_name(_turn(s).who)
    trail.reading(
        "extra-turn-actions",
        {
            "any-action": f"{who} takes a {action} in the extra turn: the extra turn is a full turn, with any action.",
            "explore-only": f"{who} takes a {action} in the extra turn, which is one more Explore only.",
        },
        clause="open.another-turn",
        refuse={
            "explore-only": f"the extra turn is one more Explore, not a {action} "
            "(reading extra-turn-actions=explore-only)"
        },
    )


def _second_action(s: Situation, trail: Trail, action: str) -> None:
    """A second action this turn: the reading dark-arts-actions or house-actions (Illegal if refused)."""
    turn = _turn(s)
    if turn.side == DARK_ARTS:
        # action.dark-arts-choice: each turn the Dark Arts chooses Explore or Replenish
        reading = "dark-arts-actions"
        words = {
            "one-action": "one action a turn, as the explainer page suggests for the Dark Arts, so no second action.",
            "several-actions": "the Dark Arts may take a further action in the same turn.",
        }
    else:
        reading = "house-actions"
        words = {
            "one-action": "a House player takes one action a turn.",
            "several-actions": "a House player may take further actions.",
        }
    trail.choice(reading)  # unchosen with no default: undetermined, before any step is recorded
    if turn.side == DARK_ARTS:
        trail.rule("action.dark-arts-choice", "Each turn the Dark Arts chooses between Explore and Replenish.")
    who = cap_name(turn.who)
    said = {o: f"{who} has already taken an action this turn: {w}" for o, w in words.items()}
    one = f"{who} has already taken this turn's one action; {action} is not allowed (reading {reading}=one-action)."
    trail.reading(reading, said, clause="open.turn-order", refuse={"one-action": one})


def ask_turn_questions(s: Situation, trail: Trail, *, settled_only: bool = False) -> None:
    """Ask the readings on whether the turn allows the action, now that the action itself is ruled.

    ``settled_only``: the action's ruling ended on an open question; a reading in force that
    refuses the action still makes it illegal, and an unchosen one is recorded as a further
    open step (the action is undetermined either way).
    """
    for question in s.turn_questions:
        try:
            question()
        except Undetermined as unchosen:
            if not settled_only:
                raise
            trail.open(unchosen.clause, unchosen.says)
    s.turn_questions.clear()


def may_explore(s: Situation, trail: Trail, ex: Explore) -> None:
    """Called at the start of an Explore: Illegal when it may not go on.

    The Dark Arts Explore is a rule (action.dark-arts-explore); whether it may play a further
    card (``explore.earlier-cards``) is the reading ``dark-arts-explore-cards`` (no default:
    "a card" does not say "only one"). A House Explore is an open question
    (open.house-explore): the reading ``house-explore`` (default ``as-dark-arts``) says how it
    is taken, and ``house-explore-cards`` (no default: no page describes the House Explore) whether a
    further card may be played. The further-card readings are asked once the move is ruled
    (``ask_turn_questions``): a move a rule forbids is illegal on either option. A scenario
    without ``turn:`` is not checked.
    """
    may_act(s, trail, "Explore")
    earlier = ex.earlier
    if s.turn is None:
        if earlier:
            raise s.doc.error(("action", "explore", "earlier-cards"), "a further card needs turn: to know who Explores")
        return
    if s.turn.side == DARK_ARTS:
        # action.dark-arts-choice / action.dark-arts-explore: Explore is one of its two actions
        trail.rule(
            "action.dark-arts-explore",
            "The Dark Arts Explores: it plays a card and resolves its movement, an unlocked effect of it, or both.",
        )
        if earlier:
            s.turn_questions.append(lambda: _further_card(s, trail, earlier))
        return
    who = cap_name(s.turn.who)
    effect_alone = f"{who} may not play a card for its effect alone in a House Explore (reading house-explore="
    trail.reading(
        "house-explore",
        {
            "as-dark-arts": f"{who} Explores: a card is played for its movement, an unlocked effect, or both, "
            "as in the Dark Arts Explore.",
            "movement-required": f"{who} Explores: the card played must move a pawn; it is not played for its "
            "effect alone.",
        },
        clause="open.house-explore",
        refuse={"movement-required": effect_alone + "movement-required)."}
        if ex.card is not None and not ex.moves
        else None,
    )
    if earlier:
        s.turn_questions.append(lambda: _further_card(s, trail, earlier))


def _further_card(s: Situation, trail: Trail, earlier: int) -> None:
    """A further card in the same Explore: dark-arts-explore-cards or house-explore-cards (Illegal if refused)."""
    # the page prints "a card" for either side's Explore: a further one rests on a reading
    # (open.dark-arts-explore-cards, open.house-explore; the House one has no default)
    turn = _turn(s)
    who = cap_name(turn.who)
    side, reading, clause = (
        ("its", "dark-arts-explore-cards", "open.dark-arts-explore-cards")
        if turn.side == DARK_ARTS
        else ("a House", "house-explore-cards", "open.house-explore")
    )
    further = f"{who} has already played {earlier} card(s) in this Explore and plays a further one: "
    trail.reading(
        reading,
        {
            "one-card": further + f"{side} Explore plays one card, so a further one is not allowed.",
            "several-cards": further + f"{side} Explore may play several cards.",
        },
        clause=clause,
        refuse={
            "one-card": f"{who} has already played a card in this Explore; a further card is not allowed "
            f"(reading {reading}=one-card)."
        },
    )


def in_last_hands(s: Situation) -> bool:
    """The last-hand phase: said by the turn, or the Marker stands on the last Path space."""
    if s.turn is not None and s.turn.phase == "last-hands":
        return True
    return s.path is not None and s.path.marker >= s.path.length


# --- Learn -------------------------------------------------------------------------------


def learn(s: Situation, trail: Trail, _: Learn) -> Outcome:
    """Learn: House only; what it does is an open question (reading ``learn``, no default)."""
    turn = _turn(s)
    # action.learn-house-only: the Dark Arts never Learns
    if turn.side == DARK_ARTS:
        raise trail.illegal(
            "action.learn-house-only", "Learn is a House action only: the Dark Arts chooses Explore or Replenish."
        )
    may_act(s, trail, "Learn")
    who = cap_name(turn.who)
    trail.rule("action.learn-house-only", f"{who} is a House player, so Learn is one of their actions.")
    taken = f"{who} Learns: one card is taken from the Library into their "
    option = trail.reading(
        "learn", {"card-to-hand": taken + "hand.", "card-to-discard": taken + "discard pile."}, clause="open.learn"
    )
    player = s.players.get(turn.who)
    if player is not None:
        if option == "card-to-hand":
            player.hand += 1
        else:
            player.discard += 1
    return Outcome(Verdict.LEGAL, f"{who} Learns (reading learn={option}).", s.to_state())


def deploy(s: Situation, trail: Trail, pawn: str) -> str:
    """A Dark Arts pawn leaves the reserve: open.reserve-deployment; returns the reading's option."""
    return trail.reading(
        "reserve-deployment",
        {
            "by-explore": f"{pawn} is in the Dark Arts reserve, and a reserve pawn may come onto the board by an "
            "Explore.",
            "by-replenish": f"{pawn} is in the Dark Arts reserve, and reserve pawns come back during a Dark Arts "
            "Replenish, not by an Explore.",
        },
        clause="open.reserve-deployment",
    )


def another_turn(s: Situation, trail: Trail, dark_arts: bool = False) -> bool:
    """An another-turn bonus is earned: whether it gives a further turn (False: it does not).

    The answer is also put in the state as ``another-turn: true|false``, except in the
    last-hand phase, where how the bonus works is itself open (open 18): an open step then,
    and no answer in the state.
    """
    if in_last_hands(s):
        trail.open(
            "open.another-turn",
            "An another-turn bonus is earned in the last-hand phase; whether it gives a turn there, and what "
            "that turn holds, is not settled.",
        )
        return False
    if s.turn is not None and s.turn.extra:
        during = "The bonus is earned during an extra turn: "
        option = trail.reading(
            "another-turn",
            {
                "full-turn": during + "it is again another turn, as each time the bonus is earned.",
                "no-chain": during + "extra turns do not chain, so no further turn.",
            },
            clause="open.another-turn",
        )
        s.facts["another-turn"] = option != "no-chain"
        return option != "no-chain"
    s.facts["another-turn"] = True
    # bonus.icon: the icon gives another turn (what that turn holds, and chaining, is open.another-turn)
    if dark_arts:  # printed for a House pawn: for a Dark Arts pawn it rests on the reading
        trail.reading("bonus-dark-arts", "The bonus gives the Dark Arts another turn.", clause="bonus.icon")
    else:
        trail.rule("bonus.icon", "The bonus gives the player another turn.")
    return True
