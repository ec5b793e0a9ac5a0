"""Read a scenario file: the common envelope every game shares.

A scenario is one situation and one action in question. The envelope (``game``,
``title``, ``readings``, ``expect``, ``claims``, ``notes``) is read here; the rest of the
mapping is the game's situation, which its engine reads and validates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesref.corpus import Game, NotInPack
from rulesref.errors import RulesrefError, ScenarioError, UnknownNameError, did_you_mean
from rulesref.games import find_game
from rulesref.readings import check_choice
from rulesref.ruling import Verdict
from rulesref.source import Loaded, PathKey, load_yaml

ENVELOPE = ("game", "title", "readings", "expect", "claims", "notes")
EXPECT_KEYS = ("verdict", "pages", "clauses", "state")
VERDICTS = tuple(v.value for v in Verdict)
CLAIM_KEYS = ("verdict", "state")
CLAIM_FORMS = "legal | illegal | undetermined, or {verdict: ..., state: {...}} (what they say happens)"


@dataclass(frozen=True)
class Scenario:
    """A scenario file, its envelope read and checked; the situation left to the engine."""

    doc: Loaded
    game: Game
    title: str
    readings: dict[str, str]
    expect: dict[str, Any] | None
    claims: dict[str, str | dict[str, Any]]
    """Player -> a verdict, or {verdict?, state?}: what the player says happens."""

    @property
    def file(self) -> str:
        return self.doc.file


def read_scenario(path: Path, display: str | None = None) -> Scenario:
    """Load a scenario's envelope. Raises ScenarioError naming file, line and field."""
    doc = load_yaml(path, display=display)
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error((), "a scenario must be a mapping with at least 'game' and 'title'")
    if "game" not in data:
        raise doc.error((), "missing required key 'game'")
    if not isinstance(data["game"], str):
        raise doc.error(("game",), "expected a game id, e.g. houses-vs-dark-arts or pacg")
    try:
        game = find_game(data["game"])
    except UnknownNameError as exc:
        raise doc.error(("game",), exc.message, hint=exc.hint) from None
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise doc.error(
            ("title",) if "title" in data else (), "a scenario needs a 'title': one line saying what is in question"
        )

    readings: dict[str, str] = {}
    raw = data.get("readings") or {}
    if not isinstance(raw, dict):
        raise doc.error(("readings",), "expected a mapping of reading id -> option")
    for rid, option in raw.items():
        try:
            check_choice(game, str(rid), str(option))
        except RulesrefError as exc:
            raise doc.error(("readings", rid), exc.message, hint=exc.hint) from None
        readings[str(rid)] = str(option)

    expect = data.get("expect")
    if expect is not None:
        if not isinstance(expect, dict):
            raise doc.error(("expect",), f"expected a mapping with some of: {', '.join(EXPECT_KEYS)}")
        refuse_unknown_keys(doc, ("expect",), expect, EXPECT_KEYS)
        if "verdict" in expect and expect["verdict"] not in VERDICTS:
            raise doc.error(("expect", "verdict"), f"verdict must be one of {', '.join(VERDICTS)}")
        pages = expect.get("pages", [])
        if not isinstance(pages, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in pages):
            raise doc.error(("expect", "pages"), "expected a list of page numbers")
        clauses = expect.get("clauses", [])
        if not isinstance(clauses, list):
            raise doc.error(("expect", "clauses"), "expected a list of clause ids")
        for i, cid in enumerate(clauses):
            if not isinstance(cid, str):
                raise doc.error(("expect", "clauses", i), f"expected a clause id, got {cid!r}")
            if cid not in game.clauses:
                _pack_lacks(game, cid, doc.file)
                raise doc.error(
                    ("expect", "clauses", i), f"unknown clause {cid!r}", hint=did_you_mean(str(cid), game.clauses)
                )
        if "state" in expect and not isinstance(expect["state"], dict):
            raise doc.error(("expect", "state"), "expected a mapping (a partial resulting state)")

    claims: dict[str, str | dict[str, Any]] = {}
    raw_claims = data.get("claims") or {}
    if not isinstance(raw_claims, dict):
        raise doc.error(("claims",), f"expected a mapping of player name -> {CLAIM_FORMS}")
    for who, says in raw_claims.items():
        claims[str(who)] = _read_claim(doc, who, says)
    return Scenario(doc, game, title.strip(), readings, expect, claims)


def _read_claim(doc: Loaded, who: Any, says: Any) -> str | dict[str, Any]:
    """One player's claim: a verdict, or a mapping with a verdict and/or the state they say results."""
    if isinstance(says, str) and says in VERDICTS:
        return says
    if not isinstance(says, dict):
        # the message a verdict claim has always had; the mapping form is in the docs and schema
        raise doc.error(("claims", who), f"a claim must be one of {', '.join(VERDICTS)}, got {says!r}")
    refuse_unknown_keys(doc, ("claims", who), says, CLAIM_KEYS, what="a claim")
    if not says:
        raise doc.error(("claims", who), "a claim needs a verdict, a state (what they say happens), or both")
    if "verdict" in says and says["verdict"] not in VERDICTS:
        raise doc.error(("claims", who, "verdict"), f"verdict must be one of {', '.join(VERDICTS)}")
    if "state" in says and (not isinstance(says["state"], dict) or not says["state"]):
        raise doc.error(
            ("claims", who, "state"), "expected a mapping: the part of the resulting state the player says comes about"
        )
    return dict(says)


def _pack_lacks(game: Game, cid: str, scenario: str) -> None:
    """Raise the rule pack's fault if its engine cites ``cid``: then the pack lost it, not the scenario."""
    from rulesref.lint import engine_names  # only on this error path: it reads the engine's source

    if cid in engine_names(game):
        raise NotInPack.of(game, f"the rule pack has no clause {cid!r}, which its engine cites").ruling(scenario)


def refuse_unknown_keys(
    doc: Loaded,
    path: PathKey,
    value: dict[Any, Any],
    allowed: Sequence[str],
    *,
    what: str | None = None,
    keys: str | None = None,
) -> None:
    """Name the first key of ``value`` not in ``allowed``: a near miss, else the keys allowed.

    ``what`` ends the message (``unknown key 'x' in a power event``); ``keys`` labels the
    list offered when no near miss exists (``board keys: grid, walls, ...``).
    """
    for key in value:
        if key not in allowed:
            listed = f"{keys}: {', '.join(allowed)}" if keys else None
            raise doc.error(
                (*path, key),
                f"unknown key {key!r}" + (f" in {what}" if what else ""),
                key=True,
                hint=did_you_mean(str(key), allowed) or listed,
            )


def check_situation_keys(scenario: Scenario, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> None:
    """Refuse top-level keys that are neither envelope nor this game's situation keys."""
    doc = scenario.doc
    known = (*ENVELOPE, *allowed)
    for key in doc.data:
        if key not in known:
            raise ScenarioError(
                f"unknown key {key!r}",
                file=doc.file,
                line=doc.mark((key,), key=True)[0],
                column=doc.mark((key,), key=True)[1],
                field=str(key),
                hint=did_you_mean(str(key), known),
            )
    for key in required:
        if key not in doc.data:
            raise doc.error((), f"missing required key {key!r} for {scenario.game.id}")
