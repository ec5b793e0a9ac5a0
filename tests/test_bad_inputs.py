"""Every bad input a user can type or write gets one exact, clear answer and exit code 2.

A table, one named case per row: the files written (in a fresh folder, which is also the
working directory, so messages show short relative names), the command line, and the
exact stderr. A message ending in "…" is matched as a prefix. Nothing here may print a
traceback, and stdout stays empty (or ``[]`` for ``check --json``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rulesref.errors import shorten
from rulesref.games import all_games
from rulesref.source import MAX_BYTES

ENVELOPE = "game: pacg\ntitle: A bad file\n"
LOL = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)


@dataclass(frozen=True)
class Bad:
    """One bad input and the exact answer it must get."""

    name: str
    err: str
    """Exact stderr; a trailing '…' makes it a prefix."""
    files: dict[str, str | bytes] = field(default_factory=dict)
    args: tuple[str, ...] = ("check", "s.yaml")
    code: int = 2
    env: dict[str, str] = field(default_factory=dict)


def s(text: str | bytes, err: str, name: str, **kw: object) -> Bad:
    """A bad scenario file s.yaml given to `check`."""
    return Bad(name, err, files={"s.yaml": text}, **kw)  # type: ignore[arg-type]


CASES = [
    # --- the file itself: size, encoding, bytes
    s("", "Error: s.yaml: file is empty\n", "empty-file"),
    s("  \n\n   \n", "Error: s.yaml: file is empty\n", "whitespace-only"),
    s("# game: pacg\n# title: x\n", "Error: s.yaml: file holds only comments, no YAML content\n", "comments-only"),
    s(b"game: pacg\x00\n", "Error: s.yaml:1:11: binary file, not YAML text (a NUL byte)\n", "nul-byte"),
    s(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "Error: s.yaml:3:1: binary file, not YAML text (a NUL byte)\n",
        "png-image",
    ),
    s(ENVELOPE.encode("utf-16"), "Error: s.yaml: file is UTF-16 text; save it as UTF-8\n", "utf16-with-bom"),
    s(ENVELOPE.encode("utf-16-le"), "Error: s.yaml: file looks like UTF-16 text; save it as UTF-8\n", "utf16-no-bom"),
    s(ENVELOPE.encode("utf-32"), "Error: s.yaml: file is UTF-32 text; save it as UTF-8\n", "utf32-with-bom"),
    s(
        "game: pacg\ntitle: Caf\u00e9 rules\n".encode("latin-1"),
        "Error: s.yaml:2:11: file is not UTF-8 text (byte 0xe9); save it as UTF-8\n",
        "latin1",
    ),
    s(
        b"game: pacg\ntitle: \xff\xfe\n",
        "Error: s.yaml:2:8: file is not UTF-8 text (byte 0xff); save it as UTF-8\n",
        "bad-utf8",
    ),
    s(
        ENVELOPE + "notes: \x07ding\n",
        "Error: s.yaml:3:8: control character U+0007 is not allowed in YAML text\n",
        "control-character",
    ),
    s(
        ENVELOPE + "notes: \x1b[31mred\n",
        "Error: s.yaml:3:8: control character U+001B is not allowed in YAML text\n",
        "terminal-escape",
    ),
    s(
        ENVELOPE + 'notes: "\\e[31mred"\n',
        "Error: s.yaml:3:8: notes: control character U+001B is not allowed in text\n",
        "escaped-control-character",
    ),
    s(
        ENVELOPE + 'notes: "a\\0b"\n',
        "Error: s.yaml:3:8: notes: control character U+0000 is not allowed in text\n",
        "escaped-nul",
    ),
    # --- YAML syntax
    s(
        "game: pacg\ntitle: x\ncard:\n\tname: Goblin\n",
        "Error: s.yaml:4:1: not valid YAML: a tab is used for indentation; YAML needs spaces\n",
        "tab-indentation",
    ),
    s(
        "game: pacg\ntitle: x\ncard: [unclosed\n",
        "Error: s.yaml:4:1: not valid YAML: expected ',' or ']' in the list opened at line 3, column 7\n",
        "unclosed-bracket",
    ),
    s(
        "game: pacg\ntitle: 'unclosed\n",
        "Error: s.yaml:2:8: not valid YAML: a quoted value is never closed\n",
        "unclosed-quote",
    ),
    s(
        "game: pacg\ntitle: Rules: the short version\n",
        "Error: s.yaml:2:13: not valid YAML: a ': ' where it cannot start a value; quote text that holds ': ' "
        "(mapping values are not allowed in this context)\n",
        "colon-in-value",
    ),
    s(
        "game: pacg\ntitle: x\ncard:\n  name: Goblin\n type: monster\n",
        "Error: s.yaml:5:2: not valid YAML: the indentation does not match the lines above "
        "(did not find expected key)\n",
        "bad-dedent",
    ),
    s(
        ENVELOPE + "---\ngame: pacg\ntitle: second\n",
        "Error: s.yaml:3:1: a second YAML document starts here ('---'); put one document in each file\n",
        "two-documents",
    ),
    s(
        "%YAML 1.1\n%FOO bar\n---\n" + ENVELOPE,
        "Error: s.yaml:2:5: not valid YAML: found unknown directive name while scanning a directive\n",
        "unknown-directive",
    ),
    # --- YAML done strictly: duplicates, aliases, depth, tags, numbers
    s("game: pacg\ntitle: x\ntitle: y\n", "Error: s.yaml:3:1: title: duplicate key 'title'\n", "duplicate-key"),
    s(
        ENVELOPE + "card:\n  name: Goblin\n  name: Ogre\n",
        "Error: s.yaml:5:3: card.name: duplicate key 'name'\n",
        "duplicate-nested-key",
    ),
    s(
        ENVELOPE + "events:\n  - {step: check, step: evasion}\n",
        "Error: s.yaml:4:19: events[0].step: duplicate key 'step'\n",
        "duplicate-key-in-list",
    ),
    s(ENVELOPE + "x:\n  1: a\n  '1': b\n", "Error: s.yaml:5:3: x.1: duplicate key '1'\n", "number-and-text-key-clash"),
    s(ENVELOPE + "x:\n  yes: a\n  'yes': b\n", "Error: s.yaml:5:3: x.yes: duplicate key 'yes'\n", "yes-key-clash"),
    s(
        ENVELOPE + LOL,
        "Error: s.yaml:7:28: e[5]: document holds more than 50,000 values (aliases counted each use)\n",
        "billion-laughs",
    ),
    s(
        ENVELOPE + "x: " + "[" * 100_000,
        "Error: s.yaml:3:44: x[0][0][0][0]…[0][0][0][0][0]: nested deeper than 40 levels\n",
        "deep-flow-nesting",
    ),
    s(
        ENVELOPE + "".join(" " * i + "a:\n" for i in range(60)),
        "Error: s.yaml:44:42: a.a.a.a.a…a.a.a.a.a: nested deeper than 40 levels\n",
        "deep-block-nesting",
    ),
    s(
        ENVELOPE + "x: &a [1, *a]\n",
        "Error: s.yaml:3:11: x[1]: alias '*a' refers to the value it is inside\n",
        "recursive-alias",
    ),
    s(
        ENVELOPE + "x: *nowhere\n",
        "Error: s.yaml:3:4: x: alias '*nowhere' has no anchor '&nowhere' before it\n",
        "undefined-alias",
    ),
    s(
        ENVELOPE + "x: !!python/object/apply:os.system ['echo pwned']\n",
        "Error: s.yaml:3:4: x: the YAML tag '!!python/object/apply:os.system' is not supported; write a plain value\n",
        "python-object-tag",
    ),
    s(
        ENVELOPE + "x: !!python/name:os.system\n",
        "Error: s.yaml:3:4: x: the YAML tag '!!python/name:os.system' is not supported; write a plain value\n",
        "python-name-tag",
    ),
    s(
        ENVELOPE + "x: !custom {a: 1}\n",
        "Error: s.yaml:3:4: x: the YAML tag '!custom' is not supported; write a plain value\n",
        "local-tag",
    ),
    s(
        ENVELOPE + "x: !!binary aGVsbG8=\n",
        "Error: s.yaml:3:4: x: the YAML tag '!!binary' is not supported; write a plain value\n",
        "binary-tag",
    ),
    s(
        ENVELOPE + "x: !!set {a, b}\n",
        "Error: s.yaml:3:4: x: the YAML tag '!!set' is not supported; write a plain value\n",
        "set-tag",
    ),
    s(
        ENVELOPE + "x: !!str {a: 1}\n",
        "Error: s.yaml:3:4: x: the YAML tag '!!str' does not fit this value\n",
        "tag-does-not-fit",
    ),
    s(
        ENVELOPE + "base: &b {a: 1}\nx:\n  <<: *b\n",
        "Error: s.yaml:5:3: x.<<: merge keys ('<<') are not supported\n",
        "merge-key",
    ),
    s(
        ENVELOPE + "? [a, b]\n: 1\n",
        "Error: s.yaml:3:3: a key must be a plain word, not a list or mapping\n",
        "list-as-key",
    ),
    s(ENVELOPE + "x: .nan\n", "Error: s.yaml:3:4: x: '.nan' is not a finite number\n", "nan"),
    s(ENVELOPE + "x: -.inf\n", "Error: s.yaml:3:4: x: '-.inf' is not a finite number\n", "infinity"),
    s(ENVELOPE + "x: 1.0e+999\n", "Error: s.yaml:3:4: x: '1.0e+999' is not a finite number\n", "overflowing-float"),
    s(
        ENVELOPE + "x: " + "9" * 5000 + "\n",
        "Error: s.yaml:3:4: x: cannot read '99999999999999999999999999…9999999999999' as a whole number "
        "(at most 4,300 digits)\n",
        "huge-integer",
    ),
    s(
        ENVELOPE + "x: !!bool maybe\n",
        "Error: s.yaml:3:4: x: cannot read 'maybe' as true or false\n",
        "bad-explicit-bool",
    ),
    s(
        ENVELOPE + "x: !!int twelve\n",
        "Error: s.yaml:3:4: x: cannot read 'twelve' as a whole number (at most 4,300 digits)\n",
        "bad-explicit-int",
    ),
    # --- the envelope every scenario shares
    s(
        "just some words\n",
        "Error: s.yaml:1:1: a scenario must be a mapping with at least 'game' and 'title'\n",
        "bare-scalar",
    ),
    s(
        "- game: pacg\n",
        "Error: s.yaml:1:1: a scenario must be a mapping with at least 'game' and 'title'\n",
        "list-document",
    ),
    s("---\n", "Error: s.yaml:2:1: a scenario must be a mapping with at least 'game' and 'title'\n", "null-document"),
    s("title: x\n", "Error: s.yaml:1:1: missing required key 'game'\n", "missing-game"),
    s(
        "game: [pacg]\ntitle: x\n",
        "Error: s.yaml:1:7: game: expected a game id, e.g. houses-vs-dark-arts or pacg\n",
        "game-not-text",
    ),
    s(
        "game: chess\ntitle: x\n",
        "Error: s.yaml:1:7: game: unsupported game: 'chess'; see `rulesref games`\n",
        "unknown-game",
    ),
    s(
        "game: pacgg\ntitle: x\n",
        "Error: s.yaml:1:7: game: unsupported game: 'pacgg'; did you mean 'pacg'?\n",
        "near-miss-game",
    ),
    s(
        "game: pacg\n",
        "Error: s.yaml:1:1: a scenario needs a 'title': one line saying what is in question\n",
        "missing-title",
    ),
    s(
        "game: pacg\ntitle: '  '\n",
        "Error: s.yaml:2:8: title: a scenario needs a 'title': one line saying what is in question\n",
        "blank-title",
    ),
    s(
        ENVELOPE + "readings: [boon-limit]\n",
        "Error: s.yaml:3:11: readings: expected a mapping of reading id -> option\n",
        "readings-not-mapping",
    ),
    s(
        ENVELOPE + "readings: {boon-limt: per-check}\n",
        "Error: s.yaml:3:23: readings.boon-limt: unknown reading 'boon-limt' for pacg; did you mean 'boon-limit'?\n",
        "near-miss-reading",
    ),
    s(
        ENVELOPE + "readings: {boon-limit: sometimes}\n",
        "Error: s.yaml:3:24: readings.boon-limit: reading 'boon-limit' has no option 'sometimes'; "
        "options: per-check, per-step\n",
        "unknown-reading-option",
    ),
    s(
        ENVELOPE + "expect: legal\n",
        "Error: s.yaml:3:9: expect: expected a mapping with some of: verdict, pages, clauses, state\n",
        "expect-not-mapping",
    ),
    s(
        ENVELOPE + "expect: {verdit: legal}\n",
        "Error: s.yaml:3:10: expect.verdit: unknown key 'verdit'; did you mean 'verdict'?\n",
        "near-miss-expect-key",
    ),
    s(
        ENVELOPE + "expect: {verdict: allowed}\n",
        "Error: s.yaml:3:19: expect.verdict: verdict must be one of legal, illegal, undetermined, got 'allowed'\n",
        "unknown-verdict",
    ),
    s(
        ENVELOPE + "expect: {verdict: ilegal}\n",
        "Error: s.yaml:3:19: expect.verdict: verdict must be one of legal, illegal, undetermined, got 'ilegal'; "
        "did you mean 'illegal'?\n",
        "near-miss-verdict",
    ),
    s(
        ENVELOPE + "expect: {pages: [seven]}\n",
        "Error: s.yaml:3:17: expect.pages: expected a list of page numbers\n",
        "pages-not-numbers",
    ),
    s(
        ENVELOPE + "expect: {clauses: [check.dice-pool]}\n",
        "Error: s.yaml:3:20: expect.clauses[0]: unknown clause 'check.dice-pool'…",
        "unknown-expected-clause",
    ),
    s(
        ENVELOPE + "claims: {Sam: probably}\n",
        "Error: s.yaml:3:15: claims.Sam: a claim must be one of legal, illegal, undetermined, got 'probably'\n",
        "bad-claim",
    ),
    # --- paths given to check
    Bad("missing-file", "Error: nope.yaml: no such file or folder\n", args=("check", "nope.yaml")),
    Bad(
        "empty-folder",
        "Error: empty: no scenario files (*.yaml) in this folder\n",
        files={"empty/": ""},
        args=("check", "empty"),
    ),
    Bad(
        "folder-without-yaml",
        "Error: notes: no scenario files (*.yaml) in this folder\n",
        files={"notes/readme.txt": "hello"},
        args=("check", "notes"),
    ),
    Bad(
        "folder-named-like-yaml",
        "Error: x.yaml: no scenario files (*.yaml) in this folder\n",
        files={"x.yaml/": ""},
        args=("check", "x.yaml"),
    ),
    Bad(
        "broken-symlink",
        "Error: link.yaml: is a broken symbolic link (to 'gone.yaml')\n",
        files={"link.yaml": "->gone.yaml"},
        args=("check", "link.yaml"),
    ),
    Bad(
        "symlink-loop",
        "Error: a.yaml: is a symbolic link loop\n",
        files={"a.yaml": "->b.yaml", "b.yaml": "->a.yaml"},
        args=("check", "a.yaml"),
    ),
    Bad(
        "symlink-loop-in-folder",
        "Error: f/a.yaml: is a symbolic link loop\n",
        files={"f/a.yaml": "->a.yaml"},
        args=("check", "f"),
    ),
    Bad(
        "fifo",
        "Error: pipe.yaml: is a named pipe (FIFO), not a regular file\n",
        files={"pipe.yaml": "|fifo"},
        args=("check", "pipe.yaml"),
    ),
    Bad(
        "file-name-with-terminal-escape",
        "Error: \\x1b[31mred.yaml: no such file or folder\n",
        args=("check", "\x1b[31mred.yaml"),
    ),
    Bad("device", "Error: /dev/null: is a character device, not a regular file\n", args=("check", "/dev/null")),
    Bad(
        "file-over-size-limit",
        f"Error: big.yaml: file is {MAX_BYTES + 1:,} bytes; the limit is {MAX_BYTES:,}\n",
        files={"big.yaml": "#" * (MAX_BYTES + 1)},
        args=("check", "big.yaml"),
    ),
    # --- options and ids on the command line
    Bad(
        "reading-unknown-id",
        "Error: --reading: unknown reading 'nope'; see `rulesref readings`\n",
        args=("check", "x.yaml", "--reading", "nope=x"),
    ),
    Bad(
        "reading-near-miss-id",
        "Error: --reading: unknown reading 'backtrak'; did you mean 'backtrack'?\n",
        args=("check", "x.yaml", "--reading", "backtrak=no-revisit"),
    ),
    Bad(
        "reading-unknown-option",
        "Error: --reading: reading 'backtrack' has no option 'nope'; options: no-revisit, no-reverse\n",
        args=("check", "x.yaml", "--reading", "backtrack=nope"),
    ),
    Bad(
        "reading-without-option",
        "Error: --reading: --reading expects ID=OPTION, got 'backtrack'\n",
        args=("check", "x.yaml", "--reading", "backtrack"),
    ),
    Bad(
        "reading-empty",
        "Error: --reading: --reading expects ID=OPTION, got '='\n",
        args=("check", "x.yaml", "--reading", "="),
    ),
    Bad(
        "reading-chosen-twice",
        "Error: --reading: reading 'backtrack' chosen twice (no-revisit, no-reverse)\n",
        args=("check", "x.yaml", "-r", "backtrack=no-revisit", "-r", "backtrack=no-reverse"),
    ),
    Bad(
        "check-no-paths",
        "Error: Missing argument 'paths'.\nTry 'rulesref check --help' for help.\n",
        args=("check",),
    ),
    Bad("ask-no-question", "Error: Missing argument 'question'.\nTry 'rulesref ask --help' for help.\n", args=("ask",)),
    Bad("ask-empty-question", "Error: QUESTION: the question is empty\n", args=("ask", "")),
    Bad("ask-blank-question", "Error: QUESTION: the question is empty\n", args=("ask", "  \t ")),
    Bad("top-zero", "Error: --top: --top must be at least 1, got 0\n", args=("ask", "walls", "--top", "0")),
    Bad("top-negative", "Error: --top: --top must be at least 1, got -3\n", args=("ask", "walls", "--top", "-3")),
    Bad(
        "top-not-a-number",
        "Error: Invalid value for '--top' / '-n': …",
        args=("ask", "walls", "--top", "many"),
    ),
    Bad(
        "ask-unknown-game",
        "Error: unsupported game: 'chess'; see `rulesref games`\n",
        args=("ask", "walls", "--game", "chess"),
    ),
    Bad(
        "ask-near-miss-game",
        "Error: unsupported game: 'pacgg'; did you mean 'pacg'?\n",
        args=("ask", "walls", "--game", "pacgg"),
    ),
    Bad(
        "show-near-miss-clause",
        "Error: unknown clause 'move.wall'; did you mean 'move.walls'?\n",
        args=("show", "move.wall"),
    ),
    Bad("show-empty-id", "Error: unknown clause ''; see `rulesref page N`\n", args=("show", "")),
    Bad(
        "show-huge-id",
        f"Error: {shorten('unknown clause ' + repr('x' * 100_000), 400)}; see `rulesref page N`\n",
        args=("show", "x" * 100_000),
    ),
    Bad(
        "page-zero",
        "Error: page: page 0 is outside the rulebooks covered (houses-vs-dark-arts pp. 10-25, pacg pp. 3-16)\n",
        args=("page", "0"),
    ),
    Bad(
        "page-outside-game",
        "Error: page: page 20 is outside the rulebooks covered (pacg pp. 3-16)\n",
        args=("page", "20", "--game", "pacg"),
    ),
    Bad(
        "page-negative",
        "Error: page: page -1 is outside the rulebooks covered (houses-vs-dark-arts pp. 10-25, pacg pp. 3-16)\n",
        args=("page", "-1"),
    ),
    Bad(
        "page-not-a-number",
        "Error: Invalid value for 'number': 'abc' is not a valid int.\nTry 'rulesref page --help' for help.\n",
        args=("page", "abc"),
    ),
    Bad(
        "myths-unknown-game",
        "Error: unsupported game: 'nope'; see `rulesref games`\n",
        args=("myths", "--game", "nope"),
    ),
    Bad(
        "readings-unknown-game",
        "Error: unsupported game: 'pathfindr'; did you mean 'pathfinder'?\n",
        args=("readings", "--game", "pathfindr"),
    ),
    Bad(
        "unknown-command",
        "Error: No such command 'frobnicate'.\nTry 'rulesref --help' for help.\n",
        args=("frobnicate",),
    ),
    Bad(
        "unknown-option",
        "Error: No such option: --colour (Possible options: --color)\nTry 'rulesref games --help' for help.\n",
        args=("games", "--colour"),
    ),
    Bad(
        "rules-folder-missing",
        "Error: /nonexistent/rules: rules folder not found\n",
        args=("games",),
        env={"RULESREF_RULES": "/nonexistent/rules"},
    ),
]


# --- each game's situation (the engines' own messages) -------------------------------------

HVDA = """\
game: houses-vs-dark-arts
title: A bad situation
board: {grid: 5x4}
pawns:
  g1: {house: gryffindor, at: a1}
