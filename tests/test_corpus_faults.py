"""Faults in what rulesref reads besides scenarios: the rules folder, its packs, their citations.

Each fault is made in a temp copy of rules/ and run through every command: `lint` lists it
(exit 1), every other command refuses it in one ``Error:`` line (exit 2), naming the file
and the field, never the scenario being checked. Cases that need a non-root user (chmod
000) are simulated when the suite runs as root, where chmod does not stop reads. The
last part is PACG's situation reader refusing a number where a name belongs.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulesref import lookup
from rulesref.games import all_games

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
SCENARIO = sorted((ROOT / "scenarios" / "pacg").glob("*.yaml"))[0]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

LINT_HINT = "`rulesref lint` lists every problem of the rule pack"
MISSING = "is a clause file missing or renamed?"
COMMANDS = [
    ("ask", "can a pawn pass a wall?"),
    ("ask", "can a pawn pass a wall?", "--game", "pacg", "--json"),
    ("show", "move.walls"),
    ("page", "12"),
    ("check", "dispute.yaml"),
    ("myths",),
    ("readings", "--game", "pacg"),
    ("games",),
]


@dataclass
class Table:
    """The temp folder a fault is made in: rules/ (a copy), the cwd, and a way to lock a path."""

    tmp: Path
    monkeypatch: pytest.MonkeyPatch
    lock: Callable[[Path], None]

    @property
    def rules(self) -> Path:
        return self.tmp / "rules"

    def edit(self, name: str, old: str, new: str) -> None:
        """Replace the first ``old`` in rules/<name> by ``new``."""
        path = self.rules / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    """A copy of the shipped rules in the cwd, named relatively (messages then name rules/...)."""
    shutil.copytree(RULES, tmp_path / "rules")
    (tmp_path / "dispute.yaml").write_text(SCENARIO.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULESREF_RULES", "rules")
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    locked: list[tuple[Path, int]] = []

    def lock(path: Path) -> None:
        """Make ``path`` unreadable, as chmod 000 does for a user."""
        if not IS_ROOT:
            locked.append((path, path.stat().st_mode))
            path.chmod(0)
            return
        # root reads through chmod 000: make listing the folder or opening the file fail instead
        wanted = os.path.realpath(path)
        for name in ("scandir", "open"):
            real = getattr(os, name)

            def denied(target: Any = ".", *args: Any, _real: Any = real, **kwargs: Any) -> Any:
                if not isinstance(target, int) and os.path.realpath(os.fspath(target)) == wanted:
                    raise PermissionError(errno.EACCES, "Permission denied", os.fspath(target))
                return _real(target, *args, **kwargs)

            monkeypatch.setattr(os, name, denied)

    lookup._loaded.clear()
    all_games.cache_clear()
    yield Table(tmp_path, monkeypatch, lock)
    for path, mode in reversed(locked):
        path.chmod(mode)
    lookup._loaded.clear()
    all_games.cache_clear()


@dataclass(frozen=True)
class Fault:
    name: str
    make: Callable[[Table], None]
    message: str
    """A regular expression for the line, as lint lists it."""
    in_pack: bool = False
    """A fault of a pack that loads (a citation): the other commands add where to see them all."""


def _env(value: str, make: Callable[[Table], None] | None = None) -> Callable[[Table], None]:
    def set_it(t: Table) -> None:
        if make is not None:
            make(t)
        t.monkeypatch.setenv("RULESREF_RULES", value)

    return set_it


def _cites(where: str, what: str) -> str:
    return re.escape(where) + r":\d+:\d+: " + re.escape(what)


FAULTS = [
    Fault(
        "hvda-clause-file-missing",
        lambda t: (t.rules / "houses-vs-dark-arts" / "movement.yaml").unlink(),
        # the first clause whose `see` points into the missing file: which one is the rules' business
        r"rules/houses-vs-dark-arts/[a-z-]+\.yaml:\d+: [a-z-]+\.[a-z-]+: see 'move\.[a-z-]+' does not resolve; "
        + re.escape(MISSING),
        in_pack=True,
    ),
    Fault(
        "pacg-clause-file-missing",
        lambda t: (t.rules / "pacg" / "steps.yaml").unlink(),
        r"rules/pacg/[a-z-]+\.yaml:\d+: [a-z-]+\.[a-z-]+: see 'step\.[a-z-]+' does not resolve; " + re.escape(MISSING),
        in_pack=True,
    ),
    Fault(
        "pacg-reading-open-missing",
        lambda t: t.edit("pacg/readings.yaml", "open: open.boon-limit-unit", "open: open.nowhere"),
        _cites(
            "rules/pacg/readings.yaml",
            f"[0].open: reading 'boon-limit' cites clause 'open.nowhere', which the rule pack does not have; {MISSING}",
        ),
        in_pack=True,
    ),
    Fault(
        "hvda-reading-clause-missing",
        lambda t: t.edit(
            "houses-vs-dark-arts/readings-movement.yaml", "clauses: [move.no-backtrack]", "clauses: [move.xyzzy-quux]"
        ),
        _cites(
            "rules/houses-vs-dark-arts/readings-movement.yaml",
            "[0].clauses[0]: reading 'backtrack' cites clause 'move.xyzzy-quux', which the rule pack does not have; "
            + MISSING,
        ),
        in_pack=True,
    ),
    Fault(
        "pacg-game-yaml-missing",
        lambda t: (t.rules / "pacg" / "game.yaml").unlink(),
        re.escape("rules/pacg: holds rule files but no game.yaml, so it is no rule pack; ")
        + re.escape("a rule pack needs its game.yaml: id, title, pages, sources"),
    ),
    Fault(
        "pacg-clause-file-unreadable",
        lambda t: t.lock(t.rules / "pacg" / "checks.yaml"),
        re.escape("rules/pacg/checks.yaml: cannot read the file: permission denied"),
    ),
    Fault(
        "hvda-pack-folder-unreadable",
        lambda t: t.lock(t.rules / "houses-vs-dark-arts"),
        re.escape("rules/houses-vs-dark-arts: cannot read this folder: permission denied"),
    ),
    Fault(
        "rules-folder-unreadable",
        lambda t: t.lock(t.rules),
        re.escape("rules: cannot read this folder: permission denied"),
    ),
    Fault(
        "pacg-game-id-not-a-module-name",
        lambda t: t.edit("pacg/game.yaml", "id: pacg", "id: pacg.core"),
        _cites(
            "rules/pacg/game.yaml",
            "id: game id 'pacg.core' is not lowercase words joined by hyphens (it names the engine package)",
        ),
    ),
    Fault(
        "env-names-one-games-folder",
        _env("rules/pacg"),
        re.escape(
            "rules/pacg: is one game's rule pack (it holds game.yaml), not the rules folder; "
            "point RULESREF_RULES at the folder above it, rules"
        ),
    ),
    Fault(
        "env-names-a-file",
        _env("notes.txt", lambda t: (t.tmp / "notes.txt").write_text("not rules\n")),
        re.escape(
            "notes.txt: is not a folder; RULESREF_RULES must name the rules folder, the one holding a folder per game"
        ),
    ),
    Fault(
        "env-names-a-folder-without-packs",
        _env("empty", lambda t: (t.tmp / "empty" / "sub").mkdir(parents=True)),
        re.escape(
            "empty: holds no rule pack (no folder in it has a game.yaml); "
            "RULESREF_RULES must name the rules folder, the one holding a folder per game"
        ),
    ),
    Fault(
        "env-names-nothing",
        _env("nowhere"),
        re.escape("nowhere: rules folder not found"),
    ),
]


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_lint_lists_the_fault(fault: Fault, table: Table, cli) -> None:
    fault.make(table)
    r = cli("lint")
    assert r.code == 1, (r.out, r.err)
    assert r.err == ""
    assert any(re.fullmatch(fault.message, line) for line in r.out.splitlines()), r.out


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_every_other_command_refuses_it(fault: Fault, args: tuple[str, ...], table: Table, cli) -> None:
    fault.make(table)
    r = cli(*args)
    expected = fault.message + (re.escape(f" {LINT_HINT}") if fault.in_pack else "")
    assert r.code == 2, (r.out, r.err)
    assert r.out == ""
    assert re.fullmatch(f"Error: {expected}\n", r.err), r.err
    assert "dispute.yaml" not in r.err  # the scenario `check` was given is not to blame


def test_a_cached_index_does_not_hide_an_unreadable_pack(table: Table, cli) -> None:
    """`ask` answers from its cached index; a pack folder locked since must still be refused."""
    assert cli("ask", "can a pawn pass a wall?").code == 0
    assert any((table.tmp / "cache").iterdir())
    lookup._loaded.clear()  # a new process: only the cache file is left
    table.lock(table.rules / "pacg")
    r = cli("ask", "can a pawn pass a wall?")
    assert (r.code, r.out, r.err) == (2, "", "Error: rules/pacg: cannot read this folder: permission denied\n")


def test_a_cached_index_does_not_hide_a_deleted_clause_file(table: Table, cli) -> None:
    assert cli("ask", "can a pawn pass a wall?").code == 0
    lookup._loaded.clear()
    (table.rules / "houses-vs-dark-arts" / "movement.yaml").unlink()
    r = cli("ask", "can a pawn pass a wall?")
    assert r.code == 2 and r.out == ""
    assert re.fullmatch(FAULTS[0].message + re.escape(f" {LINT_HINT}") + "\n", r.err.removeprefix("Error: ")), r.err


# --- the engine cites what the pack lacks --------------------------------------------

STATUS = "status-defeated-goes-on.yaml"
"""A shipped scenario whose ruling cites encounter.status-change, a clause no other clause links to."""
LACKS = (
    "Error: rules/pacg: the rule pack has no clause 'encounter.status-change', which its engine cites "
    "(met ruling s.yaml: the fault is the rule pack's, not the scenario's); " + f"{MISSING} {LINT_HINT}\n"
)


@pytest.fixture
def renamed(table: Table) -> Table:
    """The pack with encounter.status-change renamed: it loads, but the engine cites the old id."""
    table.edit("pacg/encounter.yaml", "id: encounter.status-change\n", "id: encounter.status-changed\n")
    return table


def test_an_engine_citation_the_pack_lacks_is_the_packs_fault(renamed: Table, cli) -> None:
    text = (ROOT / "scenarios" / "pacg" / STATUS).read_text(encoding="utf-8")
    (renamed.tmp / "s.yaml").write_text(re.sub(r"(?m)^  clauses: .*\n", "", text), encoding="utf-8")
    r = cli("check", "s.yaml")
    assert (r.code, r.out, r.err) == (2, "", LACKS)


def test_a_scenario_expecting_a_clause_the_engine_cites_is_not_blamed(renamed: Table, cli) -> None:
    text = (ROOT / "scenarios" / "pacg" / STATUS).read_text(encoding="utf-8")
    assert "encounter.status-change" in text
    (renamed.tmp / "s.yaml").write_text(text, encoding="utf-8")
    r = cli("check", "s.yaml")
    assert (r.code, r.out, r.err) == (2, "", LACKS)


def test_a_scenario_expecting_a_clause_nobody_cites_is_still_its_own_fault(renamed: Table, cli) -> None:
    (renamed.tmp / "s.yaml").write_text("game: pacg\ntitle: x\nexpect: {clauses: [encounter.status-chang]}\n")
    r = cli("check", "s.yaml")
    assert (r.code, r.out) == (2, "")
    assert r.err == (
        "Error: s.yaml:3:20: expect.clauses[0]: unknown clause 'encounter.status-chang'; "
        "did you mean 'encounter.status-changed'?\n"
    )


def test_lint_lists_the_engine_citation_and_rules_on_no_scenario(renamed: Table, cli) -> None:
    shutil.copytree(ROOT / "scenarios" / "pacg", renamed.tmp / "scenarios" / "pacg")
    r = cli("lint")
    assert r.code == 1, r.err
    lines = r.out.splitlines()
    assert any(
        re.fullmatch(
            r"pacg/[a-z_]+\.py:\d+: 'encounter\.status-change' looks like a clause id of pacg but does not resolve", x
        )
        for x in lines
    ), r.out
    assert not any("s.yaml" in x or "scenarios/" in x for x in lines), r.out  # no scenario blamed


def test_an_engine_reading_the_pack_lacks_is_the_packs_fault(table: Table, cli) -> None:
    readings = table.rules / "pacg" / "readings.yaml"
    text = readings.read_text(encoding="utf-8")
    start, end = text.index("- id: boon-limit\n"), text.index("- id: damage-limit\n")
    readings.write_text(text[:start] + text[end:], encoding="utf-8")
    scenario = ROOT / "scenarios" / "pacg" / "boon-limit-three-checks-per-check.yaml"
    (table.tmp / "dispute.yaml").write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    r = cli("check", "dispute.yaml")
    assert (r.code, r.out) == (2, "")
    assert r.err == (
        "Error: rules/pacg: the rule pack has no reading 'boon-limit', which its engine uses "
        "(met ruling dispute.yaml: the fault is the rule pack's, not the scenario's); " + f"{MISSING} {LINT_HINT}\n"
    )
    r = cli("lint")
    assert r.code == 1
    assert any(
        re.fullmatch(r"pacg/[a-z_]+\.py:\d+: engine uses reading 'boon-limit', which pacg does not define", x)
        for x in r.out.splitlines()
    ), r.out


# --- PACG: a number where a name belongs ------------------------------------------------

PACG = """\
game: pacg
title: A type slip
character: Lem
local: [Amiri]
distant: {Woods: [Seelah]}
location: Farmhouse
card: {name: Quasit, type: monster, villain: true}
checks: Combat 9
events:
  - {step: check, result: {by: Lem, total: 10}}
