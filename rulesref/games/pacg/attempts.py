"""Attempting checks: who may attempt which check of the chain, the result, and the damage it deals.

Only the encountering character attempts a lone check to acquire or defeat; in a then
chain any local character may attempt a check, as long as the encountering character
attempts at least one (step.sequential-checks). Every check of the chain is attempted,
even after a failure (step.attempt-every-check). That a check is tried once unless an
effect allows more (reading check-attempts), and that another character's failed check
deals its damage to them (reading chain-damage), rest on a first-edition community answer
(open.check-attempts).
"""

from __future__ import annotations

from rulesref.errors import RulesrefError
from rulesref.games.pacg.checks import Check, CheckSyntaxError, find_check
from rulesref.games.pacg.events import Damage, Event, Result, Skip
from rulesref.games.pacg.judge import Judge
from rulesref.games.pacg.situation import Situation
from rulesref.games.pacg.state import Attempt, DamageDealt, Encounter
from rulesref.games.pacg.steps import CHECK_STEPS, EncounterStep
from rulesref.ruling import Verdict

SIDE_STEP_CLAUSE = {
    EncounterStep.ENCOUNTER: "step.when-you-encounter",
    EncounterStep.BEFORE_ACTING: "step.before-acting",
    EncounterStep.AFTER_ACTING: "step.after-acting",
    EncounterStep.GUARD: "step.guard",
}
"""The clause for a check or damage a card calls for in a step other than the checks."""


def chain_position(s: Situation, enc: Encounter, event: Event, ref: str | int | None) -> int:
    """Which check of the chain an event in the check steps concerns (1-based).

    A named check decides. Otherwise a result goes to the next check not yet attempted
    (so a second result written in step ``check`` is read as the next check); any other
    event goes by its step: ``check`` is the chain's first check, ``next-check`` the check
    in progress after it, and a damage reduction the check whose failure dealt that damage.
    """
    if ref is not None:
        if not s.chain_given:
            return ref if isinstance(ref, int) else 1
        try:
            return find_check(s.chain, ref, prefer=enc.check_in_progress(len(s.chain))).position
        except CheckSyntaxError as exc:
            raise _error(s, event, "check", str(exc)) from None
    in_progress = enc.check_in_progress(len(s.chain))
    if event.kind in ("result", "skip"):
        return max(in_progress, 2) if event.step is EncounterStep.NEXT_CHECK else in_progress
    if event.step is EncounterStep.CHECK:
        return 1
    reduces = getattr(event.action, "reduces", None)
    if reduces is not None:
        hit = [d.check for d in enc.damage if reduces in d.to and isinstance(d.check, int) and d.check >= 2]
        if hit:
            return max(k for k in hit if isinstance(k, int))
    return max(in_progress, 2)


def _error(s: Situation, event: Event, key: str, message: str, hint: str | None = None) -> RulesrefError:
    return s.doc.error((*event.path, event.kind, key), message, hint=hint)


def _option(s: Situation, event: Event, k: int, result: Result | Skip) -> Check:
    group = s.chain.groups[k - 1]
    if result.check is None or isinstance(result.check, int) or not s.chain_given:
        if (
            isinstance(result, Result)
            and result.total is not None
            and result.difficulty is None
            and len({c.difficulty for c in group}) > 1
        ):
            raise _error(
                s,
                event,
                "total",
                f"say which of {s.chain.label(k)!r} was attempted, so the total can be compared with its difficulty",
                hint="add check: with the skill, e.g. check: Perception",
            )
        return group[0]
    return find_check(s.chain, result.check, prefer=k).check


