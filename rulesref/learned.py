"""The phrasing model: which clause a question is about, learned from the clauses' own
titles and asks, and used to re-order lookup's first results.

lookup.py ranks by hand-weighted measures (coverage, the closest line, a plain word
match). Those weigh every ask of a clause alike; a linear classifier learns which words
and pieces of words tell one clause's asks from its neighbours' ("evade" from "avenge",
"wall" from "obstacle"), and that is what the misses on held-out questions were short of
(bench/README.md, issue 11). It is a multinomial logistic regression over tf-idf
features: words, pairs of adjacent words, and 3-5 letter pieces of each word (which
carry typos and word forms without a stemmer).

It is trained offline, by ``bench/ranker.py`` with scikit-learn, and shipped as
``rules/ranker.json``: the weights of each feature, the idf, and a fingerprint of the lines
it was trained on. The index keeps the model only when that fingerprint matches the rule
packs it is built from, so an edited ask or a new clause switches the model off (the
ranking is then lookup's alone) until it is trained again; ``rulesref lint`` says so. The
question is scored here, in pure Python: the core ``ask`` path needs no numpy.

The file is untrusted input like any rule file: it is read only when it is a regular
file no larger than MAX_BYTES, and every field is checked before it is used.
"""

from __future__ import annotations

import math
import zlib
from array import array
from collections.abc import Iterable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from rulesref import index
from rulesref.errors import CorpusError
from rulesref.files import NotAFile, TooLarge, read_regular

FILE = "ranker.json"
"""The model's file, in the rules folder beside the game folders."""
FORMAT = 2
"""The layout of the file and of its features: a change to either means training again."""
MAX_BYTES = 16 * 1024 * 1024
"""A larger model file is refused: the shipped one is well under a tenth of it."""
PIECES = (3, 4, 5)
"""The lengths of the letter pieces taken from each word (the word padded with a space)."""
MAX_FEATURES = 1_000_000
"""More features than this in the file is not a model this code wrote."""
MAX_CLASSES = 65_535
"""Class numbers are packed in two bytes each."""
OUT = "*/out"
"""The class of the bench's out-of-scope questions: what no clause answers. Its probability
tells lookup how like the questions the packs do not cover a question is put."""
MAX_WORDS = 200
"""Only the first words of a long text are read, as lookup does (lookup.MAX_WORDS)."""


def features(text: str) -> dict[str, int]:
    """The question's (or an ask's) features with their counts: each word, each pair of
    adjacent words, and each letter piece of a word ("#" marks a piece, so that "the"
    the word and "the" inside "other" stay apart)."""
    words = index.words(text)[:MAX_WORDS]
    out: dict[str, int] = {}
    for i, w in enumerate(words):
        out[w] = out.get(w, 0) + 1
        if i:
            pair = f"{words[i - 1]} {w}"
            out[pair] = out.get(pair, 0) + 1
        padded = f" {w} "
        for n in PIECES:
            for start in range(max(1, len(padded) - n + 1)):
                piece = "#" + padded[start : start + n]
                out[piece] = out.get(piece, 0) + 1
    return out


def weighted(counts: dict[str, int], idf: dict[str, float]) -> dict[str, float]:
    """tf-idf as the model was trained on: 1 + log of the count, times the idf, and the
    whole scaled to length 1. Features the model does not know are left out first."""
    out = {f: (1.0 + math.log(n)) * idf[f] for f, n in counts.items() if f in idf}
    norm = math.sqrt(sum(x * x for x in out.values())) or 1.0
    return {f: x / norm for f, x in out.items()}


def training_lines(games: Iterable[Any]) -> list[tuple[str, str]]:
    """(class, line) for each clause's title and each of its asks, every game in turn: what
    the model is trained on, and what its fingerprint covers. A class is ``game/clause``."""
    return [(f"{game.id}/{c.id}", line) for game in games for c in game.clauses.values() for line in (c.title, *c.asks)]


def fingerprint(lines: Sequence[tuple[str, str]]) -> str:
    """What a model was trained on, as a hex digest: the format and every (class, line)."""
    from hashlib import blake2b  # the slow path: an index build, lint, training

    h = blake2b(digest_size=16)
    h.update(f"rulesref-ranker:{FORMAT}".encode())
    for cls, line in lines:
        for part in (cls, line):
            data = part.encode("utf-8", "surrogatepass")
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)
    return h.hexdigest()