"""
QUOTE = "write it in quotes if it really is text"
HERE = "characters here: Lem, Amiri, Seelah (add others to 'local' or 'distant')"
SLIPS = [
    (
        "character: Lem",
        "character: 2.5",
        f"3:12: character: expected the encountering character's name, got a number 2.5; {QUOTE}",
    ),
    (
        "character: Lem",
        "character: {name: 7}",
        f"3:19: character.name: expected a character name, got a whole number 7; {QUOTE}",
    ),
    (
        "local: [Amiri]",
        "local: [Amiri, 5]",
        f"4:16: local[1]: expected a character name, got a whole number 5; {QUOTE}",
    ),
    ("local: [Amiri]", "local: 5", f"4:8: local: expected a character name, got a whole number 5; {QUOTE}"),
    (
        "distant: {Woods: [Seelah]}",
        "distant: [1, 2]",
        f"5:11: distant[0]: expected a location name, got a whole number 1; {QUOTE}",
    ),
    (
        "distant: {Woods: [Seelah]}",
        "distant: {3: [Seelah]}",
        f"5:11: distant[3]: expected a location name, got a whole number 3; {QUOTE}",
    ),
    ("[Seelah]", "[4]", f"5:19: distant.Woods[0]: expected a character name, got a whole number 4; {QUOTE}"),
    ("distant: {Woods: [Seelah]}", "distant: [Woods, Woods]", "5:18: distant[1]: location 'Woods' is listed twice"),
    ("location: Farmhouse", "location: 7", f"6:11: location: expected a location name, got a whole number 7; {QUOTE}"),
    (
        "location: Farmhouse",
        "location: {name: 7.5}",
        f"6:18: location.name: expected a location name, got a number 7.5; {QUOTE}",
    ),
    ("name: Quasit", "name: 12", f"7:14: card.name: expected the card's name, got a whole number 12; {QUOTE}"),
    (
        "type: monster",
        "type: 4",
        "7:28: card.type: expected card type, got a whole number 4; one of: weapon, spell, armor, item, ally, "
        "blessing, monster, barrier, armour, villain, henchman",
    ),
    (
        "villain: true}",
        "villain: true, immune: [1]}",
        f"7:61: card.immune[0]: expected a trait, got a whole number 1; {QUOTE}",
    ),
    (
        "checks: Combat 9",
        "checks: 9",
        "8:9: checks: expected a check line such as 'Combat 10', got a whole number 9; write it as the card prints it",
    ),
    ("by: Lem", "by: 2", f"10:32: events[0].result.by: expected a character name, got a whole number 2; {HERE}"),
    (
        "total: 10}",
        "total: 10, check: 1.5}",
        "10:55: events[0].result.check: expected a check, e.g. 'Combat 10' or 2, got a number 1.5; "
        "a check's place (1, 2, ...) or its text",
    ),
]
EVENTS = [
    (
        "{step: check, play: {card: 3, type: weapon}}",
        f"events[1].play.card: expected the card's name, got a whole number 3; {QUOTE}",
    ),
    (
        "{step: check, play: {by: 1, card: Club, type: weapon}}",
        f"events[1].play.by: expected a character name, got a whole number 1; {HERE}",
    ),
    (
        "{step: check, play: {card: Club, type: weapon, traits: [2]}}",
        f"events[1].play.traits[0]: expected a trait, got a whole number 2; {QUOTE}",
    ),
    (
        "{step: check, power: {power: 5}}",
        f"events[1].power.power: expected the power's name, got a whole number 5; {QUOTE}",
    ),
    ("{step: evasion, evade: {card: 9}}", f"events[1].evade.card: expected a card name, got a whole number 9; {QUOTE}"),
    ("{step: check, move: {to: 3}}", f"events[1].move.to: expected a location name, got a whole number 3; {QUOTE}"),
    (
        "{step: guard, guard: {by: Seelah, location: 1}}",
        "events[1].guard.location: expected a location name, got a whole number 1; locations: Woods, Farmhouse",
    ),
    (
        "{step: check, damage: {to: 1, type: combat}}",
        f"events[1].damage.to: expected a character name, got a whole number 1; {HERE}",
    ),
    (
        "{step: check, damage: {to: [Lem, 1], type: combat}}",
        f"events[1].damage.to[1]: expected a character name, got a whole number 1; {HERE}",
    ),
    (
        "{step: check, damage: {to: Lem, type: combat, source: 2}}",
        f"events[1].damage.source: expected the damage's source, got a whole number 2; {QUOTE}",
    ),
    (
        "{step: avenge, avenge: {by: Amiri, bury: 3}}",
        f"events[1].avenge.bury: expected the buried card's name, got a whole number 3; {QUOTE}",
    ),
    ("{step: check, effect: 5}", f"events[1].effect: expected the effect's name, got a whole number 5; {QUOTE}"),
    (
        "{step: check, effect: {name: 5}}",
        f"events[1].effect.name: expected the effect's name, got a whole number 5; {QUOTE}",
    ),
    (
        "{step: check, end-turn: {by: 3}}",
        f"events[1].end-turn.by: expected a character name, got a whole number 3; {HERE}",
    ),
]


def _slip(old: str, new: str) -> str:
    assert old in PACG, old
    return PACG.replace(old, new, 1)


ROWS = [(_slip(old, new), f"s.yaml:{message}") for old, new, message in SLIPS]
ROWS += [(PACG + f"  - {event}\n", message) for event, message in EVENTS]


@pytest.mark.parametrize(("text", "message"), ROWS, ids=[m.split(": ")[1] for _, m in ROWS])
def test_pacg_number_where_a_name_belongs(
    text: str, message: str, cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = cli("check", "s.yaml")
    assert r.code == 2, r.out
    assert r.out == ""
    if message.startswith("s.yaml:"):
        assert r.err == f"Error: {message}\n"
    else:  # an appended event, on the last line
        assert re.fullmatch(rf"Error: s\.yaml:11:\d+: {re.escape(message)}\n", r.err), r.err


def test_quoted_numbers_are_names(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The way out the message offers works: a quoted number is text, read as a name."""
    text = PACG.replace("character: Lem", "character: '2.5'").replace("by: Lem", "by: '2.5'")
    (tmp_path / "s.yaml").write_text(text.replace("distant: {Woods: [Seelah]}", "distant: ['1', '2']"))
    monkeypatch.chdir(tmp_path)
    r = cli("check", "s.yaml", "--json")
    assert r.code in (0, 1), r.err
    assert r.err == ""


