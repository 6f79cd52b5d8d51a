"""A game's events: what changed, written in the transaction that changed it, for the live
pages and the notifications that follow a game (docs/server.md, "Live events").

`publish` adds an event to the outbox (`hegemon.store.models.Event`) numbered after the
game's last; `since` reads those a viewer may see after the one it saw last. A reader
knows an event by its `token`, never its number, whose gaps would count the events kept
from it; `seen` finds the number a token stands for. The rows are
the truth: whatever wakes a reader (a notification between processes, a poll) only says
when to read them again.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon.position import Viewer
from hegemon.store import models
from hegemon.store.numbering import next_number

EVENTS = "events"  # the numbering of a game's events (`next_number`)
MOST_READ = 500  # events read at once; a reader further behind reads again


def publish(
    session: Session,
    game_id: int,
    kind: str,
    payload: Mapping[str, object],
    audience: Iterable[str] | None = None,
) -> models.Event:
    """Record that `kind` happened in the game, to be seen by the powers of `audience` and
    the game master (None: by everyone who may see the game). `payload` is what every one
    of them may read."""
    event = models.Event(
        game_id=game_id,
        seq=next_number(session, game_id, EVENTS),
        token=secrets.token_urlsafe(12),
        kind=kind,
        payload=dict(payload),
        audience=None if audience is None else sorted(audience),
    )
    session.add(event)
    session.flush()
    return event


def visible(event: models.Event, viewer: Viewer) -> bool:
    """Whether `viewer` may see the event."""
    return viewer.master or event.audience is None or viewer.power in event.audience


def since(session: Session, game_id: int, seen: int, viewer: Viewer) -> Sequence[models.Event]:
    """The game's events after number `seen` that `viewer` may see, oldest first, at most
    `MOST_READ` of them read (fewer returned where some are not the viewer's)."""
    rows = session.scalars(
        select(models.Event)
        .where(models.Event.game_id == game_id, models.Event.seq > seen)
        .order_by(models.Event.seq)
        .limit(MOST_READ)
    )
    return [event for event in rows if visible(event, viewer)]


def seen(session: Session, game_id: int, token: str) -> int | None:
    """The number of the game's event known to its readers as `token` (None if no event
    of the game has it)."""
    return session.scalar(
        select(models.Event.seq).where(models.Event.game_id == game_id, models.Event.token == token)
    )
