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
