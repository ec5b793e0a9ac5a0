"""Text for people: the only module that imports rich.

Each view takes a value the library returned and lays it out as lines at the width the
terminal has (32 to 200 columns and beyond): words wrap at spaces, continuation lines hang
under the text they continue, and an id or a page reference is kept whole on one line
(wrapped as a unit, never cut; one longer than the whole line runs over it rather than
being cut). There are no boxes: a box costs four columns and cut ids at the edge.

The lines are shown one of three ways: plain text (a pipe, a file, ``--color never``,
NO_COLOR), styled on a terminal (or ``--color always``), or through a pager when they are
longer than the terminal. Styles are a handful of SGR escapes on a POSIX terminal and rich
on Windows, so a cold ``ask`` imports rich only there. Every string from a file, a name
or an argument goes through ``visible`` (its controls as escapes) before it is laid out,
and rich is only ever given Text, never markup: a clause titled ``[/]`` or a file named
``[link=...].yaml`` prints as it is spelt.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, NamedTuple, ParamSpec

from rulesref.errors import RulesrefError, shorten
from rulesref.text import cells, visible, whole_number

if TYPE_CHECKING:  # types only: `ask` must not pay for importing what it does not show
    from rich.console import Console

    from rulesref.corpus import Clause, Game, Misreading, Reading
    from rulesref.lookup import Answer, Hit
    from rulesref.ruling import Ruling, RulingStep


WIDTH = 80
"""The width used when COLUMNS (or the terminal) gives none that can be used."""
WIDTHS = range(20, 1001)
"""Widths taken as given: narrower cannot show a line of words, wider is a typo (or an attack on memory)."""
RELATED = 3
"""An answer shows at most this many related lines (``--full`` shows every one)."""
SHORT_LINES = 2
"""``--short`` is one sentence and its page, at most this many lines at 80 columns."""
STATE_LINES = 6
"""A ruling's text view shows at most this many lines of what changed (--json has the whole state)."""


def width(environ: Mapping[str, str] | None = None, terminal: int | None = None) -> int:
    """The width to print at: COLUMNS if it is a usable number, else the terminal's, else 80.

    rich would take ``COLUMNS=0`` (it prints nothing), ``COLUMNS=100000000`` (it pads every
    line to that) and ``COLUMNS=²`` (it crashes on ``int``), so it is always given this one.
    """
    raw = (os.environ if environ is None else environ).get("COLUMNS")
    if raw is not None:
        given = whole_number(raw, 4)
        return given if given is not None and given in WIDTHS else WIDTH
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


# --- how the lines are shown: plain, styled, paged ------------------------------------

COLORS = ("auto", "always", "never")
_options: dict[str, Any] = {"color": "auto", "pager": True}


def configure(*, color: str | None = None, pager: bool | None = None) -> None:
    """The CLI's choices for this run: ``--color auto|always|never``, and whether a pager may be used."""
    if color is not None:
        if color not in COLORS:
            raise RulesrefError(f"expected one of {', '.join(COLORS)}, got {shorten(color, 40)!r}", field="--color")
        _options["color"] = color
    if pager is not None:
        _options["pager"] = pager


def reset() -> None:
    """The choices as before any run (the CLI resets them after each, so a caller in the same
    process, a test or a server, does not inherit a run's ``--color always``)."""
    _options.update(color="auto", pager=True)


def styled() -> bool:
    """Whether to colour: ``--color always``; never for ``never``; for ``auto``, on a terminal
    unless NO_COLOR is set (https://no-color.org) or the terminal is a dumb one."""
    choice = _options["color"]
    if choice != "auto":
        return bool(choice == "always")
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _isatty()


def _isatty() -> bool:
    try:
        return bool(sys.stdout.isatty())
    except (AttributeError, ValueError, OSError):  # no stdout, or a closed one
        return False


class _Part(NamedTuple):
    text: str
    style: str = ""
    whole: bool = False
    """Kept on one line (an id, ``pp. 10, 25``): wrapped as a unit, never broken inside."""
    glued: bool = False
    """Written straight after what comes before it, with no space or line break between
    (the ``;`` after a count, the ``)`` after a list)."""


