"""How a ruling on one event is written down: Trail steps, each citing the clause it rests on.

PACG rules on every event of an encounter, so an illegal or open event does not end the
ruling (the Trail's ``illegal`` and ``undetermined`` would): the Judge records the step
through the Trail (``forbidden``, ``open``) and gives the event's verdict back. Where a ruling rests on an open
question it goes through a reading, each option's verdict and words given as data; with
no reading chosen and no default, the event is ``undetermined`` and the step names the
open clause, while the rest of the encounter is still ruled.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
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
        """Record that the event breaks the rule in ``clause`` (a step the verdict rests on)."""
        self.trail.forbidden(clause, self.prefix + "illegal: " + says)
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
        which it is illegal, each with its words (one text: every option of the reading).

        With the reading unsettled the step is open (``about`` leads its words) and the
        event ``undetermined``.
        """
        allowed, refused = self._each(reading, legal), self._each(reading, illegal)
        words = allowed | {o: "illegal: " + s for o, s in refused.items()}
        option = self.option(reading, clause, words, about, forbids=refused)
        if option is None:
            return Verdict.UNDETERMINED
        return Verdict.LEGAL if option in allowed else Verdict.ILLEGAL

    def option(
        self, reading: str, clause: str, says: Mapping[str, str] | str, about: str = "", forbids: Collection[str] = ()
    ) -> str | None:
        """The option in force for a reading that shapes what happens; None (an open step) when unsettled.

        ``forbids``: the options under which the event is illegal."""
        words = {o: self.prefix + s for o, s in says.items()} if isinstance(says, Mapping) else self.prefix + says
        lead = self.prefix + about if about else self.prefix.removesuffix(": ")  # what leads an open step's words
        return self.trail.reading_or_open(reading, words, clause, lead, forbids)

    def open(self, clause: str, says: str) -> None:
        """Record that the pages leave this ruling open."""
        self.trail.open(clause, self.prefix + says)

    def _each(self, reading: str, says: Mapping[str, str] | str | None) -> dict[str, str]:
        """Each option's words: ``says`` itself, or its one text for every option of the reading."""
        if isinstance(says, str):
            known = self.trail.game.readings.get(reading)  # an unknown reading is refused by the Trail
            return {o.id: says for o in (known.options if known else ())}
        return dict(says or {})
