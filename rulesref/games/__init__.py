"""The game registry: rule packs found in rules/, engines found by game id.

A game is added as data (rules/<id>/) plus one engine package,
``rulesref.games.<id with - as _>``, exposing ``ENGINE`` (see ruling.Engine). Nothing in
the core names a game.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

from rulesref.corpus import CLAUSE_ID, Game, game_folders, load_game
from rulesref.errors import CorpusError, UnknownNameError, did_you_mean
from rulesref.ruling import Engine


class _AllGames:
    """``all_games()``: every rule pack, loaded once per process, or the CorpusError that stops it.

    The error is kept as well as the packs: `check` meets it once per scenario file, and
    a broken pack is refused each time without being read again. ``cache_clear()`` forgets
    both (tests point RULESREF_RULES elsewhere between runs).
    """

    def __init__(self) -> None:
        self._found: tuple[Game, ...] | CorpusError | None = None

    def __call__(self) -> tuple[Game, ...]:
        if self._found is None:
            try:
                self._found = tuple(load_game(folder) for folder in game_folders())
            except CorpusError as exc:
                self._found = exc
        if isinstance(self._found, CorpusError):
            raise self._found.with_traceback(None)  # raised afresh: its traceback does not grow per call
        return self._found

    def cache_clear(self) -> None:
        self._found = None


all_games = _AllGames()


def find_game(name: str) -> Game:
    """A game by id or alias (case-insensitive). Raises ``unsupported game: 'x'``."""
    wanted = name.strip().lower()
    names: list[str] = []
    for game in all_games():
        if wanted == game.id or wanted in game.aliases:
            return game
        names += [game.id, *game.aliases]
    raise UnknownNameError(f"unsupported game: {name!r}", hint=did_you_mean(wanted, names) or "see `rulesref games`")


def engine_for(game: Game) -> Engine:
    """The rules engine of a game; a game without one can be asked about but not refereed."""
    module_name = "rulesref.games." + game.id.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownNameError(f"game {game.id!r} has no rules engine, so `check` cannot referee it") from None
    engine: Engine = module.ENGINE
    return engine


def engine_files(game: Game) -> list[Path]:
    """The source files of a game's engine package (none when it has no engine)."""
    spec = importlib.util.find_spec("rulesref.games." + game.id.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        return []
    return sorted(p for loc in spec.submodule_search_locations for p in Path(loc).rglob("*.py"))


def engine_names(game: Game) -> set[str]:
    """Every text in the engine's code shaped like a clause id, whether the pack has it or not."""
    found = set()
    for path in engine_files(game):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CLAUSE_ID.match(node.value):
                found.add(node.value)
    return found
