"""Load and validate the rule corpus: rules/<game>/ into Game and Clause values.

A game folder holds ``game.yaml`` (who the game is), ``glossary.yaml`` (terms and table
slang), ``readings*.yaml`` (named interpretations, see readings.py) and any number of
clause files. Structural problems (an unreadable folder or file, bad YAML, a missing
field, a wrong type, an unknown key) raise CorpusError at once. Cross-checks that need
the whole pack in view are collected in ``Game.problems`` for ``rulesref lint``, which
lists them together. Those that make the pack unusable, a citation that does not resolve
(a ``see``, a reading's ``open`` or ``clauses``: what a missing clause file looks like),
are also ``Game.faults``: loading raises the first, so every other command refuses the
pack instead of answering from it or citing clauses that are not there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesref.clause import Clause, Misreading, rules_root
from rulesref.errors import CorpusError, RulesrefError, did_you_mean
from rulesref.fields import Fields

if TYPE_CHECKING:  # the YAML reader is imported only when a pack is actually read:
    # `ask` answers from its cached index without it
    from rulesref.source import Loaded, PathKey

CLAUSE_ID = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
"""``<topic>.<name>``: lowercase words and hyphens, dot-separated."""
GAME_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
"""A game id: lowercase words joined by hyphens. It names the engine package (``-`` as ``_``)."""
KINDS = ("rule", "open")
ROLE_KEYS = ("mover", "target", "side", "actor", "card", "count", "target-state", "about", "moving")
"""What a clause's ``roles:`` may say, and what a question's frame holds (frames.py)."""
SOURCE_REF = re.compile(
    r"\d{3}:\d+(-\d+)?"  # a line (or lines) of a verbatim source page: 003:19, 003:19-20
    r"|hvda:(rule|open) \d+"  # a row of the Houses vs. Dark Arts rules table, an open question
    r"|pacg:\s*\S.*\s\[(R|FAQ|D|C|Old)\]"  # a section of the PACG facts, with its confidence tag
)
"""The forms of a ``source:`` reference (../shared/tools/trace-check resolves them)."""
ROLE_VALUES = {
    "actor": ("encountering", "other"),
    "card": ("boon", "bane"),
    "count": ("several", "any"),
    "target-state": ("stunned",),
    "about": ("mover", "target"),
    "moving": ("who", "can"),
}
"""The values of the role keys that are not a game's sides."""
TERM_ROLE_KEYS = ("side", "relation", "card", "person", "mover", "target")
"""What a glossary term's ``role:`` may say: the part it plays in a question's frame."""

__all__ = [
    "Clause",
    "Game",
    "Misreading",
    "NotInPack",
    "Reading",
    "Term",
    "Topic",
    "game_folders",
    "load_game",
    "rules_root",
]


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
    cues: tuple[str, ...] = ()
    """Words that mark a question as this kind wherever they stand ("the best", "worth"): a
    strategy question shares its other words with the rules it asks advice about."""
    names: tuple[str, ...] = ()
    """Names of something else altogether (another game: "chess", "Cluedo"): a question that
    uses one is about that, and is refused as this topic however near a rule its other
    words are ("in chess can a pawn ever move backwards")."""


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
    source: tuple[str, ...] = ()
    """Where it rests in the shared sources: references such as ``003:19`` or ``hvda:open 10``."""

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.id == name), None)

    def to_json(self) -> dict[str, Any]:
        """The `readings --json` shape."""
        return {
            "id": self.id,
            "game": self.game,
            "question": self.question,
            "open": self.open,
            "clauses": list(self.clauses),
            "default": self.default,
            "why": self.why,
            "options": [{"id": o.id, "says": o.says} for o in self.options],
        }


