"""`rulesref dispute`: build a scenario by asking the referee's questions, then rule on it.

Each topic has a form: the few questions its kind of dispute needs, each one field of the
scenario (``board.walls``, ``action.explore.card``), with its default taken from the
topic's template (rulesref/templates/). The answers are short phrases, never YAML
(``g1 gryffindor a1``, ``c1-c2=door``); the built scenario goes through the same readers as
a file (read_scenario, the engine's), so a typo gets the same "did you mean". A field the
readers refuse is asked again, with the earlier answer as its default: nothing typed is lost.

Answers come from a ``Lines`` source: the terminal, or a script (``--answers FILE``, or
standard input when it is not a terminal), one answer a line, so CI settles each topic.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

from rulesref import render, templates
from rulesref.contract import rule_bytes
from rulesref.errors import RulesrefError, did_you_mean, shorten
from rulesref.source import Loaded, load_yaml
from rulesref.text import visible, whole_number

LINE_CHARS = 4096
"""The longest answer read: a prompt's answer is a phrase; a longer line is a paste gone wrong."""
ATTEMPTS = 12
"""How many times the built scenario is read again after a refused field before giving up."""
DONE = "done"
"""Ends a list of answers (the events, the moves) before its defaults run out."""


class Lines(Protocol):
    """Where answers come from: ``ask`` returns one line (EOFError when there are no more)."""

    def ask(self, prompt: str, default: str = "", choices: tuple[str, ...] = ()) -> str: ...


class ScriptLines:
    """Answers from a script, one a line; each is echoed after its prompt, so the output reads
    as the session would on a terminal. A line longer than LINE_CHARS is cut there."""

    def __init__(self, lines: Iterator[str], say: Callable[[str], None] = print) -> None:
        self._lines = lines
        self._say = say

    def ask(self, prompt: str, default: str = "", choices: tuple[str, ...] = ()) -> str:
        return self.line(_prompt_text(prompt, default, choices))

    def line(self, prompt: str) -> str:
        """The next line, echoed after ``prompt``; EOFError at the end of the script."""
        line = next(self._lines, None)
        if line is None:
            raise EOFError
        line = line.rstrip("\r\n")[:LINE_CHARS]
        self._say(f"{prompt}{visible(line)}")
        return line


def script_lines(path: Path | None, stream: Any = None) -> Iterator[str]:
    """The lines of an answers file (or of ``stream``), read lazily; an unreadable file is a
    RulesrefError naming it. Undecodable bytes are replaced, not fatal."""
    if path is None:
        yield from stream
        return
    name = visible(str(path))
    try:
        if not path.is_file():
            raise RulesrefError("is not a file of answers (one answer a line)", file=name, field="--answers")
        handle = path.open(encoding="utf-8", errors="replace", newline="")
    except OSError as exc:
        raise RulesrefError(f"cannot read it: {exc.strerror or exc}", file=name, field="--answers") from None
    with handle:
        yield from handle


def _prompt_text(prompt: str, default: str, choices: tuple[str, ...]) -> str:
    shown = f" ({'/'.join(choices)})" if choices else ""
    return f"{prompt}{shown}" + (f" [{visible(shorten(default, 60))}]" if default else "") + ": "


def refusal(exc: RulesrefError, *, named: bool = False) -> str:
    """An answer refused, as said under its prompt: the message and hint (``named``: and the field)."""
    field = f"{exc.field}: " if named and exc.field else ""
    return "  " + visible(field + exc.message + (f"; {exc.hint}" if exc.hint else ""))


class Bad(ValueError):
    """An answer that cannot be read as its field: said, and asked again."""


# --- reading the answers: short phrases, each into one field's value ------------------------------

NONE_WORDS = ("", "none", "no", "-", "nothing")


def _items(text: str) -> list[str]:
    """Comma-separated items, each stripped; an empty or 'none' answer is no items."""
    if text.strip().lower() in NONE_WORDS:
        return []
    return [item.strip() for item in text.split(",") if item.strip()]


