"""Replenish, for each side in its own order: House discard-draw-revive-advance, Dark Arts revive-draw."""

from __future__ import annotations

from collections.abc import Callable

from rulesref.games.houses_vs_dark_arts import track
from rulesref.games.houses_vs_dark_arts.hands import draw_to_five
from rulesref.games.houses_vs_dark_arts.model import DARK_ARTS, HOUSE, Pawn, Replenish, Situation, cap_name, name
from rulesref.games.houses_vs_dark_arts.turns import in_last_hands, may_act
from rulesref.ruling import Outcome, Trail, Verdict


def replenish(s: Situation, trail: Trail, replenish_: Replenish) -> Outcome:
    """Replenish for the side whose turn it is, in that side's order."""
    turn = s.turn
    assert turn is not None, "the reader demands turn: for a Replenish"
    discard = replenish_.discard
    # victory.no-replenish: once the last-hand phase starts, nobody Replenishes
    if in_last_hands(s):
        raise trail.illegal(
            "victory.no-replenish", "The last-hand phase has begun: Replenish is no longer allowed for anyone."
        )
    may_act(s, trail, "Replenish")
    player = s.players.get(turn.who)
    if player is not None and player.hand > 0:
        # replenish.cards-in-hand: an empty hand is no condition of Replenish
        trail.rule(
            "replenish.cards-in-hand",
            f"{cap_name(turn.who)} still holds {player.hand} card(s): a Replenish does not wait for an empty hand.",
        )
    if turn.side == DARK_ARTS:
        return _replenish_dark_arts(s, trail, discard)
    return _replenish_house(s, trail, turn.who, discard)


def _replenish_dark_arts(s: Situation, trail: Trail, discard: int | None) -> Outcome:
    # replenish.dark-arts-no-discard: no optional discard for the Dark Arts
    if discard is None or discard > 0:
        raise trail.illegal(
            "replenish.dark-arts-no-discard",
            "The Dark Arts may not discard cards by choice when it Replenishes; it keeps its hand.",
        )
    # replenish.dark-arts: revive first, then draw up to five
    trail.rule(
        "replenish.dark-arts",
        "The Dark Arts Replenishes: first it revives its stunned pawns, then it draws up to five.",
    )
    revived = _revive(s, lambda p: p.side == DARK_ARTS)
    trail.rule("replenish.dark-arts", f"Revived: {_names(revived)}.")
    draw_to_five(s, trail, DARK_ARTS, "replenish")
    # replenish.dark-arts-no-advance: this Replenish leaves the Marker alone
    where = f" (it stays on space {s.path.marker})" if s.path is not None else ""
    trail.rule("replenish.dark-arts-no-advance", f"A Dark Arts Replenish does not advance the Dark Arts Marker{where}.")
    return Outcome(
        Verdict.LEGAL,
        f"Dark Arts Replenish: revived {_names(revived)}; {_hand(s, DARK_ARTS)}; the Marker does not move.",
        s.to_state(),
    )


def _replenish_house(s: Situation, trail: Trail, house: str, wanted: int | None) -> Outcome:
    player = s.players.get(house)
    who = name(house)
    discard = wanted if wanted is not None else (player.hand if player is not None else 0)
    if player is not None and (discard > player.hand or wanted is None) and "hand" not in player.given:
        # a hand left out counts as 0, but "cannot discard that many" (or "all" is none) must come from the table
        raise s.doc.error(
            ("players", house, "hand"),
            f"how many cards does {who} hold? Add hand: N to discard {'all' if wanted is None else discard}",
        )
    if player is not None and discard > player.hand:
        raise trail.illegal(
            "replenish.house-discard", f"{who} holds {player.hand} card(s) and cannot discard {discard}."
        )
    # replenish.house-order: discard, draw, revive, advance, in that order
    trail.rule(
        "replenish.house-order",
        f"{who} Replenishes: discard if they wish, draw up to five, revive "
        "their own stunned pawns, then advance the Dark Arts Marker 1 space.",
    )
    # replenish.house-discard: optional, any number
    if discard:
        trail.rule("replenish.house-discard", f"{who} discards {discard} card(s) by choice.")
        if player is not None:
            player.hand, player.discard = player.hand - discard, player.discard + discard
    else:
        trail.rule("replenish.house-discard", f"{who} discards nothing: the discard is optional.")
    draw_to_five(s, trail, house, "replenish")
    revived = _revive(s, lambda p: p.side == HOUSE and p.house == house)
    others = [p.id for p in s.pawns.values() if p.stunned and p.side == HOUSE]
    rest = f"; other houses' stunned pawns stay stunned ({', '.join(others)})" if others else ""
    trail.rule("replenish.house-order", f"{who} revives their own stunned pawns: {_names(revived)}{rest}.")
    trail.rule("replenish.house-advance", "Last step: the Dark Arts Marker advances 1 space.")
    track.advance(s, trail, 1, "replenish")
    marker = f"; Marker on space {s.path.marker}" if s.path is not None else ""
    return Outcome(
        Verdict.LEGAL, f"{who} Replenish: {_hand(s, house)}; revived {_names(revived)}{marker}.", s.to_state()
    )


def _revive(s: Situation, whose: Callable[[Pawn], bool]) -> list[str]:
    revived = [p.id for p in s.pawns.values() if p.stunned and whose(p)]
    for pid in revived:
        s.pawns[pid].stunned = False
    return revived


def _names(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "no pawn"


def _hand(s: Situation, who: str) -> str:
    p = s.players.get(who)
    if p is None:
        return "draws up to five"
    if p.unstated:
        # an open question (draw-both-empty, hand-limit) decides the counts: the summary states none
        return "the cards it holds afterwards are not settled"
    return f"hand {p.hand}, deck {p.deck}, discard {p.discard}"
