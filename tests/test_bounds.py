"""Hostile inputs whose cost once grew faster than their size: each must finish.

Every loop rulesref runs is bounded by its input. The cases that once hung run in a
subprocess with a generous timeout, so a regression fails here instead of stalling the
suite; what is asserted is the result, never the time taken.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import string
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulesref.lookup import asserts
from rulesref.referee import check_file

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120
"""Seconds a subprocess may take: many times what the bounded code needs, far less than a hang."""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """A Python subprocess of this interpreter, failing the test (not hanging) on a timeout.

    It runs in a session of its own, so on a timeout it is ended with any workers it forked."""
    with subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as child:
        try:
            out, err = child.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail(f"did not finish within {TIMEOUT} s: {' '.join(args)[:200]}")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def _check_json(path: Path) -> dict[str, object]:
    done = _run("-m", "rulesref", "check", "--json", str(path))
    assert done.returncode == 0, done.stderr
    [ruling] = json.loads(done.stdout)
    return ruling


# --- the Dark Arts Path ---------------------------------------------------------------


def _path_scenario(tmp_path: Path, path: str, advance: str, name: str = "path.yaml", readings: str = "") -> Path:
    file = tmp_path / name
    file.write_text(
        "game: houses-vs-dark-arts\ntitle: An advance along the Path\nboard: {grid: 5x4}\n"
        f"houses: [gryffindor, slytherin]\npath: {path}\naction: {{advance: {advance}}}\n"
        + (f"readings: {readings}\n" if readings else "")
    )
    return file


def test_an_advance_of_10_to_the_20_spaces_is_worked_out_not_walked(tmp_path: Path) -> None:
    far = 10**20
    # past the last space: the reading that stops it there (the pages are silent on it)
    ruling = _check_json(
        _path_scenario(
            tmp_path,
            f"{{length: {far}, marker: 0, orange: 8, red: 14}}",
            str(far + 5),
            readings="{path-overflow: stops-at-last}",
        )
    )
    state = ruling["state"]
    assert isinstance(state, dict)
    assert state["path"]["marker"] == far
    assert state["zones-entered"] == ["orange", "red"]
    assert state["phase"] == "last-hands"
    says = [step["says"] for step in ruling["steps"]]  # type: ignore[attr-defined]
    assert f"The Marker is on the last space ({far}) and moves no further." in says


def test_ten_thousand_event_spaces_reached_in_one_long_advance(tmp_path: Path) -> None:
    events = list(range(1000, 10_001_000, 1000))
    path = f"{{length: 20000000, marker: 0, orange: 8, red: 14, events: {events}}}"
    state = _check_json(_path_scenario(tmp_path, path, "{spaces: 10000000, cause: replenish}"))["state"]
    assert isinstance(state, dict)
    assert state["path"]["marker"] == 10_000_000
    # only the space it stops on is reached: the others are passed over, which no page settles
    assert state["events-reached"] == [10_000_000] and state["events-resolved"] == [10_000_000]
    assert state["events-passed"] == [e for e in events if e < 10_000_000]


_CASES = [
    (length, marker, orange, red, events, spaces)
    for length in range(1, 5)
    for marker in range(length + 1)
    for orange, red in [(None, None), (2, None), (None, 1), (1, length), (2, 3)]
    if (orange is None or orange <= length) and (red is None or red <= length) and (orange or 0) < (red or 9)
    for events in [(), (length,), tuple(range(1, length + 1, 2))]
    for spaces in range(length - marker + 2)  # short of, onto and past the last space
]


def _step_by_step(length: int, marker: int, orange: int | None, red: int | None, events: tuple[int, ...], spaces: int):
    """What a space-by-space walk meets: the zones entered, the Event Spaces stopped on and
    passed over, the end."""
    end = min(marker + spaces, length)
    entered, reached, passed = [], [], []
    for here in range(marker + 1, end + 1):
        entered += [c for c, first in (("orange", orange), ("red", red)) if first == here]
        if here in events:
            (reached if here == end else passed).append(here)
    return end, entered, reached, passed, marker + spaces >= length > marker


def test_an_advance_meets_what_a_space_by_space_walk_meets(tmp_path: Path) -> None:
    for case in _CASES:
        length, marker, orange, red, events, spaces = case
        zones = "".join(f", {k}: {v}" for k, v in (("orange", orange), ("red", red)) if v is not None)
        path = f"{{length: {length}, marker: {marker}, events: {list(events)}{zones}}}"
        advance = f"{{spaces: {spaces}, cause: replenish}}"
        ruling = check_file(_path_scenario(tmp_path, path, advance, readings="{path-overflow: stops-at-last}"))
        end, entered, reached, passed, last = _step_by_step(*case)
        state = ruling.state
        got = (
            state["path"]["marker"],
            state["zones-entered"],
            state["events-reached"],
            state.get("events-passed", []),
            state.get("phase"),
        )
        assert got == (end, entered, reached, passed, "last-hands" if last else None), case
        further = any("moves no further" in s.says for s in ruling.steps)
        assert further == (spaces > length - marker), case


# --- the misreading test on a question -------------------------------------------------


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("he says he gets another turn. does he?", True),
        ("my friend said I can fly over walls, can I?", True),
        ("She claims the pawn is stunned. is it", True),
        ("he said it moves twice, does he really?", True),
        ("he said it moves twice\ndoes he?", False),  # the claim and the question on different lines
        ("he said it moves twice, does he know the rule", False),  # two words after the pronoun
        ("does he get another turn?", False),  # nothing reported
        ("a wall blocks movement, right?", True),
    ],
)
def test_a_question_reads_as_a_claim(question: str, claim: bool) -> None:
    assert asserts(question) is claim


_LONG_QUESTION = textwrap.dedent(
    """
    import sys
    from rulesref import lookup
    tail = sys.argv[1]
    for n in (3000, 10000):  # 39 KB and 130 KB
        question = "defeating any henchman lets us close the location, he said, " + "said does he " * n + tail
        top = lookup.ask(question).hits[0]
        print(lookup.asserts(question), top.clause.id, top.misreading is not None)
    """
)


@pytest.mark.parametrize(("tail", "claim"), [("x y", False), ("does he", True)])
def test_a_long_pasted_question_is_read_at_once(tail: str, claim: bool) -> None:
    """A 130 KB run of "said ... does he" once backtracked for minutes in the claim test,
    which `ask` runs on the whole question when a hit is near a misreading claim."""
    done = _run("-c", _LONG_QUESTION, tail)
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [(a, hit) for a, hit, _ in lines] == [(str(claim), "card.henchmen")] * 2
    if claim:  # the claim test ran in `ask`, and flagged the misreading
        assert [flagged for *_, flagged in lines] == ["True", "True"]


# --- building the index ---------------------------------------------------------------

_MANY_WORDS = 30000


def _letters(i: int) -> str:
    """The i-th of the six-letter words aaaaaa, aaaaab, ... (all distinct)."""
    out = ""
    for _ in range(6):
        i, r = divmod(i, 26)
        out = string.ascii_lowercase[r] + out
    return out


def test_the_index_build_grows_with_the_corpus_not_its_square(tmp_path: Path) -> None:
    """Asks and texts with 30,000 distinct words each: every ask word is looked at as a
    possible typo of a rule word, which once meant comparing every pair."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    # every 37th word: asks and texts then share no word, and few are one slip apart
    vocabulary = [_letters(i * 37) for i in range(2 * _MANY_WORDS)]
    asked, ruled = vocabulary[::2], vocabulary[1::2]
    clauses = []
    for start in range(0, _MANY_WORDS, 100):
        asks = "".join(f"    - {' '.join(asked[j : j + 10])}\n" for j in range(start, start + 100, 10))
        clauses.append(
            f"- id: action.many-{start}\n  title: Many words {start}\n  kind: rule\n"
            f"  text: {' '.join(ruled[start : start + 100])}\n  pages: [20]\n  asks:\n{asks}"
        )
    # and one slip of a rule word ("explore"), which must still be found
    clauses.append(
        "- id: action.slip\n  title: A slip\n  kind: rule\n  text: A rule.\n  pages: [20]\n"
        "  asks:\n    - can I exlpore now\n"
    )
    (rules / "houses-vs-dark-arts" / "zz-many.yaml").write_text("".join(clauses))
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from rulesref import index, lookup
        from rulesref.corpus import game_folders, load_game
        root = Path(sys.argv[1])
        built = lookup.build_index(root)
        game = load_game(next(f for f in game_folders(root) if f.name == "houses-vs-dark-arts"))
        typos = index.asks_typos(game, [index.clause_record(c) for c in game.clauses.values()])
        print(len(built["games"]), typos.get("exlpore"), len(built["games"][0]["vocab"]))
        """
    )
    done = _run("-c", script, str(rules))
    assert done.returncode == 0, done.stderr
    games, typo, vocab = done.stdout.split()
    assert (games, typo) == ("2", "explore")
    assert int(vocab) > 2 * _MANY_WORDS


def test_a_glossary_of_thousands_of_terms_and_a_synonym_of_thousands_of_words(tmp_path: Path) -> None:
    """Each glossary term was tested against every other for the terms it contains, and
    each text position tried every phrase length up to the longest synonym."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    terms = [
        f"- term: {_letters(i * 37)} {_letters(i * 37 + 1)}\n  synonyms: [{_letters(i * 37 + 2)}]\n"
        for i in range(5000)
    ]
    long_synonym = " ".join(_letters(i * 41) for i in range(3000))
    with (rules / "houses-vs-dark-arts" / "glossary.yaml").open("a") as glossary:
        glossary.write("".join(terms) + f"- term: dark arts path\n  synonyms: [{long_synonym}]\n")
    # a long text in which that synonym almost appears, again and again
    text = " ".join(_letters(i * 41) for i in range(2999))
    (rules / "houses-vs-dark-arts" / "zz-long.yaml").write_text(
        "- id: action.long\n  title: A long text\n  kind: rule\n  pages: [20]\n"
        f"  text: {' '.join([text] * 10)}\n  asks:\n    - what is the path\n"
    )
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from rulesref import lookup
        games = lookup.build_index(Path(sys.argv[1]))["games"]
        print(len(games), games[0]["longest"], len(games[0]["phrases"]))
        """
    )
    done = _run("-c", script, str(rules))
    assert done.returncode == 0, done.stderr
    games, longest, phrases = map(int, done.stdout.split())
    assert (games, longest) == (2, 3000)
    assert phrases > 2 * 5000  # each term and its synonym


# --- a lost worker ----------------------------------------------------------------------

_KILLED_WORKER = textwrap.dedent(
    """
    import json, os, signal, sys
    from pathlib import Path
    from rulesref import referee

    files = [Path(p) for p in sys.argv[2:]]
    marker = Path(sys.argv[1])
    referee.PARALLEL_FROM = 10**9
    serial = [r.to_json() if hasattr(r, "to_json") else str(r) for r in referee.check_many(files)]

    parent, real = os.getpid(), referee.check_file

    def killed_in_a_worker(path, overrides=(), **options):
        # as the OOM killer would: only in a worker, the file named victim, once
        if os.getpid() != parent and path.name == "victim.yaml":
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return real(path, overrides, **options)

    referee.check_file = killed_in_a_worker  # set before the fork: the workers inherit it
    referee.PARALLEL_FROM = 2
    os.cpu_count = lambda: 4  # workers on any machine, however many cores it has
    parallel = [r.to_json() if hasattr(r, "to_json") else str(r) for r in referee.check_many(files)]
    print(json.dumps({"same": parallel == serial, "count": len(parallel)}))
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="workers are forked")
def test_a_killed_worker_is_noticed_and_its_files_still_ruled(tmp_path: Path) -> None:
    """multiprocessing.Pool waited forever for a worker killed mid-file."""
    scenarios = sorted((ROOT / "scenarios").rglob("*.yaml"))[:60]
    victim = tmp_path / "victim.yaml"
    shutil.copy(scenarios[0], victim)
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: pacg\ntitle: x\ntitle: y\n")
    files = [*scenarios[:30], victim, bad, *scenarios[30:]]
    marker = tmp_path / "killed"
    done = _run("-c", _KILLED_WORKER, str(marker), *map(str, files))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"same": True, "count": len(files)}
    assert marker.exists(), "no worker was killed: the test did not test the lost worker"
    assert int(marker.read_text()) != os.getpid()


