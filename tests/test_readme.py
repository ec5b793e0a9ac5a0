"""The README's examples run as written (python-chess executes its README in CI too)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _commands() -> list[str]:
    lines = [line.strip() for block in _blocks("sh") for line in block.splitlines()]
    return [line for line in lines if line.startswith("rulesref ")]


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder like a player's: the README's dispute.yaml, and the shipped scenarios."""
    dispute = next(b for b in _blocks("yaml") if b.startswith("game:"))
    (tmp_path / "dispute.yaml").write_text(dispute)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command", _commands())
def test_readme_command_runs(cli, table: Path, command: str) -> None:
    r = cli(*shlex.split(command)[1:])
    assert r.code == 0, f"{command}\n{r.err}"
    assert r.out


def test_readme_dispute_settles_the_claims(cli, table: Path) -> None:
    ruling = json.loads(cli("check", "dispute.yaml", "--json").out)[0]
    assert ruling["verdict"] == "illegal"
    assert {c["by"]: c["upheld"] for c in ruling["claims"]} == {"Sam": False, "Alex": True}
    assert 16 in ruling["pages"]
