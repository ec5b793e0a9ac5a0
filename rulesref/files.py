"""Bounded reads of what rulesref does not trust: a config, rule, scenario or cache file, a pipe.

Plain Python with no imports beyond ``os``: the config file is read on every start, the
YAML reader and the index cache share it, and none may pay for the others' imports.
"""

from __future__ import annotations

import os
from collections.abc import Callable

OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
"""How a file is opened to be read: non-blocking, so a FIFO or a device named like a file
opens at once (and is refused after fstat) instead of waiting forever; not inherited."""


def read_up_to(read: Callable[[int], bytes], limit: int) -> bytes:
    """At most ``limit`` bytes from ``read`` (``os.read`` of a descriptor, a stream's ``read``):
    to the end, or to the limit, never further, since a pipe or a growing file may never end.
    Read ``limit + 1`` to tell a source that holds too much from one that fits."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = read(limit - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


class NotAFile(ValueError):
    """read_regular: the path is a folder, a FIFO, a device: anything but a regular file."""


class TooLarge(ValueError):
    """read_regular: the file holds more than the limit."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes | None:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; None when there
    is no such file. Opened non-blocking and checked with fstat before a byte is read, so a
    FIFO named like the file does not hang the caller. Raises NotAFile, TooLarge, or the
    OSError of a file that cannot be read; each caller says which file it was."""
    import stat

    try:
        fd = os.open(path, OPEN_FLAGS)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotAFile(path)
        if st.st_size > limit:
            raise TooLarge(path)
        raw = read_up_to(lambda n: os.read(fd, n), limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:  # grown since fstat
        raise TooLarge(path)
    return raw
