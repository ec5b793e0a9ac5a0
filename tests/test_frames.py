"""Who did what to whom: questions read into frames (rulesref/frames.py), and the ranking that uses them."""

from __future__ import annotations

import pytest

from rulesref import frames, lookup

HVDA = "houses-vs-dark-arts"

FRAMES = [
    # (question, the frame's roles that must be read; keys not listed are not checked)
    ("My house pawn lands on a death eater.", {"mover": "house", "target": "dark-arts"}),
    ("The death eater moved onto my square.", {"mover": "dark-arts", "target": "house"}),
    ("I'm the Dark Arts player and a house pawn just walked onto my pawn.", {"mover": "house", "target": "dark-arts"}),
    # the move described as the means decides, whatever the verb claims it does
    ("can my death eater stun a house pawn by landing on it", {"mover": "dark-arts", "target": "house"}),
    ("can hermione bump a death eater by landing on it", {"mover": "house", "target": "dark-arts"}),
    ("I'm the Dark Arts player and my pawn ends its move on a house pawn.", {"mover": "dark-arts", "target": "house"}),
    ("his guy ended up on mine. I'm the DA, he's Gryffindor.", {"mover": "house", "target": "dark-arts"}),
    # what a player says they are "running" or "on" is their side, so "my pawn" is its pawn
    ("I'm running Dark Arts. Hermione walks onto my pawn and halts there.", {"mover": "house", "target": "dark-arts"}),
    ("I run the dark arts. My pawn walks onto Hermione.", {"mover": "dark-arts", "target": "house"}),
    ("a DA pawn finished moving on the square my gryffindor pawn is on", {"mover": "dark-arts", "target": "house"}),
    # the side named after a pronoun is the party: "her Gryffindor pawn" is a House pawn
    (
        "the Dark Arts guy moved his pawn onto the square with her Gryffindor pawn",
        {"mover": "dark-arts", "target": "house"},
    ),
    (
        "a Dark Arts piece stops its movement upon the square my House pawn occupies",
        {"mover": "dark-arts", "target": "house"},
    ),
    ("When my Dark Arts piece bumps somebody's House pawn, does it stay?", {"mover": "dark-arts", "target": "house"}),
    # a team's "our guys" are the speaker's side's pawns, as "my guys" are
    ("if DA lands on one of our guys do they take our house marker", {"mover": "dark-arts", "target": "house"}),
    ("his guy ended up on mine. I'm Gryffindor, he's the Dark Arts.", {"mover": "dark-arts", "target": "house"}),
    ("A Dark Arts pawn was landed on by a Ravenclaw pawn.", {"mover": "house", "target": "dark-arts"}),
    ("My death eater got landed on by Luna.", {"mover": "house", "target": "dark-arts"}),
    ("Harry stops on the square where Bellatrix is standing.", {"mover": "house", "target": "dark-arts"}),
    ("Bellatrix stops where Harry is.", {"mover": "dark-arts", "target": "house"}),
    ("Greyback finished his move on Cedric's square.", {"mover": "dark-arts", "target": "house"}),
    ("Bellatrix ends her move right where Ron is standing", {"mover": "dark-arts", "target": "house"}),
    # 'his' in "his movement" is the mover's own, not a party of the move
    (
        "i play the dark side. my death eater finish his movement in the space of harry",
        {"mover": "dark-arts", "target": "house"},
    ),
    ("ron ran into bellatrix and stopped there.", {"mover": "house", "target": "dark-arts"}),
    # the mover's own move between the verb and where it ended is filler
    ("a death eater stops its move on harry's square. what happens", {"mover": "dark-arts", "target": "house"}),
    # a name the glossary does not know, owning a pawn, is the speaker's opponent
    (
        "ok so I'm dark arts, I moved onto Jake's pawn and stopped there. what now",
        {"mover": "dark-arts", "target": "house"},
    ),
    ("Neville and Luna share a square and my Death Eater finishes there.", {"mover": "dark-arts"}),
    ("As the Dark Arts player, can I discard cards when I Replenish?", {"side": "dark-arts"}),
    ("Can house players throw away cards before drawing when they Replenish?", {"side": "house"}),
    ("Can my death eaters cross obstacles without playing a card?", {"side": "dark-arts"}),
    # two sides named, but the speaker owns one and asks of themself
    ("my dementor is going for hermione past an obstacle. do i need a card to get it over?", {"side": "dark-arts"}),
    ("A Hufflepuff pawn landed on a space with two death eaters.", {"count": "several"}),
    ("My pawn ends on a square holding more than one Dark Arts pawn.", {"count": "several"}),
    # two of one side named side by side are several; two of two sides are one meeting's pair
    ("Harry moved onto a space that has Lucius AND Bellatrix on it.", {"count": "several"}),
    ("Greyback stops where Ron and Neville are standing.", {"count": "several"}),
    ("A DA pawn stops on my pawn that is already stunned.", {"target-state": "stunned"}),
    ("Lem failed the second check of the chain Valeros encountered.", {"count": "several"}),
    ("Can Lem do both of the checks on Kyra's barrier?", {"count": "several"}),
    ("Can Ginny end her move on the square where a stunned death eater is lying?", {"target-state": "stunned"}),
    ("Luna is stunned on her space. Then a death eater moves onto her.", {"target-state": "stunned"}),
    # the side whose player takes the action is the one asked about, whatever else is named
    (
        "The Ravenclaw player just Replenished. Does the Dark Arts Marker move even though it wasn't "
        "the Dark Arts player's action?",
        {"side": "house"},
    ),
    ("When the DA explores, can it play a second card?", {"side": "dark-arts"}),
    ("Neville's player takes a Replenish. Does the marker move?", {"side": "house"}),
    # a pronoun stands for the pawn the passive is about, not for its doer ("by a death eater")
    ("Hermione got bumped by a death eater, where does she go?", {"asked": "house"}),
    ("Can my kid use her card to shove my dark arts guy out of her way?", {"moving": "can"}),
    ("The Dark Arts player wants to move my Neville with his card. Is that allowed?", {"moving": "can"}),
    ("The Hufflepuff player did a Replenish, does the Dark Arts marker move?", {"side": "house"}),
    # the party the last modal asks of, when the scene before it names the other side too
    ("The death eater walked straight over the obstacle. Can Harry cross it the same way?", {"side": "house"}),
    # a count of pawns is an edge case; a count of cards in hand is not
    # whether a pawn can be moved, asked as the purpose of playing a card
    ("I'm the Dark Arts player. Can I play one of my cards to push Hermione a couple of spaces?", {"moving": "can"}),
    # a side only compared with ("like the houses do") is not the one asked about
    ("When the Dark Arts Replenishes, does the Marker move, like it does when we Houses do it?", {"side": "dark-arts"}),
    # the verb names the deed, and so who moved, and the speaker's side with it
    ("I just bumped Slytherin's pawn. What happens to my figure?", {"mover": "dark-arts", "asked": "dark-arts"}),
    ("When my house pawn stuns a death eater, who moves it?", {"mover": "house", "target": "dark-arts"}),
    ("the dark arts guy bumped me twice this turn", {"mover": "dark-arts", "target": "house"}),
    ("After I bump Tom's pawn, where does my pawn end up?", {"mover": "dark-arts", "asked": "dark-arts"}),
    # a move written around its pawn ("moved my pawn onto ..."), and the speaker's deed beside a move
    ("i moved my gryffindor pawn onto the dark arts pawn, what happens now", {"mover": "house", "target": "dark-arts"}),
    (
        "Sam moved his hufflepuff pawn onto MY pawn. I'm the dark arts player.",
        {"mover": "house", "target": "dark-arts"},
    ),
    ("i stunned a dark arts pawn by landing on it. who moves it?", {"mover": "house", "target": "dark-arts"}),
    # "As Dark Arts," gives the speaker's side without the word "player"
    ("As Dark Arts, Harry's pawn just landed on my guy.", {"mover": "house", "target": "dark-arts"}),
    # "I replenish as a house player": the side the speaker acts as, whatever else it names
    ("when I replenish as a house player, do the dark arts pawns I stunned get revived too?", {"side": "house"}),
    ("When I replenish as Hufflepuff do my pawns get revived?", {"side": "house"}),
    # the party asked after: where it goes, what becomes of it
    ("Dolohov ended on my Gryffindor pawn. Where do I put my pawn now?", {"asked": "house"}),
    ("Bellatrix's pawn moved onto Ron's space. Where does Ron go?", {"asked": "house"}),
    # a pronoun asked after is the pawn named before it, not another player
    ("The dark arts player bumped my Luna pawn. Where does she go now?", {"asked": "house"}),
    # "Dark Arts here:" gives the speaker's side, and "my pawn" is theirs
    ("Dark Arts here: can my pawn cross an obstacle without a card, like the houses?", {"side": "dark-arts"}),
    # what is asked of a pawn being moved: who places it, or whether it can move at all
    ("Who puts the stunned Dark Arts pawn on the next space, me or them?", {"moving": "who"}),
    ("Luna landed on my death eater. Do I move my pawn away or does she?", {"moving": "who"}),
    ("my death eater got stunned by Ginny, can I move it on my turn", {"moving": "can", "mover": "house"}),
    ("Luna ended on my death eater. Do I get to move it away or does she?", {"moving": "who"}),
    ("Greyback ended his move on Cho's space. Where does Cho go after that?", {"asked": "house", "asks": "where"}),
    # "where goes X": the word order of a player writing in a second language
    ("As Dark Arts I end my move right on Draco. Where goes Draco now?", {"mover": "dark-arts", "asked": "house"}),
    # "my pawn of Dark Arts" is the speaker's side's pawn, as "my Dark Arts pawn" is
    ("My pawn of Dark Arts has bumped a House pawn. Where goes my own pawn?", {"asked": "dark-arts"}),
    # a side phrase that ends a stretch after "as" says who is speaking, where it stands
    ("just bumped a ravenclaw as DA, lovely. where does my own pawn go now", {"asked": "dark-arts"}),
    # an adverb between the verb and "on" is the move's, as "its move" is
    ("draco's pawn stops dead on a DA pawn's square, stun or bump?", {"mover": "house", "target": "dark-arts"}),
    # the target is in the move's own stretch: the "I" of the next one asks, it is not landed on
    ("I'm house and I stopped right on the draw icon space, do I get the card?", {"mover": "house", "target": None}),
    # "our Dark Arts opponent takes Replenish": the side acting, as "the DA player takes" is
    ("If our Dark Arts opponent takes Replenish, is the Marker moved as with ours?", {"side": "dark-arts"}),
    # ... but not after a comparing "the same as": the speaker is still of the usual side
    ("can my pawn cross it the same as the DA, or not?", {"side": "house"}),
]

