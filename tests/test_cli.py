"""CLI behaviour: exact exit codes and output shapes for every command."""

from __future__ import annotations

import json

import pytest

from rulesref import __version__


def test_version(cli) -> None:
    r = cli("--version")
    assert (r.code, r.out) == (0, f"rulesref {__version__}\n")


def test_games_json_lists_both_rulesets(cli) -> None:
    r = cli("games", "--json")
    assert r.code == 0
    ids = [g["id"] for g in json.loads(r.out)]
    assert ids == ["houses-vs-dark-arts", "pacg"]
    for g in json.loads(r.out):
        assert set(g) == {"id", "title", "aliases", "pages", "clauses", "readings", "covers", "leaves_out"}
        assert g["clauses"] > 30


def test_show_clause_json(cli) -> None:
    r = cli("show", "move.walls", "--json")
    assert r.code == 0
    data = json.loads(r.out)
    assert data["id"] == "move.walls"
    assert data["game"] == "houses-vs-dark-arts"
    assert data["pages"] == [10, 25]
    assert data["misreadings"], "move.walls corrects the wall-vs-obstacle misreading"
    assert all(set(s) == {"id", "title"} for s in data["see"])


def test_show_text_names_pages_and_id(cli) -> None:
    r = cli("show", "move.walls")
    assert r.code == 0
    assert "move.walls" in r.out and "pp. 10, 25" in r.out


def test_show_unknown_clause_suggests_near_miss(cli) -> None:
    r = cli("show", "move.wall")
    assert r.code == 2
    assert r.out == ""
    assert r.err == "Error: unknown clause 'move.wall'; did you mean 'move.walls'?\n"


def test_show_restricted_to_other_game_is_unknown(cli) -> None:
    r = cli("show", "move.walls", "--game", "pacg")
    assert r.code == 2
    assert r.err.startswith("Error: unknown clause 'move.walls'")


def test_unknown_game(cli) -> None:
    r = cli("myths", "--game", "chess")
    assert r.code == 2
    assert r.err.startswith("Error: unsupported game: 'chess'")


def test_game_alias(cli) -> None:
    r = cli("myths", "--game", "HVDA", "--json")
    assert r.code == 0
    assert {m["game"] for m in json.loads(r.out)} == {"houses-vs-dark-arts"}


def test_page_lists_every_clause_citing_it(cli) -> None:
    r = cli("page", "16", "--game", "houses-vs-dark-arts", "--json")
    assert r.code == 0
    data = json.loads(r.out)
    assert data["results"], "page 16 holds the stun rules"
    assert all(16 in c["pages"] for c in data["results"])
    assert "move.split" in {c["id"] for c in data["results"]}


def test_page_outside_rulebook(cli) -> None:
    r = cli("page", "99")
    assert r.code == 2
    assert "page 99 is outside the rulebooks covered" in r.err


def test_myths_json_links_each_to_a_clause(cli) -> None:
    r = cli("myths", "--json")
    assert r.code == 0
    data = json.loads(r.out)
    per_game = {g: sum(1 for m in data if m["game"] == g) for g in ("houses-vs-dark-arts", "pacg")}
    assert min(per_game.values()) >= 20, per_game
    shown = json.loads(cli("show", data[0]["clause"], "--json").out)
    assert data[0]["claim"] in [m["claim"] for m in shown["misreadings"]]


def test_readings_json_shape(cli) -> None:
    r = cli("readings", "--json")
    assert r.code == 0
    for reading in json.loads(r.out):
        assert set(reading) == {"id", "game", "question", "open", "clauses", "default", "why", "options"}
        assert reading["default"] is None or reading["default"] in [o["id"] for o in reading["options"]]


def test_lint_is_clean_on_the_shipped_corpus(cli) -> None:
    r = cli("lint")
    assert r.out == "lint: no problems\n", r.out
    assert r.code == 0


def test_check_missing_file(cli, tmp_path) -> None:
    missing = tmp_path / "nope.yaml"
    r = cli("check", str(missing))
    assert r.code == 2
    assert r.err == f"Error: {missing}: no such file or folder\n"


