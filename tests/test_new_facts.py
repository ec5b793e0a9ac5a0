"""The PACG facts no clause used to state (rules/pacg/golden.yaml) are found by `ask`.

Each clause is asked two plain questions written for this test, none of them among the
clause's own `asks:` (checked below), so the test measures reaching the clause from
words a player might use, not recalling an indexed string.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulesref import lookup

GOLDEN = Path(__file__).resolve().parent.parent / "rules" / "pacg" / "golden.yaml"

PHRASINGS: dict[str, tuple[str, str]] = {
    "golden.precedence": (
        "if the rulebook and a card disagree which one do I follow",
        "does the storybook override what a card says",
    ),
    "golden.card-power-order": (
        "which is stronger, a location's power or a character's power",
        "when a support card and a character card conflict which wins",
    ),
    "golden.cannot-beats-can": (
        "one effect lets me do it and another says I cannot, which applies",
        "when can and cannot conflict which wins",
    ),
    "golden.ignored-effect": (
        "what happens to an effect I am told to ignore",
        "does an ignored effect still affect me",
    ),
    "golden.impossible-instruction": (
        "what do we do when the card's instruction is impossible",
        "can we skip a card instruction that we cannot carry out",
    ),
    "golden.running-out": (
        "what happens when the hourglass has no cards left and we need some",
        "my character deck has no cards left and I need to draw",
    ),
    "timing.one-thing-at-a-time": (
        "who chooses the order when the rules give none",
        "must one process be finished before the next begins",
    ),
    "timing.act-when-allowed": (
        "can anything be done between two players' turns",
        "may I act at any moment or only when the rules allow",
    ),
    "timing.current-situation": (
        "what counts as affecting the current situation",
        "can I give someone a card that only helps them fetch a blessing",
    ),
    "scenario.clean-up": (
        "what do we do with the cards when a scenario ends",
        "where do the non-boon cards go after the scenario",
    ),
    "check.against-a-card": (
        "which checks count as a check against a card",
        "is the check to acquire a card a check against it",
    ),
    "scenario.dead-character-returns": (
        "can a character who died return after the scenario",
        "how many hero points does it cost to come back from death",
    ),
    "open.blessing-discard-heal": (
        "does the discard of a played blessing count toward healing myself",
        "is discarding a blessing a discard that heals me",
    ),
    "open.card-type-meaning": (
        "how are card types defined",
        "which things count as card types",
    ),
}

CASES = [(cid, q) for cid, pair in PHRASINGS.items() for q in pair]


def _clauses() -> dict[str, dict[str, object]]:
    loaded = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))
    return {str(c["id"]): c for c in loaded}


def test_every_new_clause_has_two_phrasings_outside_its_asks() -> None:
    clauses = _clauses()
    assert set(PHRASINGS) == set(clauses)
    for cid, pair in PHRASINGS.items():
        asks = {str(a).lower() for a in clauses[cid]["asks"]}  # type: ignore[attr-defined]
        assert not {q.lower() for q in pair} & asks, cid


@pytest.mark.parametrize(("clause_id", "question"), CASES)
def test_new_clause_is_the_top_answer(clause_id: str, question: str) -> None:
    answer = lookup.ask(question)
    assert answer.hits, f"{question!r} was refused: {answer.message}"
    assert answer.hits[0].clause.id == clause_id


def test_open_questions_are_marked_open_and_rules_are_rules() -> None:
    kinds = {cid: c.get("kind", "rule") for cid, c in _clauses().items()}
    assert {cid for cid, k in kinds.items() if k == "open"} == {
        "open.blessing-discard-heal",
        "open.card-type-meaning",
    }
