"""Every clause and reading names the source lines it rests on (`source:`), checked by the
shared tool trace-check against the shared sources."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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
    schema = json.loads((ROOT / "docs" / "schema" / name).read_text(encoding="utf-8"))
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
