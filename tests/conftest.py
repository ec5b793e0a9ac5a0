"""Shared fixtures: run the real CLI entry point in-process and capture what it prints."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def _private_index_cache(tmp_path_factory: pytest.TempPathFactory):
    """Tests keep `ask`'s index cache in a temp folder, never in the user's ~/.cache."""
    import os
    import tempfile

    # a default game set in the developer's shell would change every answer: tests set their own
    default_game = os.environ.pop("RULESREF_GAME", None)
    # and so would their config file (its game and colour): no config file unless a test names one
    old_config = os.environ.get("RULESREF_CONFIG")
    os.environ["RULESREF_CONFIG"] = ""
    old = os.environ.get("RULESREF_CACHE")
    os.environ["RULESREF_CACHE"] = str(tmp_path_factory.mktemp("index-cache"))
    # the cache's fallback folder (when its own cannot be written) is under the temp folder:
    # a test's, not the machine's /tmp
    old_tmp, tempfile.tempdir = tempfile.tempdir, str(tmp_path_factory.mktemp("tmp"))
    yield
    tempfile.tempdir = old_tmp
    if default_game is not None:
        os.environ["RULESREF_GAME"] = default_game
    if old_config is None:
        os.environ.pop("RULESREF_CONFIG", None)
    else:
        os.environ["RULESREF_CONFIG"] = old_config
    if old is None:
        os.environ.pop("RULESREF_CACHE", None)
    else:
        os.environ["RULESREF_CACHE"] = old


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """``cli("ask", "...")`` -> Result(code, out, err), through rulesref.cli.run."""
    from rulesref.cli import run

    monkeypatch.setenv("COLUMNS", "100")

    def invoke(*args: str) -> Result:
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return Result(int(code), captured.out, captured.err)

    return invoke