# --- reading the file ---------------------------------------------------------------


def read(root: Path) -> dict[str, Any] | None:
    """The model file of the rules folder ``root`` as checked data, or None when there is
    none. Raises CorpusError when it is there but malformed."""
    import json  # the slow path (an index build, lint): a cold `ask` reads the cache instead

    from rulesref.corpus import display

    path = root / FILE
    shown = display(path)
    try:
        raw = read_regular(path, MAX_BYTES)
    except NotAFile:
        raise CorpusError("the ranking model is not a regular file", file=shown) from None
    except TooLarge:
        raise CorpusError(f"the ranking model is larger than {MAX_BYTES} bytes", file=shown) from None
    except OSError as exc:
        raise CorpusError(f"cannot read the ranking model: {exc.strerror or exc}", file=shown) from None
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorpusError("the ranking model is not UTF-8", file=shown) from None
    except json.JSONDecodeError as exc:
        raise CorpusError(f"the ranking model is not JSON: {exc.msg}", file=shown, line=exc.lineno) from None
    except RecursionError:
        raise CorpusError("the ranking model is nested too deeply", file=shown) from None
    return _checked(data, shown)


def _checked(data: Any, shown: str) -> dict[str, Any]:
    def fault(field: str, what: str) -> CorpusError:
        return _fault({"file": shown}, field, what)

    if not isinstance(data, dict):
        raise fault("top level", "must be a mapping")
    if data.get("format") != FORMAT:
        raise fault("format", f"must be {FORMAT} (train the model again: bench/ranker.py)")
    trained_on = data.get("trained_on")
    if not isinstance(trained_on, str) or len(trained_on) != 32:
        raise fault("trained_on", "must be a 32-digit fingerprint")
    classes = data.get("classes")
    if (
        not isinstance(classes, list)
        or not 0 < len(classes) <= MAX_CLASSES
        or not all(isinstance(c, str) and "/" in c for c in classes)
    ):
        raise fault("classes", "must be a list of game/clause names")
    bias = data.get("bias")
    if not isinstance(bias, list) or len(bias) != len(classes) or not _numbers(bias):
        raise fault("bias", "must be one number per class")
    table = data.get("features")
    if not isinstance(table, dict) or set(table) != set(_COLUMNS):
        raise fault("features", f"must be a mapping of {', '.join(_COLUMNS)}")
    for column in _COLUMNS:
        if not isinstance(table[column], list):
            raise fault(f"features.{column}", "must be a list")
    # the columns are checked where they are packed (for_index), and only for a model in use
    return {"file": shown, "trained_on": trained_on, "classes": classes, "bias": bias, "features": table}


_COLUMNS = ("names", "idf", "starts", "owners", "weights")
"""The feature table, a column each: feature names (sorted), their idf, where each
feature's (class, weight) pairs start in ``owners`` and ``weights`` (one more than there are
names: the last is the end), each pair's class number, and its weight."""


def _numbers(values: list[Any]) -> bool:
    return set(map(type, values)) <= {int, float} and all(map(math.isfinite, values))


def _counts(values: list[Any]) -> bool:
    return set(map(type, values)) <= {int} and (not values or min(values) >= 0)


# --- using it -----------------------------------------------------------------------
#
# The index keeps the model packed, in a few byte strings, because unmarshalling tens of
# thousands of feature names as a dict would cost a cold `ask` more than the rest of its
# work: a hash table of the features (open addressing on CRC-32), their names run
# together, their idf, and per feature the span of its (class, weight) pairs. A question
# looks up only its own few hundred features.


