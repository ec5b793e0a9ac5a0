"""The CLI at the table: the answer first, questions typed the natural way, and the habits of
CLIs people like (-h, -V, completion, --color, --quiet, a pager, a config file, cache clear).

Streams and terminals are tested on the real program in a subprocess: a pipe on standard
input, a pseudo-terminal on standard output (so the pager and the colours are what a person
gets). Nothing waits on timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesref import __version__

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "scenarios" / "pacg" / "after-encounter-effect-without-move.yaml"
AVENGE = ROOT / "scenarios" / "pacg" / "avenge-by-distant-character.yaml"
EXPLORE = ROOT / "scenarios" / "houses-vs-dark-arts" / "action-dark-arts-explore-effect-only.yaml"
HAS_PTY = hasattr(os, "openpty") and sys.platform != "win32"


def _rulesref(*args: str, stdin: bytes | None = b"", env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "rulesref", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80", **(env or {})},
        cwd=ROOT,
    )


# --- ask: the answer first --------------------------------------------------------------


def test_ask_shows_the_answer_then_at_most_three_related_lines(cli) -> None:
    r = cli("ask", "can", "the", "DA", "pawn", "go", "thru", "a", "wall")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "Castle walls are never a route"
    assert "move.walls · pp. 10, 25 · houses-vs-dark-arts" in r.out
    assert sum(line.startswith("  • ") for line in lines) <= 3
    full = cli("ask", "can the DA pawn go thru a wall", "--full")
    assert full.out.startswith(r.out.split("Also relevant:")[0])
    assert sum(line.startswith("  • ") for line in full.out.splitlines()) == 4  # every other hit of the top 5
    assert "See also:" in full.out


def test_related_lines_come_from_the_answers_game(cli) -> None:
    data = json.loads(cli("ask", "can the DA pawn go thru a wall", "--json").out)
    assert {h["game"] for h in data["results"]} == {"houses-vs-dark-arts"}


def test_short_is_one_sentence_and_its_page(cli) -> None:
    r = cli("ask", "how many blessings can I play on a check", "--short")
    assert r.code == 0, r.err
    assert len(r.out.splitlines()) <= 2
    assert "(p. 8; encounter.boon-limit)" in " ".join(r.out.split())


def test_quiet_shows_the_answer_alone(cli) -> None:
    r = cli("ask", "can the DA pawn go thru a wall", "--quiet")
    assert r.code == 0
    assert "Also relevant" not in r.out and "See also" not in r.out
    assert r.out.splitlines()[-1] == "move.walls · pp. 10, 25 · houses-vs-dark-arts"


def test_a_plain_answer_does_not_import_rich() -> None:
    """A pipe or a file gets plain text, laid out without rich: a script's cold `ask` skips it."""
    code = "import sys; from rulesref.cli import run; run(['ask', 'walls']); print('rich' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines()[-1] == "False"


def test_short_and_full_together_are_refused(cli) -> None:
    r = cli("ask", "walls", "--short", "--full")
    assert (r.code, r.out, r.err) == (2, "", "Error: --short: choose one of --short and --full\n")


# --- natural input ------------------------------------------------------------------------


def test_a_question_on_a_pipe_is_asked() -> None:
    piped = _rulesref("ask", stdin=b"can the DA pawn go thru a wall\n")
    dashed = _rulesref("ask", "-", stdin=b"can the DA pawn go thru a wall")
    typed = _rulesref("ask", "can the DA pawn go thru a wall")
    assert piped.returncode == dashed.returncode == typed.returncode == 0, piped.stderr
    assert piped.stdout == dashed.stdout == typed.stdout


@pytest.mark.parametrize("args", [("ask", "-"), ("ask",)], ids=["dash", "no-words"])
def test_an_empty_stdin_is_an_error_not_no_words(args: tuple[str, ...]) -> None:
    r = _rulesref(*args, stdin=b"  \n")
    assert (r.returncode, r.stdout) == (2, b"")
    assert r.stderr == b"Error: QUESTION: standard input is empty: no question to read\n"


