"""The JSON of `ask` and `check` holds to its documented contract (docs/json.md), checked
against the JSON Schemas in docs/json-schema on real output: hits, misses, refusals,
rulings of every shipped scenario, and unreadable files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "json-schema"


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _assert_valid(name: str, data: object) -> None:
    errors = list(_validator(name).iter_errors(data))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_the_contract_names_every_documented_schema() -> None:
    doc = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    for path in SCHEMAS.glob("*.json"):
        assert f"json-schema/{path.name}" in doc, path.name


ASKS = {
    "hit": ("can the DA pawn go thru a wall",),
    "hit-one-game": ("does evading count as defeating", "--game", "pacg"),
    "misreading": ("dark arts pawns ignore walls because they ignore obstacles, right?",),
    "open-question": ("is there a hand limit",),
    "miss": ("purple elephants dancing on saturn",),
    "refusal": ("how many players can play",),
    "another-game": ("is there a hand limit in chess",),
    "no-words": ("the and of",),
}


@pytest.mark.parametrize("args", ASKS.values(), ids=ASKS.keys())
def test_ask_json_matches_its_schema(cli, args: tuple[str, ...]) -> None:
    r = cli("ask", *args, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    _assert_valid("ask.schema.json", data)
    assert data["schema_version"] == 1


def test_a_hit_and_a_miss_have_the_same_keys(cli) -> None:
    hit = json.loads(cli("ask", "can the DA pawn go thru a wall", "--json").out)
    miss = json.loads(cli("ask", "purple elephants dancing on saturn", "--json").out)
    assert hit["results"] and not miss["results"]
    assert set(hit) == set(miss)
    assert hit["message"] is None and hit["suggestions"] == []
    assert all(set(s) >= {"id", "title"} for s in miss["suggestions"])


def test_every_result_says_its_kind_and_see(cli) -> None:
    data = json.loads(cli("ask", "is there a hand limit", "--json", "-n", "5").out)
    kinds = {r["id"]: r["kind"] for r in data["results"]}
    assert kinds.get("open.hand-limit") == "open", kinds
    shown = json.loads(cli("show", data["results"][0]["id"], "--json").out)
    assert data["results"][0]["see"] == [s["id"] for s in shown["see"]]


def test_every_shipped_ruling_matches_the_check_schema(cli) -> None:
    r = cli("check", "scenarios", "--json")
    assert r.code == 0, r.err
    entries = json.loads(r.out)
    assert len(entries) > 100
    _assert_valid("check.schema.json", entries)
    assert all(e["error"] is None for e in entries)


def test_unreadable_files_are_entries_with_an_error_object(cli, tmp_path: Path) -> None:
    good = ROOT / "scenarios" / "pacg" / "after-encounter-effect-without-move.yaml"
    dup = tmp_path / "dup.yaml"
    dup.write_text("game: pacg\ntitle: x\ntitle: y\n", encoding="utf-8")
    bad_key = tmp_path / "key.yaml"
    bad_key.write_text(good.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    missing = tmp_path / "missing.yaml"
    r = cli("check", str(dup), str(good), str(missing), str(bad_key), "--json")
    assert r.code == 2
    entries = json.loads(r.out)
    _assert_valid("check.schema.json", entries)
    assert [e["file"] for e in entries] == [str(dup), str(good), str(missing), str(bad_key)]
    first, ruled, gone, unknown = entries
    assert first["error"] == {
        "file": str(dup),
        "line": 3,
        "column": 1,
        "field": "title",
        "message": "duplicate key 'title'",
    }
    assert ruled["error"] is None and ruled["verdict"] == "legal"
    assert gone["error"]["message"] == "no such file or folder" and gone["error"]["line"] is None
    assert unknown["error"]["field"] == "colour" and unknown["error"]["line"] is not None
    # the same errors, one line each, on standard error
    assert r.err.count("\n") == 3 and r.err.startswith(f"Error: {dup}:3:1: title: duplicate key 'title'")


def test_a_scenario_from_stdin_is_named_stdin(tmp_path: Path) -> None:
    import subprocess
    import sys

    good = ROOT / "scenarios" / "pacg" / "after-encounter-effect-without-move.yaml"
    r = subprocess.run(
        [sys.executable, "-m", "rulesref", "check", "-", "--json"],
        input=good.read_bytes(),
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    entries = json.loads(r.stdout)
    _assert_valid("check.schema.json", entries)
    assert entries[0]["file"] == "<stdin>" and entries[0]["verdict"] == "legal"
