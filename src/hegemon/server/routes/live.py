"""A game's live events, as Server-Sent Events (docs/server.md, "Live events"): each event
of the game that the caller may see, as it is committed, through the caller's view.

A stream reads the game's events (`hegemon.server.events`) after the last it sent, each
time it is woken (`hegemon.server.live`) and every few seconds anyway; each read checks
again that the caller is signed in and takes part in the game, and ends the stream if not.
It resumes after the event the client names (``Last-Event-ID``, which a browser's
EventSource sends as it reconnects, or ``?after=``), so that a client that reconnects,
to this process or another, misses nothing and gets nothing twice.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

import anyio
from fastapi import APIRouter, Header, Query, Request, Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from hegemon.server import answers, auth, events, press
from hegemon.server.auth import AuthError
from hegemon.server.deps import Caller, StoreDep, Token
from hegemon.server.live import WAKEUPS, Streams
from hegemon.server.schemas import RowId
from hegemon.server.table import Refusal, Table, member_view
from hegemon.store import Store, models

log = logging.getLogger("hegemon.live")


@contextlib.contextmanager
def _finally(action: Callable[[], None]) -> Iterator[None]:
    try:
        yield
    finally:
        action()


router = APIRouter(
    prefix="/api/games/{game_id}", tags=["live"], responses=answers.ALWAYS | answers.IN_A_GAME
)

TOKEN = "^[A-Za-z0-9_-]{1,32}$"  # an event's id (`models.Event.token`)

# Each kind of event, and the answer its `data` is (as JSON).
KINDS: dict[str, type[answers.Answer]] = {
    "orders": answers.OrdersEvent,
    "ready": answers.ReadyEvent,
    "phase": answers.PhaseEvent,
    "game": answers.GameEvent,
    "members": answers.MembersEvent,
    "vote": answers.VoteEvent,
    "message": answers.Message,
}


def _described(kind: str, data: type[answers.Answer]) -> dict[str, object]:
    """One kind of event as the description gives it (each event of the stream is one of
    them): its number, its kind, its JSON."""
    return {
        "type": "object",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": TOKEN},
            "event": {"const": kind},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": data.model_json_schema(),
            },
        },
    }


STREAM = {
    "content": {
        "text/event-stream": {
            "schema": {"oneOf": [_described(kind, data) for kind, data in KINDS.items()]}
        }
    },
    "description": "Server-Sent Events: `id:` the event's number, `event:` its kind, "
    '`data:` its JSON (docs/server.md, "Live events"); a comment every 15 seconds',
}
After = Annotated[str | None, Query(pattern=TOKEN, description="resume after the event of this id")]
LastEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        pattern=TOKEN,
        description="resume after the event of this id (an EventSource sends it as it reconnects)",
    ),
]


@router.get("/events", response_class=Response, responses={200: STREAM})
def live_events(
    game_id: RowId,
    request: Request,
    user: Caller,
    store: StoreDep,
    token: Token,
    after: After = None,
    last_event_id: LastEventId = None,
) -> Response:
    """The game's events as they happen, those the caller may see: orders in, ready, a
    phase adjudicated, the game started, paused, resumed or ended, members, messages.
    Resumes after `Last-Event-ID` (or `after`); from now if neither is given."""
    with member_view(store, game_id, user) as table:
        seen = _resumed(table, last_event_id, after)
    streams: Streams = request.app.state.streams
    give_back = streams.take(user.id)
    assert token is not None  # `Caller` has signed it in
    reader = Reader(store, game_id, token, request.app.state.clock, streams.reread)
    return EventSourceResponse(
        _stream(reader, seen, streams, give_back),
        ping=streams.heartbeat,
        background=BackgroundTask(give_back),
    )


def _resumed(table: Table, last_event_id: str | None, after: str | None) -> int:
    """The number of the event to resume after: the header's (a reconnecting EventSource
    sends it, while its URL still says where it first began), else the query's; the
    game's last if neither is given (the stream begins now)."""
    if last_event_id is None and after is None:
        return events.last(table.session, table.game.id)
    where, token = ("Last-Event-ID", last_event_id) if last_event_id else ("after", after)
    assert token is not None
    seen = events.seen(table.session, table.game.id, token)
    if seen is None:
        raise Refusal(422, f"{where}: no event of game {table.game.id} has the id {token!r}")
    return seen


