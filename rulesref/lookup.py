"""Ranking for `ask`: find the clause that answers a question typed the way players talk.

A question is analysed like the clauses (index.py): chat spellings, glossary slang and
typos are mapped onto the corpus's words first. Each clause then gets two measures, both
0..1: *coverage*, the share of the question's idf weight its fields match (BM25F-style
field weighting, with words the corpus lacks counted as unmatched), and *phrasing*, how
closely the question's terms match one of the clause's own lines (title, asks,
misreading claims). The score blends the two; below MIN_SCORE nothing is presented.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesref import cache, index
from rulesref.corpus import Clause, Misreading, rules_root
from rulesref.errors import CorpusError, RulesrefError, UnknownNameError, did_you_mean

MIN_SCORE = 0.45
"""Below this the best match is not presented as the answer (chosen from bench data)."""
MISREADING_MIN = 0.55
"""A question at least this close to a misreading's claim reads like that misreading."""
COVERAGE_SHARE = 0.8
"""How much of the score is coverage; the rest is phrasing."""
OTHER_GAME = 0.8
"""Score factor for the games a question does not name when it names one."""
TYPO_MIN = 75.0
"""rapidfuzz ratio (0..100) a misspelt word needs to a corpus word to be read as it."""
SUGGESTIONS = 3


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
                {"claim": self.misreading.claim, "correction": self.misreading.correction} if self.misreading else None
            ),
        }


@dataclass(frozen=True)
class Answer:
    """The result of a lookup: ranked hits, or nothing and a message saying why."""

    query: str
    game: str | None
    """The game the lookup was restricted to (its id), or None for every game."""
    hits: tuple[Hit, ...]
    message: str | None = None
    """Why there are no hits."""
    suggestions: tuple[str, ...] = ()
    """The nearest topics when there are no hits."""

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
    """Lowercase words joined by single spaces (chat spellings normalised)."""
    return " ".join(index.words(text))


# --- the index ----------------------------------------------------------------------

_loaded: dict[str, dict[str, Any]] = {}


def load_index(root: Path | None = None) -> dict[str, Any]:
    """The index of every rule pack under ``root``: from this process, the cache, or built."""
    root = (root or rules_root()).resolve()
    if not root.is_dir():
        raise CorpusError("rules folder not found", file=str(root))
    wanted = cache.key(root)
    found = _loaded.get(wanted) or cache.load(root, wanted)
    if found is None:
        found = build_index(root, wanted)
        cache.save(root, found)
    _loaded.clear()  # one rules folder at a time is all a process needs
    _loaded[wanted] = found
    return found


def build_index(root: Path, key: str = "") -> dict[str, Any]:
    """Parse every rule pack under ``root`` and index it (the slow path: yaml and all)."""
    from rulesref.corpus import game_folders, load_game

    games = [index.build_game(load_game(folder)) for folder in game_folders(root)]
    return {"key": key, "format": index.FORMAT, "games": games}


