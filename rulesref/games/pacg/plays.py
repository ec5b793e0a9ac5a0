"""Playing cards and using powers during an encounter: what fits the step, and how often.

The checks run in a fixed order, one block per rule family; the first that fails decides:
  1. relevance: the play must bear on the current step (encounter.step-plays); a play on a
     check needs a check in that step
  2. order: nothing is played on a check once its dice are rolled (check.sub-steps)
  3. immunity: no card with a trait the card is immune to (encounter.immunity)
  4. combat-only powers only on a combat check (check.use-cards)
  5. a revealed card is not played again in the same check or step (verb.reveal), not even
     for another of its powers (play.one-power-per-play)
  6. damage reduction needs damage of a type it can reduce (damage.responses)
  7. the party's one boon of each type per check or step, freely played exempt
     (encounter.boon-limit, play.played-freely, check.damage-type-limit, damage.type-limit)
A character power is checked for 1-4 and then used at most once per step unless it is
triggered (encounter.power-frequency).
"""

from __future__ import annotations

from rulesref.games.pacg.cards import Card
from rulesref.games.pacg.events import Play, Power
from rulesref.games.pacg.judge import Judge
from rulesref.games.pacg.state import DamageDealt, Encounter, Played
from rulesref.games.pacg.steps import NO_CHECK_STEPS, EncounterStep
from rulesref.ruling import Verdict
from rulesref.text import indefinite


def judge_play(
    judge: Judge,
    enc: Encounter,
    card: Card,
    on_combat: bool,
    step: EncounterStep,
    where: int | str | None,
    play: Play,
    event: int,
    holds_check: bool,
) -> Verdict:
    """Rule on one boon play; a legal play is recorded for the type limit.

    ``holds_check``: the step has a check the play can be made on.
    """
    said = _said(play)
    wrong = _relevance(judge, enc, step, where, play.purpose, said, holds_check)
    if wrong is not None:
        return wrong
    hit = sorted(play.traits & card.immune)
    if hit and not (play.ignores_immunity or enc.immunity_lifted):
        return judge.illegal(
            "encounter.immunity",
            f"{said}: {card.name} is immune to {', '.join(hit)}, so no card with that trait may be played "
            "during the encounter unless a power removes or ignores the trait or the immunity.",
        )
    if hit:
        _immunity_ignored(judge, card, said, hit, play.ignores_immunity)
    if play.combat_only and not on_combat:
        return _not_combat(judge, said)
    key = (play.by, play.card.lower(), step, where)
    if key in enc.revealed and not play.again:
        if play.how == "reveal":
            return judge.illegal(
                "verb.reveal",
                f"{said}: {play.card} was already revealed for its power in this check or step, and the same card "
                "cannot be revealed for its power again there unless the card itself allows it.",
            )
        return judge.illegal(
            "play.one-power-per-play",
            f"{said}: {play.card} was already revealed for one of its powers here; a boon played for its power "
            "uses only one of its powers, even when it stays in hand and is played freely, unless the card "
            "itself allows another use.",
        )
    source: DamageDealt | None = None
    if play.reduces is not None:
        source, why = _damage_for(enc, step, where, play)
        if source is None:
            return judge.illegal("damage.responses", f"{said}: {why}")
    record = Played(
        event, play.by, play.card, play.type, step, where, play.freely, play.reduces, source.id if source else None
    )
    verdict = _type_limit(judge, enc, record, said)
    if verdict is not Verdict.ILLEGAL:
        enc.plays.append(record)
        if play.how == "reveal":
            enc.revealed.add(key)
    return verdict


def _said(play: Play) -> str:
    """How the steps name a boon play: ``Amiri plays Longsword (weapon, freely)``."""
    return f"{play.by} plays {play.card} ({play.type}{', freely' if play.freely else ''})"


def _immunity_ignored(judge: Judge, card: Card, said: str, hit: list[str], itself: bool) -> None:
    """The exception the immunity rule makes, said where a play or power turns on it."""
    by = "it ignores the immunity itself" if itself else "a power used earlier in this encounter ignores it"
    judge.note(
        "encounter.immunity",
        f"{said}: {card.name} is immune to {', '.join(hit)}, but {by}, so the immunity does not stop it.",
    )


