"""A PostgreSQL that stops answering, through a proxy the test controls: a real `hegemon
serve` answers 503 with Retry-After within its connect timeout (never hangs), changes
nothing, and serves again once the database is back; a `hegemon worker` started while it
is away keeps retrying, adjudicates a due game once it is back, and waits out a second
loss the same way."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx2 as httpx
import pytest
from benchmarks.server_load import HEGEMON, _free_port, _wait_for, postgres_schema
from fastapi.testclient import TestClient
from sqlalchemy import update

from hegemon.server import create_app
from hegemon.server.routes.operations import READY_WITHIN
from hegemon.store import Store, models
from hegemon.store.database import Timeouts
from hegemon.store.models import now
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, postgres_missing, seated_game

CONNECT_TIMEOUT = 2  # seconds, set for the processes under test
MARGIN = 4  # seconds beyond it that a slow, shared machine may take to answer


class Proxy:
    """TCP from a port of its own to PostgreSQL's. Stopped, it closes every connection
    and then takes new ones without ever answering, as a hung server would."""

    def __init__(self, upstream: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.forwarding = True
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, direct: str) -> str:
        return direct.replace("127.0.0.1:5432", f"127.0.0.1:{self.port}")

    def stop(self) -> None:
        with self.lock:
            self.forwarding = False
            self._close_all()

    def start(self) -> None:
        with self.lock:
            self.forwarding = True
            self._close_all()  # those held unanswered

    def close(self) -> None:
        self.listener.close()
        self.stop()

    def _close_all(self) -> None:
        for connection in self.sockets:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            connection.close()
        self.sockets.clear()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.sockets.append(client)
                if not self.forwarding:
                    continue  # held: it will never hear back
                try:
                    server = socket.create_connection(self.upstream)
                except OSError:
                    client.close()
                    continue
                self.sockets.append(server)
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            target.sendall(chunk)
    except OSError:
        pass
    for end in (source, target):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def direct_url() -> Iterator[str]:
    """A fresh schema of the local PostgreSQL, its tables made."""
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    with postgres_schema() as url:
        store = Store(url)
        store.upgrade()
        store.close()
        yield url


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    opened = Proxy()
    yield opened
    opened.close()


@pytest.fixture
def environment() -> dict[str, str]:
    return {
        **os.environ,
        "HEGEMON_DB_CONNECT_TIMEOUT": str(CONNECT_TIMEOUT),
        "HEGEMON_DB_POOL_TIMEOUT": str(CONNECT_TIMEOUT),
        "HEGEMON_ARGON2": "1,1024,1",
        "HEGEMON_LOG_FORMAT": "json",
    }


def test_a_stopped_database_gives_503_within_the_timeout_and_recovers(
    direct_url: str, proxy: Proxy, environment: dict[str, str], tmp_path: Path
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [HEGEMON, "serve", "--database", proxy.url(direct_url), "--port", str(port),
               "--no-deadlines"]  # fmt: skip
    with (tmp_path / "serve.log").open("wb") as log:
        server = subprocess.Popen(command, env=environment, stdout=log, stderr=log)
        try:
            _wait_for(base)
            _outage_and_recovery(base, proxy)
        finally:
            server.terminate()
            server.wait(timeout=15)


def _outage_and_recovery(base: str, proxy: Proxy) -> None:
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/api/accounts", json={"name": "ann", "password": PASSWORD})
    token = client.post("/api/sessions", json={"name": "ann", "password": PASSWORD}).json()
    headers = {"Authorization": f"Bearer {token['token']}"}
    game = client.post("/api/games", json={"variant": "classic"}, headers=headers).json()
    assert client.get("/readyz").status_code == 200

    proxy.stop()
    for method, path, body in [
        ("GET", f"/api/games/{game['id']}", None),
        ("POST", "/api/games", {"variant": "classic", "title": "made while away"}),
        ("GET", "/readyz", None),
    ]:
        started = time.monotonic()
        answer = client.request(method, path, json=body, headers=headers)
        took = time.monotonic() - started
        assert answer.status_code == 503, f"{method} {path}: {answer.text}"
        assert int(answer.headers["Retry-After"]) > 0
        assert took < CONNECT_TIMEOUT + MARGIN, f"{method} {path} took {took:.1f} s"
    assert client.get("/healthz").status_code == 200  # the process itself is up

    proxy.start()
    answer = _first_success(client, f"/api/games/{game['id']}", headers)
    assert answer.json()["id"] == game["id"]
    assert client.get("/readyz").status_code == 200
    titles = [g["title"] for g in client.get("/api/games", headers=headers).json()]
    assert "made while away" not in titles  # the refused request stored nothing


def _first_success(client: httpx.Client, path: str, headers: dict[str, str]) -> httpx.Response:
    """The database back, the next requests answer (a dead connection of the pool is
    found by its ping and replaced); a few seconds allowed for that."""
    until = time.monotonic() + 2 * CONNECT_TIMEOUT + MARGIN
    while True:
        answer = client.get(path, headers=headers)
        if answer.status_code == 200 or time.monotonic() > until:
            assert answer.status_code == 200, answer.text
            return answer
        time.sleep(0.2)


def test_a_worker_started_without_its_database_waits_and_then_works(
    direct_url: str, proxy: Proxy, environment: dict[str, str], tmp_path: Path
) -> None:
    game_id = _game_past_its_deadline(direct_url)
    proxy.stop()
    log_path = tmp_path / "worker.log"
    command = [HEGEMON, "worker", "--database", proxy.url(direct_url), "--poll", "0.2"]
    environment = {**environment, "HEGEMON_WORKER_RETRY_MAX": "1"}
    with log_path.open("wb") as log:
        worker = subprocess.Popen(command, env=environment, stdout=log, stderr=log)
        try:
            _wait_until(lambda: len(_events(log_path, "database unavailable")) >= 3, 30)
            assert worker.poll() is None, log_path.read_text()  # still running, retrying
            retries = _events(log_path, "database unavailable")
            assert [line["attempt"] for line in retries[:3]] == [1, 2, 3]
            assert _phases(direct_url, game_id) == 0

            proxy.start()
            _wait_until(lambda: _phases(direct_url, game_id) > 0, 30)
            assert _events(log_path, "database available")

            # Lost again while it runs: waited out the same way, the worker still running.
            proxy.stop()
            _wait_until(lambda: len(_events(log_path, "database unavailable")) > len(retries), 30)
            assert worker.poll() is None, log_path.read_text()
        finally:
            worker.terminate()
            worker.wait(timeout=15)


def _game_past_its_deadline(url: str) -> int:
    """A classic game, all seats taken, whose first deadline passed a minute ago."""
    store = Store(url)
    with TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS)) as client:
        game_id = seated_game(client, "classic", seed=7).id
    with store.writing() as session:
        past = now() - timedelta(minutes=1)
        session.execute(update(models.Game).where(models.Game.id == game_id).values(deadline=past))
    store.close()
    return game_id


def _phases(url: str, game_id: int) -> int:
    store = Store(url)
    try:
        with store.reading() as session:
            return session.get_one(models.Game, game_id).played
    finally:
        store.close()


def _events(path: Path, event: str) -> list[dict[str, object]]:
    lines = [line for line in path.read_text().splitlines() if line.startswith("{")]
    return [parsed for parsed in map(json.loads, lines) if parsed.get("event") == event]


def _wait_until(condition: object, seconds: float) -> None:
    assert callable(condition)
    until = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < until, "not within the time allowed"
        time.sleep(0.2)


def test_readyz_answers_within_its_own_limit_however_long_the_connect_timeout(
    direct_url: str, proxy: Proxy
) -> None:
    store = Store(proxy.url(direct_url), Timeouts(connect=READY_WITHIN + 10))
    with TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS)) as client:
        assert client.get("/readyz").status_code == 200
        proxy.stop()
        started = time.monotonic()
        answer = client.get("/readyz")
        took = time.monotonic() - started
    store.close()
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert f"within {READY_WITHIN:g} s" in answer.json()["detail"]
    assert took < READY_WITHIN + MARGIN
