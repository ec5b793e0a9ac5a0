"""Strict YAML reading with a source map, so every error can name file, line and field.

PyYAML's ``safe_load`` forgets where values came from, lets a duplicate key win
silently, and its composer expands whatever the file asks for. Here the parser's event
stream is built into plain Python values by hand: each value is bounded *as it is read*
(nesting depth, values counted with every alias use), so a hostile file is refused
after a few events instead of after the parser has recursed or the aliases have
expanded. Tags beyond plain YAML values are refused, never constructed. The position of
every value is kept by its field path.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulesref.errors import RulesrefError, ScenarioError, shorten

try:  # the C parser is several times faster; fall back where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 1_000_000
"""Larger files are refused before parsing: no rule or scenario file is near this."""
MAX_DEPTH = 40
"""Deeper nesting than this is refused: no real file needs it."""
MAX_NODES = 50_000
"""Keys and values read, aliases counted each time they are used: stops alias bombs.

The largest shipped file holds under 800; a full megabyte of clause files like the
shipped ones would hold about 40,000. At this limit the worst file is refused in about
half a second.
"""

PathKey = tuple[str | int, ...]

_YAML = "tag:yaml.org,2002:"
# Explicit tags a hand-written file may use to say "this is text" and the like; every
# other tag (!!python/object, !!binary, !!set, !custom) is refused, never constructed.
_PLAIN_TAGS = {"!", *(_YAML + t for t in ("str", "int", "float", "bool", "null", "seq", "map"))}
_KINDS = {
    _YAML + "int": "a whole number (at most 4,300 digits)",
    _YAML + "float": "a number",
    _YAML + "bool": "true or false",
}
_resolver = yaml.resolver.Resolver()
_scalars = yaml.constructor.SafeConstructor()

# Characters YAML does not allow in a document (YAML 1.1 'printable'); found here first so
# the message can name the line and column and the character.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_FILE_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def field_name(path: PathKey) -> str:
    """``('pawns', 'g1', 'at')`` -> ``pawns.g1.at``; list items as ``moves[0]``.

    Very deep paths keep their first and last parts, so a message stays one line.
    """
    parts = list(path)
    if len(parts) > 12:
        return f"{_join(parts[:5])}…{_join(parts[-5:])}"
    return _join(parts)


def _join(parts: list[str | int]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + shorten(str(part), 40)
    return text


@dataclass(frozen=True)
class Loaded:
    """A YAML document's value and where each part of it stands in the file."""

    data: Any
    """The plain value: dicts, lists, str, int, float, bool, None."""
    file: str
    """The file name as the user gave it."""
    marks: dict[PathKey, tuple[int, int]] = field(repr=False)
    """Field path -> (line, column), both 1-based."""
    key_marks: dict[PathKey, tuple[int, int]] = field(repr=False)
    """Field path -> where its key is written (for unknown-key errors)."""

    def mark(self, path: PathKey, *, key: bool = False) -> tuple[int | None, int | None]:
        """The position of ``path``, or of its nearest ancestor that has one."""
        table = self.key_marks if key else self.marks
        probe = tuple(path)
        while True:
            if probe in table:
                return table[probe]
            if key and probe in self.marks:
                return self.marks[probe]
            if not probe:
                return (None, None)
            probe = probe[:-1]

    def error(
        self,
        path: PathKey,
        message: str,
        *,
        hint: str | None = None,
        key: bool = False,
        cls: type[RulesrefError] = ScenarioError,
    ) -> RulesrefError:
        """An error naming this file, the line of ``path`` and the field."""
        line, column = self.mark(path, key=key)
        return cls(
            message,
            file=self.file,
            line=line,
            column=column,
            field=field_name(path) or None,
            hint=hint,
        )


# --- bytes and text ------------------------------------------------------------------


def read_bytes(path: Path, *, display: str | None = None, cls: type[RulesrefError] = ScenarioError) -> bytes:
    """A regular file's bytes, at most MAX_BYTES; anything else is refused with a clear message.

    The file is opened non-blocking and checked with fstat before reading, so a FIFO or a
    device named like a YAML file is refused instead of waited on forever.
    """
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _open_error(path, name, exc, cls) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise cls("is a folder, not a file", file=name)
        for test, kind in _FILE_KINDS:
            if test(info.st_mode):
                raise cls(f"is {kind}, not a regular file", file=name)
        if info.st_size > MAX_BYTES:
            raise cls(f"file is {info.st_size:,} bytes; the limit is {MAX_BYTES:,}", file=name)
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:  # read to the limit, not to st_size: the file may be growing
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise cls(f"file is over {MAX_BYTES:,} bytes, the limit", file=name)
        return b"".join(chunks)
    except OSError as exc:
        raise cls(f"cannot read the file: {exc.strerror or exc}", file=name) from None
    finally:
        os.close(fd)


