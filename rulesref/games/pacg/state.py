"""The running record of one encounter: what has been played, attempted and decided so far.

Mutable on purpose: the referee walks the events in order and writes here; ``to_state``
gives the part a ruling reports.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rulesref.games.pacg.checks import Check
from rulesref.games.pacg.steps import EncounterStep


class CardOutcome(str, enum.Enum):
    """What became of the encountered card."""

    ACQUIRED = "acquired"
    """A boon whose checks all succeeded: drawn into hand."""
    NOT_ACQUIRED = "not-acquired"
    """A boon whose check failed: banished."""
    DEFEATED = "defeated"
    UNDEFEATED = "undefeated"
    EVADED = "evaded"
    """Neither acquired, defeated nor undefeated: put back where it came from."""
    NEITHER = "neither"
    """A forced end of turn: neither defeated nor undefeated."""
    UNKNOWN = "unknown"
    """The events do not say how the checks went."""


class Where(str, enum.Enum):
    """Where the card ends up, in the game's words."""

    HAND = "hand"
    """Drawn into the encountering character's hand (acquired)."""
    VAULT = "vault"
    """Banished, or returned to the vault (summoned cards, a villain at the scenario's end)."""
    LOCATION = "location"
    """Shuffled back into its location."""
    ESCAPED = "escaped"
    """A villain that escaped: shuffled with blessings into the unguarded locations."""
    UNKNOWN = "unknown"
    """Not decided by what the events describe."""


class Over(str, enum.Enum):
    """Why an encounter ended."""

    @property
    def at_once(self) -> bool:
        """Ends the encounter at that moment; the others end it when their step is done."""
        return self in (Over.EVADED, Over.FORCED, Over.AVENGED)

    EVADED = "evaded"
    FORCED = "forced"
    """The turn was forced to end."""
    RESOLVED = "resolved"
    """The resolve step finished it (boon, defeated bane, or undefeated bane not avenged)."""
    AVENGED = "avenged"
    """Handed to the avenger's new encounter."""
    ESCAPED = "escaped"
    BANISHED = "banished"
    """A defeated villain banished because every distant location was guarded (step.other-villains)."""
    WON = "won"
    """The party won: the villain had nowhere to escape, or (by reading cornered-with-other-villains) it
    was banished with every distant location guarded."""
    UNKNOWN = "unknown"


@dataclass
class Attempt:
    """A check of the chain attempted (or left unattempted)."""

    event: int
    by: str
    check: Check
    total: int | None
    success: bool
    skipped: bool = False
    open: bool = False
    """Whether this result stands rests on an open point that could turn its success around
    (a reroll the readings leave open): the check's result is then not settled."""
    chose_fail: bool = False
    """The character chose to fail it: its result is 0 by that choice (check.choose-fail)."""


@dataclass(frozen=True)
class Played:
    """A boon play already made in this encounter, kept for the party's type limit."""

    event: int
    by: str
    card: str
    type: str
    step: EncounterStep
    check: int | str | None
    """Chain position in the check steps; a side check's name elsewhere; None for the step itself."""
    freely: bool
    reduces: str | None = None
    source: int | None = None
    """Which damage it reduces (DamageDealt.id)."""