def parse_spaces(text: str) -> list[str]:
    """Words separated by spaces or commas; an empty or 'none' answer is none."""
    return [] if text.strip().lower() in NONE_WORDS else text.replace(",", " ").split()


def _scalar(word: str) -> Any:
    if (number := whole_number(word, 9)) is not None:
        return number
    return {"yes": True, "true": True, "no": False, "false": False}.get(word.lower(), word)


def parse_text(text: str) -> str:
    if not text.strip():
        raise Bad("this needs an answer")
    return text.strip()


def parse_number(text: str) -> int:
    number = whole_number(text.strip(), 9)
    if number is None:
        raise Bad(f"expected a whole number, got {shorten(text.strip(), 40)!r}")
    return number


def parse_pairs(text: str) -> dict[str, Any]:
    """``c1-c2=door, d1=draw`` -> {c1-c2: door, d1: draw}; a value of several words is a list."""
    found: dict[str, Any] = {}
    for item in _items(text):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise Bad(f"expected NAME=VALUE, got {shorten(item, 40)!r}")
        words = value.split()
        found[key.strip()] = [_scalar(w) for w in words] if len(words) > 1 else _scalar(words[0])
    return found


LIST_FIELDS = ("markers", "events", "passages")


def parse_fields(text: str) -> dict[str, Any]:
    """``hand=3, deck=5, markers=gryffindor`` -> counts and lists (markers, events are lists)."""
    found = parse_pairs(text)
    return {k: (v if isinstance(v, list) or k not in LIST_FIELDS else [v]) for k, v in found.items()}


def parse_passages(text: str) -> dict[str, list[str]]:
    """``red=a4 e2`` -> {red: [a4, e2]}."""
    return {k: v if isinstance(v, list) else [v] for k, v in parse_pairs(text).items()}


def parse_pawns(text: str) -> dict[str, dict[str, Any]]:
    """``g1 gryffindor a1, d1 dark-arts e4 stunned`` -> the pawns mapping."""
    pawns: dict[str, dict[str, Any]] = {}
    for item in _items(text):
        words = item.split()
        if len(words) not in (3, 4) or (len(words) == 4 and words[3].lower() != "stunned"):
            raise Bad(f"expected PAWN HOUSE-or-dark-arts SPACE [stunned], e.g. g1 gryffindor a1; got {item!r}")
        pid, owner, at = words[:3]
        pawn: dict[str, Any] = {"side": "dark-arts"} if owner.lower() in ("dark-arts", "da") else {"house": owner}
        pawn["at"] = at
        if len(words) == 4:
            pawn["stunned"] = True
        pawns[pid] = pawn
    if not pawns:
        raise Bad("name at least one pawn, e.g. g1 gryffindor a1")
    return pawns