action:
  explore:
    card: 3
    moves:
      - {pawn: g1, path: [a1, b1]}
"""
PACG = """\
game: pacg
title: A bad encounter
character: Lem
card: {name: Quasit, type: monster}
checks: Combat 9
events:
  - {step: check, result: {by: Lem, total: 10}}
"""

CASES += [
    s(
        HVDA.replace("pawns:", "pawnz:"),
        "Error: s.yaml:4:1: pawnz: unknown key 'pawnz'; did you mean 'pawns'?\n",
        "hvda-near-miss-key",
    ),
    s(
        HVDA.replace("[a1, b1]", "[a1, c9]"),
        "Error: s.yaml:10:31: action.explore.moves[0].path[1]: unknown space 'c9'; the board has a1..e4, great-hall\n",
        "hvda-unknown-space",
    ),
    s(
        HVDA.replace("pawn: g1", "pawn: g9"),
        "Error: s.yaml:10:9: action.explore.moves[0]: unknown pawn 'g9'; pawns: g1\n",
        "hvda-unknown-pawn",
    ),
    s(
        HVDA.replace("explore:", "explor:"),
        "Error: s.yaml:7:3: action.explor: unknown action 'explor'; did you mean 'explore'?\n",
        "hvda-near-miss-action",
    ),
    s(
        HVDA.replace("5x4", "100000x100000"),
        "Error: s.yaml:3:15: board.grid: a grid has 1-26 columns and 1-99 rows, got '100000x100000'\n",
        "hvda-grid-too-big",
    ),
    s(
        "game: houses-vs-dark-arts\ntitle: A bad situation\nturn: {side: house}\naction: {check: end}\n",
        "Error: s.yaml:3:7: turn.house: a House turn needs the house whose turn it is: add turn.house (or list "
        "houses: with one house); houses: gryffindor, hufflepuff, ravenclaw, slytherin\n",
        "hvda-house-turn-of-no-house",
    ),
    s(
        HVDA.replace("5x4", "big"),
        "Error: s.yaml:3:15: board.grid: expected COLUMNSxROWS such as 5x4, got 'big'\n",
        "hvda-grid-not-a-size",
    ),
    s(
        HVDA.replace("card: 3", "card: -5"),
        "Error: s.yaml:8:11: action.explore.card.movement: expected a movement such as 4 or 3+3, got -5\n",
        "hvda-negative-movement",
    ),
    s(
        HVDA.replace("at: a1", "at: [a1, b1]"),
        "Error: s.yaml:5:31: pawns.g1.at: pawn g1 is in more than one place; a pawn stands on one space\n",
        "hvda-pawn-in-two-places",
    ),
    s(
        PACG.replace("step: check", "step: chek"),
        "Error: s.yaml:7:12: events[0].step: unknown step 'chek'; did you mean 'check'?\n",
        "pacg-near-miss-step",
    ),
    s(
        PACG.replace("by: Lem", "by: Lemm"),
        "Error: s.yaml:7:32: events[0].result.by: unknown character 'Lemm'; did you mean 'Lem'?\n",
        "pacg-near-miss-character",
    ),
    s(
        PACG.replace("type: monster", "type: monstr"),
        "Error: s.yaml:4:28: card.type: unknown card type 'monstr'; did you mean 'monster'?\n",
        "pacg-near-miss-card-type",
    ),
    s(
        PACG.replace("Combat 9", "Knowledge 4 or"),
        "Error: s.yaml:5:9: checks: 'or' with no check after it in 'Knowledge 4 or'\n",
        "pacg-check-line-dangling-or",
    ),
    s(
        PACG.replace("total: 10", "total: -10"),
        "Error: s.yaml:7:44: events[0].result.total: expected the check's total (a whole number, 0 or more), got -10\n",
        "pacg-negative-total",
    ),
    s(
        PACG.replace("card: {name: Quasit, type: monster}", "card: Quasit"),
        "Error: s.yaml:4:7: card: expected a mapping for the card, got text; keys: name, kind, type, villain, "
        "henchman, summoned, immune, cannot-evade, damage-type, checks\n",
        "pacg-card-not-a-mapping",
    ),
]


# Rows from crashes the fuzzers found in other modules (each fixed by its owner since).
READINGS = """\
- id: door-rule
  question: Does a door open itself?
  open: move.doors
  options: {yes-it-does: It opens., no-it-does-not: It stays shut.}
  default: [yes-it-does]