Span = tuple[str, str]
P = ParamSpec("P")


def _w(text: object, style: str = "") -> _Part:
    """Words that wrap at their spaces (shown through ``visible``)."""
    return _Part(visible(str(text)), style)


def _a(text: object, style: str = "") -> _Part:
    """An id, a page reference: kept whole on one line."""
    return _Part(visible(str(text)), style, True)


def _g(text: object, style: str = "") -> _Part:
    """Words whose first one is glued to what comes before (no space, no break)."""
    return _Part(visible(str(text)), style, False, True)


class _Lines:
    """Lines of styled spans laid out at one width, shown at the end (``show``)."""

    def __init__(self, at: int | None = None) -> None:
        self.width = at or width()
        self.lines: list[list[Span]] = []

    def blank(self) -> None:
        if self.lines and self.lines[-1]:
            self.lines.append([])

    def verbatim(self, text: str, style: str = "") -> None:
        """A drawing: its lines as they are (controls escaped), never wrapped."""
        for line in text.split("\n"):
            self.lines.append([(visible(line), style)])

    def body(self, text: str, style: str = "", indent: int = 0) -> None:
        """Text meant to run over lines (a clause): each of its paragraphs wrapped."""
        for piece in text.split("\n"):
            self.para(_w(piece, style), indent=indent)

    def para(self, *parts: _Part, indent: int = 0, lead: str = "", lead_style: str = "") -> None:
        """Words wrapped at the width; continuation lines hang under the first word (after ``lead``)."""
        hang = indent + cells(lead)
        room = max(self.width - hang, 1)
        tokens: list[list[Span]] = []  # each a unit that is never broken: a word, an id, glued spans
        for p in parts:
            words = [p.text] if p.whole and cells(p.text) <= room else p.text.split()
            for i, word in enumerate(words):
                if i == 0 and p.glued and tokens:
                    tokens[-1].append((word, p.style))
                else:
                    tokens.append([(word, p.style)])
        line: list[Span] = [(" " * indent + lead, lead_style)] if indent or lead else []
        used = hang
        fresh = True  # nothing but the indent on this line yet
        for token in tokens:
            size = sum(cells(text) for text, _ in token)
            if not fresh and used + 1 + size > self.width:
                self.lines.append(line)
                line, used, fresh = [(" " * hang, "")], hang, True
            if not fresh:
                line.append((" ", token[0][1] if line[-1][1] == token[0][1] else ""))
                used += 1
            line += token
            used += size
            fresh = False
        if not fresh or lead:
            self.lines.append(line)

    def plain(self) -> str:
        return "".join("".join(text for text, _ in line).rstrip() + "\n" for line in self.lines)

    def show(self) -> None:
        """Print the lines: through a pager when long on a terminal, styled or plain."""
        pager = _pager() if _options["pager"] and len(self.lines) > _terminal_lines() and _isatty() else None
        colour = styled()
        if pager is not None:
            _page_through(pager, (self._rich_text() if _RICH_CONSOLE else self.ansi()) if colour else self.plain())
        elif colour and _RICH_CONSOLE:
            self._console().print(self._text())
        else:
            sys.stdout.write(self.ansi() if colour else self.plain())

    def ansi(self) -> str:
        """The lines with their styles as SGR escapes: all a POSIX terminal needs for bold,
        dim and four colours, without importing rich (a fifth of a cold start)."""
        from itertools import groupby

        out = []
        for line in self.lines:
            for style, spans in groupby(line, key=lambda span: span[1]):  # one escape per run of a style
                text = "".join(t for t, _ in spans)
                codes = ";".join(_SGR[word] for word in style.split() if word in _SGR)
                out.append(f"\x1b[{codes}m{text}\x1b[0m" if codes and text.strip() else text)
            out.append("\n")
        return "".join(out)

    def _text(self) -> Any:
        from rich.text import Text

        out = Text()
        for line in self.lines:
            for text, style in line:
                out.append(text, style=style or None)
            out.append("\n")
        out.rstrip()
        return out

    def _console(self, file: Any = None) -> Console:
        from rich.console import Console

        class _Console(Console):
            def on_broken_pipe(self) -> None:
                # rich turns a closed pipe (`rulesref myths | head`) into exit 1, which here means
                # "an expectation failed"; let the CLI handle it as the quiet exit it is
                raise BrokenPipeError

        # the lines are laid out already: rich only styles them (soft_wrap: it wraps nothing);
        # no_color=False, since --color always means colour whatever NO_COLOR says
        return _Console(
            file=file,
            highlight=False,
            soft_wrap=True,
            emoji=False,
            markup=False,
            width=self.width,
            height=25,
            force_terminal=True,
            no_color=False,
        )

    def _rich_text(self) -> str:
        import io

        buffer = io.StringIO()
        self._console(buffer).print(self._text())
        return buffer.getvalue()


