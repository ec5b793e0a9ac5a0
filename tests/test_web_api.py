"""The web API (`rulesref serve`, docs/api.md): the same JSON as `--json`, checked against the
JSON Schemas in docs/json-schema and against the CLI's own output; and every hostile request
(huge and deep bodies, unknown keys, path-like ids, wrong methods, malformed text) gets a
JSON error with the right status, never a traceback or a path of the server."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'rulesref[web]')")
jsonschema = pytest.importorskip("jsonschema")

with warnings.catch_warnings():  # Starlette 1.x notes that its TestClient will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from rulesref.source import MAX_BYTES, MAX_DEPTH  # noqa: E402
from rulesref.templates import TOPICS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "json-schema"

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")  # the same note, when a client is made


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def _assert_valid(schema: dict[str, Any], data: object) -> None:
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def _assert_valid_entry(data: object) -> None:
    """One `check --json` entry: the schema's items, as a list of one."""
    _assert_valid(_schema("check.schema.json"), [data])


@pytest.fixture(scope="module")
def client() -> TestClient:
    from rulesref.web.app import create_app

    # raise_server_exceptions=False: a bug must reach the client as the server sends it
    return TestClient(create_app(), raise_server_exceptions=False)


def _no_leaks(text: str) -> None:
    """No traceback, no path of the server (the checkout, the temp folder) in a response."""
    assert "Traceback" not in text
    assert str(ROOT) not in text
    assert tempfile.gettempdir() not in text
    assert "rulesref-scenario-" not in text


# --- the same JSON as --json ------------------------------------------------------------

ASKS = {
    "hit": {"q": "can the DA pawn go thru a wall"},
    "hit-one-game": {"q": "does evading count as defeating", "game": "pacg"},
    "misreading": {"q": "dark arts pawns ignore walls because they ignore obstacles, right?"},
    "open-question": {"q": "is there a hand limit"},
    "miss": {"q": "purple elephants dancing on saturn"},
    "another-game": {"q": "is there a hand limit in chess"},
    "no-words": {"q": "the and of"},
}


@pytest.mark.parametrize("params", ASKS.values(), ids=ASKS.keys())
def test_ask_is_the_json_of_ask(client: TestClient, cli, params: dict[str, str]) -> None:
    r = client.get("/api/ask", params=params)
    assert r.status_code == 200
    data = r.json()
    _assert_valid(_schema("ask.schema.json"), data)
    args = ["ask", params["q"], "--json", *(["--game", params["game"]] if "game" in params else [])]
    assert data == json.loads(cli(*args).out)


def test_a_hit_names_its_page(client: TestClient) -> None:
    first = client.get("/api/ask", params={"q": "can the DA pawn go thru a wall"}).json()["results"][0]
    assert first["id"] == "move.walls" and first["pages"] == [10, 25]


def test_show_page_myths_readings_games_are_the_json_of_the_commands(client: TestClient, cli) -> None:
    pairs = {
        "/api/show/move.walls": ("show", "move.walls"),
        "/api/page/16": ("page", "16"),
        "/api/myths": ("myths",),
        "/api/readings": ("readings",),
        "/api/games": ("games",),
        "/api/myths?game=pacg": ("myths", "--game", "pacg"),
        "/api/readings?game=hvda": ("readings", "--game", "hvda"),
    }
    for url, args in pairs.items():
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.json() == json.loads(cli(*args, "--json").out), url


def test_every_dispute_topic_has_its_template_and_rules_cleanly(client: TestClient) -> None:
    topics = client.get("/api/topics").json()
    assert [t["topic"] for t in topics] == [t.name for t in TOPICS]
    for topic in topics:
        assert "yaml-language-server" not in topic["yaml"]  # no package path on a phone
        r = client.post("/api/check", content=topic["yaml"].encode())
        assert r.status_code == 200, (topic["topic"], r.text)
        entry = r.json()
        _assert_valid_entry(entry)
        assert entry["error"] is None and entry["file"] == "<request>"
        _no_leaks(r.text)


def test_check_rules_as_check_json_does(client: TestClient, cli) -> None:
    path = ROOT / "rulesref" / "templates" / "bump.yaml"
    entry = client.post("/api/check", content=path.read_bytes()).json()
    (expected,) = json.loads(cli("check", str(path), "--json").out)
    assert entry.pop("picture")  # the board picture, which the page shows
    assert {**entry, "file": expected["file"]} == expected


def test_the_default_game_of_serve(cli) -> None:
    from rulesref.web.app import create_app

    client = TestClient(create_app("pacg"))
    assert client.get("/api/settings").json() == {"game": "pacg"}
    assert {t["game"] for t in client.get("/api/topics").json()} == {"pacg"}
    assert client.get("/api/ask", params={"q": "is there a hand limit"}).json()["game"] == "pacg"


# --- hostile requests: a JSON error, the right status, and the server goes on ----------------

