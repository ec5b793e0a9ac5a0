"""Ranking for `ask`: find the clause that answers a question typed the way players talk.

A question is analysed like the clauses (index.py) after its words are mapped onto the
corpus: chat spellings, glossary slang, run-together words and typos. Each clause then
gets two measures in 0..1: *coverage*, the share of the question's idf weight the
clause's fields match (BM25F-style field weights and saturation; words no clause uses
count as unmatched), and *phrasing*, the idf-weighted cosine between the question and the
closest of the clause's own lines (title, asks, misreading claims), the next two closest
weighing in. The score blends them, a little less for an open question, and is damped
when the matched evidence is thin (two common words are no answer). Below MIN_SCORE
nothing is presented as the answer.

Clauses that pass are ranked with a plain BM25 match added (SURFACE): the question's words
as written, and the order it names the game's terms in, against the clause's asks, title,
text and tags. With thousands of players' phrasings in the asks, how often they use the
question's very words is evidence the analysed score flattens.

Once there is an answer, the phrasing model (learned.py, a classifier trained on the titles
and asks) re-orders the first results (_phrasing_model); it never decides whether there is
an answer.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, NamedTuple

from rulesref import cache, frames, index, learned
from rulesref.clause import SCHEMA_VERSION, Clause, Misreading, rules_root
from rulesref.errors import CorpusError, RulesrefError, UnknownNameError, did_you_mean

MIN_SCORE = 0.2
"""Below this the best match is not presented as the answer (bench/lookup.py, tests/test_lookup.py)."""
CHATTER_SCORE = 0.1
STRONG_EVIDENCE = 3.0
STRONG_TERMS = 2
"""A match below MIN_SCORE is still presented with a score of CHATTER_SCORE, evidence of
STRONG_EVIDENCE and STRONG_TERMS matched terms: a real question amid chatter."""
SAME_WORDS = 0.8
"""A question whose words are, near enough, one of a clause's lines (its title, an ask) is
answered however little evidence so short a question gives ("is there a hand limit")."""
EXACT = 0.99
"""A question that is one of a clause's lines (its title or an ask), word for word, is answered
by that clause whatever else scores higher: the pack's author wrote that question for it."""
COVERAGE_SHARE = 0.8
"""How much of the score is coverage; the rest is phrasing."""
EVIDENCE = 3.0
"""Matched idf weight at which a match counts as fully evidenced; below it the score is damped."""
GUESSED = 0.7
"""Evidence factor of a term only a typo correction produced: nonsense corrected into game
words ("purple elephants dancing" -> "purpose", "dining") is a guess, not a question."""
NAMED_EVIDENCE = 1.5
"""Evidence a question gives by naming the game ("in pacg, ...")."""
UNKNOWN = 1.0
"""Weight of a word no clause uses, as a share of the idf of a word used once."""
OTHER_GAME = 0.8
"""Score factor for the games a question does not name when it names one."""
TYPO_MIN = 75.0
"""rapidfuzz ratio (0..100) a misspelt word needs to a corpus word to be read as it."""
SHORT_COUNT = 2
"""How often a corpus word must occur to be the reading of a misspelt three- or four-letter word."""
MISREADING_MIN = 0.2
"""Similarity to a claim that flags a misreading when the question asserts something."""
MISREADING_CLOSE = 0.8
"""Similarity to a claim that flags a misreading however the question is put."""
SURFACE = 0.4
"""Weight of the plain word match (the best clause's scaled to 1) beside the analysed score."""
NEXT_LINES = 0.5
"""Share of a clause's phrasing similarity that its second and third closest lines give."""
OPEN = 0.95
"""Score factor of an open question: it answers only a question that names its edge case."""
ROLE_MISMATCH = 0.8
"""Score factor of a clause whose declared roles the question's frame contradicts (frames.py):
"a death eater lands on my pawn" is not the stun, however many words they share."""
ROLE_MATCH = 1.05
"""Score factor of a clause whose declared roles the question's frame states."""
DIRECTION_MATCH = 1.1
"""ROLE_MATCH where they include who moved onto whom (mover, target): the direction the
question describes is the stronger sign, beside a side it merely names."""
EDGE_UNSTATED = 0.9
"""Score factor of a clause about an edge case (frames.EDGES) the question does not name:
"Harry stops on Bellatrix's space" is the stun, not the stun of several pawns."""
EDGE_MATCH = 1.1
"""Score factor, beside ROLE_MATCH, of a clause about an edge case the question names: "two
death eaters on the space" is the open question of several pawns, not the plain stun."""
SIDE_UNSTATED = 0.9
"""Score factor of a clause about one side (``side:``) other than the game's ``speaker`` when
the question names that side nowhere."""
ABOUT_MATCH = 1.2
ABOUT_MISMATCH = 0.9
"""Score factors of a clause about one party of a move (``about: target``, where the bumped
pawn goes) when the question asks after that party, or after the other one."""
LEFT_OUT = 1.7
"""Score factor of a part of the game the pack leaves out (game.yaml scope): above 1, a question
that fits a left-out topic about as well as a clause is refused rather than answered wrongly."""
CUED_AT = 0.5
"""REFUSE_AT for a question that uses one of a left-out topic's cues (game.yaml ``cues:``,
"the best", "worth"): the cue is evidence of advice, so less doubt about the rule it names
withholds the answer ("is it smarter to save blessings for the villain"), while a rules
question framed with a cue word and close to a clause's own lines is still answered ("is
it better to play a blessing before or after I roll?")."""
OUTSIDE_WORDS = 2.0
"""How much more a left-out topic weighs for each share of the question's weight in words
only the left-out topics use (_outside_share)."""
BOTH_GAMES = 0.9
"""A clause of another game than the answer's is listed beside it only when it scores this
share of the answer's score: the question fits both games."""
OUT_OF_SCOPE: dict[str, float] = {
    "bias": 8.6839,
    "score": -20.3565,
    "own": 6.687,
    "line": -1.9926,
    "matched": -0.5305,
    "evidence": -0.0001,
    "left_out": 7.8739,
    "words": 0.2298,
}
"""Weights of the refusal model: a logistic regression on the best clause's figures (its
score, analysed score, closest line, matched terms, log of its evidence), the best left-out
topic's score, and the log of the question's content words. Fitted by bench/refusal.py on
the bench sets it names (bench/README.md); REFUSE_AT is the chance of being out of scope at
which an answer is withheld."""
REFUSE_AT = 0.75
MODEL_SURE = 0.6
"""A refusal the refusal model alone would make is withheld when the phrasing model gives a
clause among the first results this much. Chosen on held-out 65-72 (in scope refused 0.64%
to 0.43%); on the 1,920 out-of-scope questions of every set it answers 4 more (4.27% to 4.48%)."""
SURE_OVER_TOPIC = 0.9
"""The same for a left-out topic in the lead, or a best clause too weak to answer: only
near certainty outweighs one. Chosen on held-out 73-76; on the 1,920 out-of-scope
questions of the sets before them it answers 1 more."""
RESCUE_SURE = 0.2
RESCUE_OUT = 0.6
"""Any refusal is withheld when the phrasing model gives a first clause at least
RESCUE_SURE and its out-of-scope class (learned.OUT) at most RESCUE_OUT: the question is
put the way players ask the rules, only in words the ranking finds weak ("do the vilain
steps count when its only a henchmen"). Unless it is cued as advice."""
OUT_REFUSE = 0.7
"""An answer is withheld when the out-of-scope class has this much, the question is not
near a clause's own line (SAME_WORDS) and the model is not sure of a clause (MODEL_SURE):
it is put the way the questions the packs do not cover are. RESCUE_SURE, RESCUE_OUT and
this were chosen together with a model trained on the sets before held-out 101, measured
on 101-118: in scope refused 13 to 3 of 3,150, out of scope answered 14 to 6 of 450."""
MODEL_OVER_LINE = 0.4
"""A clause the phrasing model gives this much takes the lead from one whose own line the
question nearly is, when the model's say puts it first: "cannot versus can" is near the
line of a clause about the order of card powers, but put the way players ask whether
"cannot" beats "can". With a model trained on the sets before held-out 101, measured on
101-118: top-1 95.71% at no such rule, 95.87% at 0.9, 96.00% at 0.5, 96.03% at 0.4,
96.00% at 0.3, 95.94% at 0 (no protection)."""
LEARNED = 1.3
"""How much the phrasing model's probability (0..1, learned.py) weighs beside a clause's
share of the best score when the first results are re-ordered (_phrasing_model): 0.6 once
the model learned from the bench sets too, chosen on held-out 36-41 with the model trained
on the sets before them (bench/README.md); 1.3 once it had learned from 17,000 bench
questions, chosen with MODEL_OVER_LINE on held-out 101-118 with the model trained on the
sets before them (top-1 96.03% at 0.6, 96.29% at 1.0, 96.32% at 1.3, 96.29% at 1.6)."""
LEARNED_DEPTH = 10
"""How many of the first results the phrasing model re-orders."""
CONTRADICTED_LIFT = 0.5
"""The share of the phrasing model's lift a clause gets when the question's frame contradicts
its roles: the model reads words, not who moved onto whom, and "my pawn lands on a death
eater" is worded as both directions are. Half, on held-out 73-76 (+3 of 700); none lost 12
questions in an earlier round (bench/README.md)."""
SUGGESTIONS = 3
NEAR = 0.1
"""A refused question is offered the nearest clauses only when their own score reaches this."""
MAX_WORDS = 200
"""Only the first words of a longer question are read: a table question is never that long."""
LONGEST_WORD = 40
"""A longer "word" is not a misspelt or run-together corpus word, so it is not looked at."""

