"""The Dark Arts Path: the Marker, the orange and red zones, Event Spaces, advancing. (helper B)

Spaces are numbered 1..length; the Marker may also stand on 0 (before the first space).
``orange`` and ``red`` name the first space of each zone; every space before ``orange``
is white. ``events`` lists the Event Spaces; a *red* Event Space is one in the red zone.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulesref.referee import Outcome, Trail
from rulesref.ruling import Verdict
from rulesref.source import Loaded

if TYPE_CHECKING:
    from rulesref.games.houses_vs_dark_arts.situation import Situation

ALL_HOUSES = ("gryffindor", "hufflepuff", "ravenclaw", "slytherin")
COLOURS = ("white", "orange", "red")
_KEYS = ("length", "marker", "orange", "red", "events", "unlocked")


@dataclass
class Track:
    """The Dark Arts Path as the scenario gives it, and where its Marker stands."""

    length: int
    """The number of spaces; the last one starts the last-hand phase."""
    marker: int
    """The space the Dark Arts Marker is on."""
    orange: int | None = None
    """First space of the orange zone (None: not given)."""
    red: int | None = None
    """First space of the red zone (None: not given)."""
    events: list[int] = field(default_factory=list)
    """The Event Spaces, in order."""
    kept: set[str] = field(default_factory=set)
    """Colours unlocked earlier that the Marker's zone no longer shows (after a move back)."""

    def zone(self, space: int | None = None) -> str:
        at = self.marker if space is None else space
        if self.red is not None and at >= self.red:
            return "red"
        if self.orange is not None and at >= self.orange:
            return "orange"
        return "white"

    def unlocked(self) -> list[str]:
        reached = COLOURS[: COLOURS.index(self.zone()) + 1]
        return [c for c in COLOURS if c in reached or c in self.kept]

    def red_events(self) -> list[int]:
        return [] if self.red is None else self.events[bisect_left(self.events, self.red) :]

    def red_rank(self, space: int) -> int | None:
        """The place (0 = first) of Event Space ``space`` among the red ones; None if it is not one."""
        if self.red is None or space < self.red:
            return None
        i = bisect_left(self.events, space)
        if i == len(self.events) or self.events[i] != space:
            return None
        return i - bisect_left(self.events, self.red)

    def to_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "length": self.length,
            "marker": self.marker,
            "events": list(self.events),
            "zone": self.zone(),
            "unlocked": self.unlocked(),
        }
        if self.orange is not None:
            out["orange"] = self.orange
        if self.red is not None:
            out["red"] = self.red
        return out


def read_path(doc: Loaded) -> Track | None:
    """``path:`` (optional): length, marker, orange, red, events, unlocked."""
    from rulesref.games.houses_vs_dark_arts.turns import _mapping, count

    if "path" not in doc.data:
        return None
    raw = _mapping(doc, ("path",), doc.data["path"], _KEYS)
    for key in ("length", "marker"):
        if key not in raw:
            raise doc.error(("path",), f"missing required key {key!r}", hint="e.g. path: {length: 20, marker: 12}")
    length = count(doc, ("path", "length"), raw["length"])
    if length < 1:
        raise doc.error(("path", "length"), "a Path has at least 1 space")
    marker = count(doc, ("path", "marker"), raw["marker"])
    if marker > length:
        raise doc.error(("path", "marker"), f"the Marker is on space {marker}, beyond the last space ({length})")
    zones: dict[str, int | None] = {}
    for key in ("orange", "red"):
        value = raw.get(key)
        zones[key] = None if value is None else count(doc, ("path", key), value)
        if value is not None and not 1 <= value <= length:
            raise doc.error(("path", key), f"the {key} zone must start on a space 1..{length}, got {value}")
    if zones["orange"] is not None and zones["red"] is not None and zones["orange"] >= zones["red"]:
        raise doc.error(
            ("path", "orange"), f"the orange zone ({zones['orange']}) must start before the red zone ({zones['red']})"
        )
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise doc.error(("path", "events"), "expected a list of Event Space numbers")
    for i, e in enumerate(events):
        if count(doc, ("path", "events", i), e) < 1 or e > length:
            raise doc.error(("path", "events", i), f"an Event Space must be a space 1..{length}, got {e}")
    if len(set(events)) != len(events):
        raise doc.error(("path", "events"), "an Event Space is listed twice")
    track = Track(length, marker, zones["orange"], zones["red"], sorted(events))
    unlocked = raw.get("unlocked")
    if unlocked is not None:
        if not isinstance(unlocked, list) or not all(c in COLOURS for c in unlocked):
            raise doc.error(("path", "unlocked"), f"expected a list of colours: {', '.join(COLOURS)}")
        track.kept = {c for c in unlocked if c not in track.unlocked()}
    return track


