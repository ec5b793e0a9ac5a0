"""The JSON Schemas in rulesref/schemas and the code cannot drift apart (issue 13, item 2).

Every shipped scenario must validate against its game's schema. Every row of the bad-input
table (tests/test_bad_inputs.py, read, not changed) that the code refuses for a file's
content must be refused by the schema too, at the field the code names, unless the row is
listed below with the reason the schema cannot judge it. The list is exact: a listed row the
schema starts refusing must leave the list.

Two kinds of row never reach a schema, found by what they are rather than listed: rows with
no file content to read (command lines, missing files, folders, links, pipes), and rows whose
text the YAML reader refuses (bytes, syntax, duplicate keys, aliases, tags, limits): a schema
judges data, and these never become data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesref.errors import RulesrefError
from rulesref.games import all_games
from rulesref.source import PathKey, decode, field_name, load_yaml

jsonschema = pytest.importorskip("jsonschema")
from referencing import Registry, Resource  # noqa: E402  (installed with jsonschema)
from test_bad_inputs import CASES, HVDA, PACG, Bad, _write  # noqa: E402  (the table, as its file defines it)

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "rulesref" / "schemas"
GAME_SCHEMAS = {"houses-vs-dark-arts": "houses-vs-dark-arts.schema.json", "pacg": "pacg.schema.json"}

CROSS_REFERENCE = "names something defined elsewhere (the board, the pawns, the rule packs): a schema sees one file"
NOT_JUDGED = {
    # which games exist is for the installed rule packs to say (RULESREF_RULES can add one)
    "unknown-game": "a game id is looked up among the installed rule packs, which a schema does not list",
    "near-miss-game": "a game id is looked up among the installed rule packs, which a schema does not list",
    "near-miss-reading": "reading ids are defined in the game's readings files: " + CROSS_REFERENCE,
    "unknown-reading-option": "a reading's options are defined in the game's readings files: " + CROSS_REFERENCE,
    "unknown-expected-clause": "clause ids are defined in the game's clause files: " + CROSS_REFERENCE,
    "hvda-unknown-space": "a space must be on the board the same file describes: " + CROSS_REFERENCE,
    "hvda-unknown-pawn": "a move's pawn must be one of the file's pawns: " + CROSS_REFERENCE,
    "hvda-misspelt-house": "without houses: any house name is taken, but a near miss of a known house is a typo: "
    "a judgement of closeness, not of form",
    "hvda-house-turn-of-no-house": "turn.house may be left out when the houses: list or the pawns name one house: "
    + CROSS_REFERENCE,
    "pacg-near-miss-character": "the result's character must be the one encountering or a local one: "
    + CROSS_REFERENCE,
    "pacg-check-line-dangling-or": "the check line's grammar ('or' binds tighter than 'then', a near-miss skill is "
    "a typo) is the check parser's; the schema holds it as text",
}


def _registry() -> Registry:
    resources = [(p.name, Resource.from_contents(json.loads(p.read_text()))) for p in SCHEMAS.glob("*.json")]
    return Registry().with_resources(resources)


REGISTRY = _registry()


def _validator(name: str) -> Any:
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / name).read_text()), registry=REGISTRY)


def _schemas_for(file: str, data: Any) -> list[str]:
    """The schemas a file is read against: by its name in a rule pack, by its game in a scenario."""
    if file.startswith("rules/"):
        name = Path(file).name
        if name == "game.yaml":
            return ["game.schema.json"]
        if name == "glossary.yaml":
            return ["glossary.schema.json"]
        return ["readings.schema.json" if name.startswith("readings") else "clauses.schema.json"]
    game = data.get("game") if isinstance(data, dict) else None
    if isinstance(game, str) and game in GAME_SCHEMAS:
        return [GAME_SCHEMAS[game]]
    return list(GAME_SCHEMAS.values())  # no game named: a scenario of any game will do


def _error_paths(errors: Any) -> Iterator[PathKey]:
    """Where each schema error stands, the errors inside oneOf/anyOf included; an unexpected key
    stands at the key itself (jsonschema puts it at the mapping that holds it)."""
    for error in errors:
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            yield from ((*path, key) for key in error.instance if key not in allowed)
        else:
            yield path
        yield from _error_paths(error.context or ())


def _related(schema_field: str, code_field: str) -> bool:
    """The same field, or one inside the other; the top of the document only matches itself."""
    if not schema_field or not code_field:
        return schema_field == code_field
    short, long = sorted((schema_field, code_field), key=len)
    return long == short or long.startswith((short + ".", short + "["))


def _refused_at(file: str, data: Any, code_field: str) -> bool:
    """Whether every schema the file could be read against refuses it at the field the code names."""
    for schema in _schemas_for(file, data):
        fields = {field_name(p) for p in _error_paths(_validator(schema).iter_errors(data))}
        if not any(_related(f, code_field) for f in fields):
            return False
    return True


# the CLI's one-line error: "Error: FILE:LINE:COL: FIELD: message" (FIELD and the position may be left out)
_ERROR = re.compile(r"^Error: (?P<file>.+?)(?::\d+(?::\d+)?)?: (?P<rest>.*)$")


def _code_error(case: Bad, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The file the code refuses and the field it names ('' for none), from running the row."""
    _write(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value)
    all_games.cache_clear()
    try:
        r = cli(*case.args)
    finally:
        all_games.cache_clear()
    assert r.code == 2, r.err
    line = r.err.splitlines()[0]
    match = _ERROR.match(line)
    assert match, line
    file = next((name for name in case.files if match["file"] == name), match["file"])
    first, colon, _ = match["rest"].partition(": ")
    return file, first if colon and " " not in first else ""


