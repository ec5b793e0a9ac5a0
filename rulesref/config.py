"""The user's config file: settings a table sets once (``game = "pacg"``).

It lives in the platform's user config folder, as platformdirs finds it
(``~/.config/rulesref/config.toml`` on Linux, ``~/Library/Application Support/rulesref/``
on macOS, ``%LOCALAPPDATA%\\rulesref\\`` on Windows), or where $RULESREF_CONFIG says
(set and empty: no config file). Command-line options and environment variables win over it.

The file is untrusted input like any other: it is read only when it is a regular file of
at most MAX_BYTES, and anything wrong in it (not TOML, an unknown key, a value of the wrong
kind) is a RulesrefError naming the file, the line and the key, so the CLI prints one line
and exits 2.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from rulesref.errors import RulesrefError, did_you_mean, shorten
from rulesref.files import NotAFile, TooLarge, read_regular

NAME = "config.toml"
MAX_BYTES = 64 * 1024
"""A config file holds a few lines; a larger one is not one."""
KEYS = {"game": "a game id or alias (see `rulesref games`)", "color": "auto, always or never"}
"""What the file may set, and what each value must be."""


def config_path(environ: Any = None) -> Path | None:
    """Where the config file is looked for, or None when $RULESREF_CONFIG is set and empty.

    On XDG systems (Linux, the BSDs) the folder is $XDG_CONFIG_HOME/rulesref, else
    ~/.config/rulesref: what platformdirs answers there, found without importing it (it costs
    every start a few milliseconds); a relative $XDG_CONFIG_HOME is ignored, as the XDG
    specification says. Elsewhere platformdirs says where.
    """
    env = os.environ if environ is None else environ
    explicit = env.get("RULESREF_CONFIG")
    if explicit is not None:
        return Path(explicit) if explicit.strip() else None
    if sys.platform in ("win32", "darwin"):
        import platformdirs

        return Path(platformdirs.user_config_dir("rulesref", appauthor=False), NAME)
    xdg = env.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg) and "\0" not in xdg:
        return Path(xdg, "rulesref", NAME)
    home = env.get("HOME", "")
    if home and os.path.isabs(home) and "\0" not in home:
        return Path(home, ".config", "rulesref", NAME)
    return None


_cache: dict[str, tuple[Path, dict[str, tuple[Any, int | None]]]] = {}


def settings() -> tuple[Path | None, dict[str, tuple[Any, int | None]]]:
    """(the file, {key: (value, line)}) from the config file; nothing when there is none."""
    path = config_path()
    if path is None:
        return None, {}
    if str(path) not in _cache:
        _cache.clear()
        _cache[str(path)] = (path, read(path))
    return _cache[str(path)]


def setting(key: str) -> tuple[Any, RulesrefError] | None:
    """The value the config file gives ``key`` and an error naming where (for a message
    about that value: an unknown game), or None when it gives none."""
    path, found = settings()
    if path is None or key not in found:
        return None
    value, line = found[key]
    return value, RulesrefError("", file=str(path), line=line, field=key)


def read(path: Path) -> dict[str, tuple[Any, int | None]]:
    """The settings in one config file, each with its line; {} when there is no file."""
    name = str(path)
    raw = _read_bytes(path, name)
    if raw is None:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[: exc.start].count(b"\n") + 1
        raise RulesrefError("is not UTF-8 text", file=name, line=bad) from None
    data = _parse(text, name)
    out: dict[str, tuple[Any, int | None]] = {}
    for key, value in data.items():
        line = _line_of(text, key)
        if key not in KEYS:
            hint = did_you_mean(key, KEYS) or f"the keys are {', '.join(KEYS)}"
            raise RulesrefError(f"unknown key {shorten(key, 40)!r}", file=name, line=line, field=key, hint=hint)
        if not isinstance(value, str) or not value.strip():
            raise RulesrefError(f"expected {KEYS[key]}, in quotes", file=name, line=line, field=key)
        out[key] = (value.strip(), line)
    return out


def _read_bytes(path: Path, name: str) -> bytes | None:
    """The file's bytes, None if there is none; a folder, a FIFO or a device is refused
    (opened non-blocking, so a FIFO does not hang the start), and so is a large file."""
    try:
        return read_regular(path, MAX_BYTES)
    except NotAFile:
        raise RulesrefError("is not a regular file, so it is no config file", file=name) from None
    except TooLarge:
        raise RulesrefError(f"a config file is at most {MAX_BYTES:,} bytes", file=name) from None
    except OSError as exc:
        raise RulesrefError(f"cannot read the config file: {exc.strerror or exc}", file=name) from None


def _parse(text: str, name: str) -> dict[str, Any]:
    try:
        import tomllib
    except ImportError:  # Python 3.10: the few lines a config file holds, read by hand
        return _simple(text, name)
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "not valid TOML"
        line, column = (int(found[1]), int(found[2])) if found else (None, None)
        raise RulesrefError(f"not valid TOML: {message}", file=name, line=line, column=column) from None
    return data


_SIMPLE = re.compile(r"""\s*([A-Za-z0-9_-]+)\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?""")


def _simple(text: str, name: str) -> dict[str, Any]:
    """``key = "value"`` lines, comments and blank lines: all a config file needs."""
    out: dict[str, Any] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _SIMPLE.fullmatch(line)
        if m is None:
            raise RulesrefError('not valid here: write key = "value"', file=name, line=n)
        if m[1] in out:
            raise RulesrefError(f"duplicate key {m[1]!r}", file=name, line=n, field=m[1])
        out[m[1]] = m[2] if m[2] is not None else m[3]
    return out


def _line_of(text: str, key: str) -> int | None:
    found = re.search(rf"(?m)^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=", text)
    return text.count("\n", 0, found.start()) + 1 if found else None
