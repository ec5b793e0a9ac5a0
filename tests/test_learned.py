"""The phrasing model (rulesref/learned.py, rules/ranker.json): current for the shipped
packs, scored as its weights say, off when stale, and refused in one line when malformed."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from rulesref import learned, lookup
from rulesref.corpus import game_folders, load_game
from rulesref.games import all_games
from rulesref.lint import phrasing_model

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"


def _games(root: Path) -> list[Any]:
    return [load_game(folder) for folder in game_folders(root)]


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A copy of the shipped rules (the model with them) in the cwd, and an index of its own."""
    shutil.copytree(RULES, tmp_path / "rules")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULESREF_RULES", "rules")
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    lookup._loaded.clear()
    all_games.cache_clear()
    yield tmp_path / "rules"
    lookup._loaded.clear()
    all_games.cache_clear()


def test_the_shipped_model_is_current_and_in_the_index() -> None:
    model = learned.read(RULES)
    assert model is not None, "rules/ranker.json is missing: run `python bench/ranker.py`"
    assert learned.current(model, _games(RULES)), "rules/ranker.json is stale: run `python bench/ranker.py`"
    assert phrasing_model(_games(RULES)) == []
    built = lookup.build_index(RULES)["learned"]
    assert built is not None
    # every clause of every game is a class; the left-out topics are not
    for g, game in zip(built["of"], _games(RULES), strict=True):
        numbers = learned._unpack("i", g)
        assert len(numbers) == len(game.clauses) + len(game.leaves_out)
        assert min(numbers[: len(game.clauses)]) >= 0 and set(numbers[len(game.clauses) :]) <= {-1}


def _toy(tmp_path: Path, features: dict[str, Any], bias: list[float]) -> tuple[dict[str, Any], list[Any]]:
    """A two-clause game and a model file for it written by hand."""
    clause = SimpleNamespace
    games = [
        SimpleNamespace(
            id="toy",
            clauses={
                "a": clause(id="a", title="Walls", asks=["can I pass a wall"]),
                "b": clause(id="b", title="Doors", asks=[]),
            },
            leaves_out=(),
        )
    ]
    data = {
        "format": learned.FORMAT,
        "trained_on": learned.fingerprint(learned.training_lines(games)),
        "classes": ["toy/a", "toy/b"],
        "bias": bias,
        "features": features,
    }
    (tmp_path / learned.FILE).write_text(json.dumps(data), encoding="utf-8")
    model = learned.read(tmp_path)
    assert model is not None
    return model, games


def test_a_question_is_scored_as_the_weights_say(tmp_path: Path) -> None:
    features = {
        "names": ["#wal", "door", "wall"],
        "idf": [1.0, 3.0, 2.0],
        "starts": [0, 1, 2, 3],
        "owners": [1, 1, 0],
        "weights": [-0.5, 9.0, 1.5],
    }
    model, games = _toy(tmp_path, features, [0, 0.5])
    packed = learned.for_index(model, games)
    assert packed is not None
    # "wall" once (idf 2) and its piece "#wal" once (idf 1), scaled to length 1; "door" is absent
    x_wall, x_piece = 2 / math.sqrt(5), 1 / math.sqrt(5)
    z = [0 + 1.5 * x_wall, 0.5 - 0.5 * x_piece]
    expected = [math.exp(v) / sum(math.exp(u) for u in z) for v in z]
    assert learned.probabilities(packed, "Wall?") == pytest.approx(expected, rel=1e-6)
    # no feature the model knows: the bias alone decides
    alone = [math.exp(0) / (1 + math.exp(0.5)), math.exp(0.5) / (1 + math.exp(0.5))]
    assert learned.probabilities(packed, "zzz qqq") == pytest.approx(alone, rel=1e-6)


def test_features_are_words_pairs_and_pieces() -> None:
    got = learned.features("Pass walls")
    assert got["pass"] == 1 and got["walls"] == 1 and got["pass walls"] == 1
    assert {"# pa", "#pass ", "#all", "#lls "} <= set(got)
    assert "pass" in got and "#pass" in got  # the word and the piece stay apart


def test_a_stale_model_is_not_used_and_lint_says_so(rules: Path) -> None:
    path = rules / "houses-vs-dark-arts" / "movement.yaml"
    text = path.read_text(encoding="utf-8")
    first_ask = yaml.safe_load(text)[0]["asks"][0]
    path.write_text(text.replace(first_ask, first_ask + " please", 1), encoding="utf-8")
    games = _games(rules)
    assert lookup.build_index(rules.resolve())["learned"] is None
    [line] = phrasing_model(games)
    assert line.startswith(str(Path("rules") / learned.FILE) + ": trained on other titles and asks")
    # and the answer is the ranking's own: the same as with the model switched off
    assert lookup.ask("can a pawn pass through a castle wall").hits


