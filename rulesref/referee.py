"""Run a scenario through its game's engine and build the Ruling.

The engine decides; the Trail records what it applied. Every step names a clause id
and takes its pages from the clause, so a page is never typed twice. A question the
cited pages leave open is either answered by a named reading (the step says so) or
stops the ruling with verdict ``undetermined``.
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Union

from rulesref.corpus import NotInPack
from rulesref.errors import RulesrefError, ScenarioError, shorten
from rulesref.games import all_games, engine_for
from rulesref.readings import choose
from rulesref.ruling import Claim, Expectation, Illegal, Outcome, Ruling, Trail, Undetermined, Verdict
from rulesref.scenario import Scenario, read_scenario

__all__ = [
    "Crash",
    "check_file",
    "check_many",
    "compare",
    "referee",
    "scenario_files",
]


def referee(scenario: Scenario, overrides: Iterable[tuple[str, str]] = (), *, picture: bool = True) -> Ruling:
    """Rule on one scenario. Raises RulesrefError when the situation cannot be read.

    ``picture``: the ruling will be shown in full, so the engine draws its picture.
    """
    game = scenario.game
    choices = {**scenario.readings, **choose(game, overrides)}
    trail = Trail(game, choices, picture=picture)
    outcome = _rule(scenario, trail)
    ruling = Ruling(
        file=scenario.file,
        game=game.id,
        title=scenario.title,
        verdict=outcome.verdict,
        summary=outcome.summary,
        steps=tuple(trail.steps),
        state=outcome.state,
        readings=dict(trail.used),
        moot=_moot(scenario, choices, trail.used, outcome),
        situation=scenario.doc.data,
        picture=outcome.picture,
    )
    expectation = compare(scenario.expect, ruling) if scenario.expect is not None else None
    claims = tuple(_settle(who, says, ruling) for who, says in scenario.claims.items())
    return replace(ruling, expect=expectation, claims=claims)


def _rule(scenario: Scenario, trail: Trail) -> Outcome:
    """The engine's Outcome, an Illegal or Undetermined that ended the ruling turned into one."""
    try:
        try:
            return engine_for(scenario.game).referee(scenario, trail)
        except Undetermined as open_question:
            return trail.close(open_question)
        except Illegal as refusal:
            return trail.settle(refusal)
    except NotInPack as fault:
        raise fault.ruling(scenario.file) from None


def _moot(scenario: Scenario, choices: dict[str, str], used: dict[str, str], outcome: Outcome) -> tuple[str, ...]:
    """The readings used whose every other option rules the same verdict, summary and state.

    A ruling says it rests on a reading only where the reading could change it: each other
    option is tried once (the engines rule in well under a millisecond), and a reading the
    engine cannot rule on under another option is kept, as one that matters.
    """
    same: list[str] = []
    for rid, option in used.items():
        others = [o.id for o in scenario.game.readings[rid].options if o.id != option]
        if others and all(_rules_the_same(scenario, {**choices, rid: o}, outcome) for o in others):
            same.append(rid)
    return tuple(same)


def _rules_the_same(scenario: Scenario, choices: dict[str, str], outcome: Outcome) -> bool:
    try:
        other = _rule(scenario, Trail(scenario.game, choices))
    except RulesrefError:
        return False
    return (other.verdict, other.summary, other.state) == (outcome.verdict, outcome.summary, outcome.state)


def _settle(who: str, says: str | dict[str, Any], ruling: Ruling) -> Claim:
    """Uphold or reject one claim: its verdict, and what it says happens, against the ruling."""
    verdict: str | None = says if isinstance(says, str) else says.get("verdict")
    state: dict[str, Any] | None = None if isinstance(says, str) else says.get("state")
    open_question = ruling.verdict is Verdict.UNDETERMINED
    differs: list[str] = []
    if verdict is not None and verdict != ruling.verdict.value:
        differs.append(f"verdict: {who} says {verdict}, the ruling is {ruling.verdict.value}")
    if state is not None and not open_question:
        differs += _match(state, ruling.state, "state")
    upheld: bool | None = not differs
    if open_question and (state is not None or verdict != Verdict.UNDETERMINED.value):
        # the pages cannot uphold or reject a legal or illegal claim, and an open question
        # leaves no resulting state to hold a claimed outcome against
        upheld = None
    return Claim(who, _said(verdict, state), upheld, verdict, state, tuple(differs))


