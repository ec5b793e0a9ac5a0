"""Who did what to whom: a question read into a frame of roles, for ranking (lookup.py).

Some rules turn on who acts. In Houses vs. Dark Arts a House pawn ending its move on a Dark
Arts pawn is a stun and the reverse is a bump; in the PACG the encountering character may
evade and another local character may not. A bag of words cannot tell these apart, so a
clause whose meaning depends on who acts declares its roles (``roles:`` in its clause file,
e.g. ``{mover: house, target: dark-arts}``), and a question is read into the same frame.

The game's words for the parties and relations are data: a glossary term may carry
``role:`` (``{side: house}``, ``{relation: onto}``, ``{card: bane}``), so slang and names
("death eater", "Harry") reach the frame through the glossary. What is English, not game,
lives here: "I", "my" and "mine" stand for the speaker, whose side is the game's
``speaker`` default unless the question says otherwise ("I'm the Dark Arts player", "my
death eater"); "he", "his" and "she" for another player, bound by "he plays the Dark Arts"
or taken as the speaker's opponent; a passive ("got landed on by") swaps mover and target.

Frame keys:
  mover, target   the sides of the pawn that ends its move and of the one it ends on
  side            the one side a question is about, when it names only one
  actor           PACG: ``encountering`` or ``other``, who does the thing asked about
  card            PACG: ``boon`` or ``bane``, when the question names only one kind
  count           ``several`` when the question counts more than one of something
  target-state    ``stunned`` when the pawn ended on already lies stunned
  asked           the side of the party the question asks after ("where does my pawn go"),
                  which a clause declaring ``about: mover`` or ``about: target`` fits
  sides           every side the question names or binds, comma-separated (``side:`` of
                  the side a game's speaker is not needs naming: lookup.py, SIDE_UNSTATED)
  asks            ``where`` when the question asks where the party asked after goes
  moving          what the question asks of a pawn being moved: ``who`` moves or places it
                  ("who puts the stunned pawn next door"), or whether it ``can`` be moved ("can
                  I move my stunned pawn next turn"); a move it describes beside that is the
                  scene, not what is asked (lookup.py)

The last two are edge cases (EDGES): a clause about one ("more than one Dark Arts pawn",
"a stunned House pawn") answers only a question that names it, so lookup.py counts a
question silent on them against the clause, where silence on who moved says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from rulesref.index import ARTICLES, CHAT, stem

Roles = Mapping[str, str]

SPEAKER = frozenset({"i", "me", "my", "mine", "myself", "im", "ive", "id"})
OTHERS = {
    "he": "he",
    "him": "he",
    "his": "he",
    "hes": "he",
    "himself": "he",
    "she": "she",
    "her": "she",
    "hers": "she",
    "shes": "she",
    "herself": "she",
    "they": "they",
    "them": "they",
    "their": "they",
    "theirs": "they",
    "theyre": "they",
}
"""Pronouns of another player, by the person they point at."""
COPULA = frozenset(
    {"am", "is", "are", "was", "play", "plays", "playing", "played", "control", "controls", "run", "runs", "as"}
)
PAWN_NOUNS = frozenset(
    {"pawn", "pawns", "piece", "pieces", "guy", "guys", "figure", "figures", "token", "mini", "minis", "meeple"}
    | {"square", "squares", "space", "spaces", "spot", "tile", "cell", "one", "own"}
)
"""Nouns a possessive turns into that person's pawn (or the space it stands on)."""
PASSIVE = frozenset({"got", "get", "gets", "was", "were", "been", "is", "being", "be"})
MODALS = frozenset({"can", "may", "could", "might", "must", "should", "does", "do", "did", "will", "would", "is"})
OTHER_PEOPLE = frozenset(
    {"another", "other", "others", "someone", "somebody", "anyone", "anybody", "friend", "teammate", "ally"}
)
"""Words for a character other than the one encountering (PACG ``actor: other``)."""
HELPING = frozenset({"for", "instead", "behalf"})
EDGES = frozenset({"count", "target-state"})
"""Frame keys a clause may declare that a question must state for the clause to fit."""
SEVERAL = frozenset(
    {"several", "multiple", "pair", "twice"}
    | {"chain", "chained", "sequential", "sequence", "series", "second", "third", "2nd", "3rd"}
)
"""Words that count more than one (``count: several``). "Both" is not among them: in a stun
it is the two pawns of the one encounter ("does mine get stunned, or both?")."""
NUMBERS = frozenset({"two", "three", "four", "2", "3", "4"})
"""Numbers that count more than one of what follows, unless it is movement ("moved 4")."""
MOVEMENT = frozenset({"moved", "move", "moves", "moving", "went", "go", "goes", "walked", "walk", "rolled", "roll"})
MOVE_UNITS = frozenset({"space", "spaces", "square", "squares", "step", "steps", "movement", "points", "moves"})
CARD_NOUNS = frozenset({"card", "cards"})
LYING = frozenset({"stunned", "lying", "knocked", "fallen", "toppled", "downed"})
"""Words for a pawn already stunned (``target-state: stunned``)."""
ALREADY = frozenset({"already", "allready", "alredy", "still", "currently", "lying", "laying"})
"""'... for her', '... instead of him': someone acting for the one it concerns."""


