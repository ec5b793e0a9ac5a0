"""Houses vs. Dark Arts: the referee (rulebook pp. 10-25, as known from the sources).

One module per game concept:
  situation  the scenario read into a Situation (board, houses, pawns, path, players, turn)
  board      spaces, full-border adjacency, walls, obstacles, Protected Areas, bonus,
             Fly Off Points, Secret Passageways, the Great Hall
  movement   a card's allowance and the paths pawns take (Explore's movement)
  encounters who moved into whom: the House stun and the Dark Arts bump
  bonus      bonus spaces: only ending a move there counts
  turns      whose turn it is, which actions a side may take, Learn, extra turns
  hands      a player's cards: playing, drawing (and the reshuffle), drawing to five, cleanup
  replenish  Replenish, each side in its own order
  path       the Dark Arts Path: marker, zones, Event Spaces, advancing
  victory    the Dark Arts win, the last-hand phase, the draw
  drawing    a small text picture of the board for the renderer
"""

from __future__ import annotations

from rulesref.games.houses_vs_dark_arts.situation import SITUATION_KEYS, act, read_situation
from rulesref.referee import Outcome, Trail
from rulesref.ruling import Ruling
from rulesref.scenario import Scenario, check_situation_keys


class HousesVsDarkArts:
    """The engine registered for game id ``houses-vs-dark-arts``."""

    situation_keys = SITUATION_KEYS

    def referee(self, scenario: Scenario, trail: Trail) -> Outcome:
        check_situation_keys(scenario, SITUATION_KEYS, required=("action",))
        situation = read_situation(scenario)
        return act(situation, trail)

    def draw(self, ruling: Ruling) -> str | None:
        from rulesref.games.houses_vs_dark_arts.drawing import draw

        return draw(ruling)


ENGINE = HousesVsDarkArts()
