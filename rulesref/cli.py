"""The command line: parse, call one library function, render what it returns.

No rule logic lives here. Library errors (RulesrefError) become one ``Error:`` line and
exit 2; anything unexpected becomes a short internal-error line and exit 3. Standard
output and error are guarded for the whole run: a reader that left (a closed pipe) or
a stream that cannot be written (a full disk) ends the command with its own exit code,
whichever write hits it, rich's, click's, ``print`` or the last flush.
"""

# No `from __future__ import annotations` here: typer reads every command's signature on
# each run, and string annotations cost it an eval per parameter (half its start-up).
import contextlib
import copy
import enum
import errno
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn, cast

import typer
import typer.core
import typer.main

from rulesref import __version__
from rulesref.errors import RulesrefError, UnknownNameError, shorten
from rulesref.text import visible


class Exit(enum.IntEnum):
    """Exit codes, the same for every command."""

    OK = 0
    """Done; every expectation held."""
    FAILED = 1
    """A scenario's expectation failed, or lint found problems."""
    BAD_INPUT = 2
    """A file, id or option could not be read."""
    INTERNAL = 3
    """A bug in rulesref."""
    IO_ERROR = 74
    """Standard output or error could not be written (a full disk, a failing device): EX_IOERR."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""
    PIPE_CLOSED = 141
    """The reader of standard output or error left (`rulesref myths | head`): 128 + SIGPIPE, as a
    shell reports a program the closed pipe stopped; nothing more is printed."""


app = typer.Typer(
    help=(
        "A table-side rules assistant and referee that cites the printed page. It knows only the rule "
        "packs it ships (Houses vs. Dark Arts, and the PACG Core Set's Encountering a Card): "
        "`rulesref games` says what each covers and leaves out."
    ),
    no_args_is_help=True,
    add_completion=True,  # --install-completion: commands, game ids, clause ids, reading ids
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# --- completion: what the shell offers after a Tab --------------------------------------


def _complete_games(incomplete: str) -> list[str]:
    from rulesref.games import all_games

    names = [name for g in all_games() for name in (g.id, *g.aliases) if name.startswith(incomplete)]
    return list(dict.fromkeys(names))  # an id may be its own alias too


def _complete_clauses(incomplete: str) -> list[str]:
    from rulesref.games import all_games

    return [cid for g in all_games() for cid in g.clauses if cid.startswith(incomplete)]


def _complete_readings(incomplete: str) -> list[str]:
    """``ID=OPTION`` for every reading and option: the form --reading takes."""
    from rulesref.games import all_games

    pairs = [f"{r.id}={o.id}" for g in all_games() for r in g.readings.values() for o in r.options]
    return [p for p in dict.fromkeys(pairs) if p.startswith(incomplete)]


def _complete_colors(incomplete: str) -> list[str]:
    from rulesref.render import COLORS

    return [c for c in COLORS if c.startswith(incomplete)]


# --- options shared by the commands: defined once -------------------------------------

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of text for people.")]
GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game",
        "-g",
        help=(
            "Only this game (id or alias; see `rulesref games`). Default: $RULESREF_GAME, else `game` in the "
            "config file (`rulesref config path`), else all."
        ),
        autocompletion=_complete_games,
    ),
]
ColorOpt = Annotated[
    str | None,
    typer.Option(
        "--color",
        metavar="WHEN",
        help="Colour the text: auto (on a terminal, unless NO_COLOR is set), always or never.",
        autocompletion=_complete_colors,
    ),
]
QuietFlag = Annotated[bool, typer.Option("--quiet", "-q", help="Print only what was asked for: no hints or extras.")]


def _default_game(game: str | None) -> str | None:
    """``--game``, else $RULESREF_GAME, else the config file's ``game`` (set once for a table
    that plays one game), else None: every game."""
    if game is not None:
        return game
    env = os.environ.get("RULESREF_GAME", "").strip()
    if env:
        return env
    from rulesref import config

    found = config.setting("game")
    return str(found[0]) if found is not None else None


@contextlib.contextmanager
def _game_from_env(game: str | None) -> Iterator[None]:
    """An unknown game that came from $RULESREF_GAME or the config file, not --game, is named
    as coming from there (the config file's line too)."""
    try:
        yield
    except UnknownNameError as exc:
        if game is None and exc.message.startswith("unsupported game"):
            if os.environ.get("RULESREF_GAME", "").strip():
                exc.field = "RULESREF_GAME"
            else:
                from rulesref import config

                found = config.setting("game")
                if found is not None:
                    exc.file, exc.line, exc.field = found[1].file, found[1].line, "game"
        raise


def _output(color: str | None) -> None:
    """The text view's choices for this run: ``--color``, else the config file's, else auto."""
    from rulesref import render

    if color is None:
        from rulesref import config

        found = config.setting("color")
        if found is not None:
            try:
                render.configure(color=str(found[0]))
            except RulesrefError as exc:
                exc.file, exc.line, exc.field = found[1].file, found[1].line, "color"
                raise
            return
    render.configure(color=color or "auto")


def _version(value: bool) -> None:
    if value:
        print(f"rulesref {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    color: ColorOpt = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show a traceback on an internal error.")] = False,
) -> None:
    """A table-side rules assistant and referee that cites the printed page."""
    _state["debug"] = debug
    _output(color)


