"""A player's cards: playing one, drawing (with the reshuffle), drawing to five, cleanup."""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts.model import DARK_ARTS, HAND_TARGET, Player, Situation, cap_name, name
from rulesref.games.houses_vs_dark_arts.turns import in_last_hands
from rulesref.ruling import Trail

NO_ADVANCE_CAUSES = ("event", "library-book", "bonus")
"""Draws that never move the Dark Arts Marker (draw.no-advance)."""


def play_card(s: Situation, trail: Trail, who: str) -> None:
    """A card leaves the hand to be played (it is discarded at the end of the turn); Illegal with none in hand."""
    player = s.players.get(who)
    if player is None:
        return
    if player.hand < 1 and "hand" not in player.given:
        # a hand left out counts as 0 for the state, but "no card to play" must come from the table
        raise s.doc.error(
            ("players", who, "hand"),
            f"how many cards does {name(who)} hold? Add hand: N (the card played comes from the hand)",
        )
    if player.hand < 1:
        if who == DARK_ARTS:
            # action.dark-arts-explore: the Explore plays a card, and there is none to play
            raise trail.illegal("action.dark-arts-explore", "The Dark Arts has no card in hand to play.")
        # open.house-explore: on either reading a House Explore plays a card
        trail.reading(
            "house-explore",
            f"{cap_name(who)} Explores, which plays a card, and holds none.",
            clause="open.house-explore",
        )
        raise trail.refuse(f"{cap_name(who)} has no card in hand to play.")
    player.hand -= 1
    if s.turn is not None:
        s.turn.played += 1


def draw(s: Situation, trail: Trail, who: str, n: int, cause: str) -> int:
    """Draw ``n`` cards for ``who``; an empty deck is rebuilt from the discard pile mid-draw.

    ``cause`` names why: ``replenish``, ``last-hand``, or one of ``event``, ``library-book``,
    ``bonus`` (those never advance the Marker; the step says so). Returns the cards drawn,
    which is fewer than ``n`` only when deck and discard pile both run dry. A ``deck`` the
    scenario left out is not counted (0 in the state): the draw is made in full.
    """
    who_name = cap_name(who)
    if cause in NO_ADVANCE_CAUSES:
        # draw.no-advance: these draws leave the Dark Arts Marker where it is
        trail.rule("draw.no-advance", f"Drawing because of {cause_words(cause)} does not move the Dark Arts Marker.")
    player = s.players.get(who)
    if player is None or n <= 0:
        return 0
    if "deck" not in player.given:
        # a deck left out is not counted: the cards are drawn, and no step claims it ran out
        player.hand += n
        return n
    drawn = min(n, player.deck)
    player.deck -= drawn
    if drawn < n and player.discard > 0:
        # open.last-hand: whether the discard pile is still reshuffled in the last-hand phase
        if in_last_hands(s):
            empty = f"{who_name}'s deck is empty in the last-hand phase after {drawn} card(s)"
            option = trail.reading_or_open(
                "last-hand-reshuffle",
                {
                    "no": f"{empty}: no reshuffle now, so the draw stops there.",
                    "yes": f"{empty}: the last-hand phase does not stop the reshuffle.",
                },
                clause="open.last-hand",
                about=f"{empty}; whether the discard pile is still reshuffled",
            )
            if option != "yes":  # no reshuffle, or none known: the draw stops there
                player.hand += drawn
                if option is None:
                    # the hand, deck and discard pile it leaves are the open question itself
                    unstate(player, "hand", "deck", "discard")
                return drawn
        # draw.reshuffle: the discard pile, shuffled, becomes the new draw deck
        trail.rule(
            "draw.reshuffle",
            f"{who_name}'s draw deck is empty after {drawn} card(s): the {player.discard} "
            "card(s) of the discard pile are shuffled into a new draw deck.",
        )
        player.deck, player.discard = player.discard, 0
        more = min(n - drawn, player.deck)
        player.deck -= more
        drawn += more
    player.hand += drawn
    if drawn < n:
        return draw_both_empty(trail, player, who_name, drawn, n)
    return drawn


