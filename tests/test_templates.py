"""`rulesref new`, `schema`, `examples`, `check --example`, and claims about outcomes.

Each template is written with `new` and ruled on with `check`, as a new user would; its
verdict and whose claim holds are asserted topic by topic (issue 14, "Done when").
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rulesref import templates
from rulesref.source import load_yaml

ROOT = Path(__file__).resolve().parent.parent

# topic -> (verdict, {player: upheld}) of the template as shipped
RULED: dict[str, tuple[str, dict[str, bool | None]]] = {
    "move": ("illegal", {"Sam": False, "Alex": True}),
    "walls": ("legal", {"Sam": True, "Alex": False, "Kim": True}),
    "split": ("illegal", {"Sam": False, "Alex": True}),
    "stun": ("legal", {"Sam": True, "Alex": False}),
    "bump": ("legal", {"Dana": True, "Sam": False}),
    "bonus": ("legal", {"Sam": True, "Alex": False}),
    "fly-off": ("legal", {"Sam": True, "Alex": True}),
    "replenish": ("legal", {"Sam": True, "Alex": False}),
    "victory": ("legal", {"Dana": True, "Sam": False}),
    "encounter": ("illegal", {"Sam": False, "Alex": True, "Kim": True}),
    "evasion": ("illegal", {"Harsk": False, "Seelah": True}),
    "avenge": ("legal", {"Sam": True, "Alex": False}),
    "villain": ("legal", {"Sam": False, "Alex": True}),
}


def test_every_topic_has_a_ruling_asserted_and_a_file() -> None:
    assert [t.name for t in templates.TOPICS] == list(RULED)
    assert sorted(p.stem for p in templates.TEMPLATES.glob("*.yaml")) == sorted(RULED)


@pytest.mark.parametrize("topic", list(RULED))
def test_template_written_by_new_checks_with_its_verdict(cli, tmp_path: Path, topic: str) -> None:
    out = tmp_path / "dispute.yaml"
    written = cli("new", topic, "-o", str(out))
    assert (written.code, written.err) == (0, ""), written.err
    assert str(out) in written.out
    r = cli("check", "--json", str(out))
    assert (r.code, r.err) == (0, ""), r.err
    [ruling] = json.loads(r.out)
    verdict, upheld = RULED[topic]
    assert ruling["verdict"] == verdict, ruling["summary"]
    assert {c["by"]: c["upheld"] for c in ruling["claims"]} == upheld
    for claim in ruling["claims"]:  # a rejected claim says where the ruling differs
        assert bool(claim["differs"]) == (claim["upheld"] is False)


@pytest.mark.parametrize("topic", templates.TOPICS, ids=lambda t: t.name)
def test_template_schema_line_points_at_the_installed_schema(cli, topic: templates.Topic) -> None:
    r = cli("new", topic.name)
    assert r.code == 0
    first, _, rest = r.out.partition("\n")
    assert first.startswith(templates.MODELINE)
    target = Path(first.removeprefix(templates.MODELINE))
    assert target.is_absolute() and target.is_file()
    assert target.name == f"{topic.game}.schema.json"
    assert rest == topic.file.read_text(encoding="utf-8").partition("\n")[2]


@pytest.mark.parametrize("topic", templates.TOPICS, ids=lambda t: t.name)
def test_stored_template_names_its_schema_relative_to_itself(topic: templates.Topic) -> None:
    """So the template is validated where it lies too (in the package, in a checkout)."""
    first = topic.file.read_text(encoding="utf-8").partition("\n")[0]
    relative = first.removeprefix(templates.MODELINE)
    assert relative == f"../schemas/{topic.game}.schema.json"
    assert (topic.file.parent / relative).is_file()
    assert load_yaml(topic.file).data["game"] == topic.game


def test_schema_line_with_whitespace_in_the_path_is_a_file_uri(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "My Documents"
    folder.mkdir()
    (folder / "pacg.schema.json").write_text("{}")
    monkeypatch.setattr(templates, "SCHEMAS", folder)
    ref = templates.schema_ref("pacg")
    assert ref.startswith("file://") and " " not in ref and "My%20Documents" in ref


def _validator(schema: dict[str, Any]) -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(schema)  # no registry: the document must stand alone


@pytest.mark.parametrize("game", ["houses-vs-dark-arts", "pacg"])
def test_printed_schema_is_self_contained_and_accepts_templates_and_examples(cli, game: str) -> None:
    r = cli("schema", game)
    assert r.code == 0
    check = _validator(json.loads(r.out))
    files = [t.file for t in templates.topics(game)] + [e.file for e in templates.examples() if e.game == game]
    files += sorted((ROOT / "scenarios" / game).glob("*.yaml"))[:40]  # the references resolve on many shapes
    for path in files:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in check.iter_errors(load_yaml(path).data)]
        assert not errors, f"{path.name}: {errors}"


def test_schema_takes_an_alias_and_refuses_an_unknown_game(cli) -> None:
    assert json.loads(cli("schema", "HVDA").out)["$id"] == "houses-vs-dark-arts.schema.json"
    r = cli("schema", "pacj")
    assert (r.code, r.out) == (2, "")
    assert r.err == "Error: unsupported game: 'pacj'; did you mean 'pacg'?\n"


# --- `new`: listing, names, files -----------------------------------------------------------


def test_new_list_is_one_topic_a_line_name_first(cli) -> None:
    r = cli("new", "--list")
    assert r.code == 0
    lines = r.out.splitlines()
    assert [line.split()[0] for line in lines] == list(RULED)
    assert all(t.game in line and t.about in line for t, line in zip(templates.TOPICS, lines, strict=True))


def test_new_list_for_one_game_and_as_json(cli) -> None:
    r = cli("new", "--list", "--game", "pacg")
    assert [line.split()[0] for line in r.out.splitlines()] == ["encounter", "evasion", "avenge", "villain"]
    listed = json.loads(cli("new", "--list", "--json").out)
    assert [t["topic"] for t in listed] == list(RULED)
    assert all(set(t) == {"topic", "game", "about", "aliases"} for t in listed)


def test_new_takes_an_alias_and_any_case(cli) -> None:
    assert cli("new", "Passage").out == cli("new", "fly-off").out


@pytest.mark.parametrize(
    ("args", "err"),
    [
        (("new", "mvoe"), "Error: unknown topic 'mvoe'; did you mean 'move'?\n"),
        (("new", "xyzzy"), "Error: unknown topic 'xyzzy'; see `rulesref new --list`\n"),
        (
            ("new", "move", "--game", "pacg"),
            "Error: topic 'move' is about houses-vs-dark-arts, not pacg; "
            "pacg topics: encounter, evasion, avenge, villain\n",
        ),
        (("new", "villain", "-g", "chess"), "Error: unsupported game: 'chess'; see `rulesref games`\n"),
        (("new",), "Error: TOPIC: name a topic, e.g. `rulesref new move`; `rulesref new --list` lists them\n"),
        (("new", "\x1b[2Jmove"), "Error: unknown topic '\\x1b[2Jmove'; did you mean 'move'?\n"),
    ],
)
def test_new_refuses_a_bad_name_in_one_line(cli, args: tuple[str, ...], err: str) -> None:
    r = cli(*args)
    assert (r.code, r.out, r.err) == (2, "", err)


def test_new_never_overwrites_without_force(cli, tmp_path: Path) -> None:
    out = tmp_path / "dispute.yaml"
    out.write_text("my own notes\n")
    r = cli("new", "move", "-o", str(out))
    assert (r.code, r.out) == (2, "")
    assert r.err == f"Error: {out}: already exists; choose another name, or add --force to replace it\n"
    assert out.read_text() == "my own notes\n"
    assert cli("new", "move", "-o", str(out), "--force").code == 0
    assert out.read_text() == templates.template_text(templates.find_topic("move"))


@pytest.mark.parametrize("where", ["folder", "missing-parent"])
def test_new_output_that_cannot_be_written_is_one_line(cli, tmp_path: Path, where: str) -> None:
    out = tmp_path if where == "folder" else tmp_path / "no-such-folder" / "x.yaml"
    r = cli("new", "move", "-o", str(out), *(["--force"] if where == "folder" else []))
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith(f"Error: {out}: ") and r.err.count("\n") == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_new_force_never_opens_a_fifo(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "dispute.yaml"
    os.mkfifo(fifo)
    r = cli("new", "move", "-o", str(fifo), "--force")  # opening it to write would wait forever
    assert (r.code, r.out) == (2, "")
    assert r.err == f"Error: {fifo}: is not a regular file; name a file to write, e.g. dispute.yaml\n"


def test_new_output_dash_is_standard_output(cli) -> None:
    assert cli("new", "stun", "-o", "-").out == cli("new", "stun").out


# --- examples ---------------------------------------------------------------------------------


def test_examples_lists_every_shipped_example_and_the_docs(cli) -> None:
    r = cli("examples")
    assert r.code == 0
    names = [e.name for e in templates.examples()]
    assert names and [line.split()[0] for line in r.out.splitlines()[: len(names)]] == names
    assert r.out.splitlines()[-1].startswith("The scenario format: ")
    data = json.loads(cli("examples", "--json").out)
    assert [e["name"] for e in data["examples"]] == names
    assert data["docs"] is not None and Path(data["docs"]).is_file()


def test_examples_cover_both_games() -> None:
    assert {e.game for e in templates.examples()} == {"houses-vs-dark-arts", "pacg"}


@pytest.mark.parametrize("example", templates.examples(), ids=lambda e: e.name)
def test_example_is_a_copy_of_a_scenario_and_holds(cli, example: templates.Example) -> None:
    source = ROOT / "scenarios" / example.game / example.file.name
    assert load_yaml(example.file).data == load_yaml(source).data, f"copy {source} to {example.file} again"
    r = cli("check", "--json", "--example", example.name)
    assert (r.code, r.err) == (0, ""), r.err
    [ruling] = json.loads(r.out)
    assert ruling["expect"]["ok"] is True


def test_check_example_runs_with_files_too(cli) -> None:
    """The files named first, in order, then the examples."""
    example = templates.examples()[0]
    r = cli("check", "--json", "-e", f"{example.name}.yaml", str(ROOT / "scenarios" / "pacg" / "choose-to-fail.yaml"))
    assert r.code == 0
    assert [Path(x["file"]).name for x in json.loads(r.out)] == ["choose-to-fail.yaml", example.file.name]


@pytest.mark.parametrize(
    ("args", "err"),
    [
        (("check", "--example", "user-wall-dark-art"), "Error: --example: unknown example 'user-wall-dark-art'; "),
        (("check", "--example", "nothing-like-it"), "Error: --example: unknown example 'nothing-like-it'; see "),
    ],
)
def test_check_example_bad_name_is_one_line(cli, args: tuple[str, ...], err: str) -> None:
    r = cli(*args)
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith(err) and r.err.count("\n") == 1


# --- claims about outcomes (issue 14, item 5) --------------------------------------------------

REPLENISH = """\
game: houses-vs-dark-arts
title: Gryffindor keeps two cards and Replenishes
houses: [gryffindor]
pawns:
  g1: {house: gryffindor, at: a1}
