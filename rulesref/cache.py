"""The on-disk cache of the lookup index, so a cold `ask` skips yaml and the corpus loader.

One file per rules folder, in $RULESREF_CACHE, else the platform's user cache folder as
platformdirs finds it: $XDG_CACHE_HOME/rulesref, else ~/.cache/rulesref on Linux and the
BSDs (an empty or relative value is ignored); ~/Library/Caches/rulesref on macOS;
%LOCALAPPDATA%\\rulesref\\Cache on Windows. `rulesref cache clear` removes what it holds. Everything in that folder is
untrusted input: a cache file is read only when it is a regular file (never a link, a
FIFO or a device), no larger than MAX_BYTES, with a header whose magic, layout, key digest,
length and CRC-32 of the payload all match before marshal sees a byte of it. Anything else
means the index is rebuilt from the rules; it never means an error or an answer from
damaged data.

The key is built from the bytes of every rule file (with its name), the rules folder, the
rulesref version, index.FORMAT, the Python that marshals, and the source text of the
modules that shape the index (and of yaml's and rapidfuzz's __init__), so any change to
a rule file's content (even one that keeps its size and mtime) or to the analysis
rebuilds it. Writes are atomic (a temp file, then os.replace), so two processes
rebuilding at once are safe; a temp file left by a killed rebuild is removed later. When
the cache folder cannot be written, a private folder in the system temp folder (the
user's own, and no one else's) is used instead, so an unwritable cache does not mean a
rebuild on every run; it keeps the newest few indexes.
What happened is kept as short lines in notes(), for --debug; nothing is printed.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import marshal
import os
import re
import stat
import sys
import time
import zlib
from collections.abc import Iterator
from importlib.util import find_spec, source_hash
from pathlib import Path
from typing import Any

from rulesref import __version__, index, learned
from rulesref.errors import shorten
from rulesref.files import OPEN_FLAGS, read_up_to

try:  # hashlib's own blake2b, without the OpenSSL load that `import hashlib` costs every start
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without the builtin module
    from hashlib import blake2b

MAX_BYTES = 64 * 1024 * 1024
"""The largest cache file read (the built index is about 2 MB): larger is not ours."""
MAGIC = b"rulesref-index\r\n"
"""The first bytes of every cache file (\\r\\n: a file mangled as text is caught at once)."""
LAYOUT = 4
"""The layout of the file (this header); index.FORMAT is the layout of the index in it."""
_DIGEST = 32
_SUM = 4
_HEADER = len(MAGIC) + 4 + 8 + _DIGEST + _SUM
"""magic, layout (4 bytes), payload length (8), key digest, the payload's CRC-32 (4); little-endian.

The payload is checked with a CRC, not a digest: what it guards against is damage (a
flipped byte, a truncated or mixed-up file), which a CRC-32 catches as surely, in a fifth
of a cryptographic digest's time on every start. Neither would stop a forger, who could
write a matching digest as easily: the cache folder is the user's own."""
RULE_FILE_BYTES = 4 * 1024 * 1024
"""A rule file is keyed by its bytes up to this size; the corpus loader refuses far smaller
files, so no index is ever built from a larger one and its size and mtime key it enough."""
STALE_SECONDS = 600
"""A temp file this old is a rebuild that died, even if its process id is taken again."""
_TEMP = r"\.index-[0-9a-f]{8}\.marshal\.([0-9]{1,10})\.[0-9a-f]{1,32}\.tmp"
"""Our temp files' names (see save); nothing else in the folder is ever deleted. Patterns
are compiled when first needed (re caches them), not on every start."""
_INDEX = r"index-[0-9a-f]{8}\.marshal"
"""Our index files' names (see _file_name)."""
PRIVATE_KEEP = 8
"""How many indexes the private temp folder keeps (see _prune)."""
_SWEEP_LIMIT = 256
"""Entries looked at when sweeping temp files: a cache folder holds a few files."""
_MAX_NOTES = 20

_notes: list[str] = []


def notes() -> list[str]:
    """What the cache did in this process, as short lines (for --debug)."""
    return list(_notes)


def _note(text: str) -> None:
    line = f"index cache: {text}"
    if line in _notes:  # the environment is read by load and save alike: said once
        _notes.remove(line)
    _notes.append(line)
    del _notes[:-_MAX_NOTES]  # the latest few: a long-lived process asks many times