# --- effect colours ------------------------------------------------------------------------


def unlocked(s: Situation, trail: Trail, colour: str) -> bool:
    """Whether an effect of this colour may be used now: white always; orange/red by zone."""
    if colour == "white":
        # action.effect-colours: white effects are open from the start
        trail.rule("action.effect-colours", "White effects may be used from the start of the game.")
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
        trail.rule(
            "path.zones",
            f"The Marker (space {track.marker}) is in or past the {colour} zone (from space "
            f"{start}): {colour} effects are unlocked.",
        )
        return True
    if colour in track.kept:
        # open.marker-back: the colour was unlocked before the Marker moved back
        option = trail.choice("marker-back")
        keeps = option == "back-keep-unlocks"
        trail.interpret(
            "marker-back",
            f"{colour.capitalize()} was unlocked before the Marker moved back to space {track.marker}: "
            + (
                "unlocked colours stay unlocked." if keeps else "the unlock follows the Marker's zone, so it is locked."
            ),
            clause="open.marker-back",
        )
        return keeps
    trail.rule(
        "action.effect-colours",
        f"{colour.capitalize()} effects unlock only when the Marker enters the "
        f"{colour} zone (space {start}); the Marker is on space {track.marker}.",
    )
    return False


# --- advancing -------------------------------------------------------------------------------

CAUSES = {
    "replenish": "a House Replenish",
    "house-markers": "the full set of House Markers",
    "effect": "a card or event effect",
}


