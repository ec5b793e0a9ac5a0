"""The driver: every event in order, across the first encounter and the avenger's, then the state and summary.

Events tagged ``after-encounter`` come once the last encounter is over; the ruling's
state is built here in the shape docs/scenarios/pacg.md documents.
"""

from __future__ import annotations

from typing import Any

from rulesref.games.pacg import attempts, plays
from rulesref.games.pacg import events as ev
from rulesref.games.pacg.encounter import Walk
from rulesref.games.pacg.judge import Judge
from rulesref.games.pacg.situation import Situation
from rulesref.games.pacg.state import CardOutcome, Encounter, Over, Where
from rulesref.games.pacg.steps import EncounterStep
from rulesref.ruling import Basis, Outcome, Trail, Undetermined, Verdict
from rulesref.text import indefinite


def run(s: Situation, trail: Trail) -> Outcome:
    """Rule on every event of the scenario, in order, and say where the card ends up."""
    opening = Judge(trail)
    what = (
        f"{s.card.kind.value}"
        + (f", {s.card.type}" if s.card.type else "")
        + (", villain" if s.card.villain else "")
        + (", summoned" if s.card.summoned else "")
    )
    checks = f"; its checks: {s.chain}" if s.chain_given else ""
    opening.note(
        "step.order",
        f"{s.character.name} encounters {s.card.name} ({what}{checks}). Read the card, then go through every step "
        "that applies, in order.",
    )
    goal = "acquire it" if not s.card.is_bane else "defeat it"
    opening.note(
        "encounter.purpose",
        f"{s.character.name} encounters {indefinite(s.card.kind.value)} to {goal}; {s.character.name} goes through "
        "the steps, and other characters may be able to help by playing cards (local characters may also attempt some "
        "checks of a sequential chain).",
    )
    if s.card.summoned:
        opening.note("encounter.summoned-card", f"{s.card.name} was summoned, so it belongs to no location.")
    if s.chain_given and (len(s.chain) > 1 or len(s.chain.groups[0]) > 1):
        parts = "; then ".join(
            f"({s.chain.label(k)})" if len(s.chain.groups[k - 1]) > 1 else s.chain.label(k)
            for k in range(1, len(s.chain) + 1)
        )
        opening.note(
            "step.or-then",
            f"The check line reads as {len(s.chain)} check(s) in a row: {parts}. 'Or' offers a choice within one "
            "check and binds tighter than 'then', which adds the next check; every check must succeed.",
        )
    if s.card.villain and s.card.summoned:
        # open.summoned-villain-steps: the sources do not say whether they run; asked when an event falls in one
        opening.note(
            "encounter.villain-steps",
            f"{s.card.name} is a villain, so the villain steps are its steps (whether they run for a summoned "
            "villain, which belongs to no location, is not settled).",
        )
    elif s.card.villain:
        opening.note("encounter.villain-steps", f"{s.card.name} is a villain, so the villain steps apply.")
    walks = [Walk(s, trail, Encounter(s.character.name, s.local))]
    verdicts: list[Verdict] = []
    finished = avenge_open = False
    for event in s.events:
        if event.step is EncounterStep.AFTER_ENCOUNTER:
            if not finished:
                walks[-1].walk_to(None, Judge(trail))
                finished = True
            verdicts.append(_after(s, trail, walks, event))
            continue
        if finished:
            verdicts.append(
                Judge.of(trail, event).illegal(
                    "step.order",
                    "it is listed after something that happens once the encounter is over; the encounter cannot go "
                    "back.",
                )
            )
            continue
        if avenge_open:  # the avenger's encounter it would belong to begins only if that avenge does
            Judge.of(trail, event).open(
                "step.avenge", "it follows an avenge whose legality is not settled (above), so it is not ruled."
            )
            verdicts.append(Verdict.UNDETERMINED)
            continue
        walk = walks[-1]
        verdicts.append(walk.handle(event))
        avenge_open = event.kind == "avenge" and verdicts[-1] is Verdict.UNDETERMINED
        if walk.enc.over is Over.AVENGED and len(walks) == 1 and walk.enc.avenged_by is not None:
            avenger = walk.enc.avenged_by
            local = tuple(c for c in (walk.enc.who, *walk.enc.local) if c != avenger)
            # A brand-new encounter (step.avenge). Whether the original encounter's guards still
            # hold in it is open (open.avenger-guards): the avenge is a step of that encounter,
            # and a guard lasts for the encounter it was made in. Where characters stand carries over.
            first = walk.enc
            new = Encounter(avenger, local, number=1, positions=dict(first.positions))
            if first.guarded:
                _carry_guards(s, trail, first, new)
            walks.append(Walk(s, trail, new))
    if not finished:
        walks[-1].walk_to(None, Judge(trail))
    state = _state(s, walks, verdicts)
    verdict = Verdict.LEGAL
    if Verdict.ILLEGAL in verdicts:
        verdict = Verdict.ILLEGAL
    elif Verdict.UNDETERMINED in verdicts or any(step.basis is Basis.OPEN for step in trail.steps):
        verdict = Verdict.UNDETERMINED
    applied = "Steps applied: " + ", ".join(state["steps"])
    if len(walks) > 1:
        applied += f"; then {walks[-1].enc.who}'s new encounter: " + ", ".join(state["avenge"]["steps"])
    card = state["card"]
    if card["outcome"] == CardOutcome.UNKNOWN.value:
        applied += f". {s.card.name}: its fate is not decided."
    else:
        applied += f". {s.card.name}: {card['outcome']}, {_where(card['at'])}."
    opening.note("step.order", applied)
    return Outcome(verdict, _summary(s, walks, verdicts, state, verdict), state)