_state: dict[str, Any] = {"debug": False}


def _emit_json(value: Any) -> None:
    import json

    # ASCII only (other characters as \uXXXX escapes): valid JSON whatever the stream's encoding,
    # and no control character reaches a terminal (json leaves DEL, an ASCII one, as it is)
    print(json.dumps(value, indent=2, ensure_ascii=True).replace("\x7f", "\\u007f"))


def _games(game: str | None) -> list[Any]:
    from rulesref.games import all_games, find_game

    chosen = _default_game(game)
    with _game_from_env(game):
        return [find_game(chosen)] if chosen is not None else list(all_games())


def _game_id(game: str | None) -> str | None:
    """The id of the game chosen (--game, $RULESREF_GAME, the config file); None for every game."""
    return _games(game)[0].id if _default_game(game) is not None else None


QUESTION_BYTES = 16 * 1024
"""The longest question read from standard input: a table question is a line or two (and
lookup reads only its first words)."""
STDIN = "-"
"""The argument that means standard input, for `ask` and `check`."""


def _count(value: str | int) -> int:
    """``--top``'s number: ASCII digits (and a sign) only, since int() also reads '٣' and str.isdigit() '²'."""
    if isinstance(value, int):  # the default, which typer passes through the parser too
        return value
    digits = value[1:] if value.startswith("-") else value
    shown = visible(shorten(value, 40))
    if not (digits.isascii() and digits.isdigit()):
        raise typer.BadParameter(f"'{shown}' is not a whole number (write it in digits 0-9)")
    if len(digits) > 9:  # int() refuses 5,000 digits with a ValueError of its own
        raise typer.BadParameter(f"'{shown}' is too large")
    return int(value)


def _stdin_bytes(limit: int) -> bytes:
    """Standard input up to ``limit`` bytes and one more (which says it holds too much);
    OSError when there is none to read (closed, or a test's captured stream)."""
    stream = sys.stdin
    if stream is None:
        raise OSError("there is none")
    from rulesref.files import read_up_to

    source = getattr(stream, "buffer", None)
    try:
        return read_up_to(source.read if source is not None else lambda n: stream.read(n).encode(), limit + 1)
    except ValueError as exc:  # a closed stream
        raise OSError(str(exc)) from None


def _read_stdin(limit: int, what: str, error: Callable[[str], RulesrefError]) -> bytes:
    """At most ``limit`` bytes of standard input; more, none at all, or an unreadable stream
    is an error (exit 2), never "no words" and exit 0."""
    try:
        raw = _stdin_bytes(limit)
    except OSError as exc:
        raise error(f"cannot read standard input: {exc.strerror or exc}") from None
    return _whole(raw, limit, what, error)


