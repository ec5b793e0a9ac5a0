"""The web app: the page (static files shipped in the package) and the JSON API under /api/.

Starlette, a small, well-kept ASGI toolkit: routing, requests and responses, and a test
client, without a framework's own data layer (the JSON contracts are rulesref's, built by
rulesref.contract). Everything a request carries is untrusted:

- no path is ever read from a request: the page's files are a fixed list, named here, and a
  scenario comes in the body, read as a file is (contract.rule_bytes, the same limits);
- a body over the scenario limit is refused before it is read in full;
- every bad input is a JSON error naming the field, never a traceback; an unexpected
  failure is one generic line (the server logs nothing about the request's content);
- a strict Content-Security-Policy: the page's own script and style only, no inline code.

The handlers are ``async`` and call the library directly, one request at a time on the
event loop: a lookup takes milliseconds, and the library's lazily built indexes and caches
are then never shared between threads.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulesref import contract
from rulesref.clause import SCHEMA_VERSION
from rulesref.errors import RulesrefError, ScenarioError, UnknownNameError
from rulesref.ruling import unreadable_json
from rulesref.source import MAX_BYTES
from rulesref.text import whole_number

QUESTION_CHARS = 2_000
"""The longest question the API reads: a table question is a line or two (`ask` reads 16 KB
from standard input, but a URL that long is refused by many proxies before it gets here)."""
TOP_MAX = 20
SCENARIO_NAME = "<request>"
"""How a posted scenario is named in its ruling and its errors: never a path of the server."""

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

PAGE_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
"""The page's files, by URL: the only files the server sends."""


