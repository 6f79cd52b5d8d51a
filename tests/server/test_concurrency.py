"""Requests and workers at once: nothing lost, nothing adjudicated twice.

Each thread has a client of its own on the same application and database (PostgreSQL:
row locks; SQLite: one writer at a time)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from hegemon.server import play
from hegemon.server.table import Lock, Table
from hegemon.server.worker import run_due
from hegemon.store import Store, models
from tests.server.conftest import Clock, Seated, User, seated_game


def _at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the jobs in threads released together."""
    start = threading.Barrier(len(jobs))

    def run(job: Callable[[], Any]) -> Any:
        start.wait()
        return job()

    with ThreadPoolExecutor(len(jobs)) as pool:
        return list(pool.map(run, jobs))


def _client_of(client: TestClient, user: User) -> User:
    """The same user, on a client of their own (a thread's)."""
    twin = object.__new__(User)
    twin.client = TestClient(client.app)
    twin.name, twin.headers = user.name, user.headers
    return twin


def test_powers_sending_orders_at_once_are_all_kept(
    client: TestClient, classic_game: Seated
) -> None:
    game = classic_game
    players = {power: _client_of(client, user) for power, user in game.players.items()}

    def send(power: str) -> Callable[[], Any]:
        def job() -> Any:
            menu = players[power].ok("get", f"{game.path}/options")["forms"]
            holds = [form["choices"][0]["text"] for form in menu]
            for hold in holds:  # in several goes, each kept
                players[power].ok("post", f"{game.path}/orders", {"orders": [hold]})
            return holds

        return job

    sent = dict(zip(players, _at_once([send(power) for power in players]), strict=True))
    seen = game.master.ok("get", game.path)["orders"]
    assert {power: sorted(seen[power]["orders"]) for power in players} == {
        power: sorted(holds) for power, holds in sent.items()
    }


def test_one_power_racing_itself_is_kept_or_told_of_the_conflict(
    client: TestClient, classic_game: Seated
) -> None:
    game = classic_game
    version = game.players["France"].ok("get", game.path)["orders"]["France"]["version"]
    orders = [["A par H"], ["A mar H"], ["F bre H"], ["A par - bur"]]
    france = [_client_of(client, game.players["France"]) for _ in orders]

    def send(user: User, given: list[str]) -> Callable[[], Any]:
        return lambda: user.post(f"{game.path}/orders", {"orders": given, "version": version})

    answers = _at_once([send(user, given) for user, given in zip(france, orders, strict=True)])
    statuses = Counter(a.status_code for a in answers)
    assert statuses[200] == 1 and statuses[409] == len(orders) - 1, statuses
    kept = next(a.json()["orders"] for a in answers if a.status_code == 200)
    assert game.master.ok("get", game.path)["orders"]["France"]["orders"] == kept


def test_one_power_sending_orders_twice_at_once_has_both_kept(
    store: Store, classic_game: Seated
) -> None:
    """The second submission reaches the power's orders while the first, which has
    changed them, has not committed yet: it waits for it, and adds to what it stored."""
    game = classic_game
    first_stored, first_may_commit = threading.Event(), threading.Event()

    def submit(orders: list[str], hold: bool) -> None:
        with store.writing() as session:
            table = Table.open(session, game.id, None, Lock.SHARE)
            play.submit(table, "France", orders)
            if hold:
                first_stored.set()
                first_may_commit.wait(10)

    first = threading.Thread(target=submit, args=(["A par - bur"], True))
    first.start()
    first_stored.wait(10)
    second = threading.Thread(target=submit, args=(["A mar H"], False))
    second.start()
    second.join(0.5)  # it waits for the first to commit
    first_may_commit.set()
    first.join()
    second.join()
    kept = game.master.ok("get", game.path)["orders"]["France"]["orders"]
    assert sorted(kept) == ["A Mar H", "A Par - Bur"]


def test_workers_and_the_game_master_never_adjudicate_a_phase_twice(
    client: TestClient, store: Store, clock: Clock
) -> None:
    policy = {"deadlines": {"other": 60}}
    games = [seated_game(client, "classic", prefix=f"g{n}", policy=policy) for n in range(3)]
    for _ in range(4):
        clock.advance(61)
        masters = [_client_of(client, g.master) for g in games]
        jobs: list[Callable[[], Any]] = [lambda: run_due(store, clock) for _ in range(3)]
        jobs += [
            partial(m.post, f"{g.path}/adjudicate") for m, g in zip(masters, games, strict=True)
        ]
        _at_once(jobs)
    with store.reading() as session:
        for game in games:
            row = session.get(models.Game, game.id)
            assert row is not None
            numbers = list(
                session.scalars(select(models.Phase.number).where(models.Phase.game_id == game.id))
            )
            assert sorted(numbers) == list(range(1, row.played + 1))
            logged = session.scalar(
                select(func.count()).where(
                    models.Audit.game_id == game.id, models.Audit.action == "adjudicated"
                )
            )
            assert logged == row.played >= 4
    for game in games:
        assert game.master.ok("get", f"{game.path}/verify")["sound"]
