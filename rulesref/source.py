"""Strict YAML reading with a source map, so every error can name file, line and field.

PyYAML's ``safe_load`` forgets where values came from, lets a duplicate key win
silently, and expands whatever aliases the file asks for. Here PyYAML only composes the
text into nodes (each knows where it was written), and one walk over the nodes builds the
plain Python values, keeping the position of every value by its field path and bounding
what it builds: nesting depth, and values counted with every alias use, an alias sized
before it is expanded, so an alias bomb is refused before it grows. Tags beyond plain YAML
values are refused, never constructed.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulesref.errors import RulesrefError, ScenarioError, shorten
from rulesref.files import OPEN_FLAGS, read_up_to

try:  # libyaml's parser and composer are several times faster; fall back where it is missing
    from yaml import CSafeLoader as _FastLoader
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover
    _FastLoader = None  # type: ignore[assignment,misc]

    class _Parser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)


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

_FAST_TEXT = 100_000
"""Texts up to this many characters may be composed by libyaml's composer, which composes a
text whole before anything is counted: a text this short is composed in well under a
second whatever it holds. The largest shipped file has about 67,000 characters."""

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
        fd = os.open(path, OPEN_FLAGS)
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
        raw = read_up_to(lambda n: os.read(fd, n), MAX_BYTES + 1)  # to the limit, not to st_size: it may grow
        if len(raw) > MAX_BYTES:
            raise cls(f"file is over {MAX_BYTES:,} bytes, the limit", file=name)
        return raw
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
#
# Reading a document takes two steps. PyYAML composes the text into a tree of nodes, each
# knowing where it was written (``_compose``); then one walk over the tree (``_Walk``) builds
# the plain values, records each value's position by its field path, and checks them in
# reading order. So a text that is not YAML is refused for that first, wherever the error
# is, unless the reading stops at a limit (nesting, values) before it; a text that is YAML is
# refused at its first problem in reading order.
#
# The tree holds an anchored value once however many aliases name it, so an alias bomb is
# only a bomb once the walk expands it: the walk sizes each anchored value once (memoised)
# and refuses the alias that would pass MAX_NODES before expanding it.


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
    try:
        root, cut = _compose(text)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, text, name, cls) from None
    except yaml.YAMLError as exc:
        raise cls(f"not valid YAML: {shorten(str(exc).splitlines()[0], 200)}", file=name) from None
    if root is None:
        raise cls("file holds only comments, no YAML content", file=name)
    walk = _Walk(name, cls)
    data = walk.value(root, ())
    if cut:  # the walk refuses where the composer stopped (see _Composer): never return part of a file
        raise RuntimeError(f"{name}: read only in part, and not refused")
    return Loaded(data, name, walk.marks, walk.key_marks)


def _compose(text: str) -> tuple[yaml.Node | None, bool]:
    """The document's node tree (None when the text holds no document), and whether the
    composer stopped reading at a limit.

    libyaml's composer is the fastest, but it has three faults here: it hands back an alias
    as the anchored node itself, forgetting where the alias is written; it refuses an anchor
    name used twice; and it composes the whole text before anything is counted. A text where
    no word starts with '&' or '*' holds no anchor and no alias ('D&D' is neither), and one of
    at most _FAST_TEXT characters is composed in a moment whatever it holds: that is nearly
    every real file, and it takes the fast way. Any other text is composed by ``_Composer``,
    which stops at the limits as it reads; so is a text the fast way finds no valid YAML, so
    that a limit met before the error is named first, whichever way the text was read.
    """
    if _FastLoader is not None and len(text) <= _FAST_TEXT and not _may_hold_an_alias(text):
        try:
            return yaml.compose(text, Loader=_FastLoader), False
        except yaml.YAMLError:
            pass
    return _compose_carefully(text)


def _compose_carefully(text: str) -> tuple[yaml.Node | None, bool]:
    composer = _Composer(text)
    try:
        return composer.get_single_node(), composer.cut
    finally:
        composer.dispose()


# What YAML lets stand before an anchor ('&name') or an alias ('*name'): its spaces and line
# breaks, a byte-order mark, the flow indicators, and a ':'
_BEFORE_A_NODE = frozenset(" \t\r\n\x85\u2028\u2029\ufeff[]{},:")


def _may_hold_an_alias(text: str) -> bool:
    """Whether an anchor or an alias may start somewhere in ``text`` ('D&D' and '2*3' cannot).

    Saying yes too often only costs time: such a text is composed the careful way.
    """
    for sign in "&*":
        at = text.find(sign)
        while at >= 0:
            if at == 0 or text[at - 1] in _BEFORE_A_NODE:
                return True
            at = text.find(sign, at + 1)
    return False


def _yaml_error(exc: yaml.MarkedYAMLError, text: str, name: str, cls: type[RulesrefError]) -> RulesrefError:
    mark = exc.problem_mark
    if mark is not None and "maximum nesting depth" in (exc.problem or ""):
        return _too_deep(text, mark, name, cls)
    if mark is not None and exc.problem == "but found another document":
        message = "a second YAML document starts here ('---'); put one document in each file"
        return cls(message, file=name, line=mark.line + 1, column=mark.column + 1)
    return _syntax_error(exc, text, name, cls)


def _too_deep(text: str, mark: Any, name: str, cls: type[RulesrefError]) -> RulesrefError:
    """libyaml refuses 1,000 open brackets while it scans ahead, before any node is composed.
    ``_Composer`` stops reading at level 41, so the text up to where libyaml stopped gives the
    walk's own message, naming the field."""
    try:
        root, _ = _compose_carefully(text[: mark.index])
        if root is not None:
            _Walk(name, cls).value(root, ())
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