def _open_error(path: Path, name: str, exc: OSError, cls: type[RulesrefError]) -> RulesrefError:
    if exc.errno == errno.ELOOP:
        return cls("is a symbolic link loop", file=name)
    if exc.errno == errno.ENOENT:
        if path.is_symlink():
            return cls(f"is a broken symbolic link (to {shorten(os.readlink(path), 80)!r})", file=name)
        return cls("no such file", file=name)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return cls("cannot read the file: permission denied", file=name)
    if exc.errno == errno.ENOTDIR:
        return cls("no such file (a part of the path is not a folder)", file=name)
    if exc.errno == errno.ENAMETOOLONG:
        return cls("the file name is too long", file=name)
    return cls(f"cannot read the file: {exc.strerror or exc}", file=name)


def decode(raw: bytes, *, name: str, cls: type[RulesrefError] = ScenarioError) -> str:
    """UTF-8 text from a file's bytes, or a message saying what the file is instead."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            raise cls(f"file is {encoding} text; save it as UTF-8", file=name)
    nul = raw.find(b"\x00")
    if nul >= 0:
        if _looks_like_utf16(raw):
            raise cls("file looks like UTF-16 text; save it as UTF-8", file=name)
        line, column = _position(raw, nul)
        raise cls("binary file, not YAML text (a NUL byte)", file=name, line=line, column=column)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte-order mark is harmless: Windows editors add it, so it is accepted
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(raw, exc.start)
        raise cls(
            f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
            file=name,
            line=line,
            column=column,
        ) from None


def _looks_like_utf16(raw: bytes) -> bool:
    # ASCII-heavy UTF-16 without a BOM: every other byte is NUL
    sample = raw[:200]
    return len(sample) >= 4 and (sample[1::2].count(0) > len(sample) // 3 or sample[0::2].count(0) > len(sample) // 3)


def _position(raw: bytes, index: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, index) + 1
    column = len(raw[line_start:index].decode("utf-8", errors="replace")) + 1
    return raw.count(b"\n", 0, index) + 1, column


def read_text(path: Path, *, display: str | None = None, cls: type[RulesrefError] = ScenarioError) -> str:
    """A file's text, refusing what is not a small UTF-8 text file, with a clear message."""
    name = display or str(path)
    return decode(read_bytes(path, display=name, cls=cls), name=name, cls=cls)


# --- YAML ------------------------------------------------------------------------------


