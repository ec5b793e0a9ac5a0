"""The JSON contracts (docs/json.md), built in one place for every front end.

`rulesref ... --json` (cli.py) and the web API (rulesref/web) print the same objects, so
each is built here once: a clause, a page, the myths, the readings, the games, a `check`
entry (a ruling or the error in its place). `ask` has its own in lookup.Answer.to_json.

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
from rulesref.errors import RulesrefError, ScenarioError
from rulesref.lookup import SCHEMA_VERSION
from rulesref.ruling import Ruling


def clause_json(clause: Clause, game: Game) -> dict[str, Any]:
    """A clause as `show --json` gives it."""
    return {
        "id": clause.id,
        "game": clause.game,
        "title": clause.title,
        "kind": clause.kind,
        "text": clause.text,
        "pages": list(clause.pages),
        "page_note": clause.page_note,
        "source": list(clause.source),
        "tags": list(clause.tags),
        "see": [{"id": s, "title": game.clauses[s].title} for s in clause.see if s in game.clauses],
        "misreadings": [{"claim": m.claim, "correction": m.correction} for m in clause.misreadings],
    }


def page_json(number: int, game: str | None, found: Iterable[tuple[Game, Clause]]) -> dict[str, Any]:
    """`page N --json`: every clause citing the page."""
    return {"page": number, "game": game, "results": [clause_json(c, g) for g, c in found]}


def myths_json(found: Iterable[tuple[Game, Misreading]]) -> list[dict[str, Any]]:
    """`myths --json`: each misreading and the clause that corrects it."""
    return [
        {
            "game": g.id,
            "claim": m.claim,
            "correction": m.correction,
            "clause": m.clause,
            "pages": list(g.clauses[m.clause].pages),
        }
        for g, m in found
    ]


def readings_json(found: Iterable[Any]) -> list[dict[str, Any]]:
    """`readings --json`: each named reading of an open question, with its options."""
    return [
        {
            "id": r.id,
            "game": r.game,
            "question": r.question,
            "open": r.open,
            "clauses": list(r.clauses),
            "default": r.default,
            "why": r.why,
            "options": [{"id": o.id, "says": o.says} for o in r.options],
        }
        for r in found
    ]


def games_json(found: Iterable[Game]) -> list[dict[str, Any]]:
    """`games --json`: what each game's pack covers and leaves out."""
    return [
        {
            "id": g.id,
            "title": g.title,
            "aliases": list(g.aliases),
            "pages": list(g.pages),
            "clauses": len(g.clauses),
            "readings": len(g.readings),
            "covers": g.covers,
            "leaves_out": [t.topic for t in g.leaves_out],
        }
        for g in found
    ]


def error_json(exc: RulesrefError) -> dict[str, Any]:
    """An unreadable file's ``error`` in `check --json`: where, and what is wrong (docs/json.md)."""
    return {
        "file": exc.file,
        "line": exc.line,
        "column": exc.column,
        "field": exc.field,
        "message": exc.message + (f"; {exc.hint}" if exc.hint else ""),
    }


def ruling_entry(ruling: Ruling) -> dict[str, Any]:
    """A `check --json` entry for a file ruled on."""
    return {"schema_version": SCHEMA_VERSION, **ruling.to_json(), "error": None}


def error_entry(problem: RulesrefError, file: str) -> dict[str, Any]:
    """A `check --json` entry for a file that could not be read."""
    return {"schema_version": SCHEMA_VERSION, "file": problem.file or file, "error": error_json(problem)}


def rule_bytes(raw: bytes, name: str, overrides: Iterable[tuple[str, str]] = (), *, picture: bool = False) -> Ruling:
    """The ruling on a scenario given as bytes, named ``name`` in every message and ruling.

    The bytes go through a private temp file, so the scenario is read exactly as a file is
    (the same size, depth and value limits and messages). Raises RulesrefError when it
    cannot be read; the temp file's path appears nowhere in what is returned or raised.
    """
    from rulesref.referee import referee
    from rulesref.scenario import read_scenario
    from rulesref.source import MAX_BYTES

    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"the scenario is over {MAX_BYTES:,} bytes, the limit", file=name)
    fd, tmp = tempfile.mkstemp(prefix="rulesref-scenario-", suffix=".yaml")  # mode 0600: only ours
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        return referee(read_scenario(Path(tmp), display=name), overrides, picture=picture)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