def _whole(raw: bytes, limit: int, what: str, error: Callable[[str], RulesrefError]) -> bytes:
    """``raw`` if it is within ``limit`` and holds something; else the error saying which."""
    if len(raw) > limit:
        raise error(f"standard input holds more than {limit:,} bytes, too much for a {what}")
    if not raw.strip():
        raise error(f"standard input is empty: no {what} to read")
    return raw


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is None or bool(sys.stdin.isatty())
    except (AttributeError, ValueError, OSError):
        return True


def _question(words: list[str] | None, ctx: typer.Context) -> str:
    """The question: the words typed (`ask can the DA pawn go thru a wall`), or standard
    input for ``-``, or for no words when it is a pipe or a file."""
    if words and words != [STDIN]:
        return " ".join(words)
    if not words:
        missing = _click("exceptions").UsageError("Missing argument 'question'.", ctx=ctx)
        if _stdin_is_terminal():
            raise missing
        try:
            raw = _stdin_bytes(QUESTION_BYTES)
        except OSError:
            raise missing from None
        raw = _whole(raw, QUESTION_BYTES, "question", _question_error)
    else:
        raw = _read_stdin(QUESTION_BYTES, "question", _question_error)
    return raw.decode("utf-8", "replace")


def _question_error(message: str) -> RulesrefError:
    return RulesrefError(message, field="QUESTION")


@app.command()
def ask(
    ctx: typer.Context,
    question: Annotated[
        list[str] | None,
        typer.Argument(
            help="The rules question, as you would say it at the table: several words, or - (or a pipe) to read it "
            "from standard input.",
            show_default=False,
            metavar="QUESTION...",
        ),
    ] = None,
    game: GameOpt = None,
    top: Annotated[
        int, typer.Option("--top", "-n", parser=_count, metavar="N", help="How many answers to look for.")
    ] = 5,
    short: Annotated[bool, typer.Option("--short", help="One sentence and its page, to read aloud.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Every answer found and every related clause.")] = False,
    quiet: QuietFlag = False,
    as_json: JsonFlag = False,
    color: ColorOpt = None,
) -> None:
    """Find the clause that answers a rules question, with its printed page."""
    from rulesref.lookup import ask as lookup

    if color is not None:
        _output(color)
    if short and full:
        raise RulesrefError("choose one of --short and --full", field="--short")
    text = _question(question, ctx)
    with _game_from_env(game):
        answer = lookup(text, game=_default_game(game), top=top)
    if as_json:
        _emit_json(answer.to_json())
    else:
        from rulesref import render

        render.answer(answer, view="short" if short else "full" if full else "answer", quiet=quiet)


@app.command()
def show(
    clause_id: Annotated[
        str, typer.Argument(metavar="ID", help="A clause id, e.g. move.walls.", autocompletion=_complete_clauses)
    ],
    game: GameOpt = None,
    as_json: JsonFlag = False,
    color: ColorOpt = None,
) -> None:
    """Show one clause, its related clauses and the misreadings it corrects."""
    from rulesref import render
    from rulesref.library import find_clause

    if color is not None:
        _output(color)
    with _game_from_env(game):
        g, clause = find_clause(clause_id, _default_game(game))
    if as_json:
        _emit_json(clause.to_json(g.clauses))
    else:
        render.clause(g, clause)


@app.command(context_settings={"ignore_unknown_options": True})  # so `page -1` is a page, not an option
def page(
    number: Annotated[int, typer.Argument(help="A printed rulebook page.")],
    game: GameOpt = None,
    as_json: JsonFlag = False,
    color: ColorOpt = None,
) -> None:
    """List every clause that cites a printed page."""
    from rulesref import contract, render
    from rulesref.library import clauses_on_page

    if color is not None:
        _output(color)
    with _game_from_env(game):
        found = clauses_on_page(number, _default_game(game))
    if as_json:
        _emit_json(contract.page_json(number, game, found))
    else:
        render.page(number, found)


@app.command()
def games(as_json: JsonFlag = False, color: ColorOpt = None) -> None:
    """List the rulesets rulesref knows, what each covers and what it leaves out."""
    from rulesref import render
    from rulesref.games import all_games

    if color is not None:
        _output(color)
    found = list(all_games())
    if as_json:
        _emit_json([g.to_json() for g in found])
    else:
        render.games(found)