CLAIM_LEAVES_SHOWN = 8
"""A claimed outcome is shown as at most this many ``key = value`` parts (the JSON has all)."""


def _said(verdict: str | None, state: dict[str, Any] | None) -> str:
    """A claim in one line: ``illegal``, or ``players.gryffindor.hand = 3, path.marker = 6``."""
    parts = [verdict] if verdict is not None else []
    if state is not None:
        leaves = list(_leaves(state, ""))
        shown = leaves[:CLAIM_LEAVES_SHOWN] + (["…"] if len(leaves) > CLAIM_LEAVES_SHOWN else [])
        parts.append(", ".join(shown))
    return shorten("; ".join(parts), 160)


def _leaves(value: Any, where: str) -> Iterator[str]:
    """``dotted.key = value`` for each leaf of a claimed state (a list is one leaf)."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, f"{where}.{key}" if where else str(key))
    else:
        yield f"{where} = {_plain(value)}"


def _plain(value: Any) -> str:
    """A value as the scenario would write it: ``true``, ``[legal, illegal]``, ``{to: Harsk}``."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def compare(expect: dict[str, Any], ruling: Ruling) -> Expectation:
    """Check a ruling against a scenario's ``expect`` block; every difference is listed."""
    out: list[str] = []
    if "verdict" in expect and expect["verdict"] != ruling.verdict.value:
        out.append(f"verdict: expected {expect['verdict']}, got {ruling.verdict.value}")
    missing = [p for p in expect.get("pages", []) if p not in ruling.pages]
    if missing:
        out.append(f"pages: expected {missing} among the cited pages {list(ruling.pages)}")
    cited = {s.clause for s in ruling.steps}
    for cid in expect.get("clauses", []):
        if cid not in cited:
            out.append(f"clauses: expected {cid} to be cited")
    if "state" in expect:
        out += _match(expect["state"], ruling.state, "state")
    return Expectation(not out, tuple(out))