# A question that asserts and asks for confirmation ("..., right?") reads like a claim.
_CONFIRM = (
    r"\b(right|correct|yes|yeah|yep|yea|ok|okay|true|surely|huh|eh|innit|is(nt| not) it|do(nt|esnt) (it|they|we))"
    r"\W*$|(,|;|—|-)\s*so\b|\bi thought\b|\bwe(ve| have) been\b|\bpretty sure\b|\bi was told\b"
)
# A claim reported, then questioned: "he says he gets another turn. does he?": the
# question ends the text, and a reporting word comes before it on the same line. Two
# searches, not one pattern: "said.*does he$" backtracks over the rest of the line from
# every "said", which is quadratic in a long paste. The question at the end can start in
# one place only (its verb and pronoun are distinct words), so one search finds it.
_QUESTIONED = r"\b(does|do|did|can|could|is|are|was|will|should)\s+(he|she|they|it|that|this|we|i|you)\b(\s+\w+)?\W*$"
_REPORTED = r"\b(says?|said|claims?|claimed|reckons?|insists?|thinks?)\b"


def asserts(query: str) -> bool:
    """Whether the question states something and asks for confirmation."""
    text = query.strip()
    if re.search(_CONFIRM, text, re.IGNORECASE):
        return True
    question = re.search(_QUESTIONED, text, re.IGNORECASE)
    if question is None:
        return False
    # the line up to the question (`.` in the one pattern this was did not cross lines);
    # the character before the question is not a word character, so `\b` reads the same
    line = text[text.rfind("\n", 0, question.start()) + 1 : question.start()]
    return re.search(_REPORTED, line, re.IGNORECASE) is not None


class Hit(NamedTuple):  # NamedTuples: far cheaper to define than dataclasses, on every start
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
            "pages_inferred": list(c.pages_inferred),
            "score": round(self.score, 3),
            "misreading": (
                {"claim": self.misreading.claim, "correction": self.misreading.correction} if self.misreading else None
            ),
            "kind": c.kind,
            "see": list(c.see),
        }


