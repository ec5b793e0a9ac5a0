"""Findings of new-user test 3 (D1, D2): a ruling never rests on a reading whose options agree.

D1: in Houses vs. Dark Arts an extra turn is ruled as any turn, and the readings on whether
the turn allows an action at all are asked only once the move itself is ruled. D2: in PACG
an open reroll that would turn a check around leaves the card's fate unknown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.referee import check_file
from rulesref.ruling import Basis, Ruling, Verdict

ROOT = Path(__file__).resolve().parents[1]
PACG = ROOT / "scenarios" / "pacg"
HVDA = ROOT / "scenarios" / "houses-vs-dark-arts"


def _rule(folder: Path, name: str, overrides: tuple[tuple[str, str], ...] = ()) -> Ruling:
    return check_file(folder / f"{name}.yaml", overrides, picture=False)


def _readings(ruling: Ruling) -> set[str]:
    return {s.reading.split("=")[0] for s in ruling.steps if s.reading}


# --- D1: the move is ruled before the turn's readings ----------------------------------------

AGREE = [
    ("turn-extra-turn-wall-illegal", "another-turn", ("full-turn", "no-chain"), Verdict.ILLEGAL),
    ("turn-extra-turn-plain-move", "another-turn", ("full-turn", "no-chain"), Verdict.LEGAL),
    ("turn-extra-turn-replenish", "another-turn", ("full-turn", "no-chain"), Verdict.LEGAL),
    ("turn-house-second-action-wall-illegal", "house-actions", ("one-action", "several-actions"), Verdict.ILLEGAL),
    (
        "action-house-explore-second-card-wall-illegal",
        "house-explore-cards",
        ("one-card", "several-cards"),
        Verdict.ILLEGAL,
    ),
    ("move-reserve-pawn-wall-illegal", "reserve-deployment", ("by-explore", "by-replenish"), Verdict.ILLEGAL),
    (
        "action-dark-arts-explore-second-card-wall-illegal",
        "dark-arts-explore-cards",
        ("one-card", "several-cards"),
        Verdict.ILLEGAL,
    ),
]


@pytest.mark.parametrize(("name", "reading", "options", "verdict"), AGREE)
def test_where_both_options_agree_the_ruling_does_not_rest_on_the_reading(
    name: str, reading: str, options: tuple[str, str], verdict: Verdict
) -> None:
    unchosen = _rule(HVDA, name)
    assert unchosen.expect is not None and unchosen.expect.ok, unchosen.expect
    assert unchosen.verdict is verdict
    assert reading not in _readings(unchosen)
    assert not any(s.basis is Basis.OPEN for s in unchosen.steps)
    for option in options:
        chosen = _rule(HVDA, name, ((reading, option),))
        assert chosen.verdict is verdict, option


def test_a_wall_in_an_extra_turn_is_decided_by_the_wall() -> None:
    ruling = _rule(HVDA, "turn-extra-turn-wall-illegal")
    deciding = [s for s in ruling.steps if s.decides]
    assert deciding and all(s.clause != "open.another-turn" for s in deciding)
    assert all(s.reading is None for s in deciding)


@pytest.mark.parametrize(
    ("name", "clause"),
    [
        ("move-other-house-wall-illegal", "open.move-other-house"),
        ("move-other-side-wall-illegal", "open.move-other-side"),
    ],
)
def test_whose_pawn_may_be_moved_is_asked_only_of_a_path_otherwise_legal(
    name: str, clause: str, tmp_path: Path
) -> None:
    walled = _rule(HVDA, name)
    assert walled.expect is not None and walled.expect.ok, walled.expect
    assert walled.verdict is Verdict.ILLEGAL
    assert clause not in {s.clause for s in walled.steps}
    plain = tmp_path / "plain.yaml"
    plain.write_text(
        (HVDA / f"{name}.yaml").read_text(encoding="utf-8").replace("walls: [b1-c1]", "walls: []"), encoding="utf-8"
    )
    open_ruling = check_file(plain, (), picture=False)
    assert open_ruling.verdict is Verdict.UNDETERMINED
    assert [s.clause for s in open_ruling.steps if s.decides] == [clause]


def test_a_bonus_earned_in_an_extra_turn_still_asks_whether_it_chains() -> None:
    ruling = _rule(HVDA, "turn-extra-turn-bonus-chain-undetermined")
    assert ruling.verdict is Verdict.UNDETERMINED
    [open_step] = [s for s in ruling.steps if s.basis is Basis.OPEN]
    assert open_step.clause == "open.another-turn"
    # the move was ruled before the question: its steps come first
    assert ruling.steps.index(open_step) > 0
    for option, further in (("full-turn", True), ("no-chain", False)):
        chosen = _rule(HVDA, "turn-extra-turn-bonus-chain-undetermined", (("another-turn", option),))
        assert chosen.verdict is Verdict.LEGAL
        assert chosen.state["another-turn"] is further


def test_a_refusing_reading_in_force_still_wins_over_a_later_open_point() -> None:
    # a second House Learn: house-actions=one-action refuses it, though what Learn does is open
    ruling = _rule(HVDA, "turn-house-second-action-undetermined", (("house-actions", "one-action"),))
    assert ruling.verdict is Verdict.ILLEGAL
    unchosen = _rule(HVDA, "turn-house-second-action-undetermined")
    assert unchosen.verdict is Verdict.UNDETERMINED
    assert {"open.turn-order", "open.learn"} <= {s.clause for s in unchosen.steps if s.basis is Basis.OPEN}


# --- D2: an open reroll leaves the fate it would turn around unknown -------------------------


def test_an_open_reroll_that_would_succeed_leaves_the_fate_unknown() -> None:
    ruling = _rule(PACG, "reroll-after-armor-fate-unknown")
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    assert ruling.verdict is Verdict.UNDETERMINED
    assert ruling.state["card"] == {"name": "Ogre", "outcome": "unknown", "at": "unknown"}
    assert "undefeated" not in ruling.summary and "shuffled" not in ruling.summary
    assert "not settled" in ruling.summary
    assert ruling.state["damage"] == [{"to": "Amiri", "type": "combat", "source": "Ogre", "amount": 4, "open": True}]


@pytest.mark.parametrize(
    ("option", "outcome", "at", "damage"),
    [("allowed", "defeated", "vault", []), ("refused", "undefeated", "location", [4])],
)
def test_each_reroll_option_settles_the_fate(option: str, outcome: str, at: str, damage: list[int]) -> None:
    ruling = _rule(PACG, "reroll-after-armor-fate-unknown", (("reroll-after-damage", option),))
    assert ruling.state["card"]["outcome"] == outcome and ruling.state["card"]["at"] == at
    assert [d["amount"] for d in ruling.state["damage"]] == damage
    assert all("open" not in d for d in ruling.state["damage"])


def test_an_open_reroll_that_fails_too_leaves_the_fate_standing() -> None:
    ruling = _rule(PACG, "reroll-after-armor-both-fail")
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    assert ruling.state["card"]["outcome"] == "undefeated"
    assert [d.get("open") for d in ruling.state["damage"]] == [True]
