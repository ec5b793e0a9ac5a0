"""Toy Race, the rules: one move, cited step by step through the Trail."""

from __future__ import annotations

from rulesref.ruling import Outcome, Trail, Verdict

from .model import Move, Race


def move(race: Race, trail: Trail, m: Move) -> Outcome:
    start = race.pawns[m.pawn]
    to = start + m.roll
    trail.rule("race.move", f"{m.pawn} rolled {m.roll}: it moves from {start} to {to}.")
    if to > race.last:
        raise trail.illegal(
            "race.no-overshoot",
            f"Space {to} is beyond the last space ({race.last}).",
            f"{m.pawn} cannot move {m.roll}: it would overshoot",
        )
    there = [p for p, at in race.pawns.items() if at == to and p != m.pawn and to > 0]
    if there:
        option = trail.reading(
            "landing",
            {
                "share": f"{m.pawn} stops on {to} with {there[0]}: both stay.",
                "send-back": f"{m.pawn} stops on {to} with {there[0]}, which goes back to 0.",
            },
            clause="open.landing",
        )
        if option == "send-back":
            race.pawns[there[0]] = 0
    race.pawns[m.pawn] = to
    if to == race.last:
        trail.rule("race.win", f"{m.pawn} stops on the last space and wins.")
        race.winner = m.pawn
    return Outcome(Verdict.LEGAL, f"{m.pawn} moves to {to}.", race.to_state())
