"""Load and validate the rule corpus: rules/<game>/ into Game and Clause values.

A game folder holds ``game.yaml`` (who the game is), ``glossary.yaml`` (terms and table
slang), ``readings*.yaml`` (named interpretations, see readings.py) and any number of
clause files. Structural problems (bad YAML, a missing field, a wrong type, an unknown
key) raise CorpusError at once; cross-checks that a rule pack's author wants listed
together (duplicate ids, unresolved ``see``, pages outside the rulebook) are collected
in ``Game.problems`` for ``rulesref lint``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesref.clause import Clause, Misreading, rules_root
from rulesref.errors import CorpusError, did_you_mean

if TYPE_CHECKING:  # the YAML reader is imported only when a pack is actually read:
    # `ask` answers from its cached index without it
    from rulesref.source import Loaded, PathKey

CLAUSE_ID = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
"""``<topic>.<name>``: lowercase words and hyphens, dot-separated."""
KINDS = ("rule", "open")
ROLE_KEYS = ("mover", "target", "side", "actor", "card")
"""What a clause's ``roles:`` may say, and what a question's frame holds (frames.py)."""
ROLE_VALUES = {"actor": ("encountering", "other"), "card": ("boon", "bane")}
"""The values of the role keys that are not a game's sides."""
TERM_ROLE_KEYS = ("side", "relation", "card", "person")
"""What a glossary term's ``role:`` may say: the part it plays in a question's frame."""

__all__ = ["Clause", "Game", "Misreading", "Reading", "Term", "Topic", "game_folders", "load_game", "rules_root"]


@dataclass(frozen=True)
class Term:
    """A glossary term and the words players use for it."""

    term: str
    synonyms: tuple[str, ...]
    role: tuple[tuple[str, str], ...] = ()
    """The part it plays in a question's frame (frames.py), e.g. ``(("side", "house"),)``."""


@dataclass(frozen=True)
class Topic:
    """A part of the game the pack leaves out, with the ways players ask about it."""

    topic: str
    asks: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """One way to read an open question."""

    id: str
    says: str


@dataclass(frozen=True)
class Reading:
    """A named interpretation of a question the cited pages leave open."""

    id: str
    """Stable id, used as ``--reading ID=OPTION``."""
    game: str
    question: str
    """The open question, in a sentence."""
    open: str
    """Id of the ``open`` clause that states the question."""
    clauses: tuple[str, ...]
    """Ids of the rule clauses around the question."""
    options: tuple[Option, ...]
    default: str | None
    """The option used when none is chosen; None when no default is defensible."""
    why: str | None = None
    """Why the default is defensible."""

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.id == name), None)


@dataclass
class Game:
    """A rule pack: the game's identity, its clauses, glossary and readings."""

    id: str
    title: str
    aliases: tuple[str, ...]
    pages: tuple[int, int]
    """First and last printed page the pack covers."""
    sources: tuple[str, ...]
    folder: Path
    clauses: dict[str, Clause] = field(default_factory=dict)
    glossary: tuple[Term, ...] = ()
    readings: dict[str, Reading] = field(default_factory=dict)
    coverage: str = "engine"
    """Which clauses lint wants cited by a scenario: ``all``, or those the ``engine`` names."""
    speaker: str | None = None
    """The side "I" and "my" stand for in a question that does not say (frames.py)."""
    sides: tuple[str, ...] = ()
    """The game's two sides, when it has two (another player is the speaker's opponent)."""
    covers: str | None = None
    """What the pack covers, in a phrase (game.yaml ``scope.covers``)."""
    leaves_out: tuple[Topic, ...] = ()
    """The parts of the game (and the kinds of question) the pack leaves out: ``ask`` refuses them."""
    problems: list[str] = field(default_factory=list)
    """Cross-check failures, one line each, for ``lint``."""

    def clause(self, clause_id: str) -> Clause:
        from rulesref.errors import UnknownNameError

        try:
            return self.clauses[clause_id]
        except KeyError:
            raise UnknownNameError(
                f"unknown clause {clause_id!r} in {self.id}",
                hint=did_you_mean(clause_id, self.clauses),
            ) from None

    @property
    def misreadings(self) -> list[Misreading]:
        return [m for c in self.clauses.values() for m in c.misreadings]


