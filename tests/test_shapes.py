"""JSON shapes owned by the values they describe, the steps a verdict rests on, and the
``--reading`` choices checked in one place (issue 13 items 4 and 6).

The CLI renders what a value's ``to_json`` gives; these tests hold the value and the
command's output to each other, and the ``decides`` marks to what the Trail recorded.
"""

from __future__ import annotations

import json

import pytest

from rulesref import fields
from rulesref.clause import SCHEMA_VERSION
from rulesref.corpus import Game
from rulesref.errors import RulesrefError, ScenarioError, UnknownNameError
from rulesref.games import all_games, find_game
from rulesref.lookup import Answer
from rulesref.readings import choose, read_overrides
from rulesref.referee import check_file
from rulesref.ruling import Basis, Illegal, RulingStep, Trail, Undetermined, Verdict, mark_deciding, unreadable_json
from rulesref.source import Loaded
from tests.conftest import ROOT

QUOTE = "write it in quotes if it really is text"


@pytest.fixture(scope="module")
def hvda() -> Game:
    return find_game("houses-vs-dark-arts")


# --- the values own their JSON ---------------------------------------------------------


def test_show_and_page_print_the_clause_as_it_describes_itself(cli, hvda: Game) -> None:
    clause = hvda.clauses["move.walls"]
    assert json.loads(cli("show", "move.walls", "--json").out) == clause.to_json(hvda.clauses)
    listed = json.loads(cli("page", "16", "--json").out)
    assert listed["results"] == [c.to_json(g.clauses) for g in all_games() for c in g.clauses.values() if 16 in c.pages]


def test_a_clause_sees_only_clauses_of_its_game_by_title(hvda: Game) -> None:
    clause = hvda.clauses["move.walls"]
    assert clause.to_json({})["see"] == []
    shown = clause.to_json(hvda.clauses)
    assert [s["id"] for s in shown["see"]] == [s for s in clause.see if s in hvda.clauses]
    assert list(shown) == [
        "id", "game", "title", "kind", "text", "pages", "page_note", "pages_inferred", "source", "tags", "see",
        "misreadings",
    ]  # fmt: skip


def test_games_myths_and_readings_print_what_the_values_give(cli) -> None:
    games = list(all_games())
    assert json.loads(cli("games", "--json").out) == [g.to_json() for g in games]
    assert json.loads(cli("myths", "--json").out) == [g.myth_json(m) for g in games for m in g.misreadings]
    assert json.loads(cli("readings", "--json").out) == [r.to_json() for g in games for r in g.readings.values()]


def test_a_myth_names_its_game_and_the_pages_of_the_clause_correcting_it(hvda: Game) -> None:
    myth = hvda.misreadings[0]
    shown = hvda.myth_json(myth)
    assert list(shown) == ["game", "claim", "correction", "clause", "pages"]
    assert (shown["game"], shown["pages"]) == (hvda.id, list(hvda.clauses[myth.clause].pages))


def test_an_error_says_where_and_what_with_its_hint() -> None:
    error = ScenarioError("unknown key 'tilte'", file="a.yaml", line=3, column=1, field="tilte", hint="did you mean?")
    assert error.to_json() == {
        "file": "a.yaml",
        "line": 3,
        "column": 1,
        "field": "tilte",
        "message": "unknown key 'tilte'; did you mean?",
    }
    assert unreadable_json(RulesrefError("no file"), "gone.yaml") == {
        "schema_version": SCHEMA_VERSION,
        "file": "gone.yaml",
        "error": {"file": None, "line": None, "column": None, "field": None, "message": "no file"},
    }


def test_a_ruling_is_a_whole_check_entry() -> None:
    shown = check_file(ROOT / "scenarios" / "pacg" / "user-18-immunity-fire.yaml").to_json()
    keys = list(shown)
    assert (keys[0], keys[-1]) == ("schema_version", "error")
    assert (shown["schema_version"], shown["error"]) == (SCHEMA_VERSION, None)


def test_suggestions_are_id_and_title_pairs_and_their_json_objects() -> None:
    answer = Answer("purple", None, (), "no clause matches", (("open.x", "A title (with brackets)"),))
    assert answer.to_json()["suggestions"] == [{"id": "open.x", "title": "A title (with brackets)"}]


