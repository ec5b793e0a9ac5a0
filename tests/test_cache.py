"""The index cache is untrusted input: whatever stands where the cache file should be, `ask`
answers from the rules, never hangs, never exits 3, and never answers from damaged data.

A case that could hang (a FIFO) or eat the memory (/dev/zero, a 4 GB file) runs in a
subprocess with a timeout and a limit on its address space, so a regression fails the
test instead of stalling the suite or the machine. Nothing here depends on the length of
the temp path: damage is placed by the file's layout (see test_paths.py), not by a share
of its length. Corrupted bytes at fixed offsets are in test_paths.py.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rulesref import cache, lookup
from rulesref.games import all_games

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
QUESTION = "can a dark arts pawn pass a castle wall?"
MEMORY_LIMIT = 2 * 1024**3
"""Address space a subprocess may use: several times what `ask` needs, half a 4 GB file."""
NO_SUCH_PID = 4_194_304
"""Linux never gives this process id (pid_max is at most 2**22, and ids are below it)."""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped rules, shared by the tests that do not edit it."""
    copy = tmp_path_factory.mktemp("rules-copy") / "rules"
    shutil.copytree(RULES, copy)
    return copy.resolve()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """No index held in this process, a cache folder of the test's own, and a system temp
    folder of its own (where an unwritable cache folder falls back to)."""
    import tempfile

    system_temp = tmp_path / "system-temp"
    system_temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_temp))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    lookup._loaded.clear()
    all_games.cache_clear()
    yield tmp_path / "cache"
    lookup._loaded.clear()
    all_games.cache_clear()


