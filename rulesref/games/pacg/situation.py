"""Read a PACG encounter scenario into a Situation; every problem names file, line and field.

The format (docs/scenarios/pacg.md) is short to type at the table: who encounters, who
else is at the location, the card, its check line and the events in order, each tagged
with its step. Anything that cannot be read raises ScenarioError through ``doc.error``;
anything that can be read but breaks a rule is left for the referee to rule illegal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesref.errors import RulesrefError
from rulesref.fields import kind
from rulesref.games.pacg import events as ev
from rulesref.games.pacg.cards import BANE_TYPES, BOON_TYPES, DAMAGE_TYPES, Card, Character, Henchman, Kind
from rulesref.games.pacg.checks import UNKNOWN, Chain, CheckSyntaxError, parse_checks
from rulesref.games.pacg.readers import EventFields, People, Reader, declared, keys, read_declared
from rulesref.games.pacg.steps import read_step
from rulesref.ruling import Scenario
from rulesref.source import Loaded, PathKey

SITUATION_KEYS = ("character", "local", "distant", "location", "card", "checks", "events")
CARD_KEYS = (
    "name",
    "kind",
    "type",
    "villain",
    "henchman",
    "summoned",
    "immune",
    "cannot-evade",
    "damage-type",
    "checks",
)


@dataclass(frozen=True)
class Situation:
    """Everything the referee reads: who, where, the card, its checks, and what happened."""

    doc: Loaded
    character: Character
    local: tuple[str, ...]
    """Other characters at the encountering character's location."""
    distant: dict[str, tuple[str, ...]] | None
    """Other open locations and who is at each; None when the scenario does not list them."""
    location: str | None
    """The name of the location where the encounter happens."""
    other_villains: int
    """Villains still in this location's deck (step.other-villains)."""
    card: Card
    chain: Chain
    chain_given: bool
    """False when the scenario gives no check line (results must then say success)."""
    events: tuple[ev.Event, ...]

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every character the scenario names."""
        far = tuple(c for people in (self.distant or {}).values() for c in people)
        return (self.character.name, *self.local, *far)

    def distant_location_of(self, name: str) -> str | None:
        """The distant location a character stands at, if the scenario says."""
        for where, people in (self.distant or {}).items():
            if name in people:
                return where
        return None


def read_situation(scenario: Scenario) -> Situation:
    """Read and validate the situation. Raises ScenarioError naming file, line and field."""
    doc = scenario.doc
    data = doc.data
    r = Reader(doc)
    character = _read_character(r)
    local = tuple(n for n in r.names(("local",), data.get("local")) if n != character.name)
    if len(set(local)) != len(local):
        raise doc.error(("local",), "a character is listed twice")
    distant = _read_distant(r, data.get("distant"), {character.name, *local})
    location, other_villains = _read_location(r, data.get("location"))
    card = _read_card(r, data["card"]) if "card" in data else None
    if card is None:
        raise doc.error((), "missing required key 'card' for pacg", hint="e.g. card: {name: Boggart, type: monster}")
    chain, given = _read_chain(r, data, card)
    known = [character.name, *local, *(c for p in (distant or {}).values() for c in p)]
    # with no characters listed at distant locations, a guard by an unlisted name is taken as one of them
    listed_far = any(people for people in (distant or {}).values())
    places = None if distant is None else [*distant, *([location] if location else [])]
    events = _read_events(r, data.get("events"), known, character.name, listed_far, places)
    return Situation(doc, character, local, distant, location, other_villains, card[0], chain, given, events)


def _read_character(r: Reader) -> Character:
    data = r.doc.data
    if "character" not in data:
        raise r.fail((), "missing required key 'character': the encountering character", hint="e.g. character: Amiri")
    raw = data["character"]
    if isinstance(raw, dict):
        m = r.mapping(("character",), raw, ("name", "proxy"), "the character")
        if "name" not in m:
            raise r.fail(("character",), "missing required key 'name'")
        return Character(
            r.text(("character", "name"), m["name"], "a character name"),
            r.flag(("character", "proxy"), m.get("proxy", False)),
        )
    return Character(r.text(("character",), raw, "the encountering character's name"))


def _read_distant(r: Reader, raw: Any, here: set[str]) -> dict[str, tuple[str, ...]] | None:
    if raw is None:
        return None
    path: PathKey = ("distant",)
    out: dict[str, tuple[str, ...]] = {}
    if isinstance(raw, list):
        for i, name in enumerate(raw):
            where = r.text((*path, i), name, "a location name")
            if where in out:
                raise r.fail((*path, i), f"location {where!r} is listed twice")
            out[where] = ()
        return out
    if not isinstance(raw, dict):
        raise r.fail(path, f"expected a list of locations or a mapping location -> characters there, got {kind(raw)}")
    seen: set[str] = set()
    for key, people in raw.items():
        where = r.text((*path, key), key, "a location name", key=True)
        names = tuple(r.names((*path, key), people))
        for i, name in enumerate(names):
            if name in here:
                raise r.fail(
                    (*path, key, i) if isinstance(people, list) else (*path, key),
                    f"{name!r} is at the encounter's location, so cannot also be at {where!r}",
                )
            if name in seen:
                raise r.fail((*path, key), f"{name!r} is listed at two locations")
            seen.add(name)
        if where in out:
            raise r.fail((*path, key), f"location {where!r} is listed twice", key=True)
        out[where] = names
    return out


def _read_location(r: Reader, raw: Any) -> tuple[str | None, int]:
    if raw is None:
        return None, 0
    if isinstance(raw, dict):
        m = r.mapping(("location",), raw, ("name", "other-villains"), "the location")
        name = r.text(("location", "name"), m["name"], "a location name") if "name" in m else None
        return name, r.number(("location", "other-villains"), m.get("other-villains", 0), "a count of villains")
    return r.text(("location",), raw, "a location name"), 0


def _which_henchman(r: Reader, path: PathKey) -> RulesrefError:
    """Henchmen come in two kinds and the pages say which is which only on the card."""
    return r.fail(
        path,
        "a henchman is closing or non-closing, and only its card says which",
        hint="write henchman: closing (defeating it allows an attempt to close) or henchman: non-closing",
    )


def _read_card(r: Reader, raw: Any) -> tuple[Card, Any]:
    path: PathKey = ("card",)
    m = r.mapping(path, raw, CARD_KEYS, "the card")
    name = r.text((*path, "name"), m["name"], "the card's name") if "name" in m else "the card"
    kind: Kind | None = None
    villain = r.flag((*path, "villain"), m.get("villain", False))
    henchman: Henchman | None = None
    if "henchman" in m:
        value = m["henchman"]
        if value is True:
            raise _which_henchman(r, (*path, "henchman"))
        elif value is not False and value is not None:
            henchman = Henchman(r.choice((*path, "henchman"), value, tuple(h.value for h in Henchman), "henchman kind"))
    if "kind" in m:
        word = r.choice((*path, "kind"), m["kind"], ("boon", "bane", "villain", "henchman"), "card kind")
        kind = Kind.BOON if word == "boon" else Kind.BANE
        villain = villain or word == "villain"
        if word == "henchman" and henchman is None:
            raise _which_henchman(r, (*path, "kind"))
    ctype: str | None = None
    if "type" in m:
        word = r.choice(
            (*path, "type"), m["type"], (*BOON_TYPES, *BANE_TYPES, "armour", "villain", "henchman"), "card type"
        )
        if word in ("villain", "henchman"):  # story banes also list monster or barrier; read as a bane of unknown type
            villain = villain or word == "villain"
            if word == "henchman" and henchman is None:
                raise _which_henchman(r, (*path, "type"))
        else:
            ctype = "armor" if word == "armour" else word
            implied = Kind.BOON if ctype in BOON_TYPES else Kind.BANE
            if kind is not None and kind is not implied:
                raise r.fail(
                    (*path, "type"),
                    f"a {kind.value} cannot have type {ctype!r}",
                    hint=f"{kind.value} types: {', '.join(BOON_TYPES if kind is Kind.BOON else BANE_TYPES)}",
                )
            kind = implied
    if villain or henchman is not None:
        if kind is Kind.BOON:
            raise r.fail((*path, "villain" if villain else "henchman"), "a boon cannot be a villain or a henchman")
        kind = Kind.BANE
    if villain and henchman is not None:
        raise r.fail((*path, "henchman"), "a card is a villain or a henchman, not both")
    if kind is None:
        raise r.fail(
            path,
            "say what the card is with 'type' (weapon, spell, armor, item, ally, blessing, monster, barrier)",
            hint="e.g. card: {name: Boggart, type: monster}",
        )
    card = Card(
        name=name,
        kind=kind,
        type=ctype,
        villain=villain,
        henchman=henchman,
        summoned=r.flag((*path, "summoned"), m.get("summoned", False)),
        immune=r.words((*path, "immune"), m.get("immune"), "a trait"),
        cannot_evade=r.flag((*path, "cannot-evade"), m.get("cannot-evade", False)),
        damage_type=r.choice((*path, "damage-type"), m.get("damage-type", "combat"), DAMAGE_TYPES, "damage type"),
    )
    return card, m


def _read_chain(r: Reader, data: dict[str, Any], card: tuple[Card, Any]) -> tuple[Chain, bool]:
    inner = card[1]
    if "checks" in data and "checks" in inner:
        raise r.fail(("card", "checks"), "the checks are given twice (top level and inside card); keep one")
    path: PathKey = ("checks",) if "checks" in data else ("card", "checks")
    raw = data.get("checks", inner.get("checks"))
    if raw is None:
        return UNKNOWN, False
    try:
        line = r.text(path, raw, "a check line such as 'Combat 10'", hint="write it as the card prints it")
        return parse_checks(line), True
    except CheckSyntaxError as exc:
        raise r.fail(path, str(exc)) from None


def _read_events(
    r: Reader, raw: Any, known: list[str], hero: str, distant_given: bool, places: list[str] | None
) -> tuple[ev.Event, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise r.fail(
            ("events",),
            f"expected a list of events, got {kind(raw)}",
            hint="e.g. events: [{step: check, play: {by: Amiri, card: Longsword, type: weapon}}]",
        )
    people = People(r, known, hero, distant_given, places)
    return tuple(_read_event(r, i, item, people) for i, item in enumerate(raw))


def _read_event(r: Reader, i: int, item: Any, people: People) -> ev.Event:
    path: PathKey = ("events", i)
    allowed = ("step", *ev.KINDS, "note")
    m = r.mapping(path, item, allowed, "an event")
    if "step" not in m:
        raise r.fail(path, "missing required key 'step'", hint="every event is tagged with its step, e.g. step: check")
    name = r.text((*path, "step"), m["step"], "a step name")  # its own error, not wrapped below
    try:
        step = read_step(name)
    except ValueError as exc:
        raise r.fail((*path, "step"), str(exc)) from None
    kinds = [k for k in m if k in ev.KINDS]
    if len(kinds) != 1:
        found = f"found {', '.join(kinds)}" if kinds else "found none"
        raise r.fail(path, f"an event needs exactly one of: {', '.join(ev.KINDS)} ({found})")
    kind = kinds[0]
    action = _read_action(r, (*path, kind), kind, m[kind], people)
    return ev.Event(i, step, kind, action, path)


def _read_action(r: Reader, path: PathKey, event_kind: str, raw: Any, people: People) -> ev.Action:
    """One event's action, read by walking its class's declared fields (events.py)."""
    cls = ev.KINDS[event_kind]
    scalar = getattr(cls, "scalar", None)
    if scalar is not None and (not isinstance(raw, dict) or not declared(cls)):
        action: ev.Action = scalar(EventFields(r, people, path, event_kind, {}), raw)
        return action
    m = r.mapping(path, raw, keys(cls), getattr(cls, "WHAT", f"a {event_kind} event"))
    return read_declared(EventFields(r, people, path, event_kind, m), cls)