def test_a_miss_suggests_clauses_by_id_and_title(cli) -> None:
    shown = json.loads(cli("ask", "purple", "elephants", "dancing", "on", "saturn", "--json").out)
    titles = {c.id: c.title for g in all_games() for c in g.clauses.values()}
    assert shown["suggestions"], "the question is near enough one topic to suggest it"
    assert all(s["title"] == titles[s["id"]] for s in shown["suggestions"])


# --- the steps a verdict rests on --------------------------------------------------------


def test_the_step_that_forbids_the_action_decides(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.rule("move.split", "g1 moves from a1.")
    with pytest.raises(Illegal):
        raise trail.illegal("move.walls", "A wall stands between a1 and a2.")
    assert [s.decides for s in trail.steps] == [False, True]


def test_a_refusal_rests_on_the_step_recorded_last(hvda: Game) -> None:
    trail = Trail(hvda, {"backtrack": "no-revisit"})
    trail.rule("move.split", "g1 moves from a1.")
    trail.reading("backtrack", "g1 may not come back to a1.")
    with pytest.raises(Illegal):
        raise trail.refuse("g1 cannot re-enter a1")
    assert [s.decides for s in trail.steps] == [False, True]


def test_a_forbidden_event_decides_and_the_ruling_goes_on(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.forbidden("move.walls", "Event 1 (move): illegal: through a wall.")
    trail.rule("move.split", "Event 2 (move): legal.")
    assert [(s.basis, s.decides) for s in trail.steps] == [(Basis.RULE, True), (Basis.RULE, False)]


def test_a_reading_decides_only_under_the_options_that_forbid(hvda: Game) -> None:
    for option, decides in (("no-revisit", True), ("no-reverse", False)):
        trail = Trail(hvda, {"backtrack": option})
        assert trail.reading_or_open("backtrack", "words", forbids=("no-revisit",)) == option
        assert [s.decides for s in trail.steps] == [decides]


def test_the_open_question_a_ruling_ends_on_decides(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.open("open.bonus-acquire", "What the bonus acquires is not known.")
    with pytest.raises(Undetermined) as question:
        trail.choice("pass-through")
    outcome = trail.close(question.value)
    assert outcome.verdict is Verdict.UNDETERMINED
    assert [(s.basis, s.decides) for s in trail.steps] == [(Basis.OPEN, False), (Basis.OPEN, True)]


def _steps(*bases: Basis) -> tuple[RulingStep, ...]:
    return tuple(RulingStep(f"step {i}", "move.walls", (10,), basis) for i, basis in enumerate(bases))


@pytest.mark.parametrize(
    ("verdict", "bases", "marked"),
    [
        (Verdict.LEGAL, (Basis.RULE, Basis.READING), [True, True]),
        (Verdict.ILLEGAL, (Basis.RULE, Basis.OPEN, Basis.RULE), [False, False, True]),
        (Verdict.UNDETERMINED, (Basis.RULE, Basis.OPEN, Basis.OPEN), [False, True, False]),
        (Verdict.UNDETERMINED, (Basis.RULE, Basis.RULE), [False, True]),
        (Verdict.ILLEGAL, (), []),
    ],
)
def test_an_engine_that_marks_nothing_rests_on_its_last_or_first_open_step(
    verdict: Verdict, bases: tuple[Basis, ...], marked: list[bool]
) -> None:
    assert [s.decides for s in mark_deciding(verdict, _steps(*bases))] == marked


def test_marks_the_engine_made_are_kept() -> None:
    steps = (*_steps(Basis.RULE), RulingStep("illegal: x", "move.walls", (10,), decides=True), *_steps(Basis.RULE))
    assert mark_deciding(Verdict.ILLEGAL, steps) == steps


def test_each_illegal_pacg_event_decides_and_is_printed_so(cli) -> None:
    path = ROOT / "scenarios" / "pacg" / "user-43-between-and-wrong-steps.yaml"
    ruling = check_file(path)
    marked = [n for n, s in enumerate(ruling.steps, 1) if s.decides]
    assert marked and all("illegal: " in ruling.steps[n - 1].says for n in marked)
    assert marked == [n for n, s in enumerate(ruling.steps, 1) if "illegal: " in s.says]
    out = cli("check", str(path), "--color", "never").out
    assert [f"Decided by step {n}," in out for n in marked] == [True] * len(marked)
    shown = json.loads(cli("check", str(path), "--json").out)[0]
    assert [n for n, s in enumerate(shown["steps"], 1) if s["decides"]] == marked


# --- --reading: checked once -------------------------------------------------------------


def test_reading_choices_are_checked_once_before_any_file(hvda: Game) -> None:
    games = list(all_games())
    assert read_overrides(["backtrack=no-revisit", "backtrack=no-revisit"], games) == [("backtrack", "no-revisit")]
    with pytest.raises(UnknownNameError) as unknown:
        read_overrides(["backtrak=no-revisit"], games)
    assert (unknown.value.field, unknown.value.hint) == ("--reading", "did you mean 'backtrack'?")
    with pytest.raises(UnknownNameError) as option:
        read_overrides(["backtrack=no-revisits"], games)
    assert option.value.field == "--reading"
    with pytest.raises(RulesrefError, match="chosen twice"):
        read_overrides(["backtrack=no-revisit", "backtrack=no-reverse"], games)
    # what read_overrides let through is only sorted by game here
    assert choose(hvda, [("backtrack", "no-reverse"), ("after-win", "turn-continues")]) == {"backtrack": "no-reverse"}


# --- the field reader names what a field holds ------------------------------------------


def _loaded(data: object) -> Loaded:
    return Loaded(data, "f.yaml", {}, {})


@pytest.mark.parametrize(
    ("read", "message", "hint"),
    [
        (
            lambda d: fields.text(d, ("x",), 5, "the card's name"),
            "expected the card's name, got a whole number 5",
            QUOTE,
        ),
        (
            lambda d: fields.text(d, ("x",), 2.5, "a name", hint="names: a"),
            "expected a name, got a number 2.5",
            "names: a",
        ),
        (lambda d: fields.text(d, ("x",), [], "a name"), "expected a name, got a list", None),
        (lambda d: fields.text(d, ("x",), "  ", "a name"), "expected a name, got empty text", None),
        (
            lambda d: fields.choice(d, ("x",), "Banee", ("boon", "bane"), "card kind"),
            "unknown card kind 'Banee'",
            "did you mean 'bane'?",
        ),
        (
            lambda d: fields.choice(d, ("x",), "x", ("boon", "bane"), "card kind"),
            "unknown card kind 'x'",
            "one of: boon, bane",
        ),
        (
            lambda d: fields.choice(d, ("x",), 3, ("boon",), "card kind"),
            "expected card kind, got a whole number 3",
            "one of: boon",
        ),
        (
            lambda d: fields.count(d, ("x",), -1, what="the damage"),
            "expected the damage (a whole number, 0 or more), got -1",
            None,
        ),
        (
            lambda d: fields.mapping(d, ("x",), None, ("a", "b"), "a check"),
            "expected a mapping for a check, got nothing",
            "keys: a, b",
        ),
        (
            lambda d: fields.mapping(d, ("x",), {"c": 1}, ("a", "b"), "a check"),
            "unknown key 'c' in a check",
            "keys: a, b",
        ),
    ],
)
def test_a_field_is_refused_naming_what_it_holds(read: object, message: str, hint: str | None) -> None:
    with pytest.raises(ScenarioError) as err:
        read(_loaded({"x": {"c": 1}}))  # type: ignore[operator]
    assert (err.value.message, err.value.hint) == (message, hint)


def test_a_choice_is_read_lowercase_and_a_kind_names_numbers() -> None:
    assert fields.choice(_loaded({}), ("x",), " Bane ", ("boon", "bane"), "card kind") == "bane"
    assert [fields.kind(v) for v in (1, 1.5, True, None, "a")] == [
        "a whole number",
        "a number",
        "true/false",
        "nothing",
        "text",
    ]
