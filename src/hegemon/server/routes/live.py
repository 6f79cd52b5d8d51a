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
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

import anyio
from fastapi import APIRouter, Header, Query, Request, Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from hegemon.server import answers, auth, events
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

# Each kind of event, and the answer its `data` is (as JSON).
KINDS: dict[str, type[answers.Answer]] = {
    "orders": answers.OrdersEvent,
    "ready": answers.ReadyEvent,
    "phase": answers.PhaseEvent,
    "game": answers.GameEvent,
    "members": answers.MembersEvent,
    "message": answers.MessageEvent,
}


def _described(kind: str, data: type[answers.Answer]) -> dict[str, object]:
    """One kind of event as the description gives it (each event of the stream is one of
    them): its number, its kind, its JSON."""
    return {
        "type": "object",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$"},
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
EventNumber = Annotated[int, Query(ge=0, le=2**53, description="resume after this event")]
LastEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        pattern=r"^[0-9]{1,15}$",
        description="resume after this event (sent by EventSource as it reconnects)",
    ),
]


@router.get("/events", response_class=Response, responses={200: STREAM})
def live_events(
    game_id: RowId,
    request: Request,
    user: Caller,
    store: StoreDep,
    token: Token,
    after: EventNumber | None = None,
    last_event_id: LastEventId = None,
) -> Response:
    """The game's events as they happen, those the caller may see: orders in, ready, a
    phase adjudicated, the game started, paused, resumed or ended, members, messages.
    Resumes after `Last-Event-ID` (or `after`); from now if neither is given."""
    with member_view(store, game_id, user) as table:
        seen = _resumed(last_event_id, after)
        if seen is None:
            seen = events.last(table.session, game_id)
    streams: Streams = request.app.state.streams
    give_back = streams.take(user.id)
    assert token is not None  # `Caller` has signed it in
    reader = Reader(store, game_id, token, request.app.state.clock)
    return EventSourceResponse(
        _stream(reader, seen, streams, give_back),
        ping=streams.heartbeat,
        background=BackgroundTask(give_back),
    )


def _resumed(last_event_id: str | None, after: int | None) -> int | None:
    """The event to resume after: the header's (a reconnecting EventSource sends it,
    while its URL still says where it first began), else the query's."""
    return int(last_event_id) if last_event_id is not None else after


@dataclass(frozen=True)
class Shown:
    """An event as one reader sees it."""

    seq: int
    kind: str
    data: dict[str, object]


@dataclass(frozen=True)
class Batch:
    """What one read found: the events the reader may see, the number of the last event
    read (seen or not), and whether more were left to read at once."""

    shown: list[Shown]
    last: int
    more: bool


@dataclass(frozen=True)
class Reader:
    """Who reads a game's stream, by the session's token, checked again at each read."""

    store: Store
    game_id: int
    token: str
    clock: Callable[[], datetime]

    def read(self, seen: int) -> Batch | None:
        """The events after number `seen`, as the reader may see them; None once the
        reader may read no more (signed out, expired, no longer in the game)."""
        with self.store.reading() as session:
            try:
                user, _ = auth.caller(session, self.token, self.clock())
                table = Table.open(session, self.game_id, user)
            except (AuthError, Refusal):
                return None
            if table.member is None:
                return None
            rows = events.after(session, self.game_id, seen)
            shown = [view for row in rows if (view := event_view(table, row)) is not None]
            last = rows[-1].seq if rows else seen
            return Batch(shown, last, more=len(rows) == events.MOST_READ)


def event_view(table: Table, event: models.Event) -> Shown | None:
    """The event as the table's caller may see it, or None if not theirs to see."""
    if not events.visible(event, table.viewer):
        return None
    data = message_view(table, event.payload) if event.kind == "message" else event.payload
    return None if data is None else Shown(event.seq, event.kind, data)


def message_view(table: Table, payload: dict[str, object]) -> dict[str, object] | None:
    """A message event's data: the message as the caller may read it (the press's view;
    its event names the message alone)."""
    return payload


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
                yield ServerSentEvent(data=data, event=shown.kind, id=str(shown.seq))
            seen = batch.last
            if not batch.more:
                await waiter.wait(min(streams.reread, left))
