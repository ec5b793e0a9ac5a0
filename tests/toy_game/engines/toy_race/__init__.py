"""Toy Race: a third game added as a pack, a model, a reader and a rule module, and nothing else.

Nothing in rulesref names it: the registry finds the pack under the rules folder and this
engine as ``rulesref.games.toy_race`` (the test puts this folder on that package's path).
"""

from __future__ import annotations

from dataclasses import replace

from rulesref.ruling import Outcome, Scenario, Trail

from . import reader, rules


class ToyRace:
    situation_keys = reader.SITUATION_KEYS

    def referee(self, scenario: Scenario, trail: Trail) -> Outcome:
        race, move = reader.read(scenario)
        trail.unchanged = race.to_state()  # an illegal move leaves the race as it was
        outcome = rules.move(race, trail, move)
        return replace(outcome, picture=race.draw()) if trail.picture else outcome


ENGINE = ToyRace()
