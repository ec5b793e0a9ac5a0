"""The on-disk cache of the lookup index, so a cold `ask` skips yaml and the corpus loader.

One file per rules folder, in $RULESREF_CACHE, else $XDG_CACHE_HOME/rulesref, else
~/.cache/rulesref. The file carries a key built from every rule file's path, size and
mtime (ns), the rulesref version and the index code itself, so any change to rules/ (or to
the analysis) rebuilds it. Writes are atomic (a temp file, then os.replace), so two
processes rebuilding at once are safe. Any failure (read-only folder, corrupt file)
means working without the cache, silently.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import zlib
from pathlib import Path
from typing import Any

from rulesref import __version__, index


def cache_dir() -> Path:
    """Where cached indexes live."""
    explicit = os.environ.get("RULESREF_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulesref"


def _code_stamp() -> str:
    # Taken once, when the code is loaded: the key must describe the analysis in memory,
    # not a newer index.py written to disk while this process runs.
    code = os.stat(index.__file__)
    return f"index.py:{code.st_size}:{code.st_mtime_ns}"


_CODE = _code_stamp()


def key(root: Path) -> str:
    """What the cached index was built from: rule files (path, size, mtime), version, code."""
    parts = [__version__, str(index.FORMAT), str(root), _CODE]
    for folder in sorted(os.scandir(root), key=lambda e: e.name):
        if not folder.is_dir():
            continue
        for entry in sorted(os.scandir(folder.path), key=lambda e: e.name):
            if entry.name.endswith(".yaml"):
                try:
                    st = entry.stat()
                except OSError:  # a broken link or a loop: the corpus loader says so properly
                    parts.append(f"{folder.name}/{entry.name}:unreadable")
                    continue
                parts.append(f"{folder.name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def path_for(root: Path) -> Path:
    """The cache file for one rules folder (a test's temp copy gets its own)."""
    return cache_dir() / f"index-{zlib.crc32(str(root).encode()):08x}.marshal"


def load(root: Path, wanted: str) -> dict[str, Any] | None:
    """The cached index for ``root`` if it was built from exactly ``wanted``; else None."""
    try:
        data = marshal.loads(path_for(root).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("key") != wanted or not isinstance(data.get("games"), list):
        return None
    return data


def save(root: Path, data: dict[str, Any]) -> None:
    """Write the index atomically; an unwritable cache folder is not an error."""
    final = path_for(root)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.{id(data):x}.tmp")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "xb") as fh:
            fh.write(marshal.dumps(data))
        os.replace(tmp, final)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            tmp.unlink()
