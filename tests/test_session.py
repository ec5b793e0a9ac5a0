"""The table session (`rulesref play`): follow-ups on the last answer, commands, a dispute inside
it, what never ends it (a bad line, Ctrl-C, garbage), its history file as untrusted input, and
one run of the real program in a terminal under tmux, asserting on the screen a player sees."""

from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesref import session
from rulesref.cli import run
from rulesref.session import Session

NEWCOMER_WALL = [  # the answers to `dispute move` for a pawn stopped by a wall (as in test_dispute.py)
    "Can g1 go through the wall?",
    *["", "b1-c1", "", "", "", "", ""],  # the board: 5x4, a wall, nothing else between
    "g1 gryffindor a1",
    *["", "", "3", ""],  # no turn or cards given; a 3 card that allows nothing
    "g1 a1 b1 c1",
    "done",
    "Sam=legal, Alex=illegal",
    "no",
]


@pytest.fixture(autouse=True)
def _no_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No default game from the machine's config or environment; history kept in the test's folder."""
    monkeypatch.setenv("RULESREF_CONFIG", "")
    monkeypatch.delenv("RULESREF_GAME", raising=False)
    monkeypatch.setenv("RULESREF_HISTORY", str(tmp_path / "history"))


def play(lines: list[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    return run(["play", *args])


def test_a_question_then_a_number_why_and_more(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code = play(["can a pawn pass through a wall?", "1", "why", "more", "quit"], monkeypatch, "--game", "hvda")
    out = capsys.readouterr().out
    assert code == 0
    assert "houses-vs-dark-arts> can a pawn pass through a wall?" in out
    question, one, why, more = (part for part in out.split("houses-vs-dark-arts> ")[1:5])
    assert "move.walls" in question and " 1  Castle walls are never a route" in question
    assert "Rests on:" in one  # the clause in full
    assert "Related:" in why and "Misreading:" in why
    assert "Also relevant:" in more


def test_the_game_is_asked_once_when_none_is_set(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert play(["pcag", "pacg", "can two characters play weapons on one check?", "quit"], monkeypatch) == 0
    out = capsys.readouterr().out
    assert "did you mean 'pacg'" in out
    assert "pacg> can two characters" in out


def test_the_default_game_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("RULESREF_GAME", "pacg")
    assert play(["quit"], monkeypatch) == 0
    assert "Which game" not in capsys.readouterr().out


def test_commands_page_show_myths_readings_game(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    lines = ["page 10", "show move.walls", "myths", "readings", "game", "game pacg", "help", "quit"]
    assert play(lines, monkeypatch, "--game", "hvda") == 0
    out = capsys.readouterr().out
    assert "clauses citing page 10" in out
    assert "Castle walls are never a route" in out
    assert "✗ " in out  # a myth
    assert "(default)" in out  # a reading's default option
    assert "This session is about houses-vs-dark-arts" in out
    assert "pacg> help" in out and "dispute [TOPIC]" in out


def test_nothing_a_player_types_ends_the_session(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    garbage = "\x1b[2J\x07\x00ä" + "€" * 50
    lines = ["", "   ", "1", "why", "show nope", "page x", "page 999", "check /no/such.yaml", "new nope", "game nope"]
    lines += [garbage, "x" * 20_000, "readings nope", "page", "what about a wall", "99", "quit"]
    assert play(lines, monkeypatch, "--game", "hvda") == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "Ask a question first" in out
    assert "Error: unknown clause 'nope'" in out
    assert "page needs a page number" in out
    assert "outside the rulebooks" in out
    assert "Error: unknown game" in out or "unsupported game" in out
    assert "\x1b[2J" not in out and "\x07" not in out  # shown as escapes, never acted on
    assert "The last answer has" in out
    assert out.rstrip().endswith("houses-vs-dark-arts> quit")
    assert "Traceback" not in captured.err


def test_the_end_of_the_input_leaves_quietly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert play(["what about a wall"], monkeypatch, "--game", "hvda") == 0
    assert capsys.readouterr().err == ""


def test_a_dispute_inside_the_session_then_more_questions(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    lines = ["dispute move", *NEWCOMER_WALL, "show move.walls", "quit"]
    assert play(lines, monkeypatch, "--game", "hvda") == 0
    out = capsys.readouterr().out
    assert "ILLEGAL Can g1 go through the wall?" in out
    assert "houses-vs-dark-arts> show move.walls" in out


def test_a_dispute_left_halfway_returns_to_the_session(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    lines = ["dispute move", *NEWCOMER_WALL[:4]]
    assert play(lines, monkeypatch, "--game", "hvda") == 0
    assert "dispute left; nothing was saved" in capsys.readouterr().out


def test_answers_from_a_file(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "answers.txt"
    script.write_text("hvda\nshow move.walls\n", encoding="utf-8")
    assert run(["play", "--answers", str(script)]) == 0
    assert "Castle walls are never a route" in capsys.readouterr().out


class _Keys:
    """A terminal stand-in: each command is a line, or an exception a keypress raises."""

    def __init__(self, keys: list[Any]) -> None:
        self.keys: Iterator[Any] = iter(keys)

    def command(self, prompt: str) -> str:
        key = next(self.keys, EOFError)
        if isinstance(key, type) and issubclass(key, BaseException):
            raise key
        return str(key)

    def ask(self, prompt: str, default: str = "", choices: tuple[str, ...] = ()) -> str:
        return self.command(prompt)


def test_ctrl_c_at_the_prompt_does_not_end_the_session(capsys: Any) -> None:
    said: list[str] = []
    code = Session(
        _Keys([KeyboardInterrupt, "show move.walls", KeyboardInterrupt, EOFError]), "hvda", said.append
    ).run()
    assert code == 0
    out = capsys.readouterr().out
    assert out.count("Ctrl-C: type quit or press Ctrl-D") == 2
    assert "Castle walls are never a route" in out


def test_ctrl_c_during_a_dispute_goes_back_to_the_prompt(capsys: Any) -> None:
    said: list[str] = []
    keys = _Keys(["dispute move", "title", KeyboardInterrupt, "show move.walls", "quit"])
    assert Session(keys, "hvda", said.append).run() == 0
    assert "(dispute left; nothing was saved)" in capsys.readouterr().out


# --- the history file: untrusted, never fatal -----------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p.mkdir(),
        lambda p: p.write_bytes(b"\xff\xfe\x00garbage\n+\x80\x81\n\x00" * 100),
        lambda p: p.write_bytes(b"+x\n" * (session.HISTORY_BYTES // 3 + 10)),
    ],
    ids=["a folder", "binary garbage", "too large"],
)
def test_a_history_file_that_cannot_be_used_is_ignored(tmp_path: Path, make: Any) -> None:
    path = tmp_path / "history"
    make(path)
    notes: list[str] = []
    history = session._history(path, notes)
    loaded = list(history.load_history_strings())
    assert all(isinstance(line, str) for line in loaded)
    history.store_string("can a pawn pass a wall?")  # never raises
    if path.is_dir() or path.stat().st_size > session.HISTORY_BYTES:
        assert loaded == [] and notes


def test_history_is_kept_across_sessions(tmp_path: Path) -> None:
    path = tmp_path / "data" / "rulesref" / "history"
    first = session._history(path, [])
    first.store_string("can a pawn pass a wall?")
    assert list(session._history(path, []).load_history_strings()) == ["can a pawn pass a wall?"]


def test_a_history_folder_that_cannot_be_made_is_a_note(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    notes: list[str] = []
    session._history(blocker / "sub" / "history", notes).store_string("x")
    assert notes and "not saved" in notes[0]


def test_the_history_file_is_in_the_user_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RULESREF_HISTORY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    found = session.history_file()
    assert found is not None and found.name == "history" and "rulesref" in found.parts
    assert session.history_file({"RULESREF_HISTORY": ""}) is None


def test_completion_offers_commands_then_ids() -> None:
    from prompt_toolkit.document import Document

    complete = session._completer(session.completion_words())

    def offered(text: str) -> list[str]:
        return [c.text for c in complete.get_completions(Document(text), None)]

    assert "dispute" in offered("dis")
    assert "move.walls" in offered("show move.w")
    assert "bump" in offered("dispute b")
    assert offered("can a pawn pass ") == []  # a question is the player's own words


# --- the entry points -----------------------------------------------------------------------


def test_rulesref_alone_off_a_terminal_still_prints_the_help(capsys: Any) -> None:
    run([])  # standard input is pytest's, not a terminal: no session waits for keys
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "Usage" in shown and "play" in shown and "dispute" in shown


def test_a_cold_ask_does_not_import_the_session_or_prompt_toolkit() -> None:
    probe = (
        "import sys; from rulesref.cli import run; run(['ask', 'wall', '--game', 'hvda']); "
        "print(sorted(m for m in ('prompt_toolkit', 'rulesref.session', 'rulesref.dispute') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


# --- the real program in a terminal ----------------------------------------------------------

WAIT = 60.0
"""The longest wait for the screen to show something (a busy machine's cold start is slow)."""


class Tmux:
    """A detached tmux server of its own (its own socket name, no config file)."""

    def __init__(self) -> None:
        self.socket = f"rulesref-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def __call__(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *args], capture_output=True, text=True)
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-J", "-S", "-200", "-t", "table")

    def wait_for(self, text: str, after: int = 0) -> str:
        """The screen once ``text`` appears (``after``: past that many occurrences); fails after WAIT."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            shown = self.screen()
            if shown.count(text) > after:
                return shown
            time.sleep(0.1)
        pytest.fail(f"{text!r} did not appear on the screen within {WAIT:.0f} s; the screen:\n{self.screen()}")

    def keys(self, text: str) -> None:
        self("send-keys", "-t", "table", "-l", text)
        self("send-keys", "-t", "table", "Enter")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_the_session_on_a_real_terminal(tmp_path: Path) -> None:
    tmux = Tmux()
    env = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "RULESREF_CONFIG": "",
        "RULESREF_CACHE": str(tmp_path / "cache"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
        "LANG": "C.UTF-8",
    }
    command = [sys.executable, "-m", "rulesref", "play", "--game", "hvda"]
    # a fixed size, whatever the machine's terminal: 100 columns, 40 lines
    tmux(
        "new-session", "-d", "-s", "table", "-x", "100", "-y", "40",
        # the exit code on the screen: a pane's own exit status is not kept by every tmux version
        "sh", "-c", shlex.join(["env", "-i", *(f"{k}={v}" for k, v in env.items()), *command])
        + '; echo "rulesref exited with $?"; sleep 600',
    )  # fmt: skip
    try:
        tmux.wait_for("houses-vs-dark-arts>")  # capture-pane drops the trailing space
        tmux.keys("can a pawn pass through a wall?")
        shown = tmux.wait_for("A number shows that result")
        assert "Castle walls are never a route" in shown and " 1  Castle walls" in shown
        tmux.keys("1")
        shown = tmux.wait_for("Rests on:")
        tmux.keys("why")
        shown = tmux.wait_for("Related:")
        assert "Misreading:" in shown
        tmux.keys("quit")
        tmux.wait_for("rulesref exited with 0")
        assert "Traceback" not in tmux.screen()
        history = (tmp_path / "data" / "rulesref" / "history").read_text(encoding="utf-8")
        assert "+can a pawn pass through a wall?" in history and "+why" in history
    finally:
        socket = tmux("display-message", "-p", "#{socket_path}").strip()
        tmux("kill-server")
        if socket and Path(socket).name == tmux.socket:  # tmux leaves its socket file behind
            Path(socket).unlink(missing_ok=True)


def test_rulesref_alone_at_a_terminal_opens_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulesref import cli

    opened: list[Any] = []
    monkeypatch.setattr(cli, "_table_terminal", lambda: True)
    monkeypatch.setattr(session, "play", lambda game, answers, debug=False: opened.append((game, answers)) or 0)
    assert run([]) == 0
    assert opened == [(None, None)]
