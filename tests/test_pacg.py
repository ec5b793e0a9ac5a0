"""PACG referee: the check-line parser, and unreadable encounters failing with file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.errors import ScenarioError
from rulesref.games import find_game
from rulesref.games.pacg.checks import Check, CheckSyntaxError, Placed, find_check, parse_checks
from rulesref.games.pacg.steps import ORDER, EncounterStep, read_step
from rulesref.referee import check_file
from rulesref.ruling import Basis

# --- the check line ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "groups"),
    [
        ("Combat 10", [["Combat 10"]]),
        ("combat 10", [["Combat 10"]]),
        ("Knowledge 4 or Perception 4 then Combat 10", [["Knowledge 4", "Perception 4"], ["Combat 10"]]),
        ("Knowledge or Perception 4, then Combat 10", [["Knowledge 4", "Perception 4"], ["Combat 10"]]),
        ("Wisdom 10 or Combat 13 then Combat 15", [["Wisdom 10", "Combat 13"], ["Combat 15"]]),
        ("Dexterity 6 then Strength 6 then Constitution 6", [["Dexterity 6"], ["Strength 6"], ["Constitution 6"]]),
        ("Arcane 8 OR Divine 8 THEN Combat 9", [["Arcane 8", "Divine 8"], ["Combat 9"]]),
        ("Dexterity Ranged 8", [["Dexterity Ranged 8"]]),
        ("Sleight 5", [["Sleight 5"]]),  # a skill not in the list is taken as written
        ("Combat 0", [["Combat 0"]]),
    ],
)
def test_check_line_reads_or_tighter_than_then(line: str, groups: list[list[str]]) -> None:
    chain = parse_checks(line)
    assert [[str(c) for c in g] for g in chain.groups] == groups


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("", "expected a check line"),
        ("   ", "expected a check line"),
        ("Combat", "has no difficulty"),
        ("Knowledge or Perception", "has no difficulty"),
        ("or Combat 10", "'or' with no check before it"),
        ("Combat 10 or", "'or' with no check after it"),
        ("Combat 10 then", "'then' with no check after it"),
        ("then Combat 10", "'then' with no check before it"),
        ("Knowledge 4 or then Combat 10", "'or' with no check after it"),
        ("Combat 10 then then Melee 5", "'then' with no check"),
        ("10", "has no skill before it"),
        ("Combat 5 6", "cannot read"),
        ("Combat 5 Melee", "cannot read"),
        ("Combat -5", "unexpected '-'"),
        ("Combat 5 & Melee 4", "unexpected '&'"),
        ("Combta 10", "did you mean 'Combat'"),
        ("Perceptoin 4 then Combat 10", "did you mean 'Perception'"),
    ],
)
def test_unreadable_check_lines_say_what_is_wrong(line: str, complaint: str) -> None:
    with pytest.raises(CheckSyntaxError) as caught:
        parse_checks(line)
    assert complaint in str(caught.value)


def test_find_check_by_place_name_and_skill() -> None:
    chain = parse_checks("Wisdom 10 or Combat 13 then Combat 15")
    assert find_check(chain, 2) == Placed(2, Check("Combat", 15))
    assert find_check(chain, "Wisdom") == Placed(1, Check("Wisdom", 10))
    assert find_check(chain, "Combat 15") == Placed(2, Check("Combat", 15))
    assert find_check(chain, "combat", prefer=1) == Placed(1, Check("Combat", 13))
    assert find_check(chain, "Combat", prefer=2) == Placed(2, Check("Combat", 15))
    with pytest.raises(CheckSyntaxError, match="not one of the card's checks"):
        find_check(chain, "Stealth")
    with pytest.raises(CheckSyntaxError, match="not in the chain"):
        find_check(chain, 3)


def test_combat_checks_are_known_by_their_skill() -> None:
    assert Check("Combat", 10).is_combat
    assert Check("Dexterity Combat", 10).is_combat
    assert not Check("Perception", 8).is_combat


def test_steps_are_in_rulebook_order_and_misspellings_get_a_hint() -> None:
    assert [s.value for s in ORDER][:5] == ["encounter", "evasion", "guard", "before-acting", "check"]
    assert [s.value for s in ORDER][-4:] == ["avenge", "close", "escape", "win"]
    assert read_step("Before Acting") is EncounterStep.BEFORE_ACTING
    assert read_step("evade") is EncounterStep.EVASION
    with pytest.raises(ValueError, match="did you mean 'check'"):
        read_step("chek")


# --- unreadable encounters -----------------------------------------------------------

HEAD = """\
game: pacg
title: an encounter
character: Amiri
local: [Valeros, Lem]
card: {name: Boggart, type: monster}
checks: Knowledge 4 or Perception 4 then Combat 10
"""
"""Six lines: events written after it start on line 7."""

BAD = [
    # (name, body after HEAD, line, field, words in the message)
    (
        "unknown-step",
        "events:\n  - {step: chek, play: {by: Amiri, card: Longsword, type: weapon}}\n",
        8,
        "events[0].step",
        "did you mean 'check'",
    ),
    (
        "play-without-card",
        "events:\n  - {step: check, play: {by: Amiri, type: weapon}}\n",
        8,
        "events[0].play",
        "needs the 'card'",
    ),
    (
        "play-without-type",
        "events:\n  - {step: check, play: {by: Amiri, card: Longsword}}\n",
        8,
        "events[0].play",
        "boon 'type'",
    ),
    (
        "boon-type-typo",
        "events:\n  - {step: check, play: {by: Amiri, card: Sword, type: weapom}}\n",
        8,
        "events[0].play.type",
        "did you mean 'weapon'",
    ),
    (
        "unknown-character",
        "events:\n  - {step: check, play: {by: Valeors, card: Dagger, type: weapon}}\n",
        8,
        "events[0].play.by",
        "did you mean 'Valeros'",
    ),
    (
        "misspelt-play-key",
        "events:\n  - {step: check, play: {card: Dagger, type: weapon, freel: true}}\n",
        8,
        "events[0].play.freel",
        "did you mean 'freely'",
    ),
    ("misspelt-top-key", "evnts: []\n", 7, "evnts", "did you mean 'events'"),
    (
        "event-without-step",
        "events:\n  - {play: {card: Dagger, type: weapon}}\n",
        8,
        "events[0]",
        "missing required key 'step'",
    ),
    ("event-without-kind", "events:\n  - {step: check}\n", 8, "events[0]", "exactly one of"),
    ("event-with-two-kinds", "events:\n  - {step: check, evade: {}, move: {}}\n", 8, "events[0]", "exactly one of"),
    ("result-without-outcome", "events:\n  - {step: check, result: {by: Amiri}}\n", 8, "events[0].result", "'total'"),
    (
        "result-not-a-check",
        "events:\n  - {step: check, result: {check: Stealth, total: 3}}\n",
        8,
        "events[0].result.check",
        "not one of the card's checks",
    ),
    (
        "result-contradicts",
        "events:\n  - {step: next-check, result: {check: Combat 10, total: 3, success: true}}\n",
        8,
        "events[0].result.success",
        "below the difficulty",
    ),
    (
        "total-not-a-number",
        "events:\n  - {step: check, result: {total: high}}\n",
        8,
        "events[0].result.total",
        "whole number",
    ),
    ("events-not-a-list", "events: {step: check}\n", 7, "events", "expected a list"),
    (
        "status-for-a-bane",
        "events:\n  - {step: check, status: acquired}\n",
        8,
        "events[0].status",
        "a bane is not acquired",
    ),
    (
        "bad-damage-type",
        "events:\n  - {step: check, damage: {to: Amiri, type: lava}}\n",
        8,
        "events[0].damage.type",
        "unknown damage type",
    ),
    (
        "guard-location-typo",
        "distant: {Woods: [Seelah]}\nevents:\n  - {step: guard, guard: {by: Seelah, location: Wods}}\n",
        9,
        "events[0].guard.location",
        "did you mean 'Woods'",
    ),
]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "body", "line", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_unreadable_encounter_names_file_line_and_field(
    tmp_path: Path, name: str, body: str, line: int, field: str, words: str
) -> None:
    path = _write(tmp_path, name, HEAD + body)
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    message = str(caught.value)
    assert f"{path}:{line}:" in message
    assert f" {field}: " in message
    assert words in message


BAD_SITUATION = [
    (
        "bad-check-line",
        "card: {type: monster}\nchecks: Knowledge 4 or then Combat 10\n",
        6,
        "checks",
        "'or' with no check after it",
    ),
    ("check-without-number", "card: {type: monster}\nchecks: Combat\n", 6, "checks", "has no difficulty"),
    ("card-type-typo", "checks: Combat 5\ncard: {name: X, type: monstr}\n", 6, "card.type", "did you mean 'monster'"),
    (
        "card-key-typo",
        "checks: Combat 5\ncard: {name: X, type: monster, imune: [fire]}\n",
        6,
        "card.imune",
        "did you mean 'immune'",
    ),
    (
        "boon-villain",
        "checks: Combat 5\ncard: {type: weapon, villain: true}\n",
        6,
        "card.villain",
        "a boon cannot be a villain",
    ),
    ("no-card", "checks: Combat 5\n", 1, None, "missing required key 'card'"),
]


@pytest.mark.parametrize(("name", "body", "line", "field", "words"), BAD_SITUATION, ids=[b[0] for b in BAD_SITUATION])
def test_unreadable_situation_names_file_line_and_field(
    tmp_path: Path, name: str, body: str, line: int, field: str | None, words: str
) -> None:
    path = _write(tmp_path, name, "game: pacg\ntitle: t\ncharacter: Amiri\nlocal: [Lem]\n" + body)
    with pytest.raises(ScenarioError) as caught:
        check_file(path)
    message = str(caught.value)
    assert f"{path}:{line}:" in message
    if field:
        assert f" {field}: " in message
    assert words in message


def test_cli_prints_one_line_and_exits_2(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, "bad", HEAD + "events:\n  - {step: chek, play: {card: Longsword, type: weapon}}\n")
    result = cli("check", str(path))
    assert result.code == 2
    assert "Traceback" not in result.err + result.out
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert f"{path}:8:" in lines[0] and "events[0].step" in lines[0] and "did you mean 'check'" in lines[0]


# --- a ruling's shape ----------------------------------------------------------------


def test_ruling_states_each_event_the_steps_and_the_card(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "weapons",
        HEAD + "events:\n"
        "  - {step: check, result: {by: Lem, check: Perception, total: 5}}\n"
        "  - {step: next-check, play: {by: Amiri, card: Longsword, type: weapon}}\n"
        "  - {step: next-check, play: {by: Valeros, card: Dagger, type: weapon}}\n"
        "  - {step: next-check, result: {by: Amiri, check: Combat 10, total: 8}}\n",
    )
    ruling = check_file(path)
    assert ruling.verdict.value == "illegal"
    assert ruling.state["events"] == ["legal", "legal", "illegal", "legal"]
    assert ruling.state["steps"] == [
        "encounter",
        "evasion",
        "before-acting",
        "check",
        "next-check",
        "after-acting",
        "resolve",
        "avenge",
    ]
    assert ruling.state["card"] == {"name": "Boggart", "outcome": "undefeated", "at": "location"}
    assert ruling.state["damage"] == [{"to": "Amiri", "type": "combat", "source": "Boggart", "amount": 2}]
    assert {8, 9, 11, 12} <= set(ruling.pages)
    illegal = [s for s in ruling.steps if "illegal" in s.says]
    assert [s.clause for s in illegal] == ["encounter.boon-limit"]


def test_reading_without_default_is_undetermined_until_chosen(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    body = (
        "events:\n"
        "  - {step: before-acting, damage: {to: [Amiri, Lem], amount: 2, type: fire}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n"
        "  - {step: before-acting, play: {by: Lem, card: Leather Armor, type: armor, reduces: Lem}}\n"
    )
    path = _write(tmp_path, "blast", HEAD + body)
    assert check_file(path).verdict.value == "undetermined"
    shared = json.loads(cli("check", str(path), "--json", "--reading", "damage-limit=shared").out)[0]
    assert shared["verdict"] == "illegal" and shared["readings"] == {"damage-limit": "shared"}
    apart = json.loads(cli("check", str(path), "--json", "--reading", "damage-limit=per-character").out)[0]
    assert apart["verdict"] == "legal" and apart["state"]["events"] == ["legal", "legal", "legal"]


# --- a villain banished with another villain left: is it a win? (open) ---------------

CORNERED = """\
game: pacg
title: a villain banished with another villain left
character: Kyra
location: {name: Graveyard, other-villains: 1}
distant: {Woods: [Seelah]}
card: {name: Lich Servant, type: monster, villain: true}
checks: Combat 12
events:
  - {step: guard, guard: {by: Seelah, location: Woods}}
  - {step: check, result: {by: Kyra, total: 13}}
  - {step: after-encounter, effect: Kyra recharges her displayed armor}
