"""The lookup index: text analysis, and the plain-data index `ask` ranks against.

Everything here is plain data (dicts, lists, tuples, str, int, float) so the built index
can be cached with ``marshal`` and loaded without yaml or the corpus loader (cache.py).

Analysis turns text into *terms*: lowercase words, table spellings normalised ("thru"),
glossary phrases replaced by one concept term (``=dark arts`` for "DA", "death eater",
"Dark Arts"), the other words stemmed, and function words dropped. Clauses and
questions go through the same analysis, so slang and canonical wording meet.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from rulesref.corpus import Game

FORMAT = 11
"""Bumped whenever the index layout or the analysis changes, so old caches are rebuilt."""

_APOSTROPHE = re.compile(r"['’`]")
_WORD = re.compile(r"[a-z0-9]+")

# Chat spellings of ordinary English words (not game terms: those live in glossary.yaml).
CHAT = {
    "thru": "through",
    "tho": "though",
    "u": "you",
    "ur": "your",
    "r": "are",
    "y": "why",
    "wat": "what",
    "wut": "what",
    "pls": "please",
    "plz": "please",
    "cuz": "because",
    "coz": "because",
    "bc": "because",
    "b4": "before",
    "ppl": "people",
    "gonna": "going",
    "wanna": "want",
    "w": "with",
    "wo": "without",
    "whats": "what",
    "cant": "cannot",
    "1st": "first",
    "2nd": "second",
    "3rd": "third",
    "ya": "you",
    "smth": "something",
    "sth": "something",
    "nd": "and",
    "n": "and",
    "aint": "not",
    "oppo": "opponent",
    "upon": "on",
    # Scots and dialect spellings players type as they speak ("whit dae ye dae noo")
    "ye": "you", "yer": "your", "yere": "youre", "yous": "you", "youse": "you", "ma": "my", "whit": "what",
    "dae": "do", "tae": "to", "intae": "into", "wi": "with", "frae": "from", "aboot": "about",
    "noo": "now", "wis": "was", "nae": "no", "cannae": "cannot", "didnae": "didnt",
    "doesnae": "doesnt", "isnae": "isnt", "wouldnae": "wouldnt", "afore": "before",
    "atween": "between", "doon": "down", "ower": "over", "oot": "out", "roon": "round",
    "anither": "another", "ken": "know",
}  # fmt: skip

# Chat spellings with a slash, which the word pattern would cut in two ("w/o": "w", "o").
SLASHED = {"w/o": "without", "b/c": "because", "w/e": "whatever"}
_SLASHED = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in SLASHED) + r")(?![a-z0-9])")


def _unslash(m: re.Match[str]) -> str:
    return f" {SLASHED[m.group(0)]} "


# British spellings and number words, written one way on both sides of a match.
SPELLING = {
    "armour": "armor", "colour": "color", "coloured": "colored", "colours": "colors",
    "neighbour": "neighbor", "neighbours": "neighbors", "neighbouring": "neighboring",
    "favour": "favor", "honour": "honor", "behaviour": "behavior", "defence": "defense",
    "centre": "center", "travelling": "traveling", "travelled": "traveled",
    "cancelled": "canceled", "practise": "practice", "grey": "gray",
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "once": "1 time", "twice": "2 times",
}  # fmt: skip
# Irregular forms the suffix stemmer cannot reach.
IRREGULAR = {
    "ran": "run", "drew": "draw", "drawn": "draw", "lost": "lose", "won": "win", "took": "take",
    "taken": "take", "chose": "choose", "chosen": "choose", "fought": "fight", "paid": "pay",
    "made": "make", "gave": "give", "given": "give", "saw": "see", "seen": "see", "began": "begin",
    "begun": "begin", "stood": "stand", "fell": "fall", "fallen": "fall", "threw": "throw",
    "thrown": "throw", "held": "hold", "kept": "keep", "dealt": "deal", "hid": "hide",
    "hidden": "hide", "stole": "steal", "stolen": "steal", "fled": "flee", "rode": "ride",
    "flew": "fly", "flown": "fly", "flies": "fly", "broke": "break", "broken": "break",
    "beat": "beat", "beaten": "beat", "bought": "buy", "struck": "strike", "woke": "wake",
    "spent": "spend", "sent": "send", "shook": "shake", "cast": "cast", "met": "meet",
}  # fmt: skip

# Function words: they carry no rule content, and question phrasing is full of them.
# Question words (what, where, who, when, which, why, how) are not among them: "where does
# it go" and "who moves it" ask different things.
_STOP_WORDS = """a an the i me my mine myself we us our ours you your yours he him his she her it its they them
    their theirs this that these those is are was were be been being am do does did doing done have
    has had having can could may might must shall should will would to of in on at by for with from
    into onto about as so if whom whose there here just also too
    very really like actually ok okay yes yeah yep hey hi guys please thanks thank im ive id ill
    youre theyre dont doesnt didnt isnt arent wasnt cannot wont wouldnt couldnt shouldnt not no
    and but than any some such get got go goes going gets want wants need needs let lets
    allowed allow legal able possible happen happens happened rule rules ruling question
    say says said mean means meaning ones thing things way still even again right wrong
    true false exactly because though something anything everything someone anyone everyone
    people person player players friend friends never whos whats hows wheres whens thats theres
    hes shes its lets heres"""
# Chat fillers: not even function words, so the plain word match (_surface) skips them too.
_CHATTER_WORDS = "lol lmao rofl omg ugh hmm hm um uh bro dude mate tbh idk imo btw rn ngl srsly fyi"
CHATTER = frozenset(_CHATTER_WORDS.split())
STOP = frozenset(_STOP_WORDS.split()) | CHATTER
ARTICLES = frozenset({"a", "an", "the"})


class BM25(NamedTuple):
    """The parameters of one BM25 match: term-frequency saturation ``k1`` and, per field,
    its weight and length normalisation ``b``. Both matches the index holds are written
    with them, through ``bm25``: nowhere else is the formula spelt out."""

    k1: float
    fields: dict[str, tuple[float, float]]


ANALYSED = BM25(
    k1=2.5,
    fields={
        # field: (weight, length normalisation b)
        "title": (3.0, 0.5),
        "asks": (2.0, 0.75),
        "tags": (1.5, 0.3),
        "claims": (1.5, 0.75),
        "text": (1.0, 0.75),
        "corrections": (0.5, 0.75),
    },
)
"""The match over the analysed terms (stems and glossary concepts), one field at a time
(BM25F), its weights saturated into 0..1 so a clause's coverage of a question is a share."""
SURFACE = BM25(k1=1.2, fields={"all": (1.0, 0.75)})
"""The plain Okapi match over the words as written (see _surface)."""