def _after(s: Situation, trail: Trail, walks: list[Walk], event: ev.Event) -> Verdict:
    """Something that happens once the encounter is over."""
    judge = Judge.of(trail, event)
    a = event.action
    last = walks[-1].enc
    if isinstance(a, (ev.Result, ev.Skip, ev.Evade, ev.Avenge, ev.Guard, ev.Status, ev.EndTurn)):
        return judge.illegal(
            "step.order", f"a {event.kind} belongs to the encounter's steps, and the encounter is over."
        )
    # damage after the encounter comes from an effect timed for then, and is ruled like one
    timed = isinstance(a, (ev.Effect, ev.Damage))
    name = (
        a.name if isinstance(a, ev.Effect) else f"the damage to {', '.join(a.to)}" if isinstance(a, ev.Damage) else ""
    )
    mover = next((w.enc for w in walks if w.enc.moved), None)
    if timed and mover is None and any(w.enc.over is Over.FORCED for w in walks):
        judge.open(
            "open.after-forced-end",
            f"{name} would happen after the encounter, which a forced end of turn ended; whether it still "
            "happens is not settled.",
        )
        return Verdict.UNDETERMINED
    if timed and mover is not None:
        # encounter.move-cancels-after: cancelled whether or not play goes on after a win, so the
        # after-win reading (if the party won) would rule the same on both options and is not asked
        how = "had to move when the location closed" if mover.location_closed else "moved during the encounter"
        return judge.illegal(
            "encounter.move-cancels-after",
            f"{name} would happen after the encounter, but {mover.who} {how}, so it does not happen.",
        )
    if last.over is Over.WON:
        verdict = judge.by_reading(
            "after-win",
            "step.nowhere-to-escape",
            legal={
                "turn-continues": "the party has won, but the turn still finishes, so the win does not stop this.",
            },
            illegal={
                "play-stops": "the party has won, and play stops at once with the win.",
            },
        )
        if verdict is not Verdict.LEGAL:
            return verdict
    elif last.win_open:
        # whether the party won is open: the turn goes on either way only if it also goes on after a win
        if trail.chosen("after-win") != "turn-continues":
            try:
                trail.choice("cornered-with-other-villains")
            except Undetermined as question:
                judge.open(question.clause, "whether this may still happen depends on this: " + question.says)
                return Verdict.UNDETERMINED
        judge.by_reading(
            "after-win",
            "step.nowhere-to-escape",
            legal="won or not, the turn still goes on, so this may still happen.",
        )
    unsure = s.card.villain and not s.card.summoned and any(w.enc.outcome is CardOutcome.UNKNOWN for w in walks)
    if timed and unsure:
        # a defeated villain's location closes and everyone there must move, which would cancel it
        judge.open(
            "encounter.move-cancels-after",
            f"{name} would happen after the encounter, but whether {s.card.name} was defeated is not settled "
            "(above); if it was, its location closes and everyone there must move, which cancels this.",
        )
        return Verdict.UNDETERMINED
    if isinstance(a, ev.Effect) and last.over is Over.EVADED:
        # none of an evaded card's other powers take effect; an effect names its card only in its words
        card = s.card.name.casefold()
        said = a.name.casefold().strip()
        if said == card or said.startswith((f"{card}'s ", f"{card}’s ")):  # "Rat", "Rat's power"
            return judge.illegal(
                "step.evasion",
                f"{name} is a power of {s.card.name}, which was evaded: none of an evaded card's other powers "
                "take effect.",
            )
        judge.open(
            "step.evasion",
            f"{name} would happen after {s.card.name} was evaded: if it is one of {s.card.name}'s own powers it "
            "does not take effect, and the events do not say whose it is.",
        )
        return Verdict.UNDETERMINED
    if isinstance(a, ev.Damage):
        if last.over is Over.EVADED and (a.source or s.card.name).casefold() == s.card.name.casefold():
            return judge.illegal(
                "step.evasion",
                f"{name} would come from {s.card.name}, which was evaded: none of an evaded card's other powers "
                "take effect.",
            )
        # recorded against the last encounter, so the plays that answer it meet the damage rules
        return attempts.judge_damage(judge, s, last, event, EncounterStep.AFTER_ENCOUNTER, None, a)
    if isinstance(a, ev.Effect):
        return judge.legal(
            "encounter.move-cancels-after",
            f"{a.name} happens after the encounter: nobody encountering moved during it.",
        )
    if isinstance(a, (ev.Play, ev.Power)):
        who = a.by
        if any(w.enc.over is Over.FORCED for w in walks):
            return judge.illegal(
                "turn.end-of-turn",
                f"{who}'s play comes at the end of a turn a power forced to end, where no cards or powers may be used.",
            )
        if isinstance(a, ev.Play) and a.reduces is not None:
            return plays.judge_reduction_after(judge, last, a, event.index)
        if a.purpose == "damage" and not any(d.step is EncounterStep.AFTER_ENCOUNTER for d in last.damage):
            return judge.illegal(
                "damage.responses",
                f"{who} uses {a.power if isinstance(a, ev.Power) else a.card} against damage after the encounter, "
                "where no damage has been dealt: only plays that affect the damage being dealt may respond to it.",
            )
        if a.purpose == "check":
            return judge.illegal(
                "check.sub-steps",
                f"{who} plays on a check after the encounter: no check of the encounter is left to roll, and a "
                "card or power that affects a check is played before that check's dice are rolled.",
            )
        return judge.legal(
            "play.what-is-playing",
            f"{who}'s play comes after the encounter, so the encounter's step limits no longer apply to it.",
        )
    return judge.legal("step.order", f"this {event.kind} comes after the encounter.")