"""
TOY = {
    "rules/toy/game.yaml": "id: toy\ntitle: Toy\npages: [1, 9]\nsources: [a test]\n",
    "rules/toy/moves.yaml": "- {id: move.walls, title: Walls block, text: A wall blocks., pages: [2]}\n",
}
TOY_ENV = {"RULESREF_RULES": "rules", "RULESREF_CACHE": "cache"}
CASES += [
    Bad(
        "rule-pack-symlink-loop",
        "Error: rules/toy/loop.yaml: is a symbolic link loop\n",
        files={**TOY, "rules/toy/loop.yaml": "->loop.yaml"},
        args=("games",),
        env=TOY_ENV,
    ),
    Bad(
        "rule-pack-fifo",
        "Error: rules/toy/pipe.yaml: is a named pipe (FIFO), not a regular file\n",
        files={**TOY, "rules/toy/pipe.yaml": "|fifo"},
        args=("ask", "walls"),
        env=TOY_ENV,
    ),
    Bad(
        "rule-pack-tab-indented",
        "Error: rules/toy/moves.yaml:2:1: not valid YAML: a tab is used for indentation; YAML needs spaces\n",
        files={**TOY, "rules/toy/moves.yaml": "- id: move.walls\n\ttitle: Walls\n"},
        args=("show", "move.walls"),
        env=TOY_ENV,
    ),
]
CASES += [
    s(
        ENVELOPE + "expect: {clauses: [[]]}\n",
        "Error: s.yaml:3:20: expect.clauses[0]: expected a clause id, got []\n",
        "expect-clause-is-a-list",
    ),
    Bad(
        "readings-default-is-a-list",
        "Error: rules/toy/readings.yaml:5:12: [0].default: default ['yes-it-does'] is not one of the options\n",
        files={
            "rules/toy/game.yaml": "id: toy\ntitle: Toy\npages: [1, 9]\nsources: [a test]\n",
            "rules/toy/moves.yaml": "- {id: move.doors, title: Doors, text: A door., pages: [2], kind: open}\n",
            "rules/toy/readings.yaml": READINGS,
        },
        args=("games",),
        env=TOY_ENV,
    ),
]
CASES += [
    Bad(
        "ask-rule-pack-symlink-loop",
        "Error: rules/toy/loop.yaml: is a symbolic link loop\n",
        files={**TOY, "rules/toy/loop.yaml": "->loop.yaml"},
        args=("ask", "walls"),
        env=TOY_ENV,
    ),
    Bad(
        "ask-rule-pack-broken-symlink",
        "Error: rules/toy/gone.yaml: is a broken symbolic link (to 'nowhere.yaml')\n",
        files={**TOY, "rules/toy/gone.yaml": "->nowhere.yaml"},
        args=("ask", "walls"),
        env=TOY_ENV,
    ),
]
CASES += [
    s(
        PACG.replace("step: check", "step: [check]"),
        "Error: s.yaml:7:12: events[0].step: expected a step name, got a list\n",
        "pacg-step-is-a-list",
    ),
    s(
        HVDA.replace("{pawn: g1, path: [a1, b1]}", "{pawn: g1, path: [a1, b1], 3: x, x: 3}"),
        "Error: s.yaml:10:9: action.explore.moves[0]: a move is {pawn: ID, path: [START, SPACE, ...]}\n",
        "hvda-move-with-number-key",
    ),
    s(
        HVDA.replace("action:", "turn: {side: house, house: gryffindor, phase: []}\naction:"),
        "Error: s.yaml:6:47: turn.phase: expected phase: normal or last-hands, got []\n",
        "hvda-phase-is-a-list",
    ),
    s(
        HVDA.replace("house: gryffindor", "house: griffindor"),
        "Error: s.yaml:5:15: pawns.g1.house: unknown house 'griffindor'; did you mean 'gryffindor'?\n",
        "hvda-misspelt-house",
    ),
    Bad(
        "lint-missing-scenario-folder",
        "Error: /nonexistent: --scenarios: scenario folder not found\n",
        args=("lint", "--scenarios", "/nonexistent"),
    ),
]


def _write(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith("/"):
            path.mkdir(exist_ok=True)
        elif isinstance(content, str) and content.startswith("->"):
            os.symlink(content[2:], path)
        elif content == "|fifo":
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Bad, cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if sys.platform == "win32" and any(str(v).startswith(("->", "|")) for v in case.files.values()):
        pytest.skip("symlinks and FIFOs")
    _write(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value)
    if case.env:
        all_games.cache_clear()
    try:
        r = cli(*case.args)
    finally:
        if case.env:
            all_games.cache_clear()
    if case.err.endswith("…"):
        assert r.err.startswith(case.err[:-1]), r.err
        assert r.err.count("\n") <= 2, r.err
    else:
        assert r.err == case.err
    assert r.code == case.code
    assert r.out in ("", "[]\n"), r.out
    assert "Traceback" not in r.err


def test_a_utf8_byte_order_mark_is_accepted(cli, tmp_path: Path) -> None:
    """A UTF-8 BOM is what Windows editors write: the file is read as if it were not there."""
    source = Path(__file__).resolve().parent.parent / "scenarios" / "pacg"
    plain = sorted(source.glob("*.yaml"))[0]
    bom = tmp_path / "bom.yaml"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    with_bom, without = cli("check", str(bom), "--json"), cli("check", str(plain), "--json")
    assert (with_bom.code, with_bom.err) == (without.code, without.err)
    strip = [{k: v for k, v in r.items() if k != "file"} for r in json.loads(with_bom.out)]
    assert strip == [{k: v for k, v in r.items() if k != "file"} for r in json.loads(without.out)]


QUERIES = {
    "empty": "",
    "spaces": "   \t  ",
    "punctuation": "?!?!... ,;: -- ()[]{}",
    "greek": "μπορεί ένα πιόνι να περάσει από τοίχο;",
    "cjk": "棋子可以穿过墙吗？",
    "emoji": "🧙‍♂️🏰➡️🧱❓",
    "rtl": "هل يمكن للبيدق عبور الجدار؟",
    "huge": "can a pawn pass a wall " * 4_400,  # about 100 kB
    "huge-one-word": "w" * 100_000,
    "control": "walls\x1b[31m\x00\x07",
}


@pytest.mark.parametrize("query", QUERIES.values(), ids=list(QUERIES))
def test_odd_questions_get_a_clean_answer_fast(cli, query: str) -> None:
    started = time.monotonic()
    r = cli("ask", query, "--json")
    assert time.monotonic() - started < 5
    assert "Traceback" not in r.err and "internal error" not in r.err
    if r.code == 0:
        answer = json.loads(r.out)
        assert answer["results"] or answer["message"], "an answer lists clauses or says why it cannot"
    else:
        assert r.code == 2 and r.err.startswith("Error: ") and r.err.count("\n") <= 2, r.err


HOSTILE = r"""
import json, resource, sys, time
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # a regression fails here, not on the machine
from rulesref.errors import RulesrefError
from rulesref.source import load_yaml
lol = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")
)
n = 990_000
docs = {
    "billion-laughs": lol,
    "flow-nesting": "[" * n,
    "flow-map-nesting": "{a: " * (n // 4),
    "block-nesting": "- " * (n // 2) + "x",
    "indent-nesting": "".join(" " * i + "a:\n" for i in range(1400)),
    "flow-depth-39-repeated": "[" + ",".join(["[" * 38 + "]" * 38] * (n // 80)) + "]",
    "flat-list": "[" + "x," * (n // 2 - 2) + "]",
    "flat-mapping": "".join(f"k{i}: {i}\n" for i in range(80_000)),
    "aliases-in-a-list": "a: &a [x, y]\nb: [" + "*a," * (n // 3 - 10) + "]\n",
    "long-line": "a: " + "x" * (n - 10) + "\n",
    "long-key": "k" * (n - 10) + ": 1\n",
}
out = {}
for name, text in docs.items():
    started = time.perf_counter()
    try:
        load_yaml(Path(name), text=text)
        result = "loaded"
    except RulesrefError as exc:
        result = str(exc)
    out[name] = [time.perf_counter() - started, result]
out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def test_hostile_documents_are_refused_fast_and_small() -> None:
    """Alias bombs and deep nesting in well under a second; a megabyte of anything in a few; memory small."""
    import subprocess

    r = subprocess.run([sys.executable, "-c", HOSTILE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    assert out.pop("maxrss_mb") < 300
    quick = {"billion-laughs", "flow-nesting", "flow-map-nesting", "block-nesting", "indent-nesting"}
    for name, (seconds, result) in out.items():
        assert seconds < (1 if name in quick else 5), (name, seconds)
        if name != "long-line":
            assert result.startswith(f"{name}:"), (name, result)
    assert out["billion-laughs"][1].endswith("document holds more than 50,000 values (aliases counted each use)")
    assert out["long-line"][1] == "loaded"
    assert out["long-key"][1].endswith("a key longer than 1,024 characters; YAML does not allow keys that long")
    for name in ("flow-nesting", "flow-map-nesting", "block-nesting", "indent-nesting"):
        assert out[name][1].endswith("nested deeper than 40 levels"), out[name]
