"""`rulesref dispute`: each kind of dispute settled from the prompts alone, with the verdict the
equivalent scenario file gets; a bad answer asked again with the readers' "did you mean"; the
save that never replaces a file unasked; the answers from a file or from standard input."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rulesref import dispute
from rulesref.cli import run
from rulesref.dispute import FORMS, Dispute, ScriptLines
from rulesref.referee import check_file
from rulesref.source import load_yaml

ROOT = Path(__file__).resolve().parent.parent
HVDA = ROOT / "scenarios" / "houses-vs-dark-arts"
PACG = ROOT / "scenarios" / "pacg"


def settle(topic: str, lines: list[str], game: str | None = None) -> tuple[Any, list[str]]:
    said: list[str] = []
    ruling = Dispute(ScriptLines(iter(lines), said.append), said.append).run(topic, game)
    return ruling, said


def answers_for(topic: str, data: dict[str, Any]) -> list[str]:
    """The answers a player would type to describe the scenario ``data``: each question of
    the topic's form answered with the file's value, written as the prompt reads it."""
    answers: dict[str, Any] = {}
    lines: list[str] = []
    source = dispute._template_defaults(data)
    for ask in FORMS[topic]:
        built = dispute.assemble(data["game"], topic, answers)
        if not ask.when(built):
            continue
        key = ask.key
        value = dispute._get(source, key)
        if ask.many:
            lines += [ask.show(item) for item in value or []] + ["done"]
        elif value is None or value == [] or value == {}:
            lines.append("none" if ask.optional else "")
        elif ask.key == "claims":
            lines.append(ask.show({k: v for k, v in value.items() if isinstance(v, str)}) or "none")
        else:
            lines.append(ask.show(value))
        answers[key] = value
    return [*lines, "no"]  # and do not save it


def situation(data: dict[str, Any]) -> dict[str, Any]:
    """A file's scenario without what the prompts do not ask: its test (expect), notes, and the
    claims about a state (the prompts ask for verdicts)."""
    out = {k: copy.deepcopy(v) for k, v in data.items() if k not in ("expect", "notes")}
    claims = {k: v for k, v in (out.pop("claims", None) or {}).items() if isinstance(v, str)}
    if claims:
        out["claims"] = claims
    return out


# The kinds of dispute issue 15 names, each with a scenario file that settles it.
EQUIVALENT = [
    ("walls", HVDA / "board-wall-house.yaml"),
    ("walls", HVDA / "move-obstacle-house-no-card.yaml"),
    ("walls", HVDA / "move-obstacle-house-named-type.yaml"),
    ("walls", HVDA / "board-wall-obstacle-card.yaml"),
    ("split", HVDA / "split-worked-example-3-and-3.yaml"),
    ("stun", HVDA / "stun-house-ends-on-dark-arts.yaml"),
    ("stun", HVDA / "user-stun-relocate-choice.yaml"),
    ("bump", HVDA / "bump-completes-marker-set.yaml"),
    ("bonus", HVDA / "bonus-passing-over.yaml"),
    ("bonus", HVDA / "bonus-end-on-draw.yaml"),
    ("replenish", HVDA / "replenish-house-keep-two-draw-three.yaml"),
    ("replenish", HVDA / "replenish-dark-arts-keep-two-draw-three.yaml"),
    ("victory", HVDA / "victory-second-red-two-pawns-win.yaml"),
    ("move", HVDA / "move-backtrack-straight-back.yaml"),
    ("fly-off", HVDA / "special-passage-house.yaml"),
    ("encounter", PACG / "boggart-lem-then-amiri.yaml"),
    ("evasion", PACG / "evade-after-failing-plain-card.yaml"),
    ("avenge", PACG / "avenge-valeros-defeats.yaml"),
]


@pytest.mark.parametrize(("topic", "path"), EQUIVALENT, ids=[f"{t}:{p.stem}" for t, p in EQUIVALENT])
def test_a_dispute_from_the_prompts_gets_the_verdict_of_its_file(
    topic: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not path.is_file():
        pytest.fail(f"the equivalent scenario {path.name} is gone: name another one for {topic}")
    data = load_yaml(path).data
    ruling, said = settle(topic, answers_for(topic, data))
    assert ruling is not None, "\n".join(said)
    # the prompts built the very scenario the file describes (nothing asked was lost or added)
    assert _LAST[topic] == situation(data)
    want = check_file(path)
    assert ruling.verdict == want.verdict
    assert ruling.pages == want.pages
    assert ruling.verdict.value.upper() in capsys.readouterr().out


_LAST: dict[str, dict[str, Any]] = {}


@pytest.fixture(autouse=True)
def _record_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the scenario each dispute rules on, by topic, for the comparison above."""
    real = dispute.rule

    def rule(data: dict[str, Any], topic: str, *, picture: bool = True) -> Any:
        _LAST[topic] = copy.deepcopy(data)
        return real(data, topic, picture=picture)

    monkeypatch.setattr(dispute, "rule", rule)


