"""Every printed page a clause cites is one its sources give for what it says.

Two checks. The Replenish, Event Space and Marker clauses cite exactly the pages in
EXACT_PAGES: they once cited pp. 12-13 for facts that source page 003 prints under
pp. 22-23, a slip the shared rules table still carries (its rows 18 and 19). And every page
any clause gives is printed beside one of its `source:` lines, or the clause has a
`page_note:` saying what the page is inferred from.

"Printed beside" is read off the verbatim source pages: each block of lines ends with a
line citing the printed pages ("printed pp. 22-23" on pages 001 and 003, "[pp.10-11, 24]"
on page 000), and a line is printed on the pages of the block it belongs to. The opening
summary of pages 001 and 003 ends with a link to the rulebook that names no page, so it is
printed on none: its facts get their page from the block that states them again, which is
an inference. The PACG facts file has no such lines; what it gives is in PACG_PRINTED.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesref.library import find_clause

ROOT = Path(__file__).resolve().parents[1]
SOURCE_PAGES = ROOT / ".." / "shared" / "sources" / "source-pages"

# clause id -> the printed pages it must cite, with the source lines that give them
EXACT_PAGES: dict[str, tuple[int, ...]] = {
    # 001:6 (actions block, pp. 20-21); 003:1, 003:11 (House Replenish block, pp. 22-23)
    "replenish.dark-arts": (20, 21, 22, 23),
    # 001:6 (pp. 20-21); 003:10, 003:18 (pp. 22-23)
    "replenish.dark-arts-no-discard": (20, 21, 22, 23),
    # 003:13 (pp. 22-23); 003:21, the advance belongs to the House Replenish (pp. 12-13);
    # page 001 says nothing of the Marker for the Dark Arts Replenish
    "replenish.dark-arts-no-advance": (12, 13, 22, 23),
    # 003:11, 003:16 (pp. 22-23)
    "replenish.house-order": (22, 23),
    # 003:10, 003:16 (pp. 22-23)
    "replenish.house-discard": (22, 23),
    # 003:13, 003:19 (pp. 22-23)
    "replenish.house-advance": (22, 23),
    # 003:19 (pp. 22-23)
    "path.event-space": (22, 23),
    # 003:19 (pp. 22-23); p.20 for the House Marker set advance, inferred (page_note)
    "open.event-spaces": (20, 22, 23),
    # 003:21 (pp. 12-13), 000:11 (p.20); the House Replenish advance, pp. 22-23 (page_note)
    "path.marker": (12, 13, 20, 22, 23),
    # 003:21, 003:22 (drawing block, pp. 12-13)
    "draw.no-advance": (12, 13),
    "draw.to-five": (12, 13),
    "draw.reshuffle": (12, 13),
    # 000:11 (p.20)
    "path.house-markers": (20,),
    "bump.marker": (20,),
}

# The PACG facts file (shared sources, pacg-encounter.md) prints no page beside its facts;
# the pages it gives, section by section, come from its §0 and its section headings:
PACG_PRINTED: dict[str, frozenset[int]] = {
    # §1 is headed "Encountering a Card: Overview, rulebook p.8"
    "pacg:goal and who acts": frozenset({8}),
    "pacg:what may be played": frozenset({8}),  # also a forum post quoting p.8 (§0)
    "pacg:immunity": frozenset({8}),
    "pacg:side checks": frozenset({8}),
    "pacg:2": frozenset({9}),  # the step list: a forum post quoting p.9 (§0)
    "pacg:3.5": frozenset({12}),  # Suffer Damage, If Necessary: a forum post quoting p.12
    "pacg:4": frozenset({13}),  # Suffering Damage: a forum post quoting p.13
    # §6 is headed "Playing Cards, rulebook p.7"; its end-of-turn and summon rules come from
    # other sections' pages, so a clause citing §6 for them needs its page_note
    "pacg:6": frozenset({7}),
}
# Source page 002 is the PACG encounter overview, with no page lines: by the facts file's
# §1 it is p.8, and a forum post quoting the book puts its step list (002:15 on) on p.9.
PACG_OVERVIEW_STEP_LIST = 15

# Clauses another change is rewriting (their texts and kinds): a page of theirs that no
# source line gives is listed here until their page notes are added; each must still lack
# one, so this set cannot go stale.

_CITES = re.compile(r"printed pp?\.\s*(\d[\d–, -]*\d|\d)|\[pp?\.\s*(\d[\d–, -]*\d|\d)\]")
_PAGELESS_CLOSE = "based on the publisher"  # the opening summary's link: the rulebook, no page


def _page_numbers(spec: str) -> frozenset[int]:
    """'10-11, 24' -> {10, 11, 24}; the source pages write the range with an en dash."""
    pages: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.strip().replace("–", "-").partition("-")
        pages.update(range(int(first), int(last or first) + 1))
    return frozenset(pages)


def printed_on(lines: list[str]) -> list[frozenset[int]]:
    """For each line of a verbatim source page, the printed pages of the block holding it.

    A block runs to the next line that cites pages (or that closes the opening summary with
    no page), that line included; lines after the last such line are printed on no page.
    """
    out: list[frozenset[int]] = []
    block_start = 0
    for n, line in enumerate(lines, 1):
        out.append(frozenset())
        cited = _CITES.search(line)
        if cited or _PAGELESS_CLOSE in line.lower():
            pages = _page_numbers(cited.group(1) or cited.group(2)) if cited else frozenset()
            out[block_start:] = [pages] * (n - block_start)
            block_start = n
    return out


def _source_pages() -> dict[str, list[frozenset[int]]]:
    if not SOURCE_PAGES.is_dir():
        pytest.skip(f"the shared source pages are not beside this clone (looked for {SOURCE_PAGES})")
    return {
        f.name[:3]: printed_on(f.read_text(encoding="utf-8").splitlines()) for f in SOURCE_PAGES.glob("00[0-9]_*.txt")
    }


def given_by(refs: list[str], pages: dict[str, list[frozenset[int]]]) -> frozenset[int]:
    """The printed pages the sources give beside these `source:` references."""
    given: set[int] = set()
    for ref in refs:
        line_ref = re.fullmatch(r"(\d{3}):(\d+)(?:-(\d+))?", ref)
        if line_ref:
            page, first, last = line_ref.group(1), int(line_ref.group(2)), int(line_ref.group(3) or line_ref.group(2))
            for n in range(first, last + 1):
                if page == "002":  # the PACG overview: no page lines of its own
                    given.add(8 if n < PACG_OVERVIEW_STEP_LIST else 9)
                else:
                    given.update(pages[page][n - 1])
        else:
            section = ref.split(" [")[0].lower()
            given.update(PACG_PRINTED.get(section, frozenset()))
    return frozenset(given)


def _clauses() -> Iterator[dict[str, Any]]:
    for f in sorted((ROOT / "rules").glob("*/*.yaml")):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        if isinstance(data, list):
            yield from (c for c in data if isinstance(c, dict) and "pages" in c)


@pytest.mark.parametrize(("clause_id", "pages"), sorted(EXACT_PAGES.items()))
def test_the_replenish_event_and_marker_clauses_cite_exactly_their_pages(
    clause_id: str, pages: tuple[int, ...]
) -> None:
    _game, clause = find_clause(clause_id, "houses-vs-dark-arts")
    assert clause.pages == pages


def test_a_block_is_printed_on_the_pages_its_closing_line_cites() -> None:
    lines = [
        "summary",
        "Based on the publisher's rulebook ->Heading",
        "a",
        "b",
        "x printed pp. 22–23 ->Next",
        "c",
        "[pp.10–11, 24] d",
        "tail",
    ]
    assert printed_on(lines) == [frozenset()] * 2 + [frozenset({22, 23})] * 3 + [frozenset({10, 11, 24})] * 2 + [
        frozenset()
    ]


def test_the_shared_source_pages_read_as_the_pages_they_print() -> None:
    pages = _source_pages()
    assert pages["003"][19 - 1] == {22, 23}  # the House Replenish block
    assert pages["003"][21 - 1] == {12, 13}  # the drawing block
    assert pages["003"][25 - 1] == {22, 23}  # the endgame
    assert pages["003"][1 - 1] == frozenset()  # the opening summary
    assert pages["001"][1 - 1] == frozenset()
    assert pages["001"][6 - 1] == {20, 21}
    assert pages["001"][22 - 1] == {22, 23}
    assert pages["000"][9 - 1] == {16}
    assert pages["000"][23 - 1] == frozenset()  # after the last citation


def test_every_page_not_printed_beside_a_source_line_has_a_page_note() -> None:
    pages = _source_pages()
    unnoted = {
        c["id"]: sorted(set(c["pages"]) - given_by(c["source"], pages))
        for c in _clauses()
        if not c.get("page_note") and not set(c["pages"]) <= given_by(c["source"], pages)
    }
    assert unnoted == {}
