"""Broken paths and nothing lost: check walks any folder safely, and no command changes a user's files.

Files that could hang a process (FIFOs) run in a subprocess with a timeout, so a
regression fails the test instead of stalling the suite. Cases that need a non-root user
(chmod 000) are simulated when the suite runs as root, where chmod does not stop reads.
"""

from __future__ import annotations

import errno
import hashlib
import json
import marshal
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulesref import lookup
from rulesref.games import all_games

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
RULES = ROOT / "rules"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _good_scenario() -> str:
    """A shipped scenario that rules cleanly (the first PACG one)."""
    return sorted((SCENARIOS / "pacg").glob("*.yaml"))[0].read_text(encoding="utf-8")


def _tree_digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (symlinks as their target text) -> a hash of its bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            out[rel] = "dir"
    return out


def _rulesref(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesref", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


# --- check on many files ------------------------------------------------------------


def test_ten_thousand_files_each_ruled_or_reported_in_order(cli, tmp_path: Path) -> None:
    """10,000 files in nested folders: every one appears once, as a ruling or an error."""
    good = _good_scenario()
    kinds = [
        ("game: chess\ntitle: x\n", "game: unsupported game: 'chess'"),
        ("", "file is empty"),
        ("game: pacg\ntitle: x\ntitle: y\n", "title: duplicate key 'title'"),
        ("[unclosed\n", "not valid YAML"),
        (b"\x00\x01", "binary file"),
    ]
    expected_errors: dict[str, str] = {}
    rulings: list[str] = []
    for i in range(10_000):
        path = tmp_path / f"d{i // 1000}" / f"s{i:05d}.yaml"
        path.parent.mkdir(exist_ok=True)
        if i % 100 == 0:
            path.write_text(good, encoding="utf-8")
            rulings.append(str(path))
            continue
        text, message = kinds[i % len(kinds)]
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        expected_errors[str(path)] = message
    started = time.monotonic()
    r = cli("check", str(tmp_path), "--json")
    elapsed = time.monotonic() - started
    assert r.code == 2
    entries = json.loads(r.out)
    ruled = [x["file"] for x in entries if x["error"] is None]
    assert ruled == rulings, "rulings are in sorted order, one per good file"
    # each unreadable file is an entry too (docs/json.md), in the same order as the error lines
    assert [x["file"] for x in entries if x["error"] is not None] == sorted(expected_errors)
    lines = r.err.splitlines()
    assert len(lines) == len(expected_errors)
    for line, (file, message) in zip(lines, sorted(expected_errors.items()), strict=True):
        assert line.startswith(f"Error: {file}:") and message in line, line
    assert elapsed < 60, f"10,000 files took {elapsed:.1f} s"


def test_a_crash_in_one_file_does_not_lose_the_others(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine bug on one file is an internal-error line for that file; the rest are still ruled."""
    from rulesref import referee

    good = _good_scenario()
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / name).write_text(good, encoding="utf-8")
    real = referee.check_file

    def flaky(path: Path, overrides: object = (), **options: bool) -> object:
        if path.name == "b.yaml":
            raise KeyError("boom")
        return real(path, overrides, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(referee, "check_file", flaky)
    r = cli("check", str(tmp_path), "--json")
    assert r.code == 3
    assert [Path(x["file"]).name for x in json.loads(r.out)] == ["a.yaml", "c.yaml"]
    first, second = r.err.splitlines()
    assert first == f"rulesref: {tmp_path / 'b.yaml'}: internal error: KeyError: 'boom'"
    assert second.startswith("This is a bug in rulesref, not in your input: run the same command with --debug")


def test_an_unexpected_exception_is_one_short_line_and_debug_shows_it(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulesref import library

    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("division by zero\nsecond line")

    monkeypatch.setattr(library, "find_clause", broken)
    r = cli("show", "move.walls")
    assert r.code == 3
    assert r.out == ""
    assert r.err.splitlines()[0] == "rulesref: internal error: ZeroDivisionError: division by zero second line"
    assert len(r.err.splitlines()) == 2 and "Traceback" not in r.err
    with pytest.raises(ZeroDivisionError):
        cli("--debug", "show", "move.walls")


# --- broken paths -------------------------------------------------------------------


def test_symlinked_folder_loop_is_not_followed(cli, tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text(_good_scenario(), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    os.symlink("..", tmp_path / "sub" / "up")
    os.symlink(tmp_path, tmp_path / "self")
    r = cli("check", str(tmp_path), "--json")
    assert r.code == 0, r.err
    assert [x["file"] for x in json.loads(r.out)] == [str(tmp_path / "one.yaml")]


def test_symlinked_file_is_read(cli, tmp_path: Path) -> None:
    (tmp_path / "real.yml").write_text(_good_scenario(), encoding="utf-8")
    os.symlink("real.yml", tmp_path / "link.yaml")
    r = cli("check", str(tmp_path / "link.yaml"), "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)[0]["file"] == str(tmp_path / "link.yaml")


def test_fifo_in_a_folder_does_not_hang(tmp_path: Path) -> None:
    """A FIFO named like a scenario, with nobody writing to it: refused at once, never waited on."""
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "ok.yaml").write_text(_good_scenario(), encoding="utf-8")
    r = _rulesref("check", str(tmp_path), "--json", timeout=30)
    assert r.returncode == 2
    assert r.stderr == f"Error: {tmp_path / 'pipe.yaml'}: is a named pipe (FIFO), not a regular file\n"
    entries = json.loads(r.stdout)
    assert [x["file"] for x in entries if x["error"] is None] == [str(tmp_path / "ok.yaml")]
    assert [x["file"] for x in entries if x["error"] is not None] == [str(tmp_path / "pipe.yaml")]


def test_unreadable_file(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text(_good_scenario(), encoding="utf-8")
    if IS_ROOT:  # root reads through chmod 000: make the open fail as it would for a user
        from rulesref import source

        real_open = os.open

        def denied(path: object, *args: object, **kwargs: object) -> int:
            if str(path) == str(secret):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(source.os, "open", denied)
    else:
        secret.chmod(0)
    try:
        r = cli("check", str(secret))
    finally:
        secret.chmod(0o644)
    assert (r.code, r.err) == (2, f"Error: {secret}: cannot read the file: permission denied\n")


def test_unreadable_subfolder_is_reported_not_skipped(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ok.yaml").write_text(_good_scenario(), encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.yaml").write_text(_good_scenario(), encoding="utf-8")
    if IS_ROOT:
        real_scandir = os.scandir

        def denied(path: object = ".") -> object:
            if str(path) == str(locked):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_scandir(path)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "scandir", denied)
    else:
        locked.chmod(0)
    try:
        r = cli("check", str(tmp_path), "--json")
    finally:
        locked.chmod(0o755)
    assert r.code == 2
    assert r.err == f"Error: {locked}: cannot read this folder: permission denied\n"
    assert [x["file"] for x in json.loads(r.out) if x["error"] is None] == [str(tmp_path / "ok.yaml")]


def test_many_arguments_each_answered(cli, tmp_path: Path) -> None:
    """Good and bad arguments mixed: every one is answered, in the order given."""
    good = tmp_path / "good.yaml"
    good.write_text(_good_scenario(), encoding="utf-8")
    os.symlink("nowhere.yaml", tmp_path / "broken.yaml")
    r = cli("check", "missing.yaml", str(good), str(tmp_path / "broken.yaml"), str(good), "--json")
    assert r.code == 2
    entries = json.loads(r.out)
    assert [x["file"] for x in entries if x["error"] is None] == [str(good), str(good)]
    assert [x["file"] for x in entries] == ["missing.yaml", str(good), str(tmp_path / "broken.yaml"), str(good)]
    assert r.err == (
        "Error: missing.yaml: no such file or folder\n"
        f"Error: {tmp_path / 'broken.yaml'}: is a broken symbolic link (to 'nowhere.yaml')\n"
    )


# --- nothing lost -------------------------------------------------------------------


def test_no_command_changes_the_users_files(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command, run on a copy of the shipped rules and scenarios, leaves them byte for byte."""
    rules, scenarios = tmp_path / "rules", tmp_path / "scenarios"
    shutil.copytree(RULES, rules)
    shutil.copytree(SCENARIOS, scenarios)
    before = (_tree_digest(rules), _tree_digest(scenarios))
    monkeypatch.setenv("RULESREF_RULES", str(rules))
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(scenarios)  # a command that wrote "here" would write among the user's files
    all_games.cache_clear()
    lookup._loaded.clear()
    commands = [
        ("check", str(scenarios), "--json"),
        ("check", str(scenarios / "pacg"), "--full"),
        ("ask", "can a pawn pass a wall?"),
        ("show", "move.walls"),
        ("page", "16"),
        ("games",),
        ("myths",),
        ("readings",),
        ("lint", "--scenarios", str(scenarios)),
    ]
    try:
        for args in commands:
            r = cli(*args)  # rulings are other tests' business: here only that nothing is written
            assert "Traceback" not in r.err, (args, r.err[-2000:])
    finally:
        all_games.cache_clear()
        lookup._loaded.clear()
    assert (_tree_digest(rules), _tree_digest(scenarios)) == before


# --- the index cache, from the outside ----------------------------------------------
# More hostile cache files (FIFOs, links, huge files, stale temp files) are in test_cache.py.


@pytest.fixture
def fresh_lookup():
    """No index held in this process, before and after."""
    lookup._loaded.clear()
    all_games.cache_clear()
    yield
    lookup._loaded.clear()
    all_games.cache_clear()


@pytest.fixture
def system_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system temp folder, as tempfile.gettempdir() gives it, made a fresh one: an
    unwritable cache folder falls back to a private folder there (cache._private_temp)."""
    import tempfile

    folder = tmp_path / "system-temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


QUESTION = ("ask", "can a dark arts pawn pass a castle wall?", "--json")


def _reference_answer(tmp_path: Path) -> dict[str, object]:
    r = _rulesref(*QUESTION, env={"RULESREF_CACHE": str(tmp_path / "reference-cache")})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _private_file(system_temp: Path) -> Path:
    """The one index in the private temp folder, which is the user's alone (0700)."""
    private = system_temp / f"rulesref-{os.geteuid()}"
    assert private.is_dir() and not private.is_symlink()
    assert private.stat().st_mode & 0o777 == 0o700
    return _cache_file(private)


def test_cache_folder_is_a_file(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None, system_temp: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("I am a file")
    monkeypatch.setenv("RULESREF_CACHE", str(blocker))
    r = cli(*QUESTION)
    assert (r.code, r.err) == (0, "")
    assert json.loads(r.out) == _reference_answer(tmp_path)
    assert blocker.read_text() == "I am a file"
    _private_file(system_temp)


def test_cache_folder_read_only(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None, system_temp: Path
) -> None:
    """Unwritable: the index goes to the private temp folder, and the next run reads it from there."""
    if IS_ROOT:  # root writes through chmod: a folder below a file is as unwritable as it gets
        (tmp_path / "file").write_text("x")
        cache = tmp_path / "file" / "cache"
    else:
        cache = tmp_path / "ro"
        cache.mkdir()
        cache.chmod(0o500)
    monkeypatch.setenv("RULESREF_CACHE", str(cache))
    try:
        first = cli(*QUESTION)
        lookup._loaded.clear()  # a new process, as far as the index goes

        def refuse(*_: object) -> None:
            raise AssertionError("the index was built again although the private temp folder holds it")

        monkeypatch.setattr("rulesref.corpus.load_game", refuse)
        second = cli(*QUESTION)
    finally:
        if not IS_ROOT:
            cache.chmod(0o700)
    assert (first.code, first.err, second.code, second.err) == (0, "", 0, "")
    assert json.loads(first.out) == json.loads(second.out) == _reference_answer(tmp_path)
    _private_file(system_temp)


def _cache_file(cache: Path) -> Path:
    files = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert len(files) == 1, files
    return files[0]


# The cache file's layout (cache.py): magic (16 bytes), layout (4), payload length (8),
# key digest (32), payload CRC-32 (4), then the marshalled index (games and phrasing model). Offsets are fixed, or
# found by content, never a share of the file's length: the length varies with the temp
# path (clause records carry their file's path), and a flip's effect must not.
HEADER = 64
FIXED_FLIPS = {
    "magic": 0,
    "layout": 16,
    "length-low-byte": 20,
    "length-high-byte": 27,
    "key-digest": 40,
    "payload-checksum": 61,
    "payload-type-code": HEADER,
    "payload-byte-1000": HEADER + 1000,
    "payload-byte-100000": HEADER + 100_000,
}


def _flipped(data: bytes, at: int, mask: int = 0x5A) -> bytes:
    out = bytearray(data)
    out[at] ^= mask
    return bytes(out)


def _loadable_flips(data: bytes) -> dict[str, bytes]:
    """Flips that marshal does not notice (a letter's case in a string): only the checksum can."""
    games = marshal.loads(data[HEADER:])
    walls = next(r for r in games["games"][0]["clauses"] if marshal.loads(r)["id"] == "move.walls")
    title = data.index(walls) + walls.index(b"Castle walls are never a route")  # in a nested clause record
    field = data.index(b"postings", HEADER)  # a field name of a game
    out = {"clause-text-letter": _flipped(data, title + 7, 0x20), "field-name-letter": _flipped(data, field + 2, 0x20)}
    for name, bad in out.items():
        assert marshal.loads(bad[HEADER:]) != games, name  # loads, and differs: only the checksum tells
    return out


def _corruptions(data: bytes) -> dict[str, bytes]:
    import random

    n = len(data)
    forged_length = data[:20] + (5).to_bytes(8, "little") + data[28:HEADER] + b"[\xff\xff\xff\x7f"
    old_layout = marshal.dumps({"key": "an older rulesref", "games": marshal.loads(data[HEADER:])})
    return {
        "empty": b"",
        "garbage": b"not a cache at all\n" * 10,
        "truncated-in-magic": data[:10],
        "truncated-after-header": data[:HEADER],
        "truncated-in-payload": data[: HEADER + 1000],
        "truncated-last-byte": data[:-1],
        "one-byte-appended": data + b"\0",
        "huge-list-header": b"[\xff\xff\xff\x7f" + data,
        "huge-list-payload": forged_length,
        "older-layout": old_layout,
        "other-magic": b"rulesref-index\n\0" + data[16:],
        "random": random.Random(1).randbytes(n),
        **{name: _flipped(data, at) for name, at in FIXED_FLIPS.items()},
        **_loadable_flips(data),
        "every-500th-byte": bytes(b ^ 0x5A if i >= HEADER and i % 500 == 0 else b for i, b in enumerate(data)),
    }


def test_every_corrupt_cache_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    """Each damage, at a fixed place, is found by the header or the checksum: never loaded."""
    from rulesref import cache

    shutil.copytree(RULES, tmp_path / "rules")
    root = (tmp_path / "rules").resolve()
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULESREF_RULES", str(root))
    good = lookup.load_index()
    target = cache.path_for(root)
    data = target.read_bytes()
    assert cache.load(root, good["key"]) == good
    assert cache.notes()[-1].endswith(": read")
    reasons = {
        "magic": "not a rulesref index",
        "layout": "file layout",
        "length-low-byte": "where the header says",
        "key-digest": "built from other rule files or code",
        "payload-checksum": "checksum does not match",
        "clause-text-letter": "checksum does not match",
        "field-name-letter": "checksum does not match",
        "truncated-last-byte": "where the header says",
    }
    for name, bad in _corruptions(data).items():
        target.write_bytes(bad)
        assert cache.load(root, good["key"]) is None, name
        assert cache.notes()[-1].endswith("; rebuilt"), (name, cache.notes()[-1])
        assert reasons.get(name, "") in cache.notes()[-1], (name, cache.notes()[-1])
    # whole, with the right key and digest, but not an index: what a forger could write
    target.write_bytes(cache._file_bytes(good["key"], [{"id": 1}]))
    assert cache.load(root, good["key"]) is None
    assert "not shaped like an index" in cache.notes()[-1]


def test_corrupt_cache_files_are_rebuilt(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_lookup: None
) -> None:
    """Whatever is in the cache file, `ask` answers the same and leaves a good cache behind."""
    from rulesref import cache

    shutil.copytree(RULES, tmp_path / "rules")  # a copy: edits to rules/ meanwhile must not change answers
    root = (tmp_path / "rules").resolve()
    monkeypatch.setenv("RULESREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULESREF_RULES", str(root))
    want = cli(*QUESTION)
    assert want.code == 0, want.err
    target = _cache_file(tmp_path / "cache")
    good = target.read_bytes()
    body = marshal.loads(good[HEADER:])
    every = _corruptions(good)
    for name in ("empty", "huge-list-header", "truncated-in-payload", "key-digest", "payload-byte-1000",
                 "clause-text-letter", "field-name-letter", "older-layout"):  # fmt: skip
        target.write_bytes(every[name])
        lookup._loaded.clear()  # as a new process would: only the file to go by
        r = cli(*QUESTION)
        assert (r.code, r.err) == (0, ""), (name, r.err[-2000:])
        assert json.loads(r.out) == json.loads(want.out), name
        rebuilt = cache.load(root, cache.key(root))
        assert rebuilt is not None, name
        assert {k: rebuilt[k] for k in ("games", "learned")} == body, f"{name}: the cache is rebuilt whole"


def test_two_processes_rebuilding_at_once(tmp_path: Path) -> None:
    """Four processes start with no cache: all answer alike, and one whole cache file is left."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    env = {**os.environ, "RULESREF_RULES": str(rules), "RULESREF_CACHE": str(tmp_path / "cache")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "rulesref", *QUESTION],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for _ in range(4)
    ]
    results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    assert all(code == 0 and err == "" for code, _out, err in results), results
    outs = {out for _code, out, _err in results}
    assert len(outs) == 1
    assert sorted(p.name for p in (tmp_path / "cache").iterdir() if p.name.endswith(".tmp")) == []
    _cache_file(tmp_path / "cache")
    again = subprocess.run(
        [sys.executable, "-m", "rulesref", *QUESTION], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert (again.returncode, again.stdout) == (0, outs.pop())