def judge_power(
    judge: Judge,
    enc: Encounter,
    card: Card,
    on_combat: bool,
    step: EncounterStep,
    where: int | str | None,
    power: Power,
    holds_check: bool,
) -> Verdict:
    """Rule on a power used; once per step (or check) unless triggered by an event."""
    said = f"{power.by} uses {power.power}"
    # a triggered power happens when its event does, in whatever step that is
    wrong = _relevance(judge, enc, step, where, "other" if power.triggered else power.purpose, said, holds_check)
    if wrong is not None:
        return wrong
    hit = sorted(power.adds & card.immune)
    if hit and not (power.ignores_immunity or enc.immunity_lifted):
        return judge.illegal(
            "encounter.immunity",
            f"{said}: it would add {', '.join(hit)} to a check against {card.name}, which is immune to it.",
        )
    if hit:
        _immunity_ignored(judge, card, said, hit, power.ignores_immunity)
    if power.combat_only and not on_combat:
        return _not_combat(judge, said)
    key = (power.by, power.power.lower(), step, where)
    if key in enc.powers and not power.triggered:
        return judge.illegal(
            "encounter.power-frequency",
            f"{said} a second time in this step: a power not tied to a specific event is used at most once per step.",
        )
    enc.powers.add(key)
    if power.ignores_immunity:
        enc.immunity_lifted = True
    how = (
        "it triggers on an event, so it may be used each time that happens"
        if power.triggered
        else "its first use in this step"
    )
    return judge.legal("encounter.power-frequency", f"{said}: {how}.")


def _not_combat(judge: Judge, said: str) -> Verdict:
    """A combat-only power (a card's or a character's) on a check that is not a combat check."""
    return judge.illegal(
        "check.use-cards", f"{said}: a combat-only power cannot be used on a check that is not a combat check."
    )


def _relevance(
    judge: Judge,
    enc: Encounter,
    step: EncounterStep,
    where: int | str | None,
    purpose: str,
    said: str,
    holds_check: bool,
) -> Verdict | None:
    """Blocks 1 and 2: only plays that bear on the current step, and none on a check already rolled."""
    if purpose in ("heal", "explore"):
        return judge.illegal(
            "encounter.step-plays",
            f"{said} to {purpose}: that bears on no encounter step, and only plays that relate to the current step "
            "are allowed.",
        )
    if purpose != "check":
        return None
    if step in NO_CHECK_STEPS:
        return judge.illegal(
            "encounter.step-plays",
            f"{said} on a check: the {step.value} step has no check to play it on, and plays must relate to the "
            "current step.",
        )
    if not holds_check:
        return judge.illegal(
            "encounter.step-plays",
            f"{said} on a check: no check is attempted in the {step.value} step as described, so the play relates "
            "to nothing in it, and plays must relate to the current step (write for: and what it is for if it does "
            "something else here, or name the step's check with check:).",
        )
    if enc.was_rolled(step, where):
        if not isinstance(where, int):
            what = f"the {where} check"
        elif where == 1:
            what = "the first check"
        else:
            what = f"check {where} of the chain"
        return judge.illegal(
            "check.sub-steps",
            f"{said} on {what} after its dice were rolled: cards and powers that affect a check are played before "
            "the dice are assembled and rolled, by the order of the sub-step titles with each process finished "
            "before the next.",
        )
    return None


def _damage_for(
    enc: Encounter, step: EncounterStep, where: int | str | None, play: Play
) -> tuple[DamageDealt | None, str]:
    """Block 6: the damage this play reduces, dealt earlier in the same step (and check)."""
    here = [d for d in enc.damage if d.step is step and play.reduces in d.to]
    same = [d for d in here if d.check == where] or here
    if not same:
        return None, (
            f"no damage has been dealt to {play.reduces} in this step, so there is nothing for it to "
            "reduce; only plays that affect the damage being dealt may respond to it."
        )
    fits = [d for d in same if play.damage_type in (None, "any") or d.type == play.damage_type]
    if not fits:
        return None, (
            f"it reduces only {play.damage_type} damage, and the damage dealt is {same[-1].type}; only cards "
            "that affect that type of damage may be played."
        )
    # several damages fit: a boon of a type already played against one is taken as answering another
    answered = {q.source for q in enc.plays if q.type == play.type and q.reduces == play.reduces}
    return next((d for d in reversed(fits) if d.id not in answered), fits[-1]), ""


