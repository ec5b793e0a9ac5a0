"""The Dark Arts Path track: effect colours unlocked by zone, the Marker advancing, Event Spaces, House Markers.

The track itself (its length, zones and Event Spaces, where the Marker stands) is the
model's Track; this module rules on what the Marker's moves do.
"""

from __future__ import annotations

from bisect import bisect_right

from rulesref.games.houses_vs_dark_arts.hands import cause_words, draw_to_five, unstate
from rulesref.games.houses_vs_dark_arts.model import (
    ADVANCING,
    ALL_HOUSES,
    DARK_ARTS,
    HAND_TARGET,
    HOUSE,
    NOT_ADVANCING,
    Advance,
    Situation,
    Track,
)
from rulesref.ruling import Outcome, Trail, Verdict

# --- effect colours ------------------------------------------------------------------------


def unlocked(s: Situation, trail: Trail, colour: str, side: str | None = DARK_ARTS) -> bool:
    """Whether an effect of this colour may be used now: white always; orange/red by zone.

    The pages give the colour rule for the Dark Arts player's cards (action.effect-colours).
    For a House card (``side`` house) it rests on the reading ``house-effects`` (default
    ``as-dark-arts``): each step is then a reading step. ``side`` None: whose card is not
    known; an orange or red effect is then ruled alike for both sides, which only the
    reading's ``as-dark-arts`` allows (under ``dark-arts-only`` the scenario must say).
    """
    if side is None and colour != "white" and trail.choice("house-effects") != "as-dark-arts":
        raise s.doc.error(
            ("turn",),
            f"whose card is the {colour} effect? Give turn: {{side: ...}} (reading house-effects decides by side)",
        )

    # whose card is not said: only white is usable under every reading for every side
    by_reading = side == HOUSE or (side is None and colour != "white")

    def cite(clause: str, says: str) -> None:
        if by_reading:
            trail.reading("house-effects", says, clause=clause)
        else:
            trail.rule(clause, says)

    if side is None and by_reading:
        # open.house-effects: a House card follows the Dark Arts colour rule only by the reading
        trail.reading(
            "house-effects",
            f"Whose card the {colour} effect is on is not said: the colour rule the pages give for the Dark Arts "
            "player's cards holds for a House card too under this reading, so either side is ruled alike.",
            clause="open.house-effects",
        )
    if side == HOUSE:
        # open.house-effects: the colour rule is printed for the Dark Arts player's cards
        option = trail.reading(
            "house-effects",
            {
                "as-dark-arts": f"A House card's {colour} effect follows the colour rule the pages give for "
                "the Dark Arts player's cards.",
                "dark-arts-only": f"The colour rule is the Dark Arts player's: a House card's {colour} effect "
                "may be used whatever the Marker's zone.",
            },
            clause="open.house-effects",
        )
        if option == "dark-arts-only":
            return True
    if colour == "white":
        # action.effect-colours: white effects are open from the start
        cite("action.effect-colours", "White effects may be used from the start of the game.")
        return True
    track = s.path
    if track is None:
        raise s.doc.error(
            (), f"a {colour} effect is used: give `path:` (marker, orange, red) to tell whether it is unlocked"
        )
    start = track.orange if colour == "orange" else track.red
    if start is None:
        raise s.doc.error(("path",), f"a {colour} effect is used: give path.{colour}, the first space of that zone")
    if track.marker >= start:
        # path.zones: the Marker has entered that zone, so its colour is unlocked
        cite(
            "path.zones",
            f"The Marker (space {track.marker}) is in or past the {colour} zone (from space "
            f"{start}): {colour} effects are unlocked.",
        )
        return True
    if colour in track.kept:
        # open.marker-back: the colour was unlocked before the Marker moved back
        before = f"{colour.capitalize()} was unlocked before the Marker moved back to space {track.marker}: "
        relocked = before + "the unlock follows the Marker's zone, so it is locked."
        option = trail.reading(
            "marker-back",
            {
                "back-keep-unlocks": before + "unlocked colours stay unlocked.",
                "back-relock": relocked,
                "never": relocked,
            },
            clause="open.marker-back",
        )
        return option == "back-keep-unlocks"
    cite(
        "action.effect-colours",
        f"{colour.capitalize()} effects unlock only when the Marker enters the "
        f"{colour} zone (space {start}); the Marker is on space {track.marker}.",
    )
    return False


# --- advancing -------------------------------------------------------------------------------


