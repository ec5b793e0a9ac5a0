"""The encounter steps, in the order the rulebook lists them (step.order), and when each applies.

Two pseudo-steps sit outside the list so a scenario can describe a play made where none
is allowed (``between`` two steps) or something that happens ``after-encounter``.
"""

from __future__ import annotations

import enum

from rulesref.errors import did_you_mean


class Step(str, enum.Enum):
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
        return ORDER.index(self) if self in ORDER else (-1 if self is Step.BETWEEN else len(ORDER))

    @property
    def villain_only(self) -> bool:
        """One of the steps labelled villain steps."""
        return self in VILLAIN_STEPS


ORDER = (
    Step.ENCOUNTER,
    Step.EVASION,
    Step.GUARD,
    Step.BEFORE_ACTING,
    Step.CHECK,
    Step.NEXT_CHECK,
    Step.AFTER_ACTING,
    Step.RESOLVE,
    Step.AVENGE,
    Step.CLOSE,
    Step.ESCAPE,
    Step.WIN,
)
"""The step list (step.order)."""
VILLAIN_STEPS = frozenset({Step.GUARD, Step.CLOSE, Step.ESCAPE, Step.WIN})
"""Used only when the card is a villain (encounter.villain-steps)."""
CHECK_STEPS = frozenset({Step.CHECK, Step.NEXT_CHECK})
"""Where the checks to acquire or defeat are attempted."""
NO_CHECK_STEPS = frozenset({Step.RESOLVE, Step.AVENGE, Step.CLOSE, Step.ESCAPE, Step.WIN})
"""Steps with no check in them, so no card can be played on one."""

ALIASES = {
    "when-you-encounter": Step.ENCOUNTER,
    "when-encountered": Step.ENCOUNTER,
    "evade": Step.EVASION,
    "guard-distant-locations": Step.GUARD,
    "before": Step.BEFORE_ACTING,
    "attempt-check": Step.CHECK,
    "attempt-the-check": Step.CHECK,
    "after": Step.AFTER_ACTING,
    "resolve-the-encounter": Step.RESOLVE,
    "avenge-the-encounter": Step.AVENGE,
    "close-location": Step.CLOSE,
    "after-the-encounter": Step.AFTER_ENCOUNTER,
}
"""Spellings a person might reach for first; each is read as the step it names."""
NAMES = tuple(s.value for s in Step)


def read_step(text: str) -> Step:
    """The step a scenario names. Raises ValueError with a did-you-mean hint."""
    word = str(text).strip().lower().replace(" ", "-").replace("_", "-")
    if word in NAMES:
        return Step(word)
    if word in ALIASES:
        return ALIASES[word]
    hint = did_you_mean(word, (*NAMES, *ALIASES)) or f"steps are: {', '.join(NAMES)}"
    raise ValueError(f"unknown step {text!r}; {hint}")