def bm25(tf: float, length: float, average: float, b: float, k1: float | None = None) -> float:
    """A term's BM25 weight in one document: ``tf`` normalised by the document's length
    against the ``average``, and saturated by ``k1`` into 0..1 when given (BM25F sums the
    normalised fields first, then saturates once: pass ``k1=None`` for each field)."""
    normalised = tf / (1 - b + b * length / average)
    return normalised if k1 is None else normalised / (k1 + normalised)


IMPLIED = 0.5
"""Query weight of a concept implied by a longer one (``=dark arts`` inside ``=dark arts pawn``)."""
PLAIN_EVIDENCE = 0.5
"""Evidence factor of a plain word relative to a glossary term."""
ASKS_ONLY_EVIDENCE = 0.5
"""Evidence factor of a word only players' phrasings use, never a rule ("like in chess")."""
PART = 0.3
"""Query weight of a word inside a glossary phrase ("protected" in "Protected Area")."""


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light suffix stemmer: plurals, -ing, -ed, -ly, -ment, a final e, doubled consonants."""
    w = IRREGULAR.get(word, word)
    if len(w) <= 3 or w.isdigit():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ingly", "edly", "ing", "ed", "ly", "ment"):
        if w.endswith(suffix) and _has_vowel(w[: -len(suffix)]) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1].isalpha():
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("y") and not _has_vowel(w[-2]):
        w = w[:-1] + "i"
    return w


def _has_vowel(text: str) -> bool:
    return any(ch in "aeiouy" for ch in text)


def words(text: str) -> list[str]:
    """Lowercase words, apostrophes dropped ("ko'd" -> "kod"), chat and British spellings
    and number words normalised."""
    out: list[str] = []
    for w in _WORD.findall(_SLASHED.sub(_unslash, _APOSTROPHE.sub("", text.lower()))):
        out.extend(SPELLING.get(w, w) for w in CHAT.get(w, w).split())
    return out


def concept(term: str) -> str:
    """The single term a glossary entry becomes: ``=`` and its canonical words."""
    return "=" + " ".join(words(term))


# --- the glossary as phrases --------------------------------------------------------


def glossary_phrases(glossary: Iterable[tuple[str, Sequence[str]]]) -> dict[str, list[str]]:
    """Stemmed phrase -> the concepts it stands for (its own first, then implied ones)."""
    table: dict[str, list[str]] = {}
    entries = [(t, _phrase_key(t), [t, *syns]) for t, syns in glossary]
    canon = {key: concept(t) for t, key, _ in entries}
    # the terms a term's phrase contains are found among its own runs of words, in the
    # lengths the terms have, not by testing every term against every other
    order = {key: i for i, key in enumerate(canon)}
    lengths = sorted({_length(key) for key in canon})
    for term, phrase, names in entries:
        own = concept(term)
        inside = _runs(phrase, lengths) & order.keys()
        implied = [canon[key] for key in sorted(inside, key=order.__getitem__) if canon[key] != own]
        for name in names:
            key = _phrase_key(name)
            if key and key not in table:  # the first entry to claim a phrase keeps it
                table[key] = [own, *implied]
    return table


def _phrase_key(text: str) -> str:
    return " ".join(stem(w) for w in words(text) if w not in ARTICLES)


def _length(phrase: str) -> int:
    """How many words a phrase key has."""
    return phrase.count(" ") + 1


def _runs(phrase: str, lengths: Sequence[int]) -> set[str]:
    """Every run of consecutive whole words of ``phrase`` with one of these lengths: the
    phrases it contains (the empty phrase is inside only the empty phrase)."""
    if not phrase:
        return {""}
    ws = phrase.split(" ")
    return {" ".join(ws[i : i + n]) for n in lengths if n <= len(ws) for i in range(len(ws) - n + 1)}


# --- analysis -----------------------------------------------------------------------


def analyse(
    tokens: Sequence[str],
    phrases: dict[str, list[str]],
    longest: int,
    starts: dict[str, list[int]] | None = None,
) -> list[tuple[str, float]]:
    """Terms with query weights: glossary phrases (longest first) become concepts.

    A phrase also yields the concepts it implies and its own content words (at lower
    weights), so "protected zone" still meets the words of "Protected Area". ``starts``
    (phrase_starts) makes long texts cheap: only the lengths of the phrases that begin
    with a word are tried there, not every length up to the longest phrase.
    """
    tokens = [t for t in tokens if t not in ARTICLES]  # "end of a turn" is "end of turn"
    stems = [stem(t) for t in tokens]
    out: list[tuple[str, float]] = []
    i = 0
    while i < len(stems):
        left = len(stems) - i
        tried = range(min(longest, left), 0, -1) if starts is None else starts.get(stems[i], ())
        for n in tried:
            if n > left:
                continue
            hit = phrases.get(" ".join(stems[i : i + n]))
            if hit is not None and not (n == 1 and tokens[i] in STOP):
                out.append((hit[0], 1.0))
                out.extend((c, IMPLIED) for c in hit[1:])
                out.extend((s, PART) for s, t in zip(stems[i : i + n], tokens[i : i + n], strict=True) if t not in STOP)
                i += n
                break
        else:
            if tokens[i] not in STOP:
                out.append((stems[i], 1.0))
            i += 1
    return out


class Analyser:
    """One game's glossary as phrases, and the analysis of each clause text, done once
    however many parts of the index read that text (fields, lines, the plain match)."""

    def __init__(self, phrases: dict[str, list[str]]) -> None:
        self.phrases = phrases
        self.longest = max((k.count(" ") + 1 for k in phrases), default=1)
        self.starts = phrase_starts(phrases)
        self._done: dict[str, list[tuple[str, float]]] = {}

    def __call__(self, text: str) -> list[tuple[str, float]]:
        found = self._done.get(text)
        if found is None:
            found = self._done[text] = analyse(words(text), self.phrases, self.longest, self.starts)
        return found


def phrase_starts(phrases: dict[str, list[str]]) -> dict[str, list[int]]:
    """First word of a phrase -> the lengths of the phrases beginning with it, longest first."""
    starts: dict[str, set[int]] = {}
    for key in phrases:
        starts.setdefault(key.split(" ", 1)[0], set()).add(_length(key))
    return {w: sorted(ns, reverse=True) for w, ns in starts.items()}


# --- packing ------------------------------------------------------------------------


def ints(values: Iterable[int]) -> bytes:
    """Small non-negative integers packed (clause and line numbers)."""
    return array("I", values).tobytes()


def floats(values: Iterable[float]) -> bytes:
    return array("d", values).tobytes()


def unpack_ints(data: bytes) -> array[int]:
    out = array("I")
    out.frombytes(data)
    return out


def unpack_floats(data: bytes) -> array[float]:
    out = array("d")
    out.frombytes(data)
    return out


# --- building -----------------------------------------------------------------------


def clause_record(c: Any) -> dict[str, Any]:
    """A Clause as plain data; lookup turns it back into a Clause for the hits it returns."""
    return {
        "id": c.id,
        "game": c.game,
        "title": c.title,
        "text": c.text,
        "pages": list(c.pages),
        "kind": c.kind,
        "tags": list(c.tags),
        "asks": list(c.asks),
        "see": list(c.see),
        "misreadings": [[m.claim, m.correction] for m in c.misreadings],
        "page_note": c.page_note,
        "file": c.file,
        "line": c.line,
        "roles": [list(r) for r in c.roles],
        "inferred_pages": list(c.inferred_pages),
        "source": list(c.source),
    }


#
# One game's index:
#   id, title, aliases, names      who the game is; ``names`` are words that only pick it
#   phrases, longest               the glossary as stemmed phrase -> concepts
#   vocab                          surface word -> count, for typo correction
#   postings                       term -> its Posting, stored as a plain tuple (read it with
#                                  ``posting``); the lists packed as bytes (see ints)
#   unknown                        the idf of a word no clause uses
#   lines                          the clauses' question-like lines, for phrasing similarity:
#                                  each line's clause and length, packed the same way
#
# Lists of numbers are packed (array bytes) because unpacking a few hundred thousand small
# Python objects on every start would cost more than the whole query: only the lists of
# the question's own terms are ever unpacked.
#   claims                         per clause, the line numbers of its misreading claims
#   clauses                        per clause, its record marshalled: decoded only for hits
#   open                           the indexes of the clauses of kind ``open``, packed
#   surface                        plain BM25 postings of the words as written (see _surface)


class Posting(NamedTuple):
    """One term's entry in a game's ``postings``: what both measures of lookup.py read."""

    idf: float
    clauses: bytes
    """The indexes of the clauses using the term, packed (ints)."""
    weights: bytes
    """Per clause, its saturated BM25F weight for the term (0..1), packed (floats)."""
    specific: float
    """How much a match on the term shows that the question is about this game (_postings)."""
    lines: bytes
    """The question-like lines using the term (_lines), packed (ints)."""
    line_weights: bytes
    """The term's weight in each of those lines, packed (floats)."""


