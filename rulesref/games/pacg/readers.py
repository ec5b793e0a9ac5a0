"""Reading a PACG scenario's fields: typed values, every refusal at the field's line.

The shared field reader (rulesref.fields) reads every field and names what it holds
("expected the card's name, got a whole number 5"); this layer keeps the document at
hand, reads names in lists, and checks the characters and locations an event names
against the scenario's.

An event is declared once, in events.py: each dataclass field carries its YAML key and
its reader (``fact``), and ``read_declared`` reads any event by walking those fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from rulesref import fields
from rulesref.errors import RulesrefError, did_you_mean
from rulesref.source import Loaded, PathKey

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class Reader:
    """Typed access to the scenario, with errors at the right line."""

    def __init__(self, doc: Loaded) -> None:
        self.doc = doc

    def fail(self, path: PathKey, message: str, hint: str | None = None, key: bool = False) -> RulesrefError:
        return self.doc.error(path, message, hint=hint, key=key)

    def mapping(self, path: PathKey, value: Any, allowed: tuple[str, ...], what: str) -> dict[str, Any]:
        return fields.mapping(self.doc, path, value, allowed, what)

    def text(self, path: PathKey, value: Any, what: str, hint: str | None = None, key: bool = False) -> str:
        """A name or a check line: text, never a number YAML read from it (``2.5``, ``007``)."""
        return fields.text(self.doc, path, value, what, hint, key)

    def flag(self, path: PathKey, value: Any) -> bool:
        return fields.flag(self.doc, path, value)

    def number(self, path: PathKey, value: Any, what: str) -> int:
        return fields.count(self.doc, path, value, what=what)

    def names(self, path: PathKey, value: Any, what: str = "a character name") -> list[str]:
        """One name or a list of them (nothing: none)."""
        if value is None:
            return []
        items = value if isinstance(value, list) else [value]
        return [self.text((*path, i) if isinstance(value, list) else path, v, what) for i, v in enumerate(items)]

    def words(self, path: PathKey, value: Any, what: str) -> frozenset[str]:
        """``names``, lowercase."""
        return frozenset(name.lower() for name in self.names(path, value, what))

    def choice(self, path: PathKey, value: Any, options: tuple[str, ...], what: str) -> str:
        return fields.choice(self.doc, path, value, options, what)


class People:
    """Character and location names in events: checked against the scenario's, with did-you-mean."""

    def __init__(self, r: Reader, known: list[str], hero: str, distant_given: bool, places: list[str] | None) -> None:
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
        raise self.r.fail(path, f"unknown character {text!r}", hint=hint or listed)


@dataclass(frozen=True)
class EventFields:
    """The mapping of one event being read (``play: {...}``), and who and where it may name."""

    r: Reader
    people: People
    path: PathKey
    """Where the mapping is: ``("events", 3, "play")``."""
    kind: str
    m: Mapping[str, Any]

    def at(self, key: str) -> PathKey:
        return (*self.path, key)

    def fail(self, message: str, hint: str | None = None) -> RulesrefError:
        """The error to raise about the event as a whole."""
        return self.r.fail(self.path, message, hint=hint)

    def by(self) -> str:
        """Who makes the event: ``by``, else the encountering character."""
        return self.people.name(self.at("by"), self.m["by"]) if "by" in self.m else self.people.hero


FieldReader = Callable[[EventFields, str, Any], Any]
"""Reads the value written under one key of an event."""


def fact(
    read: FieldReader,
    *,
    key: str | None = None,
    required: str | None = None,
    hint: str | None = None,
    absent: Callable[[EventFields], Any] | None = None,
    default: Any = dataclasses.MISSING,
) -> Any:
    """Declare an event field: its YAML ``key`` (the field's name with dashes, if not given),
    its reader, and what stands when the key is left out: the ``required`` refusal (with
    ``hint``), checked before any field is read; ``absent(fields)``; or the field's ``default``."""
    meta = {"read": read, "key": key, "required": required, "hint": hint, "absent": absent}
    return dataclasses.field(default=default, metadata=meta)


def key_of(f: dataclasses.Field[Any]) -> str:
    """The YAML key of a declared field."""
    return f.metadata.get("key") or f.name.replace("_", "-")


def keys(cls: type) -> tuple[str, ...]:
    """Every key an event of this class may hold, in declaration order."""
    return (*(key_of(f) for f in dataclasses.fields(cls)), *getattr(cls, "EXTRA_KEYS", ()))


def declared(cls: type) -> bool:
    """Whether the class is written as a mapping of declared fields (else as one value, ``scalar``)."""
    return any("read" in f.metadata for f in dataclasses.fields(cls))


E = TypeVar("E", bound="DataclassInstance")


def read_declared(f: EventFields, cls: type[E]) -> E:
    """Read one event mapping into ``cls``: required keys first, then each field in order."""
    declared_fields = dataclasses.fields(cls)
    for d in declared_fields:
        if d.metadata.get("required") and key_of(d) not in f.m:
            raise f.fail(d.metadata["required"], hint=d.metadata.get("hint"))
    values: dict[str, Any] = {}
    for d in declared_fields:
        key = key_of(d)
        if key in f.m:
            values[d.name] = d.metadata["read"](f, key, f.m[key])
        elif d.metadata.get("absent") is not None:
            values[d.name] = d.metadata["absent"](f)
    settle: Callable[[EventFields, dict[str, Any]], dict[str, Any]] | None = getattr(cls, "settle", None)
    if settle is not None:
        values = settle(f, values)
    return cls(**values)


# --- the readers fields are declared with ------------------------------------------


def person(*, far_ok: bool = False) -> FieldReader:
    """A character named in the scenario (``far_ok``: or one at a distant location it does not list)."""
    return lambda f, key, value: f.people.name(f.at(key), value, far_ok=far_ok)


def place(f: EventFields, key: str, value: Any) -> str:
    """A location the scenario names."""
    return f.people.place(f.at(key), value)


def text(what: str) -> FieldReader:
    """Text, its spaces made single; ``what`` says what it names."""
    return lambda f, key, value: f.r.text(f.at(key), value, what)


def flag(f: EventFields, key: str, value: Any) -> bool:
    """true or false."""
    return f.r.flag(f.at(key), value)


def number(what: str) -> FieldReader:
    """A whole number, 0 or more."""
    return lambda f, key, value: f.r.number(f.at(key), value, what)


def words(what: str) -> FieldReader:
    """One word or a list of them, lowercase."""
    return lambda f, key, value: f.r.words(f.at(key), value, what)


def choice(options: tuple[str, ...], what: str, spelled: Mapping[str, str] | None = None) -> FieldReader:
    """One of ``options``; ``spelled`` maps another spelling to the option it means."""
    both = (*options, *(spelled or {}))
    return lambda f, key, value: (spelled or {}).get(word := f.r.choice(f.at(key), value, both, what), word)


def check_ref(f: EventFields, key: str, value: Any) -> str | int | None:
    """Which check: its place in the chain (1, 2, ...) or its text."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise f.r.fail(f.at(key), "check numbers count from 1")
        return value
    return f.r.text(f.at(key), value, "a check, e.g. 'Combat 10' or 2", hint="a check's place (1, 2, ...) or its text")