def _content(case: Bad, file: str) -> str | None:
    """The text of ``file`` as the row writes it; None when the row writes no content there."""
    raw = case.files.get(file)
    if raw is None or (isinstance(raw, str) and raw.startswith(("->", "|"))) or file.endswith("/"):
        return None
    return raw if isinstance(raw, str) else decode(raw, name=file)


def _verdict(case: Bad, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    try:
        if all(_content(case, name) is None for name in case.files):
            return "no file content"
        file, code_field = _code_error(case, cli, tmp_path, monkeypatch)
        text = _content(case, file)
        if text is None:
            return "no file content"
        data = load_yaml(Path(file), text=text).data
    except RulesrefError:
        return "refused by the YAML reader"
    return "refused by the schema" if _refused_at(file, data, code_field) else "accepted by the schema"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_input_the_code_refuses_the_schema_refuses(
    case: Bad, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = _verdict(case, cli, tmp_path, monkeypatch)
    if case.name in NOT_JUDGED:
        assert verdict == "accepted by the schema", f"{case.name} is listed as one the schema cannot judge"
    else:
        assert verdict != "accepted by the schema", f"the code refuses {case.name}, the schema does not"


def test_every_listed_row_is_in_the_table() -> None:
    assert set(NOT_JUDGED) <= {c.name for c in CASES}
    assert all(reason.strip() for reason in NOT_JUDGED.values())


@pytest.mark.parametrize(("game", "text"), [("houses-vs-dark-arts", HVDA), ("pacg", PACG)])
def test_the_tables_base_situations_validate(game: str, text: str) -> None:
    """The rows change one thing in these; a schema error in a row is then that row's."""
    errors = list(_validator(GAME_SCHEMAS[game]).iter_errors(load_yaml(Path("s.yaml"), text=text).data))
    assert not errors, [e.message for e in errors]


SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_shipped_scenario_validates(path: Path) -> None:
    data = load_yaml(path).data
    schemas = _schemas_for(str(path.relative_to(ROOT)), data)
    assert schemas == [GAME_SCHEMAS[path.parent.name]], "a shipped scenario names its own game"
    errors = list(_validator(schemas[0]).iter_errors(data))
    assert not errors, "\n".join(f"{field_name(tuple(e.absolute_path))}: {e.message}" for e in errors)