def posting(g: dict[str, Any], term: str) -> Posting | None:
    """The postings of ``term`` in the game index ``g``, or None when no clause uses it."""
    raw = g["postings"].get(term)
    return None if raw is None else Posting._make(raw)


def surface_scores(g: dict[str, Any], word: str) -> Iterator[tuple[int, float]]:
    """The plain BM25 score of ``word`` as written, for each clause using it (_surface)."""
    packed = g["surface"].get(word)
    if packed is None:
        return
    pairs = unpack_floats(packed)
    for ci, x in zip(pairs[0::2], pairs[1::2], strict=True):
        yield int(ci), x


def line_table(g: dict[str, Any]) -> tuple[array[int], array[float]]:
    """Each question-like line's clause and idf-weighted length (_lines)."""
    return unpack_ints(g["lines"]["owners"]), unpack_floats(g["lines"]["norms"])


def build_games(games: Sequence[Game]) -> list[dict[str, Any]]:
    """The index of every rule pack. A term's idf counts the clauses of every game, so words
    common to all rulebooks ("own", "same") weigh less than each game's own vocabulary."""
    parsed = [_parse(g) for g in games]
    df: dict[str, int] = {}
    for _, _, fields in parsed:
        for d in fields:
            for term in {t for f in d.values() for t in f}:
                df[term] = df.get(term, 0) + 1
    n = sum(len(p[2]) for p in parsed)
    idf = {t: _idf(n, f) for t, f in df.items()}
    built = [_build(g, *p, idf, df, _idf(n, 0)) for g, p in zip(games, parsed, strict=True)]
    for g, surface in zip(built, _surface([(p[0], p[1]) for p in parsed]), strict=True):
        g["surface"] = surface
    return built


