"""Text from files never acts on the terminal; widths, pipes and streams end the documented way.

Everything shown comes from something rulesref read: a file name, a scenario's title, a
clause in a rule pack, an argument. Each is shown through one function
(rulesref.text.visible) inside rich Text, so markup is printed as spelt and a control
character (ESC, NUL, C1, a bidi override) is printed as an escape. Streams are tested on
the real program in a subprocess: a pipe whose reader has already gone, /dev/full, an
ASCII-only encoding. Nothing here waits on timing: a closed pipe is closed before the
program starts, and the one "reader leaves early" case writes far more than a pipe holds.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesref.cli import Exit
from rulesref.text import visible

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "scenarios" / "pacg" / "after-encounter-effect-without-move.yaml"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0  # chmod 000 does not stop root
HAS_DEV_FULL = Path("/dev/full").exists()

# A character a terminal would act on: every control but the newline, and the bidi controls.
ACTIVE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _assert_inert(*texts: str) -> None:
    for text in texts:
        found = ACTIVE.search(text)
        assert found is None, f"{found.group()!r} reached the terminal in {text[:300]!r}"


def _rulesref(
    *args: str | bytes,
    env: dict[str, str] | None = None,
    stdout: Any = subprocess.PIPE,
    stderr: Any = subprocess.PIPE,
    cwd: Path = ROOT,
) -> subprocess.CompletedProcess[bytes]:
    """The real program, its output as bytes (what a terminal would receive)."""
    return subprocess.run(
        [sys.executable, "-m", "rulesref", *args],
        stdout=stdout,
        stderr=stderr,
        timeout=120,
        env={**os.environ, "COLUMNS": "100", **(env or {})},
        cwd=cwd,
    )


# --- the escaping function ----------------------------------------------------------

VISIBLE = [
    ("plain words", "Castle walls are never a route", "Castle walls are never a route"),
    ("markup is rich's business", "[bold]x[/] [link=http://x]", "[bold]x[/] [link=http://x]"),
    ("CSI clear screen", "a\x1b[2Jb", "a\\x1b[2Jb"),
    ("OSC window title", "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
    ("OSC 8 hyperlink", "\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\", "\\x1b]8;;http://x\\x1b\\click\\x1b]8;;\\x1b\\"),
    ("NUL and DEL", "a\x00b\x7f", "a\\x00b\\x7f"),
    ("C1 CSI and NEL", "a\x9b2Jb\x85", "a\\x9b2Jb\\x85"),
    ("line breaks and tab", "a\nb\r\tc", "a\\nb\\r\\tc"),
    ("right-to-left override", "abc\u202etxt.exe", "abc\\u202etxt.exe"),
    (
        "bidi isolates and marks",
        "\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
        "\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c",
    ),
    ("line separators", "a\u2028b\u2029", "a\\u2028b\\u2029"),
    ("a file name byte that was not UTF-8", os.fsdecode(b"x\xff.yaml"), "x\\xff.yaml"),
    ("other text is kept", "pp. 7, 8 · Lem’s “Cure” — 棋子 🧙", "pp. 7, 8 · Lem’s “Cure” — 棋子 🧙"),
]


@pytest.mark.parametrize(("text", "shown"), [(t, s) for _, t, s in VISIBLE], ids=[n for n, _, _ in VISIBLE])
def test_visible_shows_each_control_as_an_escape(text: str, shown: str) -> None:
    assert visible(text) == shown
    _assert_inert(visible(text))


def test_visible_keeps_only_the_characters_asked_for() -> None:
    assert visible("a\nb\x1b", keep="\n") == "a\nb\\x1b"


def test_error_lines_use_the_same_escapes() -> None:
    from rulesref.errors import ScenarioError

    line = str(ScenarioError("no such file or folder", file="a\nb\x1b]0;t\x07\u202e.yaml"))
    assert line == "a\\nb\\x1b]0;t\\x07\\u202e.yaml: no such file or folder"


# --- hostile file names -------------------------------------------------------------

HOSTILE_NAMES = {
    "open-bracket": "[.yaml",
    "close-bracket": "].yaml",
    "bold-tag": "x[bold].yaml",
    "link-tag": "[link=https:x]y.yaml",  # no '/': a file name cannot hold one ('[/]' is below)
    "csi-clear": "\x1b[2J.yaml",
    "osc-title": "\x1b]0;pwned\x07.yaml",
    "osc8-link": "\x1b]8;;https:x\x1b\\y\x1b]8;;\x1b\\.yaml",
    "c1-csi": "\x9b2J.yaml",
    "delete": "a\x7fb.yaml",
    "rtl-override": "a\u202elmy.yaml",
    "newline": "a\nb.yaml",
    "carriage-return": "a\rb.yaml",
}


@pytest.mark.parametrize("mode", ["--full", "--brief", "--json"])
@pytest.mark.parametrize("name", list(HOSTILE_NAMES.values()), ids=list(HOSTILE_NAMES))
def test_a_hostile_file_name_is_shown_never_obeyed(cli, tmp_path: Path, monkeypatch, name: str, mode: str) -> None:
    """A good scenario under an odd name is ruled, and its name printed as spelt (controls escaped)."""
    (tmp_path / name).write_bytes(GOOD.read_bytes())
    monkeypatch.chdir(tmp_path)  # a short relative name: no line wrap, whatever the temp path
    r = cli("check", mode, name)
    assert (r.code, r.err) == (0, "")
    _assert_inert(r.out)
    if mode == "--json":
        assert json.loads(r.out)[0]["file"] == name
    else:
        assert visible(name) in r.out


def test_a_name_like_closing_markup_in_a_folder_is_ruled(cli, tmp_path: Path, monkeypatch) -> None:
    """`[/].yaml`: a folder '[' holding '].yaml' once crashed rich's markup parser (exit 3)."""
    (tmp_path / "[").mkdir()
    (tmp_path / "[" / "].yaml").write_bytes(GOOD.read_bytes())
    monkeypatch.chdir(tmp_path)
    for args in (("check", "[/].yaml"), ("check", "--brief", "[")):
        r = cli(*args)
        assert (r.code, r.err) == (0, ""), args
        assert "[/].yaml" in r.out


