"""Games nobody plays cannot hang the server (issue 29): adjudication plays one phase per
call or deadline, a phase that awaits nobody is due at once and played by the deadline
worker in a transaction of its own, a game ends by its rules (its last year checked at
every phase) or is paused after `pause_after` deadlines nobody played, and the worker
handles each game at most once a pass, so that a game due again and again holds up no
other: the played game beside them keeps its deadlines."""

from __future__ import annotations

import contextlib
import logging
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from benchmarks.server_load import postgres_schema
from fastapi.testclient import TestClient
from sqlalchemy import select

from hegemon import jsonio
from hegemon.position import MASTER, Phase, PhaseKind, Position, Season
from hegemon.randomplay import random_orders
from hegemon.server import adjudication, create_app
from hegemon.server.adjudication import deadline_of
from hegemon.server.policy import Policy
from hegemon.server.table import Lock, Table
from hegemon.server.worker import run_due
from hegemon.store import Store, models
from hegemon.store.records import current_position, variant_of
from hegemon.variants import load_variant
from hegemon.variants.african_diplomacy_ii import AfricanState
from tests.server.conftest import CHEAP, GENEROUS, Clock, Seated, postgres_missing, seated_game

THREE = ["Red", "Blue", "Green"]
CLASSIC = tuple(load_variant("classic").powers)
SUB_SAHARAN = tuple(load_variant("sub_saharan").powers)
MINUTES_10 = {"other": 600}  # every kind of phase: ten minutes
PLACEMENTS = 3 * 4  # three players, four armies each
LATE = timedelta(seconds=5)  # the most a played game's deadline may be missed by


def _empty_africa(client: TestClient, prefix: str, **policy: Any) -> Seated:
    """An African Diplomacy II game of three seats that its game master starts empty."""
    return seated_game(
        client,
        "african_diplomacy_ii",
        free=tuple(THREE),
        prefix=prefix,
        seats=THREE,
        options={"last_year": 1903},
        seed=5,
        policy={"deadlines": MINUTES_10, **policy},
    )


def _bare_africa(
    client: TestClient, store: Store, prefix: str, now: datetime, **policy: Any
) -> Seated:
    """An African Diplomacy II game in Winter 1901 where nobody has a unit and Red holds
    Bamako, undeclared: the Winter awaits Red (who may declare it a home), and each Spring
    and Fall after it awaits nobody. Its start is written over the stored game's, as a
    game file must start where the variant does."""
    game = _empty_africa(client, prefix, **policy)
    winter = Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT)
    state = AfricanState(tuple(THREE), (), {})
    start = Position.create(winter, {}, {"bam": "Red"}, state=state)
    with store.writing() as session:
        table = Table.open(session, game.id, None, Lock.UPDATE)
        table.game.start, table.game.phase = jsonio.position_to_json(start, MASTER), winter.code
        table.__dict__["position"] = start
        table.game.deadline = deadline_of(table, now)
    return game


def _row(store: Store, game_id: int) -> models.Game:
    with store.reading() as session:
        game = session.get(models.Game, game_id)
        assert game is not None
        return game


def _actions(store: Store, game_id: int) -> list[models.Audit]:
    with store.reading() as session:
        query = select(models.Audit).where(models.Audit.game_id == game_id)
        return list(session.scalars(query.order_by(models.Audit.id)))


def _give_orders(store: Store, game: Seated, rng: random.Random) -> None:
    """Every player sends orders for the phase (random ones, those the judge refuses
    left out), none says ready: the phase waits for its deadline."""
    with store.reading() as session:
        row = session.get(models.Game, game.id)
        assert row is not None
        variant, position = variant_of(row), current_position(session, row)
    for power, orders in random_orders(variant, position, rng).items():
        texts = [o.format() for o in orders]
        answer = game.players[power].post(f"{game.path}/orders", {"orders": texts})
        if answer.status_code == 422:
            refused = {problem.split(":")[0] for problem in answer.json()["problems"]}
            kept = [t for t in texts if t not in refused]
            game.players[power].ok("post", f"{game.path}/orders", {"orders": kept})