class NotInPack(CorpusError):
    """A clause or reading the engine cites that the rule pack does not have.

    The shipped engines and packs are linted together (lint.engine_citations), so met at
    run time this means the pack is incomplete (RULESREF_RULES at an edited copy, a clause
    file deleted): the rule pack's fault, named by its folder and the id, and never blamed
    on the scenario being ruled (referee.referee adds which one met it). A CorpusError, so
    every command refuses it in one line.
    """

    @classmethod
    def of(cls, game: Game, what: str) -> NotInPack:
        # a constructor of its own would break the pickling RulesrefError does for `check`'s workers
        return cls(what, file=display(game.folder), hint=f"{MISSING_FILE} {LINT_LISTS}")

    def ruling(self, scenario: str) -> NotInPack:
        """The same fault, saying which scenario met it and that the scenario is not to blame."""
        self.message += f" (met ruling {scenario}: the fault is the rule pack's, not the scenario's)"
        return self


MISSING_FILE = "is a clause file missing or renamed?"
LINT_LISTS = "`rulesref lint` lists every problem of the rule pack"


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
    faults: list[CorpusError] = field(default_factory=list)
    """The problems that make the pack unusable (a citation that does not resolve)."""

    def clause(self, clause_id: str) -> Clause:
        """A clause the engine cites; NotInPack (the pack's fault) when the pack lacks it."""
        try:
            return self.clauses[clause_id]
        except KeyError:
            raise NotInPack.of(self, f"the rule pack has no clause {clause_id!r}, which its engine cites") from None

    @property
    def misreadings(self) -> list[Misreading]:
        return [m for c in self.clauses.values() for m in c.misreadings]

    def to_json(self) -> dict[str, Any]:
        """The `games --json` shape: who the game is and what its pack covers."""
        return {
            "id": self.id,
            "title": self.title,
            "aliases": list(self.aliases),
            "pages": list(self.pages),
            "clauses": len(self.clauses),
            "readings": len(self.readings),
            "covers": self.covers,
            "leaves_out": [t.topic for t in self.leaves_out],
        }

    def myth_json(self, myth: Misreading) -> dict[str, Any]:
        """One of this game's misreadings as `myths --json` gives it: with its game and the pages corrected."""
        pages = list(self.clauses[myth.clause].pages)
        return {"game": self.id, **myth.to_json(), "clause": myth.clause, "pages": pages}


# --- reading the files -------------------------------------------------------------


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
    "inferred_pages": False,  # those of pages that are inferred, where only some are (page_note says why)
    "roles": False,
    "source": False,  # where the clause rests in the shared sources (lint checks its form, trace-check resolves it)
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
    "source": False,  # as for a clause
}