NOT_MOVING = [
    "Can Ginny end her move on the square where a stunned death eater is lying?",
    "Can I put the stunned pawn on a bonus space?",
]


@pytest.mark.parametrize("question", NOT_MOVING)
def test_a_move_as_a_noun_or_a_placing_asks_nothing_of_moving(question: str) -> None:
    assert "moving" not in _frame(question)


def test_a_described_move_is_the_scene_when_the_question_asks_whether_the_pawn_can_move() -> None:
    # the stun shares the scene's every word; what is asked is a later move of the stunned pawn
    asked = lookup.ask("Neville got stunned when he landed on my death eater. Can he move it on his next turn?")
    assert asked.hits[0].clause.id == "move.stunned"
    placing = lookup.ask("Neville landed on my death eater. Who moves my stunned pawn to the next space?")
    assert placing.hits[0].clause.id == "encounter.stun-relocate"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Cho ended her move on Greyback's space. Where does Greyback go after that?", "encounter.stun-relocate"),
        ("Greyback ended his move on Cho's space. Where does Cho go after that?", "bump.great-hall"),
    ],
)
def test_where_a_pawn_goes_is_asked_of_one_party_not_of_the_move(question: str, expected: str) -> None:
    # the stun and the bump share every word of the scene; the question asks where one pawn goes
    assert lookup.ask(question).hits[0].clause.id == expected


