"""Numbers given within a game in the order their transactions commit: a game's events,
a channel's messages (`hegemon.store.models.Counter`).

A number is one statement, ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``, which
locks the counter's row until the transaction ends: a second writer waits, and takes the
next number only once the first has committed or rolled back. So a reader who has seen
number n and asks for those after it misses none, which numbers taken from a sequence
(given at insert, committed in any order) would not promise.
"""

from __future__ import annotations

from sqlalchemy import bindparam
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from hegemon.store.models import Counter


def next_number(session: Session, game_id: int, name: str) -> int:
    """The next number of the game's numbering `name`, 1 for the first."""
    on_sqlite = session.get_bind().dialect.name == "sqlite"
    insert = sqlite.insert if on_sqlite else postgresql.insert
    new = insert(Counter).values(game_id=bindparam("game"), name=bindparam("name"), last=1)
    counted = new.on_conflict_do_update(
        index_elements=[Counter.game_id, Counter.name], set_={"last": Counter.last + 1}
    ).returning(Counter.last)
    return int(session.execute(counted, {"game": game_id, "name": name}).scalar_one())
