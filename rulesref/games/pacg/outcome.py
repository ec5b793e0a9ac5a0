"""How an encounter ends, and where the card goes: resolve, the avenge step, and the villain steps.

Each function is entered when the walk reaches its step and writes the card's fate to the
Encounter; each block cites the clause it applies.
"""

from __future__ import annotations

from rulesref.games.pacg.judge import Judge
from rulesref.games.pacg.situation import Situation
from rulesref.games.pacg.state import CardOutcome, Encounter, Over, Where


def checks_outcome(s: Situation, enc: Encounter) -> bool | None:
    """True if every check of the chain succeeded, False if any failed, None if the events do not say."""
    attempts = [enc.attempts.get(k) for k in range(1, len(s.chain) + 1)]
    results = [None if a is None or a.open else a.success for a in attempts]
    if enc.status is not None:
        said = enc.status in ("acquired", "defeated")
        # a check the events give that says otherwise: no source says which decides (status_contested)
        return None if any(r is (not said) for r in results) else said
    if any(r is False for r in results):
        return False
    if all(r is True for r in results):
        return True
    return None


def _not_said(enc: Encounter, goal: str, card: str) -> str:
    """Why the checks' outcome is unknown: an open point could turn a result around, or the events do not say."""
    if enc.status is not None:
        return (
            f"an effect made {card} {enc.status} earlier (the encounter went on, encounter.status-change), and a "
            f"check the events give says otherwise; no source says which decides, so what becomes of {card} is "
            "not settled."
        )
    if any(a.open for a in enc.attempts.values()):
        return (
            f"whether every check to {goal} {card} succeeded turns on the open question above (a reroll that "
            f"would change the result), so what becomes of {card} is not settled."
        )
    return f"the events do not say whether every check to {goal} {card} succeeded."


def resolve(s: Situation, enc: Encounter, judge: Judge) -> None:
    """Resolve the encounter (step.resolve-boon, step.resolve-bane)."""
    card = s.card
    won = checks_outcome(s, enc)
    # a status an effect gave earlier decides the resolve step, where no check says otherwise
    by_effect = f"an effect made {card.name} {enc.status} earlier (the encounter went on, encounter.status-change)"
    note = judge.open if won is None and enc.status is not None else judge.note
    if not card.is_bane:
        enc.over = Over.RESOLVED
        if won is None:
            enc.outcome, enc.at = CardOutcome.UNKNOWN, Where.UNKNOWN
            note("step.resolve-boon", f"Resolve: {_not_said(enc, 'acquire', card.name)}")
        elif won:
            enc.outcome, enc.at = CardOutcome.ACQUIRED, Where.HAND
            judge.note(
                "step.resolve-boon",
                f"Resolve: {by_effect if enc.status else 'every check succeeded'}, so {enc.who} acquires "
                f"{card.name}: it is drawn into {enc.who}'s hand.",
            )
            judge.note("verb.card-moves", f"{card.name} is drawn: it goes into {enc.who}'s hand.")
        else:
            enc.outcome, enc.at = CardOutcome.NOT_ACQUIRED, Where.VAULT
            judge.note(
                "step.resolve-boon",
                f"Resolve: a check to acquire {card.name} did not succeed, so it is banished; the encounter is over.",
            )
            _to_vault(s, judge, f"{card.name} is banished")
        return
    if won is None:
        enc.outcome, enc.at = CardOutcome.UNKNOWN, Where.UNKNOWN
        note("step.resolve-bane", f"Resolve: {_not_said(enc, 'defeat', card.name)}")
        return
    since = ", as an effect made it earlier (the encounter went on, encounter.status-change)" if enc.status else ""
    failed = by_effect if enc.status else f"a check to defeat {card.name} did not succeed"
    if won:
        enc.outcome = CardOutcome.DEFEATED
        if card.villain and not card.summoned:
            judge.note(
                "step.resolve-bane",
                f"Resolve: {card.name} is defeated{since}; a defeated villain is not banished here but goes on "
                "to the villain steps.",
            )
            return
        enc.over, enc.at = Over.RESOLVED, Where.VAULT
        if card.villain:  # summoned: step.resolve-bane banishes only a bane that is not a villain
            judge.note(
                "step.resolve-bane",
                f"Resolve: {card.name} is defeated{since}; the resolve step banishes a defeated bane only when "
                "it is not a villain.",
            )
            judge.note(
                "verb.summon",
                f"{card.name} was summoned: once it is resolved it goes back to the vault, unless the summoning "
                "card says otherwise.",
            )
            judge.note(
                "encounter.summoned-card",
                f"{card.name} was summoned: it belongs to no location, and defeating a summoned villain never wins "
                "the scenario.",
            )
            return
        judge.note(
            "step.resolve-bane",
            f"Resolve: {card.name} is defeated{since}, so it is banished and the encounter ends.",
        )
        _to_vault(s, judge, f"{card.name} is banished")
        _henchman(s, enc, judge)
        return
    enc.outcome = CardOutcome.UNDEFEATED
    if enc.number > 0:
        # step.avenge: each bane can be avenged only once, and this is the avenger's encounter
        judge.note("step.resolve-bane", f"Resolve: {failed}, so it is undefeated.")
        judge.note(
            "step.avenge",
            f"{card.name} has already been avenged, and a bane can be avenged only once: no one may avenge it again.",
        )
        return
    judge.note(
        "step.resolve-bane",
        f"Resolve: {failed}, so it is undefeated; another character at the location, if there is one, may avenge it.",
    )


