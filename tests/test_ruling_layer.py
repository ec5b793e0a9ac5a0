"""The shared ruling layer: the Trail's vocabulary and the one field reader (rulesref.fields).

Every engine cites through the same Trail and reads through the same fields, so what is
tested here holds for each game: a rule step, an illegal step that ends the ruling, a step
resting on a named reading (chosen once, worded per option), open steps, and a clause the
pack lacks refused as the pack's fault.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.corpus import Game, NotInPack
from rulesref.errors import CorpusError, ScenarioError
from rulesref.fields import Fields, count, flag, mapping, refuse_unknown_keys
from rulesref.games import find_game
from rulesref.ruling import Basis, Illegal, Trail, Undetermined, Verdict
from rulesref.source import Loaded


@pytest.fixture(scope="module")
def hvda() -> Game:
    return find_game("houses-vs-dark-arts")


def test_a_rule_step_takes_its_pages_from_the_clause(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.rule("move.walls", "A wall stands there.")
    (step,) = trail.steps
    assert (step.clause, step.basis, step.pages) == ("move.walls", Basis.RULE, hvda.clauses["move.walls"].pages)


def test_an_illegal_step_is_a_rule_step_and_ends_the_ruling_unchanged(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.unchanged = {"pawns": {}}
    with pytest.raises(Illegal) as refused:
        raise trail.illegal("move.walls", "A wall stands between a1 and a2.", "g1 cannot cross the wall")
    assert [s.basis for s in trail.steps] == [Basis.RULE]
    outcome = trail.settle(refused.value)
    assert (outcome.verdict, outcome.summary, outcome.state) == (
        Verdict.ILLEGAL,
        "g1 cannot cross the wall",
        {"pawns": {}},
    )
    assert trail.illegal("move.walls", "says it").summary == "says it"


def test_a_reading_is_chosen_once_and_worded_by_its_option(hvda: Game) -> None:
    words = {"no-revisit": "no coming back", "no-reverse": "no turning straight back"}
    trail = Trail(hvda, {"backtrack": "no-reverse"})
    assert trail.reading("backtrack", words, clause="open.backtrack-meaning") == "no-reverse"
    (step,) = trail.steps
    assert (step.says, step.basis, step.reading, step.clause) == (
        "no turning straight back",
        Basis.READING,
        "backtrack=no-reverse",
        "open.backtrack-meaning",
    )
    assert trail.used == {"backtrack": "no-reverse"}
    # without a chosen option the default is used; the cited clause is the reading's first
    default = Trail(hvda, {})
    assert default.reading("backtrack", words) == "no-revisit"
    assert default.steps[0].clause == "move.no-backtrack"


def test_a_reading_worded_for_too_few_options_is_refused_as_the_engines(hvda: Game) -> None:
    trail = Trail(hvda, {"backtrack": "no-reverse"})
    with pytest.raises(CorpusError, match="option 'no-reverse', which its engine does not rule on"):
        trail.reading("backtrack", {"no-revisit": "no coming back"})


def test_an_unsettled_reading_ends_the_ruling_undetermined(hvda: Game) -> None:
    trail = Trail(hvda, {})
    with pytest.raises(Undetermined) as question:
        trail.reading("house-victory", {"met": "met", "not-met": "not met"})
    outcome = trail.close(question.value)
    assert outcome.verdict is Verdict.UNDETERMINED
    assert [(s.clause, s.basis) for s in trail.steps] == [("open.house-victory", Basis.OPEN)]
    assert "--reading house-victory=OPTION" in trail.steps[0].says


def test_reading_or_open_records_the_open_step_and_goes_on(hvda: Game) -> None:
    trail = Trail(hvda, {})
    assert trail.reading_or_open("house-victory", "said", about="event 2") is None
    assert trail.steps[0].basis is Basis.OPEN
    assert trail.steps[0].says.startswith("event 2: ")
    settled = Trail(hvda, {"house-victory": "met"})
    assert settled.reading_or_open("house-victory", "said") == "met"
    assert settled.steps[0].basis is Basis.READING


def test_open_and_undetermined_steps_cite_the_open_clause(hvda: Game) -> None:
    trail = Trail(hvda, {})
    trail.open("open.house-explore", "not settled")
    assert trail.steps[0].basis is Basis.OPEN
    question = trail.undetermined("open.fly-off", "not settled either")
    assert (question.clause, question.says) == ("open.fly-off", "not settled either")


@pytest.mark.parametrize(
    "cite",
    [
        lambda t: t.rule("move.nowhere", "x"),
        lambda t: t.illegal("move.nowhere", "x"),
        lambda t: t.open("move.nowhere", "x"),
        lambda t: t.undetermined("move.nowhere", "x"),
        lambda t: t.reading("backtrack", "x", clause="move.nowhere"),
        lambda t: t.reading("no-such-reading", "x"),
        lambda t: t.choice("no-such-reading"),
    ],
)
def test_a_clause_or_reading_the_pack_lacks_is_a_corpus_error_naming_the_pack(hvda: Game, cite: object) -> None:
    trail = Trail(hvda, {})
    with pytest.raises(CorpusError) as fault:
        cite(trail)  # type: ignore[operator]
    assert fault.value.file is not None
    assert fault.value.file.endswith("houses-vs-dark-arts")
    assert "which its engine" in fault.value.message


# --- the field reader --------------------------------------------------------------------


def _doc(data: object) -> Loaded:
    return Loaded(data, "f.yaml", {("board",): (3, 1), ("board", "wals"): (4, 3)}, {("board", "wals"): (4, 3)})


def test_an_unknown_key_is_named_at_its_line_with_a_near_miss() -> None:
    doc = _doc({"board": {"wals": 1}})
    with pytest.raises(ScenarioError) as err:
        refuse_unknown_keys(doc, ("board",), doc.data["board"], ("walls", "grid"), keys="board keys")
    assert str(err.value) == "f.yaml:4:3: board.wals: unknown key 'wals'; did you mean 'walls'?"
    with pytest.raises(ScenarioError, match="board keys: grid, spaces"):
        refuse_unknown_keys(doc, ("board",), doc.data["board"], ("grid", "spaces"), keys="board keys")


def test_fields_demand_required_keys_and_refuse_as_the_caller_says() -> None:
    doc = _doc({"board": {"wals": 1}})
    with pytest.raises(CorpusError, match="did you mean 'walls'"):
        Fields(doc, ("board",), {"walls": True}, cls=CorpusError)
    with pytest.raises(ScenarioError, match="missing required key 'grid'"):
        Fields(_doc({"board": {}}), ("board",), {"grid": True})
    f = Fields(
        _doc({"board": {"n": 3, "on": True, "name": "  a   b "}}), ("board",), dict.fromkeys(("n", "on", "name"), False)
    )
    assert (f.count("n"), f.flag("on"), f.text("name"), f.count("absent", 2)) == (3, True, "a b", 2)


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (lambda d: count(d, ("x",), -1), "expected a whole number 0 or more, got -1"),
        (lambda d: count(d, ("x",), True), "expected a whole number 0 or more, got True"),
        (lambda d: count(d, ("x",), 4, top=3), "expected at most 3, got 4"),
        (lambda d: flag(d, ("x",), "yes"), "expected true or false, got 'yes'"),
        (lambda d: mapping(d, ("x",), [1], ("a", "b")), "expected a mapping with some of: a, b"),
    ],
)
def test_counts_flags_and_mappings_are_coerced_or_refused(read: object, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        read(_doc({}))  # type: ignore[operator]
    assert err.value.message == message


def test_nothing_reads_as_an_empty_mapping() -> None:
    assert mapping(_doc({}), ("x",), None, ("a",)) == {}


def test_the_shared_layer_needs_no_yaml_reader_to_import() -> None:
    """fields.py and ruling.py only read what was loaded: `ask` never pays for PyYAML through them."""
    source = (Path(__file__).parents[1] / "rulesref" / "fields.py").read_text(encoding="utf-8")
    top = source.split("if TYPE_CHECKING:")[0]
    assert "rulesref.source" not in top


def _lint_engine(hvda: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str) -> list[str]:
    """What lint says of an engine made of ``code`` alone: each problem from its line number on."""
    from rulesref import lint

    engine = tmp_path / "engine.py"
    engine.write_text(code, encoding="utf-8")
    monkeypatch.setattr(lint, "engine_files", lambda game: [engine])
    return [p.split("engine.py:")[1] for p in lint.engine_citations(hvda)]


def test_lint_lists_a_reading_worded_for_other_options_than_the_pack_defines(
    hvda: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (
        'trail.reading("backtrack", {"no-revisit": "a", "nope": "b"})\n'
        'trail.reading("backtrack", {"no-revisit": "a", "no-reverse": "b"})\n'
    )
    assert _lint_engine(hvda, tmp_path, monkeypatch, code) == [
        "1: reading 'backtrack' worded for other options than houses-vs-dark-arts defines: "
        "no words for no-reverse; words for nope, not an option"
    ]


def test_lint_lists_a_refusal_under_an_option_the_pack_does_not_define(
    hvda: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = (
        'trail.reading("backtrack", "a", refuse={"no-revist": "no"})\n'
        'trail.reading("backtrack", "a", refuse={"no-revisit": "no"} if ok else None)\n'
        'trail.reading("backtrack", "a", refuse={"nope": "no"} if ok else None)\n'
    )
    assert _lint_engine(hvda, tmp_path, monkeypatch, code) == [
        "1: reading 'backtrack' refuses under 'no-revist', not an option houses-vs-dark-arts defines",
        "3: reading 'backtrack' refuses under 'nope', not an option houses-vs-dark-arts defines",
    ]


def test_a_reading_step_that_refuses_ends_the_ruling_illegal_and_decides_it(hvda: Game) -> None:
    trail = Trail(hvda, {"backtrack": "no-revisit"})
    with pytest.raises(Illegal) as refused:
        trail.reading("backtrack", "re-entering", refuse={"no-revisit": "cannot re-enter"})
    assert refused.value.summary == "cannot re-enter"
    (step,) = trail.steps
    assert step.decides and step.reading == "backtrack=no-revisit"
    allowed = Trail(hvda, {"backtrack": "no-reverse"})
    assert allowed.reading("backtrack", "re-entering", refuse={"no-revisit": "cannot re-enter"}) == "no-reverse"
    assert not allowed.steps[0].decides
    with pytest.raises(NotInPack):
        allowed.reading("backtrack", "re-entering", refuse={"nope": "no"})
