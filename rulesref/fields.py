"""The one field reader: a mapping of a loaded YAML document read field by field.

Everything rulesref reads from a file (a rule pack, a scenario's envelope, a game's
situation) goes through here, so every refusal is made the same way: one line naming
the file, the line and the field, and for an unknown key a near-miss "did you mean".

``Fields(doc, path, allowed)``
    the mapping at ``path``: unknown keys refused, required keys demanded; then
    ``text``, ``words``, ``count``, ``flag``... read one key each.
``mapping(doc, path, value, allowed, what=None)``
    a value that must be a mapping (or nothing, unless it is ``what``) with only the
    ``allowed`` keys.
``text``, ``count``, ``choice``, ``flag``, ``refuse_unknown_keys``, ``kind``
    the single checks, for readers that walk a value of their own shape; ``what`` names
    what the field holds (``expected the card's name, got a whole number 5``).

A reader passes ``cls`` (CorpusError for a rule pack); scenarios get ScenarioError.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulesref.errors import RulesrefError, ScenarioError, did_you_mean

if TYPE_CHECKING:  # the YAML reader itself is not needed to read what it loaded
    from rulesref.source import Loaded, PathKey


_KINDS = {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a whole number", float: "a number"}


def kind(value: Any) -> str:
    """What a value is, in words: ``a mapping``, ``a list``, ``text``, ``a whole number``, ``nothing``..."""
    if value is None:
        return "nothing"
    return _KINDS.get(type(value), type(value).__name__)


def refuse_unknown_keys(
    doc: Loaded,
    path: PathKey,
    value: Mapping[Any, Any],
    allowed: Sequence[str] | Mapping[str, Any],
    *,
    what: str | None = None,
    keys: str | None = None,
    cls: type[RulesrefError] = ScenarioError,
) -> None:
    """Name the first key of ``value`` not in ``allowed``: a near miss, else the keys allowed.

    ``what`` ends the message (``unknown key 'x' in a power event``); ``keys`` labels the
    list offered when no near miss exists (``board keys: grid, walls, ...``).
    """
    for key in value:
        if key not in allowed:
            listed = f"{keys}: {', '.join(allowed)}" if keys else None
            raise doc.error(
                (*path, key),
                f"unknown key {key!r}" + (f" in {what}" if what else ""),
                key=True,
                hint=did_you_mean(str(key), allowed) or listed,
                cls=cls,
            )


def mapping(doc: Loaded, path: PathKey, value: Any, allowed: Sequence[str], what: str | None = None) -> dict[str, Any]:
    """``value`` as a mapping with only ``allowed`` keys; nothing reads as an empty mapping.

    With ``what`` (``a check``) the value must be there, and every refusal names it."""
    if value is None and what is None:
        return {}
    if not isinstance(value, dict):
        if what is None:
            raise doc.error(path, f"expected a mapping with some of: {', '.join(allowed)}")
        raise doc.error(path, f"expected a mapping for {what}, got {kind(value)}", hint=f"keys: {', '.join(allowed)}")
    refuse_unknown_keys(doc, path, value, allowed, what=what, keys="keys" if what else None)
    return value


def count(doc: Loaded, path: PathKey, value: Any, top: int | None = None, what: str | None = None) -> int:
    """A whole number >= 0 (and <= top), or a ScenarioError at that field (naming ``what`` it counts)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        said = f"{what} (a whole number, 0 or more)" if what else "a whole number 0 or more"
        raise doc.error(path, f"expected {said}, got {value!r}")
    if top is not None and value > top:
        raise doc.error(path, f"expected at most {top}, got {value!r}")
    return value


def text(doc: Loaded, path: PathKey, value: Any, what: str, hint: str | None = None, key: bool = False) -> str:
    """A name or a line of text, its spaces made single: never a number YAML read from it.

    ``hint`` (the names that fit, where there is a list of them) follows the refusal of a
    number; ``key`` is for a name written as a mapping key.
    """
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        raise doc.error(path, f"expected {what}, got {kind(value)}", key=key)
    if not isinstance(value, str):
        # A number is no name (`character: 2.5`): refused, not turned back into text, which
        # may not be what was typed (YAML reads 2.50 as 2.5).
        hint = hint or "write it in quotes if it really is text"
        raise doc.error(path, f"expected {what}, got {kind(value)} {value!r}", hint=hint, key=key)
    words = " ".join(value.split())
    if not words:
        raise doc.error(path, f"expected {what}, got empty text", key=key)
    return words