def _shown(path: Path | str) -> str:
    """A path as a note may show it: of a line's length, its control characters escaped so
    a terminal never acts on them."""
    text = shorten(os.fsdecode(path), 200).encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


# --- where the cache lives ----------------------------------------------------------


def _absolute(name: str) -> str | None:
    """An environment variable's value if it is a usable absolute path; a bad one is noted."""
    value = os.environ.get(name, "")
    if not value:
        return None
    if "\0" in value or not os.path.isabs(value):
        _note(f"${name} is not an absolute path, so it is not used: '{_shown(value)}'")
        return None
    return value


def cache_dir() -> Path:
    """Where cached indexes live: $RULESREF_CACHE, else the user cache folder (see the
    module's notes); with no usable home either, the private temp folder (_private_temp)."""
    return _configured() or _temp_path()


def _configured() -> Path | None:
    """The cache folder the environment names, or None when it names no usable one."""
    explicit = _absolute("RULESREF_CACHE")
    if explicit:
        return Path(explicit)
    if sys.platform in ("win32", "darwin"):
        return _platform_folder()
    # XDG systems: what platformdirs answers there (user_cache_dir), worked out here without
    # importing it (a few milliseconds of every start), with the checks below on each value
    xdg = _absolute("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg, "rulesref")
    home = _home()
    if home:
        return Path(home, ".cache", "rulesref")
    _note("no usable home folder")
    return None


def _platform_folder() -> Path | None:
    """The user cache folder on macOS and Windows, as platformdirs finds it; None if unusable."""
    import platformdirs

    try:
        found = platformdirs.user_cache_dir("rulesref", appauthor=False)
    except Exception as exc:  # platformdirs asks the system (Windows' known folders): never a crash
        _note(f"platformdirs found no user cache folder ({type(exc).__name__})")
        return None
    if not found or "\0" in found or not os.path.isabs(found):
        _note(f"the user cache folder is not an absolute path, so it is not used: '{_shown(found)}'")
        return None
    return Path(found)


def _home() -> str | None:
    if os.name == "nt":  # no $HOME there as a rule: %USERPROFILE%
        home = os.path.expanduser("~")
        return home if os.path.isabs(home) else None
    return _absolute("HOME") or _home_from_passwords()


def _home_from_passwords() -> str | None:
    """The user's home as the password database has it (no $HOME, or an unusable one)."""
    try:
        import pwd

        home = pwd.getpwuid(os.geteuid()).pw_dir
    except (ImportError, AttributeError, KeyError, OSError):  # no pwd (Windows), or a uid it does not know
        return None
    return home if "\0" not in home and os.path.isabs(home) else None


def _temp_path() -> Path:
    import tempfile  # only when the cache folder fails: it costs a start 10 ms

    return Path(tempfile.gettempdir(), f"rulesref-{_uid()}")


def _uid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else -1


def _private_temp(create: bool) -> Path | None:
    """The per-user folder in the system temp folder, when it is safe to use: a real folder
    (not a link), ours, and writable by nobody else. The temp folder is shared by every user
    of the machine, so anyone could have made that name first, to feed us an index."""
    if _uid() < 0:  # no user ids (Windows): no way to tell whose the folder is
        return None
    folder = _temp_path()
    if create:
        with contextlib.suppress(OSError):  # it may exist already: checked below either way
            os.mkdir(folder, 0o700)
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != _uid() or st.st_mode & 0o022:
        _note(f"{_shown(folder)} is not a private folder of this user, so it is not used")
        return None
    return folder


def path_for(root: Path) -> Path:
    """The cache file for one rules folder (a test's temp copy gets its own)."""
    return cache_dir() / _file_name(root)


def _file_name(root: Path) -> str:
    return f"index-{zlib.crc32(os.fsencode(root)):08x}.marshal"


# --- the key ------------------------------------------------------------------------

# The modules whose code decides what the built index holds: the loader that reads the
# rule files and the analysis that indexes them. Their source text, not their mtime,
# since a checkout or a copy can give old and new code the same mtime.
_SHAPING = ("index.py", "corpus.py", "clause.py", "source.py", "learned.py")
# Libraries whose behaviour is in the index: yaml reads the rules, rapidfuzz finds the
# typos in the asks. Their __init__ (which carries the version), found without importing.
_LIBRARIES = ("yaml", "rapidfuzz")


def _content(data: bytes) -> bytes:
    """What stands for a file's bytes in the key: their length and the 64-bit SipHash that
    Python itself checks a compiled module against its source with (PEP 552). A cache key
    needs no more, and it is several times faster than blake2b over the 3 MB model file,
    on every start."""
    return len(data).to_bytes(8, "little") + source_hash(data)


def _code_stamp() -> bytes:
    # Taken once, at import: the key describes the code this process runs (a newer file
    # written meanwhile is the next process's business), and costs one read per start.
    h = blake2b(digest_size=_DIGEST)
    here = Path(__file__).parent  # absolute already: no resolve (a few syscalls) per start
    for name in _SHAPING:
        _add(h, name.encode(), _content(_source(here / name)))
    for lib in _LIBRARIES:
        try:
            spec = find_spec(lib)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec else None
        _add(h, lib.encode(), _content(_source(Path(origin))) if origin else b"missing")
    return h.digest()


def _source(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # a wheel without sources: the version and FORMAT still key it
        return b"missing"


def _add(h: Any, *parts: bytes) -> None:
    """Each part with its length, so no two different lists of parts hash alike."""
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)


_CODE = _code_stamp()


def key(root: Path) -> str:
    """What the cached index was built from: every rule file's name and bytes, the rules
    folder, the version, the index format, the Python, and the code (hex digest)."""
    h = blake2b(digest_size=_DIGEST)
    python = f"{sys.implementation.cache_tag}:{marshal.version}"
    _add(h, __version__.encode(), str(index.FORMAT).encode(), python.encode(), _CODE, os.fsencode(root))
    for folder in _sorted_entries(root):
        if folder.name == learned.FILE:  # the phrasing model, beside the game folders
            _add(h, os.fsencode(folder.name), _content(_rule_file(Path(folder.path))))
        if not _is_dir(folder):
            continue
        for entry in _sorted_entries(Path(folder.path)):
            if entry.name.endswith(".yaml"):
                _add(h, os.fsencode(folder.name), os.fsencode(entry.name), _content(_rule_file(Path(entry.path))))
    return h.hexdigest()


def _sorted_entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:  # the corpus loader reports an unreadable folder properly
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _rule_file(path: Path) -> bytes:
    """What keys one rule file: its bytes, or why they cannot be had (the loader says so
    properly when it builds). Opened non-blocking and checked before reading, as the loader
    does, so a FIFO named like a rule file does not hang the key."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except OSError as exc:
        return f"unreadable:{exc.errno}".encode()
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return f"not a file:{stat.S_IFMT(st.st_mode)}".encode()
        if st.st_size > RULE_FILE_BYTES:
            return f"large:{st.st_size}:{st.st_mtime_ns}".encode()
        # to its size (and a byte more), not to the limit: a read of 4 MB allocates 4 MB,
        # for each rule file on every start. A file still being written keys as what was
        # read; the build reads it again later, so the next run's key differs and rebuilds.
        data = read_up_to(lambda n: os.read(fd, n), min(st.st_size, RULE_FILE_BYTES) + 1)
        return data if len(data) <= RULE_FILE_BYTES else f"large:{st.st_mtime_ns}".encode()
    except OSError as exc:
        return f"unreadable:{exc.errno}".encode()
    finally:
        os.close(fd)


# --- reading ------------------------------------------------------------------------


def load(root: Path, wanted: str) -> dict[str, Any] | None:
    """The cached index for ``root`` if it was built from exactly ``wanted``; else None."""
    name = _file_name(root)
    folder = _configured()
    body = None if folder is None else _read(folder / name, wanted)
    if body is None:  # the cache folder could not be written: the last index may be in ours
        body = _from_private(folder, name, wanted)
    if folder is not None:
        _sweep(folder)
    return None if body is None else {"key": wanted, **body}


def _from_private(folder: Path | None, name: str, wanted: str) -> dict[str, Any] | None:
    private = _private_temp(create=False)
    if private is None or private == folder:
        return None
    body = _read(private / name, wanted, quiet_if_missing=True)
    if body is None or folder is None or not _writable(folder):
        return body
    # the cache folder can be written (now, or always: a first run after one that could
    # not): the index goes there, so later runs find it at once
    if _write(folder, name, _file_bytes(wanted, body)) is None:
        _note(f"copied to {_shown(folder)}")
    return body


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists, or can be made, and may be written (checked before the
    index is marshalled again, which costs more than asking)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _read(path: Path, wanted: str, *, quiet_if_missing: bool = False) -> dict[str, Any] | None:
    """The index in one cache file (all but its key), or None (and a note saying why)."""
    try:
        fd = os.open(path, OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))  # a link fails (ELOOP)
    except FileNotFoundError:
        if not quiet_if_missing:
            _note(f"{_shown(path)}: none yet")
        return None
    except OSError as exc:
        why = "a symbolic link, not followed" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        _note(f"{_shown(path)}: {why}; rebuilt")
        return None
    try:
        why, body = _checked(fd, wanted)
    except OSError as exc:
        why, body = f"cannot be read ({exc.strerror or exc}); rebuilt", None
    finally:
        os.close(fd)
    _note(f"{_shown(path)}: {why}")
    return body


def _checked(fd: int, wanted: str) -> tuple[str, dict[str, Any] | None]:
    """(what was found, the index or None) for an open cache file."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        return f"not a regular file (mode {stat.S_IFMT(st.st_mode):o}), not read", None
    if st.st_size > MAX_BYTES:
        return f"{st.st_size:,} bytes, over the {MAX_BYTES:,} a cache file may have; not read", None
    head = read_up_to(lambda n: os.read(fd, n), _HEADER)
    if len(head) < _HEADER or not head.startswith(MAGIC):
        return "not a rulesref index (damaged or foreign); rebuilt", None
    at = len(MAGIC)
    layout = int.from_bytes(head[at : at + 4], "little")
    length = int.from_bytes(head[at + 4 : at + 12], "little")
    key_digest = head[at + 12 : at + 12 + _DIGEST]
    payload_sum = int.from_bytes(head[at + 12 + _DIGEST :], "little")
    if layout != LAYOUT:
        return f"file layout {layout}, not {LAYOUT}; rebuilt", None
    if key_digest != _key_digest(wanted):
        return "built from other rule files or code; rebuilt", None
    if length != st.st_size - _HEADER:  # truncated, or grown: either way not what was written
        return f"{st.st_size - _HEADER:,} bytes of index where the header says {length:,}; rebuilt", None
    payload = read_up_to(lambda n: os.read(fd, n), length)
    if len(payload) != length or zlib.crc32(payload) != payload_sum:
        return "damaged (its checksum does not match); rebuilt", None
    try:
        body = marshal.loads(payload)
    except Exception as exc:  # any failure to load is a rebuild, never a crash
        return f"cannot be loaded ({type(exc).__name__}); rebuilt", None
    if not _shaped(body):
        return "not shaped like an index; rebuilt", None
    return "read", body


def _key_digest(wanted: str) -> bytes:
    return blake2b(wanted.encode("utf-8", "surrogatepass"), digest_size=_DIGEST).digest()


# What lookup takes from each game at the top level (index.py's layout). The digest already
# proves these bytes are the ones a rulesref with this very key wrote, so damage cannot get
# here: the check is for a file that is whole but was not written by us (as a digest is
# not a signature, anyone who can write the cache folder could forge one). It is light
# on purpose (no walk through 100,000 postings on every start): the top-level types, so a
# foreign structure is a rebuild and not a crash on the first lookup.
_GAME_FIELDS: dict[str, type] = {
    "id": str,
    "title": str,
    "aliases": tuple,
    "names": tuple,
    "phrases": dict,
    "longest": int,
    "vocab": dict,
    "postings": dict,
    "unknown": float,
    "lines": dict,
    "claims": tuple,
    "clauses": tuple,
    "open": bytes,
    "surface": dict,
    "cues": dict,
    "naming": dict,
}


# The phrasing model (learned.py), when the index has one: its packed tables.
_LEARNED_FIELDS: dict[str, type] = {
    "classes": tuple,
    "of": tuple,
    "out": int,
    **dict.fromkeys(("bias", "slots", "names", "offsets", "idf", "starts", "owners", "weights"), bytes),
}


def _shaped(body: object) -> bool:
    if not isinstance(body, dict) or set(body) != {"games", "learned"}:
        return False
    games, model = body["games"], body["learned"]
    return (
        isinstance(games, list)
        and all(isinstance(g, dict) and all(isinstance(g.get(k), t) for k, t in _GAME_FIELDS.items()) for g in games)
        and (
            model is None
            or (
                isinstance(model, dict)
                and all(isinstance(model.get(k), t) for k, t in _LEARNED_FIELDS.items())
                and len(model["of"]) == len(games)
                and -1 <= model["out"] < len(model["classes"])
            )
        )
    )


# --- writing ------------------------------------------------------------------------


def save(root: Path, data: dict[str, Any]) -> None:
    """Write the index atomically; when the cache folder cannot be written, into the
    private temp folder; when that fails too, the index lives in this process only."""
    try:
        body = {"games": data["games"], "learned": data.get("learned")}
        name, raw = _file_name(root), _file_bytes(data["key"], body)
    except ValueError as exc:  # an index marshal cannot write: a bug, but no reason to stop
        _note(f"not saved ({exc}): the index lives in memory")
        return
    folder = _configured()
    if folder is not None:
        why = _write(folder, name, raw)
        if why is None:
            _note(f"{_shown(folder / name)}: written")
            return
        _note(f"cannot write {_shown(folder)}: {why}")
    private = _private_temp(create=True)
    why = "no private folder to use" if private is None else _write(private, name, raw)
    if private is None or why is not None:
        _note(f"not saved ({why}): the index lives in memory, and the next run builds it again")
        return
    _note(f"written to {_shown(private)} instead")
    _prune(private, keep=name)


def _prune(folder: Path, keep: str) -> None:
    """Only the PRIVATE_KEEP newest indexes stay in the private temp folder: each rules folder
    (each test's temp copy) has its own, and nothing else would ever remove them there."""
    found = [(st.st_mtime_ns, entry.name) for entry, _, st in _ours(folder, _INDEX) if entry.name != keep]
    for _, old in sorted(found, reverse=True)[PRIVATE_KEEP - 1 :]:
        with contextlib.suppress(OSError):
            os.unlink(folder / old)


def _file_bytes(wanted: str, body: dict[str, Any]) -> bytes:
    """A cache file: the header (see _HEADER), then the index (all but its key) marshalled."""
    payload = marshal.dumps(body)
    return b"".join(
        (
            MAGIC,
            LAYOUT.to_bytes(4, "little"),
            len(payload).to_bytes(8, "little"),
            _key_digest(wanted),
            zlib.crc32(payload).to_bytes(_SUM, "little"),
            payload,
        )
    )


def _write(folder: Path, name: str, data: bytes) -> str | None:
    """Write ``data`` as ``folder/name`` through a temp file; None, or why it failed."""
    # pid and a random part: two processes, or two threads, never share a temp file
    tmp = folder / f".{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _sweep(folder)
        fd = os.open(tmp, flags, 0o600)
        try:
            view = memoryview(data)
            while view:  # os.write may write less than asked
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, folder / name)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return exc.strerror or str(exc)
    return None


