"""Text from files, names and arguments made safe to show on a terminal.

Everything rulesref shows comes from something it read: a file name, a scenario's
title, a clause in a rule pack, a question. A terminal acts on some characters instead
of showing them: ESC starts a sequence that can clear the screen, set the window title
or plant a hyperlink; C1 controls do the same on some terminals; bidi controls reorder
what is shown, so a name can read as something else. ``visible`` writes each one as an
escape a person can read (``\\x1b``, ``\\u202e``), and nothing else changes. This
module is plain Python: `render` adds rich's markup rules on top, the error lines use it
as it is. ``whole_number`` reads a number typed or sent the one strict way every front end
uses (a width, a page, a count).
"""

from __future__ import annotations

import re

_ACTIVE = re.compile(
    "["
    "\x00-\x1f\x7f-\x9f"  # C0 controls (NUL, ESC, newline...), DEL and C1 controls
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators: a line break to some readers
    "\ud800-\udfff"  # lone surrogates: bytes of a file name that were not UTF-8
    "]"
)
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with every character that could act on a terminal shown as an escape.

    ``keep`` lists characters that stay as they are: ``"\\n"`` where the text is meant to
    run over several lines (a clause's body), never for a name or a title.
    """
    return _ACTIVE.sub(lambda m: m.group() if m.group() in keep else _escape(m.group()), text)


def _escape(char: str) -> str:
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # the byte that Python's file-name decoding kept
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def whole_number(text: str, most: int) -> int | None:
    """``text`` as a whole number when it is ASCII digits, at most ``most`` of them; else None.

    Not ``int()`` alone, which reads '٣' and ' 7 ' and takes a while over 5,000 digits, nor
    ``str.isdigit()`` alone, which accepts '²': a number typed or sent is digits 0-9.
    """
    return int(text) if text.isascii() and text.isdigit() and len(text) <= most else None


def cells(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide (East Asian) character two, a combining
    mark none, any other one. Enough to lay out lines without rich (plain output, pipes)."""
    if text.isascii() or all(" " <= ch < "\u0300" for ch in text):  # Latin text (·, é): one column each
        return len(text)
    import unicodedata

    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text
    )


def indefinite(word: str) -> str:
    """``word`` with its article: "an armor", "an ally", "a weapon" (by its first letter)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
