"""A game's live events (GET /api/games/{id}/events), on SQLite and PostgreSQL: each event
reaches, as it is committed, the members who may see it and nobody else; a stream resumed
after the last event it had (Last-Event-ID, ?after=) misses nothing and repeats nothing;
outsiders are refused, a signed-out caller's stream ends, and an account holds few at
once. tests/server/test_live_processes.py follows events across two server processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg
import pytest
import uvicorn
from benchmarks.server_load import _free_port
from fastapi import FastAPI

from hegemon.position import OBSERVER, Viewer
from hegemon.server import create_app, events
from hegemon.server.live import CHANNEL, Listener, Streams, Wakeups
from hegemon.store import Store, models
from tests.server.conftest import (
    CHEAP,
    GENEROUS,
    Clock,
    Seated,
    User,
    fresh_database,
    seated_game,
)

# Streams last a few seconds, so that a test waiting for an event that never comes ends;
# they read again on their own only after longer than that, so that an event that comes
# at once came because its commit woke the stream.
LIFETIME = 4.0
SLOW_REREAD = 30.0


@dataclass(frozen=True)
class Received:
    id: str
    kind: str
    data: dict[str, Any]
    at: float  # time.monotonic() when it arrived


@dataclass
class Stream:
    """A live stream as a client reads it: its events so far."""

    lines: Iterator[str]
    events: list[Received]

    def next(self) -> Received | None:
        """The next event, or None once the stream has ended."""
        fields: dict[str, str] = {}
        for line in self.lines:
            if line.startswith(":"):
                continue  # a heartbeat
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            if fields:
                got = Received(
                    fields["id"], fields["event"], json.loads(fields["data"]), time.monotonic()
                )
                self.events.append(got)
                return got
        return None

    def until(self, kind: str, **data: Any) -> Received:
        """The events up to the first of `kind` whose data has these values (the last)."""
        while (got := self.next()) is not None:
            if got.kind == kind and all(got.data.get(k) == v for k, v in data.items()):
                return got
        raise AssertionError(f"the stream ended without {kind} {data}: {self.events}")

    def rest(self) -> list[Received]:
        """Every event until the stream ends."""
        while self.next() is not None:
            pass
        return self.events


@contextmanager
def stream(user: User, game: Seated, **options: Any) -> Iterator[Stream]:
    """`user`'s stream of the game's events, `options` its query (`after`) and headers."""
    headers = {**user.headers, **options.pop("headers", {})}
    with user.client.stream(
        "GET", f"{game.path}/events", params=options, headers=headers
    ) as answer:
        assert answer.status_code == 200, answer.read()
        assert answer.headers["content-type"].startswith("text/event-stream")
        yield Stream(answer.iter_lines(), [])


@dataclass
class Served:
    """The app served by uvicorn in a thread, as `hegemon serve` serves it (a client that
    closes a stream is seen to go), and a client of it."""

    app: FastAPI
    http: httpx.Client

    @property
    def streams(self) -> Streams:
        settings: Streams = self.app.state.streams
        return settings


@pytest.fixture
def served(store: Store, clock: Clock) -> Iterator[Served]:
    app = create_app(store=store, hasher=CHEAP, clock=clock, limits=GENEROUS)
    app.state.streams = Streams(lifetime=LIFETIME, reread=SLOW_REREAD)
    port = _free_port()
    config = uvicorn.Config(app, port=port, log_level="warning", timeout_graceful_shutdown=1)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        yield Served(app, http)
    running.should_exit = True
    thread.join()


@pytest.fixture
def game(served: Served) -> Seated:
    return seated_game(served.http, "classic", seed=7)  # type: ignore[arg-type]


def _publish(store: Store, game: Seated, kind: str, payload: dict[str, Any], **options: Any) -> str:
    with store.writing() as session:
        return events.publish(session, game.id, kind, payload, **options).token


def test_orders_given_reach_every_member_at_once(game: Seated) -> None:
    """France's orders in: the event reaches another player, the observer and the game
    master, each within moments (woken by the commit, not by a later read), and names
    France and the phase, never the orders."""
    watchers = [game.players["England"], game.observer, game.master]
    with streams_of(watchers, game) as streams:
        sent = time.monotonic()
        game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A Par - Bur"]})
        for watcher in streams:
            got = watcher.until("orders")
            assert got.data == {"power": "France", "phase": "S1901M", "received": True}
            assert got.at - sent < 1.0
            assert "Bur" not in json.dumps([e.data for e in watcher.events])


@contextmanager
def streams_of(users: list[User], game: Seated, **options: Any) -> Iterator[list[Stream]]:
    """A stream for each user, all open at once."""
    opened: list[Stream] = []
    contexts = [stream(user, game, **options) for user in users]
    try:
        for context in contexts:
            opened.append(context.__enter__())
        yield opened
    finally:
        for context in contexts[: len(opened)]:
            context.__exit__(None, None, None)


def test_an_event_for_some_reaches_them_alone(game: Seated, store: Store) -> None:
    """An event for England alone reaches England and the game master; France and the
    observer never see it: the next event they get is the public one after it."""
    everyone = [game.players["England"], game.master, game.players["France"], game.observer]
    with streams_of(everyone, game) as (england, master, france, observer):
        private = _publish(store, game, "ready", {"power": "England"}, audience=["England"])
        public = _publish(store, game, "ready", {"power": "France"})
        for seeing in (england, master):
            assert [e.id for e in (seeing.next(), seeing.next()) if e] == [private, public]
        for blind in (france, observer):
            first = blind.next()
            assert first is not None and first.id == public


def test_progress_is_told_as_it_happens(game: Seated) -> None:
    """Orders withdrawn, ready, a phase adjudicated, paused and resumed: each an event,
    and an order replaced (whose orders are in is the same) none."""
    france, path = game.players["France"], game.path
    with stream(game.observer, game) as seen:
        france.ok("post", f"{path}/orders", {"orders": ["A Par - Bur"]})
        france.ok("post", f"{path}/orders", {"orders": ["A Par - Pic"]})  # replaced
        france.ok("delete", f"{path}/orders")
        france.ok("post", f"{path}/ready", {"ready": True})
        game.master.ok("post", f"{path}/pause")
        game.master.ok("post", f"{path}/resume")
        game.master.ok("post", f"{path}/adjudicate", {})
        seen.until("phase")
    told = [(e.kind, e.data) for e in seen.events]
    assert len({e.id for e in seen.events}) == len(seen.events)
    assert told == [
        ("orders", {"power": "France", "phase": "S1901M", "received": True}),
        ("orders", {"power": "France", "phase": "S1901M", "received": False}),
        ("ready", {"power": "France", "ready": True}),
        ("game", {"status": "paused", "change": "paused", "deadline": None}),
        ("game", {"status": "active", "change": "resumed", "deadline": told[4][1]["deadline"]}),
        ("phase", {"phase": "S1901M", "number": 1, "next": "F1901M"}),
    ]


def test_a_stream_resumed_misses_nothing_and_repeats_nothing(game: Seated) -> None:
    """A stream cut after some events and opened again after the last it had (by
    Last-Event-ID, which wins over the query's `after`, as an EventSource reconnecting
    sends both) gets every event since, once: what a stream open all along got."""
    england, path = game.players["England"], game.path
    with stream(game.master, game) as witness:
        with stream(england, game) as first:
            game.players["France"].ok("post", f"{path}/orders", {"orders": ["A Par - Bur"]})
            game.players["Germany"].ok("post", f"{path}/orders", {"orders": ["A Ber - Kie"]})
            began = first.until("orders", power="France").id
            last = first.until("orders", power="Germany").id
        game.players["Italy"].ok("post", f"{path}/orders", {"orders": ["A Rom - Apu"]})
        resumed = {"after": began, "headers": {"Last-Event-ID": last}}
        with stream(england, game, **resumed) as second:
            game.players["Russia"].ok("post", f"{path}/orders", {"orders": ["A Mos - Ukr"]})
            second.until("orders", power="Russia")
        witness.until("orders", power="Russia")
    had = [e.id for e in [*first.events, *second.events]]
    assert had == [e.id for e in witness.events]
    assert [e.data["power"] for e in second.events] == ["Italy", "Russia"]
    with stream(england, game, after=began) as again:  # the query alone
        game.players["Turkey"].ok("post", f"{path}/orders", {"orders": ["A Con - Bul"]})
        again.until("orders", power="Turkey")
    assert [e.id for e in again.events[:3]] == had[1:]


def test_an_event_committed_without_a_wakeup_still_arrives(
    served: Served, game: Seated, store: Store
) -> None:
    """The rows are the truth: an event whose wake-up is lost (written here as bare rows,
    as if its notification had gone astray) arrives at the stream's next read."""
    served.streams.reread = 0.3
    with stream(game.observer, game) as seen:
        with store.writing() as session:
            counter = session.get(models.Counter, (game.id, events.EVENTS))
            assert counter is not None
            counter.last += 1
            payload = {"power": "France", "ready": True}
            session.add(
                models.Event(
                    game_id=game.id, seq=counter.last, token="bare", kind="ready", payload=payload
                )
            )
        assert seen.until("ready").id == "bare"