# --- composing ------------------------------------------------------------------------


class _Alias(yaml.Node):
    """An alias ('*name') where it is written, and the node its anchor names."""

    def __init__(self, name: str, target: yaml.Node | None, mark: Any) -> None:
        super().__init__("", name, mark, mark)
        self.target = target
        """None when no anchor of that name comes before the alias."""


class _Cut(Exception):
    """Composing stopped at a limit; ``node`` is composed as far as it was read."""

    def __init__(self, node: yaml.Node) -> None:
        super().__init__()
        self.node = node


class _Composer(yaml.composer.Composer, _Parser, yaml.resolver.Resolver):
    """PyYAML's composer over the same parser, changed in three ways the C composer cannot be.

    - An alias stays a node of its own (``_Alias``), so the walk knows where it is written
      and can name the field of an alias with no anchor.
    - An anchor name may be used again: the nearest one before an alias wins, as YAML says
      (PyYAML refuses the second one).
    - A value nested deeper than MAX_DEPTH, or one more node than MAX_NODES, ends the
      reading: that node is composed without its contents, and the document read so far
      goes to the walk, which refuses it there or before (the walk counts every node
      composed, and aliases as their expansion). So a megabyte of hostile text costs the
      time of MAX_NODES nodes, this composer's recursion stays shallow (Python's own limit
      is never near), and a file too deep for libyaml can be read up to where the walk
      refuses it (``_too_deep``).
    """

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.depth = 0
        """How many collections hold the node being composed: the length of its field path."""
        self.nodes = 0
        """How many nodes have been composed, keys included."""
        self.cut = False
        """Whether composing stopped at a limit: the document is then only the part read."""

    def get_single_node(self) -> yaml.Node | None:
        try:
            return super().get_single_node()
        except _Cut as cut:
            self.cut = True
            return cut.node

    def compose_node(self, parent: yaml.Node | None, index: int | yaml.Node | None) -> yaml.Node | None:
        # ``index`` is the item's number in a sequence, the key node for a mapping's value,
        # and None for a mapping's key (and the document itself)
        self.nodes += 1
        deep = self.depth > MAX_DEPTH
        full = self.nodes > MAX_NODES
        try:
            if self.check_event(yaml.AliasEvent):
                event: Any = self.get_event()
                node: yaml.Node = _Alias(event.anchor, self.anchors.get(event.anchor), event.start_mark)
            elif (deep or full) and self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent):
                node = self._without_contents()
            else:
                self.anchors.pop(getattr(self.peek_event(), "anchor", None), None)  # the nearest anchor of a name wins
                self.depth += 1
                try:
                    composed = super().compose_node(parent, index)  # type: ignore[arg-type]
                finally:
                    self.depth -= 1
                assert composed is not None
                node = composed
            # a key's depth is not checked (its value's is), unless it would hold more
            if full or (deep and (index is not None or isinstance(node, yaml.CollectionNode))):
                raise _Cut(node)
            return node
        except _Cut as cut:
            if parent is None:
                raise
            _place(parent, index, cut.node)  # the parent keeps what was read, and stops too
            raise _Cut(parent) from None

    def _without_contents(self) -> yaml.Node:
        event: Any = self.get_event()
        kind = yaml.MappingNode if isinstance(event, yaml.MappingStartEvent) else yaml.SequenceNode
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.resolve(kind, None, event.implicit)  # type: ignore[no-untyped-call]
        return kind(tag, [], event.start_mark, event.end_mark)


