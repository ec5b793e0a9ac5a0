"""The ruling layer every engine stands on: the Trail it cites through, and the Ruling it gives.

An engine reads its situation, then rules through a ``Trail``: each step it applies names a
clause of the game's pack (a rule step, a step resting on a named reading, an open step),
and an ``Illegal`` or ``Undetermined`` raised through the Trail ends the ruling. The
referee (referee.py) turns the engine's ``Outcome`` and the Trail into a ``Ruling``.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from rulesref.clause import SCHEMA_VERSION
from rulesref.corpus import NotInPack
from rulesref.errors import RulesrefError, ScenarioError, did_you_mean

if TYPE_CHECKING:
    from rulesref.corpus import Game, Reading
    from rulesref.source import Loaded

ENVELOPE = ("game", "title", "readings", "expect", "claims", "notes")
"""The scenario keys every game shares; the rest of the mapping is the game's situation."""


class Verdict(str, enum.Enum):
    """The referee's answer about the action in question."""

    LEGAL = "legal"
    """The action is allowed and its outcome is stated."""
    ILLEGAL = "illegal"
    """The action breaks a rule; the steps say which."""
    UNDETERMINED = "undetermined"
    """The cited pages do not settle it and no reading was chosen."""


class Basis(str, enum.Enum):
    """What a step rests on."""

    RULE = "rule"
    """The cited pages settle it."""
    READING = "reading"
    """A named interpretation (``rulesref readings``) settles it."""
    OPEN = "open"
    """Nothing settles it: the step names the open question."""


@dataclass(frozen=True)
class RulingStep:
    """One thing the referee applied, with the clause and pages it rests on."""

    says: str
    """What happened, in plain words."""
    clause: str
    """Id of the clause applied."""
    pages: tuple[int, ...]
    """The clause's printed pages (never typed twice: taken from the clause)."""
    basis: Basis = Basis.RULE
    reading: str | None = None
    """``id=option`` when the step rests on a reading."""
    decides: bool = False
    """Whether the verdict rests on this step (``Ruling.steps`` says for every step)."""
    pages_inferred: tuple[int, ...] = ()
    """Those of the clause's pages that are inferred, not printed beside the fact (Clause.pages_inferred)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "says": self.says,
            "clause": self.clause,
            "pages": list(self.pages),
            "pages_inferred": list(self.pages_inferred),
            "basis": self.basis.value,
            "reading": self.reading,
            "decides": self.decides,
        }


@dataclass(frozen=True)
class Claim:
    """A player's reading of the situation, and whether the ruling upholds it.

    A claim names a verdict, or what the player says happens (a partial resulting state,
    matched as ``expect.state`` is), or both; it is upheld only if every part holds.
    """

    by: str
    says: str
    """What the player said, in a line: the verdict and/or the outcome, e.g.
    ``players.gryffindor.hand = 3``."""
    upheld: bool | None
    """None when the ruling is undetermined and the claim was legal or illegal, or named an
    outcome: the printed pages cannot settle it."""
    verdict: str | None = None
    """The verdict claimed, if any."""
    state: dict[str, Any] | None = None
    """The outcome claimed (a partial resulting state), if any."""
    differs: tuple[str, ...] = ()
    """Where the ruling differs from the claim, one line each (as ``expect`` mismatches)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "says": self.says,
            "upheld": self.upheld,
            "verdict": self.verdict,
            "state": self.state,
            "differs": list(self.differs),
        }


@dataclass(frozen=True)
class Expectation:
    """How the ruling compares with a scenario's ``expect`` block."""

    ok: bool
    mismatches: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "mismatches": list(self.mismatches)}


