"""The encountered card and the people around it, in the game's own words."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Kind(str, enum.Enum):
    """What an encounter is for: acquiring a boon or defeating a bane (encounter.purpose)."""

    BOON = "boon"
    """Encountered to acquire it."""
    BANE = "bane"
    """Encountered to defeat it."""


BOON_TYPES = ("weapon", "spell", "armor", "item", "ally", "blessing")
"""The six boon types: the party may play one of each per check or step (card.boon-types)."""
BANE_TYPES = ("monster", "barrier")
"""Every bane, story banes included, is one of these (card.bane-types)."""
DAMAGE_TYPES = ("combat", "fire", "cold", "electricity", "acid", "poison", "mental", "force", "any")
"""Damage types a scenario may name; ``any`` for a reduction that works on every type."""


class Henchman(str, enum.Enum):
    """A henchman's kind: only a closing one lets you try to close (card.henchmen)."""

    CLOSING = "closing"
    """Defeating it allows an attempt to close the location."""
    NON_CLOSING = "non-closing"
    """Defeating it allows nothing more."""


@dataclass(frozen=True)
class Card:
    """The card being encountered."""

    name: str
    """As printed, e.g. ``Boggart``."""
    kind: Kind
    type: str | None
    """A boon type or ``monster``/``barrier``; None when the scenario leaves a bane's type out."""
    villain: bool = False
    henchman: Henchman | None = None
    summoned: bool = False
    """Summoned cards belong to no location and go back to the vault (verb.summon)."""
    immune: frozenset[str] = frozenset()
    """Traits it is immune to, lowercase (encounter.immunity)."""
    cannot_evade: bool = False
    """The card says it cannot be evaded."""
    damage_type: str = "combat"
    """The damage a failed check against it deals (check.damage)."""

    @property
    def is_bane(self) -> bool:
        return self.kind is Kind.BANE

    @property
    def is_monster(self) -> bool:
        return self.kind is Kind.BANE and self.type == "monster"


@dataclass(frozen=True)
class Character:
    """The encountering character."""

    name: str
    proxy: bool = False
    """A character proxy, which must evade every bane it encounters (step.proxy-evades)."""
