"""The game registry: rule packs found in rules/, engines found by game id.

A game is added as data (rules/<id>/) plus one engine package,
``rulesref.games.<id with - as _>``, exposing ``ENGINE`` (see referee.Engine). Nothing in
the core names a game.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING

from rulesref.corpus import Game, game_folders, load_game
from rulesref.errors import UnknownNameError, did_you_mean

if TYPE_CHECKING:
    from rulesref.referee import Engine


@lru_cache(maxsize=1)
def all_games() -> tuple[Game, ...]:
    """Every rule pack, loaded once per process."""
    return tuple(load_game(folder) for folder in game_folders())


def find_game(name: str) -> Game:
    """A game by id or alias (case-insensitive). Raises ``unsupported game: 'x'``."""
    wanted = name.strip().lower()
    names: list[str] = []
    for game in all_games():
        if wanted == game.id or wanted in game.aliases:
            return game
        names += [game.id, *game.aliases]
    raise UnknownNameError(
        f"unsupported game: {name!r}",
        hint=did_you_mean(wanted, names) or "see `rulesref games`",
    )


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
