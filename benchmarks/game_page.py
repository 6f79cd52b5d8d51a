"""A game's page as a player reads it, for each variant: its weight, as sent and as sent
gzip-compressed, and the server's CPU time to make it (`time.thread_time`: rendered and
compressed, in this thread, as the page's route does it), the median of several passes:

- a map new: the first board of its map that the process draws, which places its labels
  and compresses the layers every position of the map shares (the provinces' shapes,
  the coasts, the labels: `hegemon.render.board`); a board whose labels carry tags that
  changed (Africa II's "held by", when a state's centre changes hands) costs as much;
- a position new: its first reading, which draws the board and compresses what changed
  (`hegemon.server.web.boards`), and makes the reader's menu (`Table.offered`);
- a viewer new: the first reading by another viewer (the second power's player);
- a board kept: every later reading of it, until the next adjudication.

The goal is a page under 160 KB compressed and under 20 ms of the server's time. Each
variant's demo game (`hegemon serve --demo=humans`), seeded in a SQLite file of its own,
read by its first power's player.

    .venv/bin/python benchmarks/game_page.py [--passes N] [VARIANT...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.requests import Request

from hegemon.render.board import board_labels, label_layer
from hegemon.server import auth, create_app, demo
from hegemon.server.table import MENUS
from hegemon.server.views import FORM_LINES
from hegemon.server.web import pages
from hegemon.server.web.boards import BOARDS
from hegemon.store import Store
from hegemon.store.models import now
from hegemon.variants import available_variants, load_variant

PAGE_KB = 160  # the goals
PAGE_MS = 20.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="default: every installed variant")
    parser.add_argument("--passes", type=int, default=15, help="timed passes (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.variants or available_variants():
            print(_measure(name, Path(folder), args.passes), flush=True)
    return 0


def _measure(variant: str, folder: Path, passes: int) -> str:
    store = Store(f"sqlite:///{folder}/{variant}.db")
    store.upgrade()
    hasher = PasswordHasher.from_parameters(CHEAPEST)
    passwords = demo.seed(store, hasher, now(), variant)
    app = create_app(store=store, hasher=hasher)
    first, second = (power.lower() for power in list(load_variant(variant).powers)[:2])
    with TestClient(app) as client:
        cookies = [_cookie(client, name, passwords[name]) for name in (first, second)]
        plain = client.get("/games/1", headers={"Accept-Encoding": "identity"}).content
    page, other = (_page(app, store, cookie) for cookie in cookies)
    sent = page()
    map_new = median_cpu(page, passes, before=_forget_map)
    new = median_cpu(page, passes, before=_forget_position)
    viewer = median_cpu(other, passes, before=lambda: _forget_position(then=page))
    kept = median_cpu(page, passes)
    store.close()
    over = [
        what for what, bad in (("size", len(sent) > PAGE_KB * 1000), ("time", new > PAGE_MS)) if bad
    ]
    return (
        f"{variant}: game page {len(plain) / 1000:.0f} KB, {len(sent) / 1000:.0f} KB "
        f"gzip-compressed; server CPU: a map new {map_new:.1f} ms, a position new "
        f"{new:.1f} ms, a viewer new {viewer:.1f} ms, a board kept {kept:.1f} ms"
        f"{'  (over: ' + ', '.join(over) + ')' if over else ''}"
    )


def _cookie(client: TestClient, name: str, password: str) -> str:
    """The session cookie of that account, signed in (and the client's own, after)."""
    signed = {"name": name, "password": password, "cookie": True}
    client.post("/api/sessions", json=signed).raise_for_status()
    return f"{auth.COOKIE}={client.cookies[auth.COOKIE]}"


def _page(app: FastAPI, store: Store, cookie: str) -> Callable[[], bytes]:
    """The game page as its route makes it, for a browser that takes gzip."""
    headers = [(b"cookie", cookie.encode()), (b"accept-encoding", b"gzip, deflate, br")]
    scope = {"type": "http", "method": "GET", "path": "/games/1", "headers": headers,
             "query_string": b"", "app": app, "router": app.router}  # fmt: skip

    def page() -> bytes:
        answer = pages.game_page(Request(scope), 1, store, now(), None)
        assert answer.headers["content-encoding"] == "gzip"
        return bytes(answer.body)

    return page


def _forget_position(then: Callable[[], object] = bool) -> None:
    """No board kept, nor any menu (`Table.offered`) nor its forms' lines; then `then`."""
    BOARDS.forget()
    MENUS.clear()
    FORM_LINES.clear()
    then()


def _forget_map() -> None:
    """No board kept, no layer of a map compressed, no labels placed."""
    _forget_position()
    BOARDS.forget(layers=True)
    board_labels.cache_clear()
    label_layer.cache_clear()


def median_cpu(
    work: Callable[[], object],
    passes: int,
    before: Callable[[], object] = bool,
    clock: Callable[[], float] = time.thread_time,
) -> float:
    """The median CPU time of the work by `clock` (this thread's, unless told), in
    milliseconds, each time after `before` (not timed)."""
    times = []
    for _ in range(passes):
        before()
        started = clock()
        work()
        times.append((clock() - started) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