class Answer(NamedTuple):
    """The result of a lookup: ranked hits, or nothing and a message saying why."""

    query: str
    game: str | None
    """The game the lookup was restricted to (its id), or None for every game."""
    hits: tuple[Hit, ...]
    message: str | None = None
    """Why there are no hits."""
    suggestions: tuple[tuple[str, str], ...] = ()
    """The nearest topics when there are no hits, as ``(id, title)``."""
    covers: str | None = None
    """When the question is about what the packs leave out: what they do cover, in a line."""

    def to_json(self) -> dict[str, object]:
        """The `ask --json` contract (docs/json.md): the same keys for an answer and a miss."""
        return {
            "schema_version": SCHEMA_VERSION,
            "query": self.query,
            "game": self.game,
            "results": [h.to_json() for h in self.hits],
            "message": self.message,
            "suggestions": [{"id": sid, "title": title} for sid, title in self.suggestions],
            "covers": self.covers,
        }


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

    games = [load_game(folder) for folder in game_folders(root)]
    return {"key": key, "games": index.build_games(games), "learned": learned.for_index(learned.read(root), games)}


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


class _Scored(NamedTuple):  # a NamedTuple: cheaper to define than a dataclass, on every start
    score: float
    """What the clause is ranked and shown by: its own score with the plain word match."""
    own: float
    """The analysed score alone (score_game), which decides whether there is an answer."""
    game: int
    clause: int
    claim: tuple[int, float] | None
    """The clause's closest misreading claim: (its number, similarity)."""
    evidence: float
    """The matched weight behind the score (see score_game)."""
    matched: int
    """How many of the question's terms the clause matches."""
    line: float = 0.0
    """The cosine of the clause's single closest line (title, ask, claim) to the question."""
    left_out: bool = False
    """Not a clause: a part of the game its pack leaves out (game.yaml scope)."""
    contradicted: bool = False
    """The question's frame contradicts a role the clause declares (another mover, another side)."""
    cued: bool = False
    """A left-out topic one of whose cues the question uses (game.yaml ``cues:``)."""
    fit: float = 1.0
    """How the clause's roles fit the question's frame (_fits): below 1, the frame is against it."""


def ask(query: str, *, game: str | None = None, top: int = 5) -> Answer:
    """Rank the clauses (of one game, or all) for ``query``."""
    if top < 1:
        raise RulesrefError(f"--top must be at least 1, got {top}", field="--top")
    if not query.strip():
        raise RulesrefError("the question is empty", field="QUESTION")
    built = load_index()  # once: its key reads every rule file and the model
    every: list[dict[str, Any]] = built["games"]
    games = [_pick_game(every, game)] if game is not None else every
    chosen = games[0]["id"] if game is not None else None
    tokens = index.words(query)[:MAX_WORDS]
    if not any(t not in index.STOP for t in tokens):
        return Answer(query, chosen, (), _no_words(query))
    named, compared, names = _other_game(games, _phrases(query))
    if named is not None:  # "in chess, can a pawn move backwards": about chess, not these rules
        return Answer(query, chosen, (), f"these rules don't cover that ({named})", (), _covers(games))
    tokens = [t for t in tokens if t not in names]  # "... like a capture in chess": asked of these rules
    ranked = [r for r in _rank(query, tokens, games, every) if (r.game, r.clause) not in compared]
    ranked = _same_words_first(ranked)
    clauses = [r for r in ranked if not r.left_out]
    model = built.get("learned")
    numbers = [every.index(g) for g in games]
    p = learned.probabilities(model, query) if model is not None else None
    # the model knows how players put a rule, not whether they ask it as advice: a cued
    # question ("is it worth ...") is refused whatever the model says
    cued = any(r.cued for r in ranked)
    sure = 0.0 if cued or model is None or p is None else _model_sure(p, clauses, model, numbers)
    out = p[model["out"]] if p is not None and model is not None and model["out"] >= 0 else 0.0
    rescued = sure >= RESCUE_SURE and out <= RESCUE_OUT
    if ranked and ranked[0].left_out and sure < SURE_OVER_TOPIC and not rescued:
        return _refusal(query, chosen, games, ranked)
    if clauses and answers(clauses[0]):
        chance = out_of_scope(refusal_features(ranked, tokens))
        if chance >= (CUED_AT if cued else REFUSE_AT) and sure < MODEL_SURE and not rescued:
            return _refusal(query, chosen, games, ranked)
        if out >= OUT_REFUSE and clauses[0].line < SAME_WORDS and sure < MODEL_SURE:
            return _refusal(query, chosen, games, ranked)
    ranked = clauses
    if not ranked or (not answers(ranked[0]) and sure < SURE_OVER_TOPIC and not rescued):
        return Answer(query, chosen, (), "no clause matches this question well", _near_topics(games, clauses))
    if model is not None and p is not None:
        ranked = _phrasing_model(p, ranked, model, numbers)
    # the rest of the answer comes from the answer's game, unless the question fits both
    first = ranked[0]
    ranked = [r for r in ranked if r.game == first.game or r.score >= BOTH_GAMES * first.score][:top]
    # the claim test compiles a long pattern: only worth it when a hit is near a claim
    near_claim = any(r.claim and MISREADING_MIN <= r.claim[1] < MISREADING_CLOSE for r in ranked)
    claims = near_claim and asserts(query)
    return Answer(query, chosen, tuple(_hit(games[r.game], r, claims, query) for r in ranked))


def _model_sure(p: list[float], clauses: list[_Scored], model: dict[str, Any], numbers: list[int]) -> float:
    """The phrasing model's highest probability ``p`` (learned.probabilities) for one of the
    first clauses: a question the ranking doubts for its few or unusual words ("card text
    versus rulebook") may still be put the way players put that clause."""
    of = [learned.classes_of(model, n) for n in numbers]
    return max((p[c] for r in clauses[:LEARNED_DEPTH] if (c := of[r.game][r.clause]) >= 0), default=0.0)