def judge_result(
    judge: Judge,
    s: Situation,
    enc: Encounter,
    event: Event,
    step: EncounterStep,
    where: int | str | None,
    result: Result,
) -> Verdict:
    """Rule on a check attempted; a legal attempt is recorded, and a failed one against a monster deals damage."""
    if result.side or step not in CHECK_STEPS:
        return _side_check(judge, enc, step, result)
    assert isinstance(where, int)
    k, n = where, len(s.chain)
    if k > n:
        return judge.illegal("step.order", f"{s.card.name} has a single check, so there is no next check to attempt.")
    check = _option(s, event, k, result)
    said = f"{result.by} attempts {check}" if s.chain_given else f"{result.by} attempts the check"
    later = [j for j in enc.attempts if j > k]
    if later:
        return judge.illegal(
            "step.or-then",
            f"{said} after check {max(later)} of the chain: the checks of a then chain are attempted one after "
            "another, in order.",
        )
    if n == 1 and result.by != enc.who:
        return judge.illegal(
            "step.attempt-check",
            f"{said}: only the encountering character, {enc.who}, attempts the check to {_goal(s)}; nobody else "
            f"can {_goal(s)} in their place.",
        )
    if n > 1 and result.by not in (enc.who, *enc.local):
        return judge.illegal(
            "step.sequential-checks",
            f"{said}: only a character at {enc.who}'s location may attempt one of the sequential checks.",
        )
    done = {j for j in enc.attempts if j != k} | {k}
    if (
        n > 1
        and len(done) == n
        and result.by != enc.who
        and all(a.by != enc.who or a.skipped for j, a in enc.attempts.items() if j != k)
    ):
        return judge.illegal(
            "step.sequential-checks",
            f"{said}: that would leave {enc.who}, the encountering character, without attempting any of the "
            "sequential checks; they must attempt at least one.",
        )
    earlier = enc.attempts.get(k)
    if result.reroll and earlier is not None and earlier.chose_fail:
        # check.hero-point rolls a check's dice again; check.choose-fail makes the result 0 by
        # the choice, so no roll gives the chosen failure another result (audit 11 P2)
        failed = str(earlier.check) if s.chain_given else "the check"
        judge.note(
            "check.choose-fail",
            f"{earlier.by} chose to fail {failed}: its result is 0, set by that choice, not by a roll.",
        )
        return judge.illegal(
            "check.hero-point",
            f"{said} again, given as a reroll: a hero point rolls the dice on a check again, but the check's "
            "result is the chosen failure's 0, which no roll decides, so rolling again cannot give it another "
            "result.",
        )
    if earlier is not None and not earlier.skipped and not result.reroll:
        first = earlier.by
        again = judge.by_reading(
            "check-attempts",
            "open.check-attempts",
            legal={
                "again-allowed": f"{said} again ({first} already attempted it): nothing limits a check to one attempt.",
            },
            illegal={
                "once-each": f"{said} again: check {k} of the chain was already attempted by {first}, and each check "
                "is attempted once unless an effect allows another try.",
            },
        )
        if again is not Verdict.LEGAL:
            return again
    replaced = _replaced_damage(enc, earlier, k) if result.reroll and earlier is not None else []
    answered = [p for p in enc.plays if p.source is not None and p.source in {d.id for d in replaced}]
    if answered:
        # no source gives the reroll a last moment: the ruling rests on a reading with no default
        late = (
            f"{said} again as a reroll after {answered[0].by} played {answered[0].card} against the damage of the "
            "roll it would replace"
        )
        after = judge.by_reading(
            "reroll-after-damage",
            "open.reroll-after-damage",
            legal={
                "allowed": f"{late}: the reroll rule sets no moment, so the check may still be rolled again; the "
                "new roll replaces the failed one, and the damage of the replaced roll is not suffered."
            },
            illegal={
                "refused": f"{late}: with its damage already answered the check has moved past its roll, and a reroll "
                "would go back to it."
            },
            about=late,
        )
        if after is Verdict.UNDETERMINED:
            _leave_open(enc, earlier, replaced, _success(s, event, check, result))
        if after is not Verdict.LEGAL:
            return after
    success = _success(s, event, check, result)
    difficulty = result.difficulty if result.difficulty is not None else check.difficulty
    enc.attempts[k] = Attempt(event.index, result.by, check, result.total, success, chose_fail=result.chose_fail)
    # the reroll takes the replaced roll's place, so the damage that roll dealt is not suffered
    enc.damage = [d for d in enc.damage if d not in replaced]
    outcome = "succeeds" if success else "fails"
    if result.total is not None and difficulty is not None:
        outcome += f" ({result.total} against {difficulty})"
    chose_fail = f"{said} and chooses to fail: the result is 0, and the check fails."
    if result.reroll and earlier is not None:
        # the scenario gives only `reroll: true`: the step does not say a hero point was spent
        then = "then chooses to fail it" if result.chose_fail else outcome
        verdict = judge.legal(
            "check.hero-point",
            f"{said} again, given as a reroll of the check's dice (a reroll a hero point can pay for), and {then}.",
        )
        if replaced and not answered:
            # check.damage: the damage comes from the check's result; the reroll's result is now the check's
            amounts = ", ".join(
                f"{d.amount} {d.type.capitalize()}" if d.amount is not None else "some" for d in replaced
            )
            now = "succeeds, so it deals none" if success else "is the one the damage is worked out from"
            judge.note(
                "check.damage",
                f"The damage of a failed check is worked out from its result; the rerolled result {now}, and the "
                f"damage worked out from the replaced roll ({amounts}) is not dealt.",
            )
        if result.chose_fail:
            judge.note("check.choose-fail", chose_fail)
    elif result.chose_fail:
        verdict = judge.legal("check.choose-fail", chose_fail)
    elif n > 1 and result.by != enc.who:
        verdict = judge.legal(
            "step.sequential-checks", f"{said}, one of the sequential checks, as a local character may, and {outcome}."
        )
    elif n > 1 and any(not a.success for j, a in enc.attempts.items() if j < k):
        verdict = judge.legal(
            "step.attempt-every-check",
            f"{said} and {outcome}: an earlier check failed, but every check of the chain is still attempted.",
        )
    elif result.total is not None and difficulty is not None:
        verdict = judge.legal(
            "check.difficulty", f"{said} and {outcome}: a check succeeds when the total is at least the difficulty."
        )
    else:
        verdict = judge.legal("step.attempt-check", f"{said} and {outcome}.")
    if not success and s.card.is_monster:
        _check_damage(judge, s, enc, event, step, k, result, check, difficulty)
    return verdict


