"""Statements compiled once for the database's driver and run on the driver's own cursor,
for the few that the players' most frequent requests run: through SQLAlchemy, finding a
small statement in its cache of compiled statements (its key worked out anew at each run)
and making its execution context cost more than running it.

A prepared statement takes its parameters as SQLAlchemy would (`Prepared.values`: each
through its type's own processing for the driver, JSON written as SQLAlchemy writes it)
and raises a driver's failure as SQLAlchemy would (`DBAPIError`: an `IntegrityError`, an
`OperationalError`). It skips what SQLAlchemy adds to a statement run through it: a
column's default (a statement given every value has none to add) and the engine's events
around a statement (nothing here listens to those).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Dialect
from sqlalchemy.engine.interfaces import DBAPICursor
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for one driver: its SQL, and what makes the driver's
    parameters of the values given."""

    sql: str
    order: tuple[str, ...] | None  # the parameters' names in order, for a driver taking them so
    fixed: Mapping[str, object]  # the values the statement holds itself (an increment's 1)
    # What each parameter's type makes of a value before the driver sends it. Any: each
    # type's own values.
    processors: Mapping[str, Callable[[Any], Any]]

    @classmethod
    def of(
        cls, statement: ClauseElement, dialect: Dialect, keys: Sequence[str] | None = None
    ) -> Prepared:
        """`statement` compiled for the dialect's driver; an INSERT or UPDATE of the
        columns `keys` names (its parameters named so), if given."""
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        assert isinstance(compiled, SQLCompiler)
        binds = compiled.bind_names.items()
        order = tuple(compiled.positiontup or ()) if compiled.positional else None
        fixed = {name: bind.effective_value for bind, name in binds if not bind.required}
        processors: dict[str, Callable[[Any], Any]] = {}
        for bind, name in binds:
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                processors[name] = processor
        return cls(compiled.string, order, fixed, processors)

    def values(self, given: Mapping[str, object]) -> Sequence[object] | Mapping[str, object]:
        """The parameters as the driver takes them: the values given, and those the
        statement holds itself, each processed by its type, in order for a driver that
        takes them so."""
        values = {**self.fixed, **given}
        for name, processor in self.processors.items():
            values[name] = processor(values[name])
        return values if self.order is None else [values[name] for name in self.order]

    def rowcount(self, connection: Connection, given: Mapping[str, object]) -> int:
        """Run in the connection's transaction: the rows it changed."""
        cursor = self._run(connection, given)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def first(self, connection: Connection, given: Mapping[str, object]) -> Sequence[Any]:
        """Run in the connection's transaction: the first row it returns. (Any: the
        driver's values.)"""
        cursor = self._run(connection, given)
        try:
            row: Sequence[Any] | None = cursor.fetchone()
        finally:
            cursor.close()
        assert row is not None, f"{self.sql}: no row"
        return row

    def _run(self, connection: Connection, given: Mapping[str, object]) -> DBAPICursor:
        """The driver's cursor, the statement run on it in the connection's transaction
        (for the caller to close). A failure raises as SQLAlchemy's would (`DBAPIError`)."""
        failure = connection.dialect.loaded_dbapi.Error
        values = self.values(given)
        cursor = connection.connection.cursor()
        try:
            cursor.execute(self.sql, values)
        except failure as exc:
            cursor.close()
            raise DBAPIError.instance(self.sql, given, exc, failure) from exc
        return cursor


class PreparedFor:
    """A statement prepared once for each kind of driver it runs on (`Prepared`)."""

    def __init__(self, statement: ClauseElement, keys: Sequence[str] | None = None) -> None:
        self.statement, self.keys = statement, keys
        self._prepared: dict[tuple[str, str, str], Prepared] = {}

    def on(self, connection: Connection) -> Prepared:
        """The statement as the connection's driver takes it."""
        dialect = connection.dialect
        kind = (dialect.name, dialect.driver, dialect.paramstyle)
        prepared = self._prepared.get(kind)
        if prepared is None:  # two threads may both prepare it: either is kept
            prepared = self._prepared[kind] = Prepared.of(self.statement, dialect, self.keys)
        return prepared