# --- reading the files -------------------------------------------------------------


class _Fields:
    """Typed access to one mapping of a Loaded document, with errors at the right line."""

    def __init__(self, doc: Loaded, path: PathKey, allowed: dict[str, bool]) -> None:
        self.doc, self.path = doc, path
        value: Any = doc.data
        for part in path:
            value = value[part]
        if not isinstance(value, dict):
            raise doc.error(path, f"expected a mapping, got {_kind(value)}", cls=CorpusError)
        self.value = value
        for key in value:
            if key not in allowed:
                raise doc.error(
                    (*path, key),
                    f"unknown key {key!r}",
                    key=True,
                    cls=CorpusError,
                    hint=did_you_mean(str(key), allowed),
                )
        for key, required in allowed.items():
            if required and key not in value:
                raise doc.error(path, f"missing required key {key!r}", cls=CorpusError)

    def fail(self, key: str | int, message: str) -> CorpusError:
        err = self.doc.error((*self.path, key), message, cls=CorpusError)
        assert isinstance(err, CorpusError)
        return err

    def text(self, key: str, default: str | None = None) -> str:
        value = self.value.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected non-empty text, got {_kind(value)}")
        return " ".join(value.split())

    def maybe_text(self, key: str) -> str | None:
        return self.text(key) if key in self.value and self.value[key] is not None else None

    def words(self, key: str) -> tuple[str, ...]:
        value = self.value.get(key, [])
        if value is None:
            value = []
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, got {_kind(value)}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise self.doc.error((*self.path, key, i), "expected non-empty text", cls=CorpusError)
            out.append(" ".join(item.split()))
        return tuple(out)

    def pages(self, key: str) -> tuple[int, ...]:
        value = self.value.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(key, "expected a non-empty list of page numbers")
        for i, page in enumerate(value):
            if not isinstance(page, int) or isinstance(page, bool) or page < 1:
                raise self.doc.error((*self.path, key, i), f"expected a page number, got {page!r}", cls=CorpusError)
        return tuple(value)

    def line(self) -> int:
        return self.doc.mark(self.path)[0] or 0


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(type(value), type(value).__name__)


