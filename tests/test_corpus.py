"""The corpus loader: malformed rule packs fail with file, line and field; lint lists cross-check problems."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesref.games import all_games

ROOT = Path(__file__).resolve().parent.parent

GAME = """\
id: toy
title: Toy Game
aliases: [toy-game]
pages: [1, 9]
sources: [made up for a test]
"""
CLAUSES = """\
- id: move.walls
  title: Walls block
  text: A wall blocks movement.
  pages: [2]
  source: '000:2'
  see: [move.doors]
- id: move.doors
  title: Doors open
  text: A door may be opened.
  pages: [3]
  source: ['000:3']
  misreadings:
    - claim: doors are walls
      correction: they are not
"""


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A one-game rule pack in a temp folder, used by rulesref through RULESREF_RULES."""
    folder = tmp_path / "rules" / "toy"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "moves.yaml").write_text(CLAUSES)
    monkeypatch.setenv("RULESREF_RULES", str(tmp_path / "rules"))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    all_games.cache_clear()
    yield folder
    all_games.cache_clear()


def test_toy_pack_loads_and_lints_clean(pack: Path, cli) -> None:
    r = cli("show", "move.doors", "--json")
    assert r.code == 0, r.err
    assert cli("lint").code == 0


BAD = [
    (
        "moves.yaml",
        "- id: move.walls\n  title: x\n  text: y\n  pages: [2]\n  colour: red\n",
        "rules/toy/moves.yaml:5:3: [0].colour: unknown key 'colour'",
    ),
    (
        "moves.yaml",
        "- id: move.walls\n  title: x\n  text: y\n",
        "rules/toy/moves.yaml:1:3: [0]: missing required key 'pages'",
    ),
    (
        "moves.yaml",
        "- id: move.walls\n  title: x\n  text: ''\n  pages: [2]\n",
        "rules/toy/moves.yaml:3:9: [0].text: expected non-empty text, got text",
    ),
    (
        "moves.yaml",
        "- id: move.walls\n  title: x\n  text: y\n  pages: [two]\n",
        "rules/toy/moves.yaml:4:11: [0].pages[0]: expected a page number, got 'two'",
    ),
    (
        "moves.yaml",
        "- id: Move Walls\n  title: x\n  text: y\n  pages: [2]\n",
        "rules/toy/moves.yaml:1:7: [0].id: clause id 'Move Walls' is not of the form topic.name",
    ),
    (
        "moves.yaml",
        "- id: move.walls\n  title: x\n  title: z\n  text: y\n  pages: [2]\n",
        "rules/toy/moves.yaml:3:3: [0].title: duplicate key 'title'",
    ),
    (
        "moves.yaml",
        "- id: move.walls\n\ttitle: x\n",
        "rules/toy/moves.yaml:2:1: not valid YAML: a tab is used for indentation; YAML needs spaces",
    ),
    ("moves.yaml", "id: move.walls\n", "rules/toy/moves.yaml:1:1: a clause file must be a list of clauses"),
    ("moves.yaml", "", "rules/toy/moves.yaml: file is empty"),
    (
        "game.yaml",
        "id: toy\ntitle: Toy\npages: [9, 1]\nsources: [x]\n",
        "rules/toy/game.yaml:3:8: pages: expected [first, last] printed page",
    ),
    (
        "glossary.yaml",
        "- term: wall\n  synonym: [barrier]\n",
        "rules/toy/glossary.yaml:2:3: [0].synonym: unknown key 'synonym'; did you mean 'synonyms'?",
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD, ids=[m.split(": ", 1)[1][:40] for _, _, m in BAD])
def test_malformed_pack_is_one_clear_line(pack: Path, cli, name: str, text: str, message: str) -> None:
    (pack / name).write_text(text)
    r = cli("games")
    assert r.code == 2
    assert r.out == ""
    assert r.err.startswith(f"Error: {message}"), r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err


def test_binary_file(pack: Path, cli) -> None:
    (pack / "moves.yaml").write_bytes(b"\x00\x01\x02")
    r = cli("games")
    assert (r.code, r.err) == (2, "Error: rules/toy/moves.yaml:1:1: binary file, not YAML text (a NUL byte)\n")


def test_not_utf8(pack: Path, cli) -> None:
    (pack / "moves.yaml").write_bytes("- id: move.walls\n  title: caf\u00e9\n".encode("latin-1"))
    r = cli("games")
    expected = "Error: rules/toy/moves.yaml:2:13: file is not UTF-8 text (byte 0xe9); save it as UTF-8\n"
    assert (r.code, r.err) == (2, expected)


LINT = [
    (
        CLAUSES.replace("see: [move.doors]", "see: [move.door]"),
        "rules/toy/moves.yaml:1: move.walls: see 'move.door' does not resolve; did you mean 'move.doors'?",
    ),
    (
        CLAUSES.replace("pages: [3]", "pages: [30]"),
        "rules/toy/moves.yaml:7: move.doors: page 30 is outside the rulebook range 1-9",
    ),
    (
        CLAUSES.replace("id: move.doors", "id: move.walls").replace("see: [move.doors]", "see: []"),
        "rules/toy/moves.yaml:7: id 'move.walls' already used at rules/toy/moves.yaml:1",
    ),
]


@pytest.mark.parametrize(("text", "problem"), LINT, ids=["see", "page-range", "duplicate-id"])
def test_lint_lists_cross_check_problems(pack: Path, cli, text: str, problem: str) -> None:
    (pack / "moves.yaml").write_text(text)
    r = cli("lint")
    assert r.code == 1
    assert problem in r.out.splitlines(), r.out


def test_lint_checks_readings_point_at_open_clauses(pack: Path, cli) -> None:
    (pack / "readings.yaml").write_text(
        "- id: doors\n  question: May a door be closed again?\n  open: move.doors\n"
        "  options: {yes: it may, no: it may not}\n"
    )
    r = cli("lint")
    assert r.code == 1
    assert "reading doors: 'move.doors' is not an open question (kind: open)" in r.out


def test_shipped_packs_have_no_problems() -> None:
    all_games.cache_clear()
    for game in all_games():
        assert game.problems == [], game.problems


def test_installed_layout_finds_rules_inside_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel puts rules/ inside rulesref/; rules_root must prefer that copy."""
    import rulesref.clause as clause

    fake_pkg = tmp_path / "rulesref"
    shutil.copytree(ROOT / "rules", fake_pkg / "rules")
    monkeypatch.delenv("RULESREF_RULES", raising=False)
    monkeypatch.setattr(clause, "__file__", str(fake_pkg / "clause.py"))
    assert clause.rules_root() == fake_pkg / "rules"