def test_outsiders_are_refused_and_bad_resumes_named(served: Served, game: Seated) -> None:
    path = f"{game.path}/events"
    assert game.outsider.get(path).status_code == 403
    assert game.master.get("/api/games/999/events").status_code == 404
    assert served.http.get(path).status_code == 401
    for given in ("seven", "a b"):
        bad = served.http.get(path, headers={**game.master.headers, "Last-Event-ID": given})
        assert bad.status_code == 422 and "Last-Event-ID" in bad.json()["detail"]
    bad = game.master.get(path, params={"after": "seven"})
    assert bad.json() == {"detail": f"after: no event of game {game.id} has the id 'seven'"}


def test_a_signed_out_callers_stream_ends(served: Served, game: Seated) -> None:
    served.streams.reread = 0.2
    england = game.players["England"]
    with stream(england, game) as seen:
        england.ok("delete", "/api/sessions/current")
        started = time.monotonic()
        seen.rest()
        assert time.monotonic() - started < 2


def test_an_account_holds_few_streams_at_once(served: Served, game: Seated) -> None:
    served.streams.most = 2
    england = game.players["England"]
    with streams_of([england, england], game):
        refused = england.get(f"{game.path}/events")
        assert refused.status_code == 429
        assert "at most 2 live streams" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) > 0
        with stream(game.players["France"], game):
            pass  # another account's are its own
    deadline = time.monotonic() + 2
    while True:  # given back as the server sees the streams closed
        with served.http.stream("GET", f"{game.path}/events", headers=england.headers) as again:
            if again.status_code == 200:
                break
        assert time.monotonic() < deadline, "the streams closed were not given back"
        time.sleep(0.05)