def _refusal(query: str, chosen: str | None, games: list[dict[str, Any]], ranked: list[_Scored]) -> Answer:
    """The packs do not cover the question: the nearest left-out topic named, when it is near."""
    clauses = [r for r in ranked if not r.left_out]
    # a question that uses a topic's cue is refused as that topic, whichever leads
    topic = next((r for r in ranked if r.cued), None) or next((r for r in ranked if r.left_out), None)
    message = "these rules don't cover that"
    if topic is not None and (topic.own >= NEAR or topic.cued):
        message += f" ({_topic(games[topic.game], topic.clause)})"
    return Answer(query, chosen, (), message, _near_topics(games, clauses), _covers(games))


def refusal_features(ranked: list[_Scored], tokens: list[str]) -> dict[str, float]:
    """What the refusal model (OUT_OF_SCOPE) reads of a ranking: the best clause's figures,
    the best left-out topic's score, and how many content words the question has."""
    first = next(r for r in ranked if not r.left_out)
    words = sum(1 for t in tokens if t not in index.STOP)
    return {
        "score": first.score,
        "own": first.own,
        "line": first.line,
        "matched": float(first.matched),
        "evidence": math.log1p(first.evidence),
        "left_out": max((r.score for r in ranked if r.left_out), default=0.0),
        "words": math.log(max(words, 1)),
    }


def out_of_scope(features: dict[str, float]) -> float:
    """The refusal model's chance that the question is one the packs do not cover."""
    if features["line"] >= SAME_WORDS:
        return 0.0  # a question that is, near enough, a clause's own line is never refused
    z = OUT_OF_SCOPE["bias"] + sum(OUT_OF_SCOPE[k] * v for k, v in features.items())
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def _same_words_first(ranked: list[_Scored]) -> list[_Scored]:
    """The ranking, with the clause whose own line the question is put first (EXACT), or the
    one it nearly is when the leader would be refused: a question as short as "who goes
    first" gives too little evidence to win on, yet says exactly what it asks. A left-out
    topic in the lead keeps it against a line the question is only near: "how many cards do
    we start with" is near a rule's ask too."""
    if not ranked:
        return ranked
    same = max(ranked, key=lambda r: r.line)
    needed = EXACT if ranked[0].left_out or answers(ranked[0]) else SAME_WORDS
    # the line match counts words, not their order: "the death eater ended its move on my
    # pawn" has the words of "my pawn ends its move on a death eater", and the frame says so
    if same.left_out or same.line < needed or same.contradicted:
        return ranked
    return [same, *(r for r in ranked if r is not same)]


def _rank(query: str, tokens: list[str], games: list[dict[str, Any]], every: list[dict[str, Any]]) -> list[_Scored]:
    """Every clause of ``games`` the question touches, best first (ties in corpus order)."""
    tokens, titled = _without_titles(tokens, every)
    named = titled | {g["id"] for g in games if set(g["names"]) & set(tokens)}
    tokens = [t for t in tokens if not any(t in g["names"] for g in every)]
    known = {t for t in tokens if any(t in g["vocab"] for g in every)}
    people = _names_of_people(query, known)
    found: list[tuple[_Scored, float]] = []  # each with its plain word match
    phrases = _phrases(query)
    for gi, g in enumerate(games):
        factor = OTHER_GAME if named and g["id"] not in named else 1.0
        spelled: dict[str, str] = {}
        words = correct(g, tokens, frozenset(known - g["vocab"].keys()), people, spelled)
        analysed = index.analyse(words, g["phrases"], g["longest"])
        # terms only a correction produced ("dancing" read as "dining") are a guess: less evidence
        written = {t for t, _ in index.analyse(tokens, g["phrases"], g["longest"])}
        guessed = frozenset(t for t, _ in analysed if t not in written)
        plain = _surface(g, words, analysed)
        frame = frames.read(
            query, g["phrases"], g["longest"], g["roles_of"], speaker=g["speaker"], sides=g["sides"], spelled=spelled
        )
        left_out = set(index.unpack_ints(g["scope"]))
        outside = LEFT_OUT * (1 + OUTSIDE_WORDS * _outside_share(g, analysed, left_out))
        cued = _cued(g, phrases)
        for ci, s, claim, ev, n, line in score_game(g, analysed, NAMED_EVIDENCE if g["id"] in named else 0.0, guessed):
            out = ci in left_out
            roles = None if out else g["roles"].get(ci)
            fit = 1.0 if out else _fits(frame, roles, g["speaker"])
            f = factor * (outside if out else fit)
            contradicted = roles is not None and _contradicts(frame, roles)
            scored = _Scored(s * f, s * f, gi, ci, claim, ev, n, line, out, contradicted, ci in cued, fit)
            found.append((scored, plain.get(ci, 0.0) * f))
    top = max((p for _, p in found), default=0.0) or 1.0
    ranked = [r._replace(score=(r.own + SURFACE * p / top) / (1 + SURFACE)) for r, p in found]
    return sorted(ranked, key=lambda r: (-r.score, r.game, r.clause))


def _phrasing_model(p: list[float], ranked: list[_Scored], model: dict[str, Any], numbers: list[int]) -> list[_Scored]:
    """The first LEARNED_DEPTH clauses re-ordered with the phrasing model's probability ``p``
    (learned.probabilities) added to their share of the best score, LEARNED times over.
    Whether there is an answer at all was decided before (the model's only say there is
    _model_sure)."""
    head, rest = ranked[:LEARNED_DEPTH], ranked[LEARNED_DEPTH:]
    best = head[0].score or 1.0
    fused = []
    chances = []
    for r in head:
        c = learned.classes_of(model, numbers[r.game])[r.clause]
        chances.append(p[c] if c >= 0 else 0.0)
        share = r.score / best + LEARNED * chances[-1] * (CONTRADICTED_LIFT if r.contradicted else 1.0)
        fused.append(r._replace(score=best * share / (1 + LEARNED)))
    # a leader whose own line the question nearly is keeps the lead: that is closer
    # evidence than a model of all the clause's lines, unless the frame contradicts it, or
    # another clause the model prefers has the frame's better fit, a line as close and as
    # good a fit, or MODEL_OVER_LINE
    lead = (
        head[0].line >= SAME_WORDS
        and not head[0].contradicted
        and not any(
            f.score > fused[0].score
            and (r.fit > head[0].fit or (r.line >= head[0].line and r.fit >= head[0].fit) or q >= MODEL_OVER_LINE)
            for r, f, q in zip(head[1:], fused[1:], chances[1:], strict=True)
        )
    )
    fused[lead:] = sorted(fused[lead:], key=lambda r: (-r.score, r.game, r.clause))
    if lead and len(fused) > 1:
        fused[0] = fused[0]._replace(score=max(fused[0].score, fused[1].score))
    return fused + [r._replace(score=r.score / (1 + LEARNED)) for r in rest]