def _success(s: Situation, event: Event, check: Check, result: Result) -> bool:
    """Whether the result succeeds: ``total >= difficulty``, or ``success`` as given (a ScenarioError if both
    are given and disagree)."""
    difficulty = result.difficulty if result.difficulty is not None else check.difficulty
    success = result.success
    if result.total is not None and difficulty is not None:
        meets = result.total >= difficulty
        if success is not None and success != meets:
            raise _error(
                s,
                event,
                "success",
                f"total {result.total} {'meets' if meets else 'is below'} the difficulty {difficulty}, but success "
                f"is {str(success).lower()}",
                hint="give the adjusted difficulty with difficulty: N if an effect changed it",
            )
        success = meets
    if success is None:
        raise _error(
            s,
            event,
            "total",
            "cannot tell whether the check succeeded: the card gives no difficulty",
            hint="add success: true or false",
        )
    return success


def _leave_open(enc: Encounter, earlier: Attempt | None, replaced: list[DamageDealt], rerolled: bool) -> None:
    """A reroll left open: the roll it would replace stands only on one option.

    Its damage is dealt only if the reroll is refused, and where the reroll would turn the
    check's success around, the check's result (and so the card's fate) is not settled.
    """
    for damage in replaced:
        damage.open = True
    if earlier is not None and earlier.success != rerolled:
        earlier.open = True


def _replaced_damage(enc: Encounter, earlier: Attempt, k: int) -> list[DamageDealt]:
    """The damage dealt by the roll a reroll of check ``k`` replaces."""
    return [d for d in enc.damage if d.event == earlier.event and d.check == k]


def _goal(s: Situation) -> str:
    return "defeat it" if s.card.is_bane else "acquire it"