def show_pawns(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    parts = []
    for pid, p in value.items():
        if isinstance(p, dict):
            owner = p.get("house") or p.get("side") or "?"
            parts.append(f"{pid} {owner} {p.get('at', '?')}" + (" stunned" if p.get("stunned") else ""))
    return ", ".join(parts)


def parse_players(text: str) -> dict[str, dict[str, Any]]:
    """``gryffindor: hand=2, deck=8; dark-arts: markers=slytherin`` -> the players mapping."""
    players: dict[str, dict[str, Any]] = {}
    for part in text.split(";"):
        who, sep, fields = part.partition(":")
        if not part.strip():
            continue
        if not sep or not who.strip():
            raise Bad(f"expected PLAYER: hand=3, deck=5, ...; got {shorten(part.strip(), 40)!r}")
        players[who.strip()] = parse_fields(fields)
    return players


def show_players(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    return "; ".join(f"{who}: {show_plain(fields)}" for who, fields in value.items())


def parse_turn(text: str) -> dict[str, Any] | None:
    """``house gryffindor`` / ``gryffindor`` / ``dark-arts`` -> the turn."""
    words = parse_spaces(text)
    if not words:
        return None
    if words[0].lower() in ("dark-arts", "da"):
        return {"side": "dark-arts"}
    house = words[1] if words[0].lower() == "house" and len(words) > 1 else words[0]
    return {"side": "house", "house": house}


def show_turn(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    return "dark-arts" if value.get("side") == "dark-arts" else f"house {value.get('house', '')}".strip()


def parse_card(text: str) -> int | str:
    """The movement printed on the card: a number, or a+b for a split card."""
    word = text.strip().replace(" ", "")
    if re.fullmatch(r"\d{1,3}", word):
        return int(word)
    if re.fullmatch(r"\d{1,3}\+\d{1,3}", word):
        return word
    raise Bad(f"expected the card's movement, a number (4) or a split card (3+3); got {shorten(word, 40)!r}")


def parse_move(text: str) -> dict[str, Any]:
    """``g1: a1 b1 c1`` (the colon may be left out; ``passage:e2`` or ``fly:e1`` for a transfer) -> one move."""
    words = text.replace(",", " ").split()
    if words and words[0].endswith(":") and len(words[0]) > 1:
        words[0] = words[0][:-1]
    elif words and ":" in words[0] and words[0].split(":")[0] not in ("passage", "fly"):
        first, _, rest = words[0].partition(":")
        words[:1] = [first, rest] if rest else [first]
    if len(words) < 2 or words[0] in ("passage", "fly"):
        raise Bad(f"expected PAWN: SPACE SPACE ..., e.g. g1: a1 b1 c1; got {shorten(text, 40)!r}")
    path: list[Any] = []
    for word in words[1:]:
        kind, colon, where = word.partition(":")
        path.append({kind: where} if colon and kind in ("passage", "fly") else word)
    return {"pawn": words[0], "path": path}


def show_move(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    path = [next(f"{k}:{v}" for k, v in s.items()) if isinstance(s, dict) else str(s) for s in value.get("path", [])]
    return f"{value.get('pawn')}: {' '.join(path)}"


def parse_replenish(text: str) -> Any:
    """How many cards the House player discards first: a number, all, or none."""
    word = text.strip().lower()
    if word in NONE_WORDS:
        return "replenish"
    if word == "all":
        return {"replenish": {"discard": "all"}}
    return {"replenish": {"discard": parse_number(word)}}


def show_replenish(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("replenish"), dict):
        return str(value["replenish"].get("discard", "none"))
    return "none"


def parse_card_pacg(text: str) -> dict[str, Any]:
    """``Boggart (monster)`` -> the card; ``villain`` among the words in brackets marks one."""
    m = re.fullmatch(r"\s*(.+?)\s*\(\s*([^)]*)\)\s*", text)
    if not m:
        raise Bad(f"expected NAME (TYPE), e.g. Boggart (monster); got {shorten(text, 40)!r}")
    words = [w.strip() for w in m[2].split(",") if w.strip()]
    if not words:
        raise Bad("name the card's type in brackets: monster, barrier, or a boon type")
    card: dict[str, Any] = {"name": m[1], "type": words[0]}
    if "villain" in words[1:]:
        card["villain"] = True
    return card


def show_card_pacg(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    extra = ", villain" if value.get("villain") else ""
    return f"{value.get('name', '')} ({value.get('type', '')}{extra})"


_EVENT_FORMS = (
    "STEP: WHO plays CARD (TYPE, trait...)",
    "STEP: WHO rolls TOTAL [on CHECK]",
    "STEP: WHO evades with CARD",
    "avenge: WHO avenges, burying CARD",
)


def parse_event(text: str) -> dict[str, Any]:
    """One event of a PACG encounter, as said at the table (see _EVENT_FORMS)."""
    step, sep, said = text.partition(":")
    step, said = step.strip(), said.strip()
    if not sep or not step or not said:
        raise Bad(f"expected {' | '.join(_EVENT_FORMS)}; got {shorten(text, 40)!r}")
    if m := re.fullmatch(r"(.+?)\s+plays\s+(.+?)\s*\(([^)]*)\)", said):
        words = [w.strip() for w in m[3].split(",") if w.strip()]
        if not words:
            raise Bad("name the card's type in brackets, e.g. Longsword (weapon, melee)")
        play: dict[str, Any] = {"by": m[1], "card": m[2], "type": words[0]}
        if words[1:]:
            play["traits"] = words[1:]
        return {"step": step, "play": play}
    if m := re.fullmatch(r"(.+?)\s+rolls\s+(\d{1,4})(?:\s+on\s+(.+))?", said):
        result: dict[str, Any] = {"by": m[1], "total": int(m[2])}
        if m[3]:
            result["check"] = m[3]
        return {"step": step, "result": result}
    if m := re.fullmatch(r"(.+?)\s+evades\s+with\s+(.+)", said):
        return {"step": step, "evade": {"by": m[1], "card": m[2]}}
    if m := re.fullmatch(r"(.+?)\s+avenges(?:,?\s+burying\s+(.+))?", said):
        avenge: dict[str, Any] = {"by": m[1]}
        if m[2]:
            avenge["bury"] = m[2]
        return {"step": step, "avenge": avenge}
    raise Bad(f"expected {' | '.join(_EVENT_FORMS)}; got {shorten(said, 40)!r}")


def show_event(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    step = value.get("step", "")
    if isinstance(play := value.get("play"), dict):
        kinds = ", ".join([str(play.get("type", "")), *map(str, play.get("traits", []))])
        return f"{step}: {play.get('by')} plays {play.get('card')} ({kinds})"
    if isinstance(result := value.get("result"), dict):
        on = f" on {result['check']}" if result.get("check") else ""
        return f"{step}: {result.get('by')} rolls {result.get('total')}{on}"
    if isinstance(evade := value.get("evade"), dict):
        return f"{step}: {evade.get('by')} evades with {evade.get('card')}"
    if isinstance(avenge := value.get("avenge"), dict):
        bury = f", burying {avenge['bury']}" if avenge.get("bury") else ""
        return f"{step}: {avenge.get('by')} avenges{bury}"
    return ""


VERDICTS = ("legal", "illegal", "undetermined")


def parse_claims(text: str) -> dict[str, str]:
    """``Sam=legal, Alex=illegal``: who says the action is legal, illegal or undetermined."""
    claims = {k: str(v).lower() for k, v in parse_pairs(text).items()}
    for who, says in claims.items():
        if says not in VERDICTS:
            near = did_you_mean(says, VERDICTS)
            raise Bad(
                f"{who}'s claim must be legal, illegal or undetermined, got {says!r}" + (f"; {near}" if near else "")
            )
    return claims


def show_claims(value: Any) -> str:
    if not isinstance(value, dict):
        return ""
    return ", ".join(f"{k}={v}" for k, v in value.items() if isinstance(v, str))


def show_plain(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}={show_plain(v)}" for k, v in value.items())
    return str(value)


def show_items(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else show_plain(value)


# --- the forms ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ask:
    """One question: the field it fills, how it is asked, how its answer is read and shown."""

    key: str
    """The field, dotted: ``board.walls``."""
    prompt: str
    parse: Callable[[str], Any] = parse_text
    show: Callable[[Any], str] = show_plain
    choices: tuple[str, ...] = ()
    optional: bool = False
    """An empty (or 'none') answer leaves the field out."""
    many: bool = False
    """A list, one answer an item, ended by 'done' (or an empty line once the defaults run out)."""
    when: Callable[[dict[str, Any]], bool] = lambda data: True
    help: str = ""
    """Said once before the question: how to write an answer (a list's items)."""


_TITLE = Ask("title", "What is in question, in a line")
_CLAIMS = Ask(
    "claims", "Each player's claim (NAME=legal|illegal|undetermined, ...)", parse_claims, show_claims, optional=True
)
_GRID = Ask("board.grid", "The board's size, COLUMNSxROWS (5x4: spaces a1..e4)")
_BETWEEN = (
    Ask("board.walls", "Castle walls, as borders (b2-b3, ...)", parse_spaces, show_plain, optional=True),
    Ask("board.obstacles", "Obstacles and their type (c1-c2=door, ...)", parse_pairs, show_plain, optional=True),
    Ask("board.protected", "Protected Areas (spaces)", parse_spaces, show_plain, optional=True),
    Ask("board.fly-off", "Fly Off Points (spaces)", parse_spaces, show_plain, optional=True),
    Ask("board.passages", "Secret Passageways (colour=SPACE SPACE, ...)", parse_passages, show_plain, optional=True),
    Ask("board.bonus", "Bonus spaces (SPACE=acquire|draw|another-turn, ...)", parse_pairs, show_plain, optional=True),
)
_PAWNS = Ask(
    "pawns", "The pawns and where they stand (PAWN HOUSE-or-dark-arts SPACE [stunned], ...)", parse_pawns, show_pawns
)
_HOUSES = Ask("houses", "Every house in play", parse_spaces, show_plain, optional=True)
_TRACK = Ask("path", "The Dark Arts Path (length=20, marker=6, ...)", parse_fields, show_plain, optional=True)
_TURN = Ask("turn", "Whose turn (house NAME, or dark-arts)", parse_turn, show_turn, optional=True)
_PLAYERS = Ask(
    "players",
    "Cards and tokens that matter (PLAYER: hand=3, deck=5, discard=1, markers=HOUSE ...; PLAYER: ...)",
    parse_players,
    show_players,
    optional=True,
)
_CARD = Ask("action.explore.card.movement", "The card's movement (a number, or 3+3 for a split card)", parse_card)
_EFFECT = Ask(
    "action.explore.card.effect",
    "The colour of the card's effect (white, orange, red), if it has one that matters",
    parse_text,
    show_plain,
    optional=True,
    when=lambda data: isinstance(_get(data, "action.explore.card"), dict),
)
_ALLOWS = Ask(
    "action.explore.card.allows",
    "What its effect allows (obstacle, obstacle:TYPE, fly-off, passage)",
    parse_spaces,
    show_plain,
    optional=True,
)
_MOVES = Ask(
    "action.explore.moves",
    "Move",
    parse_move,
    show_move,
    many=True,
    help="Each pawn moved, in order: PAWN: SPACE SPACE ..., from its own space (passage:SPACE or fly:SPACE "
    "for a transfer); done ends the list.",
)
_RELOCATE = Ask(
    "action.explore.relocate",
    "Where the House player puts each stunned Dark Arts pawn (PAWN=SPACE, ...)",
    parse_pairs,
    show_plain,
    optional=True,
)

_BOARD = (_TITLE, _GRID, *_BETWEEN)
_CARD_AND_MOVES = (_CARD, _ALLOWS, _EFFECT, _MOVES)
EXPLORE = (*_BOARD, _PAWNS, _TURN, _PLAYERS, *_CARD_AND_MOVES, _CLAIMS)
FORMS: dict[str, tuple[Ask, ...]] = {
    "move": EXPLORE,
    "walls": EXPLORE,
    "split": EXPLORE,
    "bonus": EXPLORE,
    "fly-off": EXPLORE,
    "stun": (*EXPLORE[:-1], _RELOCATE, _CLAIMS),
    "bump": (*_BOARD, _HOUSES, _PAWNS, _TRACK, _TURN, _PLAYERS, *_CARD_AND_MOVES, _CLAIMS),
    "replenish": (
        _TITLE,
        Ask("board.grid", "The board's size, COLUMNSxROWS, if it matters", optional=True),
        _HOUSES,
        _PAWNS,
        _TRACK,
        _TURN,
        _PLAYERS,
        Ask(
            "action",
            "How many cards the House player discards first (a number, all, or none)",
            parse_replenish,
            show_replenish,
        ),
        _CLAIMS,
    ),
    "victory": (
        _TITLE,
        _GRID,
        Ask("board.location", "The assigned location for the Dark Arts win (a space)"),
        _HOUSES,
        _PAWNS,
        _TRACK,
        Ask(
            "players.dark-arts",
            "The Dark Arts' Progress Tokens and location card (progress=3, location-card=next-red)",
            parse_fields,
            show_plain,
            optional=True,
        ),
        _CLAIMS,
    ),
}
_PACG = (
    _TITLE,
    Ask("character", "The encountering character"),
    Ask("local", "The other characters at the location (NAME, ...)", _items, show_items, optional=True),
    Ask("card", "The card encountered, NAME (TYPE)", parse_card_pacg, show_card_pacg),
    Ask("checks", "Its checks, as printed (Combat 10, or Knowledge 4 or Perception 4 then Combat 10)"),
    Ask(
        "events",
        "Event",
        parse_event,
        show_event,
        many=True,
        help="What happened, in order, each in its step: " + " | ".join(_EVENT_FORMS) + "; done ends the list.",
    ),
    _CLAIMS,
)
FORMS.update(encounter=_PACG, evasion=_PACG, avenge=_PACG)

FIXED: dict[str, dict[str, Any]] = {"victory": {"action": {"check": "victory"}}}
"""What a topic's scenario says without asking (a victory check is the action itself)."""

_PICTURE_AFTER = "pawns"
"""The board is drawn once the pawns stand on it, and again in the ruling."""


# --- building and ruling --------------------------------------------------------------------


def _get(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    for part in parts[:-1]:
        data = data.setdefault(part, {})
    data[parts[-1]] = value


def _template_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """The template as the defaults read it: a card ``4`` is ``{movement: 4}``."""
    out = copy.deepcopy(data)
    card = _get(out, "action.explore.card")
    if card is not None and not isinstance(card, dict):
        _set(out, "action.explore.card", {"movement": card})
    return out


def assemble(game: str, topic: str, answers: dict[str, Any]) -> dict[str, Any]:
    """The scenario from the answers, in the order a file would give it."""
    data: dict[str, Any] = {"game": game}
    for key, value in answers.items():
        if value is not None and value != [] and value != {}:
            _set(data, key, value)
    for key, value in FIXED.get(topic, {}).items():
        data.setdefault(key, copy.deepcopy(value))
    card = _get(data, "action.explore.card")
    if isinstance(card, dict) and set(card) == {"movement"}:  # nothing allowed: the plain number
        _set(data, "action.explore.card", card["movement"])
    if "claims" in data:  # the claims come last, after the action, as in the templates
        data["claims"] = data.pop("claims")
    return data


def scenario_yaml(data: dict[str, Any], topic: str) -> str:
    head = f"# built by `rulesref dispute {topic}`; check it again with `rulesref check THIS_FILE`\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def rule(data: dict[str, Any], topic: str, *, picture: bool = True) -> Any:
    """The ruling on the built scenario, read exactly as a file is (contract.rule_bytes)."""
    return rule_bytes(scenario_yaml(data, topic).encode("utf-8"), "<dispute>", picture=picture)


def board_picture(data: dict[str, Any]) -> str | None:
    """The board as built so far, with its pawns, where the game draws one; None if it cannot yet.

    Raises ScenarioError when the board or the pawns cannot be read (asked again then)."""
    if data.get("game") != "houses-vs-dark-arts" or "board" not in data:
        return None
    from rulesref.games.houses_vs_dark_arts.board_reader import read_board, read_pawns
    from rulesref.games.houses_vs_dark_arts.drawing import picture

    doc = Loaded(data, "<dispute>", {}, {})
    board = read_board(doc)
    houses = data.get("houses") if isinstance(data.get("houses"), list) else None
    pawns = read_pawns(doc, board, houses)
    at: dict[str, list[str]] = {}
    for pid, pawn in pawns.items():
        at.setdefault(pawn.at, []).append(pid.upper() if pawn.stunned else pid)
    return picture(board, at, [])


class Dispute:
    """One dispute being settled: the answers so far, and the questions left."""

    def __init__(self, lines: Lines, say: Callable[[str], None] = print) -> None:
        self.lines = lines
        self.say = say
        self.topic: Any = None
        self.form: tuple[Ask, ...] = ()
        self.defaults: dict[str, Any] = {}
        """The topic's template, as the questions' defaults."""
        self.answers: dict[str, Any] = {}
        """Each field's value, as read from its answer."""
        self.said: dict[str, str] = {}
        """Each field's answer as typed (``events[2]`` for a list's item), offered again when it is asked again."""

    def run(self, topic_name: str | None, game: str | None) -> Any:
        """Ask, build, rule and offer to save; returns the ruling, or None if it could not be built."""
        topic = self.topic = self._topic(topic_name, game)
        form = FORMS.get(topic.name)
        if form is None:
            self.say(
                f"rulesref has no questions for {topic.name} yet: write the template with "
                f"`rulesref new {topic.name} -o dispute.yaml` (it is {visible(str(topic.file))}), "
                "edit it and run `rulesref check dispute.yaml`."
            )
            return None
        self.form = form
        self.defaults = _template_defaults(load_yaml(topic.file).data)
        self.say(f"A {topic.name} dispute: {topic.about}. Enter keeps the answer in [brackets].")
        for ask in form:
            key = self._key(ask)
            if key is None:
                continue
            self._ask(ask, key)
            if ask.key == _PICTURE_AFTER:
                self._draw()
        for _ in range(ATTEMPTS):  # each round asks a refused field again; bounded as well by the input
            data = assemble(topic.game, topic.name, self.answers)
            try:
                ruling = rule(data, topic.name)
            except RulesrefError as exc:
                if not self._mend(exc):  # no question asks it: say so, keep the answers
                    self._offer_save(data, topic.name, broken=True)
                    raise
                continue
            render.ruling(ruling)
            self._offer_save(data, topic.name)
            return ruling
        raise RulesrefError(f"the dispute still cannot be read after {ATTEMPTS} tries", field="dispute")

    def _topic(self, name: str | None, game: str | None) -> Any:
        choices = tuple(t.name for t in templates.topics(game))
        if name is not None:  # named on the command line: a wrong one is an error there
            return templates.find_topic(name, game)
        for _ in range(ATTEMPTS):
            answer = self.lines.ask("What is the dispute about", choices[0], choices)
            try:
                return templates.find_topic(answer or choices[0], game)
            except RulesrefError as exc:
                self.say(refusal(exc))
        raise RulesrefError("no topic chosen", field="TOPIC")

    def _key(self, ask: Ask) -> str | None:
        """The field ``ask`` fills, or None when the answers so far make it moot (``when``)."""
        return ask.key if ask.when(assemble(self.topic.game, "", self.answers)) else None

    def _ask(self, ask: Ask, key: str, only: int | None = None) -> None:
        """Ask one field (each item of a list field; ``only``: just that item) until it reads."""
        default = _get(self.defaults, key)
        if ask.help and only is None:
            self.say(ask.help)
        if ask.many:
            items = list(self.answers.get(key) or default or [])
            texts = [self.said.get(f"{key}[{i}]", ask.show(v)) for i, v in enumerate(items)]
            out: list[Any] = list(self.answers.get(key) or []) if only is not None else []
            for i in range(len(items) + 64 if only is None else 1):  # a list as long as the input says, within reason
                index = i if only is None else only
                hint = texts[index] if index < len(texts) else ""
                text = self._answer(f"{ask.prompt} {index + 1}", hint, (), allow_done=True)
                if text is None:
                    break
                value = self._read(ask, text, f"{key}[{index}]", f"{ask.prompt} {index + 1}")
                if only is not None:
                    out[index] = value
                    break
                out.append(value)
            self.answers[key] = out
            return
        hint = self.said.get(key, ask.show(default) if default is not None else "")
        text = self._answer(ask.prompt, hint, ask.choices)
        self.answers[key] = self._read(ask, text or "", key, ask.prompt)

    def _answer(self, prompt: str, default: str, choices: tuple[str, ...], allow_done: bool = False) -> str | None:
        text = self.lines.ask(prompt, default, choices)
        if allow_done and (text.strip().lower() == DONE or (not text.strip() and not default)):
            return None
        if not text.strip():
            return default
        return text

    def _read(self, ask: Ask, text: str, key: str, prompt: str) -> Any:
        for _ in range(ATTEMPTS):
            if ask.optional and text.strip().lower() in NONE_WORDS:
                self.said[key] = "none"
                return None
            try:
                value = ask.parse(text)
            except Bad as exc:
                self.say(f"  {exc}")
                text = self.lines.ask(prompt, text, ask.choices) or text
                continue
            self.said[key] = text.strip()
            return value
        raise RulesrefError(f"no answer could be read for {key}", field=key)

    def _draw(self) -> None:
        for _ in range(ATTEMPTS):
            try:
                drawn = board_picture(assemble(self.topic.game, self.topic.name, self.answers))
            except RulesrefError as exc:
                if not self._mend(exc):
                    return  # not a question's field: the ruling will say what it is
                continue
            if drawn:
                render.picture(drawn)
            return

    def _mend(self, exc: RulesrefError) -> bool:
        """Say why the scenario was refused and ask the field it names again; False (and nothing
        said) when no question asks that field."""
        found = _asked(exc.field or "", self.answers)
        if found is None:
            return False
        self.say(refusal(exc, named=True))
        key, index = found
        ask = next((a for a in self.form if self._key(a) == key), None)
        if ask is not None:
            self._ask(ask, key, only=index)
        return True

    def _offer_save(self, data: dict[str, Any], topic: str, *, broken: bool = False) -> None:
        question = "Save what was built, to edit it by hand" if broken else "Save this dispute as a scenario file"
        try:
            if self.lines.ask(question, "no", ("yes", "no")).strip().lower() not in ("y", "yes"):
                return
            name = self.lines.ask("File name", f"{topic}-dispute.yaml").strip() or f"{topic}-dispute.yaml"
        except EOFError:
            return
        text = scenario_yaml(data, topic)
        try:
            templates.write_new(text, Path(name), force=False)
        except RulesrefError as exc:
            if "already exists" not in exc.message:
                self.say(f"Error: {exc}")
                return
            try:
                replace = self.lines.ask(f"{visible(name)} exists; replace it", "no", ("yes", "no"))
            except EOFError:
                return
            if replace.strip().lower() not in ("y", "yes"):
                return
            templates.write_new(text, Path(name), force=True)
        self.say(f"Wrote {visible(name)}: run `rulesref check {visible(name)}` to rule on it again.")


def _asked(field: str, answers: dict[str, Any]) -> tuple[str, int | None] | None:
    """The question whose answer holds ``field`` (``pawns.g1.house`` -> pawns; ``events[2].play``
    -> the third event), or None when no question asked it."""
    best: tuple[str, int | None] | None = None
    for key in answers:
        if field == key or field.startswith((key + ".", key + "[")) or key.startswith(field + "."):
            index = None
            m = re.match(r"\[(\d+)\]", field[len(key) :])
            if m and isinstance(answers[key], list) and int(m[1]) < len(answers[key]):
                index = int(m[1])
            if best is None or len(key) > len(best[0]):
                best = (key, index)
    return best
