"""What the referee returns: a Ruling, made of ordered Steps, each citing a clause."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


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
class Step:
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

    def to_json(self) -> dict[str, Any]:
        return {
            "says": self.says,
            "clause": self.clause,
            "pages": list(self.pages),
            "basis": self.basis.value,
            "reading": self.reading,
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
    steps: tuple[Step, ...]
    state: dict[str, Any] = field(default_factory=dict)
    """The situation after the action, in the scenario's own shape."""
    expect: Expectation | None = None
    claims: tuple[Claim, ...] = ()
    readings: dict[str, str] = field(default_factory=dict)
    """Every reading a step rests on, id -> option."""
    situation: dict[str, Any] = field(default_factory=dict, compare=False)
    """The scenario as read, for renderers that draw it (not serialised)."""

    @property
    def pages(self) -> tuple[int, ...]:
        """Every page cited by a step, in order."""
        return tuple(sorted({p for s in self.steps for p in s.pages}))

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "game": self.game,
            "title": self.title,
            "verdict": self.verdict.value,
            "summary": self.summary,
            "steps": [s.to_json() for s in self.steps],
            "pages": list(self.pages),
            "state": self.state,
            "readings": self.readings,
            "expect": self.expect.to_json() if self.expect else None,
            "claims": [c.to_json() for c in self.claims],
        }