def _surface(games: list[tuple[list[dict[str, Any]], Analyser]]) -> list[dict[str, bytes]]:
    """Per game, plain Okapi BM25 postings over each clause's words as written (title, text,
    asks, tags; no stems, no glossary, function words kept): word -> clause indexes and
    their scores for it, interleaved. Where the analysed match weighs what a question is
    about, this one counts how often the clause's own phrasings use the question's very
    words ("twice", "again"), and in what order they name the game's terms (concept_pairs)."""
    docs = [[_counts(r, analysed) for r in records] for records, analysed in games]
    every = [d for game in docs for d in game]
    avg = (sum(sum(d.values()) for d in every) / len(every) if every else 0.0) or 1.0
    df: dict[str, int] = {}
    for d in every:
        for w in d:
            df[w] = df.get(w, 0) + 1
    out = []
    for game in docs:
        acc: dict[str, list[tuple[int, float]]] = {}
        (_, b), k1 = SURFACE.fields["all"], SURFACE.k1
        for i, d in enumerate(game):
            for w, tf in d.items():  # Okapi's (k1 + 1) scale: a word used once weighs about 1
                acc.setdefault(w, []).append((i, (k1 + 1) * bm25(tf, sum(d.values()), avg, b, k1)))
        # clause index and idf-weighted score interleaved in one array: one object per word
        out.append({w: floats(y for i, x in v for y in (i, _idf(len(every), df[w]) * x)) for w, v in acc.items()})
    return out


