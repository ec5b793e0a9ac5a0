"""The JSON contracts (docs/json.md), one call each for every front end.

`rulesref ... --json` (cli.py) and the web API (rulesref/web) print the same objects: each
value owns its shape (``to_json`` on Clause, Game, Reading, Ruling, Answer, and
ruling.unreadable_json for the error in a ruling's place), and this module names the two
combinations a command prints: a page's clauses, and the misreadings with their games.

Also here: ruling on a scenario given as bytes (standard input, a request body), read
exactly as a file is, with the same limits and messages.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rulesref.corpus import Clause, Game, Misreading
from rulesref.ruling import Ruling


def page_json(number: int, game: str | None, found: Iterable[tuple[Game, Clause]]) -> dict[str, Any]:
    """`page N --json`: every clause citing the page."""
    return {"page": number, "game": game, "results": [c.to_json(g.clauses) for g, c in found]}


def myths_json(found: Iterable[tuple[Game, Misreading]]) -> list[dict[str, Any]]:
    """`myths --json`: each misreading and the clause that corrects it."""
    return [g.myth_json(m) for g, m in found]


def rule_bytes(raw: bytes, name: str, overrides: Iterable[tuple[str, str]] = (), *, picture: bool = False) -> Ruling:
    """The ruling on a scenario given as bytes, named ``name`` in every message and ruling.

    The bytes go through a private temp file, so the scenario is read exactly as a file is
    (the same size, depth and value limits and messages). Raises RulesrefError when it
    cannot be read; the temp file's path appears nowhere in what is returned or raised.
    """
    from rulesref.referee import referee
    from rulesref.scenario import read_scenario

    fd, tmp = tempfile.mkstemp(prefix="rulesref-scenario-", suffix=".yaml")  # mode 0600: only ours
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        return referee(read_scenario(Path(tmp), display=name), overrides, picture=picture)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