def test_a_notification_wakes_the_streams_of_its_game(tmp_path: Path) -> None:
    """PostgreSQL: the process's listener, once listening, wakes a game's waiters when
    another connection notifies the channel with the game's number (as another process's
    `publish` does at its commit), and not another game's."""
    with contextlib.ExitStack() as stack:
        store = Store(
            stack.enter_context(contextlib.contextmanager(fresh_database)("postgresql", tmp_path))
        )
        stack.callback(store.close)
        url = store.engine.url.set(drivername="postgresql", query={})
        wakeups = Wakeups()
        listener = Listener(store, wakeups)
        stack.callback(listener.stop)

        async def woken() -> list[bool]:
            with (
                wakeups.watching(424242) as waiter,
                psycopg.connect(
                    url.render_as_string(hide_password=False), autocommit=True
                ) as other,
            ):
                listener.start()  # the waiter watches first: the listener's first wake is its
                said = [await waiter.wait(10)]  # listening: it wakes every stream
                for game in ("7", "424242"):
                    other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game))
                    said.append(await waiter.wait(2))
                return said

        assert asyncio.run(woken()) == [True, False, True]


def test_a_message_reaches_its_readers_as_each_reads_it(served: Served) -> None:
    """England writes to France: France and England get the message as each reads it
    (the answer of GET /messages), Germany and the observer nothing of it; grey press
    reaches everyone unsigned, the game master with its author."""
    game = seated_game(served.http, "classic", seed=7, policy={"press": {"grey": True}})  # type: ignore[arg-type]
    england, france, germany = (game.players[p] for p in ("England", "France", "Germany"))
    readers = [england, france, germany, game.observer, game.master]
    with streams_of(readers, game) as (to_england, to_france, to_germany, watching, master):
        england.ok("post", f"{game.path}/messages", {"to": ["France"], "text": "<b>hi</b>"})
        england.ok("post", f"{game.path}/messages", {"to": [], "text": "boo", "grey": True})
        for private in (to_england, to_france):
            got = private.until("message", channel="England,France")
            read = france.ok("get", f"{game.path}/messages", params={"channel": "England,France"})
            assert got.data == read[-1]
            assert got.data["text"] == "<b>hi</b>" and got.data["sender"] == "England"
        for blind in (to_germany, watching):
            grey = blind.until("message")
            assert grey.data["channel"] == "public" and grey.data["sender"] is None
            assert "author" not in grey.data
        assert master.until("message", channel="public").data["author"] == "England"
        assert all(e.data.get("sender") != "England" for e in to_germany.events)


