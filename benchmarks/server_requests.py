"""The server's CPU per request, for the requests players make most, on classic's demo
game read and played by its French player: each request sent straight to the ASGI app in
this process (no network, no client), its CPU time counted in every thread of the process
(`time.process_time`: the event loop's and the worker thread's that runs the route), the
median of many. The targets are issue 27's.

- an order submission: one order given (`POST /api/games/1/orders`), replacing the one
  given before (the two alternate), with the server's limits on as a public site has them;
- the game read as JSON (`GET /api/games/1`);
- the board while ordering (`GET /api/games/1/board.svg?orders=true`), after an order
  given: a board not kept;
- the game page (`GET /games/1`), its board kept.

    .venv/bin/python benchmarks/server_requests.py [--passes N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hegemon.server import auth, create_app, demo
from hegemon.server.limits import Limits
from hegemon.store import Store
from hegemon.store.models import now

sys.path.insert(0, str(Path(__file__).parents[1]))  # run as a script: benchmarks.* importable

from benchmarks.game_page import median_cpu
from benchmarks.targets import Target, at_most

TARGETS: dict[str, Target] = {
    "an order submission": at_most(2, "ms"),
    "the game page": at_most(6, "ms"),
}
ORDERS = ("A Par - Bur", "A Par - Pic")
PLENTY = "1000000/second"  # the limits on and counted, never reached


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=300, help="requests of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for line in _measure(Path(folder), args.passes):
            print(line, flush=True)
    return 0


def _measure(folder: Path, passes: int) -> list[str]:
    store = Store(f"sqlite:///{folder}/classic.db")
    store.upgrade()
    hasher = PasswordHasher.from_parameters(CHEAPEST)
    password = demo.seed(store, hasher, now(), "classic")["france"]
    limits = Limits(writes_account=PLENTY, writes_address=PLENTY)  # counted in the database
    app = create_app(store=store, hasher=hasher, limits=limits)
    with TestClient(app) as client:
        signed = {"name": "france", "password": password}
        token = client.post("/api/sessions", json=signed).json()["token"]
        client.post("/api/sessions", json={**signed, "cookie": True}).raise_for_status()
        cookie = f"{auth.COOKIE}={client.cookies[auth.COOKIE]}"
        ask = _asker(app, client, [(b"authorization", f"Bearer {token}".encode())])
        browse = _asker(app, client, [(b"cookie", cookie.encode()), (b"accept-encoding", b"gzip")])
        given = iter(range(10**9))

        def submission() -> None:
            order = ORDERS[next(given) % 2]
            ask("POST", "/api/games/1/orders", body={"orders": [order]})

        def ordering_board() -> None:
            submission()
            ask("GET", "/api/games/1/board.svg", query="orders=true")

        readings = {
            "an order submission": _cpu(submission, passes),
            "the game read as JSON": _cpu(lambda: ask("GET", "/api/games/1"), passes),
            "the board while ordering": _cpu(ordering_board, passes) - _cpu(submission, passes),
            "the game page": _cpu(lambda: browse("GET", "/games/1"), passes),
        }
    store.close()
    return [_line(what, ms) for what, ms in readings.items()]


def _line(what: str, ms: float) -> str:
    target = TARGETS.get(what)
    verdict = "" if target is None else f", {target.verdict(ms)}"
    return f"classic, {what}: {ms:.2f} ms of server CPU{verdict}"


def _asker(app: FastAPI, client: TestClient, headers: list[Any]) -> Callable[..., None]:
    """A function sending one request straight to the app, on the client's event loop,
    with those headers (a program's token, or a browser's cookie); it must succeed."""
    portal = client.portal
    assert portal is not None, "the client's event loop runs inside its with block"

    def ask(method: str, path: str, query: str = "", body: Any = None) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        sent = [(b"content-type", b"application/json")] if body is not None else []
        status = portal.call(_request, app, method, path, query, [*headers, *sent], data)
        assert 200 <= status < 300, f"{method} {path}: {status}"

    return ask


async def _request(
    app: FastAPI, method: str, path: str, query: str, headers: list[Any], body: bytes
) -> int:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http",
        "method": method, "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(), "headers": headers, "app": app,
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    incoming = [{"type": "http.request", "body": body, "more_body": False}]
    answered: list[int] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop() if incoming else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answered.append(message["status"])

    await app(scope, receive, send)
    return answered[0]


def _cpu(work: Callable[[], object], passes: int) -> float:
    """The median CPU time of the process over the work, in milliseconds."""
    return median_cpu(work, passes, clock=time.process_time)


if __name__ == "__main__":
    sys.exit(main())
