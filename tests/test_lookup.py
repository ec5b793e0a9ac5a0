"""`ask`: the JSON contract, options, misreadings, refusing weak matches, and the index cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesref import cache, lookup

ROOT = Path(__file__).resolve().parent.parent
RESULT_KEYS = {"id", "game", "kind", "title", "text", "pages", "pages_inferred", "score", "misreading", "see"}
ANSWER_KEYS = {"schema_version", "query", "game", "results", "message", "suggestions", "covers"}
"""The same top-level keys for an answer and a miss (docs/json.md)."""


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Never touch the user's cache: every test here shares one throwaway cache folder."""
    folder = tmp_path_factory.getbasetemp() / "rulesref-cache"
    monkeypatch.setenv("RULESREF_CACHE", str(folder))
    yield folder


def ask_json(cli, *args: str) -> dict[str, object]:
    r = cli("ask", *args, "--json")
    assert r.code == 0, r.err
    data: dict[str, object] = json.loads(r.out)
    return data


def ids(data: dict[str, object]) -> list[str]:
    results = data["results"]
    assert isinstance(results, list)
    return [r["id"] for r in results]


# --- the JSON contract (DESIGN.md) ---------------------------------------------------


def test_json_shape_matches_design(cli) -> None:
    data = ask_json(cli, "can the DA pawn go thru a wall??")
    assert set(data) == ANSWER_KEYS
    assert data["query"] == "can the DA pawn go thru a wall??"
    assert data["game"] is None
    results = data["results"]
    assert isinstance(results, list) and results
    for r in results:
        assert set(r) == RESULT_KEYS
        assert isinstance(r["id"], str) and isinstance(r["title"], str) and isinstance(r["text"], str)
        assert r["pages"] and all(isinstance(p, int) for p in r["pages"])
        assert 0.0 <= r["score"] <= 1.0
        assert r["misreading"] is None or set(r["misreading"]) == {"claim", "correction"}
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True), "results are best first"
    assert results[0]["id"] == "move.walls"


def test_no_match_gives_empty_results_a_message_and_suggestions(cli) -> None:
    data = ask_json(cli, "purple elephants dancing on saturn")
    assert set(data) == ANSWER_KEYS
    assert data["results"] == []
    assert isinstance(data["message"], str) and data["message"]
    assert isinstance(data["suggestions"], list)


def test_text_output_names_clause_and_page(cli) -> None:
    r = cli("ask", "can the DA pawn go thru a wall??")
    assert r.code == 0
    assert "move.walls" in r.out and "pp. 10, 25" in r.out


def test_text_output_when_nothing_matches_says_so(cli) -> None:
    r = cli("ask", "asdf qwer")
    assert r.code == 0
    assert r.out.startswith("No clause matches this question well.\n")
    assert "Try other words" in r.out


# --- options -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pacg", "PACG", "pathfinder"])
def test_game_restricts_results(cli, name: str) -> None:
    from rulesref.games import find_game

    try:
        wanted = find_game(name).id
    except Exception:
        pytest.skip(f"{name!r} is not an alias of a shipped game")
    data = ask_json(cli, "what happens when I fail a check", "--game", name)
    assert data["game"] == wanted
    assert ids(data)
    assert {r["game"] for r in data["results"]} == {wanted}  # type: ignore[union-attr]


def test_game_restriction_excludes_the_other_game(cli) -> None:
    data = ask_json(cli, "can the DA pawn go thru a wall??", "--game", "pacg")
    assert all(r["game"] == "pacg" for r in data["results"])  # type: ignore[union-attr]
    assert "move.walls" not in ids(data)


def test_unknown_game_is_bad_input(cli) -> None:
    r = cli("ask", "what is a bump", "--game", "chess")
    assert r.code == 2
    assert "unsupported game" in r.err
    assert r.out == ""


@pytest.mark.parametrize("n", [1, 2, 7])
def test_top_limits_results(cli, n: int) -> None:
    data = ask_json(cli, "what happens when pawns meet", "--top", str(n))
    assert 1 <= len(ids(data)) <= n


def test_top_must_be_positive(cli) -> None:
    r = cli("ask", "what is a bump", "--top", "0")
    assert r.code == 2
    assert "--top" in r.err