_CLAUSE_KEYS = {
    "id": True,
    "title": True,
    "text": True,
    "pages": True,
    "kind": False,
    "tags": False,
    "asks": False,
    "see": False,
    "misreadings": False,
    "page_note": False,
    "roles": False,
    "source": False,  # where the clause rests in the shared sources; checked by trace-check, not stored
}
_GAME_KEYS = {
    "id": True,
    "title": True,
    "aliases": False,
    "pages": True,
    "sources": True,
    "coverage": False,
    "speaker": False,
    "sides": False,
    "scope": False,
}
_READING_KEYS = {
    "id": True,
    "question": True,
    "open": True,
    "clauses": False,
    "options": True,
    "default": False,
    "why": False,
    "source": False,  # as for a clause: checked by trace-check, not stored
}


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_game(folder: Path) -> Game:
    """Load one rule pack. Raises CorpusError on a malformed file."""
    from rulesref.source import load_yaml

    game_file = folder / "game.yaml"
    if not game_file.is_file():
        raise CorpusError("rule pack has no game.yaml", file=_display(folder))
    doc = load_yaml(game_file, display=_display(game_file), cls=CorpusError)
    f = _Fields(doc, (), _GAME_KEYS)
    gid = f.text("id")
    pages = f.pages("pages")
    if len(pages) != 2 or pages[0] > pages[1]:
        raise f.fail("pages", "expected [first, last] printed page")
    game = Game(
        id=gid,
        title=f.text("title"),
        aliases=tuple(a.lower() for a in f.words("aliases")),
        pages=(pages[0], pages[1]),
        sources=f.words("sources"),
        folder=folder,
        coverage=f.value.get("coverage", "engine"),
        sides=f.words("sides"),
    )
    if "scope" in f.value:
        game.covers, game.leaves_out = _read_scope(doc)
    game.speaker = f.maybe_text("speaker")
    if game.speaker is not None and game.speaker not in game.sides:
        raise f.fail("speaker", f"speaker must be one of the sides ({', '.join(game.sides) or 'none given'})")
    if game.coverage not in ("all", "engine"):
        raise f.fail("coverage", "coverage must be 'all' or 'engine'")
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "game.yaml":
            continue
        doc = load_yaml(path, display=_display(path), cls=CorpusError)
        if path.name == "glossary.yaml":
            game.glossary += _read_glossary(doc)
        elif path.name.startswith("readings"):
            for reading in _read_readings(doc, game.id):
                if reading.id in game.readings:
                    game.problems.append(f"{doc.file}: reading {reading.id!r} defined twice")
                game.readings[reading.id] = reading
        else:
            for clause in _read_clauses(doc, game.id):
                if clause.id in game.clauses:
                    first = game.clauses[clause.id]
                    game.problems.append(
                        f"{clause.file}:{clause.line}: id {clause.id!r} already used at {first.file}:{first.line}"
                    )
                    continue
                game.clauses[clause.id] = clause
    _cross_check(game)
    return game


