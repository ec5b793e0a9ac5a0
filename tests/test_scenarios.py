"""Every scenario file is a test case: its ruling must meet its own ``expect`` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.referee import check_file

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT / "scenarios")) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    ruling = check_file(path)
    assert ruling.expect is not None, f"{path.name} has no expect block: a scenario must say what it tests"
    assert "verdict" in (ruling.expect and _expect_keys(path)), f"{path.name}: expect must name the verdict"
    assert ruling.expect.ok, (
        f"{path.name}: {'; '.join(ruling.expect.mismatches)}\n"
        f"verdict={ruling.verdict.value} summary={ruling.summary!r}\n"
        + "\n".join(f"  {s.clause}: {s.says}" for s in ruling.steps)
    )
    assert ruling.steps, f"{path.name}: a ruling must cite at least one clause"


def _expect_keys(path: Path) -> set[str]:
    from rulesref.source import load_yaml

    return set(load_yaml(path).data.get("expect") or {})