def _state(s: Situation, walks: list[Walk], verdicts: list[Verdict]) -> dict[str, Any]:
    first, last = walks[0].enc, walks[-1].enc
    state: dict[str, Any] = {
        "events": [v.value for v in verdicts],
        "steps": [step.value for step in first.walked],
        "card": {
            "name": s.card.name,
            "outcome": (last.outcome or CardOutcome.UNKNOWN).value,
            "at": (last.at or Where.UNKNOWN).value,
        },
    }
    if len(walks) > 1:
        state["avenge"] = {
            "by": last.who,
            "steps": [step.value for step in last.walked],
            "outcome": state["card"]["outcome"],
        }
    # always present, so a scenario can assert that nobody took damage (damage: [])
    state["damage"] = [item for w in walks for d in w.enc.damage for item in d.to_state()]
    if s.card.villain:
        if not s.card.summoned:  # a summoned villain belongs to no location, so none is guarded against it
            state["guarded"] = sorted(last.guarded)
        if last.location_closed is not None:
            state["location"] = "closed" if last.location_closed else "open"
        # "open" when the party may or may not have won (reading cornered-with-other-villains not chosen)
        state["win"] = "open" if last.win_open else last.over is Over.WON
    close_right = next((w.enc.close_right for w in walks if w.enc.close_right), None)
    if close_right:
        state["may-close"] = close_right
    if any(w.enc.moved for w in walks):
        state["after-encounter"] = "cancelled"
    if any(w.enc.over is Over.FORCED for w in walks):
        state["turn"] = "ended"
    elif last.over is Over.WON:
        option = last.after_win
        state["turn"] = {"turn-continues": "continues", "play-stops": "stops"}.get(option or "", "open")
    return state


