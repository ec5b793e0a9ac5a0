"""Text for people: the only module that imports rich.

Each function takes a value the library returned and prints it. JSON output does not
come through here. Every string from a file, a name or an argument is shown through
``_shown`` (its controls as escapes) inside a rich ``Text``, which never reads markup:
a clause titled ``[/]`` or a file named ``[link=...].yaml`` prints as it is spelt.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from rulesref.text import visible

if TYPE_CHECKING:  # types only: `ask` must not pay for importing what it does not show
    from rulesref.corpus import Clause, Game, Misreading, Reading
    from rulesref.lookup import Answer
    from rulesref.ruling import Ruling, Step


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich turns a closed pipe (`rulesref myths | head`) into exit 1, which here means
        # "an expectation failed"; let the CLI handle it as the quiet exit it is
        raise BrokenPipeError


WIDTH = 80
"""The width used when COLUMNS (or the terminal) gives none that can be used."""
WIDTHS = range(20, 1001)
"""Widths taken as given: narrower cannot show a panel, wider is a typo (or an attack on memory)."""


def width(environ: Mapping[str, str] | None = None, terminal: int | None = None) -> int:
    """The width to print at: COLUMNS if it is a usable number, else the terminal's, else 80.

    rich would take ``COLUMNS=0`` (it prints nothing), ``COLUMNS=100000000`` (it pads every
    line to that) and ``COLUMNS=²`` (it crashes on ``int``), so it is always given this one.
    """
    raw = (os.environ if environ is None else environ).get("COLUMNS")
    if raw is not None:
        # ASCII digits only, and few of them: str.isdigit() accepts '²', int() refuses 5,000 digits
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 4 and int(raw) in WIDTHS else WIDTH
    if terminal is None:
        terminal = _terminal_columns()
    return terminal if terminal in WIDTHS else WIDTH


def _terminal_columns() -> int:
    """The terminal's width, 0 if none: looked for as rich does, so `rulesref myths | less` fits."""
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns
        except (OSError, ValueError):  # not a terminal
            continue
    return 0


def _console() -> _Console:
    """A console for one command's output, at the width the environment asks for now.

    ``markup=False``: a plain string printed by mistake is still never read as markup. The
    height is given too, or rich would read LINES the way it reads COLUMNS.
    """
    return _Console(highlight=False, soft_wrap=False, emoji=False, markup=False, width=width(), height=25)


def _shown(value: object, style: str = "") -> Text:
    """A string from a file, name or argument, as Text: no markup read, no control acting."""
    return Text(visible(str(value)), style=style)


def _body(value: str, style: str = "") -> Text:
    """Like ``_shown`` for text that is meant to run over lines (a clause, a drawing)."""
    return Text(visible(value, keep="\n"), style=style)


def _pages(pages: Sequence[int]) -> str:
    return ("p. " if len(pages) == 1 else "pp. ") + ", ".join(str(p) for p in pages)


def answer(a: Answer) -> None:
    out = _console()
    if not a.hits:
        message = a.message or "no clause matches this question well"
        out.print(_shown(message[0].upper() + message[1:] + ".", "bold"))
        if a.covers:  # a part of the game the packs leave out: say what they do cover
            out.print(_shown(a.covers[0].upper() + a.covers[1:] + "."))
        if a.suggestions:
            out.print(Text("Nearest topics: ").append(_shown("; ".join(a.suggestions))))
        if not a.covers:
            out.print("Try other words, or `rulesref page N` to browse a page.")
        return
    top = a.hits[0]
    c = top.clause
    if top.misreading:
        out.print(
            Panel(
                Text.assemble(
                    ("That is a common misreading.", "bold"),
                    "\n",
                    ("Claim:", "dim"),
                    " ",
                    _shown(top.misreading.claim),
                    "\n",
                    ("Correction:", "bold"),
                    " ",
                    _shown(top.misreading.correction),
                ),
                border_style="red",
                title="misreading",
                title_align="left",
            )
        )
    body = [_body(c.text)]
    if c.kind == "open":
        body.insert(0, Text("Not settled by the printed pages: this is an open question.", style="bold yellow"))
    out.print(
        Panel(
            Group(*body),
            title=Text.assemble(_shown(c.title, "bold")),  # bold on the words, not the padding
            subtitle=_shown(f"{c.id} · {_pages(c.pages)} · {c.game}"),
            subtitle_align="right",
            title_align="left",
            border_style="yellow" if c.kind == "open" else "green",
        )
    )
    rest = a.hits[1:]
    if rest:
        out.print(Text("Also relevant:", style="dim"))
        for h in rest:
            line = Text("  • ").append(_shown(h.clause.title))
            out.print(line.append(" ").append(_shown(f"({h.clause.id}, {_pages(h.clause.pages)})", "dim")))
    if c.see:
        out.print(Text.assemble(("See also:", "dim"), " ", _shown(", ".join(c.see))))