def _utc(moment: datetime) -> datetime:
    """A time the database gave back, SQLite's (without its zone) read as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _next_deadline(store: Store) -> datetime | None:
    with store.reading() as session:
        return session.scalar(
            select(models.Game.deadline)
            .where(models.Game.status == "active")
            .order_by(models.Game.deadline)
            .limit(1)
        )


def test_empty_games_end_or_pause_by_their_rules_while_a_played_game_keeps_its_deadlines(
    client: TestClient, store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hegemon.adjudication")
    ending = _empty_africa(client, "e", pause_after=0)  # never paused: ends in 1901
    pausing = _empty_africa(client, "p")  # the default: paused after 3 idle deadlines
    policy: dict[str, object] = {"deadlines": MINUTES_10}
    classic = seated_game(client, "classic", free=CLASSIC, prefix="c", seed=5, policy=policy)
    policy = {"deadlines": MINUTES_10, "pause_after": 0}
    capped = seated_game(client, "sub_saharan", free=SUB_SAHARAN, prefix="s", seed=5,
                         options={"year_cap": 1}, policy=policy)  # fmt: skip
    empties = (ending, pausing, classic, capped)
    policy = {"deadlines": {"other": 1000}}
    played = seated_game(client, "classic", prefix="x", seed=5, policy=policy)
    rng = random.Random(3)
    _give_orders(store, played, rng)
    # The clock moves to the next deadline of any game (a second past it), or stays where
    # it is if a game is due at once; the worker makes one pass each time.
    passes = 0
    while any(_row(store, g.id).status == "active" for g in empties):
        passes += 1
        assert passes <= 100, "the empty games went on past their bound"
        due = _next_deadline(store)
        assert due is not None
        clock.moment = max(clock.moment, _utc(due) + timedelta(seconds=1))
        before = _row(store, played.id)
        run_due(store, clock)
        after = _row(store, played.id)
        assert before.deadline is not None
        if _utc(before.deadline) <= clock.moment:  # due: played at this very pass
            assert after.played == before.played + 1
            assert clock.moment - _utc(before.deadline) < LATE
            _give_orders(store, played, rng)
        else:
            assert after.played == before.played

    ended = _row(store, ending.id)  # nobody placed an army: over as the first year begins
    assert (ended.status, ended.played, ended.phase) == ("ended", 1 + PLACEMENTS, "S1901M")
    assert ended.ended == {"termination": "empty_board", "draw": THREE}
    capped_row = _row(store, capped.id)  # its last year, 1881: over at its Winter
    assert (capped_row.status, capped_row.played, capped_row.phase) == ("ended", 2, "W1881A")
    assert capped_row.ended == {"termination": "last_year", "draw": list(SUB_SAHARAN)}
    reason = (
        "paused by the server: no orders by 3 deadlines in a row; its game master may resume it"
    )
    for game, phases in ((pausing, 1 + 2), (classic, 2)):  # paused at the third idle deadline
        row = _row(store, game.id)
        assert (row.status, row.played, row.idle_deadlines) == ("paused", phases, 3)
        assert row.pause_reason == reason
        assert game.observer.ok("get", game.path)["pause_reason"] == reason  # told to all
        last = _actions(store, game.id)[-1]
        assert (last.action, last.detail, last.user_id) == ("paused", {"reason": reason}, None)
    assert _row(store, played.id).played >= 6 and _row(store, played.id).status == "active"

    logged = [r for r in caplog.records if r.name == "hegemon.adjudication"]
    first = next(r for r in logged if r.getMessage() == "adjudicated")
    assert (first.game, first.phase, first.number) == (ending.id, "W1900L", 1)  # type: ignore[attr-defined]
    assert first.seconds >= 0  # type: ignore[attr-defined]
    assert sum(r.getMessage() == "paused" for r in logged) == 2


def test_the_game_master_adjudicates_one_phase_when_the_next_awaits_nobody(
    client: TestClient, store: Store, clock: Clock
) -> None:
    # No deadlines at all: the game master plays every phase. The Winter leads to Spring
    # 1902, where nobody has a unit: the call returns after the Winter, and the Spring is
    # due at once all the same, as is the Fall, for the deadline worker; the next Winter
    # awaits Red again, with no deadline.
    game = _bare_africa(client, store, "b", clock(), deadlines={"other": 0})
    game_id = game.id
    answer = game.master.ok("post", f"{game.path}/adjudicate")
    assert answer == {"adjudicated": ["W1901A"], "phase": "S1902M"}
    row = _row(store, game_id)
    assert row.deadline is not None and _utc(row.deadline) == clock.moment
    assert run_due(store, clock) == 1  # the Spring; the Fall waits for the next pass
    assert _row(store, game_id).phase == "F1902M"
    assert run_due(store, clock) == 1
    row = _row(store, game_id)
    assert (row.phase, row.deadline, row.idle_deadlines) == ("W1902A", None, 0)
    assert run_due(store, clock) == 0


def test_a_game_that_starts_with_a_phase_awaiting_nobody_plays_it_at_the_workers_look(
    client: TestClient, store: Store, clock: Clock
) -> None:
    game = _empty_africa(client, "l", deadlines={"other": 0})  # started by its master
    row = _row(store, game.id)
    assert (row.phase, row.played) == ("W1900L", 0)  # the start played nothing
    assert row.deadline is not None and _utc(row.deadline) == clock.moment
    assert run_due(store, clock) == 1
    row = _row(store, game.id)
    assert (row.phase, row.deadline) == ("W1900P", None)  # a placement awaits a player


def test_orders_from_anyone_start_the_count_of_idle_deadlines_again(
    client: TestClient, store: Store, clock: Clock
) -> None:
    game = seated_game(client, "classic", prefix="r", policy={"deadlines": MINUTES_10})
    for idle in (1, 2):
        clock.advance(601)
        assert run_due(store, clock) == 1
        assert _row(store, game.id).idle_deadlines == idle
    game.players["Italy"].ok("post", f"{game.path}/orders", {"orders": ["A Ven H"]})
    clock.advance(601)
    assert run_due(store, clock) == 1  # played by someone: the count starts again
    assert _row(store, game.id).idle_deadlines == 0
    game.players["Turkey"].ok("post", f"{game.path}/ready")  # ready alone counts too
    clock.advance(601)
    run_due(store, clock)
    row = _row(store, game.id)
    assert (row.status, row.idle_deadlines) == ("active", 0)


def test_a_paused_game_resumes_at_the_phase_it_paused_with_its_whole_length(
    client: TestClient, store: Store, clock: Clock
) -> None:
    game = seated_game(
        client, "classic", prefix="z", policy={"deadlines": MINUTES_10, "pause_after": 1}
    )
    clock.advance(601)
    assert run_due(store, clock) == 0  # paused, the phase not played
    view = game.players["France"].ok("get", game.path)
    assert (view["status"], view["phase"], view["deadline"]) == ("paused", "S1901M", None)
    assert view["pause_reason"].startswith("paused by the server: no orders by the last deadline")
    clock.advance(3600)
    game.master.ok("post", f"{game.path}/resume")
    row = _row(store, game.id)
    assert (row.status, row.pause_reason, row.idle_deadlines) == ("active", None, 0)
    assert row.deadline is not None
    assert _utc(row.deadline) == clock.moment + timedelta(seconds=600)
    assert _actions(store, game.id)[-1].action == "resumed"


def test_pause_after_is_a_policy_setting_of_its_own(client: TestClient) -> None:
    # A policy stored before the setting existed loads with its default.
    stored = {"deadlines": {"other": 60}, "early": True, "grace": 0, "disorder_after": 2}
    assert Policy.from_json(stored).pause_after == 3
    gm = seated_game(client, "classic", prefix="q").master
    for bad in (-1, 1001, 2.5, "often"):
        answer = gm.post("/api/games", {"variant": "classic", "policy": {"pause_after": bad}})
        assert answer.status_code == 422 and "pause_after" in answer.json()["detail"]
    made = gm.ok("post", "/api/games", {"variant": "classic", "policy": {"pause_after": 0}})
    assert made["policy"]["pause_after"] == 0


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # its statement timeout
def test_a_game_stuck_in_the_database_holds_up_no_other(
    client: TestClient,
    store: Store,
    database: str,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Another connection holds a lock that the first game's adjudication waits for: its
    # statement timeout ends the wait, the game is logged and passed over, and the second
    # game due is adjudicated in the same pass, the lock still held: the pass did not
    # wait for its release, which comes only after a minute (were there no timeout, the
    # pass would end then, rather than hang the test).
    monkeypatch.setenv(adjudication.TIMEOUT_VARIABLE, "0.5")
    stuck = seated_game(client, "classic", prefix="s", policy={"deadlines": {"other": 60}})
    other = seated_game(client, "classic", prefix="o", policy={"deadlines": {"other": 61}})
    clock.advance(62)
    released = threading.Event()

    def release() -> None:
        released.set()
        holder.rollback()

    with psycopg.connect(database.replace("+psycopg", "")) as holder:
        holder.execute("SELECT * FROM pending_orders WHERE game_id = %s FOR UPDATE", [stuck.id])
        timer = threading.Timer(60, release)
        timer.start()
        assert run_due(store, clock) == 1
        held_throughout = not released.is_set()
        timer.cancel()
        holder.rollback()
    assert held_throughout, "the pass waited for the lock's release, not for its timeout"
    assert (_row(store, stuck.id).played, _row(store, other.id).played) == (0, 1)
    assert any(f"game {stuck.id}: its deadline failed" in r.getMessage() for r in caplog.records)
    assert run_due(store, clock) == 1  # free again: played at the next pass
    assert _row(store, stuck.id).played == 1


@pytest.fixture
def postgres_store() -> Iterator[Store]:
    """A fresh PostgreSQL schema's store, its tables made."""
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    with postgres_schema() as url:
        opened = Store(url)
        opened.upgrade()
        yield opened
        opened.close()


