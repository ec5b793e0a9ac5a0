"""Pathfinder Adventure Card Game (Core Set): the referee for Encountering a Card (pp. 8-10).

One module per game concept:
  checks     a card's check line: "Knowledge 4 or Perception 4 then Combat 10"
  steps      the encounter steps in order, and the two pseudo-steps
  cards      the encountered card and the encountering character
  readers    typed field readers, and the loop that reads an event from its declaration
  events     what a scenario says happened, one event per step, each declared once
  situation  the scenario read into a Situation (every error names file, line and field)
  state      the running record of one encounter
  judge      how a ruling on one event is recorded, rule or reading
  plays      relevance, immunity, the party's one boon of each type, powers once per step
  attempts   who attempts which check, results, skipped checks, damage
  outcome    resolve, avenge, close, escape and win: where the card ends up
  encounter  the walk of one encounter through its steps, ruling on each event
  run        every event in order (the avenger's encounter too), the state and summary
"""

from __future__ import annotations

from rulesref.games.pacg.run import run
from rulesref.games.pacg.situation import SITUATION_KEYS, read_situation
from rulesref.ruling import Outcome, Scenario, Trail


class PathfinderACG:
    """The engine registered for game id ``pacg``."""

    situation_keys = SITUATION_KEYS

    def referee(self, scenario: Scenario, trail: Trail) -> Outcome:
        scenario.check_keys(SITUATION_KEYS, required=("character", "card"))
        return run(read_situation(scenario), trail)


ENGINE = PathfinderACG()