def test_a_ruling_of_thousands_of_steps_shows_its_start_and_its_end(cli, tmp_path: Path) -> None:
    """The text view lays out at most render.STEPS_SHOWN steps and says how many it leaves out."""
    import yaml

    from rulesref import render

    events = list(range(2, 2002, 2))
    scenario = {
        "game": "houses-vs-dark-arts",
        "title": "An advance over a thousand Event Spaces",
        "path": {"length": 2001, "marker": 0, "events": events},
        "action": {"advance": 2000},
    }
    (tmp_path / "long.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    full = cli("check", str(tmp_path / "long.yaml"), "--json")
    steps = json.loads(full.out)[0]["steps"]
    assert full.code == 0 and len(steps) > render.STEPS_SHOWN
    text = cli("check", str(tmp_path / "long.yaml"))
    assert text.code == 0
    assert f"{len(steps) - render.STEPS_SHOWN:,} more steps (--json lists every one)" in text.out
    assert f" {len(steps)} " in text.out  # the last step is shown, numbered


def test_an_empty_game_name_is_refused_not_read_as_every_game(cli) -> None:
    for args in (("ask", "wall", "--game", ""), ("page", "10", "--game", ""), ("myths", "--game", "")):
        r = cli(*args)
        assert (r.code, r.out) == (2, ""), args
        assert r.err == "Error: unsupported game: ''; see `rulesref games`\n", args


def test_a_file_name_too_long_for_the_system_is_named(cli) -> None:
    for name in ("x" * 300 + ".yaml", "/".join(["y" * 200] * 25) + ".yaml"):
        r = cli("check", name)
        assert r.code == 2 and "the file name is too long" in r.err and r.err.count("\n") == 1, r.err