_TAGS = {
    "R": "rule text",
    "FAQ": "the official FAQ",
    "D": "a designer's answer",
    "C": "a community answer",
    "Old": "a first-edition ruling",
}


def _reference(ref: str) -> str:
    """A ``source:`` reference in words: where in the shared sources a clause rests."""
    import re

    if m := re.fullmatch(r"(\d{3}):(\d+)(?:-(\d+))?", ref):
        lines = f"lines {m[2]}-{m[3]}" if m[3] else f"line {m[2]}"
        return f"source page {m[1]}, {lines} ({ref})"
    if m := re.fullmatch(r"hvda:(rule|open) (\d+)", ref):
        return f"{'rules table, row' if m[1] == 'rule' else 'open question'} {m[2]} ({ref})"
    if m := re.fullmatch(r"pacg:\s*(.+?)\s+\[(\w+)\]", ref):
        return f"PACG notes, {m[1]}: {_TAGS.get(m[2], m[2])} ({ref})"
    return ref


def clause(game: Game, c: Clause) -> None:
    lines: list[Any] = [_body(c.text)]
    if c.kind == "open":
        lines.insert(0, Text("Not settled by the printed pages: this is an open question.", style="bold yellow"))
    if c.page_note:
        lines.append(_shown(f"Page note: {c.page_note}", "dim"))
    if c.source:
        lines.append(_shown("Rests on: " + "; ".join(_reference(ref) for ref in c.source) + ".", "dim"))
    for s in c.see:
        if s in game.clauses:
            lines.append(_shown(f"See {s}: {game.clauses[s].title} ({_pages(game.clauses[s].pages)})", "dim"))
    for m in c.misreadings:
        lines.append(
            Text.assemble(
                ("Misreading: ", "bold red"), _shown(m.claim), ("\n  Correction: ", "bold"), _shown(m.correction)
            )
        )
    _console().print(
        Panel(
            Group(*lines),
            title=Text.assemble(_shown(c.title, "bold")),  # bold on the words, not the padding
            subtitle=_shown(f"{c.id} · {_pages(c.pages)} · {game.title}"),
            subtitle_align="right",
            title_align="left",
        )
    )


def page(number: int, found: Sequence[tuple[Game, Clause]]) -> None:
    from rich.table import Table

    out = _console()
    if not found:
        out.print(f"No clause cites page {number}.")
        return
    table = Table("id", "title", "pages", "game", title=f"Clauses citing page {number}", title_justify="left")
    for g, c in found:
        table.add_row(_shown(c.id), _shown(c.title), ", ".join(map(str, c.pages)), _shown(g.id))
    out.print(table)


def games(found: Sequence[Game]) -> None:
    from rich.table import Table

    table = Table("id", "title", "aliases", "pages", "clauses", "readings")
    for g in found:
        table.add_row(
            _shown(g.id),
            _shown(g.title),
            _shown(", ".join(g.aliases)),
            f"{g.pages[0]}-{g.pages[1]}",
            str(len(g.clauses)),
            str(len(g.readings)),
        )
    out = _console()
    out.print(table)
    for g in found:
        if g.covers:
            out.print(Text.assemble((g.id, "bold"), " covers ", _shown(g.covers), "."))
        if g.leaves_out:
            out.print(Text("  Not covered: ").append(_shown("; ".join(t.topic for t in g.leaves_out) + ".")))


def myths(found: Sequence[tuple[Game, Misreading]]) -> None:
    out = _console()
    for g, m in found:
        c = g.clauses[m.clause]
        out.print(Text.assemble(("✗", "bold red"), " ", _shown(m.claim)))
        where = _shown(f"({m.clause}, {_pages(c.pages)}, {g.id})", "dim")
        out.print(Text.assemble("  ", ("✓", "bold"), " ", _shown(m.correction), " ", where))


