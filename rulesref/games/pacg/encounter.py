"""Walk an encounter's events through the steps in order and rule on each one.

Each event is judged in a fixed order: is the encounter still going, is its step one that
applies to this card, does it come in step order, and only then what the event itself
does (plays, attempts, outcome modules). Walking forward to an event's step runs the
steps it passes: resolving the card, the avenge step, the villain steps. A legal avenge
starts the avenger's new encounter, and the events after it belong to that encounter.
"""

from __future__ import annotations

from rulesref.games.pacg import attempts, outcome, plays
from rulesref.games.pacg import events as ev
from rulesref.games.pacg.checks import CheckSyntaxError, find_check
from rulesref.games.pacg.judge import Judge
from rulesref.games.pacg.situation import Situation
from rulesref.games.pacg.state import CardOutcome, Encounter, Over, Where
from rulesref.games.pacg.steps import CHECK_STEPS, ORDER, EncounterStep
from rulesref.ruling import Trail, Verdict
from rulesref.text import indefinite

SUMMONED_OPEN_STEPS = (EncounterStep.GUARD, EncounterStep.CLOSE, EncounterStep.ESCAPE, EncounterStep.WIN)
"""The villain steps that turn on its location; for a summoned villain, which belongs to
none, whether they run is open.summoned-villain-steps."""

OVER_CLAUSE = {
    Over.EVADED: ("step.evasion", "the card was evaded, which ended the encounter at once"),
    Over.FORCED: ("encounter.forced-end-of-turn", "the turn was forced to end, which ended the encounter"),
    Over.RESOLVED: ("step.order", "the encounter ended when it was resolved"),
    Over.ESCAPED: ("step.villain-escapes", "the villain escaped, which ends the encounter"),
    Over.BANISHED: ("step.other-villains", "the villain was banished, which ends the encounter"),
    Over.WON: ("step.nowhere-to-escape", "the party won, which ends the encounter"),
    Over.UNKNOWN: ("step.order", "the encounter is over"),
}
"""Why a later event cannot happen inside an encounter that has ended."""