def _check_damage(
    judge: Judge,
    s: Situation,
    enc: Encounter,
    event: Event,
    step: EncounterStep,
    k: int,
    result: Result,
    check: Check,
    difficulty: int | None,
) -> None:
    amount = difficulty - result.total if difficulty is not None and result.total is not None else None
    taker: str | None = result.by
    if len(s.chain) > 1 and result.by != enc.who:
        # who takes another character's failed check's damage: a first-edition community answer
        option = judge.option(
            "chain-damage",
            "open.check-attempts",
            {
                "attempter": f"{check} failed: its damage goes to {result.by}, who attempted it, apart from any "
                "other check of the chain.",
                "encountering": f"{check} failed: its damage goes to {enc.who}, the encountering character, though "
                f"{result.by} attempted it.",
            },
        )
        taker = {"attempter": result.by, "encountering": enc.who}.get(option or "")
    if taker is None:
        return  # whose damage it is stays open (the step above says so)
    enc.deal(event.index, step, k, (taker,), amount, s.card.damage_type, s.card.name, s.card.name)
    how_much = (
        f"{amount} {s.card.damage_type.capitalize()} damage"
        if amount is not None
        else f"{s.card.damage_type.capitalize()} damage equal to the difficulty minus the result"
    )
    judge.note(
        "check.damage",
        f"{result.by} failed a check to defeat the monster {s.card.name}: {how_much}, whatever skill the check used.",
    )


def _side_check(judge: Judge, enc: Encounter, step: EncounterStep, result: Result) -> Verdict:
    said = f"{result.by} attempts {result.check or 'a check'}"
    if result.side:
        if enc.attempts or step.rank > EncounterStep.NEXT_CHECK.rank:
            return judge.illegal(
                "encounter.side-checks-first",
                f"{said}, a check that can change the check to acquire or defeat: it must be resolved before that "
                "check begins.",
            )
        enc.roll(step, result.check)
        return judge.legal(
            "encounter.side-checks-first",
            f"{said} before the check to acquire or defeat, as a check that can change it must be.",
        )
    clause = SIDE_STEP_CLAUSE.get(step)
    if clause is None:
        return judge.illegal("step.order", f"{said}: no check is attempted in the {step.value} step.")
    enc.roll(step, result.check)
    return judge.legal(clause, f"{said}, a check the {step.value} step calls for.")


def judge_skip(judge: Judge, s: Situation, enc: Encounter, event: Event, k: int, skip: Skip) -> Verdict:
    """A check of the chain left unattempted: never allowed (a character may only choose to fail)."""
    if k > len(s.chain):
        return judge.illegal("step.order", f"{s.card.name} has a single check, so there is no next check.")
    check = _option(s, event, k, skip)
    if k not in enc.attempts:
        enc.attempts[k] = Attempt(event.index, skip.by, check, None, False, skipped=True)
    if len(s.chain) > 1:
        return judge.illegal(
            "step.attempt-every-check",
            f"{skip.by} does not attempt {check}: every check of the chain must be attempted, even after a "
            "failure, because failing can have its own consequences.",
        )
    # encounter.purpose: the encountered card must be tried (to acquire or defeat); check.choose-fail
    # is the way not to succeed
    judge.note("check.choose-fail", "A character may choose to fail a check; the result is then 0.")
    return judge.illegal(
        "encounter.purpose",
        f"{skip.by} does not attempt {check}: the check to {_goal(s)} must be attempted, though a character may "
        "choose to fail it.",
    )


def judge_damage(
    judge: Judge,
    s: Situation,
    enc: Encounter,
    event: Event,
    step: EncounterStep,
    where: int | str | None,
    damage: Damage,
) -> Verdict:
    """Damage dealt by the card or an effect: recorded, so reductions can answer it."""
    dealer = damage.source or s.card.name  # damage said of no one is the encountered card's
    earlier = [d for d in enc.damage if d.step is not step and d.dealer.casefold() == dealer.casefold()]
    enc.deal(event.index, step, where, damage.to, damage.amount, damage.type, dealer, dealer)
    amount = f"{damage.amount} " if damage.amount is not None else ""
    said = f"{amount}{damage.type.capitalize()} damage to {', '.join(damage.to)}"
    if earlier:
        judge.option(
            "damage-instances",
            "damage.separate-instances",
            {
                "separate": f"{said}: a separate instance of damage from the earlier one, with its own reduction "
                "plays.",
                "one-source": f"{said}: the same source as its earlier damage, sharing its reduction plays.",
            },
        )
        return Verdict.LEGAL
    # damage.responses says what may respond to damage dealt by an effect, in any step; check.damage
    # is the failed check's own damage, which judge_result deals
    return judge.legal(
        "damage.responses", f"{said}; cards that reduce this type of damage (or any damage) may respond to it."
    )
