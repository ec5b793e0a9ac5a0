"""Clause texts say no more than their sources: overstatements an audit found and fixed stay fixed.

Each row names a clause and the wording that said more than the source lines in its
`source:` (or left out what they require). The phrases are looked for in what the clause
states: its title, its text and its misreading corrections. A misreading's claim is left
out, since a claim is the wrong belief and may well use the overstated words.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from rulesref.clause import Clause
from rulesref.corpus import game_folders, load_game

RULES = Path(__file__).resolve().parents[1] / "rules"

MUST_NOT_SAY: dict[str, tuple[str, ...]] = {
    # 000:2 says only "a full border"; it does not rule on sides of unequal length
    "board.adjacency": ("one whole side of the first", "whole side of the second"),
    # 000:3 and 000:19: a wall and an obstacle are not interchangeable; House cards on walls are inference
    "board.wall-not-obstacle": ("does nothing for walls", "a house card effect", "cannot be crossed"),
    # 001:14: the count rests on when the location card and the final Progress Token are taken
    "victory.pawn-count": ("is set by when the location card is taken",),
    # 001:14: a later Marker advance does not recalculate it; nothing says it can never change
    "victory.pawn-count-fixed": ("never changes", "stays the same", "is fixed when", "do not change it"),
    # 001:7 states the colours and the cleanup under the Dark Arts actions, not for every side
    "action.effect-colours": ("zone of the path",),
    "action.cleanup": ("every card played in a turn", "owner's discard pile"),
    # 002:1: you must attempt it; others "might be able to play cards" (and pacg 2.6 lets
    # other local characters attempt checks of a sequential chain)
    "encounter.purpose": ("only by playing", "or using powers", "means trying to"),
    # pacg 6 [R]: recovery "at end of turn"; open.recovery-any-turn leaves whose turn open
    "verb.banish": ("end of your turn",),
    # misreading #1: the sequential chain lets others attempt checks, so not "only play cards"
    "encounter.no-one-else": ("may only play cards", "helpers may only"),
    # misreading: fewer points, yes; every other movement rule still applies
    "move.fewer-points": ("where you like",),
    # misreading #2: a stun with no allowed adjacent space is open (open.stun-no-space)
    "encounter.stun-relocate": ("it is moved off to an adjacent space",),
    # stated nowhere in the sources
    "path.marker": ("how far the dark arts has come",),
    # the sources say "their colour zone" and "the red zone"; they never place the zones on the Path
    "path.zones": ("zones on the path", "the dark arts path has an orange zone", "zone of the path"),
}
"""Clause id -> phrases (lower case) it must not state again."""

MUST_SAY: dict[str, tuple[str, ...]] = {
    # 002:1: you *must* attempt to acquire a boon or defeat a bane
    "encounter.purpose": ("must",),
    # 001:14 ties the requirement to the final Progress Token as well as the location card
    "victory.pawn-count": ("final progress token",),
    # 001:7 is under the Dark Arts player's actions
    "action.effect-colours": ("dark arts player",),
    "action.cleanup": ("dark arts player",),
    # whose turn recovery follows is open: say so, and point to the open question
    "verb.banish": ("open.recovery-any-turn",),
    "encounter.stun-relocate": ("open.stun-no-space",),
}
"""Clause id -> phrases (lower case) its statement must keep."""


@functools.cache
def _clauses() -> dict[str, Clause]:
    """Every shipped clause by id (loaded once, when the first test asks)."""
    found: dict[str, Clause] = {}
    for folder in game_folders(RULES):
        found.update(load_game(folder).clauses)
    return found


def _stated(clause: Clause) -> str:
    """What the clause states, lower case, with line breaks and runs of spaces made one space."""
    parts = [clause.title, clause.text, *(m.correction for m in clause.misreadings)]
    return re.sub(r"\s+", " ", " ".join(parts)).lower()


@pytest.mark.parametrize("clause_id", sorted(MUST_NOT_SAY))
def test_a_fixed_overstatement_does_not_come_back(clause_id: str) -> None:
    clauses = _clauses()
    assert clause_id in clauses, f"{clause_id} is not a clause: update this table with the clause's new id"
    stated = _stated(clauses[clause_id])
    back = [phrase for phrase in MUST_NOT_SAY[clause_id] if phrase in stated]
    assert back == [], f"{clause_id} says more than its sources again: {back}"


@pytest.mark.parametrize("clause_id", sorted(MUST_SAY))
def test_a_clause_keeps_what_its_source_requires(clause_id: str) -> None:
    clauses = _clauses()
    assert clause_id in clauses, f"{clause_id} is not a clause: update this table with the clause's new id"
    stated = _stated(clauses[clause_id])
    missing = [phrase for phrase in MUST_SAY[clause_id] if not re.search(rf"\b{re.escape(phrase)}\b", stated)]
    assert missing == [], f"{clause_id} has lost words its source requires: {missing}"


def test_the_phrase_tables_are_lower_case() -> None:
    # the statement is compared in lower case, so a capital in a phrase could never match
    phrases = [p for table in (MUST_NOT_SAY, MUST_SAY) for row in table.values() for p in row]
    assert phrases and all(p == p.lower() and p.strip() == p for p in phrases)