def readings(found: Sequence[Reading]) -> None:
    out = _console()
    for r in found:
        around = _shown(f"({r.game}; open question {r.open}; around {', '.join(r.clauses)})", "dim")
        out.print(Text.assemble(_shown(r.id, "bold"), " ", around))
        out.print(Text.assemble("  ", _shown(r.question)))
        for o in r.options:
            mark = Text.assemble(" ", ("(default)", "green")) if o.id == r.default else ""
            out.print(Text.assemble("    ", _shown(o.id), mark, ": ", _shown(o.says)))
        if r.default is None:
            no_default = "no default: a ruling that hits this question is undetermined unless you choose"
            out.print(Text.assemble("    ", (no_default, "yellow")))


_VERDICT_STYLE = {"legal": "bold green", "illegal": "bold red", "undetermined": "bold yellow"}


def rulings(found: Sequence[Ruling], *, full: bool | None = None) -> None:
    """Each ruling in full for a few files; one line each (and a tally) for many."""
    if full if full is not None else len(found) <= FULL_UP_TO:
        out = _console()
        for r in found:
            ruling(r, out)
        return
    brief(found)


FULL_UP_TO = 5
"""Up to this many rulings are shown in full; more are listed one line each."""
STEPS_SHOWN = 200
"""A ruling's text view shows at most this many steps: the first ones and STEPS_AT_END of
the last, with a line saying how many are left out (a table of thousands takes seconds to
lay out, and nobody at a table reads it); --json has them all."""
STEPS_AT_END = 20


def brief(found: Sequence[Ruling]) -> None:
    # One Text printed once: a thousand separate prints would cost seconds.
    out = Text()
    tally: dict[str, int] = {}
    failed = 0
    for r in found:
        tally[r.verdict.value] = tally.get(r.verdict.value, 0) + 1
        mark = " " if r.expect is None else ("✓" if r.expect.ok else "✗")
        out.append(f"{mark} ", style="green" if mark == "✓" else "bold red")
        out.append(f"{r.verdict.value.upper():<12}", style=_VERDICT_STYLE[r.verdict.value])
        out.append(visible(r.title))
        out.append(visible(f"  {r.file} · {_pages(r.pages) if r.pages else 'no pages'}") + "\n", style="dim")
        if r.expect is not None and not r.expect.ok:
            failed += 1
            for m in r.expect.mismatches:
                out.append(visible(f"      expect: {m}") + "\n", style="red")
    counts = ", ".join(f"{n} {v}" for v, n in sorted(tally.items()))
    out.append(f"{len(found)} rulings: {counts}", style="bold")
    if any(r.expect is not None for r in found):
        out.append(
            f"; {failed} expectation(s) failed" if failed else "; every expectation held",
            style="bold red" if failed else "bold green",
        )
    _console().print(out)


def ruling(r: Ruling, out: Console | None = None) -> None:
    from rich.table import Table

    from rulesref.games import engine_for, find_game

    head = Text.assemble((r.verdict.value.upper(), _VERDICT_STYLE[r.verdict.value]), "  ", _shown(r.title, "bold"))
    parts: list[Any] = [_body(r.summary)]
    drawing = getattr(engine_for(find_game(r.game)), "draw", None)
    picture = drawing(r) if drawing else None
    if picture:
        parts.append(_body(picture, "cyan"))
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(justify="right", style="dim")
    table.add_column()
    table.add_column(style="dim")
    steps: list[tuple[int, Step | None]] = list(enumerate(r.steps, 1))
    if len(steps) > STEPS_SHOWN:  # a track of 10,000 Event Spaces: the start and the end say it
        cut = len(steps) - STEPS_SHOWN
        steps = [*steps[: STEPS_SHOWN - STEPS_AT_END], (0, None), *steps[-STEPS_AT_END:]]
    for i, s in steps:
        if s is None:
            table.add_row("…", _body(f"{cut:,} more steps (--json lists every one)"), "")
            continue
        basis = "" if s.basis.value == "rule" else (f" [reading {s.reading}]" if s.reading else " [not settled]")
        table.add_row(str(i), _body(s.says + basis), _shown(f"{s.clause} {_pages(s.pages)}"))
    parts.append(table)
    if r.claims:
        for c in r.claims:
            verdict = {True: "upheld", False: "rejected", None: "not settled"}[c.upheld]
            parts.append(_body(f"{c.by} said {c.says}: {verdict}"))
    if r.expect is not None:
        parts.append(
            Text("expect: ok", style="green")
            if r.expect.ok
            else _body("expect FAILED: " + "; ".join(r.expect.mismatches), "bold red")
        )
    (out or _console()).print(
        Panel(
            Group(*parts),
            title=head,
            title_align="left",
            subtitle=_shown(f"{r.file} · {_pages(r.pages) if r.pages else ''}"),
            subtitle_align="right",
        )
    )