OTHER_ACTOR = [
    "Can I evade the monster for my friend?",
    "Lem has an evade card. Can he evade the monster Seoni is encountering?",
    "I'm at the same location as Kyra. Can I play a blessing on her check?",
    "Can Kyra roll my combat check for me?",
    # only the encountering character fails or defeats it, so the one who failed encountered it
    "Kyra failed to beat the monster. Can Lem have a go at it?",
    "Valeros couldn't defeat the henchman; can Seoni take a shot?",
]


@pytest.mark.parametrize("question", OTHER_ACTOR)
def test_acting_for_another_character_is_read_as_another_actor(question: str) -> None:
    assert _frame(question, "pacg").get("actor") == "other"


NO_DEED = [
    # an adjective, or a result both pawns share, says nothing of who moved
    "How do I revive my stunned Hufflepuff pawn?",
    "Where do bumped pawns go?",
    "If the Dark Arts lands on my pawn, does my pawn get stunned?",
]


@pytest.mark.parametrize("question", NO_DEED[:2])
def test_a_stun_or_bump_word_that_is_not_a_verb_names_no_mover(question: str) -> None:
    assert "mover" not in _frame(question)


def test_a_described_move_says_who_moved_over_a_result_word() -> None:
    frame = _frame(NO_DEED[2])
    assert (frame["mover"], frame["target"]) == ("dark-arts", "house")