_SGR = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
"""The styles the views use, as SGR parameters."""
_RICH_CONSOLE = os.name == "nt"
"""Whether styled text goes through rich: on Windows, whose consoles it knows how to drive
(the legacy console takes no escapes); a POSIX terminal gets the escapes directly."""


def _terminal_lines() -> int:
    try:
        return os.get_terminal_size(sys.stdout.fileno()).lines or 25
    except (OSError, ValueError, AttributeError):
        return 25


PAGERS = ("RULESREF_PAGER", "PAGER")
"""Where the pager command is read from, first first; with neither set, ``less`` if it is there."""


def _pager(environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The pager command, or None for none. The variables are untrusted: a value that is not
    a command line, or names no program on PATH, is a RulesrefError naming the variable.
    Set and empty (or ``cat``) means no pager, as git reads it."""
    import shlex
    import shutil

    env = os.environ if environ is None else environ
    for name in PAGERS:
        raw = env.get(name)
        if raw is None:
            continue
        try:
            argv = shlex.split(raw)
        except ValueError as exc:
            raise RulesrefError(f"cannot be read as a command line ({exc})", field=name) from None
        if not argv or argv == ["cat"]:
            return None
        found = shutil.which(argv[0])
        if found is None:
            raise RulesrefError(
                f"{shorten(argv[0], 80)!r} is not a program on PATH",
                field=name,
                hint="set it to a pager such as 'less', or to '' for none",
            )
        return [found, *argv[1:]]
    less = shutil.which("less")
    return [less] if less else None


def _page_through(argv: list[str], text: str) -> None:
    """Show ``text`` through the pager; quitting it early is not an error."""
    import subprocess

    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX")}  # R: colours; F: one screen just prints
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, env=env)
    except OSError as exc:
        raise RulesrefError(
            f"cannot run the pager {shorten(argv[0], 80)!r}: {exc.strerror or exc}", field="PAGER"
        ) from None
    assert proc.stdin is not None
    try:
        proc.stdin.write(text.encode(encoding, "backslashreplace"))
        proc.stdin.close()
    except BrokenPipeError:  # the reader quit the pager before the end
        pass
    while True:
        try:
            proc.wait()
            return
        except KeyboardInterrupt:  # Ctrl-C is the pager's to handle (less stays open)
            continue


# --- shared pieces ------------------------------------------------------------------


def _pages(pages: Sequence[int]) -> str:
    if not pages:
        return "no pages"
    return ("p. " if len(pages) == 1 else "pp. ") + ", ".join(str(p) for p in pages)


def _page_words(pages: Sequence[int], inferred: Sequence[int]) -> list[str]:
    """``pp. 10, 25`` as one unit, led by ``inferred`` where the sources give the fact
    without a page (Clause.pages_inferred), or followed by ``(p. 25 inferred)`` where only
    some pages are, so a page is never passed off as printed."""
    if not inferred:
        return [_pages(pages)]
    if set(pages) <= set(inferred):
        return ["inferred", _pages(pages)]
    return [_pages(pages), f"({_pages(inferred)} inferred)"]


def _where(
    pages: Sequence[int], inferred: Sequence[int], before: str = "", after: str = "", style: str = "dim"
) -> list[_Part]:
    """``_page_words`` as units a narrow line may break between, ``before`` and ``after`` attached."""
    words = _page_words(pages, inferred)
    words[0] = before + words[0]
    words[-1] += after  # the same unit when there is one
    return [_a(w, style) for w in words]


def _said_pages(pages: Sequence[int], inferred: Sequence[int]) -> str:
    """``_page_words`` as one string, for a line that must stay short (``--short``)."""
    return " ".join(_page_words(pages, inferred))


def _cite(cid: str, pages: Sequence[int], game: str | None = None, inferred: Sequence[int] = ()) -> list[_Part]:
    """``(id, pp. 10, 25)``, or ``(id, p. 9, game)``: the id and the page reference each kept
    whole, so a narrow line breaks between them, never inside one."""
    if game is None:
        return [_a(f"({cid},", "dim"), *_where(pages, inferred, after=")")]
    return [_a(f"({cid},", "dim"), *_where(pages, inferred, after=","), _a(f"{game})", "dim")]


def _ids(ids: Sequence[str], style: str = "") -> list[_Part]:
    """Ids separated by commas, each kept whole with its comma."""
    return [_a(x + ("," if i < len(ids) - 1 else ""), style) for i, x in enumerate(ids)]


def _view(draw: Callable[Concatenate[_Lines, P], None]) -> Callable[P, None]:
    """A view: ``draw`` lays its lines out on a fresh ``_Lines``, and they are shown when it returns."""

    @functools.wraps(draw)
    def view(*args: P.args, **kwargs: P.kwargs) -> None:
        out = _Lines()
        draw(out, *args, **kwargs)
        out.show()

    return view


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _open_note(out: _Lines) -> None:
    out.para(_w("Not settled by the printed pages: this is an open question.", "bold yellow"))


# --- ask ------------------------------------------------------------------------------


@_view
def answer(out: _Lines, a: Answer, *, view: str = "answer", quiet: bool = False) -> None:
    """The answer first: title, the clause text, printed page and game; then at most RELATED
    lines from the same game (``full``: every hit and every see-also; ``quiet``: none;
    ``short``: one sentence to read aloud)."""
    if not a.hits:
        _miss(out, a, quiet or view == "short")
        return
    top = a.hits[0]
    if view == "short":  # one sentence to read aloud, and its page: at most SHORT_LINES lines at 80 columns
        out.para(
            _w(short_sentence(top), "bold"),
            _a(
                f"({_said_pages(top.clause.pages, top.clause.pages_inferred)}; {top.clause.id})",
                "dim",
            ),
        )
        return
    c = top.clause
    if top.misreading:
        out.para(_w("A common misreading:", "bold red"))  # the question may state the rule: no verdict on it
        out.para(_w("Claim:", "dim"), _w(top.misreading.claim), indent=2)
        out.para(_w("Correction:", "bold"), _w(top.misreading.correction), indent=2)
        out.blank()
    out.para(_w(c.title, "bold green" if c.kind != "open" else "bold yellow"))
    if c.kind == "open":
        _open_note(out)
    out.body(c.text)
    out.para(_a(c.id, "dim"), *_where(c.pages, c.pages_inferred, "· "), _a(f"· {c.game}", "dim"))
    if quiet:
        return
    rest = list(a.hits[1:])
    games = {h.clause.game for h in a.hits}
    if view != "full":
        rest = rest[:RELATED]
    if rest:
        out.para(_w("Also relevant:", "dim"))
        for h in rest:
            named = h.clause.game if len(games) > 1 else None
            out.para(
                _w(h.clause.title),
                *_cite(h.clause.id, h.clause.pages, named, h.clause.pages_inferred),
                indent=2,
                lead="• ",
            )
    listed = {h.clause.id for h in a.hits}
    see = [s for s in c.see if view == "full" or s not in listed]
    if see and (view == "full" or len(rest) < RELATED):
        out.para(_w("See also:", "dim"), *_ids(see, "dim"))


def short_sentence(top: Hit) -> str:
    """What ``--short`` reads aloud: the correction of a misreading the question repeats,
    else the clause's title (one line stating the rule), as a sentence. Never "No:": a
    question that only sounds like a misreading may state the rule, and the correction is
    true either way, where a "No" read aloud to a true rule is the one wrong thing said."""
    c = top.clause
    if top.misreading:
        first = _first_sentence(top.misreading.correction)
        return first if cells(first) <= 100 else _sentence(c.title)
    title = _sentence(c.title)
    if c.kind != "open" or "settled" in title:
        return title
    return "Not settled by the rules: " + (title.removeprefix("Open ") if title.startswith("Open wh") else title)


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if text.endswith((".", "?", "!")) else text + "."


def _first_sentence(text: str) -> str:
    found = re.match(r"(.+?[.!?])(\s|$)", " ".join(text.split()))
    return found.group(1) if found else _sentence(text)


def _miss(out: _Lines, a: Answer, quiet: bool) -> None:
    message = a.message or "no clause matches this question well"
    out.para(_w(_capital(message) + ".", "bold"))
    if quiet:
        return
    if a.covers:  # a part of the game the packs leave out: say what they do cover
        out.para(_w(_capital(a.covers) + "."))
    if a.suggestions:
        out.para(_w("Nearest topics:"))
        for sid, title in a.suggestions:
            out.para(_w(title), _a(f"({sid})", "dim"), indent=2, lead="• ")
    if not a.covers:
        out.para(_w("Try other words, or `rulesref page N` to browse a page."))


# --- show, page, games, myths, readings ------------------------------------------------

_TAGS = {
    "R": "rule text",
    "FAQ": "the official FAQ",
    "D": "a designer's answer",
    "C": "a community answer",
    "Old": "a first-edition ruling",
}


def _reference(ref: str) -> str:
    """A ``source:`` reference in words: where in the shared sources a clause rests."""
    if m := re.fullmatch(r"(\d{3}):(\d+)(?:-(\d+))?", ref):
        lines = f"lines {m[2]}-{m[3]}" if m[3] else f"line {m[2]}"
        return f"source page {m[1]}, {lines} ({ref})"
    if m := re.fullmatch(r"hvda:(rule|open) (\d+)", ref):
        return f"{'rules table, row' if m[1] == 'rule' else 'open question'} {m[2]} ({ref})"
    if m := re.fullmatch(r"pacg:\s*(.+?)\s+\[(\w+)\]", ref):
        return f"PACG notes, {m[1]}: {_TAGS.get(m[2], m[2])} ({ref})"
    return ref


@_view
def clause(out: _Lines, game: Game, c: Clause) -> None:
    out.para(_w(c.title, "bold"))
    if c.kind == "open":
        _open_note(out)
    out.body(c.text)
    out.para(_a(c.id, "dim"), *_where(c.pages, c.pages_inferred, "· "), _w(f"· {game.title}", "dim"))
    if c.page_note:
        out.para(_w("Page note:", "dim"), _w(c.page_note, "dim"))
    if c.source:
        out.para(_w("Rests on:", "dim"), _w("; ".join(_reference(ref) for ref in c.source) + ".", "dim"))
    _see_and_myths(out, game, c, "See also:")


def _see_and_myths(out: _Lines, game: Game, c: Clause, heading: str) -> bool:
    """The clause's related clauses under ``heading``, then the misreadings it corrects;
    whether there was any of either."""
    see = [s for s in c.see if s in game.clauses]
    if see:
        out.para(_w(heading, "dim"))
        for s in see:
            out.para(
                _w(game.clauses[s].title),
                *_cite(s, game.clauses[s].pages, inferred=game.clauses[s].pages_inferred),
                indent=2,
                lead="• ",
            )
    for m in c.misreadings:
        out.para(_w("Misreading:", "bold red"), _w(m.claim))
        out.para(_w("Correction:", "bold"), _w(m.correction), indent=2)
    return bool(see or c.misreadings)


@_view
def page(out: _Lines, number: int, found: Sequence[tuple[Game, Clause]]) -> None:
    """The clauses citing a page, by game: id, then its title (hanging under the title), then
    its pages. Ids are never cut: at a narrow width the title goes on the lines below the id."""
    if not found:
        out.para(_w(f"No clause cites page {number}."))
        return
    by_game: dict[str, list[tuple[Game, Clause]]] = {}
    for g, c in found:
        by_game.setdefault(g.id, []).append((g, c))
    for rows in by_game.values():
        out.blank()
        out.para(_w(f"{rows[0][0].title}: clauses citing page {number}", "bold"))
        column = max(cells(visible(c.id)) for _, c in rows) + 2
        side_by_side = out.width - column >= 30
        for _, c in rows:
            where = _where(c.pages, c.pages_inferred, "(", ")")
            if side_by_side:
                out.para(_w(c.title), *where, lead=visible(c.id).ljust(column), lead_style="cyan")
            else:
                out.para(_a(c.id, "cyan"))
                out.para(_w(c.title), *where, indent=2)


@_view
def games(out: _Lines, found: Sequence[Game]) -> None:
    for g in found:
        out.blank()
        out.para(_a(g.id, "bold cyan"), _w(g.title, "bold"))
        facts = f"pp. {g.pages[0]}-{g.pages[1]}; {len(g.clauses)} clauses; {len(g.readings)} readings"
        if g.aliases:
            out.para(_w("Aliases:", "dim"), *_ids(g.aliases), indent=2)
        out.para(_w(facts, "dim"), indent=2)
        if g.covers:
            out.para(_w("Covers:", "dim"), _w(g.covers + "."), indent=2)
        if g.leaves_out:
            out.para(_w("Not covered:", "dim"), _w("; ".join(t.topic for t in g.leaves_out) + "."), indent=2)


@_view
def myths(out: _Lines, found: Sequence[tuple[Game, Misreading]]) -> None:
    for g, m in found:
        c = g.clauses[m.clause]
        out.para(_w(m.claim), lead="✗ ", lead_style="bold red")
        out.para(
            _w(m.correction), *_cite(m.clause, c.pages, g.id, c.pages_inferred), indent=2, lead="✓ ", lead_style="bold"
        )


@_view
def readings(out: _Lines, found: Sequence[Reading]) -> None:
    for r in found:
        around = [_a(f"({r.game};", "dim"), _w(f"open question {r.open}; around", "dim"), *_ids(r.clauses, "dim")]
        out.para(_a(r.id, "bold"), *around, _g(")", "dim"))
        out.para(_w(r.question), indent=2)
        for o in r.options:
            mark = [_w("(default)", "green")] if o.id == r.default else []
            out.para(_a(f"{o.id}", "cyan"), *mark, _g(f": {o.says}"), indent=4)
        if r.default is None:
            no_default = "no default: a ruling that hits this question is undetermined unless you choose"
            out.para(_w(no_default, "yellow"), indent=4)


# --- check ----------------------------------------------------------------------------

_VERDICT_STYLE = {"legal": "bold green", "illegal": "bold red", "undetermined": "bold yellow"}


def rulings(found: Sequence[Ruling], *, full: bool | None = None, quiet: bool = False) -> None:
    """Each ruling in full for a few files; one line each (and a tally) for many. ``quiet``:
    only the rulings whose expectation failed, one line each."""
    if quiet:
        failed = [r for r in found if r.expect is not None and not r.expect.ok]
        if failed:
            brief(failed, tally=False)
        return
    if full if full is not None else len(found) <= FULL_UP_TO:
        _rulings(found)
    else:
        brief(found)


FULL_UP_TO = 5
"""Up to this many rulings are shown in full; more are listed one line each."""
STEPS_SHOWN = 200
"""A ruling's text view shows at most this many steps: the first ones and STEPS_AT_END of
the last, with a line saying how many are left out (a table of thousands takes seconds to
lay out, and nobody at a table reads it); --json has them all."""
STEPS_AT_END = 20


@_view
def brief(out: _Lines, found: Sequence[Ruling], *, tally: bool = True) -> None:
    counts: dict[str, int] = {}
    failed = 0
    for r in found:
        counts[r.verdict.value] = counts.get(r.verdict.value, 0) + 1
        mark = " " if r.expect is None else ("✓" if r.expect.ok else "✗")
        out.para(
            _a(f"{r.verdict.value.upper():<12}", _VERDICT_STYLE[r.verdict.value]),
            _w(r.title),
            _a(f"{r.file}", "dim"),
            *_where(deciding_pages(r), _only_inferred(r, deciding=True), "· "),
            *(
                (_a("· by reading " + ", ".join(f"{k}={v}" for k, v in r.turns_on.items()), "yellow"),)
                if r.turns_on
                else ()
            ),
            lead=f"{mark} ",
            lead_style="green" if mark == "✓" else "bold red",
        )
        if r.expect is not None and not r.expect.ok:
            failed += 1
            for m in r.expect.mismatches:
                out.para(_w(f"expect: {m}", "red"), indent=6)
    if tally:
        line = [_w(f"{len(found)} rulings: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())), "bold")]
        if any(r.expect is not None for r in found):
            said = f"; {failed} expectation(s) failed" if failed else "; every expectation held"
            line.append(_g(said, "bold red" if failed else "bold green"))
        out.para(*line)


@_view
def _rulings(out: _Lines, found: Sequence[Ruling]) -> None:
    for r in found:
        _ruling(out, r)


def deciding_pages(r: Ruling) -> tuple[int, ...]:
    """The pages of the steps the verdict rests on, as the ruling marks them (``decides``)."""
    return tuple(sorted({p for s in r.steps if s.decides for p in s.pages}))


def _only_inferred(r: Ruling, *, deciding: bool) -> tuple[int, ...]:
    """The pages no step (of those the verdict rests on, with ``deciding``) cites as printed."""
    steps = [s for s in r.steps if s.decides or not deciding]
    printed = {p for s in steps for p in s.pages if p not in s.pages_inferred}
    return tuple(sorted({p for s in steps for p in s.pages_inferred} - printed))


def _ruling(out: _Lines, r: Ruling) -> None:
    """One ruling in full: verdict, summary, what decided it, what changed, the steps."""
    out.blank()
    out.para(_a(r.verdict.value.upper(), _VERDICT_STYLE[r.verdict.value]), _w(r.title, "bold"))
    out.body(r.summary)
    if r.turns_on:  # the printed rules stop here: say which interpretation the verdict took
        out.para(_w("Rests on readings:", "bold yellow"), *(_a(f"{k}={v}", "yellow") for k, v in r.turns_on.items()))
    if r.moot:
        out.para(
            _w("Also applied, ruling the same under every option:", "dim"),
            *(_a(f"{k}={r.readings[k]}", "dim") for k in r.moot),
        )
    if r.verdict.value != "legal":
        for n, d in enumerate(r.steps, 1):
            if not d.decides:
                continue
            if d.says.strip() in r.summary:  # the summary says it already (an open question)
                out.para(
                    _w(f"Decided by step {n},", "bold"),
                    _a(d.clause, "bold"),
                    *_where(d.pages, d.pages_inferred, after=".", style="bold"),
                )
            else:
                out.para(
                    _w(f"Decided by step {n},", "bold"),
                    _a(d.clause, "bold"),
                    *_where(d.pages, d.pages_inferred, after=":", style="bold"),
                    _w(d.says),
                )
    changes = state_changes(r.situation, r.state)
    if changes:
        shown = changes[:STATE_LINES]
        out.para(_w("Result:", "bold"))
        for line in shown:
            out.para(_w(line), indent=2, lead="• ")
        if len(changes) > len(shown):
            out.para(_w(f"… {len(changes) - len(shown)} more (--json has the whole state)", "dim"), indent=2)
    if r.picture:  # drawn by the engine when the ruling is shown in full (never asked for here)
        out.verbatim(r.picture, "cyan")
    steps: list[tuple[int, RulingStep | None]] = list(enumerate(r.steps, 1))
    cut = 0
    if len(steps) > STEPS_SHOWN:  # a track of 10,000 Event Spaces: the start and the end say it
        cut = len(steps) - STEPS_SHOWN
        steps = [*steps[: STEPS_SHOWN - STEPS_AT_END], (0, None), *steps[-STEPS_AT_END:]]
    number = len(str(len(r.steps)))
    out.para(_w("Steps:", "dim"))
    for i, s in steps:
        if s is None:
            out.para(_w(f"{cut:,} more steps (--json lists every one)"), indent=2, lead="…".rjust(number) + "  ")
            continue
        basis = "" if s.basis.value == "rule" else (f" [reading {s.reading}]" if s.reading else " [not settled]")
        mark = "bold" if s.decides and r.verdict.value != "legal" else ""
        out.para(
            _w(s.says + basis, mark),
            *_cite(s.clause, s.pages, inferred=s.pages_inferred),
            indent=2,
            lead=str(i).rjust(number) + "  ",
            lead_style="dim",
        )
    for c in r.claims:
        verdict = {True: "upheld", False: "rejected", None: "not settled"}[c.upheld]
        out.para(_w(f"{c.by} said {c.says}:"), _w(verdict, "green" if c.upheld else "red" if c.upheld is False else ""))
    if r.expect is not None:
        if r.expect.ok:
            out.para(_w("expect: ok", "green"))
        else:
            out.para(_w("expect FAILED: " + "; ".join(r.expect.mismatches), "bold red"))
    cited = deciding_pages(r)
    foot = [_a(r.file, "dim"), *_where(cited, _only_inferred(r, deciding=True), "· ")]
    if cited != r.pages:
        foot += _where(r.pages, _only_inferred(r, deciding=False), "· every step: ")
    out.para(*foot)


ruling = _view(_ruling)
"""One ruling in full (the guided dispute's, the session's ``check``)."""


_RECORD_KEYS = ("events", "steps")
"""State keys that restate the steps (PACG's walk through them), not a change to show."""


def state_changes(before: Any, after: Any) -> list[str]:
    """What the action changed, one line per thing changed: ``players.dark-arts: hand 3 → 2,
    discard 2 → 3``. Compared leaf by leaf with the situation as read; a value the situation
    did not give is shown when it says something (not false, zero, empty or null)."""
    grouped: dict[str, list[str]] = {}
    for path, value in _leaves(after):
        if path and path[0] in _RECORD_KEYS:
            continue
        old = _get(before, path)
        sep = " " if len(path) > 1 else ": "  # `hand 3 → 2` under its player; `damage: [...]` alone
        if old is _MISSING:
            if value in (None, False, 0, "", []) or value == {}:
                continue
            said = f"{path[-1]}{sep}{_value(value)}"
        elif old == value:
            continue
        else:
            said = f"{path[-1]}{sep}{_value(old)} → {_value(value)}"
        grouped.setdefault(".".join(str(p) for p in path[:-1]), []).append(said)
    return [f"{where}: {', '.join(said)}" if where else ", ".join(said) for where, said in grouped.items()]


_MISSING = object()
_DEEPEST = 8


def _leaves(value: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(path, value) for every leaf of a state; bounded by its size (a list is one leaf) and depth."""
    if isinstance(value, dict) and len(path) < _DEEPEST:
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, str(k)))]
    return [(path, value)] if path else []


def _get(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return _MISSING
        value = value[key]
    return value


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value[:8]) + (", …" if len(value) > 8 else "") + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in list(value.items())[:8]) + "}"
    return shorten(str(value), 80)


# --- the table session (`rulesref play`) and the guided dispute -------------------------


@_view
def picture(out: _Lines, text: str) -> None:
    """A board an engine drew (plain text), as a ruling shows it."""
    out.verbatim(text, "cyan")


@_view
def why(out: _Lines, game: Game, c: Clause) -> None:
    """`why` after an answer: the clauses related to it and the misreadings it corrects."""
    out.para(_w(c.title, "bold"), *_cite(c.id, c.pages, inferred=c.pages_inferred))
    if not _see_and_myths(out, game, c, "Related:"):
        out.para(_w("No related clause or misreading is recorded for it.", "dim"))


@_view
def numbered(out: _Lines, a: Answer) -> None:
    """The results of a question, numbered, so `1`, `2`... shows one in full."""
    for n, h in enumerate(a.hits, 1):
        out.para(
            _w(h.clause.title),
            *_cite(h.clause.id, h.clause.pages, inferred=h.clause.pages_inferred),
            indent=4,
            lead=f"{n:>2}  ",
        )


@_view
def note(out: _Lines, text: str) -> None:
    """A line of the session's own (a hint, what a command needs), dimmed on a terminal."""
    out.para(_w(text, "dim"))