# --- finding the clause --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("can a death eater walk through a castle wall", "move.walls"),  # slang: death eater
        ("can DA use the secret pasageway", "move.passage-house-only"),  # abbreviation and a typo
        ("is a wall an obstical", "board.wall-not-obstacle"),  # typo
        ("do I have to spend all my movment points", "move.fewer-points"),  # typo
        ("pathfinder: what does banish mean", "verb.banish"),  # names the game
        ("where does a banished card go in pacg", "verb.banish"),
        ("Harry got knocked over, can I still move him with my card", "move.stunned"),  # a pawn by name
        ("Kyra evades the zombie, where does the zombie go", "step.evasion"),  # a character and a monster
        ("when I meet an ally card what is the goal", "encounter.purpose"),  # boon type, non-native
    ],
)
def test_finds_the_clause(question: str, expected: str) -> None:
    answer = lookup.ask(question, top=3)
    assert answer.hits, answer.message
    assert answer.hits[0].clause.id == expected, [h.clause.id for h in answer.hits]


def test_naming_a_game_prefers_it() -> None:
    hits = lookup.ask("in pathfinder, what is a trait", top=5).hits
    assert hits and hits[0].clause.game == "pacg"


def test_scores_are_in_range_and_deterministic() -> None:
    first = lookup.ask("who picks which pawn a death eater bumps", top=10)
    again = lookup.ask("who picks which pawn a death eater bumps", top=10)
    assert first == again
    assert all(0.0 <= h.score <= 1.0 for h in first.hits)


def test_normalise() -> None:
    assert lookup.normalise("Can the DA pawn go THRU a wall??") == "can the da pawn go through a wall"


# --- misreadings ---------------------------------------------------------------------


def test_misreading_style_question_is_flagged(cli) -> None:
    data = ask_json(cli, "dark arts pawns can go through walls since they ignore obstacles, right?")
    top = data["results"][0]  # type: ignore[index]
    assert top["misreading"] is not None, top
    assert top["misreading"]["claim"] and top["misreading"]["correction"]


def test_plain_question_is_not_flagged_as_misreading() -> None:
    hits = lookup.ask("how many spaces does a split card let two pawns move", top=3).hits
    assert hits and hits[0].misreading is None


# --- refusing weak matches -----------------------------------------------------------

NEGATIVES = [
    "what's the capital of France",
    "asdf qwer",
    "how do I castle in chess",
    "what's the weather like tomorrow",
    "best pizza topping?",
    "who won the world cup in 2018",
    "how many calories in a banana",
    "recommend a good movie for tonight",
    "can you play uno with 10 people",
    "in monopoly do you get money for landing on free parking",
    "how do i reset my wifi router",
    "what time is it",
    "tell me a joke",
    "qwertyuiop zxcvbnm",
    "how do I cook rice",
    "lorem ipsum dolor sit amet",
    "is it going to rain",
    "how does a knight move in chess",
    "what is the meaning of life",
    "how much does a plane ticket to tokyo cost",
    "who wrote hamlet",
    "catan: can I trade with the bank 4 to 1",
    "in poker does a flush beat a straight",
    "how do I install python on windows",
    "?!",
]


@pytest.mark.parametrize("question", NEGATIVES)
def test_off_topic_question_gets_no_answer(question: str) -> None:
    answer = lookup.ask(question)
    assert answer.hits == (), [(h.clause.id, round(h.score, 3)) for h in answer.hits]
    assert answer.message


# --- the index cache -----------------------------------------------------------------


@pytest.fixture
def rules_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of rules/ and a private cache, so a test may change both."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    return rules


NEW_CLAUSE = """
- id: board.zebra
  title: Zebra crossings are painted on the board for decoration only
  kind: rule
  text: >-
    The striped zebra crossings printed on the board have no effect on movement.
  pages: [10]
  tags: [board, zebra]
  asks:
    - do zebra crossings do anything
"""