def test_a_clause_about_one_party_fits_the_question_asking_after_it() -> None:
    # the bump as a whole shares every word of the scene; where the bumped pawn goes is asked
    asked = lookup.ask("A Ravenclaw pawn was landed on by a Dark Arts pawn. Where does the Ravenclaw pawn go?")
    assert asked.hits[0].clause.id == "bump.great-hall"
    mine = lookup.ask("After I bump a Hufflepuff pawn as the Dark Arts player, what happens to my own pawn?")
    assert mine.hits[0].clause.id == "bump.reserve"


def test_a_count_of_cards_in_hand_is_not_an_edge_case() -> None:
    assert "count" not in _frame("I'm a House player replenishing with two junk cards in hand.")
    assert _frame("Luna stops on a square with two death eaters.")["count"] == "several"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the count names the open question of several pawns over the placing after one stun
        (
            "Hermione finished her move on a space with two death eaters on it. "
            "Are both stunned, and who picks where each one goes?",
            "open.stun-several",
        ),
        # the bump says who is bumped of several House pawns (count: any), so the count costs it nothing
        ("There are two House pawns on the space my Dark Arts pawn ended on. Which one gets bumped?", "bump.bump"),
    ],
)
def test_a_counted_question_is_the_clause_that_rules_a_count(question: str, expected: str) -> None:
    assert lookup.ask(question).hits[0].clause.id == expected


UNSTATED_EDGES = [
    "Luna moved 4 and stopped exactly where Greyback is. Is Greyback out of the game?",
    "A house pawn finished on my pawn's space - does my pawn get laid down, theirs, or both?",
    "Harry stops on Bellatrix's space. Who ends up stunned?",
    "Valeros encountered a monster with a single combat check. Can Lem attempt that check instead of him?",
    "A DA pawn landed on Hermione. Is that a stun?",
]


@pytest.mark.parametrize("question", UNSTATED_EDGES)
def test_an_edge_case_is_read_only_when_named(question: str) -> None:
    frame = _frame(question)
    assert not frames.EDGES & frame.keys()


def test_a_clause_about_an_edge_case_ranks_lower_when_the_question_does_not_name_it() -> None:
    # both clauses declare the bump's direction; only the open one is about a stunned pawn
    ids = [h.clause.id for h in lookup.ask("Voldemort ends his move on Hermione. is that a stun?", top=10).hits]
    assert "open.bump-stunned" not in ids or ids.index("bump.bump") < ids.index("open.bump-stunned"), ids
    named = lookup.ask("if a DA pawn stops on my pawn thats already stunned is it still a bump")
    assert named.hits[0].clause.id == "open.bump-stunned"


def _game(gid: str) -> dict[str, object]:
    return next(g for g in lookup.load_index()["games"] if g["id"] == gid)


