"""Library lookups behind `show` and `page`: clauses by id and by printed page."""

from __future__ import annotations

from rulesref.corpus import Clause, Game
from rulesref.errors import UnknownNameError, did_you_mean
from rulesref.games import all_games, find_game


def find_clause(clause_id: str, game: str | None = None) -> tuple[Game, Clause]:
    """A clause by id, in one game or in any. Raises UnknownNameError with a near miss."""
    games = [find_game(game)] if game is not None else list(all_games())
    for g in games:
        if clause_id in g.clauses:
            return g, g.clauses[clause_id]
    ids = [cid for g in games for cid in g.clauses]
    raise UnknownNameError(
        f"unknown clause {clause_id!r}", hint=did_you_mean(clause_id, ids) or "see `rulesref page N`"
    )


def clauses_on_page(number: int, game: str | None = None) -> list[tuple[Game, Clause]]:
    """Every clause citing a printed page, in corpus order."""
    games = [find_game(game)] if game is not None else list(all_games())
    if not any(g.pages[0] <= number <= g.pages[1] for g in games):
        ranges = ", ".join(f"{g.id} pp. {g.pages[0]}-{g.pages[1]}" for g in games)
        raise UnknownNameError(f"page {number} is outside the rulebooks covered ({ranges})", field="page")
    return [(g, c) for g in games for c in g.clauses.values() if number in c.pages]