@app.command()
def myths(game: GameOpt = None, as_json: JsonFlag = False, color: ColorOpt = None) -> None:
    """List the common misreadings and the clause that corrects each."""
    from rulesref import contract, render

    if color is not None:
        _output(color)
    found = [(g, m) for g in _games(game) for m in g.misreadings]
    if as_json:
        _emit_json(contract.myths_json(found))
    else:
        render.myths(found)


@app.command()
def readings(game: GameOpt = None, as_json: JsonFlag = False, color: ColorOpt = None) -> None:
    """List the named readings of questions the printed rules leave open."""
    from rulesref import render

    if color is not None:
        _output(color)
    found = [r for g in _games(game) for r in g.readings.values()]
    if as_json:
        _emit_json([r.to_json() for r in found])
    else:
        render.readings(found)


@app.command()
def lint(
    scenarios: Annotated[
        Path | None,
        typer.Option(help="Scenario folder used for the coverage checks (default: ./scenarios if present)."),
    ] = None,
    quiet: QuietFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Check the rule corpus: schema, unique ids, pages, links, engine citations, coverage."""
    from rulesref.lint import lint as run_lint

    problems = run_lint(scenarios)
    if as_json:
        _emit_json({"ok": not problems, "problems": problems})
    else:
        for line in problems:
            print(visible(line))
        if not problems and not quiet:
            print("lint: no problems")
    if problems:
        raise typer.Exit(Exit.FAILED)


cache_app = typer.Typer(
    help=(
        "The index cache that lets a cold `ask` skip reading the rule packs ($RULESREF_RULES, else the shipped "
        "ones). It is kept in $RULESREF_CACHE (an absolute path), else the user cache folder: "
        "$XDG_CACHE_HOME/rulesref or ~/.cache/rulesref on Linux, ~/Library/Caches/rulesref on macOS, "
        "%LOCALAPPDATA%\\rulesref\\Cache on Windows."
    ),
    no_args_is_help=True,
)
app.add_typer(cache_app, name="cache")


@cache_app.command("clear")
def cache_clear(quiet: QuietFlag = False) -> None:
    """Remove the cached indexes; the next `ask` builds the index again."""
    from rulesref import cache

    removed = cache.clear()
    if not quiet:
        print(f"removed {len(removed)} cached file(s) from {visible(str(cache.cache_dir()))}")


@cache_app.command("path")
def cache_path() -> None:
    """Print the folder the index cache is kept in."""
    from rulesref import cache

    print(visible(str(cache.cache_dir())))


config_app = typer.Typer(
    help='The config file: settings made once, such as `game = "pacg"` (command-line options and '
    "$RULESREF_GAME win over it).",
    no_args_is_help=True,
)
app.add_typer(config_app, name="config")


@config_app.command("path")
def config_path() -> None:
    """Print where the config file is looked for, and what it sets (`game`, `color`)."""
    from rulesref import config

    path, found = config.settings()
    if path is None:
        print("no config file: $RULESREF_CONFIG is set and empty")
        return
    print(visible(str(path)) + ("" if path.exists() else " (none there yet)"))
    for key, (value, _) in found.items():
        print(f'{key} = "{visible(str(value))}"')


@app.command()
def check(
    ctx: typer.Context,
    # as text, not Path: Path('') is '.', and every argument must reach the loop below
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Scenario files or folders of them; - reads one from standard input."),
    ] = None,
    example: Annotated[
        list[str] | None,
        typer.Option("--example", "-e", metavar="NAME", help="A shipped example (see `rulesref examples`)."),
    ] = None,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading", "-r", help="Choose a reading: ID=OPTION (repeatable).", autocompletion=_complete_readings
        ),
    ] = None,
    full: Annotated[
        bool | None,
        typer.Option("--full/--brief", help="Every ruling in full, or one line each (default: full for up to 5)."),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only the rulings whose expectation failed, and errors.")
    ] = False,
    as_json: JsonFlag = False,
    color: ColorOpt = None,
) -> None:
    """Rule on described situations: the legal outcome, step by step, citing pages."""
    from rulesref import render
    from rulesref.games import all_games
    from rulesref.readings import read_overrides
    from rulesref.referee import Crash, check_many
    from rulesref.ruling import unreadable_json

    if color is not None:
        _output(color)
    # a broken rule pack is one error line for the run, not one per scenario file
    overrides = read_overrides(reading or [], list(all_games()))
    found = list(_scenario_files([*(paths or []), *_example_files(ctx, example, paths)]))
    files = [path for path, problem in found if problem is None and str(path) != STDIN]
    # the engine draws the board only for the rulings shown in full
    shown_in_full = not as_json and not quiet and (full if full is not None else len(found) <= render.FULL_UP_TO)
    results = check_many(files, overrides, debug=_debugging(), picture=shown_in_full)
    rulings, errors, bugs = [], [], 0
    entries: list[dict[str, Any]] = []  # --json: a ruling, or the error in its place, per file in order
    # One bad file must not hide the others: each file is ruled on or reported, in order,
    # and only then does the exit code say the worst that happened.
    for path, problem in found:
        if problem is None:
            result = _stdin_ruling(overrides) if str(path) == STDIN else next(results)
            if isinstance(result, Crash):
                bugs += 1
                _internal_line(result.kind, result.message, where=str(path))
                continue
            if not isinstance(result, RulesrefError):
                rulings.append(result)
                entries.append(result.to_json())
                continue
            problem = result
        errors.append(problem)
        entries.append(unreadable_json(problem, str(path)))
        if not as_json:
            _error(problem)
    if as_json:
        _emit_json(entries)
        for problem in errors:
            _error(problem)
    else:
        render.rulings(rulings, full=full, quiet=quiet)
    if bugs:
        raise typer.Exit(Exit.INTERNAL)
    if errors:
        raise typer.Exit(Exit.BAD_INPUT)
    if any(r.expect is not None and not r.expect.ok for r in rulings):
        raise typer.Exit(Exit.FAILED)


def _stdin_ruling(overrides: list[tuple[str, str]]) -> Any:
    """The ruling on a scenario read from standard input (`check -`), or the error in its place,
    named ``<stdin>`` in every message and ruling."""
    from rulesref.contract import rule_bytes
    from rulesref.errors import ScenarioError
    from rulesref.source import MAX_BYTES

    name = "<stdin>"
    try:
        raw = _read_stdin(MAX_BYTES, "scenario", lambda message: ScenarioError(message, file=name))
        return rule_bytes(raw, name, overrides, picture=True)
    except RulesrefError as exc:
        return exc


def _scenario_files(paths: list[str]) -> Iterator[tuple[Path, RulesrefError | None]]:
    """Each scenario file under each argument, or the error in its place, in order."""
    from rulesref.errors import ScenarioError
    from rulesref.referee import scenario_files

    stdin_used = False
    for raw in paths:
        if raw == STDIN:
            if stdin_used:  # standard input can be read once
                yield Path(raw), ScenarioError("standard input (-) given twice; it can be read once", field="PATHS")
            else:
                stdin_used = True
                yield Path(raw), None
        elif raw:
            yield from scenario_files([Path(raw)])
        else:  # `check ""` (an unset shell variable) would otherwise rule the current folder
            yield Path(raw), ScenarioError("an empty argument names no file or folder", field="PATHS")


def _error(exc: RulesrefError) -> None:
    print(f"Error: {exc}", file=sys.stderr)


def _debugging() -> bool:
    return bool(_state["debug"])


def _internal_line(kind: str, message: str, where: str | None = None) -> None:
    """The short line for a bug in rulesref: what failed, and how to report it."""
    detail = " ".join(message.split()) or "(no message)"
    place = f"{visible(where)}: " if where else ""
    print(
        f"rulesref: {place}internal error: {visible(kind)}: {visible(shorten(detail, 200))}\n"
        "This is a bug in rulesref, not in your input: run the same command with --debug "
        "for the traceback, and report it with the command and any file it read.",
        file=sys.stderr,
    )


def run(argv: list[str] | None = None) -> int:
    """Run the app on ``argv`` and return the exit code; every failure becomes a line or two."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _guarded(out, "standard output"), _guarded(err, "standard error")
    try:
        code = _run(argv)
        if _debugging():
            _cache_notes()
        sys.stdout.flush()  # the last write can fail too: here, not in the interpreter's exit
        sys.stderr.flush()
        return code
    except StreamFailed as exc:
        return _stream_failed(exc, out, err)
    finally:
        sys.stdout, sys.stderr = out, err
        render = sys.modules.get("rulesref.render")  # only if this run used it
        if render is not None:
            render.reset()


def _cache_notes() -> None:
    """Under --debug, what the index cache did (rebuilt, damaged, a fallback folder): said
    nowhere else, since a cache that cannot be used is not the user's problem."""
    cache = sys.modules.get("rulesref.cache")  # only if this command used it
    for line in cache.notes() if cache is not None else ():
        print(line, file=sys.stderr)


def _run(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args and _table_terminal():  # `rulesref` alone at a terminal: the table session
        argv = args = ["play"]
    _state["debug"] = "--debug" in args
    try:
        code = _command(args)(args=argv, standalone_mode=False, prog_name="rulesref")
    except StreamFailed:
        raise
    except RulesrefError as exc:
        _error(exc)
        return Exit.BAD_INPUT
    except typer.Exit as exc:
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:  # a write that did not go through the guarded streams
        _silence(sys.stdout)
        return Exit.PIPE_CLOSED
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else Exit.OK if exc.code is None else Exit.FAILED
    except Exception as exc:
        handled = _click_error(exc)
        if handled is not None:
            return handled
        if _debugging():
            raise
        _internal_line(type(exc).__name__, str(exc))  # the last line of defence: never a bare traceback
        return Exit.INTERNAL
    return code if isinstance(code, int) else Exit.OK


def _click(part: str) -> Any:
    """A module (``exceptions``) of the click that typer runs on: its own copy from
    typer 0.2x on, the click package before; found from typer's public BadParameter."""
    import importlib

    return importlib.import_module(typer.BadParameter.__module__.rpartition(".")[0] + "." + part)


def _command(args: list[str]) -> Any:
    """The click command typer builds from ``app``, with ``-V``/``--version`` on every command
    and group, not only before the first one (`rulesref ask -V` as `rulesref -V`)."""
    root = typer.main.get_command(_narrowed(args))

    def version(ctx: Any, _param: Any, value: bool) -> None:
        if value and not ctx.resilient_parsing:  # resilient: completing a command line, not running it
            _version(True)

    def add(command: Any) -> None:
        if not any("-V" in getattr(p, "opts", ()) for p in command.params):
            command.params.append(
                typer.core.TyperOption(
                    param_decls=["-V", "--version"],
                    is_flag=True,
                    expose_value=False,
                    is_eager=True,
                    callback=version,
                    help="Show the version and exit.",
                )
            )
        for sub in getattr(command, "commands", {}).values():  # bounded by the commands defined
            add(sub)

    add(root)
    return root


def _narrowed(args: list[str]) -> typer.Typer:
    """``app`` with only the command the arguments name, when they start with one.

    Typer builds every command's options on each run; a table-side `rulesref ask` should
    not wait for the other commands and groups. Anything else (a leading option, a group,
    an unknown name, shell completion) gets the whole app, so help and errors list every
    command."""
    if not args or any(name.startswith("_RULESREF_COMPLETE") for name in os.environ):
        return app
    for info in app.registered_commands:  # bounded by the commands defined
        if command_name(info) == args[0]:
            narrow = copy.copy(app)
            narrow.registered_commands = [info]
            narrow.registered_groups = []
            return narrow
    return app


def command_name(info: Any) -> str | None:
    """The name a registered command is typed by, as typer gives it (``info.name``, or
    the function's name with dashes)."""
    callback = info.callback
    return info.name or (typer.main.get_command_name(callback.__name__) if callback else None)


class StreamFailed(Exception):
    """Standard output or error could not be written.

    Raised in place of the OSError: click turns any EPIPE it sees into exit 1 ("an
    expectation failed" here) and rich into its own exit, so the error must not look
    like one until `run` has it.
    """

    def __init__(self, stream: str, error: OSError) -> None:
        super().__init__(f"cannot write to {stream}: {error.strerror or error}")
        self.stream = stream
        self.error = error

    @property
    def pipe_closed(self) -> bool:
        return isinstance(self.error, BrokenPipeError) or self.error.errno in (errno.EPIPE, errno.ECONNRESET)


class _Guarded:
    """A stream whose failed writes raise StreamFailed; everything else is the stream's own.

    Its ``buffer`` is guarded too: click writes bytes (a blank line after the help) there.
    """

    def __init__(self, stream: Any, name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, data: Any) -> int:
        try:
            return int(self._stream.write(data))
        except OSError as exc:
            raise StreamFailed(self._name, exc) from exc

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StreamFailed(self._name, exc) from exc

    @property
    def buffer(self) -> "_Guarded":
        return _Guarded(self._stream.buffer, self._name)

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding...: rich and click ask
        return getattr(self._stream, name)


def _guarded(stream: Any, name: str) -> Any:
    # None when Python runs without a console (pythonw); a print to it is dropped, not guarded
    return stream if stream is None else cast(IO[str], _Guarded(stream, name))


def _stream_failed(exc: StreamFailed, out: Any, err: Any) -> int:
    """The exit for a stream that failed: quiet for a closed pipe, one line for a write error."""
    failed = out if exc.stream == "standard output" else err
    _silence(failed)  # so the interpreter's last flush of what is left cannot fail again
    if exc.pipe_closed:
        return Exit.PIPE_CLOSED  # the reader left, which is not an error
    if failed is not err:
        try:
            print(f"rulesref: {exc}", file=err)
            err.flush()
        except (OSError, ValueError, AttributeError):  # stderr is gone too: the code says it
            _silence(err)
    return Exit.IO_ERROR


def _click_error(exc: Exception) -> int | None:
    """Print click's own errors (usage, bad option value, abort) briefly; None if ``exc`` is not one.

    The classes are those of the click typer runs on (_click), not matched by name.
    """
    click = _click("exceptions")
    if isinstance(exc, typer.Abort):
        print("Aborted.", file=sys.stderr)
        return int(Exit.FAILED)
    no_args = getattr(click, "NoArgsIsHelpError", None)
    if no_args is not None and isinstance(exc, no_args):
        exc.show()  # `rulesref` alone: the help is the answer
        return int(exc.exit_code)
    if not isinstance(exc, click.ClickException):
        return None
    message = exc.format_message()
    print(f"Error: {visible(' '.join(str(message).split()))}", file=sys.stderr)
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        # click prints four lines (usage, hint, blank, error); at the table two are enough
        print(f"Try '{ctx.command_path} --help' for help.", file=sys.stderr)
    return int(exc.exit_code)


def _silence(stream: Any) -> None:
    """Point a standard stream's file at /dev/null, so nothing written later can fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (captured in tests)
        pass


# --- learning `check` from the installed package: new, schema, examples ----------------------


def _example_files(ctx: typer.Context, names: list[str] | None, paths: list[str] | None) -> list[str]:
    """``check --example NAME``'s files; with neither a path nor an example there is nothing to rule."""
    from rulesref.templates import find_example

    if not names and not paths:
        ctx.fail("Missing argument 'paths'.")  # click's own words: PATHS is optional only for --example
    return [str(find_example(name)) for name in names or []]


@app.command()
def new(
    topic: Annotated[
        str | None,
        typer.Argument(metavar="TOPIC", help="What the dispute is about (`rulesref new --list` lists the topics)."),
    ] = None,
    game: GameOpt = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write it to FILE instead of printing it.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
    listing: Annotated[bool, typer.Option("--list", help="List the topics, one a line.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Write a ready-to-edit scenario for a common dispute, to check with `rulesref check`."""
    from rulesref import templates

    chosen = _game_id(game)
    if listing or topic is None:
        if topic is None and not listing:
            raise RulesrefError(
                "name a topic, e.g. `rulesref new move`; `rulesref new --list` lists them", field="TOPIC"
            )
        found = templates.topics(chosen)
        if as_json:
            _emit_json([{"topic": t.name, "game": t.game, "about": t.about, "aliases": list(t.aliases)} for t in found])
        else:
            for t in found:
                print(f"{t.name:<10} {t.game:<20} {t.about}")
        return
    text = templates.template_text(templates.find_topic(topic, chosen))
    if output is None or str(output) == "-":
        print(text, end="")
        return
    templates.write_new(text, output, force=force)
    shown = visible(str(output))
    print(f"Wrote {shown}: edit it, then run `rulesref check {shown}`.")


@app.command()
def schema(
    game: Annotated[str, typer.Argument(metavar="GAME", help="A game id or alias (see `rulesref games`).")],
) -> None:
    """Print a game's scenario JSON Schema (self-contained), for editors and validators."""
    from rulesref.games import find_game
    from rulesref.templates import schema_json

    print(schema_json(find_game(game).id), end="")


@app.command()
def examples(as_json: JsonFlag = False) -> None:
    """List the example scenarios shipped with rulesref; run one with `rulesref check --example NAME`."""
    from rulesref.templates import docs_file
    from rulesref.templates import examples as shipped

    found = shipped()
    docs = docs_file()
    if as_json:
        _emit_json(
            {
                "examples": [{"name": e.name, "game": e.game, "title": e.title, "file": str(e.file)} for e in found],
                "docs": str(docs) if docs else None,
            }
        )
        return
    width = max((len(e.name) for e in found), default=0)
    for e in found:
        print(f"{e.name:<{width}}  {e.game:<20} {visible(e.title)}")
    if docs is not None:
        print(f"\nThe scenario format: {visible(str(docs))}")


# --- serve: the rules page and its JSON API, for the phones at the table ---------------------


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option("--host", help="The address to listen on; 0.0.0.0 lets every device on the network in."),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", "-p", parser=_count, metavar="PORT", help="The port (0: any free one).")
    ] = 8000,
    game: GameOpt = None,
) -> None:
    """Serve the rules page (ask, browse, dispute) and its JSON API; needs `pip install 'rulesref\\[web]'`."""
    try:
        from rulesref.web.serve import serve as run_server
    except ImportError as exc:
        raise RulesrefError(
            f"the web page needs the web extra ({exc.name or 'a module'} is not installed)",
            hint="pip install 'rulesref[web]'",
        ) from None
    with _game_from_env(game):
        run_server(host, port, _default_game(game))


# --- the table session and the guided dispute (issue 15): rulesref/session.py, dispute.py ----

AnswersOpt = Annotated[
    Path | None,
    typer.Option(
        "--answers",
        metavar="FILE",
        help="Read the answers from FILE, one a line, instead of the terminal (standard input too, when it is "
        "not a terminal).",
    ),
]


def _table_terminal() -> bool:
    """Standard input and output are both a terminal: someone is at the table to type."""
    try:
        return _stdin_is_terminal() and sys.stdin is not None and bool(sys.stdout.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@app.command()
def play(game: GameOpt = None, answers: AnswersOpt = None) -> None:
    """A session at the table: ask question after question, follow up (1, more, why), settle a dispute."""
    from rulesref.session import play as session

    with _game_from_env(game):
        code = session(_default_game(game), answers, debug=_debugging())
    raise typer.Exit(code)


@app.command()
def dispute(
    topic: Annotated[
        str | None,
        typer.Argument(metavar="TOPIC", help="What it is about (`rulesref new --list`); asked if left out."),
    ] = None,
    game: GameOpt = None,
    answers: AnswersOpt = None,
) -> None:
    """Settle a dispute by answering a few questions: the scenario is built, ruled on and can be saved."""
    from rulesref.session import dispute as settle

    with _game_from_env(game):
        code = settle(topic, _game_id(game), answers, debug=_debugging())
    raise typer.Exit(code)


def main() -> NoReturn:
    """Console-script entry point."""
    for stream in (sys.stdout, sys.stderr):
        # a terminal that cannot show a character (LANG=C, a lone surrogate from a file name)
        # gets an escape instead of a UnicodeEncodeError
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="backslashreplace")
    sys.exit(run())