def _henchman(s: Situation, enc: Encounter, judge: Judge) -> None:
    if s.card.henchman is None:
        return
    if s.card.henchman.value == "closing" and s.card.summoned:
        judge.open(
            "open.summoned-villain-steps",
            f"{s.card.name} is a closing henchman, but it was summoned and belongs to no location: which location, "
            f"if any, its defeat lets {enc.who} try to close is not settled.",
        )
    elif s.card.henchman.value == "closing":
        enc.close_right = enc.who
        judge.note(
            "card.henchmen",
            f"{s.card.name} is a closing henchman: {enc.who}, who defeated it, may now attempt to close the location.",
        )
    else:
        judge.note(
            "card.henchmen",
            f"{s.card.name} is a non-closing henchman: defeating it gives no attempt to close the location.",
        )


def _to_vault(s: Situation, judge: Judge, what: str) -> None:
    if s.card.summoned:
        judge.note(
            "verb.summon", f"{what}: a summoned card goes back to the vault unless the summoning card says otherwise."
        )
    else:
        judge.note("verb.banish", f"{what}: a banished card goes back into the vault.")


def not_avenged(s: Situation, enc: Encounter, judge: Judge) -> None:
    """Leaving the avenge step with nobody avenging an undefeated bane (step.resolve-bane)."""
    card = s.card
    if enc.outcome is not CardOutcome.UNDEFEATED:
        if enc.outcome is CardOutcome.UNKNOWN:
            enc.over = Over.UNKNOWN
        return
    if card.villain and not card.summoned:
        option = judge.option(
            "undefeated-villain",
            "step.resolve-bane",
            {
                "escape-directly": f"Nobody avenges {card.name}. Its when-undefeated effects apply; it is not "
                "shuffled into its location but goes straight on to the escape step.",
                "shuffle-then-escape": f"Nobody avenges {card.name}. Its when-undefeated effects apply; it is "
                "shuffled into its location as the resolve step says, then taken back out for the escape step.",
            },
        )
        if option is None:
            enc.at = Where.UNKNOWN
        return
    enc.over = Over.RESOLVED
    if card.summoned:
        enc.at = Where.VAULT
        judge.note(
            "step.resolve-bane",
            f"Nobody avenges {card.name}: its when-undefeated effects apply and, being summoned, it does not go "
            "into a location.",
        )
        judge.note("verb.summon", f"{card.name} was summoned, so it goes back to the vault.")
        return
    enc.at = Where.LOCATION
    judge.note(
        "step.resolve-bane",
        f"Nobody avenges {card.name}: its when-undefeated effects apply, then it is shuffled back into its location.",
    )


def close(s: Situation, enc: Encounter, judge: Judge) -> None:
    """Villain step: a defeated villain's location closes, unless other villains are in it."""
    name = s.location or "the villain's location"
    if s.other_villains == 0:
        enc.location_closed = True
        judge.note(
            "step.close-villain-location",
            f"Close: {name} is searched and holds no other villain, so it closes without its To Close requirement: "
            "its cards are banished, the location leaves play, everyone there must move, and there is no more "
            "exploring this turn.",
        )
        enc.moved = True
        judge.note(
            "encounter.move-cancels-after",
            f"{enc.who} is at {name} and must move as it leaves play, so anything that would happen after the "
            "encounter does not happen.",
        )
        return
    enc.location_closed = False
    judge.note(
        "step.other-villains",
        f"Close: {name} still holds {s.other_villains} other villain(s), so it does not close; every card in it "
        "but the villains is banished and it is shuffled.",
    )
    if guards_decide(s, enc, judge):
        return
    unguarded = unguarded_distant(s, enc)
    if unguarded is not None and not unguarded:
        enc.over, enc.at = Over.BANISHED, Where.VAULT
        every = (
            "Every distant location is guarded"
            if s.distant
            else "No distant location is unguarded (the scenario lists none)"
        )
        judge.note("step.other-villains", f"{every}, so {s.card.name} is banished.")
        judge.note("verb.banish", f"{s.card.name} is banished: it goes back into the vault.")
        # whether the party wins now is not in the sources: a reading decides, and it has no default
        option = judge.option(
            "cornered-with-other-villains",
            "step.other-villains",
            {
                "win": f"{s.card.name} had no unguarded location to escape to, so the party wins.",
                "no-win": f"The party does not win: {s.card.name} is banished and the scenario goes on while another "
                "villain remains.",
            },
        )
        if option is None:
            enc.win_open = True
        elif option == "win":
            enc.over = Over.WON
            _after_win(enc, judge)


