"""Named interpretations: choosing them, and the defaults used when none is chosen.

The readings themselves are data (rules/<game>/readings*.yaml) so that ``rulesref
readings`` can list them and ``lint`` can check the clauses around them. A choice comes
from a scenario's ``readings:`` block and is overridden by ``--reading ID=OPTION``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rulesref.corpus import Game, Reading
from rulesref.errors import RulesrefError, UnknownNameError, did_you_mean


def parse_override(text: str) -> tuple[str, str]:
    """``backtrack=no-revisit`` -> ``('backtrack', 'no-revisit')``."""
    rid, sep, option = text.partition("=")
    if not sep or not rid.strip() or not option.strip():
        raise RulesrefError(f"--reading expects ID=OPTION, got {text!r}", field="--reading")
    return rid.strip(), option.strip()


def check_choice(game: Game, rid: str, option: str) -> Reading:
    """The reading ``rid`` if ``option`` is one of its options; else UnknownNameError."""
    reading = game.readings.get(rid)
    if reading is None:
        raise UnknownNameError(
            f"unknown reading {rid!r} for {game.id}",
            hint=did_you_mean(rid, game.readings) or "see `rulesref readings`",
        )
    if reading.option(option) is None:
        names = [o.id for o in reading.options]
        raise UnknownNameError(
            f"reading {rid!r} has no option {option!r}",
            hint=did_you_mean(option, names) or f"options: {', '.join(names)}",
        )
    return reading


def choose(game: Game, overrides: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Validated CLI overrides for this game, id -> option (unknown ids for other games skipped)."""
    out = {}
    for rid, option in overrides:
        if rid in game.readings:
            check_choice(game, rid, option)
            out[rid] = option
    return out