TITLE_WORDS = 3
"""A game's alias of this many words or more, written out ("houses vs dark arts",
"pathfinder adventure card game"), names the game; a shorter one ("dark arts") is a term."""
_VERSUS = {"versus": "vs", "v": "vs"}


def _without_titles(tokens: list[str], every: list[dict[str, Any]]) -> tuple[list[str], set[str]]:
    """The question's words without the games' names written out, and the games so named:
    "how do I set up the board for houses vs dark arts" asks about setting up, not about
    houses and the Dark Arts."""
    titles = sorted(
        (
            (parts, g["id"])
            for g in every
            for a in g["aliases"]
            if len(parts := [_VERSUS.get(w, w) for w in a.split("-")]) >= TITLE_WORDS
        ),
        key=lambda t: -len(t[0]),
    )
    if not titles:
        return tokens, set()
    plain = [_VERSUS.get(t, t) for t in tokens]
    out: list[str] = []
    named: set[str] = set()
    i = 0
    while i < len(tokens):
        found = next(((p, gid) for p, gid in titles if plain[i : i + len(p)] == p), None)
        if found is None:
            out.append(tokens[i])
            i += 1
        else:
            named.add(found[1])
            i += len(found[0])
    return out, named


_PUNCTUATION = re.compile(r"[.,;:!?()\"]+")


def _phrases(query: str) -> list[str]:
    """The question's words between punctuation marks, each padded with spaces for a cue to
    be found in: a cue is a phrase, so it does not run across punctuation ("the number on
    the card, do I beat it" does not say "card do")."""
    return [f" {' '.join(index.words(p))} " for p in _PUNCTUATION.split(query[: MAX_WORDS * LONGEST_WORD])]


def _cued(g: dict[str, Any], phrases: list[str]) -> frozenset[int]:
    """The left-out topics one of whose cues the question uses ("the best", "should we")."""
    return _topics_using(g["cues"], phrases)


COMPARING = re.compile(r" (?:like|unlike|as in) (?:\w+ ){0,4}$")
"""Words before another game's name that compare a rule with it: "does it stay on the square
like a capturing piece in chess" asks these rules, only in chess's terms."""
WHOLE_GAME = re.compile(
    r"^ (?:is|does|do) (?:this|it)(?: \w+)? $"
    r"|\b(?:this|the) game\b|\bthis plays?\b|\b(?:pathfinder|pacg|houses vs dark arts)\b"
)
"""A comparison of the whole game ("is this like Hogwarts Battle") is about the other game."""


def _other_game(
    games: list[dict[str, Any]], phrases: list[str]
) -> tuple[str | None, frozenset[tuple[int, int]], frozenset[str]]:
    """The left-out topic whose ``names`` (another game's) the question asks about, if any.
    A name it only compares with (COMPARING) says the question is asked of these rules: the
    topics (game, topic) naming it are returned to be left out of the ranking, with the
    name's words."""
    said = {n for g in games for names in g["naming"].values() for n in names if any(f" {n} " in p for p in phrases)}
    compared = {n for n in said if all(_compares(p, n) for p in phrases if f" {n} " in p)}
    asked = said - compared
    topic = next(
        (_topic(g, ci) for g in games for ci, names in sorted(g["naming"].items()) if asked & set(names)), None
    )
    dropped = frozenset(
        (gi, ci) for gi, g in enumerate(games) for ci, names in g["naming"].items() if compared & set(names)
    )
    return topic, dropped, frozenset(w for n in compared for w in n.split())


def _compares(phrase: str, name: str) -> bool:
    before = phrase[: phrase.find(f" {name} ") + 1]
    found = COMPARING.search(before)
    return found is not None and WHOLE_GAME.search(before[: found.start() + 1]) is None


def _topics_using(table: dict[int, tuple[str, ...]], phrases: list[str]) -> frozenset[int]:
    """The topics of ``table`` (topic -> its cues or names) one of whose phrases the question
    uses, within one stretch between punctuation marks (_phrases)."""
    return frozenset(ci for ci, said in table.items() if any(f" {c} " in p for c in said for p in phrases))


def _outside_share(g: dict[str, Any], analysed: list[tuple[str, float]], left_out: set[int]) -> float:
    """The share of the question's known weight in words only the left-out topics use
    ("expansion", "solo", "chess"): a rule never needs them, so a question using them is
    about what the pack leaves out."""
    total = only = 0.0
    for term, weight in _query_terms(g, analysed).items():
        p = index.posting(g, term)
        if p is None:
            continue
        total += weight * p.idf
        if set(index.unpack_ints(p.clauses)) <= left_out:
            only += weight * p.idf
    return only / total if total else 0.0


def _topic(g: dict[str, Any], ci: int) -> str:
    import marshal

    return str(marshal.loads(g["clauses"][ci])["topic"])


def _near_topics(games: list[dict[str, Any]], clauses: list[_Scored]) -> tuple[tuple[str, str], ...]:
    """The nearest topics offered with a refusal: only those near enough (NEAR)."""
    return tuple(_suggestion(games[r.game], r.clause) for r in clauses[:SUGGESTIONS] if r.own >= NEAR)


