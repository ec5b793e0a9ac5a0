"""How a ruling on one event is written down: Trail steps, each citing the clause it rests on.

PACG rules on every event of an encounter, so an illegal or open event does not end the
ruling (the Trail's ``illegal`` and ``undetermined`` would): the Judge records the step
through the Trail and gives the event's verdict back. Where a ruling rests on an open
question it goes through a reading, each option's verdict and words given as data; with
no reading chosen and no default, the event is ``undetermined`` and the step names the
open clause, while the rest of the encounter is still ruled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesref.games.pacg.events import Event
from rulesref.ruling import Trail, Verdict


@dataclass(frozen=True)
class Judge:
    """Writes the rulings for one event (or for the encounter itself, with no prefix)."""

    trail: Trail
    prefix: str = ""
    """``Event 3 (check): `` before every step about an event."""

    @classmethod
    def of(cls, trail: Trail, event: Event) -> Judge:
        """The Judge of one event: its steps start with the event's number and step."""
        return cls(trail, f"Event {event.number} ({event.step.value}): ")

    def note(self, clause: str, says: str) -> None:
        """Record a rule step (a card's fate, a step applied, or the ruling on an event)."""
        self.trail.rule(clause, self.prefix + says)

    def legal(self, clause: str, says: str) -> Verdict:
        """Record that the event is legal."""
        self.note(clause, says)
        return Verdict.LEGAL

    def illegal(self, clause: str, says: str) -> Verdict:
        """Record that the event breaks the rule in ``clause``."""
        self.note(clause, "illegal: " + says)
        return Verdict.ILLEGAL

    def by_reading(
        self,
        reading: str,
        clause: str,
        *,
        legal: Mapping[str, str] | str | None = None,
        illegal: Mapping[str, str] | str | None = None,
        about: str = "",
    ) -> Verdict:
        """Rule through a reading: the options under which the event is legal, and those under
        which it is illegal, each with its words (one text: every option rules so).

        With the reading unsettled the step is open (``about`` leads its words) and the
        event ``undetermined``.
        """
        if isinstance(legal, str) or isinstance(illegal, str):
            verdict = Verdict.LEGAL if isinstance(legal, str) else Verdict.ILLEGAL
            words: Mapping[str, str] | str = self._words(verdict, legal if isinstance(legal, str) else str(illegal))
        else:
            words = {o: self._words(Verdict.LEGAL, s) for o, s in (legal or {}).items()}
            words |= {o: self._words(Verdict.ILLEGAL, s) for o, s in (illegal or {}).items()}
        option = self.trail.reading_or_open(reading, words, clause, self._about(about))
        if option is None:
            return Verdict.UNDETERMINED
        if isinstance(words, str):
            return verdict
        return Verdict.LEGAL if option in (legal or {}) else Verdict.ILLEGAL

    def option(self, reading: str, clause: str, says: Mapping[str, str] | str) -> str | None:
        """The option in force for a reading that shapes what happens; None (an open step) when unsettled."""
        words = (
            {option: self.prefix + s for option, s in says.items()} if isinstance(says, Mapping) else self.prefix + says
        )
        return self.trail.reading_or_open(reading, words, clause, self._about(""))

    def open(self, clause: str, says: str) -> None:
        """Record that the pages leave this ruling open."""
        self.trail.open(clause, self.prefix + says)

    def _words(self, verdict: Verdict, says: str) -> str:
        return self.prefix + ("illegal: " if verdict is Verdict.ILLEGAL else "") + says

    def _about(self, about: str) -> str:
        """What leads an open step's words: the event, then ``about``."""
        return self.prefix + about if about else self.prefix.removesuffix(": ")