path: {length: 20, marker: 5}
players:
  gryffindor: {hand: 2, deck: 10, discard: 4}
turn: {side: house, house: gryffindor}
action: {replenish: {discard: 0}}
"""


def _claims(cli, tmp_path: Path, text: str) -> dict[str, dict[str, Any]]:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    r = cli("check", "--json", str(path))
    assert r.code == 0, r.err
    return {c["by"]: c for c in json.loads(r.out)[0]["claims"]}


def test_claim_about_the_outcome_is_upheld_or_rejected_against_the_state(cli, tmp_path: Path) -> None:
    claims = _claims(
        cli,
        tmp_path,
        REPLENISH
        + "claims:\n"
        + "  Sam: {state: {players: {gryffindor: {hand: 5}}, path: {marker: 6}}}\n"
        + "  Alex: {state: {players: {gryffindor: {hand: 3}}}}\n"
        + "  Kim: {verdict: legal, state: {path: {marker: 7}}}\n"
        + "  Lee: legal\n",
    )
    assert claims["Sam"] == {
        "by": "Sam",
        "says": "players.gryffindor.hand = 5, path.marker = 6",
        "upheld": True,
        "verdict": None,
        "state": {"players": {"gryffindor": {"hand": 5}}, "path": {"marker": 6}},
        "differs": [],
    }
    assert (claims["Alex"]["upheld"], claims["Alex"]["differs"]) == (
        False,
        ["state.players.gryffindor.hand: expected 3, got 5"],
    )
    # the verdict holds but the outcome does not: the claim as a whole is rejected
    assert (claims["Kim"]["upheld"], claims["Kim"]["says"]) == (False, "legal; path.marker = 7")
    assert claims["Lee"] == {
        "by": "Lee",
        "says": "legal",
        "upheld": True,
        "verdict": "legal",
        "state": None,
        "differs": [],
    }


def test_claimed_outcome_of_an_illegal_action_is_held_against_the_unchanged_situation(cli, tmp_path: Path) -> None:
    text = (ROOT / "scenarios/houses-vs-dark-arts/user-wall-house.yaml").read_text()
    text = text.replace(
        "claims: {Sam: legal, Alex: illegal}",
        "claims: {Sam: {state: {pawns: {g1: {at: c1}}}}, Alex: {state: {pawns: {g1: {at: a1}}}}}",
    )
    claims = _claims(cli, tmp_path, text)
    assert (claims["Sam"]["upheld"], claims["Alex"]["upheld"]) == (False, True)


PASS_THROUGH = """\
game: houses-vs-dark-arts
title: Whether a Dark Arts pawn may move on through a House pawn's space is not settled
board: {grid: 5x4}
pawns:
  g1: {house: gryffindor, at: b1}
  d1: {side: dark-arts, at: a1}
