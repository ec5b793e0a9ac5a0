"""What `pip install .` puts in the package: templates, examples, JSON Schemas, scenario docs.

A pip user has no checkout, so `rulesref new`, `schema`, `examples` and the docs they point
to must come from the installed package. Checked two ways: as package resources
(importlib.resources, always), and by building the wheel, unpacking it outside the
checkout and running `new` then `check` from another folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

from rulesref import templates

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = files("rulesref")


@pytest.mark.parametrize("topic", [t.name for t in templates.TOPICS])
def test_template_is_package_data(topic: str) -> None:
    assert PACKAGE.joinpath("templates", f"{topic}.yaml").is_file()


@pytest.mark.parametrize("game", ["houses-vs-dark-arts", "pacg"])
def test_scenario_schema_is_package_data(game: str) -> None:
    assert PACKAGE.joinpath("schemas", f"{game}.schema.json").is_file()


def test_every_schema_the_docs_name_is_package_data() -> None:
    for name in ("game", "clauses", "glossary", "readings", "houses-vs-dark-arts-turns"):
        assert PACKAGE.joinpath("schemas", f"{name}.schema.json").is_file()


def test_examples_are_package_data() -> None:
    shipped = sorted(p.name for p in PACKAGE.joinpath("examples").iterdir() if p.name.endswith(".yaml"))
    assert shipped == sorted(e.file.name for e in templates.examples())
    assert len(shipped) >= len({t.game for t in templates.TOPICS})


def test_wheel_build_puts_the_scenario_docs_in_the_package() -> None:
    """The docs live at the top of the repository: the wheel build copies them in."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["docs/scenarios.md"] == "rulesref/docs/scenarios.md"
    assert include["docs/scenarios"] == "rulesref/docs/scenarios"
    for page in ("houses-vs-dark-arts.md", "houses-vs-dark-arts-turns.md", "pacg.md"):
        assert (ROOT / "docs" / "scenarios" / page).is_file()


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` builds, unpacked as an install would lay it out (pure Python)."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if built.returncode != 0:  # the build backend comes from the package index
        pytest.skip(f"pip could not build the wheel here: {built.stderr.strip().splitlines()[-1:]}")
    [wheel] = out.glob("rulesref-*.whl")
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site


def _rulesref(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # the unpacked wheel first on the path, so the checkout's rulesref is not the one run
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("RULESREF_RULES", None)
    return subprocess.run(
        [sys.executable, "-m", "rulesref", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_installed_wheel_writes_and_checks_a_template_from_another_folder(unpacked_wheel: Path, tmp_path: Path) -> None:
    table = tmp_path / "table"
    table.mkdir()
    where = subprocess.run(
        [sys.executable, "-c", "import rulesref; print(rulesref.__file__)"],
        cwd=table,
        env={**os.environ, "PYTHONPATH": str(unpacked_wheel)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(unpacked_wheel), "the checkout's rulesref was imported"

    written = _rulesref(unpacked_wheel, table, "new", "move", "-o", "x.yaml")
    assert written.returncode == 0, written.stderr
    schema = Path((table / "x.yaml").read_text().partition("\n")[0].removeprefix(templates.MODELINE))
    assert schema.is_file() and schema.is_relative_to(unpacked_wheel)

    ruled = _rulesref(unpacked_wheel, table, "check", "x.yaml")
    assert ruled.returncode == 0, ruled.stderr
    assert "ILLEGAL" in ruled.stdout


def test_installed_wheel_has_examples_schemas_and_docs(unpacked_wheel: Path, tmp_path: Path) -> None:
    listed = _rulesref(unpacked_wheel, tmp_path, "examples")
    assert listed.returncode == 0, listed.stderr
    docs = Path(listed.stdout.splitlines()[-1].removeprefix("The scenario format: "))
    assert docs.is_file() and docs.is_relative_to(unpacked_wheel)
    assert (docs.parent / "scenarios" / "pacg.md").is_file()

    name = listed.stdout.split()[0]
    ruled = _rulesref(unpacked_wheel, tmp_path, "check", "--example", name)
    assert ruled.returncode == 0, ruled.stderr

    schema = _rulesref(unpacked_wheel, tmp_path, "schema", "pacg")
    assert schema.returncode == 0 and '"$id": "pacg.schema.json"' in schema.stdout
