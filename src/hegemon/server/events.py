"""A game's events: what changed, written in the transaction that changed it, for the live
pages and the notifications that follow a game (docs/server.md, "Live events").

`publish` adds an event to the outbox (`hegemon.store.models.Event`) numbered after the
game's last; `since` reads those a viewer may see after the one it saw last. The rows are
the truth: whatever wakes a reader (a notification between processes, a poll) only says
when to read them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from hegemon.position import Viewer
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