@dataclass
class DamageDealt:
    """Damage dealt during the encounter, before any reduction."""

    id: int
    event: int
    step: EncounterStep
    check: int | str | None
    to: tuple[str, ...]
    amount: int | None
    type: str
    source: str
    """How the state names it: the event's ``source``, or the check failed."""
    dealer: str = ""
    """The card or effect that deals it, for "one source" (the encountered card unless said)."""
    open: bool = False
    """Dealt only on one option of an open point (a reroll left open would take its place)."""

    def to_state(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for who in self.to:
            item: dict[str, object] = {"to": who, "type": self.type, "source": self.source}
            if self.amount is not None:
                item["amount"] = self.amount
            if self.open:
                item["open"] = True
            out.append(item)
        return out


@dataclass
class Encounter:
    """One encounter with the card: the original one, or the avenger's new one."""

    who: str
    """The encountering character."""
    local: tuple[str, ...]
    """The other characters at the location."""
    number: int = 0
    """0 for the first encounter, 1 for the avenger's."""
    walked: list[EncounterStep] = field(default_factory=list)
    over: Over | None = None
    ended_in: EncounterStep | None = None
    """The step in which the encounter ended."""
    attempts: dict[int, Attempt] = field(default_factory=dict)
    rolled: set[tuple[EncounterStep, str]] = field(default_factory=set)
    """Checks other than the chain's already rolled: (step, the check's name, lowercase)."""
    status: str | None = None
    """Set by a status event: acquired, defeated or undefeated partway through."""
    outcome: CardOutcome | None = None
    at: Where | None = None
    plays: list[Played] = field(default_factory=list)
    powers: set[tuple[str, str, EncounterStep, int | str | None]] = field(default_factory=set)
    revealed: set[tuple[str, str, EncounterStep, int | str | None]] = field(default_factory=set)
    immunity_lifted: bool = False
    guarded: set[str] = field(default_factory=set)
    guard_tried: set[str] = field(default_factory=set)
    """The characters who have made their attempt to guard in this encounter."""
    guards_open: set[str] = field(default_factory=set)
    """The avenger's encounter: locations guarded in the original one, whose guard may or may
    not still hold (reading avenger-guards not chosen; asked where it decides the escape)."""
    positions: dict[str, str] = field(default_factory=dict)
    """Distant characters moved during the encounter: name -> new location."""
    damage: list[DamageDealt] = field(default_factory=list)
    damage_count: int = 0
    """Damage instances dealt so far, dropped ones included: the next DamageDealt.id."""
    moved: bool = False
    encountered_effects: bool = False
    """Something happened in the when-you-encounter step (kept for reading encounter-effects-evaded)."""
    avenged_by: str | None = None
    proxy_judged: bool = False
    close_right: str | None = None
    """Who may attempt to close the location (a defeated closing henchman)."""
    location_closed: bool | None = None
    nowhere: bool = False
    """The villain has nowhere to escape to."""
    win_open: bool = False
    """Whether the party won is open: a villain banished with another villain left (reading
    cornered-with-other-villains not chosen)."""
    after_win: str | None = None
    """After a win, the after-win reading's option in force (None: not chosen, open)."""

    def deal(
        self,
        event: int,
        step: EncounterStep,
        check: int | str | None,
        to: tuple[str, ...],
        amount: int | None,
        type: str,
        source: str,
        dealer: str,
    ) -> None:
        """Record damage dealt, with an id no damage of this encounter had before."""
        self.damage.append(DamageDealt(self.damage_count, event, step, check, to, amount, type, source, dealer))
        self.damage_count += 1

    def roll(self, step: EncounterStep, check: int | str | None) -> None:
        """Record that a check outside the chain was rolled, so nothing more is played on it."""
        if check is not None:
            self.rolled.add((step, _name(check)))

    def was_rolled(self, step: EncounterStep, check: int | str | None) -> bool:
        """Whether this check has been rolled: in the check steps a chain position, elsewhere a check's name."""
        if isinstance(check, int) and step in (EncounterStep.CHECK, EncounterStep.NEXT_CHECK):
            attempt = self.attempts.get(check)
            return attempt is not None and not attempt.skipped
        return check is not None and (step, _name(check)) in self.rolled

    @property
    def current(self) -> EncounterStep | None:
        return self.walked[-1] if self.walked else None

    def check_in_progress(self, chain_length: int) -> int:
        """The first check of the chain with no attempt yet (the last once all have one)."""
        for k in range(1, chain_length + 1):
            if k not in self.attempts:
                return k
        return chain_length


def _name(check: int | str) -> str:
    """A check's name as events write it, compared without case or spacing."""
    return " ".join(str(check).lower().split())
