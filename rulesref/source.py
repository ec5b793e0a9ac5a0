"""Strict YAML reading with a source map, so every error can name file, line and field.

PyYAML's ``safe_load`` forgets where values came from and lets a duplicate key win
silently. Here the document is composed into nodes, built into plain Python values by
hand (duplicate keys refused, aliases and depth bounded), and the position of every
value is kept by its field path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulesref.errors import RulesrefError, ScenarioError

try:  # the C parser is several times faster; fall back where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 1_000_000
"""Larger files are refused before parsing: no rule or scenario file is near this."""
MAX_DEPTH = 40
"""Deeper nesting than this is refused: no real file needs it."""
MAX_NODES = 200_000
"""Values built, aliases counted each time they are used: stops alias bombs."""

PathKey = tuple[str | int, ...]
_scalars = yaml.constructor.SafeConstructor()


def field_name(path: PathKey) -> str:
    """``('pawns', 'g1', 'at')`` -> ``pawns.g1.at``; list items as ``moves[0]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + part
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


def read_text(path: Path, *, display: str | None = None, cls: type[RulesrefError] = ScenarioError) -> str:
    """A file's text, refusing what is not a small UTF-8 text file, with a clear message."""
    name = display or str(path)
    try:
        if path.is_dir():
            raise cls("is a folder, not a file", file=name)
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise cls(f"file is {size:,} bytes; the limit is {MAX_BYTES:,}", file=name)
        raw = path.read_bytes()
    except FileNotFoundError:
        raise cls("no such file", file=name) from None
    except PermissionError:
        raise cls("cannot read the file: permission denied", file=name) from None
    except OSError as exc:
        raise cls(f"cannot read the file: {exc.strerror or exc}", file=name) from None
    if b"\x00" in raw:
        raise cls("binary file, not YAML text", file=name)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte-order mark is harmless; editors on Windows add it
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise cls("file is not UTF-8 text", file=name, line=line) from None


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
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        if mark is not None and _tab_indented(text, mark.line):
            problem = "a tab is used for indentation; YAML needs spaces"
        raise cls(
            f"not valid YAML: {problem}",
            file=name,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from None
    except yaml.YAMLError as exc:
        raise cls(f"not valid YAML: {exc}", file=name) from None
    if root is None:
        raise cls("file is empty", file=name)
    builder = _Builder(name, cls)
    data = builder.build(root, ())
    return Loaded(data, name, builder.marks, builder.key_marks)


def _tab_indented(text: str, line: int) -> bool:
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return False
    row = lines[line]
    return "\t" in row[: len(row) - len(row.lstrip())]


class _Builder:
    """Turns composed nodes into plain values, recording marks and refusing surprises."""

    def __init__(self, file: str, cls: type[RulesrefError]) -> None:
        self.file = file
        self.cls = cls
        self.marks: dict[PathKey, tuple[int, int]] = {}
        self.key_marks: dict[PathKey, tuple[int, int]] = {}
        self.count = 0

    def fail(self, node: yaml.Node, path: PathKey, message: str) -> RulesrefError:
        return self.cls(
            message,
            file=self.file,
            line=node.start_mark.line + 1,
            column=node.start_mark.column + 1,
            field=field_name(path) or None,
        )

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(node, path, f"document expands to more than {MAX_NODES:,} values (alias bomb?)")
        if len(path) > MAX_DEPTH:
            raise self.fail(node, path, f"nested deeper than {MAX_DEPTH} levels")
        self.marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, path, "merge keys ('<<') are not supported")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "a key must be a plain word, not a list or mapping")
                key = self.scalar(key_node, path)
                if isinstance(key, (bool, float)) or key is None:
                    key = key_node.value  # 'yes:' or '1.5:' mean the text the user wrote
                if not isinstance(key, (str, int)):
                    key = str(key)
                if key in out:
                    raise self.fail(key_node, (*path, key), f"duplicate key {key!r}")
                self.key_marks[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, (*path, key))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        return self.scalar(node, path)

    def scalar(self, node: yaml.Node, path: PathKey) -> Any:
        try:
            value = _scalars.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise self.fail(node, path, f"cannot read value: {getattr(exc, 'problem', exc)}") from None
        if isinstance(value, (bytes, bytearray)):
            raise self.fail(node, path, "binary values are not supported")
        if not isinstance(value, (str, int, float, bool, type(None))):
            return str(node.value)  # dates and timestamps are read as the text written
        return value