@contextlib.contextmanager
def worker_process(store: Store, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A `hegemon worker` process on the store's database, looking every second when
    idle, stopped by its own id at the end; its log in `log`, for a failure to show."""
    url = store.engine.url.render_as_string(hide_password=False)
    command = [sys.executable, "-m", "hegemon.cli", "worker", "--database", url, "--poll", "1"]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_a_worker_process_keeps_a_played_games_deadlines_beside_empty_games(
    postgres_store: Store, tmp_path: Path
) -> None:
    # Games nobody plays beside the played one: an African Diplomacy II game nobody places
    # an army in (a placement a second, then its end), and three where nobody has a unit,
    # whose Spring and Fall are due again at once after every phase and whose Winter lasts
    # a second, never paused: the real worker handles them all along. The played game's
    # deadlines (3 s) are met all the same: counted in the worker's work rather than in
    # seconds (which a loaded machine stretches), it is played at the latest in the pass
    # after the one under way at its deadline, so no empty game plays more than two phases
    # between its deadline and its adjudication.
    store = postgres_store
    client = TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS))  # on the real clock
    policy = {"deadlines": {"other": 1}, "pause_after": 0}
    empties = [_empty_africa(client, "e", **policy).id]
    empties += [_bare_africa(client, store, f"b{n}", models.now(), **policy).id for n in range(3)]
    with worker_process(store, tmp_path / "worker.log") as worker:
        played = seated_game(
            client, "classic", prefix="x", seed=5, policy={"deadlines": {"other": 3}}
        )
        rng = random.Random(3)
        for number in (1, 2, 3):
            row = _row(store, played.id)
            deadline = row.deadline
            assert row.played == number - 1 and deadline is not None
            _give_orders(store, played, rng)
            phase = _wait_for(store, played.id, number)
            assert phase.adjudicated >= deadline, f"phase {number} early"
            between = _phases_played(store, empties, deadline, phase.adjudicated)
            assert max(between.values(), default=0) <= 2, f"phase {number} late: {between}"
        for game_id in empties:  # handled all along, not only between the played phases
            _wait_for(store, game_id, 6)
        assert worker.poll() is None


# The most a test waits for the worker, in wall time: never reached unless it is stuck.
PATIENCE = timedelta(seconds=120)


def _wait_for(store: Store, game_id: int, number: int) -> models.Phase:
    """The game's phase `number` once adjudicated (it must be within `PATIENCE`)."""
    until = models.now() + PATIENCE
    while True:
        with store.reading() as session:
            query = select(models.Phase).where(
                models.Phase.game_id == game_id, models.Phase.number == number
            )
            phase = session.scalar(query)
        if phase is not None:
            return phase
        assert models.now() < until, f"game {game_id}: phase {number} was not adjudicated"
        time.sleep(0.1)


def _phases_played(
    store: Store, game_ids: list[int], after: datetime, before: datetime
) -> Counter[int]:
    """How many phases each game played between two moments."""
    with store.reading() as session:
        query = select(models.Phase.game_id).where(
            models.Phase.game_id.in_(game_ids),
            models.Phase.adjudicated > after,
            models.Phase.adjudicated < before,
        )
        return Counter(session.scalars(query))


def test_the_adjudication_timeout_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(adjudication.TIMEOUT_VARIABLE, raising=False)
    assert adjudication.statement_timeout() == 30
    monkeypatch.setenv(adjudication.TIMEOUT_VARIABLE, "2.5")
    assert adjudication.statement_timeout() == 2.5
    for bad in ("soon", "-1", "nan"):
        monkeypatch.setenv(adjudication.TIMEOUT_VARIABLE, bad)
        with pytest.raises(ValueError, match="HEGEMON_ADJUDICATION_TIMEOUT"):
            adjudication.statement_timeout()
