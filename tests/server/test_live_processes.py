"""Live events across processes: two real `hegemon serve` processes on one fresh
PostgreSQL database. A message sent through one reaches, within a second, a stream opened
on the other (PostgreSQL's NOTIFY, heard by that process's listener); the process serving
a stream is killed (SIGKILL) while messages flow, and the client, reconnecting to the
other with the Last-Event-ID it had, misses nothing and gets nothing twice."""

from __future__ import annotations

import copy
import os
import signal
import threading
import time
from contextlib import suppress
from pathlib import Path

import httpx2 as httpx
import pytest
from benchmarks.server_load import postgres_schema

from tests.server.conftest import User, postgres_missing, seated_game
from tests.server.processes import served
from tests.server.test_events import Stream, stream


def _on(user: User, client: httpx.Client) -> User:
    """The same signed-in user, asking another process."""
    moved = copy.copy(user)
    moved.client = client  # type: ignore[assignment]
    return moved


def _drained(seen: Stream) -> None:
    """Whatever events reached the client before its connection broke."""
    with suppress(httpx.HTTPError):
        seen.rest()


def test_a_message_crosses_processes_and_a_stream_survives_its_process(tmp_path: Path) -> None:
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    with (
        postgres_schema() as url,
        served(url, tmp_path / "a.log") as (a, _),
        served(url, tmp_path / "b.log") as (b, process_b),
        httpx.Client(base_url=a, timeout=10) as to_a,
        httpx.Client(base_url=b, timeout=10) as to_b,
    ):
        game = seated_game(to_a, "classic", seed=7)  # type: ignore[arg-type]
        england, france = game.players["England"], game.players["France"]
        path = f"{game.path}/messages"
        with stream(france, game) as witness, stream(_on(france, to_b), game) as on_b:
            sent = time.monotonic()
            england.ok("post", path, {"to": ["France"], "text": "across"})
            got = on_b.until("message", text="across")
            assert got.at - sent < 1.0, f"{got.at - sent:.3f} s from A to a stream on B"

            def write() -> None:
                for number in range(1, 31):
                    england.ok("post", path, {"to": [], "text": f"public {number}"})
                    time.sleep(0.03)

            writing = threading.Thread(target=write)
            writing.start()
            on_b.until("message", text="public 5")
            os.kill(process_b.pid, signal.SIGKILL)
            process_b.wait()
            _drained(on_b)
            writing.join()
            resumed = {"headers": {"Last-Event-ID": on_b.events[-1].id}}
            with stream(france, game, **resumed) as on_a:
                on_a.until("message", text="public 30")
            witness.until("message", text="public 30")
        assert len(on_a.events) >= 20  # B was killed with most of the messages still to come
        had = [e.id for e in [*on_b.events, *on_a.events]]
        assert had == [e.id for e in witness.events]
        texts = [e.data["text"] for e in [*on_b.events, *on_a.events]]
        assert texts == ["across", *(f"public {n}" for n in range(1, 31))]
