"""Read a scenario file: the common envelope every game shares.

A scenario is one situation and one action in question. The envelope (``game``,
``title``, ``readings``, ``expect``, ``claims``, ``notes``) is read here; the rest of the
mapping is the game's situation, which its engine reads and validates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesref.corpus import Game, NotInPack
from rulesref.errors import RulesrefError, UnknownNameError, did_you_mean
from rulesref.fields import refuse_unknown_keys
from rulesref.games import engine_names, find_game
from rulesref.readings import check_choice
from rulesref.ruling import ENVELOPE, Scenario, Verdict
from rulesref.source import Loaded, load_yaml

__all__ = ["ENVELOPE", "Scenario", "read_scenario"]

EXPECT_KEYS = ("verdict", "pages", "clauses", "state")
VERDICTS = tuple(v.value for v in Verdict)
CLAIM_KEYS = ("verdict", "state")
CLAIM_FORMS = "legal | illegal | undetermined, or {verdict: ..., state: {...}} (what they say happens)"


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
            raise _bad_verdict(doc, ("expect", "verdict"), expect["verdict"])
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
        raise _bad_verdict(doc, ("claims", who, "verdict"), says["verdict"])
    if "state" in says and (not isinstance(says["state"], dict) or not says["state"]):
        raise doc.error(
            ("claims", who, "state"), "expected a mapping: the part of the resulting state the player says comes about"
        )
    return dict(says)


def _bad_verdict(doc: Loaded, where: tuple[Any, ...], got: Any) -> RulesrefError:
    """A verdict that is none of the three, named, with the near one if it is a slip ("ilegal")."""
    return doc.error(
        where, f"verdict must be one of {', '.join(VERDICTS)}, got {got!r}", hint=did_you_mean(str(got), VERDICTS)
    )


def _pack_lacks(game: Game, cid: str, scenario: str) -> None:
    """Raise the rule pack's fault if its engine cites ``cid``: then the pack lost it, not the scenario."""
    if cid in engine_names(game):
        raise NotInPack.of(game, f"the rule pack has no clause {cid!r}, which its engine cites").ruling(scenario)