def _match(want: Any, got: Any, where: str) -> list[str]:
    """Partial match: mappings need only the expected keys; lists match item by item."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected a mapping, got {got!r}"]
        out = []
        for key, value in want.items():
            if key not in got:
                out.append(f"{where}.{key}: expected {value!r}, but the state has no {key!r}")
            else:
                out += _match(value, got[key], f"{where}.{key}")
        return out
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: expected {want!r}, got {got!r}"]
        return [m for i, (w, g) in enumerate(zip(want, got, strict=True)) for m in _match(w, g, f"{where}[{i}]")]
    if want != got or isinstance(want, bool) != isinstance(got, bool):
        return [f"{where}: expected {want!r}, got {got!r}"]
    return []


# --- files and folders -------------------------------------------------------------


def scenario_files(paths: Iterable[Path]) -> Iterator[tuple[Path, RulesrefError | None]]:
    """Each scenario file under the given paths (folders searched for *.yaml / *.yml, sorted).

    A path that is missing, unreadable, or a folder without scenarios yields an error in
    its place, so one bad argument does not hide the rulings for the others. Nothing is
    opened here: a FIFO or device named like a scenario is refused when it is read.
    """
    for path in paths:
        try:
            info = path.stat()
        except OSError as exc:
            yield path, _missing(path, exc)
            continue
        if not stat.S_ISDIR(info.st_mode):
            yield path, None
            continue
        found = sorted(_walk(path), key=lambda item: item[0])
        if not found:
            yield path, ScenarioError("no scenario files (*.yaml) in this folder", file=str(path))
        yield from found


def _missing(path: Path, exc: OSError) -> ScenarioError:
    """Why a path given on the command line cannot be used, in words."""
    name = str(path)
    if exc.errno == errno.ELOOP:
        return ScenarioError("is a symbolic link loop", file=name)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ScenarioError("cannot be read: permission denied", file=name)
    if exc.errno == errno.ENAMETOOLONG:  # before is_symlink, which would raise it again
        return ScenarioError("the file name is too long", file=name)
    try:
        target = os.readlink(path) if path.is_symlink() else None
    except OSError:
        target = "?"
    if target is not None:
        return ScenarioError(f"is a broken symbolic link (to {shorten(target, 80)!r})", file=name)
    return ScenarioError("no such file or folder", file=name)


def _walk(folder: Path) -> Iterator[tuple[Path, RulesrefError | None]]:
    """Scenario files under ``folder``, and an error for each subfolder that cannot be read."""
    unreadable: list[OSError] = []
    # os.walk does not follow symlinked folders, so a symlink loop cannot trap it; its
    # errors would be dropped silently without onerror
    for root, dirs, files in os.walk(folder, onerror=unreadable.append):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if name.lower().endswith((".yaml", ".yml")) and not name.startswith("."):
                yield Path(root) / name, None
    for exc in unreadable:
        where = Path(exc.filename) if exc.filename else folder
        reason = "permission denied" if exc.errno in (errno.EACCES, errno.EPERM) else exc.strerror or str(exc)
        yield where, ScenarioError(f"cannot read this folder: {reason}", file=str(where))


def check_file(path: Path, overrides: Iterable[tuple[str, str]] = (), *, picture: bool = True) -> Ruling:
    """Read and rule on one scenario file (``picture``: see ``referee``)."""
    return referee(read_scenario(path, display=str(path)), overrides, picture=picture)


@dataclass(frozen=True)
class Crash:
    """An unexpected exception while ruling on one file (a bug), as it crosses processes."""

    kind: str
    message: str


Checked = Union[Ruling, RulesrefError, Crash]

PARALLEL_FROM = 200
"""From this many files on, `check` rules in one worker process per core."""


def check_many(
    files: Sequence[Path], overrides: Sequence[tuple[str, str]] = (), *, debug: bool = False, picture: bool = True
) -> Iterator[Checked]:
    """Each file's ruling, or the error that stopped it, in the order given.

    ``picture``: the rulings will be shown in full, so each engine draws its picture.

    Files are independent, so a folder of many is ruled on every core: the workers are
    forked after the rule packs and engines are loaded, and share them. A worker that dies
    (killed, as the OOM killer does) is noticed, not waited for: the files not yet
    returned are then ruled here, one by one. With ``debug`` the files are ruled here, one
    by one, and a bug raises with its traceback.
    """
    workers = min(os.cpu_count() or 1, 8)
    if debug or len(files) < PARALLEL_FROM or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield from (_check_one(f, overrides, picture, catch_bugs=not debug) for f in files)
        return
    from concurrent.futures.process import BrokenProcessPool

    for game in all_games():
        with contextlib.suppress(RulesrefError):
            engine_for(game)  # import each engine before forking, so no worker repeats it
    done = 0
    try:
        for result in _in_workers(files, tuple(overrides), workers, picture):
            yield result
            done += 1
    except BrokenProcessPool:
        pass  # which file the lost worker held is unknown; the rest are ruled below
    yield from (_check_one(f, overrides, picture) for f in files[done:])


def _in_workers(
    files: Sequence[Path], overrides: tuple[tuple[str, str], ...], workers: int, picture: bool
) -> Iterator[Checked]:
    """The files ruled in forked workers, in order; BrokenProcessPool if a worker dies.

    concurrent.futures watches each worker's process, so a death fails the results still
    owed instead of leaving them pending forever (multiprocessing.Pool waits forever)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    try:
        jobs = [(f, overrides, picture) for f in files]
        for n, result in enumerate(pool.map(_check_job, jobs, chunksize=max(1, len(files) // (workers * 8))), 1):
            if n == len(files):
                # Every result is in and the workers are idle: let them go before the last is
                # handed over, since a caller may stop there (its output failed) and a pool
                # left to the interpreter's exit prints a traceback on 3.11 (a race in its
                # clean-up of the manager thread's wakeup pipe).
                pool.shutdown(wait=True)
            yield result
    finally:
        # on a broken pool or a caller that stops reading, never wait: the files not started
        # are dropped and a worker ends with the file it is on
        pool.shutdown(wait=False, cancel_futures=True)


def _check_job(job: tuple[Path, tuple[tuple[str, str], ...], bool]) -> Checked:
    return _check_one(*job)


def _check_one(
    path: Path, overrides: Sequence[tuple[str, str]], picture: bool = True, catch_bugs: bool = True
) -> Checked:
    try:
        # the keyword only when it is not the default: callers (and tests) may stand in for check_file
        return check_file(path, overrides) if picture else check_file(path, overrides, picture=False)
    except RulesrefError as exc:
        return exc
    except Exception as exc:  # a bug: reported for this file, the others still ruled
        if not catch_bugs:
            raise
        return Crash(type(exc).__name__, str(exc))
