"""The JSON contracts (docs/json.md), one call each for every front end.

`rulesref ... --json` (cli.py) and the web API (rulesref/web) print the same objects: each
value owns its shape (``to_json`` on Clause, Game, Reading, Ruling, Answer and the error),
and this module names the few combinations a command prints (a page's clauses, a `check`
entry: a ruling or the error in its place).

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

from rulesref.corpus import Clause, Game, Misreading, Reading
from rulesref.errors import RulesrefError
from rulesref.ruling import Ruling, unreadable_json


def clause_json(clause: Clause, game: Game) -> dict[str, Any]:
    """A clause as `show --json` gives it."""
    return clause.to_json(game.clauses)


def page_json(number: int, game: str | None, found: Iterable[tuple[Game, Clause]]) -> dict[str, Any]:
    """`page N --json`: every clause citing the page."""
    return {"page": number, "game": game, "results": [c.to_json(g.clauses) for g, c in found]}


def myths_json(found: Iterable[tuple[Game, Misreading]]) -> list[dict[str, Any]]:
    """`myths --json`: each misreading and the clause that corrects it."""
    return [g.myth_json(m) for g, m in found]


def readings_json(found: Iterable[Reading]) -> list[dict[str, Any]]:
    """`readings --json`: each named reading of an open question, with its options."""
    return [r.to_json() for r in found]


def games_json(found: Iterable[Game]) -> list[dict[str, Any]]:
    """`games --json`: what each game's pack covers and leaves out."""
    return [g.to_json() for g in found]


def ruling_entry(ruling: Ruling) -> dict[str, Any]:
    """A `check --json` entry for a file ruled on."""
    return ruling.to_json()


def error_entry(problem: RulesrefError, file: str) -> dict[str, Any]:
    """A `check --json` entry for a file that could not be read."""
    return unreadable_json(problem, file)


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