@pytest.fixture(scope="module")
def reference(rules: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The answer from a fresh build, and the good cache file it left."""
    folder = tmp_path_factory.mktemp("reference-cache")
    r = _ask_in_subprocess(rules, folder, tmp_path_factory.mktemp("reference-temp"))
    assert r.returncode == 0, r.stderr
    answer, _notes = r.stdout.splitlines()
    return {"answer": json.loads(answer), "file": (folder / cache._file_name(rules)).read_bytes()}


# The child prints the JSON answer, then what the cache did (cache.notes()).
_CHILD = (
    "import json, sys\n"
    "from rulesref import cache, lookup\n"
    "print(json.dumps(lookup.ask(sys.argv[1]).to_json()))\n"
    "print(json.dumps(cache.notes()))\n"
)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _ask_in_subprocess(rules: Path, folder: Path, temp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULESREF_RULES": str(rules), "RULESREF_CACHE": str(folder), "TMPDIR": str(temp)}
    return subprocess.run(
        [sys.executable, "-c", _CHILD, QUESTION],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
        preexec_fn=_limit_memory,
    )


def _answers_from_the_rules(rules: Path, folder: Path, tmp_path: Path, reference: dict[str, object]) -> list[str]:
    """Ask in a subprocess; check the answer and the whole cache left behind; the notes."""
    r = _ask_in_subprocess(rules, folder, tmp_path / "child-temp")
    assert (r.returncode, r.stderr) == (0, ""), r.stderr[-2000:]
    answer, notes = r.stdout.splitlines()
    assert json.loads(answer) == reference["answer"]
    left = folder / cache._file_name(rules)
    assert left.is_file() and not left.is_symlink()
    assert _games(left) == _games(reference["file"]), "a whole, good cache file is left"
    return list(json.loads(notes))


# --- what stands where the cache file should be ---------------------------------------


def test_a_fifo_in_place_of_the_cache_file_does_not_hang(rules: Path, tmp_path: Path, reference: dict) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    os.mkfifo(folder / cache._file_name(rules))  # nobody writes to it: a blocking open waits forever
    notes = _answers_from_the_rules(rules, folder, tmp_path, reference)
    assert any("not a regular file" in n for n in notes), notes


def test_a_link_to_dev_zero_is_not_followed(rules: Path, tmp_path: Path, reference: dict) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    folder = tmp_path / "cache"
    folder.mkdir()
    os.symlink("/dev/zero", folder / cache._file_name(rules))  # read to the end, it never ends
    notes = _answers_from_the_rules(rules, folder, tmp_path, reference)
    assert any("symbolic link, not followed" in n for n in notes), notes


def test_a_huge_sparse_file_is_not_read(rules: Path, tmp_path: Path, reference: dict) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    with open(folder / cache._file_name(rules), "wb") as fh:
        fh.truncate(4 * 1024**3)  # 4 GB that take no disk: read whole, more than the child may hold
    notes = _answers_from_the_rules(rules, folder, tmp_path, reference)
    assert any("4,294,967,296 bytes, over the" in n for n in notes), notes


def test_a_link_to_a_file_outside_the_cache_folder_is_not_followed(
    rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a good index behind a link is not read; the file behind it is left as it was."""
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    outside = tmp_path / "elsewhere.marshal"
    outside.write_bytes(reference["file"])
    fresh.mkdir()
    os.symlink(outside, fresh / cache._file_name(rules))
    assert cache.load(rules, cache.key(rules)) is None
    assert cache.notes()[-1].endswith("a symbolic link, not followed; rebuilt")
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    assert outside.read_bytes() == reference["file"]
    assert not (fresh / cache._file_name(rules)).is_symlink(), "the link is replaced by the index"


def test_a_file_that_is_whole_but_not_an_index_is_rebuilt(
    rules: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right magic, key and digest, but games that lookup would crash on: the shape check."""
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    fresh.mkdir()
    wanted = cache.key(rules)
    games = _games(reference["file"])
    model = _body(reference["file"])["learned"]
    assert model is not None, "the shipped rules carry the phrasing model"
    for body in (
        [{"id": "hvda"}],  # an index of the layout before the phrasing model
        {"games": []},
        {"games": [None], "learned": None},
        {"games": [{**games[0], "postings": []}], "learned": None},
        {"games": games, "learned": {**model, "weights": []}},
        {"games": games, "learned": {**model, "of": model["of"][:1]}},
        {"games": games, "learned": {**model, "out": len(model["classes"])}},  # not a class
        {"games": games, "learned": "a model"},
    ):
        (fresh / cache._file_name(rules)).write_bytes(cache._file_bytes(wanted, body))  # type: ignore[arg-type]
        assert cache.load(rules, wanted) is None, body
        assert "not shaped like an index" in cache.notes()[-1]
    lookup._loaded.clear()
    assert lookup.ask(QUESTION).to_json() == reference["answer"]


def _body(file: Path | bytes) -> dict[str, Any]:
    """The index in a cache file, all but its key (as built in another process: compared as
    data, not bytes)."""
    import marshal

    data = file if isinstance(file, bytes) else file.read_bytes()
    assert data.startswith(cache.MAGIC)
    body = marshal.loads(data[cache._HEADER :])
    assert isinstance(body, dict)
    return body


def _games(file: Path | bytes) -> list[dict[str, Any]]:
    return list(_body(file)["games"])


# --- the key: what the index was built from -----------------------------------------


def test_a_same_size_edit_that_keeps_the_mtime_is_seen(cli, tmp_path: Path, fresh: Path, monkeypatch) -> None:
    """`cp -p`, `rsync -t` and `tar` keep a file's mtime: the cache goes by the bytes."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    board = rules / "houses-vs-dark-arts" / "board.yaml"

    def pages(*args: str) -> list[object]:
        lookup._loaded.clear()  # a new process, as far as the index goes
        all_games.cache_clear()
        r = cli(*args, "--json")
        assert r.code == 0, r.err
        found = json.loads(r.out)
        return list((found["results"][0] if "results" in found else found)["pages"])

    assert pages("ask", QUESTION) == pages("show", "move.walls") == [10, 25]
    before = board.stat()
    text = board.read_text(encoding="utf-8")
    at = text.index("pages: [10, 25]", text.index("- id: move.walls"))
    board.write_text(text[:at] + "pages: [10, 26]" + text[at + 15 :], encoding="utf-8")  # the same size
    os.utime(board, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (board.stat().st_size, board.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert pages("ask", QUESTION) == pages("show", "move.walls") == [10, 26]


def test_the_key_is_the_content(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    first = cache.key(rules)
    assert cache.key(rules) == first, "the same files, the same key"
    game = rules / "pacg" / "game.yaml"
    os.utime(game, ns=(0, 0))
    assert cache.key(rules) == first, "an mtime alone does not rebuild"
    (rules / "pacg" / "extra.yaml").write_text("[]\n", encoding="utf-8")
    added = cache.key(rules)
    assert added != first, "a new rule file rebuilds"
    (rules / "pacg" / "extra.yaml").rename(rules / "pacg" / "other.yaml")
    assert cache.key(rules) not in (first, added), "so does a renamed one"


def test_a_fifo_among_the_rule_files_does_not_hang_the_key(tmp_path: Path) -> None:
    """The key reads every rule file; a FIFO named like one is refused by the loader, not waited on."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    os.mkfifo(rules / "pacg" / "pipe.yaml")
    env = {**os.environ, "RULESREF_RULES": str(rules), "RULESREF_CACHE": str(tmp_path / "cache")}
    r = subprocess.run(
        [sys.executable, "-m", "rulesref", "ask", QUESTION],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert r.returncode == 2, r.stderr
    assert "is a named pipe (FIFO), not a regular file" in r.stderr


# --- temp files a killed rebuild left ----------------------------------------------


def test_stale_temp_files_are_swept_and_nothing_else(
    rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    fresh.mkdir()
    (fresh / cache._file_name(rules)).write_bytes(reference["file"])
    hour_ago = time.time() - 3600
    alive = os.getppid()  # the process that started pytest: running while the test runs
    outside = tmp_path / "precious.txt"
    outside.write_text("not the cache's")

    def temp(name: str, *, old: bool = False, pid: int = NO_SUCH_PID) -> str:
        full = f".index-0123abcd.marshal.{pid}.{name}.tmp"
        (fresh / full).write_bytes(b"half an index")
        if old:
            os.utime(fresh / full, (hour_ago, hour_ago))
        return full

    gone = {temp("ab12"), temp("cd34", old=True, pid=alive), temp("ef56", old=True, pid=0)}
    kept = {
        temp("0a0b", pid=alive),  # a rebuild still under way
        temp("1a1b", pid=os.getpid(), old=True),  # this very process's
        cache._file_name(rules),
    }
    for name in ("notes.txt", ".index-0123abcd.marshal.4194304.zz.tmp", "index-0123abcd.marshal.4194304.ab.tmp"):
        (fresh / name).write_text("not ours")
        os.utime(fresh / name, (hour_ago, hour_ago))
        kept.add(name)
    folder_named_like_ours = fresh / ".index-0123abcd.marshal.4194304.aaaa.tmp"
    folder_named_like_ours.mkdir()
    link_named_like_ours = fresh / ".index-0123abcd.marshal.4194304.bbbb.tmp"
    link_named_like_ours.symlink_to(outside)
    os.utime(link_named_like_ours, (hour_ago, hour_ago), follow_symlinks=False)
    kept |= {folder_named_like_ours.name, link_named_like_ours.name}

    assert lookup.load_index(rules) is not None  # a cache hit: the sweep needs no rebuild
    assert {p.name for p in fresh.iterdir()} == kept
    assert outside.read_text() == "not the cache's"
    assert sum("left by a rebuild that died" in n for n in cache.notes()) == len(gone)


# --- where the cache lives ----------------------------------------------------------


def test_an_unwritable_cache_folder_falls_back_to_a_private_temp_folder(
    rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setenv("RULESREF_RULES", str(rules))
    (tmp_path / "a-file").write_text("x")
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "a-file" / "cache"))  # unwritable, even for root
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    private = Path(tempfile.gettempdir(), f"rulesref-{os.geteuid()}")
    assert private.stat().st_mode & 0o777 == 0o700
    assert _games(private / cache._file_name(rules)) == _games(reference["file"])
    assert any(n.startswith(f"index cache: written to {private}") for n in cache.notes()), cache.notes()
    lookup._loaded.clear()

    def refuse(*_: object) -> None:
        raise AssertionError("built again: the private folder holds the index")

    monkeypatch.setattr("rulesref.corpus.load_game", refuse)
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    assert cache.notes()[-1] == f"index cache: {private / cache._file_name(rules)}: read"


@pytest.mark.parametrize("trap", ["world-writable", "a-link", "another-users"])
def test_a_private_temp_folder_that_is_not_private_is_not_used(
    trap: str, rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The system temp folder is shared: anyone may have made our folder's name first."""
    import tempfile

    monkeypatch.setenv("RULESREF_RULES", str(rules))
    (tmp_path / "a-file").write_text("x")
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "a-file" / "cache"))
    private = Path(tempfile.gettempdir(), f"rulesref-{os.geteuid()}")
    planted = tmp_path / "planted"
    planted.mkdir()
    if trap == "world-writable":
        private.mkdir()
        private.chmod(0o777)
        planted = private
    elif trap == "a-link":
        private.symlink_to(planted, target_is_directory=True)
    else:  # a folder this user owns, seen by a process that runs as someone else
        private.mkdir(mode=0o700)
        planted = private
        monkeypatch.setattr(cache, "_uid", lambda: os.geteuid() + 1)
        monkeypatch.setattr(cache, "_temp_path", lambda: private)
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    assert list(planted.iterdir()) == [], "nothing written into a folder others control"
    assert any("is not a private folder of this user" in n for n in cache.notes()), cache.notes()
    assert cache.notes()[-1].endswith("the next run builds it again")


def test_cache_folder_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty, relative or NUL-holding values are not used: the next place is."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "explicit"))
    assert cache.cache_dir() == tmp_path / "explicit"
    for bad in ("", "relative/cache", "."):
        monkeypatch.setenv("RULESREF_CACHE", bad)
        assert cache.cache_dir() == tmp_path / "xdg" / "rulesref", bad
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "rulesref"
    assert any("$XDG_CACHE_HOME is not an absolute path" in n for n in cache.notes())
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(cache, "_home_from_passwords", lambda: None)
    for home in ("", "relative-home"):
        monkeypatch.setenv("HOME", home)
        assert cache.cache_dir() == tmp_path / "temp" / f"rulesref-{os.geteuid()}", home
    # the environment of a real process cannot hold NUL; os.environ as a plain dict can
    monkeypatch.setattr(os, "environ", {"RULESREF_CACHE": f"{tmp_path}/a\0b", "HOME": str(tmp_path / "home")})
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "rulesref"


def test_notes_show_a_path_without_letting_it_act(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache\x1b[31mred"
    monkeypatch.setenv("RULESREF_CACHE", str(folder))
    assert cache.load(tmp_path, "a key") is None
    assert "\x1b" not in cache.notes()[-1] and "cache\\x1b[31mred" in cache.notes()[-1]


def test_the_private_temp_folder_keeps_only_the_newest_indexes(
    rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each rules folder has its own index: in the temp folder, old ones would pile up."""
    import tempfile

    monkeypatch.setenv("RULESREF_RULES", str(rules))
    (tmp_path / "a-file").write_text("x")
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "a-file" / "cache"))
    private = Path(tempfile.gettempdir(), f"rulesref-{os.geteuid()}")
    private.mkdir(mode=0o700)
    olds = [f"index-{i:08x}.marshal" for i in range(10)]
    for age, name in enumerate(olds):
        (private / name).write_bytes(b"an older index")
        os.utime(private / name, (1_000_000 - age, 1_000_000 - age))  # index-00000000 the newest
    (private / "index-0000000z.marshal").write_text("not ours")
    (private / "index-0badc0de.marshal").symlink_to(tmp_path / "a-file")
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    left = sorted(p.name for p in private.iterdir())
    newest = olds[: cache.PRIVATE_KEEP - 1]
    assert left == sorted([*newest, cache._file_name(rules), "index-0000000z.marshal", "index-0badc0de.marshal"])
    assert (tmp_path / "a-file").read_text() == "x"


def test_a_folder_in_place_of_the_cache_file(
    rules: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It cannot be read nor replaced: the index goes to the private temp folder instead."""
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    (fresh / cache._file_name(rules)).mkdir(parents=True)
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    assert any("not a regular file" in n for n in cache.notes()), cache.notes()
    assert (fresh / cache._file_name(rules)).is_dir(), "a folder that is not ours to remove is left"


def test_a_rebuild_killed_before_its_rename_leaves_nothing_behind(
    rules: Path, tmp_path: Path, reference: dict, fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child writes its temp file whole and is killed where it would rename it; the next
    run removes the file (its mtime put an hour back as well, so a process id the machine
    happens to hand out again cannot keep it)."""
    child = (
        "import os, signal\n"
        "from rulesref import lookup\n"
        "os.replace = lambda *_: os.kill(os.getpid(), signal.SIGKILL)\n"
        "lookup.load_index()\n"
    )
    env = {**os.environ, "RULESREF_RULES": str(rules), "RULESREF_CACHE": str(fresh), "TMPDIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert r.returncode == -9, r.stderr
    (left,) = [p for p in fresh.iterdir() if p.name.endswith(".tmp")]
    assert left.name.startswith(f".{cache._file_name(rules)}.")
    hour_ago = time.time() - 3600
    os.utime(left, (hour_ago, hour_ago))
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    assert lookup.ask(QUESTION).to_json() == reference["answer"]
    assert sorted(p.name for p in fresh.iterdir()) == [cache._file_name(rules)]


def test_debug_says_what_the_cache_did_and_nothing_else_does(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache that cannot be used is not the user's problem: only --debug tells of it."""
    from rulesref import lookup

    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    lookup._loaded.clear()
    quiet = cli("ask", "can a pawn pass a castle wall?")
    assert quiet.code == 0 and quiet.err == ""
    lookup._loaded.clear()
    loud = cli("--debug", "ask", "can a pawn pass a castle wall?")
    assert loud.code == 0 and loud.out == quiet.out
    assert loud.err and all(line.startswith("index cache: ") for line in loud.err.splitlines()), loud.err