"""


@pytest.mark.parametrize(
    ("readings", "verdict", "after", "win", "turn"),
    [
        # nothing chosen: whether the party won is open, and so is whether anything may follow
        ({}, "undetermined", "undetermined", "open", None),
        # the turn goes on after a win too, so the later event is legal whether or not the party
        # won; the win itself is still open
        ({"after-win": "turn-continues"}, "undetermined", "legal", "open", None),
        ({"after-win": "play-stops"}, "undetermined", "undetermined", "open", None),
        ({"cornered-with-other-villains": "no-win"}, "legal", "legal", False, None),
        ({"cornered-with-other-villains": "no-win", "after-win": "play-stops"}, "legal", "legal", False, None),
        ({"cornered-with-other-villains": "win"}, "undetermined", "undetermined", True, "open"),
        ({"cornered-with-other-villains": "win", "after-win": "turn-continues"}, "legal", "legal", True, "continues"),
        ({"cornered-with-other-villains": "win", "after-win": "play-stops"}, "illegal", "illegal", True, "stops"),
    ],
)
def test_villain_banished_with_another_villain_left_wins_only_by_a_reading(  # type: ignore[no-untyped-def]
    tmp_path: Path, cli, readings: dict[str, str], verdict: str, after: str, win: object, turn: str | None
) -> None:
    path = _write(tmp_path, "cornered", CORNERED)
    args = [a for k, v in readings.items() for a in ("--reading", f"{k}={v}")]
    ruling = json.loads(cli("check", str(path), "--json", *args).out)[0]
    assert ruling["verdict"] == verdict
    assert ruling["state"]["events"] == ["legal", "legal", after]
    assert ruling["state"]["win"] == win
    assert ruling["state"]["card"] == {"name": "Lich Servant", "outcome": "defeated", "at": "vault"}
    assert ruling["state"].get("turn") == turn
    assert ruling["summary"].lower().startswith(verdict)
    if win == "open":
        assert any(s["clause"] == "open.cornered-with-other-villains" and s["basis"] == "open" for s in ruling["steps"])
    else:
        option = readings["cornered-with-other-villains"]
        chosen = [s for s in ruling["steps"] if s["reading"] == f"cornered-with-other-villains={option}"]
        assert chosen and all(s["basis"] == "reading" for s in chosen)


# --- community and first-edition facts rest on readings, never on rules -------------

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "pacg").glob("*.yaml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_no_step_rules_on_an_open_question_as_if_it_were_a_rule(scenario: Path) -> None:
    # a clause of kind open is a question: a step citing it says `reading` or `open`, never `rule`
    clauses = find_game("pacg").clauses
    ruling = check_file(scenario)
    assert [s.clause for s in ruling.steps if s.basis is Basis.RULE and clauses[s.clause].kind == "open"] == []


@pytest.mark.parametrize(
    ("name", "clause", "reading"),
    [
        ("damage-separate-instances", "damage.separate-instances", "damage-instances=separate"),
        ("damage-separate-instances-one-source", "damage.separate-instances", "damage-instances=one-source"),
        ("evade-after-failing-plain-card", "step.evasion-timing", "evade-timing=evasion-step"),
        ("evade-after-failing-named-time", "step.evasion-timing", "evade-timing=evasion-step"),
        ("evade-after-failing-plain-card-any-step", "step.evasion-timing", "evade-timing=any-step"),
        ("evade-after-resolving", "step.evasion-timing", "evade-timing=evasion-step"),
        ("check-attempted-twice", "open.check-attempts", "check-attempts=once-each"),
        ("check-attempted-twice-again-allowed", "open.check-attempts", "check-attempts=again-allowed"),
        ("then-chain-attempt-after-fail", "open.check-attempts", "chain-damage=attempter"),
        ("when-you-encounter-then-evade", "step.when-you-encounter", "encounter-effects-evaded=still-apply"),
        ("when-you-encounter-then-evade-undone", "step.when-you-encounter", "encounter-effects-evaded=undone"),
    ],
)
def test_community_and_first_edition_facts_are_applied_through_their_reading(
    name: str, clause: str, reading: str
) -> None:
    ruling = check_file(Path(__file__).resolve().parents[1] / "scenarios" / "pacg" / f"{name}.yaml")
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    assert any(s.clause == clause and s.basis is Basis.READING and s.reading == reading for s in ruling.steps)
    rid, option = reading.split("=")
    assert ruling.readings[rid] == option
