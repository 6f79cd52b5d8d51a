"""Rate-limit counters kept in the server's own database (table ``rate_limits``), so that
every API process of a server counts the same hits without another service to run: a
storage for the `limits` library (scheme ``hegemon+sql``) over SQLite or PostgreSQL.

A counter is one row: the hits of its window and when that window ends. A hit is one
statement, ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``, which starts a new window
when the old one is over: two processes counting at once cannot lose a hit. Rows of
windows long over are purged now and then as hits come.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from limits.errors import StorageError
from limits.storage import Storage
from sqlalchemy import Connection, bindparam, case, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.dml import ReturningInsert

from hegemon.store.database import Store
from hegemon.store.models import RateLimit
from hegemon.store.prepared import Prepared

PURGE_EVERY = 60.0  # seconds between purges of the counters whose windows are over


def _upsert(on_sqlite: bool) -> ReturningInsert[int]:
    """One hit of a key (``key``, ``amount``, a window ending at ``ends``), its window begun
    anew if the last one is over by ``now``: the key's hits."""
    insert = sqlite.insert if on_sqlite else postgresql.insert
    new = insert(RateLimit).values(
        key=bindparam("key"), hits=bindparam("amount"), expires=bindparam("ends")
    )
    over = RateLimit.expires <= bindparam("now")
    return new.on_conflict_do_update(
        index_elements=[RateLimit.key],
        set_={
            "hits": case((over, new.excluded.hits), else_=RateLimit.hits + new.excluded.hits),
            "expires": case((over, new.excluded.expires), else_=RateLimit.expires),
        },
    ).returning(RateLimit.hits)


@dataclass(frozen=True)
class Counts:
    """Hits counted in one transaction (`DatabaseStorage.counting`), at one moment."""

    connection: Connection
    upsert: Prepared  # `_upsert`
    now: float

    def incr_all(self, windows: Sequence[tuple[str, int]], amount: int = 1) -> list[int]:
        """Each key's hits with `amount` more, in its window of `expiry` seconds (key,
        `expiry`) begun now if none is running."""
        return [
            int(
                self.upsert.first(
                    self.connection,
                    {"key": key, "amount": amount, "ends": self.now + expiry, "now": self.now},
                )[0]
            )
            for key, expiry in windows
        ]


class DatabaseStorage(Storage):
    """`limits`' storage on a `Store` (fixed windows: the table keeps one counter a key)."""

    STORAGE_SCHEME = ["hegemon+sql"]  # noqa: RUF012 (the type limits' registry reads)

    def __init__(self, uri: str | None = None, *, store: Store, wrap_exceptions: bool = False):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.store = store
        # A hit is one statement in a transaction of its own on a plain connection, compiled
        # once for the driver (`Prepared`): an ORM session and a statement built at every
        # hit cost three times as much, and every change a player makes counts two to four
        # hits. Its commit does not wait for the disk: a count lost when the machine fails
        # costs nothing.
        self._writer = store.lossy_writer()
        dialect = self._writer.dialect
        self._upsert = Prepared.of(_upsert(dialect.name == "sqlite"), dialect)
        self._purge = delete(RateLimit).where(RateLimit.expires <= bindparam("now"))
        self._purged = 0.0

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """The key's hits with `amount` more, in a window of `expiry` seconds begun now
        if none is running."""
        with self.counting() as counts:
            (hits,) = counts.incr_all([(key, expiry)], amount)
        return hits

    @contextlib.contextmanager
    def counting(self) -> Iterator[Counts]:
        """One transaction to count hits in (`Counts.incr_all`, as often as asked): a limit
        of several windows (a minute's and an hour's), or several limits counted at once,
        cost one transaction, as a transaction costs more than the statements in it."""
        now = time.time()
        try:
            with self._writer.begin() as connection:
                yield Counts(connection, self._upsert, now)
                if now - self._purged > PURGE_EVERY:
                    self._purged = now
                    connection.execute(self._purge, {"now": now})
        except SQLAlchemyError as exc:  # as `limits` wraps the errors of its own methods
            if self.wrap_exceptions:
                raise StorageError(exc) from exc
            raise

    def get(self, key: str) -> int:
        with self.store.reading() as session:
            hits = session.scalar(
                select(RateLimit.hits).where(RateLimit.key == key, RateLimit.expires > time.time())
            )
        return hits or 0

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (now if it has none)."""
        now = time.time()
        with self.store.reading() as session:
            expires = session.scalar(
                select(RateLimit.expires).where(RateLimit.key == key, RateLimit.expires > now)
            )
        return expires or now

    def check(self) -> bool:
        try:
            with self.store.reading() as session:
                session.execute(select(1))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.store.writing() as session:
            count = session.scalar(select(func.count()).select_from(RateLimit))
            session.execute(delete(RateLimit))
        return count

    def clear(self, key: str) -> None:
        with self.store.writing() as session:
            session.execute(delete(RateLimit).where(RateLimit.key == key))
