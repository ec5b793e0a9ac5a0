"""What the packs cover: questions about what they leave out are refused with what they do
cover, short exact-topic questions are answered, one answer stays in its game, and a default
game can be set once (RULESREF_GAME)."""

from __future__ import annotations

import json

import pytest

from rulesref import lookup
from rulesref.games import all_games


@pytest.mark.parametrize(
    "question",
    [
        "how many players can play",
        "how do I level up my character after a scenario",
        "how do I build my character deck",
        "what is the best strategy for the dark arts",
        "how do you castle in chess",
        "what does page 30 of the houses vs dark arts rulebook say",
        "In Cluedo, may I use a secret passage and make a suggestion on that same turn?",  # another game named
        "in chess can a pawn ever move backwards?",  # however near a rule (open.marker-back) the rest is
        "is this like Hogwarts Battle? can we mix the cards in?",  # the whole game compared: about the other
    ],
)
def test_a_question_about_what_the_packs_leave_out_is_refused(question: str, cli) -> None:
    r = cli("ask", question, "--json")
    out = json.loads(r.out)
    assert r.code == 0 and out["results"] == []
    assert out["message"].startswith("these rules don't cover that (")
    assert out["covers"].startswith("they cover ")


@pytest.mark.parametrize(
    "question",
    ["when is the best time to use a hero point", "is it smarter to save blessings for the villain"],
)
def test_advice_asked_in_a_rule_s_words_is_refused_as_advice(question: str) -> None:
    answer = lookup.ask(question)
    assert answer.hits == ()
    assert answer.message == "these rules don't cover that (strategy and advice, which the rules do not give)"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "My Dark Arts piece bumps a House pawn. Does it stay on the square like a capturing piece in chess?",
            "bump.reserve",
        ),
        (
            "My house pawn lands on a Dark Arts piece: does it take it and stay upright, like a chess capture?",
            "encounter.stun",
        ),
    ],
)
def test_another_game_named_only_to_compare_with_is_asked_of_these_rules(question: str, expected: str) -> None:
    assert lookup.ask(question).hits[0].clause.id == expected


def test_the_rulebook_is_a_word_a_question_is_about() -> None:
    # the card against the rulebook is a rule of its own, not chatter about the rulebook
    asked = lookup.ask("The rulebook says one thing and the card in front of me says the opposite. Which one wins?")
    assert asked.hits[0].clause.id == "golden.precedence"


def test_a_cue_does_not_run_across_punctuation() -> None:
    # "card, do" is not the cue "card do" (what a card does), so the question is answered
    assert lookup.ask("second card, do I get to play it too?").hits != ()


def test_a_card_s_text_asked_for_is_refused_as_the_cards() -> None:
    answer = lookup.ask("What does the Dementor card actually do?")
    assert answer.hits == ()
    assert (
        answer.message
        == "these rules don't cover that (how many people can play, the components and the length of a game)"
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("my best pawn ended on a death eater, what happens", "encounter.stun"),
        # a rules question framed with a cue word, near a clause's own lines, is answered
        ("should we reshuffle the discard pile when the draw deck is empty?", "draw.reshuffle"),
        ("is it better to play a blessing before or after I roll?", "check.sub-steps"),
    ],
)
def test_a_rules_question_with_a_cue_word_is_answered(question: str, expected: str) -> None:
    assert lookup.ask(question).hits[0].clause.id == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [("is there a hand limit", "open.hand-limit"), ("can I stop early", "move.fewer-points")],
)
def test_a_short_question_in_a_clause_s_own_words_is_answered(question: str, expected: str) -> None:
    assert lookup.ask(question).hits[0].clause.id == expected


@pytest.mark.parametrize(
    "question",
    [
        "What does the Shortbow card do exactly?",
        "In which book does Bellatrix first show up?",
        "how does the vault get built at the beginning",
    ],
)
def test_the_refusal_model_withholds_a_near_miss_the_ranking_would_answer(question: str) -> None:
    every = lookup.load_index()["games"]
    tokens = lookup.index.words(question)
    ranked = lookup._same_words_first(lookup._rank(question, tokens, every, every))
    best = next(r for r in ranked if not r.left_out)
    assert not ranked[0].left_out and lookup.answers(best)  # the ranking alone would answer it
    assert lookup.out_of_scope(lookup.refusal_features(ranked, tokens)) >= lookup.REFUSE_AT
    answer = lookup.ask(question)
    assert answer.hits == () and answer.message is not None and answer.message.startswith("these rules don't")
    assert answer.covers is not None and answer.covers.startswith("they cover ")


def test_a_clause_s_own_title_and_first_asks_are_never_refused() -> None:
    every = lookup.load_index()["games"]
    refused = []
    for g in every:
        left_out = set(lookup.index.unpack_ints(g["scope"]))
        for ci in (ci for ci in range(len(g["clauses"])) if ci not in left_out):
            clause = lookup._clause(g, ci)
            refused += [line for line in (clause.title, *clause.asks[:3]) if not lookup.ask(line).hits]
    assert refused == []


def test_also_relevant_stays_in_the_answer_s_game() -> None:
    hits = lookup.ask("what happens when I run out of cards in my draw pile").hits
    assert hits and {h.clause.game for h in hits} == {hits[0].clause.game}


def test_every_pack_says_what_it_covers_and_leaves_out(cli) -> None:
    for g in all_games():
        assert g.covers and g.leaves_out and all(t.asks for t in g.leaves_out), g.id
    r = cli("games", "--json")
    assert all(x["covers"] and x["leaves_out"] for x in json.loads(r.out))


def test_a_default_game_is_set_once(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    question = "can a pawn pass a castle wall?"
    monkeypatch.setenv("RULESREF_GAME", "pacg")
    pacg = json.loads(cli("ask", question, "--json").out)
    assert pacg["game"] == "pacg" and all(h["game"] == "pacg" for h in pacg["results"])
    both = json.loads(cli("ask", question, "--game", "hvda", "--json").out)
    assert both["game"] == "houses-vs-dark-arts"  # --game still overrides
    monkeypatch.setenv("RULESREF_GAME", "")
    assert json.loads(cli("ask", question, "--json").out)["game"] is None  # empty is unset


def test_an_unknown_default_game_is_named_where_it_comes_from(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESREF_GAME", "chess")
    for args in (("ask", "wall"), ("myths",), ("page", "10"), ("show", "move.walls")):
        r = cli(*args)
        assert (r.code, r.out) == (2, ""), args
        assert r.err == "Error: RULESREF_GAME: unsupported game: 'chess'; see `rulesref games`\n", args