def _shipped() -> dict[str, Any]:
    data = json.loads((RULES / learned.FILE).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _edited(**changes: Any) -> str:
    return json.dumps({**_shipped(), **changes})


def _column(name: str, change: Any) -> Callable[[], str]:
    """The shipped model with one column of its feature table changed by ``change``."""

    def make() -> str:
        data = _shipped()
        data["features"][name] = change(data["features"][name])
        return json.dumps(data)

    return make


MALFORMED = {
    "not-json": ('{\n  "format": 2,\n  oops\n}\n', r"rules/ranker\.json:3: the ranking model is not JSON"),
    "not-utf8": (b"\xff\xfe{}", "not UTF-8"),
    "a-list": ("[1, 2]", "top level: must be a mapping"),
    "other-format": (lambda: _edited(format=99), r"format: must be 2 \(train the model again"),
    "no-fingerprint": (lambda: _edited(trained_on=None), "trained_on: must be a 32-digit fingerprint"),
    "bias-nan": (
        lambda: _edited(bias=[float("nan")] * len(_shipped()["classes"])),
        "bias: must be one number per class",
    ),
    "bias-short": (lambda: _edited(bias=[0.0]), "bias: must be one number per class"),
    "classes-not-names": (lambda: _edited(classes=[1, 2]), "classes: must be a list of game/clause names"),
    "features-a-list": (lambda: _edited(features=[]), "features: must be a mapping of names, idf, starts"),
    "column-not-a-list": (_column("idf", lambda v: "idf"), "features.idf: must be a list"),
    "names-unsorted": (_column("names", lambda v: v[::-1]), "features.names: must be distinct feature names, sorted"),
    "idf-text": (_column("idf", lambda v: ["heavy", *v[1:]]), "features.idf: must be one number per name"),
    "starts-falling": (_column("starts", lambda v: [0, 5, 3, *v[3:]]), "features.starts: must run from 0"),
    "owner-out-of-range": (_column("owners", lambda v: [10_000, *v[1:]]), "features.owners: must be class numbers"),
    "owner-negative": (_column("owners", lambda v: [-1, *v[1:]]), "features.owners: must be class numbers"),
    "weight-text": (_column("weights", lambda v: ["heavy", *v[1:]]), "features.weights: must be one number per owner"),
    "weights-short": (_column("weights", lambda v: v[:-1]), "features.weights: must be one number per owner"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_model_is_one_error_line(case: str, rules: Path, cli) -> None:
    content, message = MALFORMED[case]
    content = content() if callable(content) else content
    path = rules / learned.FILE
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    r = cli("ask", "can a pawn pass through a castle wall")
    assert r.code == 2, (r.out, r.err)
    assert r.out == ""
    [line] = r.err.splitlines()
    assert line.startswith(f"Error: {Path('rules') / learned.FILE}"), line
    assert "Traceback" not in r.err

    assert re.search(message, line), line
    lint = cli("lint")
    assert lint.code == 1 and any(re.search(message, out) for out in lint.out.splitlines()), lint.out


def test_a_model_that_is_not_a_file_is_refused_without_waiting(rules: Path, cli) -> None:
    path = rules / learned.FILE
    path.unlink()
    path.mkdir()
    r = cli("ask", "can a pawn pass through a castle wall")
    assert r.code == 2 and "not a regular file" in r.err, r.err
    path.rmdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(path)  # opened non-blocking and refused after fstat: no hang
        r = cli("ask", "can a pawn pass through a castle wall")
        assert r.code == 2 and "not a regular file" in r.err, r.err


def test_a_model_larger_than_the_limit_is_refused(rules: Path, cli) -> None:
    path = rules / learned.FILE
    with open(path, "r+b") as f:
        f.truncate(learned.MAX_BYTES + 1)  # sparse: no 16 MB written
    r = cli("ask", "can a pawn pass through a castle wall")
    assert r.code == 2 and f"larger than {learned.MAX_BYTES} bytes" in r.err, r.err


def test_the_model_decides_few_refusals_and_makes_them_only_as_out_of_scope() -> None:
    """The model re-orders answers; whether there is one is mostly the ranking's call. It
    withholds a refusal when it is sure of a clause (lookup.MODEL_SURE, RESCUE_SURE), and
    makes one only when its out-of-scope class (learned.OUT) says so (lookup.OUT_REFUSE)."""
    questions = [
        q for name in ("scope.yaml", "short.yaml") for q in yaml.safe_load((ROOT / "bench" / name).read_text())
    ]
    index = lookup.load_index()
    model = index["learned"]
    assert model is not None and model["out"] >= 0, "the shipped model has the out-of-scope class"
    with_model = [bool(lookup.ask(q["q"]).hits) for q in questions]
    try:
        index["learned"] = None
        without = [bool(lookup.ask(q["q"]).hits) for q in questions]
    finally:
        index["learned"] = model
    pairs = list(zip(questions, with_model, without, strict=True))
    withheld = [q for q, answered, before in pairs if answered and not before]
    made = [q for q, answered, before in pairs if before and not answered]
    assert len(withheld) <= len(questions) // 50, "the model decides few refusals, not the ranking's job"
    assert len(made) <= len(questions) // 20, "the model makes few refusals, and only of out-of-scope questions"
    for q in made:
        out = learned.probabilities(model, q["q"])[model["out"]]
        assert out >= lookup.OUT_REFUSE and q["id"] is None, q
    assert any(with_model) and not all(with_model)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("card text versus rulebook", "golden.precedence"),  # the refusal model doubted it
        ("what can dark arts pick to do each turn", "action.dark-arts-choice"),  # a left-out topic led
    ],
)
def test_a_model_sure_of_a_clause_answers_what_the_ranking_alone_refuses(question: str, expected: str) -> None:
    index = lookup.load_index()
    model = index["learned"]
    try:
        index["learned"] = None
        alone = lookup.ask(question)
    finally:
        index["learned"] = model
    assert not alone.hits
    assert lookup.ask(question).hits[0].clause.id == expected


def test_a_question_asking_advice_is_refused_however_sure_the_model_is() -> None:
    assert not lookup.ask("Should I explore or replenish this turn, what's the smarter play?").hits