def test_too_much_on_stdin_is_refused() -> None:
    r = _rulesref("ask", "-", stdin=b"wall " * 10_000)
    assert (r.returncode, r.stdout) == (2, b"")
    assert r.stderr.startswith(b"Error: QUESTION: standard input holds more than 16,384 bytes")


def test_check_reads_a_scenario_from_stdin() -> None:
    r = _rulesref("check", "-", stdin=GOOD.read_bytes())
    assert r.returncode == 0, r.stderr
    assert b"LEGAL" in r.stdout and b"<stdin>" in r.stdout


def test_check_stdin_errors_name_stdin() -> None:
    empty = _rulesref("check", "-", stdin=b"")
    assert (empty.returncode, empty.stderr) == (2, b"Error: <stdin>: standard input is empty: no scenario to read\n")
    bad = _rulesref("check", "-", stdin=b"game: pacg\ntitle: x\ntitle: y\n")
    assert (bad.returncode, bad.stderr) == (2, b"Error: <stdin>:3:1: title: duplicate key 'title'\n")
    twice = _rulesref("check", "-", "-", "--json", stdin=GOOD.read_bytes())
    assert twice.returncode == 2
    assert twice.stderr == b"Error: PATHS: standard input (-) given twice; it can be read once\n"
    assert [e["error"] is None for e in json.loads(twice.stdout)] == [True, False]


@pytest.mark.parametrize(
    "args", [("-h",), ("ask", "-h"), ("check", "-h"), ("page", "-h"), ("cache", "-h"), ("cache", "clear", "-h")]
)
def test_dash_h_is_help_everywhere(cli, args: tuple[str, ...]) -> None:
    r = cli(*args)
    assert r.code == 0 and "Usage:" in r.out, r.err


@pytest.mark.parametrize("args", [("-V",), ("--version",), ("ask", "-V"), ("check", "-V"), ("cache", "clear", "-V")])
def test_dash_capital_v_is_the_version_everywhere(cli, args: tuple[str, ...]) -> None:
    r = cli(*args)
    assert (r.code, r.out, r.err) == (0, f"rulesref {__version__}\n", "")