BAD = {
    "empty-question": ("GET", "/api/ask?q=", b"", 400, "q"),
    "long-question": ("GET", "/api/ask?q=" + "wall%20" * 2000, b"", 400, "q"),
    "top-not-a-number": ("GET", "/api/ask?q=walls&top=%D9%A3", b"", 400, "top"),
    "top-too-large": ("GET", "/api/ask?q=walls&top=1000", b"", 400, "top"),
    "unknown-game": ("GET", "/api/ask?q=walls&game=chess", b"", 400, "game"),
    "unknown-clause": ("GET", "/api/show/move.wals", b"", 404, None),
    "path-like-id": ("GET", "/api/show/..%2F..%2Fetc%2Fpasswd", b"", 404, None),
    "dotted-id": ("GET", "/api/show/..", b"", 404, None),
    "page-not-a-number": ("GET", "/api/page/ten", b"", 400, "page"),
    "page-huge": ("GET", "/api/page/" + "9" * 5000, b"", 400, "page"),
    "page-outside": ("GET", "/api/page/999", b"", 404, "page"),
    "no-such-route": ("GET", "/api/nothing", b"", 404, None),
    "a-file-of-the-server": ("GET", "/etc/passwd", b"", 404, None),
    "a-folder": ("GET", "/static/", b"", 404, None),
    "wrong-method-check": ("GET", "/api/check", b"", 405, None),
    "wrong-method-ask": ("POST", "/api/ask?q=walls", b"", 405, None),
    "empty-body": ("POST", "/api/check", b"  \n", 400, "body"),
    "huge-body": ("POST", "/api/check", b"#" * (MAX_BYTES + 1), 413, "body"),
    "deep-yaml": ("POST", "/api/check", b"[" * (MAX_DEPTH + 5), 422, None),
    "unknown-key": ("POST", "/api/check", b"game: pacg\ntitle: t\nfrobnicate: 1\n", 422, "frobnicate"),
    "malformed-json": ("POST", "/api/check", b'{"game": "pacg", "title": ', 422, None),
    "binary": ("POST", "/api/check", b"\x00\x01\x02", 422, None),
    "not-a-mapping": ("POST", "/api/check", b"- just\n- a list\n", 422, None),
    "path-in-game": ("POST", "/api/check", b"game: /etc/passwd\ntitle: t\n", 422, "game"),
}


@pytest.mark.parametrize("case", BAD.values(), ids=BAD.keys())
def test_a_hostile_request_gets_a_json_error(client: TestClient, case: tuple[str, str, bytes, int, Any]) -> None:
    method, url, body, status, field = case
    r = client.request(method, url, content=body or None)
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    data = r.json()
    error = data["error"]
    assert set(error) == {"file", "line", "column", "field", "message"}
    assert error["message"] and "\n" not in error["message"]
    if field is not None:
        assert error["field"] == field
    if status == 422:
        _assert_valid_entry(data)  # an unreadable scenario is a `check --json` entry
    _no_leaks(r.text)
    # and the server goes on answering
    assert client.get("/api/ask", params={"q": "walls"}).status_code == 200


@pytest.mark.parametrize("claimed", [str(MAX_BYTES + 1), "9" * 5000, "0" * 5000 + "1" * 9])
def test_a_body_that_claims_too_much_is_refused_before_it_is_read(client: TestClient, claimed: str) -> None:
    # a length of thousands of digits is too much too, not a number int() refuses to read
    r = client.post("/api/check", content=b"game: pacg\n", headers={"content-length": claimed})
    assert r.status_code == 413 and r.json()["error"]["field"] == "body"


def test_a_bug_is_one_generic_line_without_a_traceback(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import rulesref.lookup

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"secret detail {ROOT}")

    monkeypatch.setattr(rulesref.lookup, "ask", broken)
    r = client.get("/api/ask", params={"q": "walls"})
    assert r.status_code == 500
    assert "secret detail" not in r.text and "internal error" in r.json()["error"]["message"]
    _no_leaks(r.text)


def test_every_response_has_the_strict_headers(client: TestClient) -> None:
    for url in ("/", "/app.js", "/app.css", "/api/myths", "/api/nothing"):
        r = client.get(url)
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"


def test_the_page_uses_no_outside_asset(client: TestClient) -> None:
    for url in ("/", "/app.js", "/app.css"):
        text = client.get(url).text
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, url
    page = client.get("/").text
    assert "<script>" not in page and " style=" not in page  # nothing inline: the CSP would refuse it


# --- serve: the command line ---------------------------------------------------------------


def test_serve_says_where_and_warns_for_every_address() -> None:
    from rulesref.web.serve import announce

    out = io.StringIO()
    announce("http://192.168.1.5:8000/", "0.0.0.0", out)
    text = out.getvalue()
    assert "http://192.168.1.5:8000/" in text
    assert "Warning" in text and "everyone on this network" in text
    assert "█" in text or "▀" in text  # the QR code
    out = io.StringIO()
    announce("http://127.0.0.1:8000/", "127.0.0.1", out)
    assert "Warning" not in out.getvalue()


def test_serve_on_a_port_in_use_is_one_error_line(cli) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = cli("serve", "--port", str(port))
    assert r.code == 2
    assert r.err == f"Error: --port: port {port} is in use; choose another with --port\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--port", "70000"), "Error: --port: port 70000 is not 0 to 65535\n"),
        (("--host", "no such host.invalid"), "Error: --host: cannot use host"),
        (("--game", "chess"), "Error: unsupported game: 'chess'"),
    ],
)
def test_serve_refuses_a_bad_option(cli, args: tuple[str, ...], message: str) -> None:
    r = cli("serve", *args)
    assert r.code == 2 and r.err.startswith(message) and r.err.count("\n") == 1


def test_ask_and_check_never_load_the_web_stack() -> None:
    code = (
        "import sys, rulesref.cli as c\n"
        "codes = [c.run(['ask', 'walls', '--json']), c.run(['check', '--example', 'split-worked-example-2-and-4'])]\n"
        "web = [m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'segno', 'anyio')"
        " or m.startswith('rulesref.web')]\n"
        "print(web, file=sys.stderr)\n"
        "sys.exit(1 if web or codes != [0, 0] else 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
