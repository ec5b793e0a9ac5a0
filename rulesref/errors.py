"""Errors a user can cause: malformed files, unknown names, unreadable situations.

An *illegal* move is not an error: it is a Ruling with verdict ``illegal``. Everything
here means "I could not read what you gave me", and the CLI turns it into one line
and exit code 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from rulesref.text import visible


class RulesrefError(ValueError):
    """Bad input, named by where it is: file, line, column and field path."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.hint = hint

    def __reduce__(self) -> tuple[object, ...]:
        # pickled whole (file, line, field...) so `check` can rule in worker processes
        fields = {"file": self.file, "line": self.line, "column": self.column, "field": self.field, "hint": self.hint}
        return (_rebuild, (type(self), self.message, fields))

    def to_json(self) -> dict[str, object]:
        """Where, and what is wrong, as `check --json` reports an unreadable file (docs/json.md)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "field": self.field,
            "message": self.message + (f"; {self.hint}" if self.hint else ""),
        }

    def where(self) -> str:
        """``file:line:col`` as far as it is known."""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        # one line, of a length a terminal can show, however long the input it quotes; a file
        # name or id may hold a terminal escape or a line break: show it, never let it act
        where = f"{visible(shorten(self.where(), 300))}: " if self.file else ""
        text = f"{shorten(self.field, 120)}: " if self.field else ""
        text += shorten(self.message, 400)
        if self.hint:
            text += f"; {shorten(self.hint, 200)}"
        # a message may run over lines (a YAML parser's); the line stays one line
        return where + visible(" ".join(text.splitlines()))


class CorpusError(RulesrefError):
    """A rule file (rules/<game>/) that cannot be read or does not validate."""


class ScenarioError(RulesrefError):
    """A scenario file that cannot be read: bad YAML, unknown key, impossible situation."""


class UnknownNameError(RulesrefError):
    """A game, clause, reading or option id that does not exist."""


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a near-miss name, or None."""
    # as text: a file's keys may mix words and numbers, which do not sort together
    close = difflib.get_close_matches(str(word), sorted({str(c) for c in choices}), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to about ``limit`` characters, keeping its start and end, so a message stays a line."""
    if len(text) <= limit:
        return text
    keep = max(limit - 1, 2)
    return text[: keep - keep // 3] + "…" + text[len(text) - keep // 3 :]


def _rebuild(cls: type[RulesrefError], message: str, fields: dict[str, object]) -> RulesrefError:
    return cls(message, **fields)  # type: ignore[arg-type]
