"""The strict YAML loader (rulesref.source): yaml.compose plus one walk.

Every shipped YAML file must load to the same data as plain ``yaml.safe_load`` and the same
marks as an independent reading of PyYAML's pure-Python composer; both of the loader's ways
of composing (libyaml's composer, and its own composer for aliases and long texts) must
agree; aliases keep their own positions; and an alias is sized, not expanded, before the
limit on values refuses it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulesref import source
from rulesref.errors import RulesrefError
from rulesref.source import MAX_NODES, Loaded, PathKey, load_yaml

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(
    [*(ROOT / "rules").rglob("*.yaml"), *(ROOT / "scenarios").rglob("*.yaml"), *(ROOT / "bench").glob("*.yaml")]
)
IDS = [str(p.relative_to(ROOT)) for p in SHIPPED]
Marks = dict[PathKey, tuple[int, int]]


def _reference(text: str) -> tuple[Any, Marks, Marks]:
    """Data from yaml.safe_load; marks from the pure-Python composer's nodes, walked beside it."""
    data = yaml.safe_load(text)
    marks: Marks = {}
    key_marks: Marks = {}

    def at(node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def walk(node: yaml.Node, value: Any, path: PathKey) -> None:
        marks[path] = at(node)
        if isinstance(node, yaml.MappingNode):
            assert len(node.value) == len(value), "no duplicate keys in a shipped file"
            for (key_node, value_node), key in zip(node.value, value, strict=True):
                key_marks[(*path, key)] = at(key_node)
                walk(value_node, value[key], (*path, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, (item, item_value) in enumerate(zip(node.value, value, strict=True)):
                walk(item, item_value, (*path, i))

    walk(yaml.compose(text, Loader=yaml.SafeLoader), data, ())
    return data, marks, key_marks


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_shipped_file_loads_as_plain_yaml_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    loaded = load_yaml(path, text=text)
    data, marks, key_marks = _reference(text)
    assert loaded.data == data
    assert loaded.marks == marks
    assert loaded.key_marks == key_marks


def test_every_shipped_file_was_compared() -> None:
    assert len(SHIPPED) > 400
    assert {p.relative_to(ROOT).parts[0] for p in SHIPPED} == {"rules", "scenarios", "bench"}


def _outcome(text: str) -> tuple[Any, ...]:
    try:
        loaded = load_yaml(Path("f.yaml"), text=text)
    except RulesrefError as exc:
        return ("refused", str(exc))
    return ("loaded", loaded.data, loaded.marks, loaded.key_marks)


HAND_WRITTEN = [
    "a: &a {x: 1, y: [2, 3]}\nb: *a\nc: [*a, *a]\n",
    "a: &x 1\nb: &x 2\nc: *x\n",
    "- &a [[[x]]]\n- [[*a]]\n",
    "k: &k {a: 1}\n? *k\n: 2\n",
    "x: &a [1, *a]\n",
    "x: *nowhere\n",
    "title: x\ntitle: y\n",
    "x: " + "[" * 50 + "]" * 50 + "\n",
    "x: !!binary aGVsbG8=\n",
    "a: 1\n---\nb: 2\n",
    # an alias wherever YAML lets one start: the fast way must not mistake any for plain text
    "a: &x 1\nb: [*x,*x]\nc:\t*x\n",
    '{"a": &x 1, "b":*x}\n',
    "- &x D&D\n- *x\n",
]


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_both_ways_of_composing_agree(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """libyaml's composer and the loader's own give the same values, marks and messages."""
    fast = _outcome(text)
    monkeypatch.setattr(source, "_FAST_TEXT", -1)  # every text the careful way
    assert _outcome(text) == fast


def test_shipped_files_read_the_careful_way_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The composer that keeps aliases gives the same data and marks on every shipped file."""
    fast = [_outcome(p.read_text(encoding="utf-8")) for p in SHIPPED]
    monkeypatch.setattr(source, "_FAST_TEXT", -1)
    assert [_outcome(p.read_text(encoding="utf-8")) for p in SHIPPED] == fast


# --- aliases: where each use is written, what it names ---------------------------------------


def _load(text: str) -> Loaded:
    return load_yaml(Path("f.yaml"), text=text)


def test_an_alias_has_its_own_mark_and_its_anchors_marks_below() -> None:
    doc = _load("a: &a {x: 1, y: [2, 3]}\nb: *a\nc: [0, *a]\n")
    assert doc.data["b"] == doc.data["c"][1] == {"x": 1, "y": [2, 3]}
    assert doc.marks[("b",)] == (2, 4)  # the '*a', not the anchored mapping
    assert doc.marks[("c", 1)] == (3, 8)
    # below the alias: where the anchored value's parts are written, the first key included
    for use in (("b",), ("c", 1)):
        assert doc.key_marks[(*use, "x")] == doc.key_marks[("a", "x")] == (1, 8)
        assert doc.marks[(*use, "y", 0)] == doc.marks[("a", "y", 0)] == (1, 18)
    assert doc.mark(("c", 1, "y", 1)) == (1, 21)


def test_each_use_of_an_alias_is_a_copy() -> None:
    doc = _load("a: &a [1]\nb: *a\nc: *a\n")
    doc.data["b"].append(2)
    assert doc.data["a"] == doc.data["c"] == [1]


def test_the_nearest_anchor_of_a_name_wins() -> None:
    """YAML lets an anchor name be used again (PyYAML's composer refuses it; this loader does not)."""
    assert _load("a: &x 1\nb: &x 2\nc: *x\n").data == {"a": 1, "b": 2, "c": 2}
    assert _load("a: &x [1, &x 2, *x]\n").data == {"a": [1, 2, 2]}


def test_an_alias_as_key_names_the_key_its_anchor_wrote() -> None:
    doc = _load("a: &k 7\nb: {*k : seven}\n")
    assert doc.data == {"a": 7, "b": {7: "seven"}}
    assert doc.key_marks[("b", 7)] == (2, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x: &a [1, *a]\n", "f.yaml:1:11: x[1]: alias '*a' refers to the value it is inside"),
        ("x: &a {*a : 1}\n", "f.yaml:1:8: x: alias '*a' refers to the value it is inside"),
        ("x: [1, *nowhere]\n", "f.yaml:1:8: x[1]: alias '*nowhere' has no anchor '&nowhere' before it"),
        ("k: &k [a]\nx: {*k : 1}\n", "f.yaml:2:5: x: a key must be a plain word, not a list or mapping"),
        # an anchored value 30 deep, used 15 deep: refused at the alias, with the full path
        (
            "- &a " + "[" * 30 + "x" + "]" * 30 + "\n- " + "[" * 15 + "*a" + "]" * 15 + "\n",
            "f.yaml:2:18: [1][0][0][0][0]…[0][0][0][0][0]: nested deeper than 40 levels",
        ),
        ("a: &a 1\nb: &b [*a]\nc: {x: *b, x: 2}\n", "f.yaml:3:12: c.x: duplicate key 'x'"),
    ],
)
def test_alias_problems_are_named_where_the_alias_is(text: str, message: str) -> None:
    assert _outcome(text) == ("refused", message)


# --- the limits: an alias is sized, not expanded -------------------------------------------


def _values_built(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """How many values the walk built before it refused ``text``, and its message."""
    built = 0
    walk = source._Walk.value

    def counted(self: source._Walk, node: yaml.Node, path: PathKey, alias: Any = None) -> Any:
        nonlocal built
        built += not isinstance(node, source._Alias)  # an alias's value is its anchored node's, built next
        return walk(self, node, path, alias)

    monkeypatch.setattr(source._Walk, "value", counted)
    outcome = _outcome(text)
    assert outcome[0] == "refused", outcome
    return built, outcome[1]


def test_an_alias_past_the_limit_is_refused_before_it_is_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    items = 30_000
    text = f"a: &a [{', '.join(['x'] * items)}]\nb: *a\n"
    built, message = _values_built(text, monkeypatch)
    assert message == f"f.yaml:2:4: b: document holds more than {MAX_NODES:,} values (aliases counted each use)"
    assert built == 1 + 1 + items  # the document, a's list and its items: nothing of b's copy


def test_an_alias_bomb_builds_no_more_than_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    lol = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    built, message = _values_built(lol, monkeypatch)
    assert message.endswith("e[5]: document holds more than 50,000 values (aliases counted each use)")
    assert built <= MAX_NODES


@pytest.mark.parametrize("star", ["", "# a *star in a comment sends the text the careful way\n"])
def test_a_limit_is_named_before_a_later_syntax_error_either_way(star: str) -> None:
    deep = star + "x: " + "[" * 50 + "unclosed\n"
    assert _outcome(deep)[1].endswith("x[0][0][0][0]…[0][0][0][0][0]: nested deeper than 40 levels")
    wide = star + "x: [" + "a, " * (MAX_NODES + 10) + "\n"
    assert _outcome(wide)[1].endswith("document holds more than 50,000 values (aliases counted each use)")


@pytest.mark.parametrize("star", ["", "# *\n"])
def test_a_syntax_error_is_named_before_an_earlier_value_problem(star: str) -> None:
    """The whole text must be YAML before its values are checked, whichever way it is read."""
    text = star + "title: x\ntitle: y\nnotes: [unclosed\n"
    refused, message = _outcome(text)
    assert (refused, message.split(": not valid YAML: ")[1]) == (
        "refused",
        f"expected ',' or ']' in the list opened at line {3 + bool(star)}, column 8",
    )


# --- without libyaml -------------------------------------------------------------------------

PURE = """
import json, sys
sys.modules["yaml._yaml"] = None  # as if libyaml were not installed
from pathlib import Path
from rulesref import source
from rulesref.errors import RulesrefError
assert source._FastLoader is None
out = []
for text in json.loads(sys.stdin.read()):
    try:
        doc = source.load_yaml(Path("f.yaml"), text=text)
        out.append(repr(("loaded", doc.data, doc.marks, doc.key_marks)))
    except RulesrefError as exc:
        out.append(repr(("refused", str(exc))))
print(json.dumps(out))
"""


def test_the_loader_works_without_libyaml() -> None:
    """PyYAML's own parser stands in for libyaml: the same values, marks and limits."""
    # (PyYAML's own scanner refuses a tab before a value, where libyaml takes it)
    hand = [text for text in HAND_WRITTEN if "\t" not in text]
    texts = [p.read_text(encoding="utf-8") for p in SHIPPED[::25]] + hand + ["x: " + "[" * 5000]
    r = subprocess.run(
        [sys.executable, "-c", PURE], input=json.dumps(texts), capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr[-2000:]
    pure = json.loads(r.stdout)
    for text, got in zip(texts, pure, strict=True):
        assert got == repr(_outcome(text)), text[:80]