# --- shell completion ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("rulesref ch", "check"),
        ("rulesref show move.wa", "move.walls"),
        ("rulesref show replenish.dark-arts-no", "replenish.dark-arts-no-discard"),
        ("rulesref ask walls --game pa", "pacg"),
        ("rulesref check x.yaml --reading backtrack=", "backtrack=no-revisit"),
        ("rulesref ask walls --color al", "always"),
    ],
)
def test_completion_offers_commands_games_clauses_and_readings(words: str, expected: str) -> None:
    cword = len(words.split()) - 1
    r = _rulesref(env={"_RULESREF_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)})
    assert r.returncode == 0, r.stderr
    offered = r.stdout.decode().split()
    assert expected in offered, offered
    assert len(offered) == len(set(offered))


def test_completion_can_be_installed(cli) -> None:
    r = cli("--help")
    assert "--install-completion" in r.out and "--show-completion" in r.out


# --- check: the deciding rule and what changed -------------------------------------------


def test_check_names_the_deciding_rule_and_its_page(cli) -> None:
    r = cli("check", str(AVENGE))
    assert r.code == 0, r.err
    flowed = " ".join(r.out.split())
    assert "Decided by step 6, step.avenge inferred p. 10:" in flowed
    # pages only inferred are said so in the footer, as in the steps
    assert flowed.endswith(f"{AVENGE} · inferred p. 10 · every step: pp. 8, 9, 10, 11, 12 (pp. 10, 11 inferred)")


def test_check_shows_what_changed(cli) -> None:
    r = cli("check", str(EXPLORE))
    assert r.code == 0, r.err
    assert "players.dark-arts: hand 3 → 2, discard 2 → 3" in " ".join(r.out.split())


def test_check_quiet_prints_only_failed_expectations(cli, tmp_path: Path) -> None:
    assert cli("check", str(GOOD), "--quiet").out == ""
    failing = tmp_path / "fails.yaml"
    failing.write_text(GOOD.read_text(encoding="utf-8").replace("verdict: legal", "verdict: illegal"), "utf-8")
    r = cli("check", str(GOOD), str(failing), "-q")
    assert r.code == 1
    assert str(failing) in r.out and str(GOOD) not in r.out and "expect:" in r.out


def test_lint_quiet_prints_nothing_when_clean(cli) -> None:
    assert (cli("lint", "--quiet").out, cli("lint", "--quiet").code) == ("", 0)


# --- colour -------------------------------------------------------------------------------


def test_color_always_never_and_no_color(cli, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" not in cli("ask", "walls").out  # not a terminal: plain
    always = cli("ask", "walls", "--color", "always").out
    assert "\x1b[1;32mCastle walls are never a route\x1b[0m" in always
    assert "\x1b[" not in cli("--color", "never", "ask", "walls").out
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" in cli("ask", "walls", "--color", "always").out  # the option wins over NO_COLOR


def test_a_bad_color_is_a_one_line_error(cli) -> None:
    r = cli("ask", "walls", "--color", "sometimes")
    assert (r.code, r.out) == (2, "")
    assert r.err == "Error: --color: expected one of auto, always, never, got 'sometimes'\n"


def test_escapes_in_a_title_never_reach_the_terminal_in_colour(cli, tmp_path: Path, monkeypatch) -> None:
    name = "\x1b]0;t\x07.yaml"
    (tmp_path / name).write_bytes(GOOD.read_bytes())
    monkeypatch.chdir(tmp_path)
    out = cli("check", name, "--color", "always").out
    assert "\x07" not in out and "\x1b]" not in out and "\\x1b]0;t\\x07.yaml" in out


# --- the pager ----------------------------------------------------------------------------


def test_pager_variables_are_read_as_untrusted(monkeypatch) -> None:
    from rulesref.errors import RulesrefError
    from rulesref.render import _pager

    assert _pager({"RULESREF_PAGER": "", "PAGER": "less"}) is None
    assert _pager({"PAGER": "cat"}) is None
    sh = _pager({"RULESREF_PAGER": "sh -c 'cat'"})
    assert sh is not None and sh[1:] == ["-c", "cat"] and Path(sh[0]).name == "sh"
    with pytest.raises(RulesrefError, match=r"^RULESREF_PAGER: 'no-such-pager-\\x1b' is not a program on PATH"):
        _pager({"RULESREF_PAGER": "no-such-pager-\x1b --flag"})
    with pytest.raises(RulesrefError, match=r"^PAGER: cannot be read as a command line"):
        _pager({"PAGER": "less 'unclosed"})


def _on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """The real program with a pseudo-terminal as standard output: (exit code, what it showed)."""
    import pty  # noqa: F401  (Unix only; the tests using this are skipped elsewhere)

    main, sub = os.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(sub, termios.TIOCSWINSZ, struct.pack("HHHH", 10, 80, 0, 0))  # 10 lines: myths is longer
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulesref", *args],
        stdin=subprocess.DEVNULL,
        stdout=sub,
        stderr=sub,
        env={k: v for k, v in {**os.environ, **env}.items() if k not in ("COLUMNS", "LINES")},
        cwd=ROOT,
    )
    os.close(sub)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the program ended
            break
        if not chunk:
            break
        shown += chunk
    code = proc.wait(timeout=120)
    os.close(main)
    return code, shown.decode("utf-8", "replace")


@pytest.mark.skipif(not HAS_PTY, reason="needs a pseudo-terminal (Unix)")
def test_long_output_on_a_terminal_goes_through_the_pager(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    pager = f"sh -c 'cat > {paged}'"
    code, shown = _on_a_terminal(["myths", "--color", "never"], {"RULESREF_PAGER": pager})
    assert code == 0, shown
    assert "✗" not in shown  # it all went to the pager
    assert paged.read_text(encoding="utf-8").count("✗") > 20
    code, shown = _on_a_terminal(["ask", "walls", "-q"], {"RULESREF_PAGER": f"sh -c 'cat > {tmp_path / 'x'}'"})
    assert code == 0 and "Castle walls" in shown and not (tmp_path / "x").exists()  # short: printed


@pytest.mark.skipif(not HAS_PTY, reason="needs a pseudo-terminal (Unix)")
def test_a_bad_pager_on_a_terminal_is_a_clear_error() -> None:
    code, shown = _on_a_terminal(["myths"], {"RULESREF_PAGER": "no-such-pager"})
    assert code == 2
    assert shown.strip() == (
        "Error: RULESREF_PAGER: 'no-such-pager' is not a program on PATH; set it to a pager such as 'less', or to '' "
        "for none"
    )


@pytest.mark.skipif(not HAS_PTY, reason="needs a pseudo-terminal (Unix)")
def test_a_terminal_gets_colour_unless_no_color() -> None:
    env = {"RULESREF_PAGER": "", "TERM": "xterm"}
    _, coloured = _on_a_terminal(["ask", "walls"], {**env, "NO_COLOR": ""})
    assert "\x1b[1;32m" in coloured
    _, plain = _on_a_terminal(["ask", "walls"], {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "Castle walls are never a route" in plain


# --- the config file ------------------------------------------------------------------------


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from rulesref import config as module

    path = tmp_path / "config.toml"
    monkeypatch.setenv("RULESREF_CONFIG", str(path))
    monkeypatch.delenv("RULESREF_GAME", raising=False)
    module._cache.clear()
    yield path
    module._cache.clear()


def test_the_config_file_sets_the_default_game(cli, config: Path, monkeypatch) -> None:
    config.write_text('# the table plays PACG\ngame = "pathfinder"\n', encoding="utf-8")
    assert json.loads(cli("ask", "walls", "--json").out)["game"] == "pacg"
    assert json.loads(cli("ask", "walls", "--json", "--game", "hvda").out)["game"] == "houses-vs-dark-arts"
    monkeypatch.setenv("RULESREF_GAME", "hvda")
    assert json.loads(cli("ask", "walls", "--json").out)["game"] == "houses-vs-dark-arts"
    path = cli("config", "path")
    assert path.out == f'{config}\ngame = "pathfinder"\n'


BAD_CONFIGS = [
    ("not-toml", 'game = "pacg\n', ":1:"),
    ("unknown-key", 'game = "pacg"\ncolour = "never"\n', ":2: colour: unknown key 'colour'; did you mean 'color'?"),
    ("not-a-string", "game = 3\n", ":1: game: expected a game id or alias (see `rulesref games`), in quotes"),
    ("unknown-game", '\ngame = "chess"\n', ":2: game: unsupported game: 'chess'"),
    ("bad-color", 'color = "loud"\n', ":1: color: expected one of auto, always, never, got 'loud'"),
    ("not-utf8", b'game = "\xff"\n', ":1: is not UTF-8 text"),
]


@pytest.mark.parametrize(("text", "where"), [(t, w) for _, t, w in BAD_CONFIGS], ids=[n for n, _, _ in BAD_CONFIGS])
def test_a_bad_config_file_is_one_line_naming_file_line_and_key(cli, config: Path, text: Any, where: str) -> None:
    if isinstance(text, bytes):
        config.write_bytes(text)
    else:
        config.write_text(text, encoding="utf-8")
    r = cli("ask", "walls")
    assert (r.code, r.out) == (2, "")
    assert r.err.startswith(f"Error: {config}{where}"), r.err
    assert r.err.count("\n") == 1


def test_a_config_that_is_not_a_file_is_refused(cli, config: Path) -> None:
    config.mkdir()
    r = cli("myths")
    assert (r.code, r.err) == (2, f"Error: {config}: is not a regular file, so it is no config file\n")


def test_the_config_folder_is_the_platforms(tmp_path: Path) -> None:
    from rulesref.config import config_path

    if sys.platform in ("win32", "darwin"):
        pytest.skip("platformdirs' folder there")
    home = str(tmp_path / "home")
    assert config_path({"HOME": home}) == Path(home, ".config", "rulesref", "config.toml")
    assert config_path({"HOME": home, "XDG_CONFIG_HOME": str(tmp_path / "x")}) == tmp_path / "x/rulesref/config.toml"
    assert config_path({"HOME": home, "XDG_CONFIG_HOME": "relative"}) == Path(home, ".config/rulesref/config.toml")
    assert config_path({"RULESREF_CONFIG": "", "HOME": home}) is None
    assert config_path({}) is None


# --- cache clear ------------------------------------------------------------------------------


def test_cache_clear_removes_only_our_files(cli, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESREF_CACHE", str(folder))
    from rulesref import cache, lookup

    # clear also empties the per-user folder in the system temp folder: a private one here,
    # or what other runs left in the machine's would be counted too
    monkeypatch.setattr(cache, "_temp_path", lambda: tmp_path / "private")
    lookup._loaded.clear()
    assert cli("ask", "walls").code == 0
    built = sorted(p.name for p in folder.iterdir())
    assert built and all(name.startswith("index-") for name in built)
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    outside = tmp_path / "outside.marshal"
    outside.write_text("not ours either", encoding="utf-8")
    (folder / "index-00000000.marshal").symlink_to(outside)
    r = cli("cache", "clear")
    assert (r.code, r.out) == (0, f"removed {len(built)} cached file(s) from {folder}\n")
    assert sorted(p.name for p in folder.iterdir()) == ["index-00000000.marshal", "notes.txt"]
    assert outside.exists()
    assert cli("cache", "path").out == f"{folder}\n"
    lookup._loaded.clear()
    assert cli("ask", "walls").code == 0  # and the next ask builds it again


def test_windows_consoles_are_styled_through_rich(cli, monkeypatch) -> None:
    """On Windows the styled lines go through rich (which drives its consoles): the same words."""
    from rulesref import render

    plain = cli("ask", "walls", "--color", "never").out
    monkeypatch.setattr(render, "_RICH_CONSOLE", True)
    styled = cli("ask", "walls", "--color", "always").out
    assert "\x1b[" in styled
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", styled).splitlines() == plain.splitlines()


# --- check: where the printed rules stop ------------------------------------------------

FLY_OFF_READING = ROOT / "scenarios" / "houses-vs-dark-arts" / "reading-fly-off-dark-arts-only.yaml"


def test_a_ruling_resting_on_a_reading_names_it_in_full_and_in_brief(cli) -> None:
    full = cli("check", str(FLY_OFF_READING))
    assert "Rests on readings: fly-off-sides=dark-arts-only" in " ".join(full.out.split())
    brief = cli("check", str(FLY_OFF_READING), "--brief")
    assert "by reading fly-off-sides=dark-arts-only" in " ".join(brief.out.split())


MOOT_READING = ROOT / "scenarios" / "houses-vs-dark-arts" / "bump-single-house-pawn.yaml"


def test_a_reading_whose_options_all_rule_the_same_is_not_what_the_ruling_rests_on(cli) -> None:
    # participating-houses is applied (one house is in play either way) but changes nothing
    full = " ".join(cli("check", str(MOOT_READING)).out.split())
    assert "Rests on readings" not in full
    assert "Also applied, ruling the same under every option: participating-houses=in-play" in full
    assert "by reading" not in cli("check", str(MOOT_READING), "--brief").out
    (entry,) = json.loads(cli("check", str(MOOT_READING), "--json").out)
    assert entry["readings"] == {"participating-houses": "in-play"}
    assert entry["moot_readings"] == ["participating-houses"]
    (turns,) = json.loads(cli("check", str(FLY_OFF_READING), "--json").out)
    assert "fly-off-sides" in turns["readings"] and "fly-off-sides" not in turns["moot_readings"]


def test_a_ruling_on_the_printed_rules_alone_names_no_reading(cli) -> None:
    r = cli("check", str(GOOD))
    assert "Rests on readings" not in r.out
