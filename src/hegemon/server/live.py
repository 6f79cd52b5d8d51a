"""Waking the live streams of a game when its events are committed (docs/server.md, "Live
events").

Each stream (`hegemon.server.routes.live`) waits on a `Waiter` registered with this
process's `WAKEUPS` under its game. A change wakes them twice over: in the process that
made it, as its transaction commits (`hegemon.server.events`); in every other process
sharing a PostgreSQL database, by the ``NOTIFY`` that `events.publish` sends in the same
transaction, which PostgreSQL delivers at commit to each process's one `Listener`. A
wake-up only says "read again": the events' rows are the truth, and a stream reads them
every few seconds anyway, so that a notification lost (a listener reconnecting) delays an
event but never loses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import FastAPI

from hegemon.server.limits import Limited
from hegemon.store import Store

log = logging.getLogger("hegemon.live")

CHANNEL = "hegemon_events"  # PostgreSQL's channel: its payload is the game's id
RECONNECT = 2.0  # seconds before the listener connects again after losing its connection
LISTEN_TICK = 1.0  # seconds between the listener's looks at whether to stop


class Waiter:
    """One stream waiting for its game to change, in its own event loop; woken from any
    thread."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits
            self._loop.call_soon_threadsafe(self._woken.set)

    async def wait(self, seconds: float) -> bool:
        """Until woken or `seconds` have passed: whether woken. A wake-up that came since
        the last wait counts (it is cleared here, before the stream reads again)."""
        with anyio.move_on_after(seconds):
            await self._woken.wait()
        woken = self._woken.is_set()
        self._woken.clear()
        return woken


class Wakeups:
    """The waiters of this process, by game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[int, set[Waiter]] = {}

    @contextlib.contextmanager
    def watching(self, game_id: int) -> Iterator[Waiter]:
        waiter = Waiter()
        with self._lock:
            self._waiting.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                self._waiting[game_id].discard(waiter)
                if not self._waiting[game_id]:
                    del self._waiting[game_id]

    def wake(self, game_id: int) -> None:
        with self._lock:
            waiting = list(self._waiting.get(game_id, ()))
        for waiter in waiting:
            waiter.wake()

    def wake_all(self) -> None:
        with self._lock:
            waiting = [w for game in self._waiting.values() for w in game]
        for waiter in waiting:
            waiter.wake()


WAKEUPS = Wakeups()


@dataclass
class Streams:
    """The live streams of this process: how each behaves, and how many each account
    holds open (at most `most` at once: a page per tab, a few tabs)."""

    most: int = 5  # streams an account may hold open at once, in each process
    heartbeat: float = 15.0  # seconds between comments that keep proxies from closing it
    reread: float = 5.0  # seconds between reads when nothing wakes it; the session checked
    lifetime: float = 3600.0  # seconds a stream lasts; the client then resumes where it was
    _open: Counter[int] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, user_id: int) -> Callable[[], None]:
        """One of the account's streams, or Limited (429); what gives it back."""
        with self._lock:
            if self._open[user_id] >= self.most:
                raise Limited(
                    f"at most {self.most} live streams at once per account: close one first",
                    round(self.reread),
                )
            self._open[user_id] += 1
        given_back = threading.Event()

        def give_back() -> None:
            with self._lock:
                if not given_back.is_set():
                    given_back.set()
                    self._open[user_id] -= 1
                    if not self._open[user_id]:
                        del self._open[user_id]

        return give_back


class Listener:
    """This process's one ``LISTEN`` on PostgreSQL, in a thread of its own, on a
    connection of its own (opened as the store opens every connection, its timeouts and
    keepalives included): each notification wakes the streams of the game it names."""

    def __init__(self, store: Store, wakeups: Wakeups = WAKEUPS) -> None:
        self.store, self.wakeups = store, wakeups
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hegemon-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=LISTEN_TICK * 3)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as exc:  # the database went away: listen again once it is back
                log.warning("live events: listening stopped, again in %ss: %s", RECONNECT, exc)
                self._stop.wait(RECONNECT)

    def _listen(self) -> None:
        pooled = self.store.engine.raw_connection()
        connection: Any = pooled.driver_connection  # psycopg's own Connection
        pooled.detach()  # this thread's alone, closed at the end, never back in the pool
        try:
            connection.rollback()  # whatever the pool's check began
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
            # Whatever was committed while nobody listened is read now.
            self.wakeups.wake_all()
            while not self._stop.is_set():
                for note in connection.notifies(timeout=LISTEN_TICK):
                    if note.payload.isdigit():
                        self.wakeups.wake(int(note.payload))
        finally:
            connection.close()


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The application's life: on PostgreSQL, its listener runs while it serves."""
    store: Store = app.state.store
    listener = None if store.sqlite else Listener(store)
    if listener is not None:
        listener.start()
    try:
        yield
    finally:
        if listener is not None:
            listener.stop()
