"""PACG engine findings of the source audit (issue 12): each would have been caught here.

The scenarios named below rule each case; these tests hold the engine to what their
steps cite, across every shipped PACG scenario where the finding is general.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rulesref.games import find_game
from rulesref.games.pacg.events import KINDS
from rulesref.games.pacg.readers import declared, keys
from rulesref.referee import check_file
from rulesref.ruling import Ruling, Verdict

PACG = Path(__file__).resolve().parents[1] / "scenarios" / "pacg"
SCENARIOS = sorted(PACG.glob("*.yaml"))


def _rule(name: str) -> Ruling:
    ruling = check_file(PACG / f"{name}.yaml")
    assert ruling.expect is not None and ruling.expect.ok, ruling.expect
    return ruling


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_a_step_saying_a_card_goes_to_the_vault_cites_a_clause_that_says_so(scenario: Path) -> None:
    # the win step once cited step.nowhere-to-escape for "non-boons go back to the vault",
    # which only scenario.clean-up says; the closing "Steps applied" summary repeats the
    # card's fate already cited and is left out
    clauses = find_game("pacg").clauses
    ruling = check_file(scenario)
    wrong = [
        (s.clause, s.says)
        for s in ruling.steps
        if "vault" in s.says and not s.says.startswith("Steps applied") and "vault" not in clauses[s.clause].text
    ]
    assert wrong == []


def test_a_guard_does_not_outlast_its_encounter() -> None:
    # step.guard: a guard holds only for the encounter it was made in; step.avenge: the
    # avenger starts a brand-new encounter
    ruling = _rule("avenger-corners-villain")
    assert ruling.state["guarded"] == [] and ruling.state["win"] is False
    assert ruling.state["card"]["at"] == "escaped"
    again = _rule("avenger-guards-again")
    assert again.state["guarded"] == ["Woods"] and again.state["win"] is True


@pytest.mark.parametrize(
    "name", ["play-after-the-roll", "play-after-the-roll-next-check", "play-after-side-check-roll"]
)
def test_nothing_is_played_on_a_check_after_its_roll(name: str) -> None:
    ruling = _rule(name)
    assert ruling.verdict is Verdict.ILLEGAL
    late = [s for s in ruling.steps if s.clause == "check.sub-steps"]
    assert len(late) == 1 and "illegal" in late[0].says


@pytest.mark.parametrize("step", ["evasion", "encounter", "before-acting"])
def test_a_play_on_a_check_relates_to_a_step_only_if_the_step_has_a_check(step: str) -> None:
    ruling = _rule(f"play-unrelated-to-{step}")
    assert ruling.state["events"] == ["illegal", "legal"]
    assert any(s.clause == "encounter.step-plays" and "illegal" in s.says for s in ruling.steps)


@pytest.mark.parametrize("name", ["user-15-boon-limit-resets-per-step", "boon-limit-before-acting-and-check"])
def test_a_play_on_a_check_the_step_calls_for_is_still_allowed(name: str) -> None:
    assert _rule(name).verdict is Verdict.LEGAL


def test_closing_the_villains_location_cancels_what_follows_the_encounter() -> None:
    ruling = _rule("villain-defeated-win")
    assert ruling.state["events"][-1] == "illegal"
    assert ruling.state["after-encounter"] == "cancelled"


def test_a_reroll_replaces_the_damage_of_the_roll_it_replaces() -> None:
    assert _rule("hero-point-reroll").state["damage"] == []
    late = _rule("reroll-after-damage-reduced")
    assert late.state["events"] == ["legal", "legal", "illegal"]
    assert late.state["damage"] == [{"to": "Valeros", "type": "combat", "source": "Ogre", "amount": 3}]


def test_a_card_used_for_a_second_power_cites_one_power_per_play_and_a_second_reveal_cites_reveal() -> None:
    bracers = _rule("reveal-bracers-twice")
    assert [s.clause for s in bracers.steps if "illegal" in s.says] == ["play.one-power-per-play"]
    twice = _rule("reveal-same-card-twice")
    assert [s.clause for s in twice.steps if "illegal" in s.says] == ["verb.reveal"]


# --- issue 13: events declared once, and the engine on the ruling layer only ---------

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_event_is_declared_once_and_the_schema_names_the_same_keys(kind: str) -> None:
    # the dataclass declarations are what the reader reads; the JSON Schema must not drift
    schema = json.loads((ROOT / "rulesref" / "schemas" / "pacg.schema.json").read_text(encoding="utf-8"))["$defs"][kind]
    shapes = schema.get("oneOf", [schema])
    written = {key for shape in shapes for key in shape.get("properties", {})}
    cls = KINDS[kind]
    assert written == (set(keys(cls)) if declared(cls) else set())


def test_the_engine_imports_the_ruling_layer_not_the_referee_or_the_scenario_reader() -> None:
    found = []
    for module in sorted((ROOT / "rulesref" / "games" / "pacg").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in ("rulesref.referee", "rulesref.scenario"):
                found.append(f"{module.name}: {node.module}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [
                    f"{module.name}: import inside {node.name}"
                    for n in ast.walk(node)
                    if isinstance(n, ast.ImportFrom | ast.Import)
                ]
    assert found == []


def test_after_an_avenger_evades_a_villain_its_escape_is_left_open() -> None:
    # audit 11 P1: the original encounter's villain steps follow the avenge step, and no
    # source says whether they run once the avenger has evaded (open.after-avenge)
    ruling = _rule("audit11-p1-avenger-evades-villain")
    assert ruling.verdict is Verdict.UNDETERMINED
    assert ruling.state["card"] == {"name": "Black Fang", "outcome": "evaded", "at": "unknown"}
    assert [s.clause for s in ruling.steps if s.basis.value == "open"] == ["open.after-avenge"]
    # not a villain: nothing is open, and the card is shuffled back (avenger-evades-default)
    ogre = _rule("avenger-evades-default")
    assert ogre.verdict is Verdict.LEGAL and ogre.state["card"]["at"] == "location"


def test_a_reroll_of_a_chosen_failure_is_refused() -> None:
    # audit 11 P2: check.hero-point rolls the dice again; check.choose-fail makes the result 0
    ruling = _rule("audit11-p2-reroll-after-chosen-failure")
    refused = [s for s in ruling.steps if s.says.startswith("Event 2 (check): illegal:")]
    assert [s.clause for s in refused] == ["check.hero-point"]
    assert "check.choose-fail" in {s.clause for s in ruling.steps if s.says.startswith("Event 2")}
    assert ruling.state["card"]["outcome"] == "undefeated"


def test_a_forced_end_of_turn_in_the_avengers_encounter_is_the_original_characters_turn() -> None:
    # audit 11 P3: Amiri encountered the Ogre; Valeros only avenges it and has no turn of his own
    ruling = _rule("audit11-p3-forced-end-in-avengers-encounter")
    said = " ".join(s.says for s in ruling.steps if s.clause in ("encounter.forced-end-of-turn", "turn.end-of-turn"))
    assert "The turn (Amiri's) is forced to end" in said and "Amiri's turn then ends" in said
    assert "Valeros's turn" not in said


def test_a_defeated_villain_with_no_other_locations_given_is_refused_not_guessed(tmp_path: Path) -> None:
    # whether it escapes or the party wins turns on the other open locations (audit 12, Q1-2)
    from rulesref.errors import ScenarioError

    base = (
        "game: pacg\ntitle: t\ncharacter: Ezren\nlocation: Academy\n"
        "card: {name: Ancient Red Dragon, type: monster, villain: true}\nchecks: Combat 20\n"
        "events:\n  - {step: check, result: {by: Ezren, total: 21}}\n"
    )
    silent = tmp_path / "silent.yaml"
    silent.write_text(base, encoding="utf-8")
    with pytest.raises(ScenarioError) as refused:
        check_file(silent)
    assert "distant: [] for none" in refused.value.message
    none = tmp_path / "none.yaml"
    none.write_text(base + "distant: []\n", encoding="utf-8")
    assert check_file(none).state["win"] is True


def test_a_reroll_failed_by_choice_is_still_ruled_as_the_reroll() -> None:
    ruling = check_file(PACG / "audit12-reroll-then-choose-fail.yaml")
    cited = [s.clause for s in ruling.steps]
    assert cited.index("check.hero-point") < cited.index("check.choose-fail")
    assert any("(3 Combat) is not dealt" in s.says for s in ruling.steps)


def test_a_henchman_of_no_stated_kind_is_refused_and_a_summoned_one_gives_no_close(tmp_path: Path) -> None:
    # henchmen come in two kinds (audit 14, S3), and a summoned one belongs to no location (S4)
    from rulesref.errors import ScenarioError

    for card in ("henchman: true", "kind: henchman", "type: henchman"):
        unsaid = tmp_path / "unsaid.yaml"
        unsaid.write_text(
            f"game: pacg\ntitle: t\ncharacter: Valeros\ncard: {{name: Bandit Captain, {card}}}\nchecks: Combat 12\n"
            "events:\n  - {step: check, result: {by: Valeros, total: 13}}\n",
            encoding="utf-8",
        )
        with pytest.raises(ScenarioError) as refused:
            check_file(unsaid)
        assert "henchman: closing" in (refused.value.hint or ""), card
    summoned = check_file(PACG / "audit14-summoned-closing-henchman.yaml")
    assert "may-close" not in summoned.state


def test_damage_of_no_stated_type_is_refused_not_taken_as_combat(tmp_path: Path) -> None:
    # only a failed check against a monster deals Combat by default (audit 15, T5)
    from rulesref.errors import ScenarioError

    untyped = tmp_path / "untyped.yaml"
    untyped.write_text(
        "game: pacg\ntitle: t\ncharacter: Seelah\ncard: {name: Ghoul, type: monster}\nchecks: Combat 8\n"
        "events:\n  - {step: before-acting, damage: {to: Seelah, amount: 2}}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as refused:
        check_file(untyped)
    assert "damage needs its 'type'" in refused.value.message


def test_a_summoned_villain_has_no_guard_step_and_no_guarded_locations() -> None:
    ruling = check_file(PACG / "audit14-summoned-villain-guard.yaml")
    assert "guard" not in ruling.state["steps"] and "guarded" not in ruling.state


def test_an_avenge_after_a_contested_status_is_not_ruled(tmp_path: Path) -> None:
    # audit 17, V1: the fate is open, so whether the bane may be avenged is open too
    contested = tmp_path / "contested.yaml"
    contested.write_text(
        "game: pacg\ntitle: t\ncharacter: Kyra\nlocal: [Valeros]\ncard: {name: Zombie, type: monster}\n"
        "checks: Combat 8\nevents:\n  - {step: before-acting, status: defeated}\n"
        "  - {step: check, result: {by: Kyra, total: 5}}\n"
        "  - {step: avenge, avenge: {by: Valeros, bury: Holy Water}}\n",
        encoding="utf-8",
    )
    ruling = check_file(contested)
    assert ruling.state["events"] == ["legal", "legal", "undetermined"]
    assert not any("do not describe the failed check" in s.says for s in ruling.steps)


@pytest.mark.parametrize("step", ["evasion", "before-acting", "check", "after-acting", "resolve", "escape"])
def test_a_guard_attempt_is_made_only_in_the_guard_step(tmp_path: Path, step: str) -> None:
    # audit 21 Z1: made after a won check, it guarded the last open location and won the scenario
    later = step in ("after-acting", "resolve", "escape")
    first = "  - {step: check, result: {by: Valeros, total: 12}}\n" if later else ""
    path = tmp_path / "guard.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Valeros\nlocation: Farmhouse\ndistant: {Woods: [Seelah]}\n"
        "card: {name: Black Fang, type: monster, villain: true}\nchecks: Combat 10\nevents:\n"
        f"{first}  - {{step: {step}, guard: {{by: Seelah, location: Woods}}}}\n",
        encoding="utf-8",
    )
    ruling = check_file(path)
    assert ruling.verdict is Verdict.ILLEGAL
    deciding = [s for s in ruling.steps if s.decides]
    assert [s.clause for s in deciding] == ["step.order"] and "guarding distant locations" in deciding[0].says
    assert ruling.state["guarded"] == [] and ruling.state["win"] is False


def test_a_character_moved_after_their_guard_attempt_gets_no_new_one(tmp_path: Path) -> None:
    path = tmp_path / "moved.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Valeros\nlocation: Farmhouse\ndistant: {Woods: [Seelah], Village: []}\n"
        "card: {name: Black Fang, type: monster, villain: true}\nchecks: Combat 10\nevents:\n"
        "  - {step: guard, guard: {by: Seelah, location: Woods, success: false}}\n"
        "  - {step: guard, move: {by: Seelah, to: Village}}\n"
        "  - {step: guard, guard: {by: Seelah, location: Village}}\n",
        encoding="utf-8",
    )
    ruling = check_file(path)
    assert ruling.verdict is Verdict.ILLEGAL
    assert any("no new one" in s.says for s in ruling.steps if s.clause == "step.guard")
    assert not any("may try only for the new location" in s.says for s in ruling.steps)


@pytest.mark.parametrize("typed", [False, True])
def test_an_armor_against_another_source_s_damage_rests_on_the_damage_limit_reading(
    tmp_path: Path, typed: bool
) -> None:
    # audit 22 K1: it was illegal as "the same damage", which it is not
    fire, acid = (", damage-type: fire", ", damage-type: acid") if typed else ("", "")
    path = tmp_path / "sources.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Amiri\ncard: {name: Fire Beetle Swarm, type: monster}\nchecks: Combat 9\n"
        "events:\n"
        "  - {step: before-acting, damage: {to: Amiri, amount: 2, type: fire, source: Fire Beetle Swarm}}\n"
        "  - {step: before-acting, damage: {to: Amiri, amount: 1, type: acid, source: Acid Pit location}}\n"
        f"  - {{step: before-acting, play: {{by: Amiri, card: Fire Mail, type: armor, reduces: Amiri{fire}}}}}\n"
        f"  - {{step: before-acting, play: {{by: Amiri, card: Acid Mail, type: armor, reduces: Amiri{acid}}}}}\n",
        encoding="utf-8",
    )
    assert check_file(path).verdict is Verdict.UNDETERMINED
    each = check_file(path, [("damage-limit", "per-character")])
    assert each.state["events"][3] == "legal"
    shared = check_file(path, [("damage-limit", "shared")])
    assert shared.state["events"][3] == "illegal"
    assert not any("the same damage" in s.says for s in shared.steps)


def _events(tmp_path: Path, events: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Amiri\ncard: {name: Fire Beetle Swarm, type: monster}\n"
        f"checks: Combat 9\nevents:\n{events}",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("source", ["", ", source: Fire Beetle Swarm"])
def test_two_damages_from_one_source_in_one_step_take_one_armor(tmp_path: Path, source: str) -> None:
    # audit 23 J1: one source (said, or left out and so the card's) is one limit, by rule
    path = _events(
        tmp_path,
        f"  - {{step: before-acting, damage: {{to: Amiri, amount: 2, type: fire{source}}}}}\n"
        f"  - {{step: before-acting, damage: {{to: Amiri, amount: 1, type: acid{source}}}}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri}}\n",
    )
    ruling = check_file(path)
    assert ruling.verdict is Verdict.ILLEGAL and ruling.state["events"][3] == "illegal"
    assert [s.clause for s in ruling.steps if s.decides] == ["damage.type-limit"]


def test_one_source_merges_only_the_damage_of_that_source(tmp_path: Path) -> None:
    # audit 23 J2: a location's damage earlier is another source, under either reading
    path = _events(
        tmp_path,
        "  - {step: encounter, damage: {to: Amiri, amount: 1, type: acid, source: Acid Pit}}\n"
        "  - {step: encounter, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri, for: damage}}\n"
        "  - {step: before-acting, damage: {to: Amiri, amount: 2, type: fire}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri}}\n",
    )
    assert check_file(path, [("damage-instances", "one-source")]).state["events"][3] == "legal"


@pytest.mark.parametrize("won", [True, False])
def test_a_play_on_a_check_after_the_encounter_is_illegal(tmp_path: Path, won: bool) -> None:
    # audit 23 J3: it was legal, citing a clause that gives no such permission
    total = 10 if won else 8
    path = _events(
        tmp_path,
        f"  - {{step: check, result: {{by: Amiri, total: {total}}}}}\n"
        "  - {step: after-encounter, play: {by: Amiri, card: Blessing of the Gods, type: blessing}}\n",
    )
    ruling = check_file(path)
    assert ruling.state["events"][1] == "illegal"
    assert [s.clause for s in ruling.steps if s.decides] == ["check.sub-steps"]


@pytest.mark.parametrize(
    ("events", "clause"),
    [
        # two armors against one source's damage after the encounter (audit 24 N1)
        (
            "  - {step: after-encounter, damage: {to: Amiri, amount: 3, type: fire, source: Trap}}\n"
            "  - {step: after-encounter, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n"
            "  - {step: after-encounter, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri}}\n",
            "damage.type-limit",
        ),
        # a Combat-only armor against fire damage after the encounter (N1)
        (
            "  - {step: after-encounter, damage: {to: Amiri, amount: 3, type: fire, source: Trap}}\n"
            "  - {step: after-encounter, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri, "
            "damage-type: combat}}\n",
            "damage.responses",
        ),
        # a reduction after the encounter with no damage dealt after it (N2)
        (
            "  - {step: after-encounter, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n",
            "damage.responses",
        ),
        ("  - {step: after-encounter, power: {by: Amiri, power: Thick Skin, for: damage}}\n", "damage.responses"),
    ],
)
def test_the_damage_rules_hold_after_the_encounter(tmp_path: Path, events: str, clause: str) -> None:
    ruling = check_file(_events(tmp_path, "  - {step: check, result: {by: Amiri, total: 10}}\n" + events))
    assert ruling.verdict is Verdict.ILLEGAL
    assert [s.clause for s in ruling.steps if s.decides] == [clause]


def test_a_source_is_one_source_however_it_is_capitalised(tmp_path: Path) -> None:
    # audit 24 N3, N5: the card's name in lower case, and no source at all, are the card
    path = _events(
        tmp_path,
        "  - {step: before-acting, damage: {to: Amiri, amount: 2, type: fire, source: fire beetle swarm}}\n"
        "  - {step: before-acting, damage: {to: Amiri, amount: 1, type: fire}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri}}\n",
    )
    ruling = check_file(path)
    assert ruling.state["events"][3] == "illegal"
    assert [d["source"] for d in ruling.state["damage"]] == ["fire beetle swarm", "Fire Beetle Swarm"]


def test_effect_damage_in_a_check_step_cites_what_may_respond_to_damage(tmp_path: Path) -> None:
    # audit 24 N4: check.damage is the failed check's own damage
    path = _events(tmp_path, "  - {step: check, damage: {to: Amiri, amount: 1, type: fire}}\n")
    steps = [s for s in check_file(path).steps if "damage to Amiri" in s.says]
    assert [s.clause for s in steps] == ["damage.responses"]


@pytest.mark.parametrize(
    ("before", "clause"),
    [
        # the encountering character moved: what follows the encounter does not happen (audit 25 G1)
        (
            "  - {step: check, move: {by: Amiri}}\n  - {step: check, result: {by: Amiri, total: 10}}\n",
            "encounter.move-cancels-after",
        ),
        # the card was evaded: none of its other powers take effect (G4)
        ("  - {step: evasion, evade: {by: Amiri}}\n", "step.evasion"),
    ],
)
def test_damage_after_the_encounter_is_ruled_like_what_else_follows_it(
    tmp_path: Path, before: str, clause: str
) -> None:
    path = _events(tmp_path, before + "  - {step: after-encounter, damage: {to: Amiri, amount: 1, type: fire}}\n")
    ruling = check_file(path)
    assert ruling.state["events"][-1] == "illegal"
    assert [s.clause for s in ruling.steps if s.decides][-1] == clause
    assert ruling.state["damage"] == []


def test_one_source_damaging_two_characters_after_the_encounter_rests_on_the_reading(tmp_path: Path) -> None:
    # audit 25 G3: as in the encounter's steps
    path = tmp_path / "two.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Amiri\nlocal: [Lem]\ncard: {name: Goblin, type: monster}\n"
        "checks: Combat 9\nevents:\n  - {step: check, result: {by: Amiri, total: 10}}\n"
        "  - {step: after-encounter, damage: {to: [Amiri, Lem], amount: 2, type: fire, source: Trap}}\n"
        "  - {step: after-encounter, play: {by: Lem, card: Ward, type: spell, reduces: Lem}}\n"
        "  - {step: after-encounter, play: {by: Amiri, card: Ward Two, type: spell, reduces: Amiri}}\n",
        encoding="utf-8",
    )
    assert check_file(path).verdict is Verdict.UNDETERMINED
    assert check_file(path, [("damage-limit", "shared")]).state["events"][-1] == "illegal"
    assert check_file(path, [("damage-limit", "per-character")]).state["events"][-1] == "legal"


@pytest.mark.parametrize(("option", "verdict"), [("separate", "legal"), ("one-source", "illegal")])
def test_a_reduction_after_the_encounter_counts_the_same_card_s_reductions_during_it(
    tmp_path: Path, option: str, verdict: str
) -> None:
    # audit 28 F1: the armor played in the encounter counts against the card's later damage
    # when all of one source's damage is one instance
    path = _events(
        tmp_path,
        "  - {step: before-acting, damage: {to: Amiri, amount: 1, type: combat}}\n"
        "  - {step: before-acting, play: {by: Amiri, card: Leather Armor, type: armor, reduces: Amiri}}\n"
        "  - {step: check, result: {by: Amiri, total: 10}}\n"
        "  - {step: after-encounter, damage: {to: Amiri, amount: 1, type: combat}}\n"
        "  - {step: after-encounter, play: {by: Amiri, card: Chain Mail, type: armor, reduces: Amiri}}\n",
    )
    ruling = check_file(path, [("damage-instances", option)])
    assert ruling.state["events"][-1] == verdict
    last = [s for s in ruling.steps if "Chain Mail" in s.says]
    assert (last[0].clause, last[0].reading) == ("damage.separate-instances", f"damage-instances={option}")


@pytest.mark.parametrize("by", ["Amiri", "Valeros"])
def test_a_guard_by_a_character_with_the_villain_says_where_they_are(tmp_path: Path, by: str) -> None:
    # audit 28 F2: the target is distant; the one guarding is not
    path = tmp_path / "guard.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Amiri\nlocal: [Valeros]\n"
        "card: {name: Bandit Lord, type: monster, villain: true}\nchecks: Combat 12\nlocation: Farmhouse\n"
        f"distant: {{Woods: [Seelah]}}\nevents:\n  - {{step: guard, guard: {{by: {by}, location: Woods}}}}\n",
        encoding="utf-8",
    )
    ruling = check_file(path)
    assert ruling.state["events"] == ["illegal"]
    said = next(s.says for s in ruling.steps if s.decides)
    assert f"{by} is at Farmhouse, with the villain" in said
    assert "villain's own location" not in said


@pytest.mark.parametrize(("option", "taker"), [("attempter", "Lem"), ("encountering", "Amiri")])
def test_who_takes_another_character_s_failed_chain_check_damage_is_a_reading(
    tmp_path: Path, option: str, taker: str
) -> None:
    # audit 28 F3: the first-edition answer is one option, not the only outcome
    path = tmp_path / "chain.yaml"
    path.write_text(
        "game: pacg\ntitle: t\ncharacter: Amiri\nlocal: [Lem]\ncard: {name: Boggart, type: monster}\n"
        "checks: Knowledge 4 or Perception 4 then Combat 10\nevents:\n"
        "  - {step: check, result: {by: Lem, check: Perception 4, total: 2}}\n"
        "  - {step: next-check, result: {by: Amiri, check: Combat 10, total: 12}}\n",
        encoding="utf-8",
    )
    ruling = check_file(path, [("chain-damage", option)])
    assert [d["to"] for d in ruling.state["damage"]] == [taker]
    assert any(s.reading == f"chain-damage={option}" for s in ruling.steps)