def display(path: Path) -> str:
    """A path as messages show it: relative to the working folder when it is under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_game(folder: Path, *, strict: bool = True) -> Game:
    """Load one rule pack. Raises CorpusError on a malformed or unreadable file.

    ``strict`` (the default) also raises the pack's first fault (see ``Game.faults``);
    ``lint`` loads with ``strict=False`` to list every one.
    """
    from rulesref.source import load_yaml

    names = _yaml_files(folder)
    if "game.yaml" not in names:
        raise CorpusError("rule pack has no game.yaml", file=display(folder))
    game_file = folder / "game.yaml"
    doc = load_yaml(game_file, display=display(game_file), cls=CorpusError)
    f = Fields(doc, (), _GAME_KEYS, cls=CorpusError)
    gid = f.text("id")
    if not GAME_ID.match(gid):
        raise f.fail("id", f"game id {gid!r} is not lowercase words joined by hyphens (it names the engine package)")
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
    cited: list[tuple[Reading, Loaded, int]] = []
    for name in names:
        if name == "game.yaml":
            continue
        path = folder / name
        doc = load_yaml(path, display=display(path), cls=CorpusError)
        if name == "glossary.yaml":
            game.glossary += _read_glossary(doc)
        elif name.startswith("readings"):
            for i, reading in enumerate(_read_readings(doc, game.id)):
                if reading.id in game.readings:
                    game.problems.append(f"{doc.file}: reading {reading.id!r} defined twice")
                game.readings[reading.id] = reading
                cited.append((reading, doc, i))
        else:
            for clause in _read_clauses(doc, game.id):
                if clause.id in game.clauses:
                    first = game.clauses[clause.id]
                    game.problems.append(
                        f"{clause.file}:{clause.line}: id {clause.id!r} already used at {first.file}:{first.line}"
                    )
                    continue
                game.clauses[clause.id] = clause
    _cross_check(game, cited)
    if strict and game.faults:
        raise _refused(game.faults[0])
    return game


def _yaml_files(folder: Path) -> list[str]:
    """The rule files of a pack folder (``*.yaml``), sorted."""
    try:
        with os.scandir(folder) as listing:
            return sorted(e.name for e in listing if e.name.endswith(".yaml"))
    except FileNotFoundError:
        raise CorpusError("rule pack folder not found", file=display(folder)) from None
    except PermissionError:
        raise CorpusError("cannot read this folder: permission denied", file=display(folder)) from None
    except OSError as exc:
        raise CorpusError(f"cannot read this folder: {exc.strerror or exc}", file=display(folder)) from None


def _entries(doc: Loaded, keys: dict[str, bool], refusal: str) -> Iterator[tuple[int, Fields]]:
    """Each entry of a rule file that is a list (of clauses, terms, readings), read as Fields."""
    if not isinstance(doc.data, list):
        raise doc.error((), refusal, cls=CorpusError)
    for i in range(len(doc.data)):
        yield i, Fields(doc, (i,), keys, cls=CorpusError)


def _read_clauses(doc: Loaded, game: str) -> list[Clause]:
    out = []
    for i, f in _entries(doc, _CLAUSE_KEYS, "a clause file must be a list of clauses"):
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
            m = Fields(doc, (i, "misreadings", j), {"claim": True, "correction": True}, cls=CorpusError)
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
                source=f.refs("source"),
                inferred_pages=f.pages("inferred_pages") if "inferred_pages" in f.value else (),
            )
        )
    return out


def _read_glossary(doc: Loaded) -> tuple[Term, ...]:
    out = []
    terms = {"term": True, "synonyms": False, "role": False}
    for i, f in _entries(doc, terms, "glossary.yaml must be a list of {term, synonyms}"):
        role = _roles(doc, (i, "role"), f.value.get("role"), TERM_ROLE_KEYS)
        out.append(Term(f.text("term").lower(), tuple(s.lower() for s in f.words("synonyms")), role))
    return tuple(out)


def _read_scope(doc: Loaded) -> tuple[str, tuple[Topic, ...]]:
    """``scope: {covers: TEXT, leaves-out: [{topic: TEXT, asks: [...], cues: [...], names: [...]}, ...]}``."""
    f = Fields(doc, ("scope",), {"covers": True, "leaves-out": False}, cls=CorpusError)
    raw = f.value.get("leaves-out") or []
    if not isinstance(raw, list):
        raise f.fail("leaves-out", "expected a list of {topic, asks}")
    topics = []
    for i in range(len(raw)):
        keys = {"topic": True, "asks": False, "cues": False, "names": False}
        t = Fields(doc, ("scope", "leaves-out", i), keys, cls=CorpusError)
        topics.append(Topic(t.text("topic"), t.words("asks"), t.words("cues"), t.words("names")))
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
    out = []
    for i, f in _entries(doc, _READING_KEYS, "a readings file must be a list of readings"):
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
            raise f.fail("default", f"default {default!r} is not one of the options")
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
                source=f.refs("source"),
            )
        )
    return out


def _cross_check(game: Game, cited: list[tuple[Reading, Loaded, int]]) -> None:
    """Problems that need the whole pack in view: collected, not raised (faults too)."""
    first, last = game.pages
    for c in game.clauses.values():
        where = f"{c.file}:{c.line}: {c.id}"
        for page in c.pages:
            if not first <= page <= last:
                game.problems.append(f"{where}: page {page} is outside the rulebook range {first}-{last}")
        if c.inferred_pages and not c.page_note:
            game.problems.append(f"{where}: inferred_pages needs a page_note saying why")
        for page in c.inferred_pages:
            if page not in c.pages:
                game.problems.append(f"{where}: inferred page {page} is not one of its pages {list(c.pages)}")
        for target in c.see:
            if target not in game.clauses:
                message = f"see {target!r} does not resolve"
                hint = _unresolved(target, game)
                _fault(game, CorpusError(message, file=c.file, line=c.line, field=c.id, hint=hint))
            elif target == c.id:
                game.problems.append(f"{where}: see points at itself")
        for key, value in c.roles:
            allowed = game.sides if key in ("mover", "target", "side") else ROLE_VALUES.get(key, ())
            if value not in allowed:
                game.problems.append(f"{where}: roles.{key} is {value!r}; expected one of {', '.join(allowed)}")
        game.problems += _trace_problems(where, c.source)
    for r, doc, i in cited:
        game.problems += _trace_problems(f"{doc.file}: reading {r.id}", r.source)
        paths: list[tuple[PathKey, str]] = [((i, "open"), r.open)]
        paths += [((i, "clauses", j), cid) for j, cid in enumerate(r.clauses)]
        for path, target in paths:
            if target not in game.clauses:
                message = f"reading {r.id!r} cites clause {target!r}, which the rule pack does not have"
                hint = _unresolved(target, game)
                _fault(game, doc.error(path, message, hint=hint, cls=CorpusError))
        if r.open in game.clauses and game.clauses[r.open].kind != "open":
            message = f"reading {r.id}: {r.open!r} is not an open question (kind: open)"
            game.problems.append(str(doc.error((i, "open"), message, cls=CorpusError)))


def _trace_problems(where: str, refs: tuple[str, ...]) -> list[str]:
    """A clause or reading must name where it rests (docs/corpus.md, "Tracing a clause")."""
    if not refs:
        return [f"{where}: no source: (the lines of the shared sources it rests on)"]
    return [
        f"{where}: source {ref!r} is not a reference (000:9, 003:19-20, hvda:rule 19, hvda:open 10, pacg:2.2 [R])"
        for ref in refs
        if not SOURCE_REF.fullmatch(ref)
    ]


def _unresolved(target: str, game: Game) -> str:
    """The hint for a citation that does not resolve: a near miss in its topic, or a file gone missing."""
    topic = target.split(".")[0]
    # near misses from the same topic only: across topics difflib's best guess misleads
    # ('move.obstacles-house' is not 'open.obstacle-cards')
    same = [cid for cid in game.clauses if cid.split(".")[0] == topic]
    return did_you_mean(target, same) or MISSING_FILE


def _fault(game: Game, err: RulesrefError) -> None:
    assert isinstance(err, CorpusError)
    game.faults.append(err)
    game.problems.append(str(err))


def _refused(err: CorpusError) -> CorpusError:
    """A fault as the commands other than lint refuse with it: pointing at lint for the rest."""
    hint = f"{err.hint}{' ' if err.hint.endswith('?') else '; '}{LINT_LISTS}" if err.hint else LINT_LISTS
    return CorpusError(err.message, file=err.file, line=err.line, column=err.column, field=err.field, hint=hint)


def game_folders(root: Path | None = None) -> list[Path]:
    """Every rule pack folder under the rules root (a folder holding game.yaml), sorted.

    Without ``root``, rules_root() finds it and checks it first (it refuses a folder that is
    one game's pack, holds none, or cannot be read).
    """
    root = root or rules_root()
    try:
        with os.scandir(root) as listing:
            folders = sorted(Path(e.path) for e in listing if e.is_dir() and not e.name.startswith("."))
    except FileNotFoundError:
        raise CorpusError("rules folder not found", file=str(root)) from None
    except OSError as exc:
        raise CorpusError(f"cannot read the rules folder: {exc.strerror or exc}", file=str(root)) from None
    # lexists: a game.yaml that is a broken link still marks a pack, and load_game says what is wrong
    return [folder for folder in folders if os.path.lexists(folder / "game.yaml")]