def draw_both_empty(trail: Trail, player: Player, who_name: str, drawn: int, n: int) -> int:
    """Deck and discard pile ran dry after ``drawn`` of ``n`` cards: the reading draw-both-empty.

    draw.reshuffle rebuilds an empty deck and says nothing of an empty discard pile too
    (open.draw-both-empty). With no reading chosen the action still stands, but the hand and
    deck it leaves are not stated.
    """
    empty = f"{who_name}'s draw deck and discard pile are both empty after {drawn} of {n} card(s)"
    option = trail.reading_or_open(
        "draw-both-empty",
        {
            "short-draw": f"{empty}: the draw stops there, and the hand keeps the {drawn} card(s) drawn.",
            "no-draw": f"{empty}: a draw that cannot be made in full is not made, so the {drawn} card(s) "
            "stay in the deck.",
        },
        clause="open.draw-both-empty",
        about=empty,
    )
    if option is None:
        # how many cards the hand and the deck hold now is the open question itself
        unstate(player, "hand", "deck")
        return drawn
    if option == "no-draw":
        player.hand -= drawn
        player.deck += drawn
        return 0
    return drawn


def unstate(player: Player, *counts: str) -> None:
    """An open question decides these counts: the state leaves them out, and no later step rules on them."""
    player.unstated = player.unstated | set(counts)
    player.given = player.given - set(counts)


def draw_to_five(s: Situation, trail: Trail, who: str, cause: str) -> None:
    """Draw up to a hand of five (draw.to-five); a hand of five or more draws nothing."""
    player = s.players.get(who)
    if player is None or "hand" not in player.given:
        # no hand given: the draw is stated, not counted (a left-out hand is no claim of 0 cards)
        trail.rule("draw.to-five", f"{cap_name(who)} draws until the hand holds {HAND_TARGET} cards in total.")
        if player is not None:
            player.hand = max(player.hand, HAND_TARGET)
        return
    need = HAND_TARGET - player.hand
    if need > 0:
        trail.rule(
            "draw.to-five", f"{cap_name(who)} holds {player.hand} card(s), so draws {need} to reach {HAND_TARGET}."
        )
        draw(s, trail, who, need, cause)
        return
    trail.rule(
        "draw.to-five", f"{cap_name(who)} already holds {player.hand} card(s): drawing to {HAND_TARGET} draws nothing."
    )
    if player.hand > HAND_TARGET:
        # open.hand-limit: is there a maximum hand size? (no default: the draw stands, the hand is not stated)
        more = f"{cap_name(who)} holds more than {HAND_TARGET}"
        option = trail.reading_or_open(
            "hand-limit",
            {
                "no-limit": f"{more}: no hand limit applies, so all are kept.",
                "discard-to-five": f"{more}: the hand is discarded down to {HAND_TARGET}.",
            },
            clause="open.hand-limit",
            about=f"{more}; whether a larger hand is kept",
        )
        if option is None:
            unstate(player, "hand", "discard")
        elif option == "discard-to-five":
            extra = player.hand - HAND_TARGET
            player.hand, player.discard = HAND_TARGET, player.discard + extra
            s.facts.setdefault("discarded", {})[who] = extra


def cleanup(s: Situation, trail: Trail, who: str, played: int) -> None:
    """End of turn: the ``played`` cards played this turn go to ``who``'s discard pile.

    The pages give the clean-up for the Dark Arts player's cards (action.cleanup); for a
    House player it rests on the reading ``house-effects`` (default ``as-dark-arts``).
    """
    discarded = f"At the end of the turn, the {played} card(s) {name(who)} played go to the discard pile"
    if who == DARK_ARTS:
        # action.cleanup: played cards are discarded when the turn ends, never kept
        trail.rule("action.cleanup", discarded + ".")
    elif trail.choice("house-effects") == "as-dark-arts":
        # open.house-effects: the clean-up is printed for the Dark Arts; applied to House cards by the reading
        trail.reading(
            "house-effects",
            discarded + ", as the pages give it for the Dark Arts player's cards.",
            clause="action.cleanup",
        )
    else:
        trail.reading(
            "house-effects",
            f"The clean-up is the Dark Arts player's: the {played} card(s) {name(who)} played are not discarded "
            "at the end of the turn.",
            clause="open.house-effects",
        )
        return
    player = s.players.get(who)
    if player is not None:
        player.discard += played
    if s.turn is not None:
        s.turn.played = max(0, s.turn.played - played)


def cause_words(cause: str) -> str:
    return {"event": "an event", "library-book": "a Library Book effect", "bonus": "a bonus space"}.get(cause, cause)
