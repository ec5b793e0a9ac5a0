"""Start the server: bind the socket, say the address (and a QR code of it), run uvicorn.

The socket is bound here, before uvicorn starts, so a port in use or a host that cannot be
bound is one clear error (not a log line and an exit 1), and ``--port 0`` prints the port
the system chose.
"""

from __future__ import annotations

import contextlib
import errno
import socket
import sys
from typing import TextIO

from rulesref.errors import RulesrefError

EVERYWHERE = ("0.0.0.0", "::")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; RulesrefError naming the option that is wrong."""
    if not 0 <= port <= 65535:
        raise RulesrefError(f"port {port} is not 0 to 65535", field="--port")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise RulesrefError(f"cannot use host {host!r}: {exc}", field="--host") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise RulesrefError(f"port {port} is in use; choose another with --port", field="--port") from None
        raise RulesrefError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", field="--host") from None
    return sock


def lan_address() -> str | None:
    """This machine's address on the local network, for a phone to open; None if unknown.

    Connecting a UDP socket sends nothing: it only makes the system choose the interface
    it would route through."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return None


def url_for(host: str, port: int) -> str:
    shown = (lan_address() or "127.0.0.1") if host in EVERYWHERE else host
    if ":" in shown:  # an IPv6 address goes in brackets in a URL
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def announce(url: str, host: str, out: TextIO) -> None:
    """The address and its QR code, and a warning when everyone on the network can reach it."""
    import segno

    print(f"rulesref is serving the rules page at {url}", file=out)
    if host in EVERYWHERE:
        print(
            f"Warning: --host {host} lets everyone on this network use the page (it reads nothing but the "
            "rules and what is posted to it). Stop it with Ctrl-C.",
            file=out,
        )
    elif host in ("127.0.0.1", "localhost", "::1"):
        print("Only this computer can open it; `--host 0.0.0.0` lets the phones on your network in.", file=out)
    print("Open it on a phone by pointing the camera at this code:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True)
    print("Ctrl-C stops the server.", file=out)
    out.flush()


def serve(host: str, port: int, game: str | None) -> None:
    """Run until Ctrl-C. Raises RulesrefError for an option that cannot be used."""
    import uvicorn

    from rulesref.web.app import create_app

    app = create_app(game)
    sock = bind(host, port)
    url = url_for(host, sock.getsockname()[1])
    announce(url, host, sys.stdout)
    config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