def _read_clauses(doc: Loaded, game: str) -> list[Clause]:
    if not isinstance(doc.data, list):
        raise doc.error((), "a clause file must be a list of clauses", cls=CorpusError)
    out = []
    for i in range(len(doc.data)):
        f = _Fields(doc, (i,), _CLAUSE_KEYS)
        cid = f.text("id")
        if not CLAUSE_ID.match(cid):
            raise f.fail("id", f"clause id {cid!r} is not of the form topic.name (lowercase, a-z 0-9 -)")
        kind = f.value.get("kind", "rule")
        if kind not in KINDS:
            raise f.fail("kind", f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        misreadings = []
        raw = f.value.get("misreadings") or []
        if not isinstance(raw, list):
            raise f.fail("misreadings", "expected a list of {claim, correction}")
        for j in range(len(raw)):
            m = _Fields(doc, (i, "misreadings", j), {"claim": True, "correction": True})
            misreadings.append(Misreading(m.text("claim"), m.text("correction"), cid))
        out.append(
            Clause(
                id=cid,
                game=game,
                title=f.text("title"),
                text=f.text("text"),
                pages=f.pages("pages"),
                kind=kind,
                tags=f.words("tags"),
                asks=f.words("asks"),
                see=f.words("see"),
                misreadings=tuple(misreadings),
                page_note=f.maybe_text("page_note"),
                file=doc.file,
                line=f.line(),
                roles=_roles(doc, (i, "roles"), f.value.get("roles"), ROLE_KEYS),
            )
        )
    return out


def _read_glossary(doc: Loaded) -> tuple[Term, ...]:
    if not isinstance(doc.data, list):
        raise doc.error((), "glossary.yaml must be a list of {term, synonyms}", cls=CorpusError)
    out = []
    for i in range(len(doc.data)):
        f = _Fields(doc, (i,), {"term": True, "synonyms": False, "role": False})
        role = _roles(doc, (i, "role"), f.value.get("role"), TERM_ROLE_KEYS)
        out.append(Term(f.text("term").lower(), tuple(s.lower() for s in f.words("synonyms")), role))
    return tuple(out)


def _read_scope(doc: Loaded) -> tuple[str, tuple[Topic, ...]]:
    """``scope: {covers: TEXT, leaves-out: [{topic: TEXT, asks: [...]}, ...]}``."""
    f = _Fields(doc, ("scope",), {"covers": True, "leaves-out": False})
    raw = f.value.get("leaves-out") or []
    if not isinstance(raw, list):
        raise f.fail("leaves-out", "expected a list of {topic, asks}")
    topics = []
    for i in range(len(raw)):
        t = _Fields(doc, ("scope", "leaves-out", i), {"topic": True, "asks": False})
        topics.append(Topic(t.text("topic"), t.words("asks")))
    return f.text("covers"), tuple(topics)


def _roles(doc: Loaded, path: PathKey, raw: Any, keys: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A ``roles:`` / ``role:`` mapping of frame key -> value, as sorted pairs."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        raise doc.error(path, f"expected a mapping of {' | '.join(keys)} -> value", cls=CorpusError)
    out = []
    for key, value in raw.items():
        if key not in keys:
            raise doc.error(
                (*path, key), f"unknown role {key!r}", key=True, cls=CorpusError, hint=did_you_mean(str(key), keys)
            )
        if not isinstance(value, str) or not value.strip():
            raise doc.error((*path, key), "expected a word, e.g. house", cls=CorpusError)
        out.append((str(key), value.strip()))
    return tuple(sorted(out))


def _read_readings(doc: Loaded, game: str) -> list[Reading]:
    if not isinstance(doc.data, list):
        raise doc.error((), "a readings file must be a list of readings", cls=CorpusError)
    out = []
    for i in range(len(doc.data)):
        f = _Fields(doc, (i,), _READING_KEYS)
        options_raw = f.value["options"]
        if not isinstance(options_raw, dict) or not options_raw:
            raise f.fail("options", "expected a mapping of option id -> what it says")
        options = []
        for key, says in options_raw.items():
            if not isinstance(says, str) or not says.strip():
                raise doc.error((i, "options", key), "expected non-empty text", cls=CorpusError)
            options.append(Option(str(key), " ".join(says.split())))
        default = f.value.get("default")
        if default is not None and (not isinstance(default, str) or default not in options_raw):
            raise f.fail(
                "default",
                f"default {default!r} is not one of the options",
            )
        out.append(
            Reading(
                id=f.text("id"),
                game=game,
                question=f.text("question"),
                open=f.text("open"),
                clauses=f.words("clauses"),
                options=tuple(options),
                default=default,
                why=f.maybe_text("why"),
            )
        )
    return out


def _cross_check(game: Game) -> None:
    """Problems that need the whole pack in view: collected, not raised."""
    first, last = game.pages
    for c in game.clauses.values():
        where = f"{c.file}:{c.line}: {c.id}"
        for page in c.pages:
            if not first <= page <= last:
                game.problems.append(f"{where}: page {page} is outside the rulebook range {first}-{last}")
        for target in c.see:
            if target not in game.clauses:
                hint = did_you_mean(target, game.clauses)
                game.problems.append(f"{where}: see {target!r} does not resolve" + (f"; {hint}" if hint else ""))
            elif target == c.id:
                game.problems.append(f"{where}: see points at itself")
        for key, value in c.roles:
            allowed = game.sides if key in ("mover", "target", "side") else ROLE_VALUES.get(key, ())
            if value not in allowed:
                game.problems.append(f"{where}: roles.{key} is {value!r}; expected one of {', '.join(allowed)}")
    for r in game.readings.values():
        for target in (r.open, *r.clauses):
            if target not in game.clauses:
                game.problems.append(f"reading {r.id}: clause {target!r} does not resolve")
        if r.open in game.clauses and game.clauses[r.open].kind != "open":
            game.problems.append(f"reading {r.id}: {r.open!r} is not an open question (kind: open)")


def game_folders(root: Path | None = None) -> list[Path]:
    """Every rule pack folder under the rules root, sorted."""
    root = root or rules_root()
    if not root.is_dir():
        raise CorpusError("rules folder not found", file=str(root))
    return sorted(p for p in root.iterdir() if (p / "game.yaml").is_file())