def advance(s: Situation, trail: Trail, spaces: int, cause: str) -> None:
    """Advance the Marker ``spaces`` (>= 0), reporting zones entered and Event Spaces reached.

    Facts added to the state: ``zones-entered`` and ``events-reached`` (lists), and
    ``events-resolved`` (the Event Spaces whose event is resolved). Reaching the last space
    starts the last-hand phase (victory.end-of-track). ``cause`` is a key of CAUSES.
    """
    track = s.path
    if track is None:
        trail.rule("path.marker", f"The Dark Arts Marker advances {spaces} space(s) ({CAUSES.get(cause, cause)}).")
        return
    start = track.marker
    trail.rule(
        "path.marker",
        f"{_upper(CAUSES.get(cause, cause))} advances the Dark Arts Marker {spaces} space(s) from space {start}.",
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
        elif what == "event":
            reached.append(here)
            if _resolve_event(s, trail, here, cause):
                resolved.append(here)
        else:
            _last_space(s, trail)
    track.marker = end
    if spaces > end - start:
        trail.rule("path.marker", f"The Marker is on the last space ({track.length}) and moves no further.")
    trail.rule("path.marker", f"The Marker now stands on space {track.marker} ({track.zone()} zone).")


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
        # victory.pawn-count: a location card taken here fixes the pawns needed
        trail.rule(
            "victory.pawn-count",
            f"Space {space} is the {which} red Event Space: a location card taken "
            f"now needs {count} Dark Arts pawns together at the location.",
        )
    if cause == "replenish":
        # path.event-space: the House Replenish advance resolves the event it reaches
        trail.rule(
            "path.event-space",
            f"The Marker reaches the Event Space on space {space}: its event is "
            "resolved now (what the event does is not in the known pages).",
        )
        return True
    option = trail.choice("event-trigger")
    trail.interpret(
        "event-trigger",
        f"The Marker reaches the Event Space on space {space} through {CAUSES.get(cause, cause)}, not a House "
        "Replenish: "
        + (
            "its event is resolved as for a House Replenish."
            if option == "every-advance"
            else "only a House Replenish advance resolves an event, so this one is not resolved."
        ),
        clause="open.event-spaces",
    )
    if option == "every-advance":
        # path.event-space: the event procedure, as the Replenish case describes it
        trail.rule("path.event-space", f"The event on space {space} is resolved as after a House Replenish.")
    return option == "every-advance"


def _last_space(s: Situation, trail: Trail) -> None:
    from rulesref.games.houses_vs_dark_arts.hands import draw_to_five

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
    for who in s.players:
        draw_to_five(s, trail, who, "last-hand")
    trail.rule("victory.no-replenish", "From now on nobody may Replenish.")
    da = s.players.get("dark-arts")
    if da is None or da.location_card is None:
        trail.rule(
            "victory.pawn-count",
            "If the location card has not been taken yet, taking it at the last "
            "Path space needs 1 Dark Arts pawn at the location.",
        )


# --- House Markers -----------------------------------------------------------------------------


def participating(s: Situation, trail: Trail) -> list[str]:
    """The houses whose Markers make the full set (open.participating-houses)."""
    option = trail.choice("participating-houses")
    trail.interpret(
        "participating-houses",
        "The participating houses are taken to be "
        + (f"the houses in play ({_list(list(s.houses))})." if option == "in-play" else "all four houses."),
        clause="open.participating-houses",
    )
    return list(s.houses) if option == "in-play" else list(ALL_HOUSES)


def complete_marker_set(s: Situation, trail: Trail) -> bool:
    """After the Dark Arts takes a House Marker: if it now holds the full set, advance and return them.

    Returns True when the set was complete (the Path advanced 1 and the Markers went back).
    Without ``players.dark-arts`` in the scenario the Markers held are unknown: False.
    """
    da = s.players.get("dark-arts")
    if da is None:
        return False
    wanted = participating(s, trail)
    missing = [h for h in wanted if h not in da.markers]
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

_NOT_ADVANCING = {
    "event": "draw.no-advance",
    "library-book": "draw.no-advance",
    "bonus": "draw.no-advance",
    "dark-arts-replenish": "replenish.dark-arts-no-advance",
}


def _read_advance(s: Situation) -> tuple[int, str]:
    from rulesref.errors import did_you_mean
    from rulesref.games.houses_vs_dark_arts.turns import _mapping

    body = s.body
    if isinstance(body, int) and not isinstance(body, bool):
        return body, "effect"
    fields = _mapping(s.doc, ("action", "advance"), body, ("spaces", "cause"))
    spaces = fields.get("spaces", 1)
    if not isinstance(spaces, int) or isinstance(spaces, bool):
        raise s.doc.error(("action", "advance", "spaces"), f"expected a whole number of spaces, got {spaces!r}")
    cause = fields.get("cause", "effect")
    known = (*CAUSES, *_NOT_ADVANCING)
    if cause not in known:
        raise s.doc.error(
            ("action", "advance", "cause"),
            f"unknown cause {cause!r}",
            hint=did_you_mean(str(cause), known) or f"causes: {', '.join(known)}",
        )
    return spaces, str(cause)


def advance_action(s: Situation, trail: Trail) -> Outcome:
    """``advance: N`` or ``advance: {spaces: N, cause: C}``: what an advance does, or that it does not happen."""
    spaces, cause = _read_advance(s)
    if cause in _NOT_ADVANCING:
        from rulesref.games.houses_vs_dark_arts.hands import _cause_words
        from rulesref.games.houses_vs_dark_arts.turns import refuse

        clause = _NOT_ADVANCING[cause]
        what = "a Dark Arts Replenish" if cause == "dark-arts-replenish" else f"drawing from {_cause_words(cause)}"
        return refuse(s, trail, clause, f"The Marker does not advance for {what}.")
    if spaces < 0:
        return _move_back(s, trail, -spaces)
    if cause == "house-markers":
        if spaces != 1:
            from rulesref.games.houses_vs_dark_arts.turns import refuse

            return refuse(s, trail, "path.house-markers", "A full set of House Markers advances the Path 1 space.")
        if s.players.get("dark-arts") is not None and not complete_marker_set(s, trail):
            return Outcome(
                Verdict.ILLEGAL,
                "The Dark Arts does not hold every participating house's Marker: "
                "single Markers do not advance the Path.",
                s.to_state(),
            )
        if s.players.get("dark-arts") is None:
            trail.rule("path.house-markers", "The full set of House Markers advances the Path 1 space.")
            advance(s, trail, 1, cause)
    else:
        if cause == "replenish":
            trail.rule("replenish.house-advance", "A House Replenish advances the Marker 1 space.")
        advance(s, trail, spaces, cause)
    where = f" to space {s.path.marker}" if s.path is not None else ""
    return Outcome(Verdict.LEGAL, f"The Marker advances{where}.", s.to_state())


def _move_back(s: Situation, trail: Trail, spaces: int) -> Outcome:
    track = s.path
    option = trail.choice("marker-back")
    trail.interpret(
        "marker-back",
        f"An effect would move the Marker back {spaces} space(s): "
        + {
            "never": "the Marker only ever advances, so it does not move back.",
            "back-keep-unlocks": "it moves back, and colours already unlocked stay unlocked.",
            "back-relock": "it moves back, and the unlocked colours follow its new zone.",
        }[option],
        clause="open.marker-back",
    )
    if option == "never":
        return Outcome(Verdict.ILLEGAL, "Under reading marker-back=never the Marker only moves forward.", s.to_state())
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
