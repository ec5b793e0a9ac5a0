"""The table session: `rulesref` alone on a terminal, or `rulesref play [--game ID]`.

The game is picked once; then a line is a question, or one of a few commands that work on
the last answer (a number, ``more``, ``why``) or do what the one-shot commands do (``page``,
``show``, ``myths``, ``readings``, ``check``, ``new``, ``dispute``, ``game``). Nothing a
player types ends the session but ``quit`` or Ctrl-D: a bad command, an unknown id, a file
that cannot be read, Ctrl-C, a very long line or pasted garbage each get a line and the
prompt again.

On a terminal the prompt is prompt_toolkit's (what IPython and ptpython use): line editing,
history kept across sessions in the user data folder, Tab completion of the commands,
clause ids, reading ids and topics. Without prompt_toolkit, the standard library's
``input`` (with readline where it exists) takes its place. From a script (``--answers FILE``,
or standard input when it is not a terminal) each line is one command or answer, echoed
after its prompt, so a test or a transcript reads as the screen would.

The history file is untrusted like any other input: one that cannot be read, is not a
regular file or is too large is ignored (a note under --debug), never a crash.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from rulesref import render
from rulesref.dispute import LINE_CHARS, Dispute, ScriptLines, _prompt_text, refusal, script_lines
from rulesref.errors import RulesrefError, shorten
from rulesref.text import visible, whole_number

HISTORY_BYTES = 1024 * 1024
"""A history file larger than this is not read (a session adds a line a question)."""
GAME_TRIES = 5
"""How often the game is asked before the session gives up (a script that never names one)."""

COMMANDS: dict[str, str] = {
    "QUESTION": "any other line is a rules question, e.g. can a pawn pass through a wall?",
    "1, 2, ...": "that result of the last question in full",
    "more": "the last answer with every result and related clause",
    "why": "the clauses related to the result, and the misreadings it corrects",
    "page N": "every clause on printed page N",
    "show ID": "one clause by id (Tab completes ids)",
    "myths": "the common misreadings and their corrections",
    "readings": "the named readings of questions the rules leave open",
    "check FILE": "rule on a scenario file",
    "new TOPIC [FILE]": "a ready-to-edit scenario for a dispute (print it, or write FILE)",
    "dispute [TOPIC]": "settle a dispute by answering a few questions",
    "game [ID]": "which game the session is about, or switch to another",
    "help": "this list",
    "quit": "leave (Ctrl-D too)",
}
WORDS = tuple(name.split()[0] for name in COMMANDS if name[0].islower())
"""The commands' own words, as Tab offers them: more, why, page... quit."""
QUIT = ("quit", "exit", "q", ":q", "bye")


# --- where the lines come from --------------------------------------------------------------


class TerminalLines:
    """Lines typed at a terminal: prompt_toolkit's prompt, else ``input``."""

    def __init__(self, words: dict[str, list[str]], history: Any, notes: list[str]) -> None:
        self._main: Any = None
        self._asks: Any = None
        try:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import InMemoryHistory
        except ImportError:  # installed without its dependencies: the standard prompt still works
            notes.append("prompt_toolkit is not installed: plain input, no completion or saved history")
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing for input(), where the platform has it)
            return
        self._main = PromptSession(history=history, completer=_completer(words), complete_while_typing=False)
        self._asks = PromptSession(history=InMemoryHistory())

    def command(self, prompt: str) -> str:
        if self._main is None:
            return _cut(input(prompt))
        return _cut(str(self._main.prompt(prompt)))

    def ask(self, prompt: str, default: str = "", choices: tuple[str, ...] = ()) -> str:
        text = _prompt_text(prompt, default, choices)
        if self._asks is None:
            return _cut(input(text))
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(list(choices), ignore_case=True) if choices else None
        return _cut(str(self._asks.prompt(text, completer=completer)))


def _cut(line: str) -> str:
    if len(line) > LINE_CHARS:
        print(f"(that line is {len(line):,} characters; its first {LINE_CHARS:,} are read)")
        return line[:LINE_CHARS]
    return line


class _ScriptCommands(ScriptLines):
    """A script's lines as commands too (the session's prompt echoed before each)."""

    def command(self, prompt: str) -> str:
        return self.line(prompt)


