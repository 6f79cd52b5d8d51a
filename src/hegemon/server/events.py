"""A game's events: what changed, written in the transaction that changed it, for the live
pages and the notifications that follow a game (docs/server.md, "Live events").

`publish` adds an event to the outbox (`hegemon.store.models.Event`) numbered after the
game's last; `since` reads those a viewer may see after the one it saw last. A reader
knows an event by its `token`, never its number, whose gaps would count the events kept
from it; `seen` finds the number a token stands for. The rows are
the truth: whatever wakes a reader (a notification between processes, a poll) only says
when to read them again: `publish` has this process's readers of the game woken once the
transaction commits, and, on PostgreSQL, the other processes' by a ``NOTIFY`` sent in the
same transaction, which PostgreSQL delivers at commit and never if it rolls back
(`hegemon.server.live`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import bindparam, func, select
from sqlalchemy import event as orm_event
from sqlalchemy.orm import Session

from hegemon.position import Viewer
from hegemon.server.live import CHANNEL, WAKEUPS
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
    _announce(session, game_id)
    return event


PUBLISHED = "hegemon_published"  # the session's `info`: the games it published events of


def _announce(session: Session, game_id: int) -> None:
    """Have the game's readers woken once this transaction commits: this process's by
    `_committed`, the others' by ``NOTIFY`` (PostgreSQL sends a notification once per
    transaction however often it is asked)."""
    session.info.setdefault(PUBLISHED, set()).add(game_id)
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_notify(CHANNEL, str(game_id))))


@orm_event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    for game_id in session.info.pop(PUBLISHED, ()):
        WAKEUPS.wake(game_id)


@orm_event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(PUBLISHED, None)


def visible(event: models.Event, viewer: Viewer) -> bool:
    """Whether `viewer` may see the event."""
    return _told(event.audience, viewer)


def _told(audience: Sequence[str] | None, viewer: Viewer) -> bool:
    """Whether `viewer` may see an event told to `audience` (None: to every member)."""
    return viewer.master or audience is None or viewer.power in audience


def since(session: Session, game_id: int, seen: int, viewer: Viewer) -> Sequence[models.Event]:
    """The game's events after number `seen` that `viewer` may see, oldest first, at most
    `MOST_READ` of them read (fewer returned where some are not the viewer's)."""
    return [event for event in after(session, game_id, seen) if visible(event, viewer)]


def after(session: Session, game_id: int, seen: int) -> Sequence[models.Event]:
    """The game's next `MOST_READ` events after number `seen`, whoever may see them: for a
    reader who goes on from the last it read, whether it saw it or not."""
    return session.scalars(
        select(models.Event)
        .where(models.Event.game_id == game_id, models.Event.seq > seen)
        .order_by(models.Event.seq)
        .limit(MOST_READ)
    ).all()


def last(session: Session, game_id: int) -> int:
    """The number of the game's last event (0 before the first)."""
    found = session.get(models.Counter, (game_id, EVENTS))
    return 0 if found is None else found.last


def seen(session: Session, game_id: int, token: str) -> int | None:
    """The number of the game's event known to its readers as `token` (None if no event
    of the game has it)."""
    return session.scalar(
        select(models.Event.seq).where(models.Event.game_id == game_id, models.Event.token == token)
    )


# Built once: every page of a game asks for its latest event (its token and audience
# alone: the rest of an event, its payload read as JSON, costs more to read than to find).
LATEST = (
    select(models.Event.token, models.Event.audience)
    .where(models.Event.game_id == bindparam("game_id"))
    .order_by(models.Event.seq.desc())
    .limit(MOST_READ)
)


def latest(session: Session, game_id: int, viewer: Viewer) -> str | None:
    """The id (token) of the game's latest event that `viewer` may see, among the last
    `MOST_READ`: where a page that has just read the game begins its stream (``?after=``),
    so that it misses nothing after what it read. Never the id of an event kept from the
    viewer, which would tell that something happened (None if none is found)."""
    rows = session.execute(LATEST, {"game_id": game_id})
    return next((token for token, audience in rows if _told(audience, viewer)), None)
