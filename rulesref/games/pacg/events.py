"""What a scenario says happened during the encounter: one event per line, each in a step.

Each event is declared once: a dataclass whose fields carry their YAML key and reader
(``fact``, readers.py). ``settle`` holds what spans several keys of one event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesref.games.pacg.cards import BOON_TYPES, DAMAGE_TYPES
from rulesref.games.pacg.readers import (
    EventFields,
    check_ref,
    choice,
    fact,
    flag,
    number,
    person,
    place,
    text,
    words,
)
from rulesref.games.pacg.steps import EncounterStep
from rulesref.source import PathKey

PURPOSES = ("check", "damage", "heal", "explore", "other")
"""What a play or power is for; heal and explore never fit an encounter step."""
VERBS = ("reveal", "display", "discard", "recharge", "reload", "bury", "banish")
STATUSES = ("acquired", "defeated", "undefeated")


def _hero(f: EventFields) -> str:
    return f.people.hero


def _by() -> Any:
    """Who makes the event; the encountering character when not written."""
    return fact(person(), absent=_hero)


def _check() -> Any:
    """Which check it concerns, when the step has more than one."""
    return fact(check_ref, default=None)


def _must_say_who(f: EventFields) -> str:
    """Who avenges or guards is never taken to be the encountering character."""
    raise f.fail(f"missing required key 'by': who makes this {f.kind}")


def _reduces(f: EventFields, key: str, value: Any) -> str:
    return f.by() if value is True else f.people.name(f.at(key), value)


@dataclass(frozen=True)
class Play:
    """A boon played (by any character) for one of its powers."""

    by: str = _by()
    card: str = fact(
        text("the card's name"),
        required="a play needs the 'card' played",
        hint="e.g. play: {by: Amiri, card: Longsword, type: weapon}",
    )
    type: str = fact(
        choice(BOON_TYPES, "boon type", {"armour": "armor"}),
        required="a play needs the boon 'type' (weapon, spell, armor, item, ally, blessing)",
        hint="the party's limit counts one boon of each type",
    )
    """Its boon type: the party limit counts one of each type."""
    traits: frozenset[str] = fact(words("a trait"), default=frozenset())
    freely: bool = fact(flag, default=False)
    """Played freely: outside the party's type limit (play.played-freely)."""
    purpose: str = fact(choice(PURPOSES, "purpose"), key="for", default="check")
    """What it is played for: ``check``, ``damage``, ``heal``, ``explore`` or ``other``."""
    reduces: str | None = fact(_reduces, default=None)
    """For damage: whose damage it reduces."""
    damage_type: str | None = fact(choice(DAMAGE_TYPES, "damage type"), default=None)
    """For damage: the only damage type it can reduce (None: any)."""
    check: str | int | None = _check()
    """Which check it is played on, when the step has more than one."""
    ignores_immunity: bool = fact(flag, default=False)
    combat_only: bool = fact(flag, default=False)
    how: str | None = fact(choice(VERBS, "verb"), default=None)
    """The verb of the play (reveal, discard, recharge...); ``reveal`` keeps the card in hand."""
    again: bool = fact(flag, default=False)
    """The card itself allows another use after it was revealed (like Daggers)."""

    @staticmethod
    def settle(f: EventFields, values: dict[str, Any]) -> dict[str, Any]:
        """A play that reduces damage is for damage; one for damage reduces its player's."""
        reduces = values.get("reduces")
        purpose = values.setdefault("purpose", "damage" if reduces else "check")
        if purpose == "damage" and reduces is None:
            values["reduces"] = values["by"]
        return values


@dataclass(frozen=True)
class Power:
    """A character's (or a displayed card's) power used."""

    by: str = _by()
    power: str = fact(
        text("the power's name"),
        required="a power event needs the 'power' used",
        hint="e.g. power: {by: Sajan, power: extra blessing}",
    )
    triggered: bool = fact(flag, default=False)
    """Tied to a specific event, so usable each time it happens (encounter.power-frequency)."""
    freely: bool = fact(flag, default=False)
    adds: frozenset[str] = fact(words("a trait"), default=frozenset())
    """Traits it adds to the check (encounter.immunity)."""
    ignores_immunity: bool = fact(flag, default=False)
    """It removes or ignores the card's immunity, for itself and everything after it."""
    combat_only: bool = fact(flag, default=False)
    purpose: str = fact(choice(PURPOSES, "purpose"), key="for", default="other")
    """What it is used for; a power says so only when it matters (``heal``, ``explore``, ``check``)."""
    check: str | int | None = _check()


@dataclass(frozen=True)
class Result:
    """A check attempted, and how it came out."""

    by: str = _by()
    check: str | int | None = _check()
    """Which check of the chain (or a side check's name); None: the check in progress."""
    total: int | None = fact(number("the check's total"), default=None)
    success: bool | None = fact(flag, default=None)
    difficulty: int | None = fact(number("a difficulty"), default=None)
    """The difficulty after adjustments, when it differs from the printed one."""
    chose_fail: bool = fact(flag, default=False)
    reroll: bool = fact(flag, default=False)
    """A reroll of the same check (a hero point, check.hero-point)."""
    side: bool = fact(flag, default=False)
    """A check that can affect the check to acquire or defeat (encounter.side-checks-first)."""

    @staticmethod
    def settle(f: EventFields, values: dict[str, Any]) -> dict[str, Any]:
        """Choosing to fail makes the result 0; otherwise the total or the success must be given."""
        total, success = values.get("total"), values.get("success")
        if values.get("chose_fail"):
            if success is True or (total not in (None, 0)):
                raise f.r.fail(f.at("chose-fail"), "a character who chooses to fail has a result of 0 and fails")
            values["total"], values["success"] = 0, False
        elif total is None and success is None:
            raise f.fail(
                "a result needs 'total' (the check's result) or 'success' (true/false)",
                hint="e.g. result: {by: Amiri, check: Combat 10, total: 12}",
            )
        return values