NEWCOMER_WALL = [
    "Can g1 go through the wall?",  # title
    "",  # 5x4
    "b1-c1",  # walls
    "",  # obstacles
    "",  # protected
    "",  # fly-off
    "",  # passages
    "",  # bonus
    "g1 gryffindor a1",  # pawns
    "",  # turn
    "",  # players' cards
    "3",  # card
    "",  # allows
    "g1 a1 b1 c1",  # the move (the colon left out)
    "done",
    "Sam=legal, Alex=illegal",
    "no",
]


def test_a_newcomer_settles_a_wall_dispute_without_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    ruling, said = settle("move", NEWCOMER_WALL)
    assert ruling.verdict.value == "illegal"
    assert [s.clause for s in ruling.steps][-1] == "move.walls"
    out = capsys.readouterr().out
    assert "ILLEGAL" in out and "Alex said illegal: upheld" in out
    assert not any("game:" in line or "{" in line for line in said), "no YAML is shown unless saved"


def test_a_typo_gets_the_readers_did_you_mean_and_is_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    lines = list(NEWCOMER_WALL)
    lines[8:9] = ["g1 griffindor a1", "g1 gryffindor a1"]
    ruling, said = settle("move", lines)
    assert ruling.verdict.value == "illegal"
    refused = [line for line in said if "did you mean 'gryffindor'" in line]
    assert refused and refused[0].strip().startswith("pawns.g1.house:")
    # asked again, the typed answer as its default: nothing typed is lost
    again = said[said.index(refused[0]) + 1]
    assert again.startswith("The pawns") and "[g1 griffindor a1]" in again


def test_a_refused_answer_late_in_the_form_asks_only_that_field_again() -> None:
    lines = list(NEWCOMER_WALL)
    lines[13:14] = ["g1 a1 b1 z9"]  # z9 is not on the board: found only when ruled on, after the claims
    lines[-1:] = ["g1 a1 b1 c1", "no"]
    ruling, said = settle("move", lines)
    assert ruling.verdict.value == "illegal"
    refused = next(line for line in said if "z9" in line and line.startswith("  "))
    assert "action.explore.moves[0]" in refused
    assert said[said.index(refused) + 1].startswith("Move 1 [g1 a1 b1 z9]")


def test_an_answer_that_cannot_be_read_is_said_and_asked_again() -> None:
    lines = list(NEWCOMER_WALL)
    lines[11:12] = ["three", "3"]
    ruling, said = settle("move", lines)
    assert ruling is not None
    assert any("expected the card's movement" in line for line in said)


def test_a_claim_misspelt_gets_did_you_mean() -> None:
    lines = list(NEWCOMER_WALL)
    lines[15:16] = ["Sam=legal, Alex=ilegal", "Sam=legal, Alex=illegal"]
    ruling, said = settle("move", lines)
    assert [c.upheld for c in ruling.claims] == [False, True]
    assert any("did you mean 'illegal'" in line for line in said)


def test_the_board_is_drawn_once_the_pawns_stand_on_it(capsys: pytest.CaptureFixture[str]) -> None:
    settle("move", NEWCOMER_WALL)
    out = capsys.readouterr().out
    assert out.count(" a   b   c   d   e") == 2  # as built, then in the ruling


def test_saving_writes_a_file_check_rules_on_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "wall.yaml"
    ruling, _ = settle("move", [*NEWCOMER_WALL[:-1], "yes", str(target)])
    assert target.is_file()
    again = check_file(target)
    assert again.verdict == ruling.verdict and again.title == ruling.title


def test_saving_never_replaces_a_file_without_asking(tmp_path: Path) -> None:
    target = tmp_path / "wall.yaml"
    target.write_text("mine\n", encoding="utf-8")
    settle("move", [*NEWCOMER_WALL[:-1], "yes", str(target), "no"])
    assert target.read_text(encoding="utf-8") == "mine\n"
    settle("move", [*NEWCOMER_WALL[:-1], "yes", str(target), "yes"])
    assert check_file(target).verdict.value == "illegal"


def test_a_topic_without_questions_points_at_its_template() -> None:
    ruling, said = settle("villain", [])
    assert ruling is None
    assert any("rulesref new villain" in line for line in said)


