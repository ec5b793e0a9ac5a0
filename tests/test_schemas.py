"""The documented JSON Schemas (rulesref/schemas) accept every shipped rule file and scenario."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.source import load_yaml

jsonschema = pytest.importorskip("jsonschema")
from referencing import Registry, Resource  # noqa: E402  (installed with jsonschema)

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "rulesref" / "schemas"


def _registry() -> Registry:
    resources = []
    for path in SCHEMAS.glob("*.json"):
        resources.append((path.name, Resource.from_contents(json.loads(path.read_text()))))
    return Registry().with_resources(resources)


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text())
    return jsonschema.Draft202012Validator(schema, registry=_registry())


def _schema_for(path: Path) -> str:
    if path.name == "game.yaml":
        return "game.schema.json"
    if path.name == "glossary.yaml":
        return "glossary.schema.json"
    if path.name.startswith("readings"):
        return "readings.schema.json"
    return "clauses.schema.json"


RULE_FILES = sorted((ROOT / "rules").rglob("*.yaml"))


@pytest.mark.parametrize("path", RULE_FILES, ids=[str(p.relative_to(ROOT)) for p in RULE_FILES])
def test_rule_file_matches_schema(path: Path) -> None:
    errors = list(_validator(_schema_for(path)).iter_errors(load_yaml(path).data))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


SCENARIO_FILES = sorted((ROOT / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[str(p.relative_to(ROOT)) for p in SCENARIO_FILES])
def test_scenario_matches_schema(path: Path) -> None:
    game = path.parent.name
    schema = SCHEMAS / f"{game}.schema.json"
    if not schema.exists():
        pytest.fail(f"no JSON Schema documented for {game} scenarios ({schema.name})")
    errors = list(_validator(schema.name).iter_errors(load_yaml(path).data))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
