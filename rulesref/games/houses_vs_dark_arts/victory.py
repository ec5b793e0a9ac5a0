"""The Dark Arts win, the end of the track, the last-hand phase and the draw.

``check:`` asks one question about the situation as it stands:

* ``victory`` (or ``{victory: dark-arts}``): has the Dark Arts won? legal = it has won,
  illegal = it has not (the steps say what is missing).
* ``{victory: house}`` or ``{victory: <a house>}``: have the Houses won? Their condition is
  not in the known pages (open.house-victory): reading ``house-victory``, no default.
* ``draw``: is the game a draw? legal = yes, illegal = not (yet).
* ``end``: where the game stands at the end of the track: starts the last-hand phase
  (everyone draws up to five), or ends it in a draw, or a Dark Arts win. Always legal; the
  state says ``result``.
* ``turn-end``: the end of the turn: cards played this turn are discarded.
* ``{effect: orange}``: may an effect of that colour be used now? legal = unlocked.

Every check adds ``result`` to the state: ``dark-arts``, ``houses``, ``draw`` or ``none``.
"""

from __future__ import annotations

from collections import Counter

from rulesref.games.houses_vs_dark_arts.hands import cleanup
from rulesref.games.houses_vs_dark_arts.model import CARD_MOMENTS, DARK_ARTS, Check, Situation, Track, card_moment, name
from rulesref.games.houses_vs_dark_arts.track import last_space, unlocked
from rulesref.ruling import Outcome, Trail, Verdict

REQUIRED = {"first-red": 3, "next-red": 2, "last-space": 1}
"""Pawns needed at the location, by when the location card was taken (victory.pawn-count)."""


def check(s: Situation, trail: Trail, check_: Check) -> Outcome:
    """Rule on one ``check:`` question."""
    kind, who = check_.kind, check_.who
    if kind == "effect":
        return _effect(s, trail, who)
    if kind == "victory" and who != DARK_ARTS:
        return _house_victory(s, trail, who)
    if kind == "victory":
        won, missing = dark_arts_won(s, trail, asked=True)
        s.facts["result"] = "dark-arts" if won else "none"
        if won:
            return Outcome(Verdict.LEGAL, "The Dark Arts has won.", s.to_state())
        return Outcome(Verdict.ILLEGAL, f"The Dark Arts has not won: {missing}.", s.to_state())
    if kind == "turn-end":
        turn = s.turn
        assert turn is not None, "the reader demands turn: for check: turn-end"
        played = turn.played
        cleanup(s, trail, turn.who, played)
        whose = name(turn.who) + ("'" if turn.who == DARK_ARTS else "'s")
        return Outcome(Verdict.LEGAL, f"The {played} played card(s) go to {whose} discard pile.", s.to_state())
    result = _end(s, trail)
    s.facts["result"] = result
    if kind == "draw":
        if result == "draw":
            return Outcome(Verdict.LEGAL, "The game is a draw.", s.to_state())
        return Outcome(Verdict.ILLEGAL, f"The game is not a draw ({_result_words(result)}).", s.to_state())
    words = _result_words(result)
    return Outcome(Verdict.LEGAL, words[:1].upper() + words[1:] + ".", s.to_state())


def _effect(s: Situation, trail: Trail, colour: str) -> Outcome:
    # whose effect: the side whose turn it is (unknown without turn:)
    if unlocked(s, trail, colour, s.turn.side if s.turn is not None else None):
        return Outcome(Verdict.LEGAL, f"{colour.capitalize()} effects may be used now.", s.to_state())
    return Outcome(Verdict.ILLEGAL, f"{colour.capitalize()} effects are not unlocked yet.", s.to_state())


# --- the Dark Arts win ------------------------------------------------------------------------