def _place(parent: yaml.Node, index: int | yaml.Node | None, node: yaml.Node) -> None:
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif index is None:  # a key, cut short: the walk refuses it before it looks for a value
        parent.value.append((node, yaml.ScalarNode(_YAML + "null", "", node.start_mark, node.start_mark)))
    else:
        parent.value.append((index, node))


# --- walking ---------------------------------------------------------------------------

_STR = _YAML + "str"
_INT = _YAML + "int"
_SEQ = _YAML + "seq"
_MAP = _YAML + "map"
_BOOLS: dict[str, bool] = dict(yaml.constructor.SafeConstructor.bool_values)


def _at(node: yaml.Node) -> tuple[int, int]:
    """A node's (line, column), 1-based."""
    mark = node.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


class _Walk:
    """Builds a composed document's plain value, recording marks and refusing surprises.

    The walk goes in reading order and does each check where the value is written: the
    count of values (MAX_NODES, aliases counted each use), nesting (MAX_DEPTH), tags,
    keys. An alias is counted, then expanded by walking its anchored value again at the
    alias's path: that builds a fresh copy (changing one use must not change the others)
    and records the anchored value's marks under the alias, with the alias's own mark for
    the alias itself.
    """

    def __init__(self, file: str, cls: type[RulesrefError]) -> None:
        self.file = file
        self.cls = cls
        self.marks: dict[PathKey, tuple[int, int]] = {}
        self.key_marks: dict[PathKey, tuple[int, int]] = {}
        self.count = 0
        self.sizes: dict[int, int] = {}
        """Node id -> values it holds with its aliases expanded (see ``size``)."""
        self.open: set[int] = set()
        """Ids of the collections being walked: an alias to one is a value inside itself."""

    def fail(self, node: yaml.Node, path: PathKey, message: str) -> RulesrefError:
        line, column = _at(node)
        return self.cls(message, file=self.file, line=line, column=column, field=field_name(path) or None)

    def value(self, node: yaml.Node, path: PathKey, alias: _Alias | None = None) -> Any:
        """The plain value of ``node`` at ``path``.

        ``alias`` is the alias being expanded, if any: its use was counted and checked where
        it is written, so below it only depth is checked, and refused at the alias.
        """
        if isinstance(node, _Alias):
            return self.alias(node, path, alias)
        if isinstance(node, yaml.ScalarNode):
            value = self.scalar(node, path)
            self.begin(node, path, alias)
            return value
        plain = _MAP if isinstance(node, yaml.MappingNode) else _SEQ
        if node.tag != plain:
            raise self.fail(node, path, _tag_problem(node.tag))
        self.begin(node, path, alias)
        if alias is None:  # only a value as written can hold an alias to itself
            self.open.add(id(node))
        if isinstance(node, yaml.MappingNode):
            built: Any = self.mapping(node, path, alias)
        else:
            built = [self.value(item, (*path, i), alias) for i, item in enumerate(node.value)]
        self.open.discard(id(node))
        return built

    def begin(self, node: yaml.Node, path: PathKey, alias: _Alias | None, size: int = 1) -> None:
        """Count a value (unless an alias's expansion: counted at the alias), check its depth, record its mark."""
        if alias is None:
            self.counted(node, path, size)
        if len(path) > MAX_DEPTH:
            raise self.fail(alias or node, path, f"nested deeper than {MAX_DEPTH} levels")
        # setdefault: an alias records its own mark first, and its expansion keeps it
        self.marks.setdefault(path, _at(node))

    def mapping(self, node: yaml.MappingNode, path: PathKey, alias: _Alias | None) -> dict[str | int, Any]:
        built: dict[str | int, Any] = {}
        seen: set[str] = set()
        """The keys as text: 1 and '1' print alike in JSON, so they clash."""
        for key_node, value_node in node.value:
            key = self.key(key_node, path, alias, seen)
            built[key] = self.value(value_node, (*path, key), alias)
        return built

    def key(self, node: yaml.Node, path: PathKey, alias: _Alias | None, seen: set[str]) -> str | int:
        """A mapping key: a word or a whole number, once in its mapping."""
        written = self.target(node, path) if isinstance(node, _Alias) else node
        if not isinstance(written, yaml.ScalarNode):
            raise self.fail(node, path, "a key must be a plain word, not a list or mapping")
        read = self.scalar(written, (*path, written.value))
        # 'yes:' or '1.5:' mean the text the user wrote
        key: str | int = read if isinstance(read, (str, int)) and not isinstance(read, bool) else written.value
        full = (*path, key)
        if alias is None:  # an expansion's keys were counted and checked where they are written
            self.begin_key(node, full, seen)
        self.key_marks.setdefault(full, _at(node))
        return key

    def counted(self, node: yaml.Node, path: PathKey, size: int = 1) -> None:
        """Count ``size`` values written at ``node``; more than MAX_NODES in all is refused there."""
        self.count += size
        if self.count > MAX_NODES:
            raise self.fail(node, path, f"document holds more than {MAX_NODES:,} values (aliases counted each use)")

    def begin_key(self, node: yaml.Node, full: PathKey, seen: set[str]) -> None:
        self.counted(node, full)
        if str(full[-1]) in seen:
            raise self.fail(node, full, f"duplicate key {shorten(str(full[-1]), 60)!r}")
        seen.add(str(full[-1]))

    def target(self, node: _Alias, path: PathKey) -> yaml.Node:
        """The value an alias names, if it may be used here."""
        name = shorten(node.value, 40)
        if node.target is not None and id(node.target) in self.open:
            raise self.fail(node, path, f"alias '*{name}' refers to the value it is inside")
        if node.target is None:
            raise self.fail(node, path, f"alias '*{name}' has no anchor '&{name}' before it")
        return node.target

    def alias(self, node: _Alias, path: PathKey, alias: _Alias | None) -> Any:
        target = self.target(node, path)
        # counted before it is expanded, all its values at once: a bomb stops here
        self.begin(node, path, alias, self.size(target))
        return self.value(target, path, alias or node)

    def size(self, node: yaml.Node) -> int:
        """How many values ``node`` holds, keys included and its aliases expanded.

        Memoised by node: an anchored value is sized once however often it is used, so the
        size of an alias bomb is found in as many steps as the file has nodes. Only values
        the walk has read are sized, so every alias inside has a target and none is a loop.
        """
        if isinstance(node, _Alias):
            assert node.target is not None
            node = node.target
        known = self.sizes.get(id(node))
        if known is None:
            if isinstance(node, yaml.MappingNode):
                known = 1 + sum(1 + self.size(value) for _, value in node.value)
            elif isinstance(node, yaml.SequenceNode):
                known = 1 + sum(self.size(item) for item in node.value)
            else:
                known = 1
            self.sizes[id(node)] = known
        return known

    def scalar(self, node: yaml.ScalarNode, where: PathKey) -> Any:
        """A scalar's plain value; its tag was resolved by the composer."""
        tag, text = node.tag, node.value
        if tag == _STR:
            # only a double-quoted escape ("\e", "\0") can make a character the text did not have
            bad = _FORBIDDEN.search(text) if node.style == '"' else None
            if bad is not None:
                raise self.fail(node, where, f"control character U+{ord(bad.group()):04X} is not allowed in text")
            return text
        if tag == _INT and text.isascii() and text.isdigit() and not text.startswith("0"):
            if len(text) <= 4300:  # the common case, without PyYAML's constructor (0755 is octal: not here)
                return int(text)
        elif tag == _YAML + "bool" and text.lower() in _BOOLS:
            return _BOOLS[text.lower()]
        elif tag == _YAML + "null":
            return None
        if tag == _YAML + "timestamp":
            return text  # dates are read as the text written (and 2024-02-30 is no error)
        if tag == _YAML + "merge":
            raise self.fail(node, where, "merge keys ('<<') are not supported")
        if tag not in _PLAIN_TAGS or tag in (_SEQ, _MAP):
            raise self.fail(node, where, _tag_problem(tag))
        # called directly, not through construct_object, which keeps every node it has seen
        construct = yaml.constructor.SafeConstructor.yaml_constructors[tag]
        try:
            value = construct(_scalars, node)
        except Exception:  # PyYAML's constructors fail in many ways on odd text ('!!int', '!!bool maybe', 5,000 digits)
            wanted = _KINDS.get(tag, "a value")
            raise self.fail(node, where, f"cannot read {shorten(text, 40)!r} as {wanted}") from None
        if isinstance(value, float) and not math.isfinite(value):  # NaN breaks equality and JSON
            raise self.fail(node, where, f"{shorten(text, 40)!r} is not a finite number")
        return value


def _tag_problem(tag: str) -> str:
    if tag in _PLAIN_TAGS:
        return f"the YAML tag {_tag(tag)!r} does not fit this value"
    return f"the YAML tag {shorten(_tag(tag), 60)!r} is not supported; write a plain value"