@dataclass(frozen=True)
class Shown:
    """An event as one reader sees it: its id, kind and data."""

    token: str
    kind: str
    data: dict[str, object]


@dataclass(frozen=True)
class Batch:
    """What one read found: the events the reader may see, the number of the last event
    read (seen or not), and whether more were left to read at once."""

    shown: list[Shown]
    last: int
    more: bool


@dataclass
class Reader:
    """Who reads a game's stream, by the session's token. Their seat in the game is read
    again at every read: a member who leaves it or changes role (a seat given to another)
    reads nothing more as they were. Their session, checked again at a read at most
    `recheck` seconds after it was last, and the game's row, are taken as they were found
    in between, so that the reads that each event of a busy game sets off cost less."""

    store: Store
    game_id: int
    token: str
    clock: Callable[[], datetime]
    recheck: float
    _found: tuple[models.User, models.Game, models.Member] | None = None
    _checked: float = -math.inf

    def read(self, seen: int) -> Batch | None:
        """The events after number `seen`, as the reader may see them; None once the
        reader may read no more (signed out, expired, no longer in the game)."""
        with self.store.reading() as session:
            table = self._table(session)
            if table is None:
                return None
            rows = events.after(session, self.game_id, seen)
            shown = [view for row in rows if (view := event_view(table, row)) is not None]
            last = rows[-1].seq if rows else seen
            return Batch(shown, last, more=len(rows) == events.MOST_READ)

    def _table(self, session: Session) -> Table | None:
        """The game as the reader finds it in this transaction, or None if they may read
        it no more."""
        if self._found is None or time.monotonic() - self._checked >= self.recheck:
            try:
                user, _ = auth.caller(session, self.token, self.clock())
                table = Table.open(session, self.game_id, user)
            except (AuthError, Refusal):
                return None
            if table.member is None:
                return None
            self._found, self._checked = (user, table.game, table.member), time.monotonic()
            return table
        user, game, member = self._found
        now = session.get(models.Member, member.id)
        if now is None or (now.user_id, now.role, now.power) != (
            member.user_id,
            member.role,
            member.power,
        ):
            return None  # the stream ends; the client, back, reads as what they now are
        return Table(session, game, user, now)


def event_view(table: Table, event: models.Event) -> Shown | None:
    """The event as the table's caller may see it, or None if not theirs to see."""
    if not events.visible(event, table.viewer):
        return None
    data = _message(table, event.payload) if event.kind == "message" else event.payload
    return None if data is None else Shown(event.token, event.kind, data)


def _message(table: Table, payload: dict[str, object]) -> dict[str, object] | None:
    """A message event's data: the message as the caller may read it (the press's view;
    its event names the message alone), or None if the caller may not."""
    message = table.session.get(models.Message, payload["id"])
    if message is None or message.game_id != table.game.id:
        return None
    shown = press.message_view(table, message)
    return None if shown is None else shown.model_dump(mode="json")


async def _stream(
    reader: Reader, seen: int, streams: Streams, give_back: Callable[[], None]
) -> AsyncIterator[ServerSentEvent]:
    """The reader's events after number `seen`, until the stream's lifetime is over or
    the reader may read no more. A database that fails ends it: the client resumes. The
    stream's slot is given back as it ends (and by the response's background task, should
    it end before it began)."""
    ends = anyio.current_time() + streams.lifetime
    with WAKEUPS.watching(reader.game_id) as waiter, _finally(give_back):
        while (left := ends - anyio.current_time()) > 0:
            try:
                batch = await anyio.to_thread.run_sync(reader.read, seen)
            except (DBAPIError, PoolTimeout) as exc:
                log.warning("live events of game %s: the database failed: %s", reader.game_id, exc)
                return
            if batch is None:
                return
            for shown in batch.shown:
                data = json.dumps(shown.data, ensure_ascii=False, separators=(",", ":"))
                yield ServerSentEvent(data=data, event=shown.kind, id=shown.token)
            seen = batch.last
            if not batch.more:
                await waiter.wait(min(streams.reread, left))