def _frame(question: str, gid: str = HVDA) -> dict[str, str]:
    g = _game(gid)
    return frames.read(
        question,
        g["phrases"],  # type: ignore[arg-type]
        g["longest"],  # type: ignore[arg-type]
        g["roles_of"],  # type: ignore[arg-type]
        speaker=g["speaker"],  # type: ignore[arg-type]
        sides=g["sides"],  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(("question", "roles"), FRAMES, ids=[q for q, _ in FRAMES])
def test_question_is_read_into_its_frame(question: str, roles: dict[str, str]) -> None:
    frame = _frame(question)
    assert {k: frame.get(k) for k in roles} == roles, frame


@pytest.mark.parametrize(
    "question",
    [
        "Which side may discard on Replenish, the Houses or the Dark Arts?",
        "Can a pawn move diagonally?",
        # the Marker and the Path are the Dark Arts' things, not the Dark Arts: no party
        "my refill doesn't push the marker if I didn't throw away any cards",
        "what moves the dark arts marker along the path",
    ],
)
def test_a_question_naming_no_one_side_has_no_side(question: str) -> None:
    assert "side" not in _frame(question) and "mover" not in _frame(question)


def test_possessive_and_contraction_are_told_apart() -> None:
    words, possessive, _ = frames.tokens_of("I'm sure he's on Greyback's square")
    assert words == ["im", "sure", "hes", "on", "greyback", "square"]
    assert possessive == [False, False, False, False, True, False]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("My house pawn lands on a death eater. What happens?", "encounter.stun"),
        ("A death eater lands on my house pawn. What happens?", "bump.bump"),
        ("The death eater moved onto my square. What happens to my pawn?", "bump.bump"),
        ("I'm the Dark Arts player and a house pawn just walked onto my pawn. What happens?", "encounter.stun"),
        ("As the Dark Arts player, can I discard cards when I Replenish?", "replenish.dark-arts-no-discard"),
    ],
)
def test_direction_decides_the_answer(question: str, expected: str) -> None:
    assert lookup.ask(question).hits[0].clause.id == expected


def test_a_clause_s_line_in_the_other_direction_is_not_taken_as_the_question() -> None:
    # the same words as an ask of the stun ("my House pawn ends its move on a Dark Arts
    # pawn"), in the other order: the line match counts words, the frame reads the order
    question = "the dark arts pawn just ended its move on my house pawn. what happens to my pawn?"
    assert lookup.ask(question).hits[0].clause.id in ("bump.bump", "bump.great-hall")


def test_a_speaker_who_names_their_character_is_the_one_encountering() -> None:
    frame = _frame("I (Lem) evaded the ally I was encountering. do I still get it?", "pacg")
    assert frame.get("actor") == "encountering"


@pytest.mark.parametrize(
    ("question", "actor"),
    [
        # the speaker who failed or flipped the card is the one encountering it ...
        ("i failed vs a monster and no one at my location wants to avenge, where does it go", "encountering"),
        ("I'm the one who flipped the barrier and Fumbus is beside me. Can I use my own evade card?", "encountering"),
        # ... unless another character is asked about, and "my friend" is not the speaker
        ("I flipped a monster and failed, can Harsk avenge it?", "other"),
        ("my friend flipped a monster, can I help her?", None),
    ],
)
def test_the_speaker_who_failed_or_flipped_a_card_is_the_one_encountering(question: str, actor: str | None) -> None:
    assert _frame(question, "pacg").get("actor") == actor


def test_a_clause_whose_roles_the_frame_contradicts_ranks_lower() -> None:
    assert lookup._fits({"mover": "house", "target": "dark-arts"}, {"mover": "dark-arts", "target": "house"}) == (
        lookup.ROLE_MISMATCH
    )
    assert lookup._fits({"mover": "house"}, {"mover": "house", "target": "dark-arts"}) == lookup.DIRECTION_MATCH
    assert lookup._fits({"side": "house"}, {"side": "house"}) == lookup.ROLE_MATCH
    assert lookup._fits({}, {"mover": "house"}) == 1.0
    assert lookup._fits({"side": "house"}, {"mover": "house"}) == 1.0