@pytest.mark.parametrize("name", list(HOSTILE_NAMES.values()), ids=list(HOSTILE_NAMES))
def test_a_hostile_missing_name_gets_an_escaped_error_line(cli, name: str) -> None:
    r = cli("check", name, str(GOOD))
    assert r.code == Exit.BAD_INPUT
    assert r.err == f"Error: {visible(name)}: no such file or folder\n"
    assert "LEGAL" in r.out  # the good file is still ruled
    _assert_inert(r.out, r.err)


def test_a_hostile_name_inside_a_bad_file_error(cli, tmp_path: Path, monkeypatch) -> None:
    name = "\x1b]0;t\x07[bold].yaml"
    (tmp_path / name).write_text("game: chess\ntitle: x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = cli("check", name)
    assert r.code == Exit.BAD_INPUT
    assert r.err.startswith("Error: \\x1b]0;t\\x07[bold].yaml:")
    _assert_inert(r.err)


# --- hostile titles, in files and in the values render is given ---------------------

HOSTILE_YAML = r'"\u202e[/] [bold]x [link=http://x]y\r\N end"'  # what a YAML file may still hold
HOSTILE_TEXT = "[/] [bold]x\x1b[2J\x1b]0;t\x07\x1b]8;;http://x\x1b\\y\x00\x9b\u202e\u2066 [link=http://x]z"


def _scenario(title: str = '"t"', card: str = "Quasit") -> str:
    text = GOOD.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^title: .*$", lambda _: f"title: {title}", text)
    return text.replace("name: Quasit", f"name: {card}")


def test_a_hostile_scenario_title_and_card_name(cli, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "s.yaml").write_text(_scenario(HOSTILE_YAML, card=HOSTILE_YAML), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for mode in ("--full", "--brief"):
        r = cli("check", mode, "s.yaml")
        assert (r.code, r.err) == (0, ""), r.err
        _assert_inert(r.out)
        assert "\\u202e[/] [bold]x [link=http://x]y\\r\\x85 end" in r.out
    r = cli("check", "--json", "s.yaml")
    assert json.loads(r.out)[0]["title"] == "\u202e[/] [bold]x [link=http://x]y\r\x85 end"
    assert r.out.isascii()


def _hostile(value: Any) -> Any:
    """``value`` (a dataclass or NamedTuple) with every text field set to HOSTILE_TEXT."""
    names = [f.name for f in dataclasses.fields(value)] if dataclasses.is_dataclass(value) else value._fields
    changed = {n: HOSTILE_TEXT for n in names if type(getattr(value, n)) is str}  # not a str enum
    if dataclasses.is_dataclass(value):
        return dataclasses.replace(value, **changed)  # type: ignore[type-var]
    return value._replace(**changed)


def test_render_shows_hostile_values_inert_in_every_view(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    """What YAML refuses (ESC, NUL) can still reach render another way: every view escapes it."""
    from rulesref import render
    from rulesref.games import find_game
    from rulesref.library import find_clause
    from rulesref.lookup import Answer, Hit
    from rulesref.referee import check_file

    monkeypatch.setenv("COLUMNS", "1000")  # one line each: the escaped text is never split
    ruling = check_file(GOOD)
    ruling = dataclasses.replace(_hostile(ruling), game=ruling.game)  # the engine that draws it
    ruling = dataclasses.replace(ruling, steps=tuple(_hostile(s) for s in ruling.steps))
    game, walls = find_clause("move.walls", None)
    clause = _hostile(walls)._replace(id=walls.id, game=walls.game, kind=walls.kind)
    myth = _hostile(game.misreadings[0])._replace(clause=game.misreadings[0].clause)
    reading = next(iter(game.readings.values()))
    reading = dataclasses.replace(_hostile(reading), id=HOSTILE_TEXT, game=reading.game)
    views = {
        "ruling": lambda: render.ruling(ruling),
        "brief": lambda: render.brief([ruling]),
        "clause": lambda: render.clause(game, clause),
        "answer": lambda: render.answer(Answer("q", None, (Hit(clause, 1.0, myth),))),
        "no-answer": lambda: render.answer(Answer("q", None, (), HOSTILE_TEXT, ((HOSTILE_TEXT, HOSTILE_TEXT),))),
        "page": lambda: render.page(16, [(game, clause)]),
        "myths": lambda: render.myths([(game, myth)]),
        "readings": lambda: render.readings([reading]),
        "games": lambda: render.games([dataclasses.replace(find_game("pacg"), title=HOSTILE_TEXT)]),
    }
    for view, show in views.items():
        capsys.readouterr()
        show()
        out = capsys.readouterr().out
        _assert_inert(out)
        assert visible(HOSTILE_TEXT) in out, view


def _rules_with_title(tmp_path: Path, title_yaml: str) -> dict[str, str]:
    """A copy of rules/ with move.walls retitled, and the env that points rulesref at it."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    board = rules / "houses-vs-dark-arts" / "board.yaml"
    text = board.read_text(encoding="utf-8")
    assert "  title: Castle walls are never a route\n" in text
    board.write_text(text.replace("  title: Castle walls are never a route\n", f"  title: {title_yaml}\n"), "utf-8")
    return {"RULESREF_RULES": str(rules), "RULESREF_CACHE": str(tmp_path / "cache"), "COLUMNS": "1000"}


@pytest.mark.parametrize(
    "args",
    [
        ("show", "move.walls"),
        ("ask", "can a pawn cross a castle wall"),
        ("ask", "can a pawn cross a castle wall", "--top", "1"),
        ("page", "10"),
    ],
)
def test_a_hostile_clause_title_is_shown_never_obeyed(tmp_path: Path, args: tuple[str, ...]) -> None:
    """A rule pack is read too: `[/]` in a clause title once crashed `show`."""
    env = _rules_with_title(tmp_path, HOSTILE_YAML)
    r = _rulesref(*args, env=env)
    out, err = r.stdout.decode(), r.stderr.decode()
    assert (r.returncode, err) == (0, "")
    _assert_inert(out)
    title = "\u202e[/] [bold]x [link=http://x]y end"  # the corpus makes a title's white space one space
    assert visible(title) in out
    j = _rulesref(*args, "--json", env=env)
    assert j.returncode == 0 and j.stdout.isascii()
    assert title in json.dumps(json.loads(j.stdout), ensure_ascii=False)


@pytest.mark.parametrize(
    "args",
    [
        ("show", "x\x1b]0;t\x07[/]\x00"),
        ("ask", "walls\x1b[2J[/]\x00\u202e"),
        ("ask", "\x1b]8;;http://x\x1b\\[/]"),
        ("check", "--reading", "\x1b[2J=x", str(GOOD)),
        ("page", "\x1b[2J"),
        ("myths", "--game", "\x1b]0;t\x07"),
        ("nosuch\x1b[2J",),
        ("ask", "walls", "--\x1b[2J"),
    ],
)
def test_hostile_arguments_come_back_inert(cli, args: tuple[str, ...]) -> None:
    r = cli(*args)
    assert r.code in (Exit.OK, Exit.BAD_INPUT), r.err
    assert "Traceback" not in r.err and "internal error" not in r.err
    _assert_inert(r.out, r.err)


# --- widths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("columns", "terminal", "expected"),
    [
        ("100", None, 100),
        ("20", None, 20),
        ("1000", None, 1000),
        ("19", None, 80),
        ("0", None, 80),
        ("1001", None, 80),
        ("100000000", None, 80),
        ("9" * 5000, None, 80),
        ("-5", None, 80),
        ("²", None, 80),
        ("٣٠", None, 80),
        ("", None, 80),
        (" 90", None, 80),
        (None, 120, 120),
        (None, 0, 80),
        (None, 5000, 80),
    ],
)
def test_width_is_clamped(columns: str | None, terminal: int | None, expected: int) -> None:
    from rulesref.render import width

    environ = {} if columns is None else {"COLUMNS": columns}
    assert width(environ, terminal) == expected


@pytest.mark.parametrize("columns", ["0", "1", "19", "1001", "100000000", "²", "x", ""])
def test_an_unusable_columns_prints_as_eighty(cli, monkeypatch, columns: str) -> None:
    """COLUMNS=0 once printed nothing and exit 0; 100000000 ran out of memory; '²' crashed rich."""
    monkeypatch.setenv("COLUMNS", "80")
    eighty = cli("show", "move.walls")
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("LINES", columns)  # rich reads LINES the same way
    odd = cli("show", "move.walls")
    assert (odd.code, odd.err) == (0, "")
    assert odd.out == eighty.out
    _assert_laid_out_at(odd.out, 80)


def _assert_laid_out_at(out: str, columns: int) -> None:
    """Words fill the lines up to ``columns`` and no further; a line runs over only to keep
    one id whole (an id is never cut)."""
    lines = out.splitlines()
    assert columns - 10 <= max(len(line) for line in lines if " " in line.strip()) <= columns
    for line in lines:
        assert len(line) <= columns or " " not in line.strip(), line


@pytest.mark.parametrize("columns", [20, 1000])
def test_a_usable_columns_is_the_width(cli, monkeypatch, columns: int) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    r = cli("show", "move.walls")
    assert r.code == 0
    if columns < 100:
        _assert_laid_out_at(r.out, columns)
    else:  # wide enough for each paragraph on one line: nothing wraps
        assert max(len(line) for line in r.out.splitlines()) < columns
        assert "A castle wall blocks movement. No pawn may move across a border" in r.out


def test_the_real_program_clamps_columns_too() -> None:
    r = _rulesref("show", "move.walls", env={"COLUMNS": "0", "LINES": "²"})
    assert (r.returncode, r.stderr) == (0, b"")
    _assert_laid_out_at(r.stdout.decode(), 80)


# --- streams ----------------------------------------------------------------------------

STREAM_COMMANDS = [
    ("ask", "walls"),  # the fast path, without typer
    ("ask", "walls", "--json"),
    ("show", "move.walls"),
    ("myths",),
    ("myths", "--json"),
    ("games",),
    ("check", "scenarios/pacg"),
    ("check", "--json", "scenarios/pacg"),
    ("lint", "--json"),
    ("--help",),
    ("--version",),
]


def _closed_pipe() -> int:
    """The write end of a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.mark.parametrize("args", STREAM_COMMANDS, ids=" ".join)
def test_a_closed_pipe_on_stdout_is_the_pipe_exit(args: tuple[str, ...]) -> None:
    pipe = _closed_pipe()
    try:
        r = _rulesref(*args, stdout=pipe)
    finally:
        os.close(pipe)
    assert (r.returncode, r.stderr) == (Exit.PIPE_CLOSED, b"")


def test_a_reader_that_leaves_early_is_the_pipe_exit() -> None:
    """`rulesref check --json scenarios/ | head -c 10`: the JSON is far bigger than a pipe holds."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulesref", "check", "--json", "scenarios/"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = os.read(proc.stdout.fileno(), 10)
    proc.stdout.close()
    try:
        code = proc.wait(timeout=120)
    finally:
        proc.kill()
    err = proc.stderr.read()
    proc.stderr.close()
    assert first.startswith(b"[")
    assert (code, err) == (Exit.PIPE_CLOSED, b"")


STDERR_COMMANDS = [("show", "nosuch"), ("check", "/nonexistent"), ("ask", "walls", "--top", "²"), ()]
"""Each writes to standard error; the last (help, then a blank line click writes as bytes) to both."""


@pytest.mark.parametrize("args", STDERR_COMMANDS, ids=" ".join)
def test_a_closed_pipe_on_stderr_is_the_pipe_exit(args: tuple[str, ...]) -> None:
    pipe = _closed_pipe()
    try:
        r = _rulesref(*args, stderr=pipe)
    finally:
        os.close(pipe)
    assert r.returncode == Exit.PIPE_CLOSED
    assert (r.stdout == b"") == bool(args)


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", STREAM_COMMANDS, ids=" ".join)
def test_a_full_disk_on_stdout_is_an_io_error(args: tuple[str, ...]) -> None:
    with open("/dev/full", "wb") as full:
        r = _rulesref(*args, stdout=full)
    assert r.returncode == Exit.IO_ERROR
    assert r.stderr == b"rulesref: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", STDERR_COMMANDS, ids=" ".join)
def test_a_full_disk_on_stderr_is_an_io_error(args: tuple[str, ...]) -> None:
    with open("/dev/full", "wb") as full:
        r = _rulesref(*args, stderr=full)
    assert r.returncode == Exit.IO_ERROR
    assert (r.stdout == b"") == bool(args)


@pytest.mark.skipif(not HAS_DEV_FULL, reason="needs /dev/full (Linux)")
def test_a_full_disk_on_both_streams_is_an_io_error() -> None:
    with open("/dev/full", "wb") as full:
        r = _rulesref("myths", stdout=full, stderr=full)
    assert r.returncode == Exit.IO_ERROR


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp437"])
@pytest.mark.parametrize(
    "args", [("ask", "walls", "--json"), ("myths", "--json"), ("check", "--json", "scenarios/pacg")], ids=" ".join
)
def test_json_is_ascii_whatever_the_stream_encoding(encoding: str, args: tuple[str, ...]) -> None:
    r = _rulesref(*args, env={"PYTHONIOENCODING": encoding})
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.isascii()
    assert json.loads(r.stdout)


# --- --top and check's paths: one table ---------------------------------------------


@dataclasses.dataclass
class Row:
    name: str
    args: tuple[str, ...]
    code: int
    err: str
    """Expected on stderr: the whole of it, or its start when it ends with '…'."""
    out: str | None = None
    """A fragment expected on stdout."""


TOP = "Error: Invalid value for '--top' / '-n': "
NOT_DIGITS = "is not a whole number (write it in digits 0-9)\nTry 'rulesref ask --help' for help.\n"
GONE = "no such file or folder\n"
EMPTY = "Error: PATHS: an empty argument names no file or folder\n"
ROWS = [
    Row("top-superscript", ("ask", "walls", "--top", "²"), 2, f"{TOP}'²' {NOT_DIGITS}"),
    Row("top-superscript-typer", ("ask", "--top", "²", "--", "walls"), 2, f"{TOP}'²' {NOT_DIGITS}"),
    Row("top-arabic-digit", ("ask", "walls", "-n", "٣"), 2, f"{TOP}'٣' {NOT_DIGITS}"),
    Row("top-fullwidth-digit", ("ask", "walls", "-n", "３"), 2, f"{TOP}'３' {NOT_DIGITS}"),
    Row("top-plus-sign", ("ask", "walls", "-n", "+3"), 2, f"{TOP}'+3' {NOT_DIGITS}"),
    Row("top-escape", ("ask", "walls", "-n", "\x1b[2J"), 2, f"{TOP}'\\x1b[2J' {NOT_DIGITS}"),
    Row("top-huge", ("ask", "walls", "-n", "9" * 5000), 2, f"{TOP}'999…"),
    Row("top-ascii", ("ask", "walls", "-n", "2", "--json"), 0, "", '"query": "walls"'),
    Row("check-missing-among-many", ("check", "scenarios/pacg", "/none"), 2, f"Error: /none: {GONE}", "rulings"),
    Row("check-missing-first", ("check", "/nonexistent", str(GOOD)), 2, f"Error: /nonexistent: {GONE}", "LEGAL"),
    Row("check-newline-name", ("check", "a\nb.yaml", str(GOOD)), 2, f"Error: a\\nb.yaml: {GONE}", "LEGAL"),
    Row("check-empty-argument", ("check", "", str(GOOD)), 2, EMPTY, "LEGAL"),
    Row("check-two-missing", ("check", "/none", "/none/x.yaml"), 2, f"Error: /none: {GONE}Error: /none/x.yaml: {GONE}"),
]  # fmt: skip


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_each_argument_gets_its_documented_answer(cli, row: Row) -> None:
    r = cli(*row.args)
    assert r.code == row.code, r.err
    if row.err.endswith("…"):
        assert r.err.startswith(row.err[:-1]) and r.err.count("\n") <= 2, r.err
    else:
        assert r.err == row.err
    if row.out is not None:
        assert row.out in r.out
    _assert_inert(r.out, r.err)


def test_a_name_that_is_not_utf8_is_ruled_and_shown(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 in a file name: ruled if it exists, reported if not, shown as \\xff."""
    name = b"s\xff.yaml"
    (tmp_path / os.fsdecode(name)).write_bytes(GOOD.read_bytes())
    r = _rulesref("check", name, b"gone\xfe.yaml", cwd=tmp_path)
    assert r.returncode == Exit.BAD_INPUT
    assert r.stderr == b"Error: gone\\xfe.yaml: no such file or folder\n"
    assert b"s\\xff.yaml" in r.stdout and b"LEGAL" in r.stdout
    _assert_inert(r.stdout.decode(), r.stderr.decode())


def test_an_unreadable_file_among_others_is_reported_and_the_rest_ruled(cli, tmp_path: Path, monkeypatch) -> None:
    shut = tmp_path / "shut.yaml"
    shut.write_bytes(GOOD.read_bytes())
    if IS_ROOT:  # root reads through chmod 000: make the open fail as it would for a user
        from rulesref import source

        real_open = os.open

        def denied(path: Any, *args: Any, **kwargs: Any) -> int:
            if str(path) == str(shut):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(source.os, "open", denied)
    else:
        shut.chmod(0)
    try:
        r = cli("check", str(GOOD), str(shut), "/nonexistent", str(GOOD), "--json")
    finally:
        shut.chmod(0o644)
    assert r.code == Exit.BAD_INPUT
    assert r.err == f"Error: {shut}: cannot read the file: permission denied\nError: /nonexistent: {GONE}"
    entries = json.loads(r.out)
    assert [x["file"] for x in entries if x["error"] is None] == [str(GOOD), str(GOOD)]
    assert [x["file"] for x in entries] == [str(GOOD), str(shut), "/nonexistent", str(GOOD)]


# --- the codes are documented where people look ---------------------------------------


def test_every_exit_code_is_documented() -> None:
    """Each code in cli.Exit has its row in docs/scenarios.md and its words in the README."""
    table = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = re.search(r"Exit codes, the same for every command:(.*?)\n\n", readme, flags=re.S)
    assert sentence is not None
    for code in Exit:
        assert re.search(rf"^\| {code.value} \| \S", table, flags=re.M), f"docs/scenarios.md lacks exit {code.value}"
        assert re.search(rf"\b{code.value} [a-z]", sentence.group(1)), f"README lacks exit {code.value}"
