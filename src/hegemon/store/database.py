"""Opening a database and running transactions on it.

A SQLite file is the default (nothing to install); PostgreSQL is reached by URL through
psycopg 3 (``postgresql+psycopg://user@host/db``). Every change is one transaction. On
PostgreSQL rows are locked as a change needs them (``SELECT ... FOR UPDATE``); SQLite has
one writer at a time, so there a change takes the database's write lock as its
transaction begins (``BEGIN IMMEDIATE``) and reads what no other writer can change
before it commits.

Nothing waits on the database for ever: connecting, each statement, each lock, a
transaction left idle and a request waiting for a free connection all have a time limit,
each read from the environment (`Timeouts.from_environment`, documented in
docs/server.md), so that a database that stops answering gives an error the server can
turn into a 503 rather than a request that hangs.
"""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

DEFAULT_URL = "sqlite:///hegemon.db"
URL_VARIABLE = "HEGEMON_DATABASE_URL"
MIGRATIONS = Path(__file__).parent / "migrations"


class DatabaseError(Exception):
    """A database that cannot be opened or used; says which and why in one line."""


def first_line(exc: BaseException) -> str:
    """A database error in one line: the driver's message, without the statement."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def database_url(given: str | None = None) -> str:
    """The database to use: the one given, else $HEGEMON_DATABASE_URL, else hegemon.db."""
    return given or os.environ.get(URL_VARIABLE) or DEFAULT_URL


@dataclass(frozen=True)
class Timeouts:
    """How long the server waits on the database, in seconds, and how many connections
    each process keeps (PostgreSQL); a SQLite writer waits `busy` for another to finish."""

    connect: float = 5  # to open a connection (PostgreSQL's connect_timeout)
    statement: float = 30  # one statement (statement_timeout)
    lock: float = 10  # a row or table lock (lock_timeout)
    idle: float = 60  # a transaction left open doing nothing (idle_in_transaction...)
    pool: float = 5  # a request waiting for a free connection of the pool
    pool_size: int = 5  # connections kept open in each process
    overflow: int = 10  # more opened when all are busy, closed when done
    busy: float = 5  # SQLite: a writer waiting for the write lock

    VARIABLES: ClassVar[dict[str, str]] = {
        "connect": "HEGEMON_DB_CONNECT_TIMEOUT",
        "statement": "HEGEMON_DB_STATEMENT_TIMEOUT",
        "lock": "HEGEMON_DB_LOCK_TIMEOUT",
        "idle": "HEGEMON_DB_IDLE_TIMEOUT",
        "pool": "HEGEMON_DB_POOL_TIMEOUT",
        "pool_size": "HEGEMON_DB_POOL_SIZE",
        "overflow": "HEGEMON_DB_POOL_OVERFLOW",
        "busy": "HEGEMON_DB_BUSY_TIMEOUT",
    }

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Timeouts:
        """The defaults, each replaced by its variable where set (a positive number; the
        overflow may be 0)."""
        given: dict[str, Any] = {}  # Any: int fields and float fields, as `_positive` reads them
        for field, variable in cls.VARIABLES.items():
            text = environ.get(variable)
            if text:
                whole = field in ("pool_size", "overflow")
                given[field] = _positive(variable, text, whole, zero=field == "overflow")
        return cls(**given)

    def postgresql_options(self) -> str:
        """The server settings sent as each connection opens (libpq's ``options``)."""
        settings = {
            "statement_timeout": self.statement,
            "lock_timeout": self.lock,
            "idle_in_transaction_session_timeout": self.idle,
        }
        return " ".join(f"-c {name}={round(seconds * 1000)}" for name, seconds in settings.items())


def _positive(variable: str, text: str, whole: bool, zero: bool) -> float:
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        kind = "whole number" if whole else "number of seconds"
        raise DatabaseError(f"${variable} {text!r}: expected a positive {kind}")
    return value


class Store:
    """A database of games: its engine and the transactions on it."""

    def __init__(
        self, url: str, timeouts: Timeouts | None = None, **engine_options: object
    ) -> None:
        try:
            parsed = make_url(url)
            self.sqlite = parsed.get_backend_name() == "sqlite"
            self.timeouts = timeouts or Timeouts.from_environment()
            self._options = {
                **_engine_options(parsed, self.sqlite, self.timeouts),
                **engine_options,
            }
            self.engine = create_engine(parsed, **self._options)
        except (ArgumentError, NoSuchModuleError, ValueError, ImportError) as exc:
            raise DatabaseError(f"database {url!r}: {exc}") from None
        self._lossy: Engine | None = None
        if self.sqlite:
            _serialize_sqlite_writers(self.engine)
        else:
            _unsynced_when_lossy(self.engine)
        writer = self.engine.execution_options(hegemon_write=True)
        self._readers = sessionmaker(self.engine, expire_on_commit=False)
        self._writers = sessionmaker(writer, expire_on_commit=False)

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """One transaction that changes the database: committed if the block ends
        normally, rolled back (leaving everything as it was) if it raises."""
        with self._writers.begin() as session:
            yield session

    @contextlib.contextmanager
    def reading(self) -> Iterator[Session]:
        """One transaction that only reads."""
        with self._readers.begin() as session:
            yield session

    def lossy_writer(self) -> Engine:
        """An engine for changes that may be lost if the machine fails (never half made):
        its commits do not wait for the disk, which takes more of the server's time than
        the rest of a small change. For what is cheaper to lose than to keep: the rate
        limits' counters, which every change a player makes counts. SQLite: connections of
        its own, ``synchronous=NORMAL`` (WAL: the last commits may be lost, the database
        stays whole); PostgreSQL: ``synchronous_commit`` off in each of its transactions.
        A database in memory has nothing to wait for, and no other connection sees it."""
        if not self.sqlite or self.engine.url.database in (None, "", ":memory:"):
            return self.engine.execution_options(hegemon_write=True, hegemon_lossy=True)
        if self._lossy is None:
            self._lossy = create_engine(self.engine.url, **self._options)
            _serialize_sqlite_writers(self._lossy, synchronous="NORMAL")
        return self._lossy.execution_options(hegemon_write=True)

    def upgrade(self) -> None:
        """Bring the tables up to this version of Hegemon (Alembic's migrations)."""
        with self.engine.begin() as connection:
            config = _alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def ping(self) -> None:
        """Ask the database something (``SELECT 1``): raises if it does not answer."""
        with self.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    def is_current(self) -> bool:
        """Whether the tables are those this version of Hegemon expects."""
        head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision() == head

    def close(self) -> None:
        self.engine.dispose()
        if self._lossy is not None:
            self._lossy.dispose()


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _engine_options(url: URL, sqlite: bool, timeouts: Timeouts) -> dict[str, object]:
    if sqlite:
        return {"connect_args": {"timeout": timeouts.busy}}
    # The URL's own options (a search_path, say) are kept, after ours so that they win.
    options = " ".join([timeouts.postgresql_options(), *_as_list(url.query.get("options"))])
    return {
        "pool_pre_ping": True,  # a connection the server dropped is found and replaced
        "pool_timeout": timeouts.pool,
        "pool_size": timeouts.pool_size,
        "max_overflow": timeouts.overflow,
        "connect_args": {
            "connect_timeout": max(1, round(timeouts.connect)),  # whole seconds for libpq
            "options": options,
            # A peer gone without a word (a cable, a firewall) is noticed within a minute,
            # whether the connection is idle (keepalives) or waits for what it sent to be
            # received (tcp_user_timeout, in milliseconds).
            "keepalives": 1,
            "keepalives_idle": 30,
            "keepalives_interval": 10,
            "keepalives_count": 3,
            "tcp_user_timeout": 60_000,
        },
    }


def _as_list(value: str | tuple[str, ...] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _serialize_sqlite_writers(engine: Engine, synchronous: str | None = None) -> None:
    """SQLite: a transaction that writes takes the write lock as it begins, so that what
    it read stays true until it commits; readers see the last commit (WAL). Each commit
    waits for the disk (SQLite's default) unless `synchronous` says otherwise
    (`Store.lossy_writer`)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # transactions begun below, not by sqlite3
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        if synchronous is not None:
            cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("hegemon_write")
        _on_driver(connection, "BEGIN IMMEDIATE" if write else "BEGIN")


def _on_driver(connection: Connection, statement: str) -> None:
    """Run a statement without parameters or rows (a ``BEGIN``) on SQLite's driver itself:
    through SQLAlchemy (`Connection.exec_driver_sql`: an execution context, a cursor's
    result) it cost a fifth of an order given, and every transaction begins with one. A
    failure (the write lock not taken in time) raises as SQLAlchemy's would
    (`OperationalError`)."""
    try:
        connection.connection.driver_connection.execute(statement)  # type: ignore[union-attr]
    except sqlite3.Error as exc:
        raise DBAPIError.instance(statement, None, exc, sqlite3.Error) from exc


def _unsynced_when_lossy(engine: Engine) -> None:
    """PostgreSQL: a transaction of `Store.lossy_writer` commits without waiting for its
    log to reach the disk."""

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        if connection.get_execution_options().get("hegemon_lossy"):
            connection.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