def dark_arts_won(s: Situation, trail: Trail, asked: bool = False) -> tuple[bool, str]:
    """All 3 Progress Tokens and the required pawns together at the location, at once.

    Returns whether it has won and, if not, what is missing. ``board.location`` is needed
    only when the pawns could decide it (tokens complete and the location card taken).
    ``asked``: the win is what the ruling is about, so the steps that deny it decide it.
    """
    da = s.players.get(DARK_ARTS)
    if da is None:
        raise s.doc.error(
            ("players",), "a victory check needs players.dark-arts (its Progress Tokens and location card)"
        )
    # victory.dark-arts: both parts, at the same moment
    trail.rule(
        "victory.dark-arts",
        "The Dark Arts wins only while it holds all 3 Progress Tokens and has the "
        "required number of its pawns together at the assigned location.",
    )
    _not_alone(s, trail)
    tokens = _tokens(s, trail, da.progress, da.location_card is not None, asked)
    need = _required(s, trail, da.location_card)
    counted = need is not None and (tokens == 3 or _location(s, required=False) is not None)
    have = _pawns_at_location(s, trail, need, asked) if need is not None and counted else 0
    missing = []
    if tokens < 3:
        missing.append(f"it holds {tokens} of 3 Progress Tokens")
    if need is None:
        missing.append("the location card has not been taken")
    elif counted and have < need:
        missing.append(f"{have} of the {need} pawn(s) needed {'is' if have == 1 else 'are'} at the location")
    if missing:
        not_met = "Not met: " + "; ".join(missing) + "."
        # with a reading step that left a count short, the verdict rests on both
        trail.forbidden("victory.dark-arts", not_met) if asked else trail.rule("victory.dark-arts", not_met)
        return False, "; ".join(missing)
    trail.rule(
        "victory.dark-arts", f"Met: 3 Progress Tokens and {have} pawn(s) together at the location ({need} needed)."
    )
    return True, ""


def _not_alone(s: Situation, trail: Trail) -> None:
    track = s.path
    if track is None:
        return
    if track.red is not None and track.marker >= track.red:
        # victory.red-zone: the red zone by itself is no win
        trail.rule(
            "victory.red-zone", f"The Marker is in the red zone (space {track.marker}); that alone does not win."
        )
    if track.marker >= track.length:
        # victory.end-of-track: the last space by itself is no win
        trail.rule("victory.end-of-track", "The Marker is on the last Path space; that alone does not win.")


def _tokens(s: Situation, trail: Trail, held: int, has_card: bool, asked: bool) -> int:
    if held == 3:
        trail.rule("victory.dark-arts", "The Dark Arts holds all 3 Progress Tokens.")
        return held
    if not has_card or held < 2:
        # how tokens are won is open, but without the card, or short by more than the one token
        # the card might bring, every reading of it leaves the Dark Arts short of 3
        trail.rule("victory.dark-arts", f"The Dark Arts holds {held} of the 3 Progress Tokens the situation gives.")
        return held
    # open.progress-tokens: whether the location card brings the final token is not in the known pages
    if trail.choice("progress-tokens") == "with-location-card":
        trail.reading(
            "progress-tokens",
            f"The Dark Arts is stated to hold {held} of 3 Progress Tokens, but it has taken the location card, "
            f"which brings a token with it: it holds {held + 1}.",
            clause="open.location-card",  # the order of the final token and the card is that question
        )
        return held + 1
    trail.reading(
        "progress-tokens",
        f"The Dark Arts holds {held} of 3 Progress Tokens, as stated; the referee adds none of its own.",
        clause="open.progress-tokens",
        forbids=("as-given",) if asked else (),  # the other option would bring the third token
    )
    return held


def _required(s: Situation, trail: Trail, card: str | int | None) -> int | None:
    if card is None:
        trail.rule("victory.pawn-count", "The location card has not been taken, so no pawn count is fixed yet.")
        return None
    when = card_moment(s.doc, s.path, card)
    track = s.path
    space = track.taken_at(card) if track is not None else None
    if track is not None and space == track.length and _also_red(track):
        # two rows of the count fall on one space, and no page says which holds
        which = (
            "may be a red Event Space too (the Path gives no red zone)"
            if track.red is None
            else (f"is also the {'first' if track.red_rank(space) == 0 else 'next'} red Event Space")
        )
        raise trail.undetermined(
            "victory.pawn-count",
            f"The location card was taken at space {space}, the last Path space (1 pawn), which {which}: no page "
            "says which count holds where two of them fall on one space.",
        )
    need = REQUIRED[when]
    s.facts["required-pawns"] = need
    taken = CARD_MOMENTS[when]
    if isinstance(card, int) and when != "last-space":  # an Event Space in the red zone is taken as a red one
        in_red = taken.replace("red Event Space", "Event Space in the red zone")
        taken = f"space {card}, {in_red}, taken as {taken}"
    trail.rule("victory.pawn-count", f"The location card was taken at {taken}: {need} pawn(s) needed.")
    if track is not None and space is not None and track.marker > space:
        # victory.pawn-count-fixed: later advances do not lower it
        trail.rule(
            "victory.pawn-count-fixed",
            f"The Marker has moved on since (space {track.marker}), but the count is not recalculated: still {need}.",
        )
    return need


