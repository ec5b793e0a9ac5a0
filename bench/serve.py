"""A bounded load test of the real `rulesref serve` on 127.0.0.1 (issue 16).

    python bench/serve.py [--asks N] [--checks N] [--clients 1,8]

Starts the server on a free port (``--port 0``) in a subprocess, warms it up, then sends a
fixed number of ``GET /api/ask`` requests from one client and from several at once, and a
fixed number of ``POST /api/check`` requests with the bump template's YAML, and prints the
rate and the latency percentiles. Needs the web extra (``pip install '.[web]'``) and httpx
(a test dependency). The client shares the machine with the server, so on a 2-core machine
the figures are a floor; the server itself answers one request at a time on its event loop.
"""

from __future__ import annotations

import argparse
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = (
    "can the DA pawn go thru a wall",
    "is there a hand limit",
    "does evading count as defeating",
    "what happens when a dark arts pawn lands on a house pawn",
    "can I split a 3+3 card",
)
STARTUP_LINES = 50
"""The server prints its address within its first lines (then a QR code); no more are read."""


def _start() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulesref", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    for _ in range(STARTUP_LINES):
        line = proc.stdout.readline()
        if "http://" in line:
            return proc, next(w for w in line.split() if w.startswith("http://"))
    proc.terminate()
    raise SystemExit("bench/serve.py: the server printed no address")


def _percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))] * 1000


def asks(url: str, n: int, clients: int) -> str:
    """``n`` asks spread over ``clients`` threads: rate and percentiles."""
    latencies: list[float] = []
    lock = threading.Lock()
    work: queue.Queue[int] = queue.Queue()
    for i in range(n):
        work.put(i)

    def client() -> None:
        with httpx.Client(base_url=url) as c:
            while True:
                try:
                    i = work.get_nowait()
                except queue.Empty:
                    return
                start = time.perf_counter()
                r = c.get("/api/ask", params={"q": QUESTIONS[i % len(QUESTIONS)]})
                took = time.perf_counter() - start
                r.raise_for_status()
                with lock:
                    latencies.append(took)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = time.perf_counter() - start
    latencies.sort()
    return (
        f"asks, {clients} client(s), {n} requests: {n / total:.0f}/s, p50 {_percentile(latencies, 0.5):.1f} ms, "
        f"p95 {_percentile(latencies, 0.95):.1f} ms, p99 {_percentile(latencies, 0.99):.1f} ms"
    )


def checks(url: str, n: int) -> str:
    """``n`` checks of the bump template, one after another."""
    body = (ROOT / "rulesref" / "templates" / "bump.yaml").read_bytes()
    latencies = []
    with httpx.Client(base_url=url) as c:
        for _ in range(n):
            start = time.perf_counter()
            r = c.post("/api/check", content=body)
            latencies.append(time.perf_counter() - start)
            r.raise_for_status()
    latencies.sort()
    return (
        f"check of the bump template, {n} in a row: p50 {_percentile(latencies, 0.5):.1f} ms, "
        f"p95 {_percentile(latencies, 0.95):.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=600)
    parser.add_argument("--checks", type=int, default=50)
    parser.add_argument("--clients", default="1,8", help="client counts to run, comma-separated")
    args = parser.parse_args()
    proc, url = _start()
    try:
        with httpx.Client(base_url=url) as c:  # warm: the index and the engines load once
            for q in QUESTIONS:
                c.get("/api/ask", params={"q": q})
        print(f"rulesref serve at {url}")
        print(checks(url, args.checks))
        for clients in (int(x) for x in args.clients.split(",")):
            print(asks(url, args.asks, clients))
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
