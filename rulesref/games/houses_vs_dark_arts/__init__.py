"""Houses vs. Dark Arts: the referee (rulebook pp. 10-25, as known from the sources).

In three layers, each importing only those below it:

  model         the values a ruling reads and changes, and the game's constants
  board_reader  ``board:`` and ``pawns:`` read into the model
  reader        the rest of the scenario, and the action in question
  rule modules  (they import the model, never a reader)
    turns       which actions a side may take, Learn, reserve pawns, extra turns
    hands       a player's cards: playing, drawing (and the reshuffle), drawing to five, cleanup
    track       the Dark Arts Path: effect colours, the Marker advancing, Event Spaces, House Markers
    movement    Explore: a card's allowance and the paths pawns take
    encounters  who moved into whom: the House stun and the Dark Arts bump
    bonus       bonus spaces: only ending a move there counts
    replenish   Replenish, each side in its own order
    victory     the Dark Arts win, the last-hand phase, the draw
  drawing       a small text picture of the board, for the ruling shown in full
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulesref.games.houses_vs_dark_arts import drawing, movement, replenish, track, turns, victory
from rulesref.games.houses_vs_dark_arts.model import Advance, Check, Explore, Learn, Replenish, Situation
from rulesref.games.houses_vs_dark_arts.reader import SITUATION_KEYS, read_situation
from rulesref.ruling import Illegal, Outcome, Scenario, Trail, Undetermined

RULES: dict[type, Callable[[Situation, Trail, Any], Outcome]] = {
    Explore: movement.explore,
    Replenish: replenish.replenish,
    Learn: turns.learn,
    Advance: track.advance_action,
    Check: victory.check,
}
"""The rule module that rules on each action."""


class HousesVsDarkArts:
    """The engine registered for game id ``houses-vs-dark-arts``."""

    situation_keys = SITUATION_KEYS

    def referee(self, scenario: Scenario, trail: Trail) -> Outcome:
        scenario.check_keys(SITUATION_KEYS, required=("action",))
        situation, action = read_situation(scenario)
        trail.unchanged = situation.to_state()  # what an illegal ruling reports
        try:
            try:
                outcome = RULES[type(action)](situation, trail, action)
            except Undetermined:
                turns.ask_turn_questions(situation, trail, settled_only=True)
                raise
            # asked after the action is ruled: an action a rule forbids is illegal whatever they say
            turns.ask_turn_questions(situation, trail)
        except Illegal as refusal:
            outcome = trail.settle(refusal)
        except Undetermined as open_question:
            outcome = trail.close(open_question)
        if trail.picture and "board" in scenario.doc.data:
            outcome = replace(outcome, picture=drawing.draw(situation.board, scenario.doc.data, outcome.state))
        return outcome


ENGINE = HousesVsDarkArts()
