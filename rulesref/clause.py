"""A clause and a misreading: the values `ask` returns, kept apart from the corpus loader
(corpus.py) so that answering from the cached index loads neither it nor its YAML reader.
They are NamedTuples, not dataclasses, because defining a dataclass costs a millisecond or
two on every start."""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

SCHEMA_VERSION = 1
"""The version of the JSON contracts of `ask` and `check` (docs/json.md): raised when a key
changes meaning or goes; adding a key does not raise it."""


def rules_root() -> Path:
    """Where the rule packs are: $RULESREF_RULES, else inside the installed package, else the checkout.

    The folder is checked before anything is read from it (or from a cached index of it),
    because a wrong one fails quietly otherwise: one game's own folder, or a folder with no
    game in it, would answer every question with "no clause matches". Raises CorpusError,
    one line naming the folder: missing, not a folder, unreadable (it or a folder in it),
    one game's pack rather than the folder above it, holding no pack, or holding a folder of
    rule files without its game.yaml.
    """
    from rulesref.errors import CorpusError  # here: `ask` imports this module on every start

    env = os.environ.get("RULESREF_RULES")
    if env is not None and not env.strip():
        env = None  # set but empty is unset, as for the XDG folders (and RULESREF_CACHE)
    if env is None:
        here = Path(__file__).resolve().parent
        shipped = here / "rules"  # a wheel carries rules/ inside the package
        root = shipped if shipped.is_dir() else here.parent / "rules"
        aim = "the rulesref installation has no usable rules folder"
    else:
        root = Path(env)
        aim = "RULESREF_RULES must name the rules folder, the one holding a folder per game"

    def unreadable(path: str, exc: OSError) -> CorpusError:
        if isinstance(exc, FileNotFoundError):
            return CorpusError("rules folder not found", file=path)
        if isinstance(exc, NotADirectoryError):
            return CorpusError("is not a folder", file=path, hint=aim)
        if isinstance(exc, PermissionError):
            return CorpusError("cannot read this folder: permission denied", file=path)
        if exc.errno == errno.ELOOP:
            return CorpusError("is a symbolic link loop", file=path)
        return CorpusError(f"cannot read this folder: {exc.strerror or exc}", file=path)

    name = str(root)
    try:
        with os.scandir(root) as listing:
            entries = sorted((e.name, e.is_dir()) for e in listing if not e.name.startswith("."))
    except OSError as exc:
        raise unreadable(name, exc) from None
    if any(entry == "game.yaml" for entry, _ in entries):
        parent = root.parent if str(root.parent) != "." else root.absolute().parent
        hint = f"point RULESREF_RULES at the folder above it, {parent}" if env is not None else aim
        raise CorpusError("is one game's rule pack (it holds game.yaml), not the rules folder", file=name, hint=hint)
    packs, strays = 0, []
    for entry, is_dir in entries:  # one listing per folder: as many as the rules folder holds
        if not is_dir:
            continue
        folder = os.path.join(name, entry)
        try:
            with os.scandir(folder) as listing:
                files = [e.name for e in listing if e.name.endswith(".yaml") and not e.name.startswith(".")]
        except OSError as exc:
            raise unreadable(folder, exc) from None
        if "game.yaml" in files:
            packs += 1
        elif files:
            strays.append(folder)
    if not packs:
        raise CorpusError("holds no rule pack (no folder in it has a game.yaml)", file=name, hint=aim)
    if strays:
        raise CorpusError(
            "holds rule files but no game.yaml, so it is no rule pack",
            file=strays[0],
            hint="a rule pack needs its game.yaml: id, title, pages, sources",
        )
    return root


class Misreading(NamedTuple):
    """A common wrong reading of the rules, and the clause that corrects it."""

    claim: str
    """The wrong belief, as a player states it."""
    correction: str
    """What the rules actually say, in a sentence or two."""
    clause: str
    """Id of the clause that corrects it."""

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim, "correction": self.correction}


INFERRED = "Inferred:"
"""How a page_note opens when the clause's pages are inferred (docs/corpus.md)."""


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
    """Why a page is cited as it is; one starting ``Inferred:`` says every page is inferred
    (the sources give the fact without a page), which every view of the page says."""
    file: str = ""
    """The clause file it came from, for messages."""
    line: int = 0
    """Its line in that file."""
    source: tuple[str, ...] = ()
    """Where it rests in the shared sources: references such as ``000:9`` or ``pacg:2.2 [R]``."""
    roles: tuple[tuple[str, str], ...] = ()
    """Who acts, where the clause's meaning depends on it (frames.py): ``(("mover", "house"), ...)``."""
    inferred_pages: tuple[int, ...] = ()
    """Those of ``pages`` that are inferred, where only some are (``inferred_pages:``)."""

    @property
    def pages_inferred(self) -> tuple[int, ...]:
        """The pages that are the pack's inference, not printed beside the fact in the sources:
        all of them when the page_note opens ``Inferred:``, else ``inferred_pages``."""
        return self.pages if (self.page_note or "").startswith(INFERRED) else self.inferred_pages

    def to_json(self, clauses: Mapping[str, Clause]) -> dict[str, Any]:
        """The `show`/`page --json` shape; ``clauses`` (its game's) give the titles of those it sees."""
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "kind": self.kind,
            "text": self.text,
            "pages": list(self.pages),
            "page_note": self.page_note,
            "pages_inferred": list(self.pages_inferred),
            "source": list(self.source),
            "tags": list(self.tags),
            "see": [{"id": s, "title": clauses[s].title} for s in self.see if s in clauses],
            "misreadings": [m.to_json() for m in self.misreadings],
        }