def _covers(games: list[dict[str, Any]]) -> str:
    """What the packs asked cover, in one line (each game.yaml's ``scope.covers``)."""
    return "they cover " + "; and ".join(str(x["covers"]) for x in games if x.get("covers"))


def _fits(frame: dict[str, str], roles: dict[str, str] | None, speaker: str | None = None) -> float:
    """How a clause's declared roles fit the question's frame: a factor on its score."""
    if not roles:
        return 1.0
    return _roles_fit(frame, roles) * _about_fit(frame, roles) * _side_named(frame, roles, speaker)


def _side_named(frame: dict[str, str], roles: dict[str, str], speaker: str | None) -> float:
    """A clause about the side the players do not speak as by default (the Dark Arts) answers
    a question that names that side somewhere: "Lucy revived her pawns, does Marco's get up
    too?" is the House Replenish, however many words it shares with the Dark Arts one."""
    side = roles.get("side")
    if side is None or speaker is None or side == speaker or "side" in frame:
        return 1.0
    return 1.0 if side in frame.get("sides", "").split(",") else SIDE_UNSTATED


def _about_fit(frame: dict[str, str], roles: dict[str, str]) -> float:
    """Whether the party a clause is about (``about: target``, the bumped pawn) is the one the
    question asks after ("where does my pawn go")."""
    if "moving" in roles and roles["moving"] == frame.get("moving"):
        return ABOUT_MATCH  # "who moves the stunned pawn" asks after the placing, as "where does it go" does
    party = roles.get("about")
    if party is None or "asked" not in frame or party not in roles:
        return 1.0
    return ABOUT_MATCH if roles[party] == frame["asked"] else ABOUT_MISMATCH


def _contradicts(frame: dict[str, str], roles: dict[str, str]) -> bool:
    """Whether the frame states a role the clause declares otherwise; ``count: any`` (one pawn
    or several, the clause rules both) fits any count."""
    return any(k in frame and frame[k] != v and not (k == "count" and v == "any") for k, v in roles.items())


def _roles_fit(frame: dict[str, str], roles: dict[str, str]) -> float:
    if roles.get("count") == "any":  # one pawn or several, the clause says both
        roles = {k: v for k, v in roles.items() if k != "count"}
        frame = {k: v for k, v in frame.items() if k != "count"}
    shared = [k for k in roles if k in frame]
    # an edge case the question leaves out, or a count it names ("two death eaters on the
    # space") that the clause does not declare; "stunned" is said of every stun, so a
    # question naming it is not thereby about a stunned pawn's edge case
    left_out = any(k in frames.EDGES and k not in frame for k in roles)
    unstated = EDGE_UNSTATED if left_out or ("count" in frame and "count" not in roles) else 1.0
    if _contradicts(frame, roles):
        return ROLE_MISMATCH * unstated  # an edge case of the other direction is no nearer for it
    if unstated != 1.0 or not shared:
        return unstated
    if ("moving" in frame and "moving" not in roles) or (frame.get("asks") == "where" and "about" not in roles):
        # "she landed on my pawn, can she move it next turn", "... where does Ron go": the move
        # is the scene, and what is asked is where one pawn goes or whether it moves, which
        # the clause on the move as a whole does not answer
        return unstated
    matched = DIRECTION_MATCH if {"mover", "target", "actor"} & set(shared) else ROLE_MATCH
    return matched * (EDGE_MATCH if any(k in frames.EDGES for k in shared) else 1.0)


def _surface(g: dict[str, Any], words: list[str], analysed: list[tuple[str, float]]) -> dict[int, float]:
    """Per clause, the plain BM25 score of the question's words as written and of the order
    it names the game's terms in (index._surface)."""
    out: dict[int, float] = {}
    for w in {*words, *index.concept_pairs(analysed)}:
        for ci, x in index.surface_scores(g, w):
            out[ci] = out.get(ci, 0.0) + x
    return out


def _no_words(query: str) -> str:
    if any(ch.isalpha() and not ch.isascii() for ch in query):
        return "the question has no English words to look up (the rules are in English)"
    return "the question has no words to look up"


def score_game(
    g: dict[str, Any],
    analysed: list[tuple[str, float]],
    bonus: float = 0.0,
    guessed: frozenset[str] = frozenset(),
) -> list[tuple[int, float, tuple[int, float] | None, float, int, float]]:
    """(clause index, score 0..1, closest claim, evidence, matched terms, closest line) for
    every clause the question's terms (index.analyse) touch.

    ``bonus`` is evidence the question gives otherwise, such as naming the game; ``guessed``
    are terms only a typo correction produced, which count GUESSED of their evidence."""
    terms = _query_terms(g, analysed)
    if not terms:
        return []
    coverage, evidence, matched = _coverage(g, terms, guessed)
    phrasing, claims, lines = _phrasing(g, terms)
    out = []
    unsettled = set(index.unpack_ints(g["open"]))
    for ci in coverage.keys() | phrasing.keys():
        blend = COVERAGE_SHARE * coverage.get(ci, 0.0) + (1 - COVERAGE_SHARE) * phrasing.get(ci, 0.0)
        blend *= OPEN if ci in unsettled else 1.0
        shown = evidence.get(ci, 0.0) + bonus
        out.append(
            (ci, blend * min(1.0, shown / EVIDENCE), claims.get(ci), shown, matched.get(ci, 0), lines.get(ci, 0.0))
        )
    return out


def answers(r: _Scored) -> bool:
    """Whether the best match is presented as the answer.

    A score of MIN_SCORE is enough. A question padded with words no rule uses ("my sister
    and I were arguing at the pub last night") scores lower, since its unknown words count
    against every clause's coverage; it still gets an answer when the clause matches many
    of its terms with strong evidence.
    """
    if r.own >= MIN_SCORE or r.line >= SAME_WORDS:
        return True
    return r.own >= CHATTER_SCORE and r.evidence >= STRONG_EVIDENCE and r.matched >= STRONG_TERMS