@dataclass(frozen=True)
class Ruling:
    """The referee's whole answer about one scenario."""

    file: str
    game: str
    title: str
    verdict: Verdict
    summary: str
    steps: tuple[RulingStep, ...]
    """What the referee applied, in order; those the verdict rests on have ``decides`` set
    (made so on construction: ``mark_deciding``)."""
    state: dict[str, Any] = field(default_factory=dict)
    """The situation after the action, in the scenario's own shape."""
    expect: Expectation | None = None
    claims: tuple[Claim, ...] = ()
    readings: dict[str, str] = field(default_factory=dict)
    """Every reading a step rests on, id -> option."""
    moot: tuple[str, ...] = ()
    """The readings among ``readings`` whose every other option gives the same verdict,
    summary and state: applied, but the ruling does not turn on them."""
    situation: dict[str, Any] = field(default_factory=dict, compare=False)
    """The scenario as read (not serialised)."""
    picture: str | None = field(default=None, compare=False)
    """The engine's drawing of the situation, plain text, made when a full ruling is to be
    shown (not serialised): a renderer shows it and never calls back into an engine."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", mark_deciding(self.verdict, self.steps))

    @property
    def turns_on(self) -> dict[str, str]:
        """The readings the ruling rests on and could change with: ``readings`` less ``moot``."""
        return {k: v for k, v in self.readings.items() if k not in self.moot}

    @property
    def pages(self) -> tuple[int, ...]:
        """Every page cited by a step, in order."""
        return tuple(sorted({p for s in self.steps for p in s.pages}))

    def to_json(self) -> dict[str, Any]:
        """One `check --json` entry (docs/json.md); ``error`` is null for a ruling."""
        return {
            "schema_version": SCHEMA_VERSION,
            "file": self.file,
            "game": self.game,
            "title": self.title,
            "verdict": self.verdict.value,
            "summary": self.summary,
            "steps": [s.to_json() for s in self.steps],
            "pages": list(self.pages),
            "state": self.state,
            "readings": self.readings,
            "moot_readings": list(self.moot),
            "expect": self.expect.to_json() if self.expect else None,
            "claims": [c.to_json() for c in self.claims],
            "error": None,
        }


def unreadable_json(error: RulesrefError, file: str) -> dict[str, Any]:
    """The `check --json` entry in place of a ruling for a file that could not be read."""
    return {"schema_version": SCHEMA_VERSION, "file": error.file or file, "error": error.to_json()}


def mark_deciding(verdict: Verdict, steps: tuple[RulingStep, ...]) -> tuple[RulingStep, ...]:
    """``steps`` with those the verdict rests on marked ``decides``.

    The Trail marks them as the engine rules: the step that forbids the action
    (``illegal``, ``forbidden``, ``refuse``, a reading's option that forbids it) and the
    open question an ``undetermined`` ends on. Where the engine gave its verdict without
    one, the verdict rests on its last settling step (an ``illegal`` verdict), or on the
    first question left open (``undetermined``). A ``legal`` verdict rests on every step,
    marked or not.
    """
    if verdict is Verdict.LEGAL:  # a step marked forbidding one part of it did not decide against it
        return tuple(s if s.decides else replace(s, decides=True) for s in steps)
    if not steps or any(s.decides for s in steps):
        return steps
    opened = [i for i, s in enumerate(steps) if s.basis is Basis.OPEN]
    at = opened[0] if verdict is Verdict.UNDETERMINED and opened else len(steps) - 1
    return (*steps[:at], replace(steps[at], decides=True), *steps[at + 1 :])


# --- what an engine rules on, returns, and cites through ----------------------------------


@dataclass(frozen=True)
class Scenario:
    """A scenario file, its envelope read and checked (scenario.read_scenario); the situation left to the engine."""

    doc: Loaded
    game: Game
    title: str
    readings: dict[str, str]
    expect: dict[str, Any] | None
    claims: dict[str, str | dict[str, Any]]
    """Player -> a verdict, or {verdict?, state?}: what the player says happens."""

    @property
    def file(self) -> str:
        return self.doc.file

    def check_keys(self, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> None:
        """Refuse top-level keys that are neither envelope nor the game's situation keys ``allowed``."""
        doc = self.doc
        known = (*ENVELOPE, *allowed)
        for key in doc.data:
            if key not in known:
                line, column = doc.mark((key,), key=True)
                raise ScenarioError(
                    f"unknown key {key!r}",
                    file=doc.file,
                    line=line,
                    column=column,
                    field=str(key),
                    hint=did_you_mean(str(key), known),
                )
        for key in required:
            if key not in doc.data:
                raise doc.error((), f"missing required key {key!r} for {self.game.id}")


class Engine(Protocol):
    """A game's referee: one per game package, ``rulesref.games.<id with - as _>.ENGINE``."""

    situation_keys: tuple[str, ...]
    """Top-level scenario keys the game reads besides the envelope."""

    def referee(self, scenario: Scenario, trail: Trail) -> Outcome:
        """Read the situation (raising ScenarioError on bad input) and rule on the action through ``trail``."""
        ...


@dataclass(frozen=True)
class Outcome:
    """What an engine returns: the verdict, a one-line summary and the resulting state."""

    verdict: Verdict
    summary: str
    state: dict[str, Any] = field(default_factory=dict)
    picture: str | None = None
    """The engine's drawing of the situation (plain text), when the Trail asked for one."""


class Undetermined(Exception):
    """Ends the ruling ``undetermined``: the pages leave the question open (raise ``trail.undetermined``)."""

    def __init__(self, clause: str, says: str, reading: str | None = None) -> None:
        super().__init__(says)
        self.clause, self.says, self.reading = clause, says, reading


class Illegal(Exception):
    """Ends the ruling ``illegal``: a rule forbids the action (raise ``trail.illegal`` or ``trail.refuse``).

    The situation is reported as it was before the action (``Trail.unchanged``).
    """

    def __init__(self, summary: str) -> None:
        super().__init__(summary)
        self.summary = summary


class Trail:
    """The ordered record of what the engine applied; the engine's only way to cite.

    Every step names a clause of the game's pack and takes its pages from it; a clause or
    reading the pack lacks is the pack's fault (``NotInPack``, a CorpusError naming the
    pack's folder), whichever command meets it. The vocabulary:

    ``rule(clause, says)``
        a step the cited pages settle; the ruling goes on.
    ``raise trail.illegal(clause, says, summary=None)``
        the rule step that forbids the action; the ruling ends ``illegal`` with the
        situation unchanged. ``raise trail.refuse(summary)`` ends it so after a step
        already recorded (a reading's, say), which the verdict then rests on.
    ``forbidden(clause, says)``
        the rule step that forbids one of several things the engine rules on; the ruling
        goes on (the engine gives the verdict).
    ``reading(reading, says, clause=None, forbids=(), refuse=None) -> option``
        a step resting on a named reading. ``says`` is the step's words, or a mapping
        option -> words: the option in force is chosen once and its words recorded.
        ``forbids``: the options under which the step forbids what it rules on;
        ``refuse``: option -> summary, the options under which it forbids the action
        (the ruling ends ``illegal``). An unchosen reading without a default ends the
        ruling ``undetermined``.
    ``reading_or_open(reading, says, clause=None, about="", forbids=()) -> option | None``
        the same, but an unsettled reading records an open step and returns None: the
        ruling goes on (for an engine that rules on several events at once).
    ``raise trail.undetermined(clause, says)``
        an open step that ends the ruling ``undetermined``.
    ``open(clause, says)``
        an open step recorded while the ruling goes on (the engine gives the verdict).
    ``choice(reading) -> option``
        the option in force without recording a step (to decide what to say).
    ``chosen(reading) -> option | None``
        the same, None where ``choice`` would end the ruling ``undetermined``.

    The steps that forbid the action and the open question a ruling ends on are marked
    ``decides``: the verdict rests on them (``mark_deciding`` marks the rest).

    The referee catches an Illegal or Undetermined that ends the ruling; an engine that
    must finish its own Outcome first (to draw its picture, say) catches them itself and
    turns them into one with ``trail.settle(illegal)`` and ``trail.close(undetermined)``.
    """

    def __init__(self, game: Game, choices: dict[str, str], *, picture: bool = False) -> None:
        self.game = game
        self.choices = choices
        self.steps: list[RulingStep] = []
        self.used: dict[str, str] = {}
        """Every reading a step rested on, id -> option."""
        self.picture = picture
        """Whether the ruling will be shown in full, so the engine should draw its picture."""
        self.unchanged: dict[str, Any] = {}
        """The state an illegal ruling reports: the engine sets it once it has read the situation."""

    def pages(self, clause: str) -> tuple[int, ...]:
        """The printed pages of a clause; NotInPack (a CorpusError) when the pack lacks it."""
        return self.game.clause(clause).pages

    def _step(self, clause: str, says: str, basis: Basis, reading: str | None = None, decides: bool = False) -> None:
        c = self.game.clause(clause)
        self.steps.append(RulingStep(says, clause, c.pages, basis, reading, decides, c.pages_inferred))

    def rule(self, clause: str, says: str) -> None:
        """Record a step the cited pages settle."""
        self._step(clause, says, Basis.RULE)

    def illegal(self, clause: str, says: str, summary: str | None = None) -> Illegal:
        """Record the rule step that forbids the action; returns the Illegal to raise.

        ``summary`` is the ruling's one line (``says`` when not given).
        """
        self.forbidden(clause, says)
        return Illegal(summary if summary is not None else says)

    def forbidden(self, clause: str, says: str) -> None:
        """Record the rule step that forbids something the engine rules on, while the ruling goes on."""
        self.rule(clause, says)  # a rule step, which the verdict rests on
        self._decides()

    def refuse(self, summary: str) -> Illegal:
        """The Illegal to raise when the step that forbids the action is already recorded (the last one)."""
        self._decides()
        return Illegal(summary)

    def _decides(self) -> None:
        """Mark the step recorded last as one the verdict rests on."""
        if self.steps:
            self.steps[-1] = replace(self.steps[-1], decides=True)

    def _reading(self, reading: str) -> Reading:
        r = self.game.readings.get(reading)
        if r is None:
            raise NotInPack.of(self.game, f"the rule pack has no reading {reading!r}, which its engine uses")
        return r

    def chosen(self, reading: str) -> str | None:
        """The option in force for a reading: chosen, else default, else None (no step recorded)."""
        return self.choices.get(reading, self._reading(reading).default)

    def choice(self, reading: str) -> str:
        """The option in force for a reading: chosen, else default, else Undetermined (no step recorded)."""
        option = self.chosen(reading)
        if option is None:
            r = self._reading(reading)
            names = ", ".join(o.id for o in r.options)
            raise Undetermined(
                r.open,
                f"{r.question} The cited pages do not settle this and no reading was chosen "
                f"(choose one with --reading {r.id}=OPTION; options: {names}).",
                r.id,
            )
        return option

    def reading(
        self,
        reading: str,
        says: str | Mapping[str, str],
        clause: str | None = None,
        forbids: Collection[str] = (),
        refuse: Mapping[str, str] | None = None,
    ) -> str:
        """Record a step resting on a reading; returns the option it used.

        ``says``: the step's words, or a mapping option -> words (each of the reading's
        options worded; the one in force is recorded). ``clause``: the clause cited, by
        default the reading's first clause, else its open question. ``forbids``: the
        options under which the step forbids what it rules on. ``refuse``: the options under
        which it forbids the action itself, each with the ruling's summary: the step then
        ends the ruling ``illegal`` (an Illegal is raised).
        """
        option = self.choice(reading)
        r = self._reading(reading)
        if isinstance(says, Mapping):
            if option not in says:
                raise NotInPack.of(
                    self.game, f"reading {reading!r} has option {option!r}, which its engine does not rule on"
                )
            says = says[option]
        cited = clause or (r.clauses[0] if r.clauses else r.open)
        refused = refuse or {}
        if any(r.option(o) is None for o in refused):
            raise NotInPack.of(self.game, f"the engine refuses under options reading {reading!r} does not define")
        self._step(cited, says, Basis.READING, f"{reading}={option}", decides=option in forbids or option in refused)
        self.used[reading] = option
        if option in refused:
            raise Illegal(refused[option])
        return option

    def reading_or_open(
        self,
        reading: str,
        says: str | Mapping[str, str],
        clause: str | None = None,
        about: str = "",
        forbids: Collection[str] = (),
    ) -> str | None:
        """``reading``, but an unsettled reading records an open step (``about: `` + the question) and gives None."""
        try:
            self.choice(reading)
        except Undetermined as question:
            self.open(question.clause, (f"{about}: " if about else "") + question.says)
            return None
        return self.reading(reading, says, clause, forbids)

    def open(self, clause: str, says: str) -> None:
        """Record an open step (the pages leave it open) while the ruling goes on."""
        self._step(clause, says, Basis.OPEN)

    def undetermined(self, clause: str, says: str) -> Undetermined:
        """The Undetermined to raise: the question in ``clause`` is not settled (its open step ends the ruling)."""
        self.pages(clause)
        return Undetermined(clause, says)

    def close(self, open_question: Undetermined) -> Outcome:
        """The ruling an Undetermined ends in: its open step recorded (the verdict rests on it), ``undetermined``."""
        self._step(open_question.clause, open_question.says, Basis.OPEN, decides=True)
        return Outcome(Verdict.UNDETERMINED, open_question.says, {})

    def settle(self, illegal: Illegal) -> Outcome:
        """The ruling an Illegal ends in: verdict ``illegal``, the situation unchanged."""
        return Outcome(Verdict.ILLEGAL, illegal.summary, self.unchanged)
