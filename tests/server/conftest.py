"""The server's tests run on SQLite and on PostgreSQL alike: every test that takes the
`database` fixture runs once on a fresh SQLite file and once on a fresh schema of the
PostgreSQL server at 127.0.0.1:5432 (trust authentication, user postgres, database
test). Where that server does not answer, its runs are skipped and the run says so in its
summary, loudly, rather than passing quietly on SQLite alone.
"""

from __future__ import annotations

import socket
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from benchmarks.server_load import POSTGRES, postgres_schema
from fastapi.testclient import TestClient

from hegemon.server import create_app
from hegemon.server.limits import Limits
from hegemon.server.live import Streams
from hegemon.store import Store

PASSWORD = "correct horse"
CHEAP = PasswordHasher.from_parameters(CHEAPEST)  # argon2 all the same, but fast for tests
# The tests make many accounts and requests from one address, "testclient": limits that
# never get in their way (tests/server/test_limits.py tests the limits themselves).
MANY = "1000000/second"
GENEROUS = Limits(
    storage="memory://", signin=MANY, failures_account=MANY, failures_address=MANY,
    signup=MANY, writes_account=MANY, writes_address=MANY, press=MANY, hashes=8,
)  # fmt: skip

_postgres_problem: list[str] = []  # why PostgreSQL is not there, once asked


def postgres_missing() -> str | None:
    """Why the PostgreSQL server cannot be used, or None if it answers."""
    if not _postgres_problem:
        try:
            psycopg.connect(POSTGRES).close()
            _postgres_problem.append("")
        except psycopg.Error as exc:
            reason = f"PostgreSQL at 127.0.0.1:5432 did not answer ({str(exc).strip()})"
            _postgres_problem.append(reason)
            warnings.warn(f"{reason}: the server tests ran on SQLite only", stacklevel=1)
    return _postgres_problem[0] or None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _postgres_problem and _postgres_problem[0]:
        terminalreporter.write_sep("!", "server tests NOT run on PostgreSQL", red=True, bold=True)
        terminalreporter.write_line(_postgres_problem[0])


def fresh_database(kind: str, tmp_path: Any) -> Iterator[str]:
    """A new, empty database of that kind, its tables made: its URL, dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path}/hegemon.db"
        return
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    with postgres_schema() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """The URL of a fresh database, SQLite and then PostgreSQL."""
    yield from fresh_database(request.param, tmp_path)


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    opened = Store(database)
    opened.upgrade()
    yield opened
    opened.close()


def free_port() -> int:
    """A loopback port nobody listens on now (for a server a test starts there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Clock:
    """The server's time, moved on by the tests."""

    moment: datetime = field(default_factory=lambda: datetime(2030, 1, 1, 12, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(store: Store, clock: Clock) -> Iterator[TestClient]:
    app = create_app(store=store, hasher=CHEAP, clock=clock, limits=GENEROUS)
    # The test client never tells the app that a stream was closed: live streams end by
    # themselves at once (tests/server/test_events.py serves them through uvicorn).
    app.state.streams = Streams(lifetime=0.2)
    with TestClient(app) as test_client:
        yield test_client


class User:
    """One person using the API: an account, signed in, and the requests they make."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client, self.name = client, name
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        answer = client.post("/api/sessions", json={"name": name, "password": PASSWORD})
        self.headers = {"Authorization": f"Bearer {answer.json()['token']}"}

    def get(self, path: str, **options: Any) -> Any:
        return self.client.get(path, headers=self.headers, **options)

    def post(self, path: str, body: Any = None, **options: Any) -> Any:
        return self.client.post(path, json=body or {}, headers=self.headers, **options)

    def delete(self, path: str, **options: Any) -> Any:
        return self.client.delete(path, headers=self.headers, **options)

    def ok(self, method: str, path: str, body: Any = None, **options: Any) -> Any:
        """The answer's JSON, the request having succeeded."""
        if method == "post":
            answer = self.post(path, body, **options)
        else:
            answer = getattr(self, method)(path, **options)
        assert answer.status_code in (200, 201), f"{method} {path}: {answer.text}"
        return answer.json()


@dataclass
class Seated:
    """A game with its game master, a player for each power, and an observer."""

    id: int
    master: User
    players: dict[str, User]
    observer: User
    outsider: User

    @property
    def path(self) -> str:
        return f"/api/games/{self.id}"


def seated_game(
    client: TestClient,
    variant: str = "classic",
    free: tuple[str, ...] = (),
    prefix: str = "",
    **settings: Any,
) -> Seated:
    """A game of `variant` started, every seat taken but those `free`, its users' names
    starting with `prefix`."""
    master = User(client, f"{prefix}gm")
    game = master.ok("post", "/api/games", {"variant": variant, **settings})
    players = {}
    for power in game["powers"]:
        if power not in free:
            players[power] = User(client, prefix + power.lower().replace(" ", "_"))
            players[power].ok("post", f"/api/games/{game['id']}/join", {"power": power})
    if free:
        master.ok("post", f"/api/games/{game['id']}/start")
    observer = User(client, f"{prefix}watcher")
    observer.ok("post", f"/api/games/{game['id']}/observe")
    return Seated(game["id"], master, players, observer, User(client, f"{prefix}outsider"))


@pytest.fixture
def classic_game(client: TestClient) -> Seated:
    return seated_game(client, "classic", seed=7)
