"""Read a PACG encounter scenario into a Situation; every problem names file, line and field.

The format (docs/scenarios/pacg.md) is short to type at the table: who encounters, who
else is at the location, the card, its check line and the events in order, each tagged
with its step. Anything that cannot be read raises ScenarioError through ``doc.error``;
anything that can be read but breaks a rule is left for the referee to rule illegal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesref.errors import RulesrefError, did_you_mean
from rulesref.games.pacg import events as ev
from rulesref.games.pacg.cards import BANE_TYPES, BOON_TYPES, DAMAGE_TYPES, Card, Character, Henchman, Kind
from rulesref.games.pacg.checks import UNKNOWN, Chain, CheckSyntaxError, parse_checks
from rulesref.games.pacg.steps import read_step
from rulesref.scenario import Scenario, refuse_unknown_keys
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
PURPOSES = ("check", "damage", "heal", "explore", "other")
"""What a play or power is for; heal and explore never fit an encounter step."""
VERBS = ("reveal", "display", "discard", "recharge", "reload", "bury", "banish")
STATUSES = ("acquired", "defeated", "undefeated")

EVENT_KEYS: dict[str, tuple[str, ...]] = {
    "play": (
        "by",
        "card",
        "type",
        "traits",
        "freely",
        "for",
        "reduces",
        "damage-type",
        "check",
        "ignores-immunity",
        "combat-only",
        "how",
        "again",
    ),
    "power": ("by", "power", "triggered", "freely", "adds", "ignores-immunity", "combat-only", "for", "check"),
    "result": ("by", "check", "total", "success", "difficulty", "chose-fail", "reroll", "side"),
    "skip": ("by", "check"),
    "evade": ("by", "card", "late"),
    "move": ("by", "to"),
    "end-turn": ("by", "forced"),
    "avenge": ("by", "bury"),
    "guard": ("by", "location", "success"),
    "damage": ("to", "amount", "type", "source", "check"),
    "effect": ("name",),
}


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
    r = _Reader(doc)
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


class _Reader:
    """Typed access to the scenario with errors at the right line."""

    def __init__(self, doc: Loaded) -> None:
        self.doc = doc

    def fail(self, path: PathKey, message: str, hint: str | None = None, key: bool = False) -> RulesrefError:
        return self.doc.error(path, message, hint=hint, key=key)

    def mapping(self, path: PathKey, value: Any, allowed: tuple[str, ...], what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(
                path, f"expected a mapping for {what}, got {_kind(value)}", hint=f"keys: {', '.join(allowed)}"
            )
        refuse_unknown_keys(self.doc, path, value, allowed, what=what, keys="keys")
        return value

    def text(self, path: PathKey, value: Any, what: str, hint: str | None = None, key: bool = False) -> str:
        """A name or a check line: text, never a number YAML read from it (``2.5``, ``007``).

        ``hint`` (the names that fit, where there is a list of them) follows the refusal of
        a number; ``key`` is for a name written as a mapping key.
        """
        if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
            raise self.fail(path, f"expected {what}, got {_kind(value)}", key=key)
        if not isinstance(value, str):
            # A number is no name (`character: 2.5`, `distant: [1, 2]`): refused, not turned
            # back into text, which may not be what was typed (YAML reads 2.50 as 2.5).
            raise self.fail(
                path,
                f"expected {what}, got {_kind(value)} {value!r}",
                hint=hint or "write it in quotes if it really is text",
                key=key,
            )
        text = " ".join(value.split())
        if not text:
            raise self.fail(path, f"expected {what}, got empty text", key=key)
        return text

    def flag(self, path: PathKey, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {value!r}")
        return value

    def number(self, path: PathKey, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(path, f"expected {what} (a whole number, 0 or more), got {value!r}")
        return value

    def names(self, path: PathKey, value: Any) -> list[str]:
        if value is None:
            return []
        items = value if isinstance(value, list) else [value]
        out = []
        for i, v in enumerate(items):
            out.append(self.text((*path, i) if isinstance(value, list) else path, v, "a character name"))
        return out

    def words(self, path: PathKey, value: Any, what: str) -> frozenset[str]:
        if value is None:
            return frozenset()
        items = value if isinstance(value, list) else [value]
        return frozenset(
            self.text((*path, i) if isinstance(value, list) else path, v, what).lower() for i, v in enumerate(items)
        )

    def choice(self, path: PathKey, value: Any, options: tuple[str, ...], what: str) -> str:
        listed = f"one of: {', '.join(options)}"
        word = self.text(path, value, what, hint=listed).lower()
        if word not in options:
            raise self.fail(path, f"unknown {what} {value!r}", hint=did_you_mean(word, options) or listed)
        return word


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    kinds = {
        dict: "a mapping",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a whole number",
        float: "a number",
    }
    return kinds.get(type(value), type(value).__name__)


def _read_character(r: _Reader) -> Character:
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
            r.flag(("character", "proxy"), m["proxy"]) if "proxy" in m else False,
        )
    return Character(r.text(("character",), raw, "the encountering character's name"))


def _read_distant(r: _Reader, raw: Any, here: set[str]) -> dict[str, tuple[str, ...]] | None:
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
        raise r.fail(path, f"expected a list of locations or a mapping location -> characters there, got {_kind(raw)}")
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


def _read_location(r: _Reader, raw: Any) -> tuple[str | None, int]:
    if raw is None:
        return None, 0
    if isinstance(raw, dict):
        m = r.mapping(("location",), raw, ("name", "other-villains"), "the location")
        name = r.text(("location", "name"), m["name"], "a location name") if "name" in m else None
        others = (
            r.number(("location", "other-villains"), m["other-villains"], "a count of villains")
            if "other-villains" in m
            else 0
        )
        return name, others
    return r.text(("location",), raw, "a location name"), 0


def _read_card(r: _Reader, raw: Any) -> tuple[Card, Any]:
    path: PathKey = ("card",)
    m = r.mapping(path, raw, CARD_KEYS, "the card")
    name = r.text((*path, "name"), m["name"], "the card's name") if "name" in m else "the card"
    kind: Kind | None = None
    villain = r.flag((*path, "villain"), m["villain"]) if "villain" in m else False
    henchman: Henchman | None = None
    if "henchman" in m:
        value = m["henchman"]
        if value is True:
            henchman = Henchman.NON_CLOSING
        elif value is not False and value is not None:
            henchman = Henchman(r.choice((*path, "henchman"), value, tuple(h.value for h in Henchman), "henchman kind"))
    if "kind" in m:
        word = r.choice((*path, "kind"), m["kind"], ("boon", "bane", "villain", "henchman"), "card kind")
        kind = Kind.BOON if word == "boon" else Kind.BANE
        villain = villain or word == "villain"
        if word == "henchman" and henchman is None:
            henchman = Henchman.NON_CLOSING
    ctype: str | None = None
    if "type" in m:
        word = r.choice(
            (*path, "type"), m["type"], (*BOON_TYPES, *BANE_TYPES, "armour", "villain", "henchman"), "card type"
        )
        if word in ("villain", "henchman"):  # story banes also list monster or barrier; read as a bane of unknown type
            villain = villain or word == "villain"
            if word == "henchman" and henchman is None:
                henchman = Henchman.NON_CLOSING
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
        summoned=r.flag((*path, "summoned"), m["summoned"]) if "summoned" in m else False,
        immune=r.words((*path, "immune"), m.get("immune"), "a trait"),
        cannot_evade=r.flag((*path, "cannot-evade"), m["cannot-evade"]) if "cannot-evade" in m else False,
        damage_type=r.choice((*path, "damage-type"), m["damage-type"], DAMAGE_TYPES, "damage type")
        if "damage-type" in m
        else "combat",
    )
    return card, m


def _read_chain(r: _Reader, data: dict[str, Any], card: tuple[Card, Any]) -> tuple[Chain, bool]:
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
    r: _Reader, raw: Any, known: list[str], hero: str, distant_given: bool, places: list[str] | None
) -> tuple[ev.Event, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise r.fail(
            ("events",),
            f"expected a list of events, got {_kind(raw)}",
            hint="e.g. events: [{step: check, play: {by: Amiri, card: Longsword, type: weapon}}]",
        )
    people = _People(r, known, hero, distant_given, places)
    return tuple(_read_event(r, i, item, people) for i, item in enumerate(raw))


class _People:
    """Character names in events: checked against the scenario's characters, with did-you-mean."""

    def __init__(self, r: _Reader, known: list[str], hero: str, distant_given: bool, places: list[str] | None) -> None:
        self.r, self.known, self.hero, self.distant_given = r, known, hero, distant_given
        self.places = places
        """Every location the scenario names (distant ones and its own), when it lists them."""

    def place(self, path: PathKey, value: Any) -> str:
        listed = f"locations: {', '.join(self.places)}" if self.places else None
        text = self.r.text(path, value, "a location name", hint=listed)
        if self.places is None:
            return text
        folded = {p.lower(): p for p in self.places}
        if text.lower() in folded:
            return folded[text.lower()]
        raise self.r.fail(path, f"unknown location {text!r}", hint=did_you_mean(text, self.places) or listed)

    def name(self, path: PathKey, value: Any, *, far_ok: bool = False) -> str:
        listed = f"characters here: {', '.join(self.known)} (add others to 'local' or 'distant')"
        text = self.r.text(path, value, "a character name", hint=listed)
        if text in self.known:
            return text
        folded = {k.lower(): k for k in self.known}
        if text.lower() in folded:
            return folded[text.lower()]
        hint = did_you_mean(text, self.known)
        if far_ok and not self.distant_given and hint is None:
            return text  # a character at a distant location the scenario did not list
        raise self.r.fail(
            path,
            f"unknown character {text!r}",
            hint=hint or listed,
        )