@dataclass(frozen=True)
class Skip:
    """A check of the chain left unattempted."""

    by: str = _by()
    check: str | int | None = _check()


@dataclass(frozen=True)
class Evade:
    """An attempt to evade the card."""

    by: str = _by()
    card: str | None = fact(text("a card name"), default=None)
    late: bool = fact(flag, default=False)
    """The card used names a later moment, such as 'after you fail to defeat'."""


@dataclass(frozen=True)
class Move:
    """A character is moved (by some effect) during the encounter."""

    by: str = fact(person(far_ok=True), absent=_hero)
    to: str | None = fact(text("a location name"), default=None)


@dataclass(frozen=True)
class EndTurn:
    """The turn is forced to end: the turn of the character who first encountered the card,
    also when it happens in an avenger's encounter (no source gives the avenger a turn)."""

    by: str | None = fact(person(), default=None)

    EXTRA_KEYS = ("forced",)
    WHAT = "end-turn"

    @staticmethod
    def scalar(f: EventFields, raw: Any) -> EndTurn:
        """``end-turn: forced`` (or ``true``): the only end of turn that happens mid-encounter."""
        if raw is True or (isinstance(raw, str) and raw.strip().lower() == "forced"):
            return EndTurn()
        raise f.fail(f"expected 'forced' (or a mapping with by), got {raw!r}")

    @staticmethod
    def settle(f: EventFields, values: dict[str, Any]) -> dict[str, Any]:
        if "forced" in f.m and f.r.flag(f.at("forced"), f.m["forced"]) is False:
            raise f.r.fail(f.at("forced"), "only a forced end of turn can happen in the middle of an encounter")
        return values


def _bury(f: EventFields, key: str, value: Any) -> str | None:
    if value is True:
        return "a card"
    return None if value in (None, False) else f.r.text(f.at(key), value, "the buried card's name")


@dataclass(frozen=True)
class Avenge:
    """Another local character avenges the undefeated bane."""

    by: str = fact(person(), absent=_must_say_who)
    bury: str | None = fact(_bury, default=None)
    """The card buried to do it; None when the scenario names none."""


@dataclass(frozen=True)
class Guard:
    """A character at a distant location tries to guard it."""

    by: str = fact(person(far_ok=True), absent=_must_say_who)
    location: str = fact(place, required="a guard attempt needs the 'location' guarded")
    success: bool = fact(flag, default=True)


def _targets(f: EventFields, key: str, value: Any) -> tuple[str, ...]:
    many = isinstance(value, list)
    names = tuple(
        f.people.name(f.at(key) + ((j,) if many else ()), n) for j, n in enumerate(value if many else [value])
    )
    if not names:
        raise f.r.fail(f.at(key), "damage needs at least one character")
    return names


@dataclass(frozen=True)
class Damage:
    """Damage dealt by the card (or an effect), to one or more characters."""

    to: tuple[str, ...] = fact(_targets, required="damage needs 'to': who takes it")
    # only a failed check against a monster deals Combat unless the card says otherwise
    # (check.damage): other damage has the type its effect gives, which the scenario must say
    type: str = fact(
        choice(DAMAGE_TYPES, "damage type"),
        required="damage needs its 'type', as the effect dealing it gives it",
        hint="e.g. type: combat, fire, mental, poison",
    )
    amount: int | None = fact(number("an amount of damage"), default=None)
    source: str | None = fact(text("the damage's source"), default=None)
    check: str | int | None = _check()


@dataclass(frozen=True)
class Effect:
    """Some card, location or scenario effect happening (not a play)."""

    name: str = fact(text("the effect's name"), required="an effect needs its 'name'")

    @staticmethod
    def scalar(f: EventFields, raw: Any) -> Effect:
        """``effect: Its name``."""
        return Effect(f.r.text(f.path, raw, "the effect's name"))


@dataclass(frozen=True)
class Status:
    """An effect makes the card acquired, defeated or undefeated partway through."""

    becomes: str

    @staticmethod
    def scalar(f: EventFields, raw: Any) -> Status:
        """``status: defeated``: only ever written as one word."""
        return Status(f.r.choice(f.path, raw, STATUSES, "status"))


Action = Play | Power | Result | Skip | Evade | Move | EndTurn | Avenge | Guard | Damage | Effect | Status
KINDS: dict[str, type[Action]] = {
    "play": Play,
    "power": Power,
    "result": Result,
    "skip": Skip,
    "evade": Evade,
    "move": Move,
    "end-turn": EndTurn,
    "avenge": Avenge,
    "guard": Guard,
    "damage": Damage,
    "effect": Effect,
    "status": Status,
}
"""Event keys as scenarios write them."""


@dataclass(frozen=True)
class Event:
    """One event of the scenario, tagged with its step."""

    index: int
    """Position in ``events``, 0-based."""
    step: EncounterStep
    kind: str
    """One of KINDS."""
    action: Action
    path: PathKey
    """Where it is in the file, for messages."""

    @property
    def number(self) -> int:
        """1-based, as people count."""
        return self.index + 1