def _also_red(track: Track) -> bool:
    """Whether the last Path space is, or for all the Path says may be, one of the first two red Event Spaces."""
    if track.length not in track.events:
        return False
    rank = track.red_rank(track.length)
    return track.red is None or (rank is not None and rank < 2)


def _location(s: Situation, required: bool = True) -> list[str] | None:
    """The assigned location's spaces (several for an area), from ``board.location``."""
    if not s.board.location and not required:
        return None
    if not s.board.location:
        raise s.doc.error(
            ("board",),
            "a victory check needs board.location: the assigned location (a space, or a list of spaces for an area)",
        )
    return list(s.board.location)


def _pawns_at_location(s: Situation, trail: Trail, need: int, asked: bool) -> int:
    spaces = _location(s) or []
    dark = [p for p in s.pawns.values() if p.side == DARK_ARTS and p.at in spaces]
    stunned = [p.id for p in dark if p.stunned]
    standing = len(dark) - len(stunned)
    # the reading is asked only where its options rule differently: too few pawns even with the
    # stunned ones, or enough on one space without them, is the same on either option
    matters = len(dark) >= need and (len(spaces) > 1 or standing < need)
    if stunned and matters:
        # open.location-stunned: does a stunned pawn count at the location?
        there = f"Stunned Dark Arts pawns at the location ({', '.join(stunned)}) "
        option = trail.reading(
            "stunned-at-location",
            {"count": there + "still stand there, so they count.", "not-count": there + "do not count."},
            clause="open.location-stunned",
            forbids=("not-count",) if asked and standing < need else (),
        )
        if option == "not-count":
            dark = [p for p in dark if not p.stunned]
    if len(spaces) > 1 and len({p.at for p in dark}) > 1:
        # open.location-card: is the location an area or one space?
        apart = (
            f"The location is an area ({', '.join(spaces)}) and the Dark Arts pawns there stand on different spaces: "
        )
        option = trail.reading(
            "location-area",
            {
                "whole-area": apart + "all of them count as together.",
                "one-space": apart + "only pawns sharing one space count.",
            },
            clause="open.location-card",
        )
        if option == "one-space":
            n = max(Counter(p.at for p in dark).values())
            s.facts["pawns-at-location"] = n
            return n
    s.facts["pawns-at-location"] = len(dark)
    names = ", ".join(p.id for p in dark) or "none"
    trail.rule("victory.dark-arts", f"Dark Arts pawns together at the location ({', '.join(spaces)}): {names}.")
    return len(dark)


# --- the Houses --------------------------------------------------------------------------------


def _house_victory(s: Situation, trail: Trail, who: str) -> Outcome:
    # open.house-victory: the House condition is missing from the known pages
    whether = (
        f"Whether {who.capitalize() if who in s.houses else 'the Houses'} have won: the House victory condition is "
        "not in the known pages; the table "
    )
    option = trail.reading(
        "house-victory",
        {"met": whether + "agrees it is met.", "not-met": whether + "agrees it is not met."},
        clause="open.house-victory",
    )
    if option == "met":
        s.facts["result"] = "houses"
        return Outcome(Verdict.LEGAL, "The Houses have won (reading house-victory=met).", s.to_state())
    s.facts["result"] = "none"
    return Outcome(Verdict.ILLEGAL, "The Houses have not won (reading house-victory=not-met).", s.to_state())


# --- the end of the track ------------------------------------------------------------------------


