"""A game's events: what changed, written in the transaction that changed it, for the live
pages and the notifications that follow a game (docs/server.md, "Live events").

`publish` adds an event to the outbox (`hegemon.store.models.Event`) numbered after the
game's last; `since` reads those a viewer may see after the one it saw last. The rows are
the truth: whatever wakes a reader (a notification between processes, a poll) only says
when to read them again: `publish` has this process's readers of the game woken once the
transaction commits, and, on PostgreSQL, the other processes' by a ``NOTIFY`` sent in the
same transaction, which PostgreSQL delivers at commit and never if it rolls back
(`hegemon.server.live`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import bindparam, func, select
from sqlalchemy import event as orm_event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from hegemon.position import Viewer
from hegemon.server.live import CHANNEL, WAKEUPS
from hegemon.store import models

MOST_READ = 500  # events read at once; a reader further behind reads again


def _next_seq(session: Session, game_id: int) -> int:
    """The game's next event number. The counter's row stays locked by this transaction
    until it ends, so that the game's events commit in the order of their numbers."""
    on_sqlite = session.get_bind().dialect.name == "sqlite"
    insert = sqlite.insert if on_sqlite else postgresql.insert
    new = insert(models.EventCount).values(game_id=bindparam("game"), last=1)
    counted = new.on_conflict_do_update(
        index_elements=[models.EventCount.game_id],
        set_={"last": models.EventCount.last + 1},
    ).returning(models.EventCount.last)
    return int(session.execute(counted, {"game": game_id}).scalar_one())


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
        seq=_next_seq(session, game_id),
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
    return viewer.master or event.audience is None or viewer.power in event.audience


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
    found = session.get(models.EventCount, game_id)
    return 0 if found is None else found.last