def _clashes(enc: Encounter, new: Played, option: str) -> list[Played]:
    """The counted plays of ``new``'s type in what one count of the limit covers under each reading of
    open.boon-limit-unit: the step, or (per-check) the check in it."""
    return [
        p
        for p in enc.plays
        if p.type == new.type and not p.freely and p.step is new.step and (option == "per-step" or p.check == new.check)
    ]


def _type_limit(judge: Judge, enc: Encounter, new: Played, said: str) -> Verdict:
    """Block 7: one boon of each type for the whole party, per check or step; free plays exempt."""
    if new.freely:
        return judge.legal(
            "play.played-freely",
            f"{said}: a play made freely does not count toward the party's one-{new.type} limit.",
        )
    per_check, per_step = _clashes(enc, new, "per-check"), _clashes(enc, new, "per-step")
    if new.reduces is not None and not per_step:
        verdict = _other_instance(judge, enc, new, said)
        if verdict is not None:
            return verdict
    clash = per_check
    if bool(per_check) != bool(per_step):
        # the two readings of open.boon-limit-unit disagree only here: several checks in one step
        earlier = f"another {new.type} was played earlier in this step but on another check;"
        option = judge.option(
            "boon-limit",
            "encounter.boon-limit",
            {
                "per-check": f"{said}: {earlier} the party's count is taken per check, so it starts again for this "
                "check.",
                "per-step": f"{said}: {earlier} the party's count is taken per step, so it is shared across the step.",
            },
            forbids=("per-step",),  # the earlier play is a clash only when the count is per step
        )
        if option is None:
            return Verdict.UNDETERMINED
        clash = per_check if option == "per-check" else per_step
    return _decide(judge, enc, new, clash, said)


def _other_instance(judge: Judge, enc: Encounter, new: Played, said: str) -> Verdict | None:
    """A reduction of the same type against this character's damage from the card in an earlier step.

    Whether that earlier damage is another source, with its own count, is open
    (damage.separate-instances); None when the reading lets this play go on to the limit.
    """
    # one source's damage in several steps: another source's is never merged with it
    here = _source_of(enc, new.source)
    earlier = [
        p
        for p in enc.plays
        if p.type == new.type
        and not p.freely
        and p.reduces == new.reduces
        and p.source != new.source
        and _same_source(enc, p.source, new.source)
    ]
    if not earlier:
        return None
    first = earlier[0]
    verdict = judge.by_reading(
        "damage-instances",
        "damage.separate-instances",
        legal={
            "separate": f"{said}: {first.by} played {first.card} against {new.reduces}'s damage from {here} in the "
            f"{first.step.value} step, but each instance of damage is its own source with its own reduction plays.",
        },
        illegal={
            "one-source": f"{said}: {_already(first, new)}, against {new.reduces}'s damage from {here} in the "
            f"{first.step.value} step, and all of one source's damage counts once for the one-per-type limit.",
        },
        about=said,
    )
    return None if verdict is Verdict.LEGAL else verdict


def _source_of(enc: Encounter, damage: int | None) -> str:
    """The card or effect that dealt the damage a play reduces (DamageDealt.dealer), by its id."""
    return next((d.dealer for d in enc.damage if d.id == damage), "damage")


def _same_source(enc: Encounter, one: int | None, other: int | None) -> bool:
    """Whether two damages came from one source: one name, however it is capitalised."""
    return _source_of(enc, one).casefold() == _source_of(enc, other).casefold()