action:
  explore:
    card: 3
    moves:
      - {pawn: d1, path: [a1, b1, c1]}
"""


def test_undetermined_ruling_settles_no_outcome_claim(cli, tmp_path: Path) -> None:
    claims = _claims(
        cli,
        tmp_path,
        PASS_THROUGH
        + "claims:\n"
        + "  Sam: {state: {pawns: {d1: {at: c1}}}}\n"
        + "  Alex: undetermined\n"
        + "  Kim: {verdict: undetermined, state: {pawns: {d1: {at: a1}}}}\n"
        + "  Lee: legal\n",
    )
    assert {who: c["upheld"] for who, c in claims.items()} == {"Sam": None, "Alex": True, "Kim": None, "Lee": None}


def test_claimed_state_text_is_cut_to_a_line(cli, tmp_path: Path) -> None:
    many = ", ".join(f"x{i}: {i}" for i in range(20))
    claims = _claims(cli, tmp_path, REPLENISH + f"claims:\n  Sam: {{state: {{{many}}}}}\n")
    assert claims["Sam"]["says"].endswith("x7 = 7, …")
    assert claims["Sam"]["upheld"] is False and len(claims["Sam"]["differs"]) == 20


@pytest.mark.parametrize(
    ("claim", "err"),
    [
        ("Sam: probably", "claims.Sam: a claim must be one of legal, illegal, undetermined, got 'probably'"),
        ("Sam: {}", "claims.Sam: a claim needs a verdict, a state (what they say happens), or both"),
        (
            "Sam: {verdict: maybe}",
            "claims.Sam.verdict: verdict must be one of legal, illegal, undetermined, got 'maybe'",
        ),
        ("Sam: {state: 3}", "claims.Sam.state: expected a mapping: the part of the resulting state"),
        ("Sam: {state: {}}", "claims.Sam.state: expected a mapping: the part of the resulting state"),
        ("Sam: {stat: {path: {marker: 6}}}", "claims.Sam.stat: unknown key 'stat' in a claim; did you mean 'state'?"),
        ("Sam: [legal]", "claims.Sam: a claim must be one of legal, illegal, undetermined, got ['legal']"),
    ],
)
def test_bad_claim_is_one_line_naming_the_field(cli, tmp_path: Path, claim: str, err: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(REPLENISH + "claims:\n  " + claim + "\n")
    r = cli("check", str(path))
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith("Error: ") and err in r.err and r.err.count("\n") == 1


def test_scenario_schemas_take_the_claim_forms() -> None:
    check = _validator(templates.schema_document("houses-vs-dark-arts"))
    data = load_yaml(ROOT / "scenarios/houses-vs-dark-arts/user-wall-house.yaml").data
    good = {"Sam": "legal", "Alex": {"state": {"pawns": {"g1": {"at": "a1"}}}}, "Kim": {"verdict": "illegal"}}
    assert not list(check.iter_errors({**data, "claims": good}))
    for bad in ({"Sam": {}}, {"Sam": {"stat": {}}}, {"Sam": {"state": {}}}, {"Sam": "probably"}):
        assert list(check.iter_errors({**data, "claims": bad})), bad