def for_index(model: dict[str, Any] | None, games: Sequence[Any]) -> dict[str, Any] | None:
    """The model as the index stores it, or None when it was trained on other lines than
    these games' (an ask edited since, a clause added): a stale model is not used at all.
    Raises CorpusError for a column of the feature table that is malformed. ``of`` gives, per game and
    per record of its index (clauses, then left-out topics), the record's class number, or
    -1 for a record the model does not rank; ``out`` the number of the OUT class, or -1."""
    if model is None or not current(model, games):
        return None
    table: dict[str, list[Any]] = model["features"]
    names, starts, owners = table["names"], table["starts"], table["owners"]
    # each column is checked whole (type sets, min and max), not value by value: there are
    # hundreds of thousands of values, and an index build checks them every time
    checks = {
        "names": len(names) <= MAX_FEATURES
        and set(map(type, names)) <= {str}
        and all(a < b for a, b in pairwise(names)),
        "idf": len(table["idf"]) == len(names) and _numbers(table["idf"]),
        "starts": len(starts) == len(names) + 1
        and _counts(starts)
        and starts[0] == 0
        and starts[-1] == len(owners)
        and all(a <= b for a, b in pairwise(starts)),
        "owners": _counts(owners) and (not owners or max(owners) < len(model["classes"])),
        "weights": len(table["weights"]) == len(owners) and _numbers(table["weights"]),
    }
    for column, fine in checks.items():
        if not fine:
            raise _fault(model, f"features.{column}", _WANTED[column])
    size = 1 << max(4, (2 * len(names)).bit_length())  # at most half full: short probes
    slots = array("I", bytes(4 * size))
    encoded = [name.encode("utf-8", "surrogatepass") for name in names]
    offsets = array("I", [0])
    for i, key in enumerate(encoded):
        at = _slot(key, size)
        while slots[at]:
            at = (at + 1) % size
        slots[at] = i + 1
        offsets.append(offsets[-1] + len(key))
    number = {cls: i for i, cls in enumerate(model["classes"])}
    of = tuple(
        array("i", [number.get(f"{g.id}/{cid}", -1) for cid in g.clauses] + [-1] * len(g.leaves_out)).tobytes()
        for g in games
    )
    return {
        "classes": tuple(model["classes"]),
        "of": of,
        "out": number.get(OUT, -1),
        "bias": array("f", (float(b) for b in model["bias"])).tobytes(),
        "slots": slots.tobytes(),
        "names": b"".join(encoded),
        "offsets": offsets.tobytes(),
        "idf": array("f", table["idf"]).tobytes(),
        "starts": array("I", starts).tobytes(),
        "owners": array("H", owners).tobytes(),
        "weights": array("f", table["weights"]).tobytes(),
    }


_WANTED = {
    "names": "must be distinct feature names, sorted",
    "idf": "must be one number per name",
    "starts": "must run from 0 to the number of pairs, one more than there are names, never falling",
    "owners": "must be class numbers of the list of classes",
    "weights": "must be one number per owner",
}


def current(model: dict[str, Any], games: Sequence[Any]) -> bool:
    """Whether ``model`` was trained on these games' titles and asks as they are now."""
    return bool(model["trained_on"] == fingerprint(training_lines(games)))


def _fault(model: dict[str, Any], field: str, what: str) -> CorpusError:
    return CorpusError(what, file=model["file"], field=field)


def _slot(name: bytes, size: int) -> int:
    return zlib.crc32(name) & (size - 1)


def _unpack(code: str, data: bytes) -> array[Any]:
    out = array(code)
    out.frombytes(data)
    return out


def probabilities(model: dict[str, Any], text: str) -> list[float]:
    """Per class (``model["classes"]``), the model's probability that ``text`` asks about it."""
    slots, offsets, starts = (_unpack("I", model[k]) for k in ("slots", "offsets", "starts"))
    idf, names = _unpack("f", model["idf"]), model["names"]
    size = len(slots)
    found: dict[str, int] = {}  # feature -> its number in the model
    counts = features(text)
    for f in counts:
        key = f.encode()
        at = _slot(key, size)
        for _ in range(size):  # a probe ends at an empty slot; the table is at most half full
            i = slots[at] - 1
            if i < 0:
                break
            if names[offsets[i] : offsets[i + 1]] == key:
                found[f] = i
                break
            at = (at + 1) % size
    x = weighted({f: counts[f] for f in found}, {f: idf[i] for f, i in found.items()})
    owners, weights = _unpack("H", model["owners"]), _unpack("f", model["weights"])
    z = [float(b) for b in _unpack("f", model["bias"])]
    for f, v in x.items():
        i = found[f]
        for j in range(starts[i], starts[i + 1]):
            z[owners[j]] += v * weights[j]
    top = max(z)
    exp = [math.exp(s - top) for s in z]
    total = sum(exp)
    return [e / total for e in exp]


def classes_of(model: dict[str, Any], game: int) -> array[int]:
    """The class number of each record of game ``game`` of the index (-1: not ranked)."""
    return _unpack("i", model["of"][game])
