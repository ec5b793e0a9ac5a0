"""The encounter steps, in the order the rulebook lists them (step.order), and when each applies.

Two pseudo-steps sit outside the list so a scenario can describe a play made where none
is allowed (``between`` two steps) or something that happens ``after-encounter``.
"""

from __future__ import annotations

import enum

from rulesref.errors import did_you_mean


class EncounterStep(str, enum.Enum):
    """A step of Encountering a Card, named as scenarios write it."""

    ENCOUNTER = "encounter"
    """Apply effects that happen when you encounter the card."""
    EVASION = "evasion"
    """Apply evasion effects; evade here or not at all."""
    GUARD = "guard"
    """Villain step: characters at distant locations try to guard them."""
    BEFORE_ACTING = "before-acting"
    """Apply effects that happen before acting."""
    CHECK = "check"
    """Attempt the check to acquire or defeat (the first check of a chain)."""
    NEXT_CHECK = "next-check"
    """Attempt the next check of a then chain, if there is one."""
    AFTER_ACTING = "after-acting"
    """Apply effects that happen after acting."""
    RESOLVE = "resolve"
    """Resolve: acquire or banish a boon; defeat or undefeat a bane."""
    AVENGE = "avenge"
    """Another local character may avenge an undefeated bane."""
    CLOSE = "close"
    """Villain step: a defeated villain's location closes."""
    ESCAPE = "escape"
    """Villain step: does the villain escape?"""
    WIN = "win"
    """Villain step: the villain has nowhere to escape to, and the party wins."""
    BETWEEN = "between"
    """Pseudo-step: in the gap between two steps, where nothing may be played."""
    AFTER_ENCOUNTER = "after-encounter"
    """Pseudo-step: once the encounter is over (effects 'after the encounter')."""

    @property
    def rank(self) -> int:
        """Position in the step list; the pseudo-steps rank outside it."""
        return ORDER.index(self) if self in ORDER else (-1 if self is EncounterStep.BETWEEN else len(ORDER))

    @property
    def villain_only(self) -> bool:
        """One of the steps labelled villain steps."""
        return self in VILLAIN_STEPS


ORDER = (
    EncounterStep.ENCOUNTER,
    EncounterStep.EVASION,
    EncounterStep.GUARD,
    EncounterStep.BEFORE_ACTING,
    EncounterStep.CHECK,
    EncounterStep.NEXT_CHECK,
    EncounterStep.AFTER_ACTING,
    EncounterStep.RESOLVE,
    EncounterStep.AVENGE,
    EncounterStep.CLOSE,
    EncounterStep.ESCAPE,
    EncounterStep.WIN,
)
"""The step list (step.order)."""
VILLAIN_STEPS = frozenset({EncounterStep.GUARD, EncounterStep.CLOSE, EncounterStep.ESCAPE, EncounterStep.WIN})
"""Used only when the card is a villain (encounter.villain-steps)."""
CHECK_STEPS = frozenset({EncounterStep.CHECK, EncounterStep.NEXT_CHECK})
"""Where the checks to acquire or defeat are attempted."""
NO_CHECK_STEPS = frozenset(
    {EncounterStep.RESOLVE, EncounterStep.AVENGE, EncounterStep.CLOSE, EncounterStep.ESCAPE, EncounterStep.WIN}
)
"""Steps with no check in them, so no card can be played on one."""

ALIASES = {
    "when-you-encounter": EncounterStep.ENCOUNTER,
    "when-encountered": EncounterStep.ENCOUNTER,
    "evade": EncounterStep.EVASION,
    "guard-distant-locations": EncounterStep.GUARD,
    "before": EncounterStep.BEFORE_ACTING,
    "attempt-check": EncounterStep.CHECK,
    "attempt-the-check": EncounterStep.CHECK,
    "after": EncounterStep.AFTER_ACTING,
    "resolve-the-encounter": EncounterStep.RESOLVE,
    "avenge-the-encounter": EncounterStep.AVENGE,
    "close-location": EncounterStep.CLOSE,
    "after-the-encounter": EncounterStep.AFTER_ENCOUNTER,
}
"""Spellings a person might reach for first; each is read as the step it names."""
NAMES = tuple(s.value for s in EncounterStep)


def read_step(text: str) -> EncounterStep:
    """The step a scenario names. Raises ValueError with a did-you-mean hint."""
    word = str(text).strip().lower().replace(" ", "-").replace("_", "-")
    if word in NAMES:
        return EncounterStep(word)
    if word in ALIASES:
        return ALIASES[word]
    hint = did_you_mean(word, (*NAMES, *ALIASES)) or f"steps are: {', '.join(NAMES)}"
    raise ValueError(f"unknown step {text!r}; {hint}")