class Mention(NamedTuple):
    """A word or phrase of the question that stands for a party, a person or a relation."""

    at: int
    """Token position of its first word."""
    end: int
    """Token position after its last word."""
    key: str
    """``side``, ``relation``, ``card``, ``person`` or ``speaker``/``pronoun``."""
    value: str


def tokens_of(query: str) -> tuple[list[str], list[bool], set[int]]:
    """Lowercase words, whether each was written as a possessive ('Greyback's'), and the
    positions at which a stretch of the question ends: before a punctuation mark, and at
    the end."""
    words: list[str] = []
    possessive: list[bool] = []
    stops: set[int] = set()
    for found in re.finditer(r"([a-z0-9]+(?:['’][a-z]+)?)|[,.;:!?]", query.lower()):
        raw = found.group(1)
        if raw is None:
            stops.add(len(words))
            continue
        base, _, tail = raw.replace("’", "'").partition("'")
        owner = tail == "s" and base not in OTHERS and base not in SPEAKER and base not in ("it", "that", "what", "who")
        # chat and dialect spellings ("ma pawn", "u") are read as the words lookup reads them as
        said = CHAT.get(base, base).split() if owner else CHAT.get(base + tail, base + tail).split()
        words.extend(said)
        possessive.extend([False] * (len(said) - 1) + [owner])
    stops.add(len(words))
    return words, possessive, stops


def mentions(
    words: Sequence[str], phrases: Mapping[str, Sequence[str]], longest: int, roles_of: Mapping[str, Roles]
) -> list[Mention]:
    """Glossary phrases that carry a role, with their positions (the longest phrase wins)."""
    # "stops its move on", "ended her turn on": the mover's own move is filler between the
    # verb and where it ended, as an article is, so "stops on" is found
    filler = {
        j
        for i in range(len(words) - 2)
        if words[i] in MOVE_OWNERS and words[i + 1] in OWN_MOVE and words[i + 2] in ENDED_AT
        for j in (i, i + 1)
    }
    # "stops dead on", "landed right on": the adverb too
    filler |= {i for i in range(1, len(words) - 1) if words[i] in SQUARELY and words[i + 1] in ENDED_AT}
    kept = [i for i, w in enumerate(words) if w not in ARTICLES and i not in filler]
    stems = [stem(words[i]) for i in kept]
    out: list[Mention] = []
    j = 0
    while j < len(stems):
        for n in range(min(longest, len(stems) - j), 0, -1):
            hit = phrases.get(" ".join(stems[j : j + n]))
            if hit is None:
                continue
            role = roles_of.get(hit[0])  # the term's own, or its head noun's (index._roles_of)
            if role is not None:
                out.extend(Mention(kept[j], kept[j + n - 1] + 1, k, v) for k, v in role.items())
            j += n
            break
        else:
            j += 1
    return out