def advance(s: Situation, trail: Trail, spaces: int, cause: str) -> None:
    """Advance the Marker ``spaces`` (>= 0), reporting zones entered and Event Spaces reached.

    Facts added to the state: ``zones-entered``, ``events-reached`` and ``events-passed``
    (lists), and ``events-resolved`` (the Event Spaces whose event is resolved). Reaching the last space
    starts the last-hand phase (victory.end-of-track). ``cause`` is a key of ADVANCING.
    """
    track = s.path
    start = None if track is None else track.marker
    moved = f"{_upper(ADVANCING.get(cause, cause))} advances the Dark Arts Marker {spaces} space(s)"
    moved += "" if start is None else f" from space {start}"
    if cause == "effect":
        # open.event-spaces: the pages name only two things that advance the Marker; a card
        # or event effect doing so is the situation as given, not a rule of path.marker
        trail.open(
            "open.event-spaces",
            moved + ", as the situation gives: the known pages name only a House Replenish and the full set of "
            "House Markers as advancing it, so this advance is taken as given.",
        )
    else:
        trail.rule("path.marker", moved + ".")
    if track is None or start is None:
        return
    overflow = spaces > track.length - start
    if overflow and trail.choice("path-overflow") == "not-made":
        # open.path-overflow: the pages say what reaching the last space does, not what an
        # advance beyond it does
        trail.reading(
            "path-overflow",
            f"An advance of {spaces} from space {start} would go past the last Path space ({track.length}): "
            "an advance larger than the spaces left is not made.",
            clause="open.path-overflow",
            refuse={"not-made": f"Under reading path-overflow=not-made the Marker cannot advance {spaces} space(s)."},
        )
    entered = s.facts.setdefault("zones-entered", [])
    reached = s.facts.setdefault("events-reached", [])
    resolved = s.facts.setdefault("events-resolved", [])
    end = start + min(spaces, track.length - start)
    # The Marker passes spaces start+1..end; only the spaces where something happens are
    # visited (a zone's first space, an Event Space, the last space), in the order the
    # Marker reaches them, so a long advance costs what it reports, not one step a space.
    for here, what in _passed(track, start, end):
        track.marker = here
        if what in ("orange", "red"):
            # path.zones: entering a zone unlocks that colour's effects
            trail.rule(
                "path.zones",
                f"The Marker enters the {what} zone on space {here}: {what} effects are now unlocked.",
            )
            entered.append(what)
        elif what == "event" and here < end:
            # open.event-spaces: the one advance the pages describe is a single space
            trail.open(
                "open.event-spaces",
                f"The Marker passes over the Event Space on space {here} without stopping on it: whether an "
                "Event Space passed over is reached, and its event resolved, is not settled.",
            )
            s.facts.setdefault("events-passed", []).append(here)
        elif what == "event":
            reached.append(here)
            if _resolve_event(s, trail, here, cause):
                resolved.append(here)
        else:
            last_space(s, trail)
    track.marker = end
    if overflow:
        # open.path-overflow: stopping on the last space is the reading's (default stops-at-last)
        trail.reading(
            "path-overflow",
            f"The Marker is on the last space ({track.length}) and moves no further.",
            clause="open.path-overflow",
        )
    # path.zones: the pages do not say where the zones lie, so a zone is named only when given
    zone = ""
    if track.zone_given():  # as the state: only where the zones given place the Marker
        zone = " (before the orange zone)" if track.zone() == "white" else f" ({track.zone()} zone)"
    trail.rule("path.marker", f"The Marker now stands on space {track.marker}{zone}.")


def _passed(track: Track, start: int, end: int) -> list[tuple[int, str]]:
    """What the Marker meets moving from ``start`` to ``end``: (space, what), in order.

    ``what`` is a zone colour entered, ``event`` (an Event Space) or ``last`` (the last
    space); on one space a zone comes before its Event Space, and both before the last.
    """
    met: list[tuple[int, int, str]] = []
    for order, (colour, first) in enumerate((("orange", track.orange), ("red", track.red))):
        if first is not None and start < first <= end:
            met.append((first, order, colour))
    events = track.events[bisect_right(track.events, start) : bisect_right(track.events, end)]
    met.extend((space, 2, "event") for space in events)
    if start < track.length <= end:
        met.append((track.length, 3, "last"))
    return [(space, what) for space, _, what in sorted(met)]


