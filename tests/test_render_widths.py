"""Every view reflows to the width it is given (32 to 200 columns and beyond) and never cuts
an id or a page reference: an id runs over a line rather than being broken, page numbers
stay together, continuation lines hang. `--short` is at most two lines at 80 columns for
every clause. The views are given the library's own values, every clause and every shipped
scenario, so nothing here depends on a particular question's ranking."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rulesref import render
from rulesref.games import all_games
from rulesref.lookup import Answer, Hit

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = [32, 40, 80, 120]


def _pages(pages: tuple[int, ...]) -> str:
    return ("p. " if len(pages) == 1 else "pp. ") + ", ".join(map(str, pages))


def _shown(capsys: pytest.CaptureFixture[str], show, columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    capsys.readouterr()
    show()
    return capsys.readouterr().out


def _assert_fits(out: str, columns: int) -> None:
    """No line is wider than the width, except one holding a single unbreakable unit."""
    for line in out.splitlines():
        if len(line) > columns:
            assert " " not in line.strip(), f"{len(line)} > {columns}: {line!r}"


NARROW = 24
"""A unit longer than this (a long page list, a file name with spaces) may wrap at its own
spaces on a narrow line: each id and each page number still whole."""


def _assert_whole(out: str, *units: str) -> None:
    flowed = " ".join(out.split())
    for unit in units:
        if len(unit) <= NARROW or " " not in unit:
            assert unit in out, f"{unit!r} is cut or missing in:\n{out}"
        else:
            assert unit in flowed, f"{unit!r} is cut or missing in:\n{out}"


@cache
def _clauses() -> list:
    return [(g, c) for g in all_games() for c in g.clauses.values()]


def _answer_for(game, clause) -> Answer:
    """An answer of this clause, its see-also clauses as the related ones, and a hit from the other game."""
    related = [game.clauses[s] for s in clause.see if s in game.clauses]
    other = next(c for g in all_games() if g.id != game.id for c in g.clauses.values())
    hits = (Hit(clause, 0.9), *(Hit(c, 0.5) for c in related[:2]), Hit(other, 0.4))
    return Answer("q", None, hits)


@pytest.mark.parametrize("columns", WIDTHS)
def test_every_answer_keeps_its_ids_and_pages_whole(capsys, monkeypatch, columns: int) -> None:
    for game, clause in _clauses():
        answer = _answer_for(game, clause)
        for view in ("answer", "full"):
            out = _shown(capsys, lambda a=answer, v=view: render.answer(a, view=v), columns, monkeypatch)
            _assert_fits(out, columns)
            shown = answer.hits if view == "full" else answer.hits[: 1 + render.RELATED]
            for h in shown:
                _assert_whole(out, h.clause.id, _pages(h.clause.pages))
            # two games among the lines: each related line names its game
            _assert_whole(out, f"{answer.hits[-1].clause.game})")


@pytest.mark.parametrize("columns", WIDTHS)
def test_every_clause_shown_keeps_its_ids_and_pages_whole(capsys, monkeypatch, columns: int) -> None:
    for game, clause in _clauses():
        out = _shown(capsys, lambda g=game, c=clause: render.clause(g, c), columns, monkeypatch)
        _assert_fits(out, columns)
        _assert_whole(out, clause.id, _pages(clause.pages))
        for s in clause.see:
            _assert_whole(out, s, _pages(game.clauses[s].pages))


@pytest.mark.parametrize("columns", WIDTHS)
def test_every_page_listing_keeps_its_ids_whole(capsys, monkeypatch, columns: int) -> None:
    """`rulesref page 12` once cut `replenish.dark-ar…`, an id the user must then type."""
    from rulesref.library import clauses_on_page

    for game in all_games():
        for number in range(game.pages[0], game.pages[1] + 1):
            found = clauses_on_page(number, game.id)
            out = _shown(capsys, lambda n=number, f=found: render.page(n, f), columns, monkeypatch)
            _assert_fits(out, columns)
            for _, c in found:
                every = set(c.pages) <= set(c.pages_inferred)
                if not c.pages_inferred:
                    _assert_whole(out, c.id, f"({_pages(c.pages)})")
                elif every:
                    _assert_whole(out, c.id, f"{_pages(c.pages)})", "(inferred")
                else:
                    _assert_whole(out, c.id, f"({_pages(c.pages)}", f"({_pages(c.pages_inferred)} inferred))")


@cache
def _rulings() -> list:
    from rulesref.referee import check_many, scenario_files

    files = [p for p, problem in scenario_files([ROOT / "scenarios"]) if problem is None]
    return [r for r in check_many(files) if hasattr(r, "verdict")]


def _without_picture(out: str, ruling) -> str:
    """The text view less the board drawing: a drawing is shown as drawn, not reflowed."""
    from rulesref.games import engine_for, find_game

    picture = getattr(ruling, "picture", None)
    if picture is None:
        draw = getattr(engine_for(find_game(ruling.game)), "draw", None)
        picture = draw(ruling) if draw else None
    drawn = set(picture.splitlines()) if picture else set()
    return "\n".join(line for line in out.splitlines() if line not in drawn)


@pytest.mark.parametrize("columns", WIDTHS)
def test_every_ruling_keeps_its_ids_and_pages_whole(capsys, monkeypatch, columns: int) -> None:
    rulings = _rulings()
    assert len(rulings) > 100
    for r in rulings:
        out = _shown(capsys, lambda r=r: render.ruling(r), columns, monkeypatch)
        _assert_fits(_without_picture(out, r), columns)
        _assert_whole(out, r.verdict.value.upper(), r.file, _pages(render.deciding_pages(r)))
        for s in r.steps[: render.STEPS_SHOWN - render.STEPS_AT_END]:
            _assert_whole(out, s.clause, _pages(s.pages))


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_brief_listing_keeps_file_names_and_pages_whole(capsys, monkeypatch, columns: int) -> None:
    rulings = _rulings()
    out = _shown(capsys, lambda: render.brief(rulings), columns, monkeypatch)
    _assert_fits(out, columns)
    for r in rulings:
        _assert_whole(out, r.file)


def test_continuation_lines_hang_under_their_text(capsys, monkeypatch) -> None:
    game, clause = next((g, c) for g, c in _clauses() if len(c.see) >= 2)
    out = _shown(capsys, lambda: render.answer(_answer_for(game, clause)), 32, monkeypatch)
    lines = out.splitlines()
    start = lines.index("Also relevant:")
    for line in lines[start + 1 :]:
        if not line.startswith("See also"):
            assert line.startswith(("  • ", "    ")), f"a wrapped bullet restarts at column 0: {line!r}"


def test_short_is_at_most_two_lines_at_80_for_every_clause(capsys, monkeypatch) -> None:
    for _, clause in _clauses():
        hits = [Hit(clause, 1.0), *(Hit(clause, 1.0, m) for m in clause.misreadings)]
        for hit in hits:
            out = _shown(capsys, lambda h=hit: render.answer(Answer("q", None, (h,)), view="short"), 80, monkeypatch)
            lines = out.splitlines()
            assert 1 <= len(lines) <= render.SHORT_LINES, out
            assert all(len(line) <= 80 for line in lines), out
            _assert_whole(out, clause.id, _pages(clause.pages))
            assert out.rstrip().endswith(")"), out


def test_a_wide_terminal_puts_a_paragraph_on_one_line(capsys, monkeypatch) -> None:
    game, clause = next((g, c) for g, c in _clauses() if 120 < len(c.text) < 190 and "\n" not in c.text)
    out = _shown(capsys, lambda: render.clause(game, clause), 200, monkeypatch)
    assert " ".join(clause.text.split()) in out.splitlines()
