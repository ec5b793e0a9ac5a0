"""A card's checks, read from the line printed on it: ``Knowledge 4 or Perception 4 then Combat 10``.

"or" offers a choice of checks and "then" chains checks one after another; "or" binds
tighter (step.or-then), so the line is a chain of groups and each group a choice. A skill
written without a number shares the next number in its group, as cards print
``Knowledge or Perception 4``. Commas are ignored.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

SKILLS = (
    "Strength",
    "Dexterity",
    "Constitution",
    "Intelligence",
    "Wisdom",
    "Charisma",
    "Combat",
    "Melee",
    "Ranged",
    "Arcane",
    "Divine",
    "Knowledge",
    "Perception",
    "Stealth",
    "Disable",
    "Diplomacy",
    "Survival",
    "Acrobatics",
    "Fortitude",
    "Craft",
)
"""Skills a check commonly names; a near miss of one is refused as a typo, anything else is taken as written."""


class CheckSyntaxError(ValueError):
    """A check line that cannot be read; the message quotes the bad part."""


@dataclass(frozen=True)
class Check:
    """One check: a skill and its difficulty."""

    skill: str
    """The skill as printed, e.g. ``Combat`` or ``Dexterity Ranged``."""
    difficulty: int | None
    """The printed difficulty; None when the card gives no check line."""

    @property
    def is_combat(self) -> bool:
        """A combat check (its skill names Combat)."""
        return "combat" in self.skill.lower().split()

    def __str__(self) -> str:
        return self.skill if self.difficulty is None else f"{self.skill} {self.difficulty}"


@dataclass(frozen=True)
class Chain:
    """The checks to acquire or defeat: groups attempted one after another, one check chosen per group."""

    groups: tuple[tuple[Check, ...], ...]
    """Each group is one check of the chain; its members are the "or" choices."""
    text: str
    """The line as written."""

    def __len__(self) -> int:
        return len(self.groups)

    def __str__(self) -> str:
        return self.text

    def label(self, index: int) -> str:
        """``Knowledge 4 or Perception 4`` for the group at 1-based ``index``."""
        return " or ".join(str(c) for c in self.groups[index - 1])


@dataclass(frozen=True)
class Placed:
    """A check named by a scenario, and where it stands in the chain."""

    position: int
    """1-based place in the chain."""
    check: Check
    """The check at that place (one of its "or" choices)."""


UNKNOWN = Chain(((Check("the check", None),),), "(no check line given)")
"""The chain used when a scenario gives no ``checks``: one check, judged by ``success``."""

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'+-]*|\d+|,|\S")


def parse_checks(text: str) -> Chain:
    """Read a check line. Raises CheckSyntaxError saying what is wrong and where."""
    if not isinstance(text, str) or not text.strip():
        raise CheckSyntaxError(
            "expected a check line such as 'Combat 10' or 'Knowledge 4 or Perception 4 then Combat 10'"
        )
    tokens = [t for t in _TOKEN.findall(text) if t != ","]
    groups: list[list[list[str]]] = [[[]]]  # chain -> group -> check -> tokens
    for tok in tokens:
        word = tok.lower()
        if word == "then":
            _close_group(groups[-1], text, "then")
            groups.append([[]])
        elif word == "or":
            if not groups[-1][-1]:
                raise CheckSyntaxError(f"'or' with no check before it in {text!r}")
            groups[-1].append([])
        elif re.fullmatch(r"[A-Za-z][A-Za-z'+-]*|\d+", tok):
            groups[-1][-1].append(tok)
        else:
            raise CheckSyntaxError(
                f"unexpected {tok!r} in {text!r}; write checks as 'Skill N' joined by 'or' and 'then'"
            )
    _close_group(groups[-1], text, "end")
    return Chain(tuple(_read_group(g, text) for g in groups), " ".join(text.split()))


def _close_group(group: list[list[str]], text: str, where: str) -> None:
    if not group[-1]:
        if len(group) == 1 and where == "then":
            raise CheckSyntaxError(f"'then' with no check before it in {text!r}")
        what = "'or'" if len(group) > 1 else "'then'"
        raise CheckSyntaxError(f"{what} with no check after it in {text!r}")


def _read_group(group: list[list[str]], text: str) -> tuple[Check, ...]:
    read: list[tuple[str, int | None]] = []
    for toks in group:
        words = [t for t in toks if not t.isdigit()]
        numbers = [t for t in toks if t.isdigit()]
        if not words:
            raise CheckSyntaxError(f"difficulty {' '.join(toks)!r} has no skill before it in {text!r}")
        if len(numbers) > 1 or (numbers and not toks[-1].isdigit()):
            raise CheckSyntaxError(f"cannot read {' '.join(toks)!r} in {text!r}; write one check as 'Skill N'")
        for w in words:
            _check_skill(w, text)
        read.append(
            (" ".join(w.capitalize() if w.islower() else w for w in words), int(numbers[0]) if numbers else None)
        )
    # a bare skill shares the next difficulty in its group: "Knowledge or Perception 4"
    out: list[Check] = []
    for i, (skill, number) in enumerate(read):
        if number is None:
            number = next((n for _, n in read[i + 1 :] if n is not None), None)
        if number is None:
            raise CheckSyntaxError(f"check {skill!r} has no difficulty in {text!r}; write it as '{skill} N'")
        out.append(Check(skill, number))
    return tuple(out)


def _check_skill(word: str, text: str) -> None:
    if word.lower() in {s.lower() for s in SKILLS}:
        return
    close = difflib.get_close_matches(word.capitalize(), SKILLS, n=1, cutoff=0.8)
    if close:
        raise CheckSyntaxError(f"unknown skill {word!r} in {text!r}; did you mean {close[0]!r}?")


def find_check(chain: Chain, wanted: str | int, *, prefer: int = 1) -> Placed:
    """The check a scenario names (``2``, ``Combat``, ``Combat 10``) and its place in the chain.

    A skill named at several positions is taken at ``prefer`` or the first after it.
    Raises CheckSyntaxError (with a did-you-mean) when nothing in the chain matches.
    """
    if isinstance(wanted, int) and not isinstance(wanted, bool):
        if not 1 <= wanted <= len(chain):
            raise CheckSyntaxError(f"check {wanted} is not in the chain {chain.text!r}, which has {len(chain)}")
        return Placed(wanted, chain.groups[wanted - 1][0])
    text = str(wanted).strip()
    try:
        named = parse_checks(text).groups
        probe: Check | None = named[0][0] if len(named) == 1 and len(named[0]) == 1 else None
    except CheckSyntaxError:
        probe = None
    skill = (probe.skill if probe else text).lower()
    hits = [
        Placed(i, c)
        for i, group in enumerate(chain.groups, 1)
        for c in group
        if c.skill.lower() == skill
        and (probe is None or probe.difficulty is None or c.difficulty is None or probe.difficulty == c.difficulty)
    ]
    if not hits:
        names = [str(c) for g in chain.groups for c in g]
        close = difflib.get_close_matches(text, names, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else f"; the card's checks are {chain.text!r}"
        raise CheckSyntaxError(f"{text!r} is not one of the card's checks{hint}")
    later = [h for h in hits if h.position >= prefer]
    return (later or hits)[0]
