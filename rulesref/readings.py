"""Named interpretations: choosing them, and the defaults used when none is chosen.

The readings themselves are data (rules/<game>/readings*.yaml) so that ``rulesref
readings`` can list them and ``lint`` can check the clauses around them. A choice comes
from a scenario's ``readings:`` block and is overridden by ``--reading ID=OPTION``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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


def read_overrides(values: Iterable[str], games: Sequence[Game]) -> list[tuple[str, str]]:
    """``--reading ID=OPTION`` values, read and checked here, in one place, before any file is:
    the form, an id no game has, an option the reading lacks, one reading chosen twice."""
    chosen: dict[str, str] = {}
    for text in values:
        rid, option = parse_override(text)
        if chosen.get(rid, option) != option:
            raise RulesrefError(f"reading {rid!r} chosen twice ({chosen[rid]}, {option})", field="--reading")
        chosen[rid] = option
        owners = [g for g in games if rid in g.readings]
        if not owners:
            known = [r for g in games for r in g.readings]
            raise UnknownNameError(
                f"unknown reading {rid!r}",
                field="--reading",
                hint=did_you_mean(rid, known) or "see `rulesref readings`",
            )
        for game in owners:
            try:
                check_choice(game, rid, option)
            except RulesrefError as exc:
                exc.field = "--reading"
                raise
    return list(chosen.items())


def choose(game: Game, overrides: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The overrides (as ``read_overrides`` checked them) that choose this game's readings, id -> option."""
    return {rid: option for rid, option in overrides if rid in game.readings}