def choice(doc: Loaded, path: PathKey, value: Any, options: Sequence[str], what: str) -> str:
    """One of ``options`` (lowercase), or an error at the field offering the nearest."""
    listed = f"one of: {', '.join(options)}"
    word = text(doc, path, value, what, hint=listed).lower()
    if word not in options:
        raise doc.error(path, f"unknown {what} {value!r}", hint=did_you_mean(word, options) or listed)
    return word


def flag(doc: Loaded, path: PathKey, value: Any) -> bool:
    """true or false, or a ScenarioError at that field."""
    if not isinstance(value, bool):
        raise doc.error(path, f"expected true or false, got {value!r}")
    return value


class Fields:
    """One mapping of a loaded document, read key by key; every error at the key's line.

    ``allowed`` maps each key to whether it is required. The mapping is found by
    following ``path`` from the document's top.
    """

    def __init__(
        self, doc: Loaded, path: PathKey, allowed: Mapping[str, bool], *, cls: type[RulesrefError] = ScenarioError
    ) -> None:
        self.doc, self.path, self.cls = doc, path, cls
        value: Any = doc.data
        for part in path:
            value = value[part]
        if not isinstance(value, dict):
            raise doc.error(path, f"expected a mapping, got {kind(value)}", cls=cls)
        self.value: dict[str, Any] = value
        refuse_unknown_keys(doc, path, value, allowed, cls=cls)
        for key, required in allowed.items():
            if required and key not in value:
                raise doc.error(path, f"missing required key {key!r}", cls=cls)

    def get(self, key: str, default: Any = None) -> Any:
        """The value as written (None when absent)."""
        return self.value.get(key, default)

    def fail(self, key: str | int, message: str, hint: str | None = None) -> RulesrefError:
        """The error to raise about ``key``."""
        return self.doc.error((*self.path, key), message, hint=hint, cls=self.cls)

    def text(self, key: str, default: str | None = None) -> str:
        """Non-empty text, its runs of white space made single spaces."""
        value = self.value.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected non-empty text, got {kind(value)}")
        return " ".join(value.split())

    def maybe_text(self, key: str) -> str | None:
        """``text``, or None when the key is absent or empty."""
        return self.text(key) if key in self.value and self.value[key] is not None else None

    def words(self, key: str) -> tuple[str, ...]:
        """A list of non-empty texts (absent: none)."""
        value = self.value.get(key, [])
        if value is None:
            value = []
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, got {kind(value)}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise self.doc.error((*self.path, key, i), "expected non-empty text", cls=self.cls)
            out.append(" ".join(item.split()))
        return tuple(out)

    def refs(self, key: str) -> tuple[str, ...]:
        """One text or a list of them (a clause's ``source:``)."""
        if isinstance(self.value.get(key), str):
            return (self.text(key),)
        return self.words(key)

    def pages(self, key: str) -> tuple[int, ...]:
        """A non-empty list of page numbers (1 or more)."""
        value = self.value.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(key, "expected a non-empty list of page numbers")
        for i, page in enumerate(value):
            if not isinstance(page, int) or isinstance(page, bool) or page < 1:
                raise self.doc.error((*self.path, key, i), f"expected a page number, got {page!r}", cls=self.cls)
        return tuple(value)

    def count(self, key: str, default: int = 0, top: int | None = None) -> int:
        """A whole number >= 0 (and <= top); ``default`` when absent."""
        return count(self.doc, (*self.path, key), self.value.get(key, default), top)

    def flag(self, key: str, default: bool = False) -> bool:
        """true or false; ``default`` when absent."""
        return flag(self.doc, (*self.path, key), self.value.get(key, default))

    def line(self) -> int:
        """The line the mapping starts on."""
        return self.doc.mark(self.path)[0] or 0