def _resolve_event(s: Situation, trail: Trail, space: int, cause: str) -> bool:
    track = s.path
    assert track is not None
    rank = track.red_rank(space)
    if rank is not None and rank < 2:
        count = (3, 2)[rank]
        which = ("first", "next")[rank]
        # an Event Space in the red zone is taken as a red one: no page says so in as many words
        red = f"Space {space} is the {which} Event Space in the red zone, taken as the {which} red Event Space"
        da = s.players.get(DARK_ARTS)
        # the reader refused a card whose moment the Marker had not reached: it was taken before
        if da is not None and da.location_card is not None:
            trail.rule(
                "victory.pawn-count-fixed",
                f"{red}, but the Dark Arts already holds the location card: the pawn count fixed when it was "
                "taken is not recalculated.",
            )
        elif space == track.length:
            trail.open(
                "victory.pawn-count",
                f"{red}, and it is the last Path space too: a location card taken here needs {count} pawns by the "
                "one and 1 by the other, and no page says which holds.",
            )
        else:
            # victory.pawn-count: a location card taken here fixes the pawns needed
            trail.rule(
                "victory.pawn-count",
                f"{red}: a location card taken now needs {count} Dark Arts pawns together at the location.",
            )
    if cause == "replenish":
        # path.event-space: the House Replenish advance resolves the event it reaches
        trail.rule(
            "path.event-space",
            f"The Marker reaches the Event Space on space {space}: its event is "
            "resolved now (what the event does is not in the known pages).",
        )
        return True
    through = (
        f"The Marker reaches the Event Space on space {space} through {ADVANCING.get(cause, cause)}, "
        "not a House Replenish: "
    )
    option = trail.reading(
        "event-trigger",
        {
            "every-advance": through + "its event is resolved as for a House Replenish.",
            "replenish-only": through
            + "only a House Replenish advance resolves an event, so this one is not resolved.",
        },
        clause="open.event-spaces",
    )
    if option == "every-advance":
        # path.event-space describes the House Replenish case only: applying its procedure
        # to this advance is the reading's, not the clause's rule
        trail.reading(
            "event-trigger",
            f"The event on space {space} is resolved as after a House Replenish.",
            clause="path.event-space",
        )
    return option == "every-advance"


def last_space(s: Situation, trail: Trail) -> None:
    """The Marker has reached the last Path space: the last-hand phase begins."""
    track = s.path
    assert track is not None
    # victory.end-of-track: the last space wins nothing; it starts the last-hand phase
    trail.rule(
        "victory.end-of-track",
        f"The Marker reaches the last Path space ({track.length}): nobody wins by that; the last-hand phase begins.",
    )
    if s.turn is not None:
        s.turn.phase = "last-hands"
    s.facts["phase"] = "last-hands"
    # victory.last-hand: everyone draws up to five
    trail.rule("victory.last-hand", "At the start of the last-hand phase every player draws up to five.")
    left = _draws_amid_a_bump(s, trail) if s.acquisition_to_come else None
    for who in s.players:
        if who != left:
            draw_to_five(s, trail, who, "last-hand")
    trail.rule("victory.no-replenish", "From now on nobody may Replenish.")
    da = s.players.get(DARK_ARTS)
    rank = track.red_rank(track.length)
    if (da is None or da.location_card is None) and (rank is None or rank >= 2):  # else an open step said it
        trail.rule(
            "victory.pawn-count",
            "If the location card has not been taken yet, taking it at the last "
            "Path space needs 1 Dark Arts pawn at the location.",
        )


def _draws_amid_a_bump(s: Situation, trail: Trail) -> str | None:
    """The last space was reached by a bump's Marker set, before the bump's acquisition: the
    pages give the draws no place beside that last step. Only counts are kept here, and they
    come out the same either way unless the Dark Arts deck is short of its draw; then its
    draw is left to the open question (the player returned)."""
    da = s.players.get(DARK_ARTS)
    # the discard pile is no help: whether it is reshuffled in the last hands is itself open
    short = da is not None and {"hand", "deck"} <= da.given and HAND_TARGET - da.hand > da.deck
    trail.open(
        "open.last-hand-mid-bump",
        "The Marker reached the last space during a bump, before its acquisition: no page says whether "
        "the last-hand draws come before that last step or after it. "
        + (
            "The Dark Arts deck holds fewer cards than it must draw, and the acquired card on top of it "
            "would change what it draws, so its draw and counts are not stated."
            if short
            else "The card counts below are the same either way."
        ),
    )
    if da is None or not short:
        return None
    unstate(da, "hand", "deck", "discard")
    return DARK_ARTS


# --- House Markers -----------------------------------------------------------------------------


