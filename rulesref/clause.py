"""A clause and a misreading: the values `ask` returns, kept apart from the corpus loader
(corpus.py) so that answering from the cached index loads neither it nor its YAML reader.
They are NamedTuples, not dataclasses, because defining a dataclass costs a millisecond or
two on every start."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple


def rules_root() -> Path:
    """Where the rule packs are: $RULESREF_RULES, else inside the installed package, else the checkout."""
    env = os.environ.get("RULESREF_RULES")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    shipped = here / "rules"  # a wheel carries rules/ inside the package
    return shipped if shipped.is_dir() else here.parent / "rules"


class Misreading(NamedTuple):
    """A common wrong reading of the rules, and the clause that corrects it."""

    claim: str
    """The wrong belief, as a player states it."""
    correction: str
    """What the rules actually say, in a sentence or two."""
    clause: str
    """Id of the clause that corrects it."""


class Clause(NamedTuple):
    """One rule (or one question the rules leave open), in the project's own words."""

    id: str
    """Stable id, ``<topic>.<name>``."""
    game: str
    """Id of the game it belongs to."""
    title: str
    """A one-line statement of the rule."""
    text: str
    """The rule, complete on its own."""
    pages: tuple[int, ...]
    """Printed rulebook pages it rests on."""
    kind: str = "rule"
    """``rule``: the cited pages settle it; ``open``: the cited pages do not."""
    tags: tuple[str, ...] = ()
    """Topic words, for lookup and listing."""
    asks: tuple[str, ...] = ()
    """Ways players ask for this clause, for lookup."""
    see: tuple[str, ...] = ()
    """Ids of related clauses."""
    misreadings: tuple[Misreading, ...] = ()
    """Wrong readings this clause corrects."""
    page_note: str | None = None
    """Set when a page is inferred rather than printed beside the text."""
    file: str = ""
    """The clause file it came from, for messages."""
    line: int = 0
    """Its line in that file."""
    roles: tuple[tuple[str, str], ...] = ()
    """Who acts, where the clause's meaning depends on it (frames.py): ``(("mover", "house"), ...)``."""