def read(
    query: str,
    phrases: Mapping[str, Sequence[str]],
    longest: int,
    roles_of: Mapping[str, Roles],
    *,
    speaker: str | None = None,
    sides: Sequence[str] = (),
    spelled: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The frame of ``query``: the roles it states, by key (empty when it names none).

    ``speaker`` is the side "I" stands for when the question does not say; ``sides`` the
    game's two sides, so another player's pronoun can be read as the speaker's opponent.
    ``spelled`` maps misspelt words to the words lookup read them as ("deth" -> "death").
    """
    words, possessive, stops = tokens_of(query)
    if spelled:
        words = [spelled.get(w, w) for w in words]
    words = _our_as_mine(words)
    found = mentions(words, phrases, longest, roles_of)
    # "my pawn" is in the glossary as a House pawn, which is only the usual case: here a
    # possessive stands for its owner, whose side the question may give otherwise
    side_at = {
        m.at: m.value for m in found if m.key == "side" and words[m.at] not in SPEAKER and words[m.at] not in OTHERS
    }
    ends = {m.at: m.end for m in found if m.key == "side"}
    bound = _bindings(words, side_at, ends, stops)
    # a move described ("ends on", "lands on") says who moved; only where none is does the
    # verb say it ("I bumped his pawn"): "my pawn gets stunned" names a result both pawns share
    moves = any(m.key == "relation" and m.value == "onto" for m in found)
    deed = _deed(words, found, side_at)
    if moves and deed is not None and not deed.by_speaker:
        deed = None  # "I stunned his pawn by landing on it" names the deed; "my pawn got stunned" only a result
    if deed is not None and deed.speaker is not None:
        bound.setdefault("speaker", deed.speaker)
    me = bound.get("speaker") or _possessed_side(words, side_at) or speaker
    frame: dict[str, str] = {}

    def side_of(at: int) -> str | None:
        """The side of the party at position ``at`` (a side word, "my ...", "his ...")."""
        word = words[at]
        if at in side_at:
            return side_at[at]
        if word in SPEAKER:
            return me
        if word in OTHERS or at in owners:
            who = bound.get(OTHERS[word]) if word in OTHERS else None
            if who is None and me is not None and len(sides) == 2 and me in sides:
                who = sides[1 - sides.index(me)]
            return who
        return None

    # "I moved onto Jake's pawn": a name the glossary does not know, owning a pawn, is
    # another player's, the speaker's opponent (a known name is a side mention already)
    inside = {j for m in found if m.key == "side" for j in range(m.at, m.end)}
    owners = {
        i
        for i in range(len(words) - 1)
        if possessive[i] and words[i + 1] in PAWN_NOUNS and i not in inside
        if words[i] not in SPEAKER and words[i] not in OTHERS
    }
    # "her Gryffindor pawn": the side named after a pronoun is the party, not the pronoun's
    # guess at the speaker's opponent; in "my daughter's dark arts piece" the daughter's is
    parties = [
        i
        for i in range(len(words))
        if i in side_at
        or (words[i] in SPEAKER and not (i + 1 < len(words) and possessive[i + 1]))
        or (words[i] in OTHERS and i + 1 not in side_at)
        or i in owners
    ]
    for rel in (m for m in found if m.key == "relation" and m.value == "onto"):
        # "finished his movement in the space of Harry": 'his' is the mover's own, not a party
        before = [i for i in parties if i < rel.at and not (i + 1 < rel.at and words[i + 1] in OWN_MOVE)]
        # "ended his move on": 'his' is the mover's; a party after the stretch's end is not
        # the target ("I stopped right on the draw icon space, do I get the card?")
        after = [i for i in parties if i >= rel.end and not any(rel.end < s <= i for s in stops)]
        passive = rel.at > 0 and words[rel.at - 1] in PASSIVE and "by" in words[rel.end : rel.end + 3]
        sided = [i for i in before if i in side_at]
        mover_at: int | None
        target_at: int | None
        if _by_moving(words, rel.at, rel.end) and len(sided) >= 2:
            # "can my death eater stun a house pawn by landing on it": the verb's subject moved
            # onto its object, whatever the verb claims the move does
            mover_at, target_at = sided[0], sided[-1]
            deed = None
        elif passive:
            by = words.index("by", rel.end)
            mover_at = next((i for i in after if i > by), None)
            target_at = before[-1] if before else None
        else:
            mover_at = before[-1] if before else None
            target_at = after[0] if after else None
        mover = side_of(mover_at) if mover_at is not None else None
        target = side_of(target_at) if target_at is not None else None
        if mover is not None:
            frame["mover"] = mover
        if target is not None:
            frame["target"] = target
        break
    if deed is not None:  # the verb names the deed, and so who did it to whom, whatever the word order
        frame["mover"], frame["target"] = deed.mover, deed.target
    compared = _compared(words)
    named = {
        x
        for i in parties
        if (i in side_at or possessive[i] or _owns(words, i)) and i not in compared
        if (x := side_of(i)) is not None
    }
    owned = any(words[i] in SPEAKER and _owns(words, i) for i in parties)
    if "mover" not in frame and "acting" in bound:
        frame["side"] = bound["acting"]
    elif "mover" not in frame and owned and bound.get("speaker"):
        frame["side"] = bound["speaker"]  # "Dark Arts here: can my pawn cross it like the houses do?"
    elif "mover" not in frame and len(named) == 1:
        frame["side"] = next(iter(named))
    elif "mover" not in frame and not named and bound.get("speaker"):
        frame["side"] = bound["speaker"]
    elif "mover" not in frame and (asking := _asking(words, side_at)) is not None:
        frame["side"] = side_at[asking]  # "the death eater walked over the obstacle. Can Harry cross it the same way?"
    elif "mover" not in frame and (mine := _possessed_side(words, side_at)) is not None and _speaker_asks(words):
        frame["side"] = mine  # "my dementor is going for Hermione ... do I need a card to get it over?"
    told = set(side_at.values()) | {v for k, v in bound.items() if k != "acting"} | set(frame.values()) & set(sides)
    if told:
        frame["sides"] = ",".join(sorted(told))
    cards = {m.value for m in found if m.key == "card"}
    if len(cards) == 1:
        frame["card"] = next(iter(cards))
    if _several(words) or _numbered(words) or _more_than_one(words) or _two_named(words, side_at, ends):
        frame["count"] = "several"
    if _already_stunned(words, set(side_at) | {i for i, w in enumerate(words) if w in PAWN_NOUNS}):
        frame["target-state"] = "stunned"
    actor = _actor(words, found)
    if actor is not None:
        frame["actor"] = actor
    asked, where = _asked(words, parties)
    if asked is not None:
        asked = _antecedent(words, asked, side_at, ends)
    if asked is not None and (side := side_of(asked)) is not None:
        frame["asked"] = side
        if where:
            frame["asks"] = "where"
    moving = _moving(words)
    if moving is not None:
        frame["moving"] = moving
    return frame


BY_MOVING = frozenset({"by", "from", "after"})
OWN_MOVE = frozenset({"move", "moves", "movement", "walk", "turn", "go", "run"})
MOVE_OWNERS = frozenset({"its", "his", "her", "their", "my", "your", "our"})
ENDED_AT = frozenset({"on", "onto", "upon", "at", "in"})
SQUARELY = frozenset({"right", "dead", "exactly", "directly", "smack", "squarely", "straight", "precisely", "bang"})


def _by_moving(words: Sequence[str], at: int, end: int) -> bool:
    """Whether a move onto a party is the means of a deed named before it, and points back
    at that party: "... by landing on it", "... from moving onto them"."""
    led = (at > 0 and words[at - 1] in BY_MOVING) or (
        at > 1 and words[at - 2] in BY_MOVING and words[at - 1].endswith("ing")
    )
    return led and (end >= len(words) or words[end] in OBJECTS)


class Deed(NamedTuple):
    """A verb that names what one party did to another ("bumped", "stuns")."""

    mover: str
    target: str
    speaker: str | None
    """The speaker's side, when the speaker is the one who did it or had it done to them."""
    by_speaker: bool = False
    """The speaker did it ("I stunned ..."), which no described move can contradict."""


SUBJECTS = frozenset({"i", "we", "he", "she", "they", "it", "who"})
DETERMINERS = frozenset({"my", "his", "her", "their", "our", "your", "its", "the", "a", "an", "that", "this"})
OBJECTS = frozenset({"me", "us", "him", "her", "them", "it"})
ADVERBS = frozenset({"just", "already", "then", "also", "finally", "accidentally", "first"})


def _deed(words: Sequence[str], found: Sequence[Mention], side_at: Mapping[int, str]) -> Deed | None:
    """A glossary verb whose ``role:`` gives a mover and a target, used as a verb: "I bumped
    Slytherin's pawn", "my pawn got bumped". "The stunned pawn" and "my bumped pawn" are
    adjectives, and say nothing of who moved."""
    side_ends = {m.end - 1 for m in found if m.key == "side"}  # the last word of "... dark arts pawn"
    implied: dict[int, dict[str, str]] = {}
    for m in found:
        if m.key in ("mover", "target"):
            implied.setdefault(m.at, {})[m.key] = m.value
    for at, sides in implied.items():
        if "mover" not in sides or "target" not in sides or at == 0:
            continue
        lead = at - 1
        while lead > 0 and words[lead] in ADVERBS:  # "I just bumped"
            lead -= 1
        before = words[lead]
        passive = before in PASSIVE
        subject = lead - 1 if passive else lead
        if subject < 0 or (not passive and before in DETERMINERS):
            continue
        head = words[subject]
        if not (head in SUBJECTS or head in PAWN_NOUNS or subject in side_at or subject in side_ends):
            continue
        end = next((m.end for m in found if m.at == at), at + 1)
        if not passive and not _object_follows(words, end, side_at):
            continue
        speaker_is = _speaker_in(words, subject)
        said = None
        if speaker_is:
            said = sides["target"] if passive else sides["mover"]
        elif not passive and end < len(words) and words[end] in SPEAKER:
            said = sides["target"]  # "he bumped me"
        return Deed(sides["mover"], sides["target"], said, speaker_is and not passive)
    return None


SOMEONE = frozenset({"just", "one", "of", "somebody", "someone", "anybody", "anyone", "another", "other", "some"})
"""Words between a verb and its object that are no party: "bumps somebody's House pawn"."""


def _object_follows(words: Sequence[str], end: int, side_at: Mapping[int, str]) -> bool:
    """Whether a party comes next after a verb: "bumped Slytherin's pawn", "stunned him",
    "bumped Tom's pawn" (a name the glossary does not know, before a pawn)."""
    for j in range(end, min(end + 3, len(words))):
        if j in side_at or words[j] in OBJECTS or words[j] in OTHERS or words[j] in SPEAKER:
            return True
        if j + 1 < len(words) and words[j + 1] in PAWN_NOUNS and words[j] not in ("a", "an"):
            return True
        if words[j] not in DETERMINERS and words[j] not in SOMEONE:
            return False
    return False


def _speaker_in(words: Sequence[str], subject: int) -> bool:
    """Whether the subject ending at ``subject`` is the speaker: "I", "my pawn", "my house pawn"."""
    for j in range(subject, max(subject - 4, -1), -1):
        if words[j] in SPEAKER:
            return True
        if words[j] in DETERMINERS or words[j] in SUBJECTS:
            return False
    return False


ASKED_AFTER = {
    "to": ("happens", "happen", "happened"),
    "about": ("what", "how"),
    "for": ("ruling", "mean", "means", "now"),  # "what does that mean for my pawn"
}
PLACING = frozenset(
    {"put", "puts", "place", "places", "move", "moves", "send", "sends", "relocate", "relocates"}
    | {"shift", "shifts", "push", "pushes", "drop", "drops", "park", "parks"}
)
GOING = frozenset({"go", "goes", "end", "ends", "land", "lands", "wind", "sent", "put", "placed", "moved"})


def _asked(words: Sequence[str], parties: Sequence[int]) -> tuple[int | None, bool]:
    """The party a question asks after, where it asks where something goes or what becomes of
    it: "where does my pawn go", "where do I put my guy", "what happens to my figure", "who
    moves the stunned pawn"; and whether it asks where. None when it asks nothing of the kind."""
    for i, w in enumerate(words):
        if w in ("where", "wheres"):
            rest = range(i + 1, min(i + 8, len(words)))
            verb = next((j for j in rest if words[j] in GOING | PLACING), None)
            if verb is None:
                continue
            if words[verb] in PLACING:  # "where do I put my pawn": the pawn, not the one placing it
                after = [p for p in parties if verb < p <= verb + 3]
                if after:
                    return after[0], True
            inside = [p for p in parties if i < p < verb]
            if inside:
                return inside[0], True
            if verb == i + 1:  # "where goes my own pawn", "where goes Draco now"
                after = [p for p in parties if verb < p <= verb + 3]
                if after:
                    return after[0], True
        elif w == "who" and i + 1 < len(words) and words[i + 1] in PLACING:
            after = [p for p in parties if i + 1 < p <= i + 5]
            if after:
                return after[0], False
        elif w in ASKED_AFTER and i > 0 and words[i - 1] in ASKED_AFTER[w]:
            after = [p for p in parties if i < p <= i + 3]
            if after:
                return after[0], False
    return None, False


THIRD_PERSON = frozenset({"he", "him", "she", "her", "it", "they", "them"})
PLAYER = frozenset({"player", "players", "side", "team", "opponent", "opponents"})


def _antecedent(words: Sequence[str], at: int, side_at: Mapping[int, str], ends: Mapping[int, int]) -> int:
    """The party a pronoun asked after stands for: "Dolohov bumped my Hermione pawn. Where does
    she go?" asks after Hermione, the pawn named last before it, not after another player. A
    side named as a player ("the dark arts player") is a person, not a pawn that goes anywhere."""
    if words[at] not in THIRD_PERSON:
        return at

    def as_player(i: int) -> bool:
        end = ends.get(i, i + 1)
        return end < len(words) and words[end] in PLAYER

    pawns = sorted(i for i in side_at if i < at and not as_player(i))
    if len(pawns) > 1 and _agent(words, pawns[-1]):
        return pawns[-2]  # "Hermione got bumped by a death eater, where does she go": not the bumper
    return pawns[-1] if pawns else at


def _agent(words: Sequence[str], at: int) -> bool:
    """Whether the party at ``at`` is named as the doer of a passive ("bumped by a death eater")."""
    j = at - 1
    while j >= 0 and words[j] in DETERMINERS:
        j -= 1
    return j >= 0 and words[j] == "by"


SHIFTING = frozenset(
    {"move", "moves", "push", "pushes", "shift", "shifts", "drag", "slide", "shove", "shoves", "nudge"}
)
ACTION_VERBS = frozenset(
    {"replenish", "replenishes", "replenished", "replenishing", "explore", "explores", "explored", "exploring"}
    | {"learn", "learns", "learned", "learnt", "learning", "refill", "refills", "refilled", "refilling"}
)
"""The actions a side takes on its turn: the side phrase just before one is the side acting."""
AUXILIARY = frozenset({"just", "has", "had", "did", "does", "then", "also", "now", "is", "was", "will"})
LIGHT_VERBS = frozenset({"take", "takes", "took", "taking", "make", "makes", "made", "do", "does", "did", "doing"})
"""Verbs that take an action as their object: "Neville's player takes a Replenish"."""
DETERMINERS = frozenset({"a", "an", "the", "their", "his", "her", "its", "our", "my"})
PURPOSE_REACH = 11
"""How far after a modal "to" and a verb of shifting still say what it asks ("can I play one
of my cards to push Hermione")."""
WHO_CHOOSES = frozenset({"choose", "chooses", "decide", "decides", "pick", "picks"})


def _moving(words: Sequence[str]) -> str | None:
    """What a question asks of a pawn being moved (frame key ``moving``): who moves or places
    it ("who moves the stunned pawn", "do I move it or does she", "who decides where it
    goes"), or whether it can be moved at all ("can I move it next turn", "can the Dark Arts
    player move my stunned pawn"). "Can Ginny end her move there" uses move as a noun."""
    n = len(words)
    for i, w in enumerate(words):
        if w != "who":
            continue
        near = words[i + 1 : i + 4]
        if any(x in PLACING for x in near) or (any(x in WHO_CHOOSES for x in near) and "where" in words[i + 1 : i + 6]):
            return "who"
    for i, w in enumerate(words):  # "do I move my pawn or does she", "do I get to move it or does the DA player?"
        if w not in ("do", "does", "should"):
            continue
        verb = next((j for j in range(i + 2, min(i + 5, n)) if words[j] in PLACING), None)
        if verb is not None and "or" in words[verb + 1 : verb + 7]:
            return "who"
    for i, w in enumerate(words):
        if w not in MODALS or w in ("does", "do", "did", "is"):
            continue
        for j in range(i + 2, min(i + PURPOSE_REACH, n)):
            if j >= i + 7 and words[j - 1] != "to":
                continue  # further off only as the purpose: "can I play one of my cards to push her"
            if words[j] in SHIFTING and words[j - 1] not in DETERMINERS:
                return "can"  # "can I put it there" asks where it is placed, not whether it moves
            if words[j] in ("be", "get") and j + 1 < n and words[j + 1] in ("moved", "pushed", "shifted"):
                return "can"  # "can it be moved"
    for i in range(n - 2):  # "the Dark Arts wants to move my Neville", "am I allowed to push her"
        if words[i] in WANTING and words[i + 1] == "to" and words[i + 2] in SHIFTING:
            return "can"
    return None


WANTING = frozenset({"want", "wants", "wanted", "allowed", "able", "try", "tries", "tried", "trying"})
"""Words before "to move" that make it a question of whether the move is allowed."""


LIKE = frozenset({"like", "unlike", "than"})


def _compared(words: Sequence[str]) -> frozenset[int]:
    """Positions of a party the question only compares with: "does the Dark Arts need a card
    for it like the houses do", "... like it does when one of us Houses does it"."""
    out: set[int] = set()
    for i, w in enumerate(words):
        if w in LIKE or (w == "same" and i + 1 < len(words) and words[i + 1] == "as"):
            out.update(range(i + 1, min(i + 8, len(words))))
    return frozenset(out)


def _several(words: Sequence[str]) -> bool:
    """ "several death eaters", "a chain of checks", but not "played several cards": cards
    are counted in every hand, as with a number (_numbered)."""
    return any(w in SEVERAL and not CARD_NOUNS & set(words[i + 1 : i + 3]) for i, w in enumerate(words))


def _numbered(words: Sequence[str]) -> bool:
    """ "two death eaters", "3 house pawns": a number of things, not of spaces moved, nor of
    cards held ("two junk cards in hand"), which every hand has, nor the pair of one meeting
    ("the two of them")."""
    for i, w in enumerate(words):
        if w not in NUMBERS:
            continue
        before = words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        if before in MOVEMENT or after in MOVE_UNITS or after in NUMBERS:
            continue
        if before in ("the", "those", "these"):
            continue  # "what happens to the two of them": the pair the question is about, as "both"
        if not CARD_NOUNS & set(words[i + 1 : i + 3]):
            return True
    return False


def _asking(words: Sequence[str], parties: Mapping[int, str]) -> int | None:
    """The party a question's last modal asks about, as its subject: "... Can Harry cross it
    the same way?" asks of Harry, whoever else the scene before it names. Only a party the
    glossary names: a pronoun's side is a guess ("can he still go over?" of a player's son)."""
    modal = _last(words, ("can", "may", "could"))
    if modal is None:
        return None
    # the subject stands right after the modal, or after its article ("can the DA ...")
    return next((p for p in parties if modal < p <= modal + 2), None)


def _speaker_asks(words: Sequence[str]) -> bool:
    """Whether the question's last modal asks of the speaker: "... do I need a card?"."""
    modal = _last(words, MODALS)
    return modal is not None and modal + 1 < len(words) and words[modal + 1] in ("i", "we")


def _last(words: Sequence[str], wanted: Collection[str]) -> int | None:
    """The position of the last of ``words`` that is one of ``wanted``."""
    return next((i for i in range(len(words) - 1, -1, -1) if words[i] in wanted), None)


def _two_named(words: Sequence[str], side_at: Mapping[int, str], ends: Mapping[int, int]) -> bool:
    """ "a space with Lucius and Bellatrix on it": two different parties of one side named
    side by side, joined by "and", are more than one of that side (Harry and Draco, of two
    sides, are the pair of one meeting)."""
    for at, side in side_at.items():
        after = ends.get(at, at + 1)
        if after + 1 < len(words) and words[after] == "and":
            other = after + 1
            if side_at.get(other) == side and words[other : ends.get(other, other + 1)] != words[at:after]:
                return True
    return False


def _more_than_one(words: Sequence[str]) -> bool:
    """ "more than one", "each of them", "all of them"."""
    text = " ".join(words)
    if any(p in text for p in ("more than one", "each of them", "all of them", "all the pawns")):
        return True
    # "one of the checks in Kyra's encounter", "both of the checks": a chain, where "both"
    # alone is the two pawns of one stun
    return re.search(r"\b(one of (the|its|his|her|their)|both( of the)?|the other|each) checks?\b", text) is not None


def _already_stunned(words: Sequence[str], parties: set[int]) -> bool:
    """ "a stunned death eater", "my pawn is already lying there": a party said to be down
    before the move the question is about (not "who ends up stunned?")."""
    for i, w in enumerate(words):
        if w not in LYING:
            continue
        if i + 1 in parties or (i + 2 in parties and words[i + 1] in PAWN_NOUNS | {"dark", "house", "da"}):
            return True  # "stunned death eater", "stunned dark arts pawn"
        if (i > 0 and words[i - 1] in ALREADY) or (i > 1 and words[i - 2] in ALREADY):
            return True  # "already stunned", "already lying stunned"
        if i > 1 and words[i - 1] in ("is", "lies", "sits") and i - 2 in parties and "onto" in words[i:]:
            return True  # "Hermione is stunned on her space. A death eater moves onto her."
    return False


def _our_as_mine(words: list[str]) -> list[str]:
    """ "one of our guys", "ours": the speaker's side's pawns, as "my guys" and "mine" are
    (a team speaking together); "our house marker" or "can we" names no pawn, and stays."""
    return [
        "mine" if w == "ours" else "my" if w == "our" and i + 1 < len(words) and words[i + 1] in PAWN_NOUNS else w
        for i, w in enumerate(words)
    ]


def _owns(words: Sequence[str], i: int) -> bool:
    """ "my pawn", "his guy", "mine": a pronoun that stands for a party's pawn."""
    w = words[i]
    if w in ("mine", "hers", "theirs"):
        return True
    return (w in SPEAKER or w in OTHERS) and i + 1 < len(words) and words[i + 1] in PAWN_NOUNS


BEFORE_SIDE = frozenset(
    {"the", "a", "an", "playing", "running", "controlling", "taking", "as", "am", "on", "of", "player"}
)
"""What may stand between "I'm" and the side it names: "I'm running Dark Arts", "I'm on the DA"."""


def _bindings(
    words: Sequence[str], side_at: Mapping[int, str], ends: Mapping[int, int], stops: Collection[int] = ()
) -> dict[str, str]:
    """Who plays which side, as the question says: "I'm the DA", "he plays Gryffindor",
    "just bumped a ravenclaw as DA, lovely" (``stops``: where a stretch of the question ends)."""
    out: dict[str, str] = {}
    for i, w in enumerate(words):
        person = "speaker" if w in SPEAKER else OTHERS.get(w)
        if person is None or person in out:
            continue
        if w in ("im", "hes", "shes", "theyre"):
            look = i + 1  # "I'm the DA": the contraction holds the copula
        elif i + 1 < len(words) and words[i + 1] in COPULA:
            look = i + 2
        elif w == "i" and i + 1 < len(words) and words[i + 1] == "the":
            look = i + 1  # "I, the Ravenclaw player, ..."
        else:
            continue
        for j in range(look, min(look + 4, len(words))):
            if j in side_at:
                out[person] = side_at[j]
                break
            if words[j] not in BEFORE_SIDE:
                break
    for start, side in side_at.items():  # "Dark Arts here: my pawn ...", "DA player here."
        end = ends.get(start, start + 1)
        if end < len(words) and words[end] in PLAYER:
            end += 1
        if end < len(words) and words[end] == "here":
            out.setdefault("speaker", side)
        while end < len(words) and words[end] in AUXILIARY:
            end += 1
        if end < len(words) and words[end] in LIGHT_VERBS:
            end += 1
        if end > 0 and words[end - 1] in LIGHT_VERBS:  # "takes a Replenish", "did a Replenish"
            while end < len(words) and words[end] in DETERMINERS:
                end += 1
        if end < len(words) and words[end] in ACTION_VERBS:
            out.setdefault("acting", side)  # "the Ravenclaw player just Replenished": the side taking the action
    for i, w in enumerate(words):  # "As the Dark Arts player, can I ...": the speaker's side
        acting = w == "as" and any(words[k] in SPEAKER or words[k] == "we" for k in range(max(i - 3, 0), i))
        if acting and "speaker" not in out:  # "when I replenish as a house player": the side acting
            at = next((k for k in range(i + 1, min(i + 4, len(words))) if k in side_at), None)
            if at is not None and all(words[k] in ("a", "an", "the") for k in range(i + 1, at)):
                out["speaker"] = out["acting"] = side_at[at]
                continue
        if w == "as" and "speaker" not in out and (i == 0 or words[i - 1] in ("and", "so", "but")):
            at = next((k for k in range(i + 1, min(i + 5, len(words))) if k in side_at), None)
            if at is None:
                continue
            if any(words[k] == "player" for k in range(at, min(at + 4, len(words)))) or _opens_clause(words, ends, at):
                out["speaker"] = side_at[at]
        elif w == "as" and "speaker" not in out and (i == 0 or words[i - 1] not in AS_COMPARING):
            # "... as DA, lovely": a side phrase that ends the stretch says who is speaking
            at = i + 1 + (i + 1 < len(words) and words[i + 1] in ("a", "an", "the"))
            if at not in side_at:
                continue
            end = ends.get(at, at + 1)
            if end < len(words) and words[end] in PLAYER:
                end += 1
            if end in stops:
                out["speaker"] = side_at[at]
    if "speaker" in out and "acting" not in out:  # "I'm house and I replenish": the speaker's side acts
        for i, w in enumerate(words):
            if w in ("i", "we"):
                at = i + 1
                while at < len(words) and words[at] in AUXILIARY:
                    at += 1
                if at < len(words) and words[at] in ACTION_VERBS:
                    out["acting"] = out["speaker"]
                    break
    return out


AS_COMPARING = frozenset({"same", "well", "such", "much", "far", "long", "soon", "just", "so"})
"""Words before an "as" that compares ("the same as the DA") rather than says who one plays."""


def _opens_clause(words: Sequence[str], ends: Mapping[int, int], at: int) -> bool:
    """ "As Dark Arts, Harry's pawn ...", "as the DA can I ...": the side phrase at ``at`` is
    followed by a new clause (a party or a modal), not by a verb of its own ("as a house pawn
    moves ...")."""
    end = ends.get(at, at + 1)
    if end >= len(words):
        return False
    nxt = words[end]
    return end in ends or nxt in SPEAKER or nxt in OTHERS or nxt in MODALS


def _possessed_side(words: Sequence[str], side_at: Mapping[int, str]) -> str | None:
    """The speaker's side shown by what they own: "my death eater", "my house pawn"."""
    for i, w in enumerate(words):
        if w in ("my", "mine", "our") and i + 1 in side_at:
            return side_at[i + 1]
        if w in ("my", "our") and i + 2 < len(words) and words[i + 1] in PAWN_NOUNS and words[i + 2] == "of":
            at = i + 3 + (i + 3 < len(words) and words[i + 3] == "the")  # "my pawn of (the) Dark Arts"
            if at in side_at:
                return side_at[at]
    return None


SPEAKING = frozenset({"i", "im", "ive", "id"})
"""The speaker as the subject of a verb (not "my", which owns a noun: "my friend failed")."""


def _actor(words: Sequence[str], found: Sequence[Mention]) -> str | None:
    """PACG: whether the question asks about the encountering character or another one."""
    people = {m.at for m in found if m.key == "person"}
    speaking = {i for i, w in enumerate(words) if w in SPEAKING}
    # "I (Lem) evaded ...", "im kyra and ...": the speaker names their own character
    me = {words[j] for j in people if j > 0 and (words[j - 1] in SPEAKER or words[j - 1] == "am")}

    def speaks(j: int) -> bool:
        return words[j] in SPEAKER or words[j] in me

    encounters = [m.at for m in found if m.key == "relation" and m.value == "encounters"]
    if not encounters:
        # only the encountering character can fail, defeat or evade (encounter.no-one-else):
        # "Kyra failed to beat it" says who encountered it, "can Kyra defeat it" does not
        encounters = [
            m.at
            for m in found
            if m.key == "relation" and m.value == "deed" and not (m.at > 1 and words[m.at - 2] in MODALS)
        ]
    # "I failed vs a monster", "I'm the one who flipped it": the speaker, when no character
    # named is nearer
    encountering = next((max((p for p in people | speaking if p < e), default=None) for e in encounters), None)
    for i, w in enumerate(words):
        if w not in MODALS:
            continue
        nxt = [j for j in range(i + 1, min(i + 3, len(words)))]
        who = next(
            (j for j in nxt if j in people or words[j] in SPEAKER or words[j] in OTHER_PEOPLE or words[j] in OTHERS),
            None,
        )
        if who is None:
            continue
        if words[who] in OTHER_PEOPLE:
            return "other"
        if words[who] in OTHERS:
            if encountering is not None and encountering > who and who == i + 1 and w not in ("is", "does"):
                return "other"  # "can he evade the monster Ezren is encountering": he is not Ezren
            if encountering is not None and any(
                encountering < p < who and words[p] != words[encountering] for p in people
            ):
                return "other"  # "Kyra failed. Harsk is at her location, can he have a go": he is Harsk
            continue
        if encountering is not None:
            same = words[who] == words[encountering] or (speaks(who) and speaks(encountering))
            return "encountering" if same else "other"
        break
    if encountering is not None and any(w in HELPING for w in words[encountering + 1 :]):
        return "other"
    if encountering in speaking:
        return "encountering"  # "i failed vs a monster and no one wants to avenge, where does it go"
    if any(w in HELPING and _someone_else(words, i + 1, people) for i, w in enumerate(words)):
        return "other"  # "can I evade it for my friend"
    for i, w in enumerate(words):  # "can I play a blessing on her check": another's check
        if w not in ("on", "to") or i + 2 >= len(words) or words[i + 2] not in ("check", "checks", "roll", "encounter"):
            continue
        if words[i + 1] in OTHERS or (i + 1 in people and words[i + 1] not in SPEAKER):
            return "other"
    return None


def _someone_else(words: Sequence[str], at: int, people: set[int]) -> bool:
    """Whether another character comes next: "for my friend", "for her", "for Kyra", or the
    speaker is the one acted for ("roll my check for me")."""
    for j in range(at, min(at + 3, len(words))):
        if words[j] in OTHER_PEOPLE or words[j] in OTHERS or j in people or words[j] == "me":
            return True
        if words[j] not in ("my", "a", "the", "our", "another"):
            return False
    return False