class ApiError(Exception):
    """A bad request, answered as ``{"error": {...}}`` with an HTTP status."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field


def _error_body(message: str, field: str | None = None, **where: Any) -> dict[str, Any]:
    error = {"file": None, "line": None, "column": None, "field": field, "message": message}
    error.update(where)
    return {"schema_version": SCHEMA_VERSION, "error": error}


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _status(exc: RulesrefError) -> int:
    """404 for an id or page that names nothing, 400 for any other bad input."""
    return 404 if isinstance(exc, UnknownNameError) and not exc.message.startswith("unsupported game") else 400


def _game_arg(request: Request, default: str | None) -> str | None:
    raw = request.query_params.get("game")
    if raw is None or not raw.strip():
        return default
    return _short(raw, "game", 60)


def _short(value: str, field: str, limit: int) -> str:
    if len(value) > limit:
        raise ApiError(400, f"{field} is longer than {limit:,} characters", field)
    return value


def _whole_number(raw: str, field: str) -> int:
    number = whole_number(raw, 6)
    if number is None:
        raise ApiError(400, f"{field} must be a whole number, written in digits 0-9", field)
    return number


def create_app(game: str | None = None) -> Starlette:
    """The app; ``game`` (an id or alias, checked here) is the default of every ``game`` parameter."""
    from rulesref.games import all_games, find_game

    default = find_game(game).id if game is not None else None

    def games_for(request: Request) -> list[Any]:
        chosen = _game_arg(request, default)
        return [find_game(chosen)] if chosen is not None else list(all_games())

    async def page(request: Request) -> Response:
        name, media = PAGE_FILES[request.url.path]
        body = resources.files("rulesref.web").joinpath("static", name).read_bytes()
        return Response(body, media_type=media)

    async def ask(request: Request) -> Response:
        from rulesref.lookup import ask as lookup

        q = _short(request.query_params.get("q", ""), "q", QUESTION_CHARS)
        if not q.strip():
            raise ApiError(400, "the question is empty", "q")
        top = _whole_number(request.query_params.get("top", "5"), "top")
        if not 1 <= top <= TOP_MAX:
            raise ApiError(400, f"top must be 1 to {TOP_MAX}", "top")
        return _json(lookup(q, game=_game_arg(request, default), top=top).to_json())

    async def show(request: Request) -> Response:
        from rulesref.library import find_clause

        cid = _short(request.path_params["clause"], "id", 200)
        g, clause = find_clause(cid, _game_arg(request, default))
        return _json(clause.to_json(g.clauses))

    async def page_of_rules(request: Request) -> Response:
        from rulesref.library import clauses_on_page

        number = _whole_number(request.path_params["number"], "page")
        chosen = _game_arg(request, default)
        return _json(contract.page_json(number, chosen, clauses_on_page(number, chosen)))

    async def myths(request: Request) -> Response:
        return _json(contract.myths_json((g, m) for g in games_for(request) for m in g.misreadings))

    async def readings(request: Request) -> Response:
        return _json([r.to_json() for g in games_for(request) for r in g.readings.values()])

    async def games(request: Request) -> Response:
        return _json([g.to_json() for g in all_games()])

    async def settings(request: Request) -> Response:
        """What the page starts with: the game `serve --game` chose (null: every game)."""
        return _json({"game": default})

    async def topics(request: Request) -> Response:
        """The dispute topics of `rulesref new`, each with its template's text."""
        from rulesref import templates

        chosen = _game_arg(request, default)
        found = templates.topics(find_game(chosen).id if chosen else None)
        return _json(
            [
                {"topic": t.name, "game": t.game, "about": t.about, "yaml": _template(t.file.read_text("utf-8"))}
                for t in found
            ]
        )

    async def toc(request: Request) -> Response:
        """Every clause's id, title, pages and tags, for browsing by page and by topic."""
        return _json(
            [
                {"id": c.id, "game": g.id, "title": c.title, "pages": list(c.pages), "tags": list(c.tags)}
                for g in games_for(request)
                for c in g.clauses.values()
            ]
        )

    async def check(request: Request) -> Response:
        raw = await _body(request)
        try:
            ruling = contract.rule_bytes(raw, SCENARIO_NAME, picture=True)
        except RulesrefError as exc:
            return _json(unreadable_json(exc, SCENARIO_NAME), 422)
        return _json({**ruling.to_json(), "picture": ruling.picture})

    routes = [
        *(Route(path, page, methods=["GET", "HEAD"]) for path in PAGE_FILES),
        Route("/api/ask", ask, methods=["GET"]),
        Route("/api/show/{clause:str}", show, methods=["GET"]),
        Route("/api/page/{number:str}", page_of_rules, methods=["GET"]),
        Route("/api/myths", myths, methods=["GET"]),
        Route("/api/readings", readings, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/settings", settings, methods=["GET"]),
        Route("/api/topics", topics, methods=["GET"]),
        Route("/api/clauses", toc, methods=["GET"]),
        Route("/api/check", check, methods=["POST"]),
    ]
    handlers: dict[Any, Any] = {
        ApiError: _api_error,
        RulesrefError: _rulesref_error,
        HTTPException: _http_error,
        Exception: _internal_error,
    }
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.add_middleware(_Headers)
    return app


def _template(text: str) -> str:
    """A template as the page shows it: without its editor line, which names a schema file
    by a path (of the package) that means nothing on a phone."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith("# yaml-language-server:") else text


async def _body(request: Request) -> bytes:
    """The request body, at most MAX_BYTES: a longer one is refused before it is read in full."""
    declared = request.headers.get("content-length", "").lstrip("0")
    if declared.isascii() and declared.isdigit():
        # a length of more digits than the limit is over it: int() need not read thousands of them
        length = whole_number(declared, len(str(MAX_BYTES)))
        if length is None or length > MAX_BYTES:
            raise ApiError(413, f"the scenario is over {MAX_BYTES:,} bytes, the limit", "body")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():  # bounded: stops at the limit, whatever the sender says
        size += len(chunk)
        if size > MAX_BYTES:
            raise ApiError(413, f"the scenario is over {MAX_BYTES:,} bytes, the limit", "body")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        raise ApiError(400, "the body is empty: post a scenario's YAML", "body")
    return raw


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _json(_error_body(exc.message, exc.field), exc.status)


async def _rulesref_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RulesrefError)
    if isinstance(exc, ScenarioError):
        return _json(unreadable_json(exc, SCENARIO_NAME), 422)
    message = exc.message + (f"; {exc.hint}" if exc.hint else "")
    field = exc.field or ("game" if exc.message.startswith("unsupported game") else None)
    return _json(_error_body(message, field), _status(exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a wrong method) as JSON too."""
    assert isinstance(exc, HTTPException)
    words = {404: "no such page or API route", 405: "method not allowed here"}
    headers = {"Allow": exc.headers["Allow"]} if exc.headers and "Allow" in exc.headers else None
    response = _json(_error_body(words.get(exc.status_code, str(exc.detail))), exc.status_code)
    if headers:
        response.headers.update(headers)
    return response


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A bug in rulesref: one generic line, never the traceback or what it names."""
    return _json(_error_body("internal error in rulesref (a bug, not your input)"), 500)


class _Headers:
    """Adds the security headers to every response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