def participating(s: Situation, trail: Trail, held: list[str]) -> list[str]:
    """The houses whose Markers make the full set (open.participating-houses).

    ``held``: the Markers the Dark Arts holds; where they complete the set of the houses in
    play but not of all four, the reading decides whether the set is full.
    """
    taken = "The participating houses are taken to be "
    in_play_full = all(h in held for h in s.houses)
    option = trail.reading(
        "participating-houses",
        {"in-play": taken + f"the houses in play ({_list(list(s.houses))}).", "all-four": taken + "all four houses."},
        clause="open.participating-houses",
        forbids=("all-four",) if in_play_full and not all(h in held for h in ALL_HOUSES) else (),
    )
    return list(s.houses) if option == "in-play" else list(ALL_HOUSES)


def complete_marker_set(s: Situation, trail: Trail) -> bool:
    """After the Dark Arts takes a House Marker: if it now holds the full set, advance and return them.

    Returns True when the set was complete (the Path advanced 1 and the Markers went back).
    Without ``players.dark-arts`` in the scenario the Markers held are unknown: False.
    """
    da = s.players.get(DARK_ARTS)
    if da is None:
        return False
    wanted = participating(s, trail, da.markers)
    missing = [h for h in wanted if h not in da.markers]
    if not missing and not s.houses_listed and wanted != list(ALL_HOUSES):
        # the houses in play were only guessed from the pawns, and the guess completes the set
        raise s.doc.error(
            ("houses",),
            f"the Dark Arts would now hold the Marker of every house with a pawn here ({_list(wanted)}): "
            "list the houses in play, houses: [...]: they decide whether the set is complete",
        )
    if missing:
        trail.rule(
            "path.house-markers",
            f"The Dark Arts holds {_list(da.markers)}; the set still lacks "
            f"{_list(missing)}, so the Path does not advance yet.",
        )
        return False
    # path.house-markers: the full set advances the Path once, then goes back
    trail.rule(
        "path.house-markers",
        f"The Dark Arts holds every participating house's Marker ({_list(wanted)}): "
        "the Path advances 1 space and the Markers are returned.",
    )
    da.markers = [h for h in da.markers if h not in wanted]
    advance(s, trail, 1, "house-markers")
    return True


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _list(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


# --- the `advance` action ------------------------------------------------------------------------


def advance_action(s: Situation, trail: Trail, advance_: Advance) -> Outcome:
    """``advance: N`` or ``advance: {spaces: N, cause: C}``: what an advance does, or that it does not happen."""
    spaces, cause = advance_.spaces, advance_.cause
    if cause in NOT_ADVANCING:
        what = "a Dark Arts Replenish" if cause == "dark-arts-replenish" else f"drawing from {cause_words(cause)}"
        raise trail.illegal(NOT_ADVANCING[cause], f"The Marker does not advance for {what}.")
    if spaces < 0:
        return _move_back(s, trail, -spaces)
    if cause == "house-markers":
        if spaces != 1:
            raise trail.illegal("path.house-markers", "A full set of House Markers advances the Path 1 space.")
        if s.players.get(DARK_ARTS) is None:
            trail.rule("path.house-markers", "The full set of House Markers advances the Path 1 space.")
            advance(s, trail, 1, cause)
        elif not complete_marker_set(s, trail):
            raise trail.refuse(
                "The Dark Arts does not hold every participating house's Marker: only a full set advances the Path."
            )
    else:
        if cause == "replenish":
            trail.rule("replenish.house-advance", "A House Replenish advances the Marker 1 space.")
        advance(s, trail, spaces, cause)
    where = f" to space {s.path.marker}" if s.path is not None else ""
    return Outcome(Verdict.LEGAL, f"The Marker advances{where}.", s.to_state())


def _move_back(s: Situation, trail: Trail, spaces: int) -> Outcome:
    track = s.path
    back = f"An effect would move the Marker back {spaces} space(s): "
    option = trail.reading(
        "marker-back",
        {
            "never": back + "the Marker only ever advances, so it does not move back.",
            "back-keep-unlocks": back + "it moves back, and colours already unlocked stay unlocked.",
            "back-relock": back + "it moves back, and the unlocked colours follow its new zone.",
        },
        clause="open.marker-back",
        refuse={"never": "Under reading marker-back=never the Marker only moves forward."},
    )
    if track is None:
        return Outcome(Verdict.LEGAL, "The Marker moves back.", s.to_state())
    before = set(track.unlocked())
    track.marker = max(0, track.marker - spaces)
    track.kept = (before - set(track.unlocked())) if option == "back-keep-unlocks" else set()
    trail.rule(
        "path.marker",
        f"The Marker now stands on space {track.marker}; unlocked colours: {', '.join(track.unlocked())}.",
    )
    return Outcome(Verdict.LEGAL, f"The Marker moves back to space {track.marker}.", s.to_state())
