"""Text for people: the only module that imports rich.

Each function takes a value the library returned and prints it. JSON output does not
come through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:  # types only: `ask` must not pay for importing what it does not show
    from rulesref.corpus import Clause, Game, Misreading, Reading
    from rulesref.lookup import Answer
    from rulesref.ruling import Ruling


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich turns a closed pipe (`rulesref myths | head`) into exit 1, which here means
        # "an expectation failed"; let the CLI handle it as the quiet exit it is
        raise BrokenPipeError


console = _Console(highlight=False, soft_wrap=False, emoji=False)  # no ":name:" codes in rules; skips a big import


def _pages(pages: Sequence[int]) -> str:
    return ("p. " if len(pages) == 1 else "pp. ") + ", ".join(str(p) for p in pages)


def answer(a: Answer) -> None:
    if not a.hits:
        message = a.message or "no clause matches this question well"
        console.print(f"[bold]{escape(message[0].upper() + message[1:])}.[/]")
        if a.suggestions:
            console.print("Nearest topics: " + "; ".join(escape(s) for s in a.suggestions))
        console.print("Try other words, or `rulesref page N` to browse a page.")
        return
    top = a.hits[0]
    c = top.clause
    if top.misreading:
        console.print(
            Panel(
                f"[bold]That is a common misreading.[/]\n[dim]Claim:[/] {escape(top.misreading.claim)}\n"
                f"[bold]Correction:[/] {escape(top.misreading.correction)}",
                border_style="red",
                title="misreading",
                title_align="left",
            )
        )
    body = [Text(c.text)]
    if c.kind == "open":
        body.insert(0, Text("Not settled by the printed pages: this is an open question.", style="bold yellow"))
    console.print(
        Panel(
            Group(*body),
            title=f"[bold]{escape(c.title)}[/]",
            subtitle=f"{c.id} · {_pages(c.pages)} · {c.game}",
            subtitle_align="right",
            title_align="left",
            border_style="yellow" if c.kind == "open" else "green",
        )
    )
    rest = a.hits[1:]
    if rest:
        console.print("[dim]Also relevant:[/]")
        for h in rest:
            console.print(f"  • {escape(h.clause.title)} [dim]({h.clause.id}, {_pages(h.clause.pages)})[/]")
    if c.see:
        console.print("[dim]See also:[/] " + ", ".join(c.see))


def clause(game: Game, c: Clause) -> None:
    lines: list[Any] = [Text(c.text)]
    if c.kind == "open":
        lines.insert(0, Text("Not settled by the printed pages: this is an open question.", style="bold yellow"))
    if c.page_note:
        lines.append(Text(f"Page note: {c.page_note}", style="dim"))
    for s in c.see:
        if s in game.clauses:
            lines.append(Text(f"See {s}: {game.clauses[s].title} ({_pages(game.clauses[s].pages)})", style="dim"))
    for m in c.misreadings:
        lines.append(Text.assemble(("Misreading: ", "bold red"), m.claim, ("\n  Correction: ", "bold"), m.correction))
    console.print(
        Panel(
            Group(*lines),
            title=f"[bold]{escape(c.title)}[/]",
            subtitle=f"{c.id} · {_pages(c.pages)} · {game.title}",
            subtitle_align="right",
            title_align="left",
        )
    )


def page(number: int, found: Sequence[tuple[Game, Clause]]) -> None:
    from rich.table import Table

    if not found:
        console.print(f"No clause cites page {number}.")
        return
    table = Table("id", "title", "pages", "game", title=f"Clauses citing page {number}", title_justify="left")
    for g, c in found:
        table.add_row(c.id, escape(c.title), ", ".join(map(str, c.pages)), g.id)
    console.print(table)


def games(found: Sequence[Game]) -> None:
    from rich.table import Table

    table = Table("id", "title", "aliases", "pages", "clauses", "readings")
    for g in found:
        table.add_row(
            g.id,
            escape(g.title),
            ", ".join(g.aliases),
            f"{g.pages[0]}-{g.pages[1]}",
            str(len(g.clauses)),
            str(len(g.readings)),
        )
    console.print(table)


def myths(found: Sequence[tuple[Game, Misreading]]) -> None:
    for g, m in found:
        c = g.clauses[m.clause]
        console.print(f"[bold red]✗[/] {escape(m.claim)}")
        console.print(f"  [bold]✓[/] {escape(m.correction)} [dim]({m.clause}, {_pages(c.pages)}, {g.id})[/]")


def readings(found: Sequence[Reading]) -> None:
    for r in found:
        console.print(f"[bold]{r.id}[/] [dim]({r.game}; open question {r.open}; around {', '.join(r.clauses)})[/]")
        console.print(f"  {escape(r.question)}")
        for o in r.options:
            mark = " [green](default)[/]" if o.id == r.default else ""
            console.print(f"    {o.id}{mark}: {escape(o.says)}")
        if r.default is None:
            console.print(
                "    [yellow]no default: a ruling that hits this question is undetermined unless you choose[/]"
            )


_VERDICT_STYLE = {"legal": "bold green", "illegal": "bold red", "undetermined": "bold yellow"}


def rulings(found: Sequence[Ruling], *, full: bool | None = None) -> None:
    """Each ruling in full for a few files; one line each (and a tally) for many."""
    if full if full is not None else len(found) <= FULL_UP_TO:
        for r in found:
            ruling(r)
        return
    brief(found)


FULL_UP_TO = 5
"""Up to this many rulings are shown in full; more are listed one line each."""


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
        out.append(r.title)
        out.append(f"  {r.file} · {_pages(r.pages) if r.pages else 'no pages'}\n", style="dim")
        if r.expect is not None and not r.expect.ok:
            failed += 1
            for m in r.expect.mismatches:
                out.append(f"      expect: {m}\n", style="red")
    counts = ", ".join(f"{n} {v}" for v, n in sorted(tally.items()))
    out.append(f"{len(found)} rulings: {counts}", style="bold")
    if any(r.expect is not None for r in found):
        out.append(
            f"; {failed} expectation(s) failed" if failed else "; every expectation held",
            style="bold red" if failed else "bold green",
        )
    console.print(out)


def ruling(r: Ruling) -> None:
    from rich.table import Table

    from rulesref.games import engine_for, find_game

    head = Text.assemble((r.verdict.value.upper(), _VERDICT_STYLE[r.verdict.value]), "  ", (r.title, "bold"))
    parts: list[Any] = [Text(r.summary)]
    drawing = getattr(engine_for(find_game(r.game)), "draw", None)
    picture = drawing(r) if drawing else None
    if picture:
        parts.append(Text(picture, style="cyan"))
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(justify="right", style="dim")
    table.add_column()
    table.add_column(style="dim")
    for i, s in enumerate(r.steps, 1):
        basis = "" if s.basis.value == "rule" else (f" [reading {s.reading}]" if s.reading else " [not settled]")
        table.add_row(str(i), Text(s.says + basis), f"{s.clause} {_pages(s.pages)}")
    parts.append(table)
    if r.claims:
        for c in r.claims:
            verdict = {True: "upheld", False: "rejected", None: "not settled"}[c.upheld]
            parts.append(Text(f"{c.by} said {c.says}: {verdict}"))
    if r.expect is not None:
        parts.append(
            Text("expect: ok", style="green")
            if r.expect.ok
            else Text("expect FAILED: " + "; ".join(r.expect.mismatches), style="bold red")
        )
    console.print(
        Panel(
            Group(*parts),
            title=head,
            title_align="left",
            subtitle=f"{r.file} · {_pages(r.pages) if r.pages else ''}",
            subtitle_align="right",
        )
    )