def test_a_player_whose_seat_is_given_to_another_reads_no_more_of_it(game: Seated) -> None:
    """The game master gives England's seat to the observer: England's stream ends at
    once, before any message to England is sent; the observer's too (it now plays), and
    opened again it reads as England."""
    england, watcher = game.players["England"], game.observer
    with streams_of([england, watcher], game) as (old, new):
        game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A Par - Bur"]})
        before = old.until("orders").id
        started = time.monotonic()
        game.master.ok("post", f"{game.path}/replace", {"power": "England", "user": "watcher"})
        game.players["France"].ok(
            "post", f"{game.path}/messages", {"to": ["England"], "text": "for England"}
        )
        for ended in (old, new):
            assert all(e.kind != "message" for e in ended.rest())
        assert time.monotonic() - started < 2
    with stream(watcher, game, after=before) as again:
        assert again.until("message").data["text"] == "for England"


def test_no_stream_ties_the_ottoman_patron_to_the_empires_press(
    served: Served, store: Store
) -> None:
    """Europe 1615: Spain, the Empire's patron, writes as the Empire in white and grey
    press and to the game master, who relays. Every other player and the observer get, on
    their streams, the Empire's public messages as they read them (signed by the Empire or
    nobody) and nothing else while it writes: no event names Spain, none carries an
    author, none of the Empire's channel with the game master reaches them."""
    served.streams.lifetime = 3.0
    game = seated_game(served.http, "europe_1615", seed=3, policy={"press": {"grey": True}})  # type: ignore[arg-type]
    spain, empire, path = game.players["Spain"], "Ottoman Empire", game.path
    spain.ok("post", f"{path}/orders", {"orders": ["20: OTE"]})
    game.master.ok("post", f"{path}/adjudicate", {})
    others = [u for p, u in game.players.items() if p != "Spain"] + [game.observer]
    with streams_of(others, game) as seen:
        spain.ok("post", f"{path}/messages", {"to": [], "text": "white", "voice": empire})
        grey = {"to": [], "text": "grey", "grey": True, "voice": empire}
        spain.ok("post", f"{path}/messages", grey)
        spain.ok("post", f"{path}/messages", {"to": ["master"], "text": "hush", "voice": empire})
        game.master.ok("post", f"{path}/messages", {"to": [empire], "text": "relayed"})
        got = [stream.rest() for stream in seen]
    for user, events_got in zip(others, got, strict=True):
        public = user.ok("get", f"{path}/messages", params={"channel": "public"})
        assert [e.data for e in events_got] == public[-2:], user.name
        assert [e.data["sender"] for e in events_got] == [empire, None]
        assert "Spain" not in json.dumps([e.data for e in events_got])


def test_a_page_begins_after_the_latest_event_its_reader_may_see(
    game: Seated, store: Store
) -> None:
    """`events.latest`: where a page that has read the game begins its stream; never an
    event kept from its reader."""
    public = _publish(store, game, "ready", {"power": "France"})
    kept = _publish(store, game, "ready", {"power": "England"}, audience=["England"])
    with store.reading() as session:
        assert events.latest(session, game.id, Viewer(power="France")) == public
        assert events.latest(session, game.id, Viewer(power="England")) == kept
        assert events.latest(session, game.id, OBSERVER) == public
    with stream(game.players["France"], game, after=public) as seen:
        game.players["Germany"].ok("post", f"{game.path}/orders", {"orders": ["A Ber - Kie"]})
        first = seen.next()  # England's event kept from it, Germany's orders next
        assert first is not None and (first.kind, first.data["power"]) == ("orders", "Germany")
