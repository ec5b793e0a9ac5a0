"""Every clause and reading names the source lines it rests on (`source:`), checked by the
shared tool trace-check against the shared sources."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WALLS = "board-wall-house.yaml"
"""A shipped scenario whose ruling cites move.walls."""
TRACE_CHECK = Path(__file__).parents[1] / ".." / "shared" / "tools" / "trace-check"


def test_every_clause_and_reading_traces_to_the_shared_sources() -> None:
    # this includes: no rule clause rests only on community [C] or first-edition [Old] facts
    if not TRACE_CHECK.is_file():
        pytest.skip(f"trace-check is not beside this clone (looked for {TRACE_CHECK})")
    # run with this interpreter: it has PyYAML, whatever `python3` on the PATH has
    result = subprocess.run([sys.executable, str(TRACE_CHECK), str(ROOT)], capture_output=True, text=True, check=False)
    lines = result.stdout.splitlines()
    assert lines, result.stderr
    assert lines[-1].startswith("trace-check: "), result.stdout + result.stderr
    assert lines[:-1] == []
    assert result.returncode == 0, result.stdout + result.stderr


def _source_schema(name: str) -> dict[str, object]:
    schema = json.loads((ROOT / "rulesref" / "schemas" / name).read_text(encoding="utf-8"))
    source: dict[str, object] = schema["items"]["properties"]["source"]
    return source


@pytest.mark.parametrize("name", ["clauses.schema.json", "readings.schema.json"])
def test_the_schemas_take_source_as_a_string_or_a_list_of_strings(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    check = jsonschema.Draft202012Validator(_source_schema(name)).is_valid
    assert check("000:9")
    assert check(["000:9", "hvda:rule 10", "pacg:2.2 [R]"])
    assert not check([])
    assert not check(9)
    assert not check(["000:9", 9])
    assert not check("")


def test_lint_wants_a_well_formed_trace_on_every_clause_and_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli
) -> None:
    import shutil

    from rulesref import lookup
    from rulesref.games import all_games

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    walls = rules / "houses-vs-dark-arts" / "board.yaml"
    text = walls.read_text(encoding="utf-8")
    start = text.index("- id: move.walls")
    line = text.index("  source:", start)
    end = text.index("\n", line)
    walls.write_text(text[:line] + "  source: [the rulebook, somewhere]" + text[end:], encoding="utf-8")
    readings = rules / "pacg" / "readings.yaml"
    kept = [ln for ln in readings.read_text(encoding="utf-8").splitlines(keepends=True)]
    first = next(i for i, ln in enumerate(kept) if ln.startswith("  source:"))
    readings.write_text("".join(kept[:first] + kept[first + 1 :]), encoding="utf-8")
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # no scenarios/ here: lint checks the packs alone
    lookup._loaded.clear()
    all_games.cache_clear()
    try:
        r = cli("lint")
    finally:
        all_games.cache_clear()
    assert r.code == 1
    assert "move.walls: source 'the rulebook' is not a reference" in r.out
    assert "somewhere" in r.out
    assert ": no source: (the lines of the shared sources it rests on)" in r.out


def test_lint_lists_a_rule_step_citing_an_open_question(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that gave an open question as settled (a rule step citing it) is caught."""
    import shutil

    from rulesref import lint as lint_mod
    from rulesref.ruling import Trail

    folder = tmp_path / "scenarios" / "houses-vs-dark-arts"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "scenarios" / "houses-vs-dark-arts" / WALLS, folder / WALLS)
    real = Trail.rule

    def careless(self: Trail, clause: str, says: str) -> None:
        real(self, "open.pass-through" if clause == "move.walls" else clause, says)

    monkeypatch.setattr(Trail, "rule", careless)
    from rulesref.games import all_games

    game = next(g for g in all_games() if g.id == "houses-vs-dark-arts")
    problems = lint_mod.coverage(game, folder)
    assert any("is a rule step citing open.pass-through, an open question" in p for p in problems), problems
