"""Toy Race, the reader: the scenario read into the model through the shared field reader."""

from __future__ import annotations

from rulesref.errors import did_you_mean
from rulesref.fields import Fields, count, kind
from rulesref.ruling import Scenario

from .model import Move, Race

SITUATION_KEYS = ("track", "pawns", "action")


def read(scenario: Scenario) -> tuple[Race, Move]:
    """The race and the move; ScenarioError naming file, line and field on anything wrong."""
    scenario.check_keys(SITUATION_KEYS, required=SITUATION_KEYS)
    doc = scenario.doc
    last = count(doc, ("track",), doc.data["track"])
    pawns = doc.data["pawns"]
    if not isinstance(pawns, dict) or not pawns:
        raise doc.error(("pawns",), f"expected a mapping of pawn -> space, got {kind(pawns)}")
    race = Race(last, {str(p): count(doc, ("pawns", p), at, top=last) for p, at in pawns.items()})
    action = Fields(doc, ("action",), {"move": True, "roll": True})
    pawn = str(action.get("move"))
    if pawn not in race.pawns:
        raise action.fail("move", f"unknown pawn {pawn!r}", hint=did_you_mean(pawn, race.pawns))
    return race, Move(pawn, action.count("roll"))
