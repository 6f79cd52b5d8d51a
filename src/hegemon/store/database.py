"""Opening a database and running transactions on it.

A SQLite file is the default (nothing to install); PostgreSQL is reached by URL through
psycopg 3 (``postgresql+psycopg://user@host/db``). Every change is one transaction. On
PostgreSQL rows are locked as a change needs them (``SELECT ... FOR UPDATE``); SQLite has
one writer at a time, so there a change takes the database's write lock as its
transaction begins (``BEGIN IMMEDIATE``) and reads what no other writer can change
before it commits.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///hegemon.db"
URL_VARIABLE = "HEGEMON_DATABASE_URL"
MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_WAIT = 30  # seconds a SQLite writer waits for another to finish


class DatabaseError(Exception):
    """A database that cannot be opened or used; says which and why in one line."""


def database_url(given: str | None = None) -> str:
    """The database to use: the one given, else $HEGEMON_DATABASE_URL, else hegemon.db."""
    return given or os.environ.get(URL_VARIABLE) or DEFAULT_URL


class Store:
    """A database of games: its engine and the transactions on it."""

    def __init__(self, url: str, **engine_options: Any) -> None:
        try:
            parsed = make_url(url)
            self.sqlite = parsed.get_backend_name() == "sqlite"
            self.engine = create_engine(parsed, **_engine_options(self.sqlite, engine_options))
        except (ArgumentError, NoSuchModuleError, ValueError, ImportError) as exc:
            raise DatabaseError(f"database {url!r}: {exc}") from None
        if self.sqlite:
            _serialize_sqlite_writers(self.engine)
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

    def upgrade(self) -> None:
        """Bring the tables up to this version of Hegemon (Alembic's migrations)."""
        with self.engine.begin() as connection:
            config = _alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def is_current(self) -> bool:
        """Whether the tables are those this version of Hegemon expects."""
        head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision() == head

    def close(self) -> None:
        self.engine.dispose()


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _engine_options(sqlite: bool, given: dict[str, Any]) -> dict[str, Any]:
    if sqlite:
        return {"connect_args": {"timeout": SQLITE_WAIT}, **given}
    return {"pool_pre_ping": True, **given}


def _serialize_sqlite_writers(engine: Engine) -> None:
    """SQLite: a transaction that writes takes the write lock as it begins, so that what
    it read stays true until it commits; readers see the last commit (WAL)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions begun below, not by sqlite3
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        write = connection.get_execution_options().get("hegemon_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
