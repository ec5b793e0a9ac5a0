"""What a scenario says happened during the encounter: one event per line, each in a step."""

from __future__ import annotations

from dataclasses import dataclass

from rulesref.games.pacg.steps import Step
from rulesref.source import PathKey


@dataclass(frozen=True)
class Play:
    """A boon played (by any character) for one of its powers."""

    by: str
    card: str
    type: str
    """Its boon type: the party limit counts one of each type."""
    traits: frozenset[str] = frozenset()
    freely: bool = False
    """Played freely: outside the party's type limit (play.played-freely)."""
    purpose: str = "check"
    """What it is played for: ``check``, ``damage``, ``heal``, ``explore`` or ``other``."""
    reduces: str | None = None
    """For damage: whose damage it reduces."""
    damage_type: str | None = None
    """For damage: the only damage type it can reduce (None: any)."""
    check: str | int | None = None
    """Which check it is played on, when the step has more than one."""
    ignores_immunity: bool = False
    combat_only: bool = False
    how: str | None = None
    """The verb of the play (reveal, discard, recharge...); ``reveal`` keeps the card in hand."""
    again: bool = False
    """The card itself allows another use after it was revealed (like Daggers)."""


@dataclass(frozen=True)
class Power:
    """A character's (or a displayed card's) power used."""

    by: str
    power: str
    triggered: bool = False
    """Tied to a specific event, so usable each time it happens (encounter.power-frequency)."""
    freely: bool = False
    adds: frozenset[str] = frozenset()
    """Traits it adds to the check (encounter.immunity)."""
    ignores_immunity: bool = False
    """It removes or ignores the card's immunity, for itself and everything after it."""
    combat_only: bool = False
    purpose: str = "other"
    """What it is used for; a power says so only when it matters (``heal``, ``explore``, ``check``)."""
    check: str | int | None = None


@dataclass(frozen=True)
class Result:
    """A check attempted, and how it came out."""

    by: str
    check: str | int | None
    """Which check of the chain (or a side check's name); None: the check in progress."""
    total: int | None = None
    success: bool | None = None
    difficulty: int | None = None
    """The difficulty after adjustments, when it differs from the printed one."""
    chose_fail: bool = False
    reroll: bool = False
    """A reroll of the same check (a hero point, check.hero-point)."""
    side: bool = False
    """A check that can affect the check to acquire or defeat (encounter.side-checks-first)."""


@dataclass(frozen=True)
class Skip:
    """A check of the chain left unattempted."""

    by: str
    check: str | int | None


@dataclass(frozen=True)
class Evade:
    """An attempt to evade the card."""

    by: str
    card: str | None = None
    late: bool = False
    """The card used names a later moment, such as 'after you fail to defeat'."""


@dataclass(frozen=True)
class Move:
    """A character is moved (by some effect) during the encounter."""

    by: str
    to: str | None = None


@dataclass(frozen=True)
class EndTurn:
    """The encountering character's turn is forced to end."""

    by: str | None = None


@dataclass(frozen=True)
class Avenge:
    """Another local character avenges the undefeated bane."""

    by: str
    bury: str | None
    """The card buried to do it; None when the scenario names none."""


@dataclass(frozen=True)
class Guard:
    """A character at a distant location tries to guard it."""

    by: str
    location: str
    success: bool = True


@dataclass(frozen=True)
class Damage:
    """Damage dealt by the card (or an effect), to one or more characters."""

    to: tuple[str, ...]
    amount: int | None = None
    type: str = "combat"
    source: str | None = None
    check: str | int | None = None


@dataclass(frozen=True)
class Effect:
    """Some card, location or scenario effect happening (not a play)."""

    name: str


@dataclass(frozen=True)
class Status:
    """An effect makes the card acquired, defeated or undefeated partway through."""

    becomes: str


Action = Play | Power | Result | Skip | Evade | Move | EndTurn | Avenge | Guard | Damage | Effect | Status
KINDS: dict[str, type] = {
    "play": Play,
    "power": Power,
    "result": Result,
    "skip": Skip,
    "evade": Evade,
    "move": Move,
    "end-turn": EndTurn,
    "avenge": Avenge,
    "guard": Guard,
    "damage": Damage,
    "effect": Effect,
    "status": Status,
}
"""Event keys as scenarios write them."""


@dataclass(frozen=True)
class Event:
    """One event of the scenario, tagged with its step."""

    index: int
    """Position in ``events``, 0-based."""
    step: Step
    kind: str
    """One of KINDS."""
    action: Action
    path: PathKey
    """Where it is in the file, for messages."""

    @property
    def number(self) -> int:
        """1-based, as people count."""
        return self.index + 1
