"""A game's rows as the judge's objects: its variant as configured, the current position
(the last phase's snapshot), a phase played again from the snapshot before it, and the
rows of a new phase.

Snapshots are the game master's JSON of a position (`jsonio.position_to_json`), read back
by the same validating reader as a game file's; nothing here replays more than one phase.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from hegemon import jsonio
from hegemon.game import PhaseResult, Variant, play_phase
from hegemon.orders import Order
from hegemon.position import MASTER, Position
from hegemon.store import models
from hegemon.store.prepared import PreparedFor
from hegemon.variants import load_variant


def variant_of(game: models.Game) -> Variant:
    """The game's variant, configured with its options and seats."""
    return _configured(game.variant, json.dumps(game.options, sort_keys=True), _text(game.seats))


def configured(
    name: str, options: Mapping[str, object] | None, seats: Sequence[str] | None
) -> Variant:
    """A variant configured for a game; a `jsonio.WireError` says why it cannot be."""
    return _configured(name, json.dumps(options or {}, sort_keys=True), _text(seats))


def _text(seats: Sequence[str] | None) -> str | None:
    return None if seats is None else json.dumps(list(seats))


@lru_cache(maxsize=256)
def _configured(name: str, options: str, seats: str | None) -> Variant:
    # Configured once per set of options: its rules and calendar are built on first use.
    return jsonio.configured(
        load_variant, name, json.loads(options), None if seats is None else json.loads(seats)
    )


def position_after(session: Session, game: models.Game, played: int) -> Position:
    """The position once `played` phases are adjudicated: the start, or that phase's
    snapshot."""
    variant = variant_of(game)
    if played == 0:
        return jsonio.position_from_json(game.start, variant)
    snapshot = session.scalar(
        select(models.Phase.after).where(
            models.Phase.game_id == game.id, models.Phase.number == played
        )
    )
    if snapshot is None:
        raise LookupError(f"game {game.id} has no phase {played}")
    return jsonio.position_from_json(snapshot, variant)


def current_position(session: Session, game: models.Game) -> Position:
    return position_after(session, game, game.played)


# Built once: every page of a game lists its phases.
PHASES = (
    select(models.Phase)
    .where(models.Phase.game_id == bindparam("game_id"))
    .order_by(models.Phase.number)
)


def phase_rows(session: Session, game: models.Game) -> list[models.Phase]:
    return list(session.scalars(PHASES, {"game_id": game.id}))


def phase_row(session: Session, game: models.Game, number: int) -> models.Phase | None:
    return session.scalar(
        select(models.Phase).where(models.Phase.game_id == game.id, models.Phase.number == number)
    )


def parse_orders(
    variant: Variant, position: Position, texts: Mapping[str, Sequence[str]]
) -> dict[str, list[Order]]:
    """Stored orders (each power's, as text) read again on the position they were given in."""
    return jsonio.orders_from_json({p: list(t) for p, t in texts.items()}, variant, position)


def replay(session: Session, game: models.Game, row: models.Phase) -> PhaseResult:
    """One stored phase played again from the snapshot before it, with its stored orders
    and draws: its report, its results, its board."""
    variant = variant_of(game)
    before = position_after(session, game, row.number - 1)
    return play_phase(variant, before, parse_orders(variant, before, row.orders), row.draws)


def phase_record(game: models.Game, number: int, result: PhaseResult) -> models.Phase:
    """The row of a phase just adjudicated: what the game file keeps of it, and the
    snapshot after it."""
    entry = jsonio.phase_entry(result)
    return models.Phase(
        game_id=game.id,
        number=number,
        phase=entry["phase"],
        orders=entry["orders"],
        draws=entry.get("draws", {}),
        digest=entry["digest"],
        after=jsonio.position_to_json(result.after, MASTER),
    )


# Built once: every order given reads them (building a statement costs more than running it).
PENDING = select(models.Pending).where(models.Pending.game_id == bindparam("game_id"))


def pending_rows(session: Session, game: models.Game) -> dict[str, models.Pending]:
    rows = session.scalars(PENDING, {"game_id": game.id})
    return {row.power: row for row in rows}


# A power's orders stored, its row's version checked and moved on (the ORM's
# `version_id_col`, as a flush would), in one statement compiled once for the driver and
# run on its cursor (`PreparedFor`): the ORM's flush of the one row cost more than the rest
# of storing an order, and running the statement through SQLAlchemy as much again.
_STORE_ORDERS = PreparedFor(
    update(models.Pending)
    .where(models.Pending.id == bindparam("row_id"), models.Pending.version == bindparam("seen"))
    .values(orders=bindparam("given"), version=models.Pending.version + 1)
)


def store_orders(session: Session, row: models.Pending, orders: list[str]) -> None:
    """Store a power's pending orders in its row (`StaleDataError` if another transaction
    changed the row since it was read), and the row object as the database now has it."""
    connection = session.connection()
    changed = _STORE_ORDERS.on(connection).rowcount(
        connection, {"row_id": row.id, "seen": row.version, "given": orders}
    )
    if changed != 1:
        raise StaleDataError(f"pending orders {row.id}: changed since version {row.version}")
    set_committed_value(row, "orders", orders)
    set_committed_value(row, "version", row.version + 1)


# An action's row, written at once on the transaction's connection by a statement compiled
# once for the driver (`PreparedFor`; its time given as the column's default would): the
# ORM's unit of work (an object made, tracked and flushed) costs more than the rest of an
# order given.
AUDIT = PreparedFor(insert(models.Audit), ("game_id", "user_id", "at", "action", "detail"))


def audit(
    session: Session,
    game: models.Game | None,
    by: models.User | None,
    action: str,
    detail: dict[str, object] | None = None,
) -> None:
    """Log an action: who (None for the deadline worker), what, on which game (the time
    is the row's)."""
    connection = session.connection()
    AUDIT.on(connection).rowcount(
        connection,
        {
            "game_id": None if game is None else game.id,
            "user_id": None if by is None else by.id,
            "at": models.now(),
            "action": action,
            "detail": detail or {},
        },
    )