def settled_text(r: dict[str, Any]) -> str:
    """A rule clause's text without its sentences that point to an open question ("whether a
    bane that says it cannot be evaded overrides this is open (open.proxy-cannot-evade)"):
    those words name the edge case, and a question that uses them is asking the open
    question, not the rule."""
    return r["text"] if r["kind"] == "open" else without_open_pointers(r["text"])


def without_open_pointers(text: str) -> str:
    """``text`` without each sentence holding "(open.…)": from the last full stop before it
    to the first full stop after its closing bracket (the id's own dot is inside). Found
    with str.find, in one pass: a regular expression of the same pattern backtracks over
    the whole sentence from every start, which is quadratic in a long text with no stop."""
    out: list[str] = []
    done = 0
    while (at := text.find("(open.", done)) >= 0:
        close = text.find(")", at)
        if close < 0:
            break
        stop = text.find(".", close)
        out.append(text[done : text.rfind(".", done, at) + 1 or done])
        done = len(text) if stop < 0 else stop + 1
    out.append(text[done:])
    return "".join(out)


def _counts(r: dict[str, Any], analysed: Analyser) -> dict[str, int]:
    out: dict[str, int] = {}
    for text in (r["title"], settled_text(r), *r["indexed"], *(t.replace("-", " ") for t in r["tags"])):
        for w in (*words(text), *concept_pairs(analysed(text))):
            if w not in CHATTER:
                out[w] = out.get(w, 0) + 1
    return out


PAIR_WINDOW = 2
"""How many of the next game terms a term is paired with (concept_pairs)."""


def concept_pairs(terms: Sequence[tuple[str, float]]) -> list[str]:
    """The game's terms in the order a text names them, as ordered pairs ("=dark arts pawn
    >=land on", "=land on>=house pawn"): a bag of words cannot tell who lands on whom,
    and that decides between a stun and a bump."""
    named = [t for t, weight in terms if weight >= 1.0 and t.startswith("=")]
    return [f"{a}>{b}" for i, a in enumerate(named) for b in named[i + 1 : i + 1 + PAIR_WINDOW] if a != b]


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


Parsed = tuple[list[dict[str, Any]], Analyser, list[dict[str, list[str]]]]


SCOPE = "scope"
"""The kind of a record that stands for a part of the game the pack leaves out (game.yaml
``scope.leaves-out``): it is ranked like a clause, and when it comes first, ``ask`` refuses."""


def scope_record(game: Game, n: int, topic: Any) -> dict[str, Any]:
    """A left-out topic as a record: only its asks speak for it (a title would weigh the
    topic's own words, such as "turn" or "encounter", as heavily as a rule's)."""
    return {
        "id": f"scope.{n + 1}",
        "game": game.id,
        "title": "",
        "topic": topic.topic,
        "text": "",
        "pages": [],
        "kind": SCOPE,
        "tags": [],
        "asks": list(topic.asks),
        "cues": [" ".join(words(c)) for c in topic.cues],
        "names": [" ".join(words(c)) for c in topic.names],
        "see": [],
        "misreadings": [],
        "page_note": None,
        "file": "game.yaml",
        "line": 0,
        "roles": [],
        "source": [],
    }