def _sweep(folder: Path) -> None:
    """Remove temp files of rebuilds that died: only our names, only regular files, only
    in the cache folder, and only when their process is gone or they are STALE_SECONDS old."""
    now = time.time()
    for entry, found, st in _ours(folder, _TEMP):
        pid = int(found.group(1))
        if pid != os.getpid() and (now - st.st_mtime > STALE_SECONDS or not _alive(pid)):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                _note(f"removed {_shown(entry.name)}, left by a rebuild that died")


def _ours(
    folder: Path, names: str, limit: int = _SWEEP_LIMIT
) -> Iterator[tuple[os.DirEntry[str], re.Match[str], os.stat_result]]:
    """Our files in ``folder``: regular files (never a link) whose names match ``names``, among
    its first ``limit`` entries; a folder (none yet) or an entry that cannot be read is passed over."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in itertools.islice(entries, limit):
            found = re.fullmatch(names, entry.name)
            if found is None:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                yield entry, found, st


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may still be writing its temp file."""
    if os.name == "nt":  # Windows' os.kill ends the process it is given: go by age alone
        return True
    if not 0 < pid <= 0x7FFFFFFF:  # 0 would ask our own process group; beyond, nobody's
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # it exists but is another user's, or we may not ask
        return True
    return True


# --- clearing -----------------------------------------------------------------------

CLEAR_LIMIT = 10_000
"""Entries looked at in each folder by `rulesref cache clear`: far more than a cache holds."""


def clear() -> list[Path]:
    """Remove every cached index and temp file rulesref wrote, in the cache folder and in the
    private temp folder; return what was removed. Only our own names, only regular files
    (never a link, whatever it points at); nothing else in either folder is touched."""
    removed: list[Path] = []
    folders = [f for f in (_configured(), _private_temp(create=False)) if f is not None]
    for folder in dict.fromkeys(folders):
        for entry, _, _ in _ours(folder, f"(?:{_INDEX})|(?:{_TEMP})", CLEAR_LIMIT):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    _note(f"cleared {len(removed)} file(s)")
    return removed