def _query_terms(g: dict[str, Any], analysed: list[tuple[str, float]]) -> dict[str, float]:
    """Term -> query weight (the largest, when a term comes up twice)."""
    terms: dict[str, float] = {}
    for term, weight in analysed:
        if weight >= 1.0 or term in g["postings"]:  # an unknown part of a phrase is no evidence
            terms[term] = max(weight, terms.get(term, 0.0))
    return terms


def _coverage(
    g: dict[str, Any], terms: dict[str, float], guessed: frozenset[str] = frozenset()
) -> tuple[dict[int, float], dict[int, float], dict[int, int]]:
    """Per clause: the share of the question's idf weight it matches, the evidence that
    the question is about this game at all (the matched weight, times specificity), and
    how many of the question's full-weight terms it matches."""
    total = 0.0
    got: dict[int, float] = {}
    evidence: dict[int, float] = {}
    matched: dict[int, int] = {}
    for term, weight in terms.items():
        p = index.posting(g, term)
        if p is None:
            total += weight * g["unknown"] * UNKNOWN
            continue
        idf = p.idf
        specific = p.specific * (GUESSED if term in guessed else 1.0)
        total += weight * idf
        for ci, sat in zip(index.unpack_ints(p.clauses), index.unpack_floats(p.weights), strict=True):
            got[ci] = got.get(ci, 0.0) + weight * idf * sat
            evidence[ci] = evidence.get(ci, 0.0) + weight * idf * sat * specific
            if weight >= 1.0:
                matched[ci] = matched.get(ci, 0) + 1
    return {ci: s / total for ci, s in got.items()}, evidence, matched


def _phrasing(
    g: dict[str, Any], terms: dict[str, float]
) -> tuple[dict[int, float], dict[int, tuple[int, float]], dict[int, float]]:
    """Per clause: its phrasing similarity (_closest), its closest misreading claim, and the
    cosine of its single closest line."""
    norm = 0.0
    dot: dict[int, float] = {}
    for term, weight in terms.items():
        p = index.posting(g, term)
        idf = p.idf if p is not None else g["unknown"] * UNKNOWN
        norm += (weight * idf) ** 2
        if p is None:
            continue
        for li, line_weight in zip(index.unpack_ints(p.lines), index.unpack_floats(p.line_weights), strict=True):
            dot[li] = dot.get(li, 0.0) + weight * line_weight * idf * idf
    owners, norms = index.line_table(g)
    sims = {li: d / (math.sqrt(norm) * norms[li]) for li, d in dot.items()}
    near: dict[int, list[float]] = {}
    for li, sim in sims.items():
        near.setdefault(owners[li], []).append(sim)
    best = {ci: _closest(s) for ci, s in near.items()}
    claims: dict[int, tuple[int, float]] = {}
    for ci in best:
        found = [(j, sims[li]) for j, li in enumerate(g["claims"][ci]) if li in sims]
        if found:
            claims[ci] = max(found, key=lambda c: c[1])
    return best, claims, {ci: max(s) for ci, s in near.items()}


def _closest(sims: list[float]) -> float:
    """A clause's phrasing similarity: its closest line, with the next ones weighing in."""
    if len(sims) == 1 or not NEXT_LINES:
        return max(sims)
    top = sorted(sims, reverse=True)
    return top[0] * (1 - NEXT_LINES) + NEXT_LINES * sum(top[1:3]) / 2


def _hit(g: dict[str, Any], r: _Scored, asserts: bool, query: str) -> Hit:
    """The Hit for a ranked clause, with the misreading it corrects if the question reads like it."""
    clause = _clause(g, r.clause)
    if r.claim is None:
        return Hit(clause, r.score, None)
    number, sim = r.claim
    # put as a question, it repeats the misreading only when the claim is the clause's line it
    # is closest to: "can I discard any number of cards" is nearer an ask than the wrong claim
    near = (sim >= MISREADING_CLOSE and sim >= r.line) or (asserts and sim >= MISREADING_MIN)
    misreading = clause.misreadings[number]
    return Hit(clause, r.score, misreading if near and _repeats_the_claim(query, misreading, clause) else None)


def _repeats_the_claim(query: str, misreading: Misreading, clause: Clause) -> bool:
    """Whether the question says the claim rather than the rule: more of its words are the
    claim's own than the correction's and the title's. "Both pawns are stunned, right?" is
    as near the claim "only the Dark Arts pawn is stunned" as the rule, and states the rule."""

    def terms(text: str) -> set[str]:
        return {index.stem(w) for w in index.words(text) if w not in index.STOP}

    said = terms(query)
    claim = terms(misreading.claim)
    rule = terms(f"{misreading.correction} {clause.title}")
    own, right = len(said & (claim - rule)), len(said & (rule - claim))
    if own != right:
        return own > right
    # the same words either way (a claim is often the rule denied): the denial decides
    return _denies(query) == _denies(misreading.claim)


_DENIAL = frozenset(
    {"not", "no", "never", "cannot", "cant", "dont", "doesnt", "isnt", "arent", "wont", "nothing", "none"}
    | {"nobody", "without", "neither", "nor"}
)


def _denies(text: str) -> bool:
    return any(w in _DENIAL for w in index.words(text))  # words() reads "can't" as "cannot"


def _suggestion(g: dict[str, Any], ci: int) -> tuple[str, str]:
    c = _clause(g, ci)
    return c.id, c.title


def _clause(g: dict[str, Any], ci: int) -> Clause:
    import marshal

    r = marshal.loads(g["clauses"][ci])
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
        roles=tuple((k, v) for k, v in r["roles"]),
        source=tuple(r["source"]),
        inferred_pages=tuple(r["inferred_pages"]),
    )


# --- mapping words onto the corpus --------------------------------------------------