def unguarded_distant(s: Situation, enc: Encounter) -> list[str] | None:
    """Distant locations not guarded this encounter; None when the scenario does not say which
    exist (the locations its guards name may not be all of them)."""
    if s.distant is None:
        return None
    return [p for p in s.distant if p not in enc.guarded]


def guards_decide(s: Situation, enc: Encounter, judge: Judge) -> bool:
    """Whether the original encounter's guards, open in the avenger's (reading avenger-guards
    not chosen), decide where the villain can go; if so the step is open and its result unknown."""
    unguarded = unguarded_distant(s, enc)
    if not enc.guards_open or not unguarded or any(p not in enc.guards_open for p in unguarded):
        return False  # somewhere to go either way, or nowhere either way
    judge.open(
        "open.avenger-guards",
        f"{s.card.name} can escape only to {', '.join(unguarded)}, guarded in the original encounter; whether "
        "that guard still holds in the avenger's encounter is not settled, so where the villain goes is not "
        "decided.",
    )
    enc.over, enc.at, enc.win_open = Over.UNKNOWN, Where.UNKNOWN, True
    return True


def escape(s: Situation, enc: Encounter, judge: Judge) -> None:
    """Villain step: the villain escapes if any location is unguarded."""
    card = s.card
    if enc.outcome is CardOutcome.UNDEFEATED:
        enc.over, enc.at = Over.ESCAPED, Where.ESCAPED
        judge.note(
            "step.villain-escapes",
            f"Escape: {card.name} was not defeated, and its own location can never be guarded, so it escapes. "
            "Count the unguarded locations less one, search the hourglass for that many blessings, shuffle the "
            "villain in with them and deal one card into each unguarded location.",
        )
        return
    if guards_decide(s, enc, judge):
        return
    unguarded = unguarded_distant(s, enc)
    if unguarded is None:
        # whether it escapes or the party wins turns on locations the scenario does not name
        raise s.doc.error(
            (),
            f"{card.name} is defeated: whether it escapes depends on the other open locations; "
            "list them as distant: [Woods, Village] (distant: [] for none)",
        )
    if enc.location_closed is False:  # kept open by another villain: its own location is unguarded too
        own = s.location or "its location"
        unguarded = [f"{own}, its own location, which cannot be guarded", *unguarded]
    if unguarded:
        where = "; ".join(unguarded)
        enc.over, enc.at = Over.ESCAPED, Where.ESCAPED
        judge.note(
            "step.villain-escapes",
            f"Escape: {card.name} was defeated but has unguarded places to go ({where}), so it escapes. "
            "Take random blessings from the vault (unguarded locations less one), shuffle the villain in with "
            "them and deal one card into each unguarded location.",
        )
        return
    enc.nowhere = True
    judge.note(
        "step.villain-escapes", f"Escape: every location is closed or guarded, so {card.name} has nowhere to escape to."
    )


def win(s: Situation, enc: Encounter, judge: Judge) -> None:
    """Villain step: nowhere to escape, so the party wins."""
    enc.over, enc.at = Over.WON, Where.VAULT
    judge.note(
        "step.nowhere-to-escape", f"Win: {s.card.name} has nowhere to escape to, so the party wins the scenario."
    )
    judge.note(
        "scenario.clean-up",
        f"In the clean-up after the scenario, every card that is not a boon, {s.card.name} among them, goes back "
        "to the vault.",
    )
    _after_win(enc, judge)


def _after_win(enc: Encounter, judge: Judge) -> None:
    """Whether the turn goes on after the win: reading after-win, which has no default.

    Unchosen, it is left open without a step: the win itself is settled, and only something
    the scenario says happens after it (run._after) turns on the reading; the state says
    the turn is "open"."""
    if judge.trail.chosen("after-win") is None:
        enc.after_win = None
        return
    enc.after_win = judge.option(
        "after-win",
        "step.nowhere-to-escape",
        {
            "turn-continues": "The current turn still goes on after the win.",
            "play-stops": "Play stops at once with the win; the turn is not finished.",
        },
    )