class Walk:
    """One encounter being walked: the original, or the avenger's."""

    def __init__(self, s: Situation, trail: Trail, enc: Encounter) -> None:
        self.s, self.trail, self.enc = s, trail, enc

    # --- the steps -------------------------------------------------------------

    def applies(self, step: EncounterStep) -> bool:
        """Whether ``step`` is one of the steps that apply to this card, as far as is known now."""
        card, enc = self.s.card, self.enc
        if step.villain_only and not card.villain:
            return False
        if step is EncounterStep.NEXT_CHECK:
            return len(self.s.chain) > 1
        if step is EncounterStep.AVENGE:
            return card.is_bane and enc.outcome in (CardOutcome.UNDEFEATED, CardOutcome.UNKNOWN)
        if step is EncounterStep.GUARD:
            return not card.summoned
        if step is EncounterStep.CLOSE:
            return not card.summoned and enc.outcome is CardOutcome.DEFEATED
        if step is EncounterStep.ESCAPE:
            return not card.summoned and enc.outcome in (CardOutcome.DEFEATED, CardOutcome.UNDEFEATED)
        if step is EncounterStep.WIN:
            return enc.nowhere
        return True

    def walk_to(self, target: EncounterStep | None, judge: Judge) -> None:
        """Go through every step that applies up to ``target`` (None: to the end of the encounter)."""
        for step in ORDER:
            if self.enc.over is not None:
                return
            current = self.enc.current
            if current is not None and step.rank <= current.rank:
                continue
            if target is not None and step.rank > target.rank:
                return
            if not self.applies(step):
                continue
            if step is EncounterStep.AVENGE and target is None and self.enc.outcome is CardOutcome.UNKNOWN:
                continue  # nothing says the bane was undefeated, so there is no avenge step to walk through
            self.leave(judge)
            if self.enc.over is not None:
                return
            self.enter(step, judge)
        if target is None and self.enc.over is None:
            self.leave(judge)
            if self.enc.over is None:
                self.enc.over = Over.UNKNOWN if self.enc.outcome in (None, CardOutcome.UNKNOWN) else Over.RESOLVED

    def enter(self, step: EncounterStep, judge: Judge) -> None:
        self.enc.walked.append(step)
        if step is EncounterStep.RESOLVE:
            outcome.resolve(self.s, self.enc, judge)
        elif step is EncounterStep.CLOSE:
            outcome.close(self.s, self.enc, judge)
        elif step is EncounterStep.ESCAPE:
            outcome.escape(self.s, self.enc, judge)
        elif step is EncounterStep.WIN:
            outcome.win(self.s, self.enc, judge)
        if self.enc.over is not None and self.enc.ended_in is None:
            self.enc.ended_in = step

    def leave(self, judge: Judge) -> None:
        if self.enc.current is EncounterStep.AVENGE and self.enc.avenged_by is None:
            outcome.not_avenged(self.s, self.enc, judge)
            if self.enc.over is not None and self.enc.ended_in is None:
                self.enc.ended_in = EncounterStep.AVENGE

    # --- one event -------------------------------------------------------------

    def handle(self, event: ev.Event) -> Verdict:
        """Rule on one event of this encounter."""
        judge = Judge.of(self.trail, event)
        s, enc = self.s, self.enc
        if enc.over is not None:
            clause, why = self.over_clause()
            return judge.illegal(clause, f"{why}, so nothing more happens in it.")
        step, where = self.place(event)
        if step is EncounterStep.BETWEEN:
            return judge.illegal(
                "encounter.step-plays", "nothing may be played or used between steps, and nothing happens there."
            )
        if step.villain_only and not s.card.villain:
            return judge.illegal(
                "encounter.villain-steps",
                f"the {step.value} step is a villain step, and {s.card.name} is not a villain.",
            )
        current = enc.current
        if current is not None and step.rank < current.rank:
            return judge.illegal(
                "step.order",
                f"the {current.value} step has already begun; the steps happen in order, and a step once passed "
                "does not come back.",
            )
        if step.rank > EncounterStep.EVASION.rank:
            breach = self.proxy_must_evade(judge)
            if breach is not None:
                return breach
        self.walk_to(step, Judge(self.trail))  # the steps passed are not this event's ruling
        if enc.over is not None and not (enc.ended_in is step and not enc.over.at_once):
            if s.card.summoned and s.card.villain and step in SUMMONED_OPEN_STEPS:
                return self.summoned_villain_step(judge, step)
            clause, why = self.over_clause()
            return judge.illegal(clause, f"{why}, so nothing in the {step.value} step happens.")
        if not self.applies(step):
            return self.not_applying(judge, event, step)
        verdict = self.dispatch(judge, event, step, where)
        if (
            step is EncounterStep.ENCOUNTER
            and isinstance(event.action, (ev.Damage, ev.Effect))
            and verdict is Verdict.LEGAL
        ):
            enc.encountered_effects = True
        return verdict

    def place(self, event: ev.Event) -> tuple[EncounterStep, int | str | None]:
        """The step an event really belongs to, and which check in it: a chain position or a side check's name."""
        ref = getattr(event.action, "check", None)
        if (
            event.step in CHECK_STEPS
            and not getattr(event.action, "side", False)
            and event.kind in ("play", "power", "result", "skip", "damage")
        ):
            k = attempts.chain_position(self.s, self.enc, event, ref)
            return (EncounterStep.CHECK if k == 1 else EncounterStep.NEXT_CHECK), k
        return event.step, (str(ref) if ref is not None else None)

    def over_clause(self) -> tuple[str, str]:
        """The clause (and reason) that ended this encounter, for events that come too late."""
        assert self.enc.over is not None
        if self.enc.over is Over.RESOLVED:
            clause = "step.resolve-bane" if self.s.card.is_bane else "step.resolve-boon"
            return clause, f"the encounter with {self.s.card.name} ended when it was resolved"
        return OVER_CLAUSE[self.enc.over]

    def not_applying(self, judge: Judge, event: ev.Event, step: EncounterStep) -> Verdict:
        card, enc = self.s.card, self.enc
        if step is EncounterStep.NEXT_CHECK:
            return judge.illegal(
                "step.order", f"{card.name} has a single check, so the next-check step does not apply."
            )
        if step is EncounterStep.AVENGE:
            why = "a boon cannot be avenged" if not card.is_bane else f"{card.name} was defeated"
            return judge.illegal("step.avenge", f"only an undefeated bane can be avenged, and {why}.")
        after_resolve = (EncounterStep.CLOSE, EncounterStep.ESCAPE, EncounterStep.WIN)
        if enc.outcome is CardOutcome.UNKNOWN and step in after_resolve:
            if enc.status is None:
                raise self.s.doc.error(
                    (*event.path, "step"),
                    f"cannot rule on the {step.value} step: no result says whether {card.name} was defeated",
                    hint="add the check results (result: ...) or a status event",
                )
            judge.open(
                "encounter.status-change",
                f"whether {card.name} was defeated is not settled (above), so neither is whether the {step.value} "
                "step runs.",
            )
            return Verdict.UNDETERMINED
        if card.summoned and step in SUMMONED_OPEN_STEPS:
            return self.summoned_villain_step(judge, step)
        if step is EncounterStep.CLOSE:
            return judge.illegal(
                "step.close-villain-location",
                f"the villain steps close the villain's location after it is defeated, and {card.name} was not.",
            )
        if step is EncounterStep.WIN:
            return judge.illegal(
                "step.nowhere-to-escape",
                f"the win step comes only when the villain has nowhere to escape to, and {card.name} escaped.",
            )
        return judge.illegal("step.order", f"the {step.value} step does not apply here.")

    def summoned_villain_step(self, judge: Judge, step: EncounterStep) -> Verdict:
        """An event in a villain step that turns on its location, for a summoned villain.

        Defeating a summoned villain never wins (encounter.summoned-card), so a win after a
        defeat is illegal. Whether the guard, close and escape steps run for a villain that
        belongs to no location is not in the sources (open.summoned-villain-steps): undetermined.
        """
        card = self.s.card
        if step is EncounterStep.WIN and self.enc.outcome is CardOutcome.DEFEATED:
            return judge.illegal(
                "encounter.summoned-card",
                f"{card.name} was summoned, and defeating a summoned villain never wins the scenario, so nothing "
                "in the win step happens.",
            )
        judge.open(
            "open.summoned-villain-steps",
            f"{card.name} was summoned and belongs to no location: whether the {step.value} step runs for a "
            "summoned villain is not settled by the sources.",
        )
        return Verdict.UNDETERMINED

    def proxy_must_evade(self, judge: Judge) -> Verdict | None:
        """A character proxy must evade every bane; a card that cannot be evaded is open (open.proxy-cannot-evade)."""
        s, enc = self.s, self.enc
        if enc.number != 0 or not s.character.proxy or not s.card.is_bane or enc.proxy_judged:
            return None
        enc.proxy_judged = True
        if s.card.cannot_evade:
            option = judge.option(
                "proxy-cannot-evade",
                "step.proxy-evades",
                {
                    "bane-wins": f"{enc.who} is a proxy and {s.card.name} cannot be evaded: the card's 'cannot' wins, "
                    "so the encounter goes on without evading.",
                    "proxy-evades": f"{enc.who} is a proxy and {s.card.name} cannot be evaded: the proxy's duty to "
                    "evade wins, so the proxy should have evaded.",
                },
            )
            if option != "proxy-evades":
                return None
        return judge.illegal(
            "step.proxy-evades",
            f"{enc.who} is a character proxy, which must evade every bane it encounters; the encounter should have "
            "ended in the evasion step.",
        )

    def dispatch(self, judge: Judge, event: ev.Event, step: EncounterStep, where: int | str | None) -> Verdict:
        s, enc, a = self.s, self.enc, event.action
        if isinstance(a, (ev.Play, ev.Power)):
            combat, holds = self.on_combat(event, step, where), self.holds_check(event, step, where)
            if isinstance(a, ev.Play):
                return plays.judge_play(judge, enc, s.card, combat, step, where, a, event.index, holds)
            return plays.judge_power(judge, enc, s.card, combat, step, where, a, holds)
        if isinstance(a, ev.Result):
            return attempts.judge_result(judge, s, enc, event, step, where, a)
        if isinstance(a, ev.Skip):
            if step not in CHECK_STEPS or not isinstance(where, int):
                return judge.illegal(
                    "step.order", f"a check of the chain is attempted only in the check steps, not in {step.value}."
                )
            return attempts.judge_skip(judge, s, enc, event, where, a)
        if isinstance(a, ev.Damage):
            return attempts.judge_damage(judge, s, enc, event, step, where, a)
        if isinstance(a, ev.Evade):
            return self.evade(judge, step, a)
        if isinstance(a, ev.Move):
            return self.move(judge, a)
        if isinstance(a, ev.EndTurn):
            return self.end_turn(judge, step)
        if isinstance(a, ev.Avenge):
            return self.avenge(judge, a)
        if isinstance(a, ev.Guard):
            if step is not EncounterStep.GUARD:
                return judge.illegal(
                    "step.order",
                    f"{a.by} tries to guard {a.location} in the {step.value} step: guarding distant locations is a "
                    "step of its own, after evasion and before the before-acting effects and the check.",
                )
            return self.guard(judge, a)
        if isinstance(a, ev.Status):
            return self.status(judge, event, a)
        assert isinstance(a, ev.Effect)
        clause = attempts.SIDE_STEP_CLAUSE.get(step, "step.order")
        return judge.legal(clause, f"{a.name} applies in the {step.value} step.")

    def holds_check(self, event: ev.Event, step: EncounterStep, where: int | str | None) -> bool:
        """Whether the step has a check a play can be made on (encounter.step-plays).

        The check steps always do. Another step does when a card calls for a check in it: the
        play names that check, or this encounter attempts one in the same step (a result, or
        a guard attempt in the guard step). The evasion step and those after the checks hold none.
        """
        if step in CHECK_STEPS:
            return True
        if step not in attempts.SIDE_STEP_CLAUSE:
            return False
        if where is not None:
            return True
        return any(other.step is event.step and other.kind in ("result", "guard") for other in self.own_events(event))

    def own_events(self, event: ev.Event) -> tuple[ev.Event, ...]:
        """The events of the encounter ``event`` is in: those between the avenges around it."""
        events = self.s.events
        start = max((e.index + 1 for e in events[: event.index] if e.kind == "avenge"), default=0)
        stop = next((e.index for e in events[event.index + 1 :] if e.kind == "avenge"), len(events))
        return events[start:stop]

    def on_combat(self, event: ev.Event, step: EncounterStep, where: int | str | None) -> bool:
        """Whether a play is on a combat check; an or-choice is settled by the result that follows, if any."""
        if step not in CHECK_STEPS or not isinstance(where, int) or where > len(self.s.chain):
            return True  # a side check's skill is not described: do not rule a combat-only play out
        attempt = self.enc.attempts.get(where)
        if attempt is not None:
            return attempt.check.is_combat
        group = self.s.chain.groups[where - 1]
        for later in self.s.events[event.index + 1 :]:
            ref = getattr(later.action, "check", None)
            if later.kind == "result" and later.step in CHECK_STEPS and ref is not None and self.s.chain_given:
                try:
                    found = find_check(self.s.chain, ref, prefer=where)
                except CheckSyntaxError:
                    continue
                if found.position == where:
                    return found.check.is_combat
        return any(c.is_combat for c in group)

    # --- events that change the course of the encounter -------------------------

    def evade(self, judge: Judge, step: EncounterStep, a: ev.Evade) -> Verdict:
        s, enc = self.s, self.enc
        said = f"{a.by} evades {s.card.name}" + (f" with {a.card}" if a.card else "")
        if a.by != enc.who:
            return judge.illegal(
                "encounter.no-one-else",
                f"{said}: only {enc.who}, the encountering character, can evade it; nobody can evade for someone else.",
            )
        if step.rank > EncounterStep.AFTER_ACTING.rank:
            # no reading lets an evasion come after the card is resolved
            return judge.by_reading(
                "evade-timing",
                "step.evasion-timing",
                illegal=f"{said} in the {step.value} step: the card has already been resolved.",
            )
        if step is not EncounterStep.EVASION and not a.late:
            timing = judge.by_reading(
                "evade-timing",
                "step.evasion-timing",
                legal={
                    "any-step": f"{said} in the {step.value} step: an evade card may be used until the card is "
                    "resolved.",
                },
                illegal={
                    "evasion-step": f"{said} in the {step.value} step: a plain evade works only in the evasion step; "
                    "an evasion at another moment needs a card that names it.",
                },
            )
            if timing is not Verdict.LEGAL:
                return timing
        if s.card.cannot_evade:
            if enc.number == 0 and s.character.proxy:
                enc.proxy_judged = True
                verdict = judge.by_reading(
                    "proxy-cannot-evade",
                    "step.proxy-evades",
                    legal={
                        "proxy-evades": f"{said}: the proxy's duty to evade wins over the card's 'cannot be evaded'.",
                    },
                    illegal={
                        "bane-wins": f"{said}: the card cannot be evaded, and 'cannot' wins over the proxy's duty to "
                        "evade.",
                    },
                )
                return self._evaded(judge) if verdict is Verdict.LEGAL else verdict
            # golden.cannot-beats-can: the card's "cannot" wins over the evasion card's "can"
            return judge.illegal(
                "golden.cannot-beats-can",
                f"{said}: {s.card.name} says it cannot be evaded, and 'cannot' wins over 'can'.",
            )
        if enc.number == 1:
            verdict = judge.by_reading(
                "avenger-evade",
                "step.avenge",
                legal={
                    "may-evade": f"{said}: the avenger's new encounter runs every step, evasion included.",
                },
                illegal={
                    "no-evade": f"{said}: the avenger took up the bane to defeat it and may not evade it.",
                },
            )
            return self._evaded(judge) if verdict is Verdict.LEGAL else verdict
        if step is EncounterStep.EVASION:
            judge.legal("step.evasion", f"{said}: evading ends the encounter at once.")
        elif a.late:
            judge.option(
                "evade-timing",
                "step.evasion-timing",
                f"{said} at this later moment, which the card used names.",
            )
        return self._evaded(judge)

    def _evaded(self, judge: Judge) -> Verdict:
        s, enc = self.s, self.enc
        enc.over, enc.outcome = Over.EVADED, CardOutcome.EVADED
        enc.at = Where.VAULT if s.card.summoned else Where.LOCATION
        what = "not acquired" if not s.card.is_bane else "neither defeated nor undefeated"
        where = "goes back to the vault" if s.card.summoned else "is shuffled back into its location"
        judge.note(
            "step.evasion", f"{s.card.name} is evaded: none of its other powers happen, it is {what}, and it {where}."
        )
        if enc.encountered_effects:
            option = judge.option(
                "encounter-effects-evaded",
                "step.when-you-encounter",
                {
                    "still-apply": "What happened when it was encountered still stands: that step came before evasion.",
                    "undone": "What happened when it was encountered is undone by evading.",
                },
            )
            if option == "undone":
                enc.damage = [d for d in enc.damage if d.step is not EncounterStep.ENCOUNTER]
        if s.card.summoned:
            judge.note("verb.summon", f"{s.card.name} was summoned: once it is evaded it goes back to the vault.")
        elif enc.number == 1 and s.card.villain:
            # The avenge is a step of the original encounter, whose villain steps come after it
            # in the step list; whether they run once the avenger's encounter ends with no defeat
            # is open (open.after-avenge), so where the villain ends up is not stated (audit 11 P1).
            enc.at = Where.UNKNOWN
            judge.open(
                "open.after-avenge",
                f"{enc.who}'s encounter is over, but whether the original encounter then goes on to its villain "
                f"steps after {s.character.name}'s failure, so that {s.card.name} may escape, or it stays shuffled "
                "into its location, is not settled by the sources.",
            )
        return Verdict.LEGAL

    def move(self, judge: Judge, a: ev.Move) -> Verdict:
        enc = self.enc
        if a.by == enc.who:
            enc.moved = True
            return judge.legal(
                "encounter.move-cancels-after",
                f"{a.by} moves during the encounter, so nothing timed for after the encounter takes place.",
            )
        if a.to is not None and self.s.card.villain:
            enc.positions[a.by] = a.to
            moved = f"{a.by} moves to {a.to}"
            return judge.legal(
                "step.guard",
                f"{moved}, having already made their attempt to guard, so the move gives them no new one."
                if a.by in enc.guard_tried
                else f"{moved}; a character moved before trying to guard may try only for the new location.",
            )
        return judge.legal(
            "encounter.move-cancels-after",
            f"{a.by} moves; only the encountering character's move cancels effects after the encounter.",
        )

    def end_turn(self, judge: Judge, step: EncounterStep) -> Verdict:
        s, enc = self.s, self.enc
        enc.over, enc.outcome = Over.FORCED, CardOutcome.NEITHER
        # The turn is the original encountering character's, also inside the avenger's
        # encounter: no source gives the avenger a turn of their own (audit 11 P3).
        turn = s.character.name
        ended = (
            f"{turn}'s turn is forced to end in the {step.value} step"
            if enc.number == 0
            else f"The turn ({turn}'s) is forced to end in the {step.value} step of {enc.who}'s encounter"
        )
        if s.card.summoned:
            enc.at = Where.VAULT
            judge.legal(
                "encounter.forced-end-of-turn",
                f"{ended}: the encounter is over and "
                f"{s.card.name}, neither defeated nor undefeated, was summoned, so it is banished.",
            )
            judge.note("verb.banish", f"{s.card.name} is banished: it goes back into the vault.")
        else:
            enc.at = Where.LOCATION
            judge.legal(
                "encounter.forced-end-of-turn",
                f"{ended}: the encounter is over, and "
                f"{s.card.name}, neither defeated nor undefeated, is shuffled back into its location.",
            )
        judge.note(
            "turn.end-of-turn",
            f"{turn}'s turn then ends: end-of-turn effects (and, as a power forced the end, no cards or powers may "
            f"be used then), recovery, resetting {turn}'s hand, and play passes to the left.",
        )
        return Verdict.LEGAL

    def avenge(self, judge: Judge, a: ev.Avenge) -> Verdict:
        s, enc = self.s, self.enc
        said = f"{a.by} avenges {s.card.name}"
        if enc.number > 0:
            return judge.illegal(
                "step.avenge",
                f"{said}: {s.card.name} has already been avenged once, and a bane can be avenged only once.",
            )
        if enc.avenged_by is not None:
            return judge.illegal(
                "step.avenge", f"{said}: {enc.avenged_by} already avenges it, and a bane can be avenged only once."
            )
        if a.by == enc.who:
            return judge.illegal(
                "step.avenge", f"{said}: only another character can avenge; {enc.who} was the one who failed."
            )
        if a.by not in enc.local:
            return judge.illegal("step.avenge", f"{said}: only a character at {enc.who}'s location can avenge.")
        if a.bury is None:
            return judge.illegal(
                "step.avenge", f"{said} without burying a card: avenging costs the avenger one buried card."
            )
        if enc.outcome is CardOutcome.UNKNOWN and (
            enc.status is not None or any(t.open for t in enc.attempts.values())
        ):
            # the fate is unknown because a question is open, not because a check is missing
            judge.open(
                "step.avenge",
                f"{said}: only an undefeated bane can be avenged, and whether {s.card.name} is undefeated is not "
                "settled (above).",
            )
            return Verdict.UNDETERMINED
        if enc.outcome is CardOutcome.UNKNOWN:
            enc.outcome = CardOutcome.UNDEFEATED
            judge.note(
                "step.avenge",
                "The events do not describe the failed check, but an avenge follows only an undefeated bane, so "
                f"{s.card.name} is taken as undefeated.",
            )
        enc.avenged_by, enc.over = a.by, Over.AVENGED
        judge.legal(
            "step.avenge",
            f"{said}, burying {a.bury}: {s.card.name}'s when-undefeated effects apply (except any that would move "
            f"it), then {a.by} starts a new encounter with it.",
        )
        judge.note("verb.card-moves", f"{a.bury} is buried: it goes under {a.by}'s character card.")
        return Verdict.LEGAL

    def guard(self, judge: Judge, a: ev.Guard) -> Verdict:
        s, enc = self.s, self.enc
        said = f"{a.by} tries to guard {a.location}"
        if s.location is not None and a.location.lower() == s.location.lower():
            return judge.illegal(
                "step.guard",
                f"{said}: that is the villain's own location, which can never be guarded; only characters at "
                "distant locations may guard them.",
            )
        if a.by in (enc.who, *enc.local):
            here = s.location or "the villain's location"
            return judge.illegal(
                "step.guard",
                f"{said}: {a.by} is at {here}, with the villain, not at a distant location; only characters at "
                "distant locations may try to guard, each the location they are at.",
            )
        at = enc.positions.get(a.by) or s.distant_location_of(a.by)
        if at is not None and at.lower() != a.location.lower():
            return judge.illegal(
                "step.guard", f"{said}: {a.by} is at {at} and may try to guard only the location they are at."
            )
        if a.by in enc.guard_tried:
            return judge.illegal(
                "step.guard",
                f"{said} again: {a.by} has already made their attempt to guard in this encounter; the sources "
                "speak of each distant character's attempt, in the singular, and give no second try, read here "
                "as one attempt each.",
            )
        enc.guard_tried.add(a.by)
        if a.success:
            enc.guarded.add(next((k for k in (s.distant or {}) if k.lower() == a.location.lower()), a.location))
            return judge.legal(
                "step.guard",
                f"{said} and succeeds: the villain cannot escape there during this encounter (guarding lasts only "
                "for the encounter).",
            )
        return judge.legal("step.guard", f"{said} and fails: the location stays unguarded.")

    def status(self, judge: Judge, event: ev.Event, a: ev.Status) -> Verdict:
        s, enc = self.s, self.enc
        fits = ("acquired",) if not s.card.is_bane else ("defeated", "undefeated")
        if a.becomes not in fits:
            raise s.doc.error(
                (*event.path, "status"),
                f"{indefinite(s.card.kind.value)} is not {a.becomes}",
                hint=f"{indefinite(s.card.kind.value)} can become: {', '.join(fits)}",
            )
        enc.status = a.becomes
        return judge.legal(
            "encounter.status-change",
            f"an effect makes {s.card.name} {a.becomes}; the encounter goes on through its remaining steps, as the "
            "effect does not say it ends.",
        )
