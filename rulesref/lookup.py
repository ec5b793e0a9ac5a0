"""Index and ranking for `ask` (first version; tuned against bench/questions.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from rulesref.corpus import Clause, Game, Misreading
from rulesref.errors import RulesrefError

WORD = re.compile(r"[a-z0-9]+")
MIN_SCORE = 0.45
"""Below this the best match is not presented as the answer."""


@dataclass(frozen=True)
class Hit:
    """One clause that answers (or may answer) a question."""

    clause: Clause
    score: float
    """0..1, higher is better."""
    misreading: Misreading | None = None
    """Set when the question reads like this known misreading."""

    def to_json(self) -> dict[str, object]:
        c = self.clause
        return {
            "id": c.id,
            "game": c.game,
            "title": c.title,
            "text": c.text,
            "pages": list(c.pages),
            "score": round(self.score, 3),
            "misreading": (
                {"claim": self.misreading.claim, "correction": self.misreading.correction}
                if self.misreading
                else None
            ),
        }


@dataclass(frozen=True)
class Answer:
    """The result of a lookup: ranked hits, or nothing and a message saying why."""

    query: str
    game: str | None
    hits: tuple[Hit, ...]
    message: str | None = None
    suggestions: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "query": self.query,
            "game": self.game,
            "results": [h.to_json() for h in self.hits],
        }
        if self.message:
            out["message"] = self.message
            out["suggestions"] = list(self.suggestions)
        return out


def normalise(text: str) -> str:
    return " ".join(WORD.findall(text.lower()))


def ask(query: str, *, game: str | None = None, top: int = 5) -> Answer:
    """Rank the clauses (of one game, or all) for ``query``."""
    from rulesref.games import all_games, find_game

    if top < 1:
        raise RulesrefError(f"--top must be at least 1, got {top}", field="--top")
    games: list[Game] = [find_game(game)] if game else list(all_games())
    q = normalise(query)
    if not q:
        return Answer(query, game, (), "the question has no words to look up", ())
    choices: dict[tuple[int, int], str] = {}
    clauses: list[Clause] = []
    for g in games:
        for c in g.clauses.values():
            ci = len(clauses)
            clauses.append(c)
            for j, text in enumerate((c.title, *c.asks, *(m.claim for m in c.misreadings))):
                choices[(ci, j)] = normalise(text)
    best: dict[int, float] = {}
    for _text, score, key in process.extract(q, choices, scorer=fuzz.token_set_ratio, limit=200):
        ci = key[0]
        best[ci] = max(best.get(ci, 0.0), score / 100)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])[:top]
    hits = tuple(Hit(clauses[ci], s) for ci, s in ranked)
    if not hits or hits[0].score < MIN_SCORE:
        return Answer(query, game, (), "no clause matches this question well", tuple(h.clause.title for h in hits[:3]))
    return Answer(query, game, hits)
