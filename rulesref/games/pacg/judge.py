"""How a ruling on one event is written down: one trail step, citing the clause it rests on.

Where a ruling rests on an open question the Judge asks for the reading; with no reading
chosen and no default, the event is ``undetermined`` and the step names the open clause,
while the rest of the encounter is still ruled (so an illegal event elsewhere still shows).
"""

from __future__ import annotations

from collections.abc import Callable

from rulesref.games.pacg.events import Event
from rulesref.referee import Trail, Undetermined
from rulesref.ruling import Basis, Step, Verdict


class Judge:
    """Writes the rulings for one event (or for the encounter itself, when ``event`` is None)."""

    def __init__(self, trail: Trail, event: Event | None = None) -> None:
        self.trail = trail
        self.prefix = f"Event {event.number} ({event.step.value}): " if event is not None else ""

    def legal(self, clause: str, says: str) -> Verdict:
        """Record a legal ruling."""
        self.trail.rule(clause, self.prefix + says)
        return Verdict.LEGAL

    def illegal(self, clause: str, says: str) -> Verdict:
        """Record an illegal ruling."""
        self.trail.rule(clause, self.prefix + "illegal: " + says)
        return Verdict.ILLEGAL

    def note(self, clause: str, says: str) -> None:
        """Record a step that is not a ruling on an event (a card's fate, a step applied)."""
        self.trail.rule(clause, self.prefix + says)

    def by_reading(
        self, reading: str, clause: str, decide: Callable[[str], tuple[Verdict, str]], about: str = ""
    ) -> Verdict:
        """Rule through a reading: ``decide(option)`` gives the verdict and what it says."""
        try:
            option = self.trail.choice(reading)
        except Undetermined as question:
            self.open(question.clause, (f"{about}: " if about else "") + question.says)
            return Verdict.UNDETERMINED
        verdict, says = decide(option)
        if verdict is Verdict.ILLEGAL:
            says = "illegal: " + says
        self.trail.interpret(reading, self.prefix + says, clause)
        return verdict

    def open(self, clause: str, says: str) -> None:
        """Record that the pages leave this ruling open."""
        pages = self.trail.game.clause(clause).pages
        self.trail.steps.append(Step(self.prefix + says, clause, pages, Basis.OPEN))

    def option(self, reading: str, clause: str, says: Callable[[str], str]) -> str | None:
        """The option in force for a reading that shapes what happens (not a verdict); None if open."""
        try:
            option = self.trail.choice(reading)
        except Undetermined as question:
            self.open(question.clause, question.says)
            return None
        self.trail.interpret(reading, self.prefix + says(option), clause)
        return option