def test_a_clause_about_the_side_players_do_not_speak_as_needs_that_side_named() -> None:
    # Houses vs. Dark Arts questions are a House player's unless they say otherwise
    dark = {"side": "dark-arts"}
    assert lookup._fits({}, dark, "house") == lookup.SIDE_UNSTATED
    assert lookup._fits({"sides": "dark-arts,house"}, dark, "house") == 1.0
    assert lookup._fits({}, {"side": "house"}, "house") == 1.0
    assert _frame("Lucy's death eater stopped on Marco's pawn").get("sides") == "dark-arts"
    revived = "Lucy replenished and revived her pawns. does Marco's stunned pawn from the other house get up too?"
    assert "dark-arts" not in _frame(revived).get("sides", "")
    asked = (
        "hi! first time playing. when a house player Replenishes, do they revive their pawns before or after drawing?"
    )
    assert lookup.ask(asked).hits[0].clause.id == "replenish.house-order"


def test_two_pawns_of_two_sides_named_together_are_not_a_count() -> None:
    assert "count" not in _frame("Luna and Bellatrix are on the same space now: who gets stunned?")
    assert "count" not in _frame("Harry and Harry's friend both moved.")  # one party named twice is no count


def test_a_term_takes_the_role_of_its_head_noun_only() -> None:
    """A "local character" is a character; the "Dark Arts Marker" is not the Dark Arts."""
    by_game = {g["id"]: g["roles_of"] for g in lookup.load_index()["games"]}
    assert by_game["pacg"]["=local character"] == {"person": "character"}
    assert "=dark arts marker" not in by_game[HVDA] and "=house points" not in by_game[HVDA]


def test_the_frame_reads_a_misspelt_party_as_lookup_corrected_it() -> None:
    g = _game(HVDA)
    question = "what hapens when my pawn lands on a deth eater"
    args = (g["phrases"], g["longest"], g["roles_of"])
    plain = frames.read(question, *args, speaker=g["speaker"], sides=g["sides"])  # type: ignore[arg-type]
    spelled = frames.read(question, *args, speaker=g["speaker"], sides=g["sides"], spelled={"deth": "death"})  # type: ignore[arg-type]
    assert plain.get("target") != "dark-arts"
    assert (spelled["mover"], spelled["target"]) == ("house", "dark-arts")
    assert lookup.ask(question).hits[0].clause.id in ("encounter.stun", "encounter.no-duel")


def test_several_cards_played_is_not_a_count_of_pawns() -> None:
    assert "count" not in _frame("The Dark Arts player laid down several cards this turn, where do they go?")
    assert _frame("my pawn ends on a square with several death eaters")["count"] == "several"


def test_a_move_through_a_pawn_is_not_a_move_onto_it() -> None:
    question = "my death eater cuts across hermione's space mid move and keeps going. bump or no bump?"
    assert lookup.ask(question).hits[0].clause.id == "open.pass-through"


def test_a_pronoun_after_another_named_character_is_that_character() -> None:
    # Kyra failed (so she encountered); "he" comes after Harsk is named: he is Harsk
    frame = _frame("kyra failed to beat the ogre. harsk is at her location, can he have a go at it", "pacg")
    assert frame["actor"] == "other"


def test_a_leader_the_frame_contradicts_keeps_no_lead_over_the_model() -> None:
    # the House Explore's line is close to the words, but the question names the Dark Arts:
    # a near line protects a leader only when the frame does not speak against it
    question = "When DA explores, what does it actually do with the card it lays down?"
    assert lookup.ask(question).hits[0].clause.id == "action.dark-arts-explore"


def test_a_leader_yields_to_a_clause_the_frame_fits_better_and_the_model_prefers() -> None:
    # bump.bump's own line is close, but the question asks where the bumped pawn goes
    assert lookup.ask("DA lands on my dude. where does my dude go?").hits[0].clause.id == "bump.great-hall"


def test_the_frame_reads_chat_and_dialect_spellings_as_lookup_does() -> None:
    assert frames.tokens_of("ma pawn landed on Harry's square, u know") == (
        ["my", "pawn", "landed", "on", "harry", "square", "you", "know"],
        [False, False, False, False, True, False, False, False],
        {6, 8},  # a stretch ends at the comma and at the end
    )