def test_a_broken_pack_is_one_error_line_for_a_whole_check(table: Table, cli) -> None:
    """Three scenario files, one broken pack: the pack's fault is said once, not once per file."""
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (table.tmp / name).write_text(SCENARIO.read_text(encoding="utf-8"), encoding="utf-8")
    (table.rules / "houses-vs-dark-arts" / "movement.yaml").unlink()
    r = cli("check", "a.yaml", "b.yaml", "c.yaml")
    assert (r.code, r.out) == (2, "")
    assert len(r.err.splitlines()) == 1 and "does not resolve" in r.err, r.err


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_rules_variable_is_as_if_unset(value: str, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set but empty means unset, as for the XDG folders: the shipped rules answer."""
    monkeypatch.delenv("RULESREF_RULES", raising=False)
    lookup._loaded.clear()
    all_games.cache_clear()
    want = cli("ask", "can a pawn pass a castle wall?", "--json")
    monkeypatch.setenv("RULESREF_RULES", value)
    lookup._loaded.clear()
    all_games.cache_clear()
    got = cli("ask", "can a pawn pass a castle wall?", "--json")
    assert (got.code, got.err, got.out) == (0, "", want.out)


def test_lint_lists_an_inferred_page_the_clause_does_not_cite(table: Table, cli) -> None:
    table.edit("houses-vs-dark-arts/open-movement.yaml", "inferred_pages: [25]", "inferred_pages: [24]")
    r = cli("lint")
    assert r.code == 1, (r.out, r.err)
    assert "open.passage-backtrack: inferred page 24 is not one of its pages [10, 25]" in r.out


def test_every_page_note_that_infers_a_page_marks_which(cli) -> None:
    # a page the note calls inferred is never shown as printed (audit 13, R3)
    from rulesref.games import all_games

    for game in all_games():
        for c in game.clauses.values():
            if c.page_note and "inferred" in c.page_note.lower():
                assert c.pages_inferred, f"{c.id}: its page_note infers a page, yet every page shows as printed"