def test_a_topic_is_asked_when_not_given_and_a_typo_is_named() -> None:
    ruling, said = settle(None, ["movve", "move", *NEWCOMER_WALL])  # type: ignore[arg-type]
    assert ruling.verdict.value == "illegal"
    assert any("did you mean 'move'" in line for line in said)


def test_the_cli_reads_answers_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(NEWCOMER_WALL) + "\n", encoding="utf-8")
    assert run(["dispute", "move", "--answers", str(answers)]) == 0
    assert "ILLEGAL Can g1 go through the wall?" in capsys.readouterr().out


def test_the_cli_reads_answers_from_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(NEWCOMER_WALL) + "\n"))
    assert run(["dispute", "move"]) == 0
    assert "ILLEGAL" in capsys.readouterr().out


def test_answers_that_end_early_are_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(NEWCOMER_WALL[:5]) + "\n", encoding="utf-8")
    assert run(["dispute", "move", "--answers", str(answers)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["Error: dispute: the answers ended before the dispute was settled"]


def test_an_answers_file_that_cannot_be_read_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dispute", "move", "--answers", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--answers" in err and "not a file of answers" in err and "Traceback" not in err


def test_a_topic_of_the_other_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dispute", "encounter", "--game", "hvda"]) == 2
    assert "is about pacg" in capsys.readouterr().err


def test_pasted_garbage_and_very_long_answers_are_asked_again_not_fatal() -> None:
    lines = list(NEWCOMER_WALL)
    lines[8:9] = ["\x1b[31m\x00" + "x" * 10_000, "g1 gryffindor a1"]
    ruling, said = settle("move", lines)
    assert ruling.verdict.value == "illegal"
    assert all(len(line) < 6_000 for line in said)
    assert not any("\x1b" in line for line in said)


# --- reading the short answers --------------------------------------------------------------


def test_the_answers_read_as_the_scenario_fields() -> None:
    assert dispute.parse_pawns("g1 gryffindor a1, d1 dark-arts e4 stunned") == {
        "g1": {"house": "gryffindor", "at": "a1"},
        "d1": {"side": "dark-arts", "at": "e4", "stunned": True},
    }
    assert dispute.parse_move("g1: a3 a4 passage:e2 e3") == {
        "pawn": "g1",
        "path": ["a3", "a4", {"passage": "e2"}, "e3"],
    }
    assert dispute.parse_pairs("c1-c2=door, d1=draw") == {"c1-c2": "door", "d1": "draw"}
    assert dispute.parse_fields("hand=3, markers=gryffindor") == {"hand": 3, "markers": ["gryffindor"]}
    assert dispute.parse_event("next-check: Amiri plays Longsword (weapon, melee)") == {
        "step": "next-check",
        "play": {"by": "Amiri", "card": "Longsword", "type": "weapon", "traits": ["melee"]},
    }
    assert dispute.parse_event("check: Lem rolls 5 on Perception 4") == {
        "step": "check",
        "result": {"by": "Lem", "total": 5, "check": "Perception 4"},
    }
    assert dispute.parse_replenish("all") == {"replenish": {"discard": "all"}}
    assert dispute.parse_replenish("none") == "replenish"
    assert dispute.parse_turn("gryffindor") == {"side": "house", "house": "gryffindor"}


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (dispute.parse_pawns, "g1 a1"),
        (dispute.parse_move, "g1"),
        (dispute.parse_pairs, "c1-c2"),
        (dispute.parse_event, "Amiri swings"),
        (dispute.parse_card, "9" * 20),
        (dispute.parse_card_pacg, "Boggart"),
        (dispute.parse_number, "٣"),
    ],
)
def test_an_answer_that_cannot_be_read_says_what_was_expected(parse: Any, text: str) -> None:
    with pytest.raises(dispute.Bad, match=r"expected|name"):
        parse(text)


def test_a_refusal_no_question_asks_is_one_error_line_and_the_answers_can_be_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulesref.errors import ScenarioError

    def refuse(data: dict[str, Any], topic: str, *, picture: bool = True) -> Any:
        raise ScenarioError("a fault no prompt can mend", file="<dispute>", field="notes")

    monkeypatch.setattr(dispute, "rule", refuse)
    target = tmp_path / "kept.yaml"
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join([*NEWCOMER_WALL[:-1], "yes", str(target)]) + "\n", encoding="utf-8")
    assert run(["dispute", "move", "--answers", str(answers)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["Error: <dispute>: notes: a fault no prompt can mend"]
    assert load_yaml(target).data["board"]["walls"] == ["b1-c1"]  # nothing typed is lost


def test_a_topic_without_questions_exits_0_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dispute", "villain"]) == 0
    assert "rulesref new villain" in capsys.readouterr().out