def judge_reduction_after(judge: Judge, enc: Encounter, play: Play, event: int) -> Verdict:
    """A boon played against damage dealt after the encounter: the damage rules still hold there
    (something to reduce, of its type; one boon of each type per character per source), though
    the encounter's step limits do not."""
    step, said = EncounterStep.AFTER_ENCOUNTER, _said(play)
    source, why = _damage_for(enc, step, None, play)
    if source is None:
        return judge.illegal("damage.responses", f"{said}: {why}")
    # the boons of this type already counted against this source's damage after the encounter
    counted = [
        q
        for q in enc.plays
        if q.step is step and q.type == play.type and not q.freely and _same_source(enc, q.source, source.id)
    ]
    first = next((q for q in counted if q.reduces == play.reduces), None)
    others = [q for q in counted if q.reduces is not None]  # another character's when first is None
    record = Played(event, play.by, play.card, play.type, step, None, play.freely, play.reduces, source.id)
    if play.freely:
        verdict = judge.legal(
            "play.played-freely",
            f"{said}: a play made freely does not count toward the one-{play.type} limit on this damage.",
        )
    elif first is not None:
        verdict = _same_source_limit(judge, enc, first, record, said)
    # the same card's damage answered during the encounter: one source with it, or another instance?
    elif (instance := _other_instance(judge, enc, record, said)) is not None:
        verdict = instance
    elif others:
        # one source damaging several characters: each their own limit, or one shared? (open)
        verdict = _damage_limit(judge, said, play, others[0], "the same source's damage to another character")
    else:
        verdict = _first_against(judge, record, said)
    if verdict is Verdict.LEGAL:
        enc.plays.append(record)
    return verdict


def _damage_limit(judge: Judge, said: str, new: Played | Play, first: Played, against: str) -> Verdict:
    """Reading damage-limit: ``first`` already reduced other damage (``against`` says which) of
    the type ``new`` is; does each character's damage from each source have its own limit?"""
    return judge.by_reading(
        "damage-limit",
        "damage.type-limit",
        legal={
            "per-character": f"{said} against the damage to {new.reduces}: each character's damage from each "
            f"source has its own one-{new.type} limit.",
        },
        illegal={
            "shared": f"{said}: {first.by} already played {first.card} against {against}, and the party shares "
            f"one {new.type} for that damage.",
        },
        about=said,
    )


def _already(first: Played, new: Played | Play) -> str:
    return f"{first.by} already played {first.card}, {indefinite(new.type)}"


def _first_against(judge: Judge, new: Played, said: str) -> Verdict:
    """The first boon of its type against a character's damage: within damage.type-limit."""
    return judge.legal(
        "damage.type-limit",
        f"{said} to reduce the damage to {new.reduces}: the first {new.type} against it, within the limit.",
    )


def _same_source_limit(judge: Judge, enc: Encounter, first: Played, new: Played, said: str) -> Verdict:
    """``first`` already answered this character's damage from ``new``'s source with a boon of its type."""
    return judge.illegal(
        "damage.type-limit",
        f"{said}: {_already(first, new)}, against {new.reduces}'s damage from the same source "
        f"({_source_of(enc, new.source)}); only one boon of each type may affect one character's damage from one "
        "source.",
    )


def _decide(judge: Judge, enc: Encounter, new: Played, clash: list[Played], said: str) -> Verdict:
    if not clash:
        if new.reduces is not None:
            return _first_against(judge, new, said)
        return judge.legal(
            "encounter.boon-limit",
            f"{said}: the first {new.type} the party plays on this check or step, so within the limit of one per type.",
        )
    if new.reduces is not None and all(
        p.reduces is not None and (p.reduces != new.reduces or not _same_source(enc, p.source, new.source))
        for p in clash
    ):
        # only other damage was reduced so far (another character's, another source's): does the
        # party share one limit in the step, or does each character's damage from each source
        # have its own? (open)
        other = (
            "the same source's damage to another character"
            if _same_source(enc, clash[0].source, new.source)
            else "other damage"
        )
        return _damage_limit(judge, said, new, clash[0], f"{other} in this step")
    first = clash[0]
    if new.reduces is not None and first.reduces is not None:
        return _same_source_limit(judge, enc, first, new, said)
    already = _already(first, new)
    if new.reduces is not None:
        return judge.illegal(
            "check.damage-type-limit",
            f"{said} to reduce damage: {already}, on this check, and "
            "reducing the check's damage falls under the same one-per-type limit.",
        )
    return judge.illegal(
        "encounter.boon-limit",
        f"{said}: {already}, on this check or step; the party may play "
        f"only one {new.type} there, and a second only if it is played freely.",
    )