def load_yaml(
    path: Path,
    *,
    display: str | None = None,
    cls: type[RulesrefError] = ScenarioError,
    text: str | None = None,
) -> Loaded:
    """Read one YAML document strictly. Raises ``cls`` (a RulesrefError) on any problem."""
    name = display or str(path)
    if text is None:
        text = read_text(path, display=name, cls=cls)
    if not text.strip():
        raise cls("file is empty", file=name)
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        line, column = _text_position(text, bad.start())
        what = "a NUL character" if bad.group() == "\x00" else f"control character U+{ord(bad.group()):04X}"
        raise cls(f"{what} is not allowed in YAML text", file=name, line=line, column=column)
    builder = _Builder(name, cls, text)
    try:
        data = builder.run(yaml.parse(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" in (exc.problem or "") and exc.problem_mark is not None:
            raise _too_deep(text, exc.problem_mark, name, cls) from None
        raise _syntax_error(exc, text, name, cls) from None
    except yaml.YAMLError as exc:
        raise cls(f"not valid YAML: {shorten(str(exc).splitlines()[0], 200)}", file=name) from None
    return Loaded(data, name, builder.marks, builder.key_marks)


def _too_deep(text: str, mark: Any, name: str, cls: type[RulesrefError]) -> RulesrefError:
    """libyaml >= 0.2.5 refuses 1,000 open brackets while it scans ahead, before the builder
    sees level 41: reading the text up to there gives the builder's own message, the same as
    with an older libyaml."""
    try:
        _Builder(name, cls, text).run(yaml.parse(text[: mark.index], Loader=_Loader))
    except RulesrefError as exc:
        return exc
    except yaml.YAMLError:
        pass
    return cls(f"nested deeper than {MAX_DEPTH} levels", file=name, line=mark.line + 1, column=mark.column + 1)


def _text_position(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


# libyaml's own wording, and what it usually means in a hand-written file
_COLON = "a ': ' where it cannot start a value; quote text that holds ': '"
_PROBLEMS = {
    "mapping values are not allowed here": _COLON,
    "mapping values are not allowed in this context": _COLON,
    "did not find expected key": "the indentation does not match the lines above",
    "did not find expected '-' indicator": "the indentation does not match the list above",
    "did not find expected <document start>": "more text after the document ended (an extra ']' or '}'?)",
}
_JARGON = {"scalar": "value", "flow sequence": "list", "flow mapping": "mapping", "block mapping": "mapping"}


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, name: str, cls: type[RulesrefError]) -> RulesrefError:
    mark = exc.problem_mark or exc.context_mark
    opened = exc.context_mark
    problem = (exc.problem or exc.context or "not valid YAML").strip()
    context = (exc.context or "").strip()
    for word, plain in _JARGON.items():
        context = context.replace(word, plain)
    if mark is not None and _tab_indented(text, mark.line):
        problem = "a tab is used for indentation; YAML needs spaces"
    elif "unexpected end of stream" in problem and opened is not None:
        # an unclosed quote: where it was opened is what the user needs
        mark = opened
        problem = f"{context.replace('while scanning ', '')} is never closed"
    elif problem.startswith("did not find expected ',' or") and opened is not None:
        kind = "list" if problem.endswith("']'") else "mapping"
        wanted = problem.replace("did not find expected ", "")
        problem = f"expected {wanted} in the {kind} opened at line {opened.line + 1}, column {opened.column + 1}"
    elif problem == "could not find expected ':'" and opened is not None:
        mark = opened  # the line that lacks its ':' is where the key started
        problem = "a line inside a mapping that is not 'key: value' (no ':' found)"
    elif problem.startswith("found character that cannot start any token") and mark is not None:
        char = _char_at(text, mark.line, mark.column)
        problem = f"{char!r} cannot start a value; put the value in quotes"
    elif problem.startswith("mapping values are not allowed") and mark is not None and mark.column >= 1024:
        problem = "a key longer than 1,024 characters; YAML does not allow keys that long"
    elif problem in _PROBLEMS:
        problem = f"{_PROBLEMS[problem]} ({problem})"
    elif context and problem.startswith(("found", "did not", "expected", "could not")):
        problem = f"{problem} {context}"
    return cls(
        f"not valid YAML: {shorten(problem, 200)}",
        file=name,
        line=mark.line + 1 if mark else None,
        column=mark.column + 1 if mark else None,
    )


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    row = lines[line] if 0 <= line < len(lines) else ""
    return row[column] if 0 <= column < len(row) else "?"


def _tab_indented(text: str, line: int) -> bool:
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return False
    row = lines[line]
    return "\t" in row[: len(row) - len(row.lstrip())]


def _tag(tag: str) -> str:
    return "!!" + tag[len(_YAML) :] if tag.startswith(_YAML) else tag


@dataclass
class _Open:
    """A mapping or sequence being read, with the bookkeeping to finish it."""

    value: dict[Any, Any] | list[Any]
    path: PathKey
    anchor: str | None
    count: int
    """The builder's value count when it started: its size is the difference at the end."""
    log_from: int
    """For an anchored value: where its subtree's marks start in the builder's log."""
    key: str | int | None = None
    """For a mapping: the key just read, waiting for its value."""
    has_key: bool = False
    seen: set[str] = field(default_factory=set)
    """For a mapping: its keys as text (1 and '1' print alike in JSON, so they clash)."""


@dataclass
class _Anchor:
    value: Any
    size: int
    marks: list[tuple[bool, PathKey, tuple[int, int]]]
    """Its subtree's marks below the anchored value, with paths relative to it."""


_STR = _YAML + "str"
_INT = _YAML + "int"
_BOOLS: dict[str, bool] = dict(yaml.constructor.SafeConstructor.bool_values)


class _Builder:
    """Builds plain values from parser events, recording marks and refusing surprises.

    Every check happens as the event arrives, so a hostile document stops the parser
    early: libyaml is never asked for the 41st level of nesting or the next alias.
    """

    def __init__(self, file: str, cls: type[RulesrefError], text: str) -> None:
        self.file = file
        self.cls = cls
        self.text = text
        self.marks: dict[PathKey, tuple[int, int]] = {}
        self.key_marks: dict[PathKey, tuple[int, int]] = {}
        self.log: list[tuple[bool, PathKey, tuple[int, int]]] = []
        """Marks in reading order (is_key, path, mark) while an anchored value is open."""
        self.anchored = 0
        """How many anchored values are open (only they need the log)."""
        self.count = 0
        self.stack: list[_Open] = []
        self.anchors: dict[str, _Anchor] = {}
        self.root: Any = None
        self.documents = 0

    def fail(self, event: yaml.Event, path: PathKey, message: str) -> RulesrefError:
        line, column = _at(event)
        return self.cls(message, file=self.file, line=line, column=column, field=field_name(path) or None)

    def run(self, events: Iterator[yaml.Event]) -> Any:
        handlers: dict[type, Any] = {
            yaml.ScalarEvent: self.scalar,
            yaml.MappingStartEvent: self.start,
            yaml.SequenceStartEvent: self.start,
            yaml.MappingEndEvent: self.end,
            yaml.SequenceEndEvent: self.end,
            yaml.AliasEvent: self.alias,
            yaml.DocumentStartEvent: self.document,
        }
        for event in events:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)
        if self.documents == 0:
            raise self.cls("file holds only comments, no YAML content", file=self.file)
        return self.root

    def document(self, event: yaml.DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            raise self.fail(event, (), "a second YAML document starts here ('---'); put one document in each file")

    # --- where a value goes, and the checks every value passes

    def _next_path(self) -> tuple[PathKey, bool]:
        """The path of the value the next event starts, and whether it is a mapping key."""
        if not self.stack:
            return (), False
        top = self.stack[-1]
        if isinstance(top.value, list):
            return (*top.path, len(top.value)), False
        if not top.has_key:
            return top.path, True
        assert top.key is not None
        return (*top.path, top.key), False

    def _count(self, event: yaml.Event, path: PathKey, size: int) -> None:
        self.count += size
        if self.count > MAX_NODES:
            raise self.fail(event, path, f"document holds more than {MAX_NODES:,} values (aliases counted each use)")

    def _begin(self, event: yaml.NodeEvent, path: PathKey, size: int = 1) -> None:
        self._count(event, path, size)
        if len(path) > MAX_DEPTH:
            raise self.fail(event, path, f"nested deeper than {MAX_DEPTH} levels")
        mark = _at(event)
        if self.anchored:
            self.log.append((False, path, mark))
        self.marks.setdefault(path, mark)

    def _attach(self, value: Any) -> None:
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top.value, list):
            top.value.append(value)
        else:
            top.value[top.key] = value
            top.has_key, top.key = False, None

    def _key(self, event: yaml.NodeEvent, written: str, key: Any, path: PathKey) -> None:
        top = self.stack[-1]
        if isinstance(key, (bool, float)) or key is None:
            key = written  # 'yes:' or '1.5:' mean the text the user wrote
        elif not isinstance(key, (str, int)):
            key = str(key)
        self._count(event, (*path, key), 1)
        if str(key) in top.seen:
            raise self.fail(event, (*path, key), f"duplicate key {shorten(str(key), 60)!r}")
        top.seen.add(str(key))
        mark = _at(event)
        self.key_marks[(*path, key)] = mark
        if self.anchored:
            self.log.append((True, (*path, key), mark))
        top.key, top.has_key = key, True
        if event.anchor is not None:
            self.anchors[event.anchor] = _Anchor(key, 1, [])

    # --- events

    def start(self, event: yaml.MappingStartEvent | yaml.SequenceStartEvent) -> None:
        path, is_key = self._next_path()
        if is_key:
            raise self.fail(event, path, "a key must be a plain word, not a list or mapping")
        plain = _YAML + ("map" if isinstance(event, yaml.MappingStartEvent) else "seq")
        if event.tag not in (None, "!", plain):
            raise self.fail(event, path, _tag_problem(event.tag))
        if event.anchor is not None:
            self.anchored += 1
        self._begin(event, path)
        value: dict[Any, Any] | list[Any] = {} if plain.endswith("map") else []
        self.stack.append(_Open(value, path, event.anchor, self.count - 1, len(self.log)))

    def end(self, event: yaml.Event) -> None:
        done = self.stack.pop()
        if done.anchor is not None:
            n = len(done.path)
            below = [(k, p[n:], m) for k, p, m in self.log[done.log_from + 1 :]]
            self.anchors[done.anchor] = _Anchor(done.value, self.count - done.count, below)
            self.anchored -= 1
            if not self.anchored:
                self.log.clear()
        self._attach(done.value)

    def scalar(self, event: yaml.ScalarEvent) -> None:
        path, is_key = self._next_path()
        value = self._scalar_value(event, (*path, event.value) if is_key else path)
        if is_key:
            self._key(event, event.value, value, path)
            return
        self._begin(event, path)
        if event.anchor is not None:
            self.anchors[event.anchor] = _Anchor(value, 1, [])
        self._attach(value)

    def alias(self, event: yaml.AliasEvent) -> None:
        path, is_key = self._next_path()
        name = shorten(event.anchor or "", 40)
        # the nearest '&name' before the alias wins, and one still open is a value inside itself
        if any(o.anchor == event.anchor for o in self.stack):
            raise self.fail(event, path, f"alias '*{name}' refers to the value it is inside")
        anchor = self.anchors.get(event.anchor or "")
        if anchor is None:
            raise self.fail(event, path, f"alias '*{name}' has no anchor '&{name}' before it")
        if is_key:
            if isinstance(anchor.value, (dict, list)):
                raise self.fail(event, path, "a key must be a plain word, not a list or mapping")
            self._key(event, str(anchor.value), anchor.value, path)
            return
        self._begin(event, path, anchor.size)  # counted before it is copied: a bomb stops here
        for is_key_mark, rel, mark in anchor.marks:
            full = (*path, *rel)
            if len(full) > MAX_DEPTH:
                raise self.fail(event, full, f"nested deeper than {MAX_DEPTH} levels")
            if self.anchored:
                self.log.append((is_key_mark, full, mark))
            (self.key_marks if is_key_mark else self.marks).setdefault(full, mark)
        self._attach(_copy(anchor.value))  # a copy: changing one use must not change the others

    def _scalar_value(self, event: yaml.ScalarEvent, where: PathKey) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = _resolver.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
        if tag == _STR:
            # only a double-quoted escape ("\e", "\0") can make a character the text did not have
            if event.style == '"' and _FORBIDDEN.search(event.value):
                bad = _FORBIDDEN.search(event.value)
                assert bad is not None
                raise self.fail(event, where, f"control character U+{ord(bad.group()):04X} is not allowed in text")
            return event.value
        if tag == _INT and event.value.isascii() and event.value.isdigit() and not event.value.startswith("0"):
            if len(event.value) <= 4300:  # the common case, without PyYAML's constructor (0755 is octal: not here)
                return int(event.value)
        elif tag == _YAML + "bool" and event.value.lower() in _BOOLS:
            return _BOOLS[event.value.lower()]
        elif tag == _YAML + "null":
            return None
        if tag == _YAML + "timestamp":
            return event.value  # dates are read as the text written (and 2024-02-30 is no error)
        if tag == _YAML + "merge":
            raise self.fail(event, where, "merge keys ('<<') are not supported")
        if tag not in _PLAIN_TAGS or tag in (_YAML + "seq", _YAML + "map"):
            raise self.fail(event, where, _tag_problem(tag))
        node = yaml.ScalarNode(tag, event.value, None, None, event.style)
        try:
            value = _scalars.construct_object(node, deep=True)
        except Exception:  # PyYAML's constructors fail in many ways on odd text ('!!int', '!!bool maybe', 5,000 digits)
            wanted = _KINDS.get(tag, "a value")
            raise self.fail(event, where, f"cannot read {shorten(event.value, 40)!r} as {wanted}") from None
        if isinstance(value, float) and not math.isfinite(value):  # NaN breaks equality and JSON
            raise self.fail(event, where, f"{shorten(event.value, 40)!r} is not a finite number")
        return value


def _at(event: yaml.Event) -> tuple[int, int]:
    """An event's (line, column), 1-based."""
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _tag_problem(tag: str) -> str:
    if tag in _PLAIN_TAGS:
        return f"the YAML tag {_tag(tag)!r} does not fit this value"
    return f"the YAML tag {shorten(_tag(tag), 60)!r} is not supported; write a plain value"


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