def _completer(words: dict[str, list[str]]) -> Any:
    """Tab completes the first word (a command), then what that command takes: clause ids
    after ``show``, reading ids after ``readings``, topics after ``dispute`` and ``new``,
    games after ``game``. A question gets no completion: it is the player's own words."""
    from prompt_toolkit.completion import Completer, Completion

    class Complete(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
            before = document.text_before_cursor
            parts = before.split()
            word = "" if not parts or before[-1].isspace() else parts[-1]
            if len(parts) <= 1 and not before.endswith(" "):
                pool: Iterable[str] = WORDS
            elif len(parts) == 1 or (len(parts) == 2 and word):
                pool = words.get(parts[0].lower(), [])
            else:
                pool = []
            for candidate in pool:
                if candidate.startswith(word) and candidate != word:
                    yield Completion(candidate, start_position=-len(word))

    return Complete()


def history_file(environ: Any = None) -> Path | None:
    """Where the session's history is kept: the user data folder (platformdirs), or
    $RULESREF_HISTORY (set and empty: no history kept)."""
    env = os.environ if environ is None else environ
    explicit = env.get("RULESREF_HISTORY")
    if explicit is not None:
        return Path(explicit) if explicit.strip() else None
    import platformdirs

    return Path(platformdirs.user_data_dir("rulesref", appauthor=False), "history")


def _history(path: Path | None, notes: list[str]) -> Any:
    """prompt_toolkit's FileHistory, guarded: a file it cannot read or write is noted, not fatal."""
    try:
        from prompt_toolkit.history import FileHistory, InMemoryHistory
    except ImportError:
        return None
    if path is None:
        return InMemoryHistory()
    file = path  # for the class below: a Path, never None

    class Guarded(FileHistory):
        def load_history_strings(self) -> Iterable[str]:
            try:
                if file.exists() and (not file.is_file() or file.stat().st_size > HISTORY_BYTES):
                    notes.append(f"history {visible(str(file))} ignored: not a regular file of at most 1 MB")
                    return []
                return list(super().load_history_strings()) if file.exists() else []
            except (OSError, ValueError) as exc:  # unreadable, or not text at all
                notes.append(f"history {visible(str(file))} ignored: {exc}")
                return []

        def store_string(self, string: str) -> None:
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                if not file.exists() or file.is_file():
                    super().store_string(string)
            except OSError as exc:
                notes.append(f"history {visible(str(file))} not saved: {exc.strerror or exc}")

    return Guarded(str(path))


# --- the session ----------------------------------------------------------------------------


class Session:
    """One sitting at the table: the game, the last answer and which of its results is in view."""

    def __init__(self, lines: Any, game: str | None, say: Callable[[str], None] = print) -> None:
        self.lines = lines
        self.say = say
        self.game: Any = None
        self.wanted = game
        self.answer: Any = None
        self.current: Any = None

    def run(self) -> int:
        try:
            self.game = self._pick_game(self.wanted)
        except EOFError:
            return 0
        render.note(f"rulesref: {self.game.title}. Ask a rules question; `help` lists the commands, `quit` leaves.")
        while True:  # ends on quit or the end of the input, each line a command
            try:
                line = self.lines.command(f"{self.game.id}> ")
            except EOFError:
                self.say("")
                return 0
            except KeyboardInterrupt:
                render.note("(Ctrl-C: type quit or press Ctrl-D to leave)")
                continue
            try:
                if self.do(line) is False:
                    return 0
            except KeyboardInterrupt:
                render.note("(stopped)")
            except EOFError:
                return 0
            except RulesrefError as exc:
                self.say(f"Error: {exc}")

    def _pick_game(self, wanted: str | None) -> Any:
        from rulesref.games import all_games, find_game

        if wanted is not None:
            return find_game(wanted)
        ids = tuple(g.id for g in all_games())
        for _ in range(GAME_TRIES):
            try:
                answer = self.lines.ask("Which game", ids[0], ids).strip() or ids[0]
            except KeyboardInterrupt:  # Ctrl-C asks again; Ctrl-D (EOFError) leaves
                continue
            try:
                return find_game(answer)
            except RulesrefError as exc:
                self.say(refusal(exc))
        raise RulesrefError("no game chosen", field="game")

    def do(self, line: str) -> bool | None:
        """Run one line; False means leave."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in QUIT and not rest:
            return False
        if word in ("help", "?") and not rest:
            width = max(len(k) for k in COMMANDS)
            for name, says in COMMANDS.items():
                self.say(f"  {name:<{width}}  {says}")
            return None
        if text.isascii() and text.isdigit():
            self._result(int(text[:6]))
            return None
        if word == "more" and not rest:
            if self._need_answer():
                render.answer(self.answer, view="full")
            return None
        if word == "why" and not rest:
            if self._need_answer():
                render.why(self._game_of(self.current), self.current.clause)
            return None
        handler = {
            "page": self._page,
            "show": self._show,
            "myths": self._myths,
            "readings": self._readings,
            "check": self._check,
            "new": self._new,
            "dispute": self._dispute,
            "game": self._game,
        }.get(word)
        if handler is not None and (rest or word in ("myths", "readings", "dispute", "game")):
            handler(rest)
            return None
        if handler is not None:
            render.note(f"{word} needs more: " + next(k for k in COMMANDS if k.startswith(word)))
            return None
        self._ask(text)
        return None

    def _ask(self, text: str) -> None:
        from rulesref.lookup import ask

        found = ask(text, game=self.game.id)
        self.answer, self.current = found, (found.hits[0] if found.hits else None)
        render.answer(found, quiet=len(found.hits) > 1)
        if len(found.hits) > 1:
            render.numbered(found)
            render.note("A number shows that result in full; `why` its related clauses and misreadings.")

    def _need_answer(self) -> bool:
        if self.current is None:
            render.note("Ask a question first: `more`, `why` and the numbers work on its answer.")
            return False
        return True

    def _result(self, n: int) -> None:
        if not self._need_answer():
            return
        hits = self.answer.hits
        if not 1 <= n <= len(hits):
            render.note(f"The last answer has {len(hits)} result(s): 1 to {len(hits)}.")
            return
        self.current = hits[n - 1]
        render.clause(self._game_of(self.current), self.current.clause)

    def _game_of(self, hit: Any) -> Any:
        from rulesref.games import find_game

        return find_game(hit.clause.game)

    def _page(self, rest: str) -> None:
        from rulesref.library import clauses_on_page

        number = whole_number(rest, 6)
        if number is None:
            render.note(f"page needs a page number, not {shorten(visible(rest), 40)!r}")
            return
        render.page(number, clauses_on_page(number, self.game.id))

    def _show(self, rest: str) -> None:
        from rulesref.library import find_clause

        game, found = find_clause(rest.split()[0], self.game.id)
        render.clause(game, found)

    def _myths(self, _rest: str) -> None:
        render.myths([(self.game, m) for m in self.game.misreadings])

    def _readings(self, rest: str) -> None:
        found = [r for r in self.game.readings.values() if not rest or r.id == rest.split()[0]]
        if rest and not found:
            from rulesref.errors import UnknownNameError, did_you_mean

            raise UnknownNameError(
                f"unknown reading {shorten(rest, 40)!r}", hint=did_you_mean(rest, self.game.readings)
            )
        render.readings(found)

    def _check(self, rest: str) -> None:
        from rulesref.referee import check_file

        render.ruling(check_file(Path(rest)))

    def _new(self, rest: str) -> None:
        from rulesref import templates

        topic, _, output = rest.partition(" ")
        text = templates.template_text(templates.find_topic(topic, self.game.id))
        if not output.strip():
            self.say(text.rstrip("\n"))
            return
        templates.write_new(text, Path(output.strip()), force=False)
        self.say(f"Wrote {visible(output.strip())}: edit it, then `check {visible(output.strip())}`.")

    def _dispute(self, rest: str) -> None:
        try:
            Dispute(self.lines, self.say).run(rest or None, self.game.id)
        except (EOFError, KeyboardInterrupt):
            self.say("")
            render.note("(dispute left; nothing was saved)")

    def _game(self, rest: str) -> None:
        from rulesref.games import all_games, find_game

        if not rest:
            others = ", ".join(g.id for g in all_games() if g.id != self.game.id)
            self.say(f"This session is about {self.game.id}; `game ID` switches ({others}).")
            return
        self.game = find_game(rest)
        self.answer = self.current = None
        self.say(f"Now: {self.game.title}.")


def completion_words() -> dict[str, list[str]]:
    """What Tab offers after each command: clause ids, reading ids, topics, game ids."""
    from rulesref.games import all_games
    from rulesref.templates import TOPICS

    games = list(all_games())
    topics = [t.name for t in TOPICS]
    return {
        "show": [cid for g in games for cid in g.clauses],
        "readings": [rid for g in games for rid in g.readings],
        "dispute": topics,
        "new": topics,
        "game": [g.id for g in games],
    }


def _lines(answers: Path | None, debug_notes: list[str]) -> Any:
    """The lines of this run: the answers file, standard input when it is not a terminal, else the terminal."""
    if answers is not None:
        return _ScriptCommands(script_lines(answers))
    if not _terminal():
        return _ScriptCommands(script_lines(None, sys.stdin))
    return TerminalLines(completion_words(), _history(history_file(), debug_notes), debug_notes)


def _terminal() -> bool:
    try:
        return bool(sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def _at_the_table(answers: Path | None, debug: bool) -> Iterator[Any]:
    """The lines of a `play` or `dispute` run; under --debug, its notes (the history file
    ignored, no prompt_toolkit) are printed when it ends."""
    notes: list[str] = []
    render.configure(pager=False)  # a session scrolls: a pager would hide the prompt
    lines = _lines(answers, notes)
    try:
        yield lines
    finally:
        if debug:
            for note in notes:
                print(f"rulesref: {note}", file=sys.stderr)


def play(game: str | None, answers: Path | None = None, *, debug: bool = False) -> int:
    """`rulesref play`: the session, to its end; the exit code."""
    with _at_the_table(answers, debug) as lines:
        return Session(lines, game).run()


def dispute(topic: str | None, game: str | None, answers: Path | None = None, *, debug: bool = False) -> int:
    """`rulesref dispute [TOPIC]`: one dispute settled from the prompts, to its exit code (a scenario
    that cannot be read raises, as `check` reports one)."""
    with _at_the_table(answers, debug) as lines:
        try:
            # ruled on (whatever the verdict, as with `check`) or pointed at a template: exit 0
            Dispute(lines, print).run(topic, game)
        except EOFError:
            print()
            raise RulesrefError("the answers ended before the dispute was settled", field="dispute") from None
    return 0