def _pick_game(games: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """A game by id or alias, as games.find_game does, but from the index."""
    wanted = name.strip().lower()
    names: list[str] = []
    for g in games:
        if wanted == g["id"] or wanted in g["aliases"]:
            return g
        names += [g["id"], *g["aliases"]]
    raise UnknownNameError(f"unsupported game: {name!r}", hint=did_you_mean(wanted, names) or "see `rulesref games`")


# --- asking -------------------------------------------------------------------------


def ask(query: str, *, game: str | None = None, top: int = 5) -> Answer:
    """Rank the clauses (of one game, or all) for ``query``."""
    if top < 1:
        raise RulesrefError(f"--top must be at least 1, got {top}", field="--top")
    all_games: list[dict[str, Any]] = load_index()["games"]
    games = all_games
    chosen = _pick_game(games, game)["id"] if game else None
    if chosen:
        games = [g for g in games if g["id"] == chosen]
    tokens = index.words(query)
    if not any(t not in index.STOP for t in tokens):
        return Answer(query, chosen, (), "the question has no words to look up")
    named = {g["id"] for g in games if set(g["names"]) & set(tokens)}
    names = {w for g in games for w in g["names"]}
    tokens = [t for t in tokens if t not in names]
    ranked: list[tuple[float, int, int, Misreading | None]] = []
    known = {t for t in tokens if any(t in g["vocab"] for g in all_games)}
    for gi, g in enumerate(games):
        factor = OTHER_GAME if named and g["id"] not in named else 1.0
        others = frozenset(t for t in known if t not in g["vocab"])
        for ci, score, mis in score_game(g, tokens, others):
            ranked.append((score * factor, gi, ci, mis))
    ranked.sort(key=lambda r: (-r[0], r[1], r[2]))
    hits = [Hit(_clause(games[gi]["clauses"][ci]), score, mis) for score, gi, ci, mis in ranked[:top]]
    if not hits or hits[0].score < MIN_SCORE:
        near = tuple(f"{h.clause.title} ({h.clause.id})" for h in hits[:SUGGESTIONS] if h.score > 0)
        return Answer(query, chosen, (), "no clause matches this question well", near)
    return Answer(query, chosen, tuple(hits))


def score_game(
    g: dict[str, Any], tokens: list[str], others: frozenset[str] = frozenset()
) -> list[tuple[int, float, Misreading | None]]:
    """(clause index, score 0..1, misreading or None) for every clause the question touches."""
    terms = _query_terms(g, correct(g, tokens, others))
    if not terms:
        return []
    coverage = _coverage(g, terms)
    phrasing, claims = _phrasing(g, terms)
    out = []
    for ci in set(coverage) | set(phrasing):
        score = COVERAGE_SHARE * coverage.get(ci, 0.0) + (1 - COVERAGE_SHARE) * phrasing.get(ci, 0.0)
        out.append((ci, score, _misreading(g["clauses"][ci], claims.get(ci))))
    return out


def _query_terms(g: dict[str, Any], tokens: list[str]) -> dict[str, float]:
    """Term -> query weight (the largest, when a term comes up twice)."""
    terms: dict[str, float] = {}
    for term, weight in index.analyse(tokens, g["phrases"], g["longest"]):
        if weight >= 1.0 or term in g["postings"]:  # an unknown part of a phrase is no evidence
            terms[term] = max(weight, terms.get(term, 0.0))
    return terms


def _coverage(g: dict[str, Any], terms: dict[str, float]) -> dict[int, float]:
    """Share of the question's idf weight each clause matches; unknown words count as unmatched."""
    postings: dict[str, list[list[float]]] = g["postings"]
    unknown = math.log(1 + (g["n"] + 0.5) / 0.5)
    total = 0.0
    got: dict[int, float] = {}
    for term, weight in terms.items():
        row = postings.get(term)
        idf = row[0][0] if row else unknown
        total += weight * idf
        for ci, sat in row[1:] if row else ():
            got[int(ci)] = got.get(int(ci), 0.0) + weight * idf * sat
    return {ci: s / total for ci, s in got.items()} if total else {}


def _phrasing(g: dict[str, Any], terms: dict[str, float]) -> tuple[dict[int, float], dict[int, tuple[int, float]]]:
    """Best line similarity per clause (idf-weighted cosine), and its best misreading claim."""
    postings: dict[str, list[list[float]]] = g["postings"]
    lines: dict[str, Any] = g["lines"]
    unknown = math.log(1 + (g["n"] + 0.5) / 0.5)
    norm = 0.0
    dot: dict[int, float] = {}
    for term, weight in terms.items():
        idf = postings[term][0][0] if term in postings else unknown
        norm += (weight * idf) ** 2
        for li in lines["inverted"].get(term, ()):
            dot[li] = dot.get(li, 0.0) + weight * idf * idf
    best: dict[int, float] = {}
    claims: dict[int, tuple[int, float]] = {}
    for li, d in dot.items():
        ci, kind, j = lines["owners"][li]
        sim = d / (math.sqrt(norm) * lines["norms"][li])
        best[ci] = max(best.get(ci, 0.0), sim)
        if kind == "claim" and sim > claims.get(ci, (0, 0.0))[1]:
            claims[ci] = (j, sim)
    return best, claims


def _misreading(record: dict[str, Any], claim: tuple[int, float] | None) -> Misreading | None:
    if claim is None or claim[1] < MISREADING_MIN:
        return None
    text, correction = record["misreadings"][claim[0]]
    return Misreading(text, correction, record["id"])


# --- spelling -----------------------------------------------------------------------


def correct(g: dict[str, Any], tokens: list[str], others: frozenset[str] = frozenset()) -> list[str]:
    """Tokens mapped onto the game's vocabulary: joined, split or typo-corrected where needed.

    ``others`` are words other games know: real words, so never "corrected".
    """
    vocab: dict[str, int] = g["vocab"]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if i + 1 < len(tokens) and len(t) > 1 and t + tokens[i + 1] in vocab and not _known(g, t + " " + tokens[i + 1]):
            out.append(t + tokens[i + 1])  # "back track" -> "backtrack"
            i += 2
            continue
        if _known(g, t) or t in others:  # a word another game knows is a word, not a typo
            out.append(t)
        else:
            out.extend(_split(vocab, t) or [_nearest(vocab, t)])
        i += 1
    return out


def _known(g: dict[str, Any], text: str) -> bool:
    if " " in text:
        return index._phrase_key(text) in g["phrases"]
    return text in g["vocab"] or text in index.STOP or text.isdigit() or index.stem(text) in g["postings"]


def _split(vocab: dict[str, int], t: str) -> list[str] | None:
    """An unknown run-together word as two known ones ("flyoff" -> "fly off")."""
    if len(t) < 6:
        return None
    splits = [(t[:k], t[k:]) for k in range(2, len(t) - 1) if t[:k] in vocab and t[k:] in vocab]
    if not splits:
        return None
    a, b = max(splits, key=lambda s: (min(len(s[0]), len(s[1])), s[0]))
    return [a, b]


def _nearest(vocab: dict[str, int], t: str) -> str:
    """The closest vocabulary word with the same first letter, else the word itself."""
    from rapidfuzz import fuzz, process

    if len(t) < 5 or t.isdigit():
        return t
    found = process.extract(t, list(vocab), scorer=fuzz.ratio, score_cutoff=TYPO_MIN, limit=None)
    found = [f for f in found if f[0][0] == t[0]]
    if not found:
        return t
    word, _sim, _ = max(found, key=lambda f: (f[1], vocab[f[0]], f[0]))
    return str(word)


def _clause(r: dict[str, Any]) -> Clause:
    return Clause(
        id=r["id"],
        game=r["game"],
        title=r["title"],
        text=r["text"],
        pages=tuple(r["pages"]),
        kind=r["kind"],
        tags=tuple(r["tags"]),
        asks=tuple(r["asks"]),
        see=tuple(r["see"]),
        misreadings=tuple(Misreading(m[0], m[1], r["id"]) for m in r["misreadings"]),
        page_note=r["page_note"],
        file=r["file"],
        line=r["line"],
    )