def _carry_guards(s: Situation, trail: Trail, first: Encounter, new: Encounter) -> None:
    """The original encounter's guards in the avenger's: reading avenger-guards (no default).

    Unchosen, nothing is recorded here: the escape step asks only if the answer decides it.
    """
    if trail.chosen("avenger-guards") is None:
        new.guards_open = set(first.guarded)
        return
    places = ", ".join(sorted(first.guarded))
    option = Judge(trail).option(
        "avenger-guards",
        "open.avenger-guards",
        {
            "lapse": f"{new.who}'s new encounter begins with {places} unguarded again: a guard lasts only for the "
            "encounter it was made in, and the avenger's is a new one.",
            "hold": f"{places} stays guarded in {new.who}'s encounter: the avenge is a step of the original "
            "encounter, which has not ended.",
        },
    )
    if option == "hold":
        new.guarded |= first.guarded


def _where(at: str) -> str:
    return {
        "hand": "drawn into hand",
        "vault": "back in the vault",
        "location": "shuffled back into its location",
        "escaped": "escaped into the unguarded locations",
    }.get(at, "where it goes is not settled")


def _summary(s: Situation, walks: list[Walk], verdicts: list[Verdict], state: dict[str, Any], verdict: Verdict) -> str:
    turned = any(a.open for w in walks for a in w.enc.attempts.values())
    bad = [i + 1 for i, v in enumerate(verdicts) if v is Verdict.ILLEGAL]
    open_ = [i + 1 for i, v in enumerate(verdicts) if v is Verdict.UNDETERMINED]
    if state["card"]["outcome"] != CardOutcome.UNKNOWN.value:
        fate = f"{s.card.name} is {state['card']['outcome']} and {_where(state['card']['at'])}."
        fate = fate[0].upper() + fate[1:]
    elif turned:
        # a check's result turns on the open question, and so the card's fate: announce none
        fate = f"What becomes of {s.card.name} is not settled while that question is open."
    else:
        fate = f"What becomes of {s.card.name} is not decided by the events given."
    if bad:
        return f"Illegal: {_events(bad, 'break')} the rules. {fate}"
    if open_:
        return f"Undetermined: {_events(open_, 'rest')} on a question the rules leave open. {fate}"
    if verdict is Verdict.UNDETERMINED:
        return f"Undetermined: the outcome rests on a question the rules leave open. {fate}"
    return f"Legal: every event follows the rules. {fate}"


def _events(numbers: list[int], verb: str) -> str:
    """``event 3 breaks`` or ``events 2, 5 break``: the events by number, with ``verb`` as said of several."""
    many = len(numbers) > 1
    return f"event{'s' if many else ''} {', '.join(map(str, numbers))} {verb if many else verb + 's'}"