def _parse(game: Game) -> Parsed:
    records = [clause_record(c) for c in game.clauses.values()]
    records += [scope_record(game, n, t) for n, t in enumerate(game.leaves_out)]
    analysed = Analyser(glossary_phrases((t.term, t.synonyms) for t in game.glossary))
    typos = asks_typos(game, records)
    for r in records:  # indexed as players meant them; the record shown keeps them as typed
        r["indexed"] = [" ".join(typos.get(w, w) for w in words(a)) for a in r["asks"]]
    return records, analysed, [_fields(r, analysed) for r in records]


TYPO_RATIO = 85.0
"""rapidfuzz ratio (0..100) a changed letter must keep too: one changed letter in a word of
six letters or fewer is as often another word ("small", "shall"). Two letters swapped need
not keep it: the ratio counts a swap as two slips, but it changes no letter ("gaurd")."""


def asks_typos(game: Game, records: list[dict[str, Any]]) -> dict[str, str]:
    """Misspelt words in the asks ("pasageway") -> the rule word meant ("passageway").

    Asks are written the way players type, typos included. Left as they are, a typo would
    become a word of the game, so a question with the same typo would not be corrected and
    would match only the clause whose ask happened to carry it. A word counts as a typo when
    the rules never use it (nor a form of it), it is one slip (a letter dropped, added,
    changed or swapped) from a rule word with the same first letter, and the asks use it
    rarely: at most twice, or a fifth as often as that word. A four-letter word counts only
    when its slip is not a changed letter ("dose" for "does", "hnad" for "hand"; not "save"
    for "same"), and the word meant is used ten times as often: a short word one letter
    from another is as often a real word."""
    from rapidfuzz import fuzz

    ruled: set[str] = set()
    for r in records:
        for text in (r["title"], r["text"], *r["tags"], *(p for m in r["misreadings"] for p in m)):
            ruled.update(words(text.replace("-", " ")))
    for t in game.glossary:
        for text in (t.term, *t.synonyms):
            ruled.update(words(text))
    stems = {stem(w) for w in ruled}
    seen: dict[str, int] = {}
    for r in records:
        for a in r["asks"]:
            for w in words(a):
                seen[w] = seen.get(w, 0) + 1
    near = _SlipIndex(ruled | STOP)
    out: dict[str, str] = {}
    for w, n in seen.items():
        if not 4 <= len(w) <= TYPO_LONGEST or w in ruled or w in STOP or stem(w) in stems or not w.isalpha():
            continue
        if len(w) == 4:
            short = [f for f in near.slips(w) if f[0] == w[0] and not _changed(w, f) and seen.get(f, 0) >= 10 * n]
            if short:
                out[w] = max(short, key=lambda f: (seen.get(f, 0), f))
            continue
        # the same first letter, not a longer or shorter form ("shown", "safer"), and
        # rare beside the word it resembles (a slip, not a word players use)
        found = [
            f
            for f in near.slips(w)
            if f[0] == w[0]
            and (fuzz.ratio(w, f) >= TYPO_RATIO or not _changed(w, f))
            and not (f.startswith(w) or w.startswith(f))
            and n <= max(2, seen.get(f, 0) // 5)
        ]
        if found:
            out[w] = max(found, key=lambda f: (seen.get(f, 0), f))
    return out


TYPO_LONGEST = 40
"""A longer ask word is not looked at as a typo: no player's slip is that long, and the
words one slip away are found through every word with one letter deleted."""


class _SlipIndex:
    """Words one slip (a letter dropped, added, changed, or two swapped: Damerau distance
    1) from a given word, found without comparing it to every word (symmetric delete, as
    SymSpell does): two words one slip apart share a form with at most one letter deleted
    from each, so each word is filed under itself and its one-letter deletions, and a
    word's neighbours are among those filed under its own. The cost grows with the number
    of words, not the number of pairs of words."""

    def __init__(self, words: Iterable[str]) -> None:
        self.filed: dict[str, list[str]] = {}
        for w in sorted(words):
            if 4 <= len(w) <= TYPO_LONGEST + 1:  # one slip from a word of 5..TYPO_LONGEST letters
                for form in _deletions(w):
                    self.filed.setdefault(form, []).append(w)

    def slips(self, word: str) -> list[str]:
        """The filed words exactly one slip from ``word`` (itself excluded), sorted."""
        from rapidfuzz.distance import DamerauLevenshtein

        near = {w for form in _deletions(word) for w in self.filed.get(form, ())}
        return sorted(w for w in near if w != word and DamerauLevenshtein.distance(word, w, score_cutoff=1) <= 1)


def _changed(a: str, b: str) -> bool:
    """Whether the slip from ``a`` to ``b`` is one letter changed (not dropped, added or swapped)."""
    return len(a) == len(b) and sorted(a) != sorted(b)


def _deletions(word: str) -> set[str]:
    """The word and every form of it with one letter deleted."""
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


def _build(
    game: Game,
    records: list[dict[str, Any]],
    analysed: Analyser,
    fields: list[dict[str, list[str]]],
    idf: dict[str, float],
    df: dict[str, int],
    unknown: float,
) -> dict[str, Any]:
    import marshal

    postings = _postings(fields, idf, df)
    lines, claims, inverted = _lines(records, analysed, idf)
    return {
        "id": game.id,
        "title": game.title,
        "aliases": tuple(game.aliases),
        "names": _name_words(game, postings, analysed.phrases),
        "phrases": analysed.phrases,
        "longest": analysed.longest,
        "vocab": _vocab(game, records),
        # one entry per term for both measures: fewer objects to unmarshal on every start
        "postings": {
            t: (idf, ints(docs), floats(sats), ev, *inverted.get(t, (b"", b"")))
            for t, (idf, docs, sats, ev) in postings.items()
        },
        "unknown": unknown,
        "lines": lines,
        "claims": claims,
        "clauses": tuple(marshal.dumps({k: v for k, v in r.items() if k != "indexed"}) for r in records),
        "open": ints(i for i, r in enumerate(records) if r["kind"] == "open"),
        "scope": ints(i for i, r in enumerate(records) if r["kind"] == SCOPE),
        "cues": {i: tuple(r["cues"]) for i, r in enumerate(records) if r.get("cues")},
        "naming": {i: tuple(r["names"]) for i, r in enumerate(records) if r.get("names")},
        "covers": game.covers,
        # who acts (frames.py): each glossary concept's part in a frame, each clause's roles
        "roles_of": _roles_of(game),
        "roles": {i: dict(map(tuple, r["roles"])) for i, r in enumerate(records) if r["roles"]},
        "speaker": game.speaker,
        "sides": tuple(game.sides),
    }


def _roles_of(game: Game) -> dict[str, dict[str, str]]:
    """Concept -> the part it plays in a question's frame, from the glossary's ``role:``.

    A term without one takes the role of the term its name ends with, its head noun: a
    "local character" is a character, but the "Dark Arts Marker" is a thing, not the Dark
    Arts, and "my refill doesn't push the marker" names no side."""
    own = {t.term: dict(t.role) for t in game.glossary if t.role}
    out = {concept(term): role for term, role in own.items()}
    for t in game.glossary:  # bounded by the glossary, twice over
        if t.term in own:
            continue
        head = max((term for term in own if t.term.endswith(" " + term)), key=len, default=None)
        if head is not None:
            out[concept(t.term)] = own[head]
    return out


def _vocab(game: Game, records: list[dict[str, Any]]) -> dict[str, int]:
    """Every surface word of the clauses and the glossary, with its count."""
    vocab: dict[str, int] = {}
    texts = [t for r in records for t in _texts(r)]
    texts += [" ".join((t.term, *t.synonyms)) for t in game.glossary]
    for text in texts:
        for w in words(text):
            vocab[w] = vocab.get(w, 0) + 1
    return vocab


def _texts(r: dict[str, Any]) -> list[str]:
    return [r["title"], r["text"], *r["indexed"], *r["tags"], *(p for m in r["misreadings"] for p in m)]


def _fields(r: dict[str, Any], analysed: Analyser) -> dict[str, list[str]]:
    def terms(texts: Iterable[str]) -> list[str]:  # every concept counts once per mention
        return [t for text in texts for t, _ in analysed(text)]

    return {
        "title": terms([r["title"]]),
        "asks": terms(r["indexed"]),
        "tags": terms(t.replace("-", " ") for t in r["tags"]),
        "claims": terms(m[0] for m in r["misreadings"]),
        "text": terms([settled_text(r)]),
        "corrections": terms(m[1] for m in r["misreadings"]),
    }


def _postings(fields: list[dict[str, list[str]]], idf: dict[str, float], df: dict[str, int]) -> dict[str, Any]:
    """term -> (idf, clause indexes, BM25F weights saturated into 0..1, evidence factor).

    The evidence factor says how much a match on the term shows that a question is about
    this game at all: the share of the clauses using it that are this game's (words every
    rulebook uses, like "turn", show little), less for a plain word than for a glossary
    term ("time" could be anything; "banish" is this game's), and less again for a word
    only the asks use (players compare with other games: "like in chess")."""
    n = len(fields)
    avg = {f: (sum(len(d[f]) for d in fields) / n if n else 0.0) or 1.0 for f in ANALYSED.fields}
    acc: dict[str, dict[int, float]] = {}
    ruled = {t for d in fields for f, ts in d.items() if f != "asks" for t in ts}
    for i, d in enumerate(fields):
        for f, (weight, b) in ANALYSED.fields.items():
            for term in d[f]:  # each mention once: tf accumulates mention by mention
                slot = acc.setdefault(term, {})
                slot[i] = slot.get(i, 0.0) + weight * bm25(1.0, len(d[f]), avg[f], b)
    return {
        term: (
            idf[term],
            tuple(sorted(docs)),
            tuple(docs[i] / (ANALYSED.k1 + docs[i]) for i in sorted(docs)),
            len(docs)
            / df[term]
            * (1.0 if term.startswith("=") else PLAIN_EVIDENCE)
            * (1.0 if term in ruled else ASKS_ONLY_EVIDENCE),
        )
        for term, docs in acc.items()
    }


def _lines(
    records: list[dict[str, Any]], analysed: Analyser, idf: dict[str, float]
) -> tuple[dict[str, bytes], tuple[tuple[int, ...], ...], dict[str, tuple[bytes, bytes]]]:
    """The question-like lines of each clause (title, asks, misreading claims), for cosine
    similarity: each line's clause and idf-weighted length; each clause's claim lines; and
    term -> (lines, weights), which joins the term's postings."""
    owners: list[int] = []
    norms: list[float] = []
    inverted: dict[str, list[tuple[int, float]]] = {}
    claims: list[tuple[int, ...]] = []
    for i, r in enumerate(records):
        mine: list[int] = []
        for text, is_claim in [(r["title"], False), *((a, False) for a in r["indexed"])] + [
            (m[0], True) for m in r["misreadings"]
        ]:
            terms = _weighted(analysed(text))
            line = len(owners)
            owners.append(i)
            norms.append(math.sqrt(sum((w * idf[t]) ** 2 for t, w in terms.items())) or 1.0)
            for t, w in terms.items():
                inverted.setdefault(t, []).append((line, w))
            if is_claim:
                mine.append(line)
        claims.append(tuple(mine))
    lines = {"owners": ints(owners), "norms": floats(norms)}
    packed = {t: (ints(li for li, _ in v), floats(w for _, w in v)) for t, v in inverted.items()}
    return lines, tuple(claims), packed


def _weighted(analysed: list[tuple[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for t, w in analysed:
        out[t] = max(w, out.get(t, 0.0))
    return out


def _name_words(game: Game, postings: dict[str, Any], phrases: dict[str, list[str]]) -> tuple[str, ...]:
    """Words that name the game and say nothing about a rule: its aliases run together
    ("hvda", "pacg") and the rare words of its title ("pathfinder"), but never a glossary
    word ("houses", "dark arts" name the game and are its terms too)."""
    in_glossary = {w for key in phrases for w in key.split()}
    aliases = {w for a in game.aliases for w in (a.replace("-", ""), *words(a.replace("-", " ")))}
    title = {
        w
        for w in words(f"{game.title} {game.id.replace('-', ' ')}")
        if len(w) > 4 and len(postings.get(stem(w), ((),) * 4)[1]) <= 1  # raw postings: a tuple of clauses
    }
    names = {w for w in aliases | title if stem(w) not in in_glossary and w not in STOP}
    return tuple(sorted(w for w in names if len(w) > 2 and not w.isdigit()))