def _read_event(r: _Reader, i: int, item: Any, people: _People) -> ev.Event:
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


def _read_action(r: _Reader, path: PathKey, kind: str, raw: Any, people: _People) -> ev.Action:
    if kind == "end-turn":
        if raw is True or (isinstance(raw, str) and raw.strip().lower() == "forced"):
            return ev.EndTurn()
        m = r.mapping(path, raw, EVENT_KEYS[kind], "end-turn") if isinstance(raw, dict) else None
        if m is None:
            raise r.fail(path, f"expected 'forced' (or a mapping with by), got {raw!r}")
        if "forced" in m and r.flag((*path, "forced"), m["forced"]) is False:
            raise r.fail((*path, "forced"), "only a forced end of turn can happen in the middle of an encounter")
        return ev.EndTurn(people.name((*path, "by"), m["by"]) if "by" in m else None)
    if kind == "status":
        return ev.Status(r.choice(path, raw, STATUSES, "status"))
    if kind == "effect" and not isinstance(raw, dict):
        return ev.Effect(r.text(path, raw, "the effect's name"))
    m = r.mapping(path, raw, EVENT_KEYS[kind], f"a {kind} event")

    def by(required: bool = False, far_ok: bool = False) -> str:
        if "by" not in m:
            if required:
                raise r.fail(path, f"missing required key 'by': who makes this {kind}")
            return people.hero
        return people.name((*path, "by"), m["by"], far_ok=far_ok)

    def flag(key: str) -> bool:
        return r.flag((*path, key), m[key]) if key in m else False

    def check_ref(key: str = "check") -> str | int | None:
        if key not in m or m[key] is None:
            return None
        value = m[key]
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 1:
                raise r.fail((*path, key), "check numbers count from 1")
            return value
        return r.text(
            (*path, key), value, "a check, e.g. 'Combat 10' or 2", hint="a check's place (1, 2, ...) or its text"
        )

    if kind == "play":
        if "card" not in m:
            raise r.fail(
                path, "a play needs the 'card' played", hint="e.g. play: {by: Amiri, card: Longsword, type: weapon}"
            )
        if "type" not in m:
            raise r.fail(
                path,
                "a play needs the boon 'type' (weapon, spell, armor, item, ally, blessing)",
                hint="the party's limit counts one boon of each type",
            )
        ptype = r.choice((*path, "type"), m["type"], (*BOON_TYPES, "armour"), "boon type")
        reduces = None
        if "reduces" in m:
            reduces = by() if m["reduces"] is True else people.name((*path, "reduces"), m["reduces"])
        purpose = (
            r.choice((*path, "for"), m["for"], PURPOSES, "purpose")
            if "for" in m
            else ("damage" if reduces else "check")
        )
        if purpose == "damage" and reduces is None:
            reduces = by()
        return ev.Play(
            by=by(),
            card=r.text((*path, "card"), m["card"], "the card's name"),
            type="armor" if ptype == "armour" else ptype,
            traits=r.words((*path, "traits"), m.get("traits"), "a trait"),
            freely=flag("freely"),
            purpose=purpose,
            reduces=reduces,
            damage_type=r.choice((*path, "damage-type"), m["damage-type"], DAMAGE_TYPES, "damage type")
            if "damage-type" in m
            else None,
            check=check_ref(),
            ignores_immunity=flag("ignores-immunity"),
            combat_only=flag("combat-only"),
            how=r.choice((*path, "how"), m["how"], VERBS, "verb") if "how" in m else None,
            again=flag("again"),
        )
    if kind == "power":
        if "power" not in m:
            raise r.fail(
                path, "a power event needs the 'power' used", hint="e.g. power: {by: Sajan, power: extra blessing}"
            )
        return ev.Power(
            by=by(),
            power=r.text((*path, "power"), m["power"], "the power's name"),
            triggered=flag("triggered"),
            freely=flag("freely"),
            adds=r.words((*path, "adds"), m.get("adds"), "a trait"),
            ignores_immunity=flag("ignores-immunity"),
            combat_only=flag("combat-only"),
            purpose=r.choice((*path, "for"), m["for"], PURPOSES, "purpose") if "for" in m else "other",
            check=check_ref(),
        )
    if kind == "result":
        total = r.number((*path, "total"), m["total"], "the check's total") if "total" in m else None
        success = r.flag((*path, "success"), m["success"]) if "success" in m else None
        chose_fail = flag("chose-fail")
        if chose_fail:
            if success is True or (total not in (None, 0)):
                raise r.fail((*path, "chose-fail"), "a character who chooses to fail has a result of 0 and fails")
            total, success = 0, False
        if total is None and success is None:
            raise r.fail(
                path,
                "a result needs 'total' (the check's result) or 'success' (true/false)",
                hint="e.g. result: {by: Amiri, check: Combat 10, total: 12}",
            )
        return ev.Result(
            by=by(),
            check=check_ref(),
            total=total,
            success=success,
            difficulty=r.number((*path, "difficulty"), m["difficulty"], "a difficulty") if "difficulty" in m else None,
            chose_fail=chose_fail,
            reroll=flag("reroll"),
            side=flag("side"),
        )
    if kind == "skip":
        return ev.Skip(by=by(), check=check_ref())
    if kind == "evade":
        return ev.Evade(
            by=by(), card=r.text((*path, "card"), m["card"], "a card name") if "card" in m else None, late=flag("late")
        )
    if kind == "move":
        return ev.Move(by=by(far_ok=True), to=r.text((*path, "to"), m["to"], "a location name") if "to" in m else None)
    if kind == "avenge":
        bury = m.get("bury")
        if bury is True:
            bury = "a card"
        return ev.Avenge(
            by=by(required=True),
            bury=None if bury in (None, False) else r.text((*path, "bury"), bury, "the buried card's name"),
        )
    if kind == "guard":
        if "location" not in m:
            raise r.fail(path, "a guard attempt needs the 'location' guarded")
        return ev.Guard(
            by=by(required=True, far_ok=True),
            location=people.place((*path, "location"), m["location"]),
            success=r.flag((*path, "success"), m["success"]) if "success" in m else True,
        )
    if kind == "damage":
        if "to" not in m:
            raise r.fail(path, "damage needs 'to': who takes it")
        to = m["to"]
        names = tuple(
            people.name((*path, "to", j) if isinstance(to, list) else (*path, "to"), n)
            for j, n in enumerate(to if isinstance(to, list) else [to])
        )
        if not names:
            raise r.fail((*path, "to"), "damage needs at least one character")
        return ev.Damage(
            to=names,
            amount=r.number((*path, "amount"), m["amount"], "an amount of damage") if "amount" in m else None,
            type=r.choice((*path, "type"), m["type"], DAMAGE_TYPES, "damage type") if "type" in m else "combat",
            source=r.text((*path, "source"), m["source"], "the damage's source") if "source" in m else None,
            check=check_ref(),
        )
    if kind == "effect":
        if "name" not in m:
            raise r.fail(path, "an effect needs its 'name'")
        return ev.Effect(r.text((*path, "name"), m["name"], "the effect's name"))
    raise AssertionError(kind)  # pragma: no cover - KINDS and the branches above agree