def test_cache_is_written_and_rebuilt_when_a_rule_file_changes(rules_copy: Path) -> None:
    assert "board.zebra" not in [h.clause.id for h in lookup.ask("do zebra crossings slow my pawn").hits]
    cached = cache.path_for(rules_copy.resolve())
    assert cached.is_file()
    board = rules_copy / "houses-vs-dark-arts" / "board.yaml"
    before = board.stat()
    board.write_text(board.read_text(encoding="utf-8") + NEW_CLAUSE, encoding="utf-8")
    os.utime(board, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    hits = lookup.ask("do zebra crossings slow my pawn").hits
    assert hits and hits[0].clause.id == "board.zebra"


QUESTION = "can a death eater walk through a castle wall"


def test_cache_hit_does_not_parse_the_corpus(rules_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = lookup.ask(QUESTION)  # builds and caches
    lookup._loaded.clear()  # a new process, as far as the index goes

    def refuse(*_: object) -> None:
        raise AssertionError("the corpus was parsed although the cache is fresh")

    monkeypatch.setattr("rulesref.corpus.load_game", refuse)
    assert lookup.ask(QUESTION) == built


def test_unwritable_cache_folder_is_not_an_error(
    rules_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("RULESREF_CACHE", str(blocker / "cache"))
    lookup._loaded.clear()
    hits = lookup.ask(QUESTION).hits
    assert hits and hits[0].clause.id == "move.walls"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write to a read-only folder")
def test_read_only_cache_folder_is_not_an_error(
    rules_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    monkeypatch.setenv("RULESREF_CACHE", str(folder))
    lookup._loaded.clear()
    try:
        hits = lookup.ask(QUESTION).hits
    finally:
        folder.chmod(0o700)
    assert hits and hits[0].clause.id == "move.walls"
    assert list(folder.iterdir()) == []


def test_corrupt_cache_file_is_ignored_and_rebuilt(rules_copy: Path) -> None:
    built = lookup.ask(QUESTION)
    cached = cache.path_for(rules_copy.resolve())
    cached.write_bytes(b"\x00not marshal at all\xff")
    lookup._loaded.clear()
    assert lookup.ask(QUESTION) == built
    key = cache.key(rules_copy.resolve())
    assert cache.load(rules_copy.resolve(), key) is not None, "the corrupt file was replaced"


def test_missing_rules_folder_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli) -> None:
    monkeypatch.setenv("RULESREF_RULES", str(tmp_path / "nowhere"))
    r = cli("ask", "what is a bump")
    assert r.code == 2
    assert "rules folder not found" in r.err


def _run(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout


def test_processes_rebuilding_at_once_all_succeed(rules_copy: Path, tmp_path: Path) -> None:
    env = {"RULESREF_RULES": str(rules_copy), "RULESREF_CACHE": str(tmp_path / "shared"), "PYTHONPATH": str(ROOT)}
    code = f"from rulesref.lookup import ask; print(ask({QUESTION!r}).hits[0].clause.id)"
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env}, stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outs = [p.communicate()[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0] * 4
    assert outs == ["move.walls"] * 4
    leftovers = [p.name for p in (tmp_path / "shared").iterdir()]
    assert len(leftovers) == 1 and leftovers[0].endswith(".marshal"), leftovers


def _corpus_imports_yaml() -> bool:
    return (
        _run("import sys, rulesref.corpus; print('yaml' in sys.modules)", {"PYTHONPATH": str(ROOT)}).strip() == "True"
    )


@pytest.mark.xfail(_corpus_imports_yaml(), reason="rulesref.corpus imports yaml at module level", strict=True)
def test_cache_hit_does_not_import_yaml(rules_copy: Path, tmp_path: Path) -> None:
    env = {"RULESREF_RULES": str(rules_copy), "RULESREF_CACHE": str(tmp_path / "c"), "PYTHONPATH": str(ROOT)}
    code = f"import sys; from rulesref.lookup import ask; ask({QUESTION!r}); print('yaml' in sys.modules)"
    assert _run(code, env).strip() == "True"  # the first run builds the index: yaml is needed
    assert _run(code, env).strip() == "False"


# --- odd questions and odd rule folders ------------------------------------------------


def test_empty_question_is_bad_input(cli) -> None:
    r = cli("ask", "   ")
    assert r.code == 2
    assert r.err.startswith("Error: ") and "empty" in r.err


def test_question_without_english_words_says_so(cli) -> None:
    data = ask_json(cli, "μπορεί ένα πιόνι να περάσει από τοίχο;")
    assert data["results"] == []
    assert "English" in str(data["message"])


@pytest.mark.parametrize("query", ["w" * 100_000, " ".join(f"wxyzq{i}" for i in range(15_000))])
def test_huge_questions_are_answered_fast(query: str) -> None:
    import time

    started = time.monotonic()
    answer = lookup.ask(query)
    assert time.monotonic() - started < 2
    assert answer.hits == () and answer.message


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
@pytest.mark.parametrize("target", ["loop.yaml", "nowhere.yaml"])
def test_bad_link_in_a_rule_pack_is_bad_input_not_a_crash(rules_copy: Path, cli, target: str) -> None:
    os.symlink(target, rules_copy / "pacg" / "loop.yaml")
    r = cli("ask", "what is a bump")
    assert r.code == 2
    assert r.err.startswith("Error: ") and "loop.yaml" in r.err


# --- the command line as installed --------------------------------------------------
# `rulesref ask` may take a faster road than the other commands (it is the one typed at
# the table, and its start-up time is measured); whatever road it takes, it must answer
# exactly as the in-process CLI does.

PARITY = [
    ("ask", "can the DA pawn go thru a wall??", "--json"),
    ("ask", "can the DA pawn go thru a wall??"),
    ("ask", "what happens when I fail a check", "--game", "pacg", "--top", "2", "--json"),
    ("ask", "-n", "1", "--json", "who moves a stunned death eater"),
    ("ask", "what is a bump", "--game", "chess"),
    ("ask", "what is a bump", "--top", "0"),
    ("ask", "asdf qwer"),
    ("ask", "   "),
]


@pytest.mark.parametrize("args", PARITY, ids=[" ".join(a) for a in PARITY])
def test_installed_command_answers_as_the_cli_does(cli, args: tuple[str, ...]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "rulesref", *args], env=env, capture_output=True, text=True, cwd=ROOT)
    r = cli(*args)
    assert (done.returncode, done.stdout, done.stderr) == (r.code, r.out, r.err)


def test_short_word_typos_are_read_as_the_word_meant(cli) -> None:
    """'dose' and 'bak' are three- and four-letter typos the long-word correction cannot reach."""
    for question, expected in [
        ("dose the DA pawn ignore obstacles", "move.obstacles-dark-arts"),
        ("can a house pawn go bak the way it came", "move.no-backtrack"),
    ]:
        data = json.loads(cli("ask", question, "--json").out)
        assert data["results"] and data["results"][0]["id"] == expected, (question, data["results"][:1])


def test_a_longer_word_is_not_read_as_a_word_it_starts_with() -> None:
    # "manage" read as "mana" made "how do I manage ..." a question about another game
    for g in lookup.load_index()["games"]:
        assert "mana" in g["vocab"]
        assert lookup._nearest(g["vocab"], "manage") != "mana", g["id"]
    pacg = next(g for g in lookup.load_index()["games"] if g["id"] == "pacg")
    assert "strong" in pacg["vocab"] and "stronger" not in pacg["vocab"]
    assert lookup._nearest(pacg["vocab"], "stronger") == "strong"  # an ending is not another word


def test_a_five_letter_word_with_two_letters_swapped_is_read_as_the_word_meant() -> None:
    for g in lookup.load_index()["games"]:
        assert "piont" not in g["vocab"]
        assert lookup._nearest(g["vocab"], "piont") == "point", g["id"]


def test_a_real_question_buried_in_chatter_is_still_answered(cli) -> None:
    question = (
        "we have been arguing for an hour and my sister is furious lol. can a house pawn go through a castle wall"
    )
    data = json.loads(cli("ask", question, "--json").out)
    assert data["results"] and data["results"][0]["id"] == "move.walls"


def test_a_reported_claim_is_answered_by_the_rule_that_refutes_it(cli) -> None:
    # flagged as the misreading only when its words are more the claim's than the rule's: here
    # they share the rule's context words ("when it replenishes"), so the title answers it,
    # which says the opposite of the brother (a "No:" read aloud to a true rule costs more)
    question = "my brother says the dark arts can discard when it replenishes, can he?"
    data = json.loads(cli("ask", question, "--json").out)
    top = data["results"][0]
    assert top["id"] == "replenish.dark-arts-no-discard"
    assert "may not discard" in cli("ask", question, "--short").out


# --- the asks as the index reads them ------------------------------------------------


def test_a_typo_in_an_ask_is_indexed_as_the_rule_word_meant() -> None:
    from rulesref import index
    from rulesref.corpus import game_folders, load_game

    game = next(load_game(f) for f in game_folders() if f.name == "houses-vs-dark-arts")
    records = [index.clause_record(c) for c in game.clauses.values()]
    records[0] = {**records[0], "asks": ["can i use the secret pasage", "is the door small or big"]}
    typos = index.asks_typos(game, records)
    assert typos["pasage"] == "passage"
    assert "small" not in typos  # one changed letter in a short word is as often another word


def test_a_four_letter_typo_in_an_ask_is_indexed_only_when_no_letter_changed() -> None:
    from rulesref import index
    from rulesref.corpus import game_folders, load_game

    game = next(load_game(f) for f in game_folders() if f.name == "pacg")
    records = [index.clause_record(c) for c in game.clauses.values()]
    records[0] = {**records[0], "asks": [*records[0]["asks"], "what dose it do", "is it the save card"]}
    typos = index.asks_typos(game, records)
    assert typos["dose"] == "does"  # two letters swapped
    assert "save" not in typos  # "same" with a letter changed: as often a word of its own


def test_a_swapped_pair_of_letters_in_an_ask_is_indexed_as_the_word_meant() -> None:
    # the ratio counts a swap as two slips; it changes no letter, so it is a slip
    from rulesref import index
    from rulesref.corpus import game_folders, load_game

    game = next(load_game(f) for f in game_folders() if f.name == "pacg")
    records = [index.clause_record(c) for c in game.clauses.values()]
    records[0] = {**records[0], "asks": [*records[0]["asks"], "can Kyra gurad her location"]}
    assert index.asks_typos(game, records)["gurad"] == "guard"


def test_a_question_with_a_typo_some_ask_also_has_is_still_corrected() -> None:
    # several asks spell it "pasage"; the question must not match them by the typo alone
    from rulesref import index

    g = lookup.load_index()["games"][0]
    assert "pasage" not in g["vocab"]
    assert "passage" in lookup.correct(g, index.words("secret pasage"))


def test_the_plain_word_match_never_turns_chatter_into_an_answer() -> None:
    # the best plain match is scaled to 1 whatever it is; the answer rests on the analysed score
    answer = lookup.ask("my sister and I were arguing at the pub last night about the weather")
    assert not answer.hits


def test_a_question_that_is_one_of_a_clauses_asks_gets_that_clause() -> None:
    # the open question's own ask, though the split rule shares more of its words
    assert lookup.ask("can a 4 card move two pawns").hits[0].clause.id == "open.plain-card-pawns"


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # a question near a misreading is given the correction, not a "No" it did not ask for
        ("can I discard my whole hand when I replenish as a house player", "The discard is optional"),
        # one that asks a true rule, nearer the clause's own lines than the claim, is not flagged
        ("can a House player discard any number of cards when replenishing", "A House player may discard"),
        ("do dark arts pawns ignore all four obstacle types", "Dark Arts pawns ignore all four"),
        # one that asserts the misreading is given the correction (never "No:", which a true
        # rule put the same way would get too: audit 9, H1)
        ("my friend says a house player can only discard one card when replenishing, right?", "The discard is"),
        ("recharge puts the card on the bottom of my deck, right?", "Recharge"),
        # one that asserts the rule is not, however near the claim it is (audit 8, G2)
        ("both pawns are stunned when a house pawn ends on a dark arts pawn, right?", "A House pawn that ends"),
        ("a fly off transfer costs no movement, right?", "A Fly Off transfer costs no movement"),
    ],
)
def test_the_sentence_read_aloud_states_the_rule_and_never_says_no(question: str, said: str) -> None:
    from rulesref import render

    a = lookup.ask(question)
    sentence = render.short_sentence(a.hits[0])
    assert sentence.startswith(said) and not sentence.startswith("No")


def test_chat_spellings_with_a_slash_are_words() -> None:
    assert lookup.index.words("a passage w/o a card, b/c w/ocean") == [
        "a", "passage", "without", "a", "card", "because", "with", "ocean",
    ]  # fmt: skip


def test_dialect_spellings_are_the_words_they_stand_for() -> None:
    assert lookup.index.words("Whit dae ye dae noo, wi ma pawn ower the wall?") == [
        "what", "do", "you", "do", "now", "with", "my", "pawn", "over", "the", "wall",
    ]  # fmt: skip