def _names_of_people(query: str, known: set[str]) -> frozenset[str]:
    """Capitalised words inside a sentence that no game knows: names of characters or
    friends ("Hermione", "Lem"), which say nothing about the rule asked."""
    out = set()
    for sentence in re.split(r"[.!?;:]\s+", query):
        for raw in sentence.split()[1:]:
            word = raw.strip("\"'()[],“”‘’")
            if word[:1].isupper() and word[1:].islower() and word.lower() not in known:
                out.add(index.words(word)[0] if index.words(word) else word.lower())
    return frozenset(out)


def correct(
    g: dict[str, Any],
    tokens: list[str],
    others: frozenset[str] = frozenset(),
    people: frozenset[str] = frozenset(),
    spelled: dict[str, str] | None = None,
) -> list[str]:
    """Tokens mapped onto the game's vocabulary: joined, split or typo-corrected where needed.

    ``others`` are words another game knows: real words, so never "corrected". ``people``
    are names: dropped unless they correct to a word of the game. ``spelled``, when given,
    gets each word corrected to one other word ("deth" -> "death"), for the frame.
    """
    vocab: dict[str, int] = g["vocab"]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        joined = t + tokens[i + 1] if i + 1 < len(tokens) else ""
        if len(t) > 1 and joined in vocab and not _known(g, f"{t} {tokens[i + 1]}"):
            out.append(joined)  # "back track" -> "backtrack"
            i += 2
            continue
        if _known(g, t) or t in others:
            out.append(t)
        elif t.isdigit():
            pass  # a number no clause uses ("Combat 12") is a detail of the table, not a topic
        else:
            fixed = _split(vocab, t) or [_nearest(vocab, t)]
            out += [] if fixed == [t] and t in people else fixed
            if spelled is not None and t not in people and len(fixed) == 1 and fixed[0] != t:
                spelled[t] = fixed[0]
        i += 1
    return out


def _known(g: dict[str, Any], text: str) -> bool:
    if " " in text:
        return index._phrase_key(text) in g["phrases"]
    return text in g["vocab"] or text in index.STOP or index.stem(text) in g["postings"]


def _split(vocab: dict[str, int], t: str) -> list[str] | None:
    """An unknown run-together word as two known ones ("flyoff" -> "fly off")."""
    if not 6 <= len(t) <= LONGEST_WORD:
        return None
    splits = [(t[:k], t[k:]) for k in range(2, len(t) - 1) if t[:k] in vocab and t[k:] in vocab]
    if not splits:
        return None
    a, b = max(splits, key=lambda s: (min(len(s[0]), len(s[1])), s[0]))
    return [a, b]


ENDINGS = frozenset({"s", "es", "ed", "d", "er", "ers", "est", "ing", "ly", "n", "en"})
"""What a word may add to a known word and still be read as it."""


def _runs_on(t: str, w: str) -> bool:
    return t.startswith(w) and len(t) - len(w) > 1 and t[len(w) :] not in ENDINGS


def _nearest(vocab: dict[str, int], t: str) -> str:
    """The closest vocabulary (or function) word with the same first letter, else the
    commonest word it is the start of ("hench" -> "henchman"), else the word itself.

    A five-letter word may only have gained or lost a letter, or had two letters after its
    first swapped ("piont"): one changed letter in a word that short is as often another
    real word ("flush", "flash"). A three- or four-letter
    word is read as the commonest word one edit away (a letter changed, dropped, added, or
    two swapped: "dose" -> "does", "bak" -> "back", "limt" -> "limit"). A longer word is
    read as a word it starts with only when the rest is an ending ("stronger" is "strong",
    "manage" is not "mana").
    """
    if len(t) < 3 or len(t) > LONGEST_WORD or t.isdigit():
        return t
    if len(t) <= 4:
        near = [w for w in _edits(t) if w[0] == t[0] and len(w) >= 3 and _short_reading(vocab, t, w)]
        if near:
            return max(near, key=lambda w: (vocab.get(w, 0), w))
        if len(t) < 4:
            return t
    from rapidfuzz import fuzz, process

    cutoff = TYPO_MIN if len(t) > 5 else 85.0
    found = (
        []
        if len(t) < 5
        else process.extract(t, [*vocab, *index.STOP], scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
    )
    # a known word the token runs on from by more than an ending ("manage" from "mana") is
    # another word, not a slip; "stronger" is still "strong"
    found = [f for f in found if f[0][0] == t[0] and not _runs_on(t, f[0])]
    if found:
        return str(max(found, key=lambda f: (f[1], vocab.get(f[0], 0), f[0]))[0])
    if len(t) == 5:  # two letters swapped ("piont"), which the ratio counts as two slips
        swapped = [w for w in _edits(t) if w[0] == t[0] and sorted(w) == sorted(t) and (w in vocab or w in index.STOP)]
        if swapped:
            return max(swapped, key=lambda w: (vocab.get(w, 0), w))
    longer = [w for w in vocab if w.startswith(t) and len(w) <= 2 * len(t)]
    return max(longer, key=lambda w: (vocab[w], w)) if longer else t


def _short_reading(vocab: dict[str, int], t: str, w: str) -> bool:
    """Whether ``w`` may be read for the short unknown word ``t``: a function word or a word
    the corpus uses more than once; a changed letter only in a four-letter word ("dog" is
    not "dmg")."""
    if w not in index.STOP and vocab.get(w, 0) < SHORT_COUNT:
        return False
    return len(w) != len(t) or sorted(w) == sorted(t) or len(t) >= 4


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _edits(t: str) -> set[str]:
    """Every string one edit from ``t`` (Damerau: a transposition is one edit)."""
    cut = [(t[:i], t[i:]) for i in range(len(t) + 1)]
    return (
        {a + b[1:] for a, b in cut if b}
        | {a + b[1] + b[0] + b[2:] for a, b in cut if len(b) > 1}
        | {a + c + b[1:] for a, b in cut if b for c in _LETTERS}
        | {a + c + b for a, b in cut for c in _LETTERS}
    ) - {t}