def test_check_empty_folder(cli, tmp_path) -> None:
    r = cli("check", str(tmp_path), "--json")
    assert r.code == 2
    [entry] = json.loads(r.out)  # the folder's error, as an entry (docs/json.md)
    assert entry["file"] == str(tmp_path) and entry["error"]["message"] == "no scenario files (*.yaml) in this folder"
    assert r.err == f"Error: {tmp_path}: no scenario files (*.yaml) in this folder\n"


def test_check_bad_yaml_names_file_and_line(cli, tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: pacg\ntitle: x\ncard: [unclosed\n")
    r = cli("check", str(bad))
    assert r.code == 2
    assert r.err.startswith(f"Error: {bad}:")
    assert "not valid YAML" in r.err
    assert "Traceback" not in r.err


def test_check_duplicate_key(cli, tmp_path) -> None:
    bad = tmp_path / "dup.yaml"
    bad.write_text("game: pacg\ntitle: x\ntitle: y\n")
    r = cli("check", str(bad))
    assert (r.code, r.err) == (2, f"Error: {bad}:3:1: title: duplicate key 'title'\n")


def test_check_unknown_game_in_scenario(cli, tmp_path) -> None:
    bad = tmp_path / "g.yaml"
    bad.write_text("game: chess\ntitle: x\n")
    r = cli("check", str(bad))
    assert r.code == 2
    assert r.err.startswith(f"Error: {bad}:1:7: game: unsupported game: 'chess'")


def test_check_unknown_reading_override(cli, tmp_path) -> None:
    r = cli("check", "scenarios", "--reading", "nonsense")
    assert r.code == 2
    assert r.err == "Error: --reading: --reading expects ID=OPTION, got 'nonsense'\n"


def test_ask_top_must_be_positive(cli) -> None:
    r = cli("ask", "walls", "--top", "0")
    assert r.code == 2
    assert r.err == "Error: --top: --top must be at least 1, got 0\n"


def test_unknown_command_is_a_usage_error(cli) -> None:
    r = cli("frobnicate")
    assert r.code == 2
    assert "No such command" in r.err


def test_every_command_has_help_and_is_documented(cli) -> None:
    from pathlib import Path

    from rulesref.cli import app

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        assert command.callback.__doc__, f"`{name}` has no help text"
        assert f"rulesref {name}" in readme, f"`{name}` is missing from README.md"
        r = cli(name, "--help")
        assert r.code == 0 and "Usage:" in r.out


@pytest.mark.parametrize(
    "options", [(), ("--game", "pacg", "--json"), ("-n", "2", "--json"), ("--json",), ("--game", "chess")]
)
def test_a_question_in_several_words_is_the_same_question(cli, options: tuple[str, ...]) -> None:
    """`rulesref ask can the DA pawn go thru a wall` asks what the quoted question asks."""
    words = "can the DA pawn go thru a wall??"
    quoted = cli("ask", words, *options)
    several = cli("ask", *words.split(), *options)
    assert (several.code, several.out, several.err) == (quoted.code, quoted.out, quoted.err)


def test_help_shows_the_web_extra_and_no_internal_names() -> None:
    # rich reads "[web]" as markup unless escaped, and a parser's function name is no metavar
    from typer.testing import CliRunner

    from rulesref.cli import app

    runner = CliRunner()
    assert "rulesref[web]" in runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    for command in ("ask", "serve"):
        assert "<_" not in runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output


def _command_names() -> list[str | None]:
    from rulesref.cli import app, command_name

    return [command_name(c) for c in app.registered_commands]


@pytest.mark.parametrize("name", _command_names())
@pytest.mark.parametrize("args", [("--help",), ("-V",), ("--no-such-option",)])
def test_a_command_built_alone_behaves_as_in_the_whole_app(cli, name: str, args: tuple[str, ...]) -> None:
    """`rulesref ask ...` builds only `ask`; a leading root option builds every command.
    Help, version and usage errors must not tell the two apart."""
    alone = cli(name, *args)
    whole = cli("--color", "never", name, *args)
    assert (alone.code, alone.out, alone.err) == (whole.code, whole.out, whole.err)
    assert alone.out or alone.err