def _end(s: Situation, trail: Trail) -> str:
    """Where the game stands: ``dark-arts``, ``draw``, or ``none`` (play goes on)."""
    track = s.path
    phase = s.turn.phase if s.turn is not None else "normal"
    if s.turn is not None and s.turn.final_hands_out is not None:
        phase = "last-hands"  # only the last-hand phase has final hands
    if s.players.get(DARK_ARTS) is not None and dark_arts_won(s, trail)[0]:
        return "dark-arts"
    if phase != "last-hands":
        if track is None:
            raise s.doc.error((), "check: end needs `path:` (length, marker) or turn.phase: last-hands")
        if track.marker < track.length:
            # victory.end-of-track: only the last Path space starts the last-hand phase (and so a draw)
            trail.rule(
                "victory.end-of-track",
                f"The Marker is on space {track.marker} of {track.length}, short of the last Path space: the "
                "last-hand phase has not begun and play goes on.",
            )
            return "none"
        last_space(s, trail)
        return "none"
    # victory.no-replenish: in the last-hand phase nobody Replenishes
    trail.rule("victory.no-replenish", "The last-hand phase is under way: no Replenish.")
    if not _final_hands_out(s, trail):
        trail.rule("victory.last-hand", "Play goes on with the cards in hand, card effects and draw spaces.")
        # victory.draw-game: a draw comes only once the final hands have run out
        trail.rule("victory.draw-game", "The final hands have not run out, so the game is not a draw yet.")
        return "none"
    # open.house-victory: a draw needs that nobody met a victory condition, and the Houses'
    # condition is not in the known pages, so whether they met it is the reading's to say
    whether = "The final hands have run out; the Houses' victory condition is not in the known pages, and the table "
    option = trail.reading(
        "house-victory",
        {"met": whether + "agrees they have met it.", "not-met": whether + "agrees they have not met it."},
        clause="open.house-victory",
    )
    if option == "met":
        return "houses"
    # victory.draw-game: nobody has won and the final hands are gone
    trail.rule(
        "victory.draw-game",
        "The final hands have run out and nobody has met a victory condition: the game is a draw.",
    )
    return "draw"


def _final_hands_out(s: Situation, trail: Trail) -> bool:
    turn = s.turn
    if turn is not None and turn.final_hands_out is not None:
        trail.rule(
            "victory.draw-game",
            "The final hands have " + ("" if turn.final_hands_out else "not ") + "run out (as the scenario states).",
        )
        return turn.final_hands_out
    held = [(w, p.hand) for w, p in s.players.items() if "hand" in p.given and p.hand]
    if held:
        # open.last-hand: on either reading (hands-empty, one-more-round) cards still in hand,
        # with no word from the table that the round is over, mean the hands have not run out
        left = ", ".join(f"{name(w)} {n}" for w, n in held)
        trail.rule(
            "victory.draw-game",
            f"Cards still in hand: {left}, and the scenario does not say the final hands have run out "
            "(turn.final-hands-out): they have not run out.",
        )
        return False
    unsaid_hands = [w for w, p in s.players.items() if "hand" not in p.given]
    if unsaid_hands and trail.chosen("last-hand-end") != "one-more-round":
        # a hand left out counts as 0, but it may hold cards, which would settle the end on either reading
        raise s.doc.error(
            ("players", unsaid_hands[0], "hand"),
            f"how many cards does {name(unsaid_hands[0])} hold? Add hand: N "
            "(or say turn.final-hands-out): whether every hand is empty decides the end",
        )
    # open.last-hand: when exactly the final hands have run out (reading last-hand-end, no default)
    unsaid = "The scenario does not say whether the final hands have run out: "
    option = trail.reading(
        "last-hand-end",
        {
            "hands-empty": unsaid + "they have once every hand is empty.",
            "one-more-round": unsaid + "they run out after one more round, which the table has not said is over.",
        },
        clause="open.last-hand",
    )
    if option == "one-more-round" or not s.players:
        return False
    # every hand given is empty (a hand with cards was ruled on above)
    trail.rule("victory.draw-game", "Every hand is empty.")
    return True


def _result_words(result: str) -> str:
    return {
        "dark-arts": "the Dark Arts has won",
        "houses": "the Houses have won",
        "draw": "the game is a draw",
        "none": "nobody has won yet; play goes on",
    }[result]
