"""Statements compiled once for the database's driver and run on the driver's own cursor,
for the few that the players' most frequent requests run: through SQLAlchemy, finding a
small statement in its cache of compiled statements (its key worked out anew at each run)
and making its execution context cost more than running it.

A prepared statement takes its parameters as SQLAlchemy would (`Prepared.values`: each
through its type's own processing for the driver, JSON written as SQLAlchemy writes it),
gives a SELECT's row as SQLAlchemy reads it (`Prepared.row`: each value through its
column type's own processing), and raises a driver's failure as SQLAlchemy would
(`DBAPIError`: an `IntegrityError`, an `OperationalError`). It skips what SQLAlchemy adds
to a statement run through it: a column's default (a statement given every value has
none to add) and the engine's events around a statement (nothing here listens to those).
A row becomes an object of the ORM as the ORM's loading makes one (`Rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Column, Connection, Dialect, Select, inspect
from sqlalchemy.engine.interfaces import DBAPICursor
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement
from sqlalchemy.types import TypeEngine

M = TypeVar("M")
Reader = Callable[[Any], Any]  # a column type's reading of the driver's value (Any: each its own)


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
    types: tuple[TypeEngine[Any], ...]  # of the columns a SELECT gives (Any: each its own)
    # What each column's type makes of the driver's values, by the type codes the driver
    # gives the columns (PostgreSQL's tell a float from a decimal): made at the first row.
    readers: dict[tuple[object, ...], tuple[Reader | None, ...]] = field(default_factory=dict)

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
        types = (
            tuple(c.type for c in statement.selected_columns)
            if isinstance(statement, Select)
            else ()
        )
        return cls(compiled.string, order, fixed, processors, types)

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

    def row(self, connection: Connection, given: Mapping[str, object]) -> tuple[Any, ...] | None:
        """Run in the connection's transaction: the first row it returns, its values read
        as SQLAlchemy reads them, or None if it returns none. (Any: each column's type.)"""
        cursor = self._run(connection, given)
        try:
            found: Sequence[Any] | None = cursor.fetchone()
            codes = tuple(column[1] for column in cursor.description)
        finally:
            cursor.close()
        if found is None:
            return None
        readers = self.readers.get(codes)
        if readers is None:  # two threads may both make them: either is kept
            readers = self.readers[codes] = self._readers(codes, connection.dialect)
        return tuple(
            value if read is None else read(value)
            for read, value in zip(readers, found, strict=True)
        )

    def _readers(self, codes: tuple[object, ...], dialect: Dialect) -> tuple[Reader | None, ...]:
        """How each column is read from the driver's value of that type code, if at all
        (its type's result processor, as SQLAlchemy reads it)."""
        return tuple(
            kind.dialect_impl(dialect).result_processor(dialect, code)
            for kind, code in zip(self.types, codes, strict=True)
        )

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


class Rows(Generic[M]):
    """A mapped class's columns, to select with a prepared statement, and its objects made
    of the values selected as the ORM loads them: as stored, nothing changed (the ORM's
    own `make_transient_to_detached`)."""

    def __init__(self, entity: type[M]) -> None:
        self.mapper = inspect(entity)
        mapped = self.mapper.column_attrs
        self.keys = tuple(attribute.key for attribute in mapped)
        self.columns: tuple[Column[Any], ...] = tuple(attribute.columns[0] for attribute in mapped)
        self.primary = tuple(self.columns.index(column) for column in self.mapper.primary_key)

    def held(self, session: Session, values: Sequence[object]) -> bool:
        """Whether the session holds the object of those values' row already."""
        key = self.mapper.identity_key_from_primary_key([values[i] for i in self.primary])
        return key in session.identity_map

    def detached(self, values: Sequence[object]) -> M:
        """The object of those values (the columns' in order), in no session: its values
        set as the ORM's loading sets them, in the object's own dictionary (through its
        attributes, each set would be recorded as a change, at ten times the cost)."""
        made: M = self.mapper.class_manager.new_instance()
        vars(made).update(zip(self.keys, values, strict=True))
        make_transient_to_detached(made)
        return made

    def attached(self, session: Session, values: Sequence[object]) -> M:
        """The object of those values, held by the session as one it loaded."""
        made = self.detached(values)
        session.add(made)
        return made

    def joined(self, session: Session, values: Sequence[object]) -> M | None:
        """The object of those values, held by the session as one it loaded; None if an
        outer join found no row (its primary key None)."""
        if values[self.primary[0]] is None:
            return None
        return self.attached(session, values)
