"""The store: its migrations, CLI game files in and out, and the replay of a game's log."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import bindparam, inspect, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.exc import StaleDataError

from hegemon import jsonio
from hegemon.cli import main
from hegemon.game import Game
from hegemon.randomplay import random_orders
from hegemon.store import Store, exchange, models, records
from hegemon.store.database import Timeouts
from hegemon.store.prepared import PreparedFor, Rows
from hegemon.variants import load_variant
from tests.wire import at, obj


def test_the_migrations_make_the_tables_the_models_describe(store: Store) -> None:
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), models.Base.metadata) == []
    assert store.is_current()


def _played(variant_id: str, options: dict[str, Any], phases: int, seed: int = 1) -> Game:
    """A game of random orders, with orders pending for the phase it stops at."""
    variant = load_variant(variant_id).configure(options)
    game = Game.new(variant, seed)
    rng = random.Random(seed)
    for _ in range(phases):
        game.pending = random_orders(variant, game.position, rng)
        game.adjudicate()
        if game.over:
            break
    game.pending = random_orders(variant, game.position, rng)
    return game


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("sub_saharan", {}),
        ("europe_1615", {}),
        ("african_diplomacy_ii", {"placement": "lists"}),
    ],
)
def test_a_game_file_goes_in_and_comes_out_the_same(
    store: Store, variant: str, options: dict[str, Any]
) -> None:
    original = jsonio.game_to_json(_played(variant, options, 12))
    with store.writing() as session:
        game_id = exchange.import_game(session, original, "imported", {}).id
    with store.reading() as session:
        game = session.get(models.Game, game_id)
        assert game is not None
        assert exchange.export_game(session, game) == original
        assert exchange.verify(session, game) == []


def test_a_game_ended_by_agreement_comes_out_ended(store: Store) -> None:
    played = _played("classic", {}, 3)
    played.end_by_agreement(draw=["France", "Italy"])
    original = jsonio.game_to_json(played)
    with store.writing() as session:
        game = exchange.import_game(session, original, "agreed", {})
        assert game.status == "ended" and game.ended == {
            "termination": "draw_agreed",
            "draw": ["France", "Italy"],
        }
        assert exchange.export_game(session, game) == original


def test_the_replay_finds_a_phase_that_was_changed(store: Store) -> None:
    original = jsonio.game_to_json(_played("classic", {}, 6))
    with store.writing() as session:
        game_id = exchange.import_game(session, original, "changed", {}).id
        phase = session.scalar(
            select(models.Phase).where(models.Phase.game_id == game_id, models.Phase.number == 3)
        )
        assert phase is not None
        phase.orders = {}  # as if the orders stored were not the ones adjudicated
    with store.reading() as session:
        game = session.get(models.Game, game_id)
        assert game is not None
        problems = exchange.verify(session, game)
    assert problems and problems[0].startswith(f"phase 3 ({at(original, 'phases', 2, 'phase')})")


def test_a_game_file_refused_stores_nothing(store: Store) -> None:
    broken = jsonio.game_to_json(_played("classic", {}, 3))
    obj(broken, "phases", 1)["digest"] = "0" * 16
    refused = pytest.raises(jsonio.WireError, match="replay gives a different position")
    with refused, store.writing() as session:
        exchange.import_game(session, broken, "broken", {})
    with store.reading() as session:
        assert session.scalar(select(models.Game.id)) is None


def test_the_cli_moves_game_files_in_and_out(
    database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(jsonio.game_to_json(_played("sub_saharan", {}, 5))))
    assert main(["db", "import", str(game_file), "--database", database]) == 1
    assert "run 'hegemon db upgrade'" in capsys.readouterr().err
    assert main(["db", "upgrade", "--database", database]) == 0
    assert main(["db", "import", str(game_file), "--database", database]) == 0
    assert "Game 1: game, sub_saharan" in capsys.readouterr().out
    assert main(["db", "verify", "1", "--database", database]) == 0
    assert "5 phase(s) replayed, 0 problem(s)" in capsys.readouterr().out
    out = tmp_path / "out.json"
    assert main(["db", "export", "1", str(out), "--database", database]) == 0
    assert json.loads(out.read_text()) == json.loads(game_file.read_text())
    assert main(["db", "export", "2", str(out), "--database", database]) == 1
    assert "no game 2" in capsys.readouterr().err
    with Store(database).writing() as session:
        session.execute(update(models.Phase).where(models.Phase.number == 2).values(draws={"x": 1}))
    assert main(["db", "verify", "1", "--database", database]) == 1


def test_orders_stored_move_the_row_on_and_refuse_a_row_changed_meanwhile(store: Store) -> None:
    """`records.store_orders` writes a power's orders as the ORM's flush would, its row's
    version moved on, and refuses (StaleDataError, a 409) a row another transaction
    changed since it was read."""
    with store.writing() as session:
        game_id = exchange.import_game(
            session, jsonio.game_to_json(_played("classic", {}, 0)), "g", {}
        ).id
    pending = select(models.Pending).where(
        models.Pending.game_id == game_id, models.Pending.power == "France"
    )
    with store.writing() as session:
        row = session.scalars(pending).one()
        version = row.version
        records.store_orders(session, row, ["A Par - Bur"])
        assert (row.orders, row.version) == (["A Par - Bur"], version + 1)
        assert not session.dirty
    with store.reading() as session:
        row = session.scalars(pending).one()
        assert (row.orders, row.version) == (["A Par - Bur"], version + 1)
    with store.writing() as session:
        row = session.scalars(pending).one()
        moved_on = update(models.Pending).where(models.Pending.id == row.id).values(version=99)
        session.connection().execute(moved_on)  # by Core: the row object left as it was read
        with pytest.raises(StaleDataError):
            records.store_orders(session, row, ["A Par - Pic"])


def test_a_row_read_by_a_prepared_statement_makes_the_object_the_orm_loads(store: Store) -> None:
    """`Prepared.row` reads each column as SQLAlchemy does (JSON, moments in UTC, a float
    on PostgreSQL), and `Rows` makes of it the object the ORM's query loads: the same
    values of the same types, held by the session as loaded, nothing changed."""
    with store.writing() as session:
        game = exchange.import_game(
            session, jsonio.game_to_json(_played("classic", {}, 2)), "g", {}
        )
        game.deadline, game.paused_left = models.now(), 12.5
        user = models.User(name="ann", name_key="ann", password_hash="!")
        session.add(user)
        session.flush()
        session.add(models.Member(game_id=game.id, user_id=user.id, role="player", power="France"))
    for entity in (models.Game, models.Member, models.Pending, models.User, models.Phase):
        rows = Rows(entity)
        (key,) = rows.mapper.primary_key
        with store.reading() as session:
            objects = session.scalars(select(entity).order_by(key)).all()
            loaded = [_as_loaded(row) for row in objects]
            keys = [getattr(row, key.key) for row in objects]
        by_key = PreparedFor(select(*rows.columns).where(key == bindparam("key")))
        made = []
        with store.reading() as session:
            connection = session.connection()
            for each in keys:
                values = by_key.on(connection).row(connection, {"key": each})
                assert values is not None
                made.append(_as_loaded(rows.attached(session, values)))
        assert made == loaded and loaded, entity


def _as_loaded(row: object) -> tuple[object, ...]:
    """What the session knows of an object: its identity, whether it holds it unchanged,
    and each attribute's value and type."""
    state = inspect(row)
    values = {key: (value, type(value)) for key, value in vars(row).items() if key[0] != "_"}
    return state.key, state.persistent, state.modified, state.expired_attributes, values


def test_the_lossy_writer_commits_without_waiting_for_the_disk(store: Store) -> None:
    """What the rate limits' counters are written by (`Store.lossy_writer`): its commits do
    not wait for the disk; every other transaction's still does."""
    if store.sqlite:
        with store.lossy_writer().begin() as lossy, store.engine.begin() as kept:
            assert lossy.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
            assert kept.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    else:
        with store.lossy_writer().begin() as lossy, store.engine.begin() as kept:
            assert lossy.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
            assert kept.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"


def test_a_sqlite_change_kept_from_the_write_lock_fails_as_sqlalchemy_says(tmp_path: Path) -> None:
    """A change that cannot take SQLite's write lock in time, another change holding it,
    fails with SQLAlchemy's OperationalError (which the server answers with a 503), and
    a read goes on beside it: each transaction's BEGIN is sent by the driver itself."""
    url = f"sqlite:///{tmp_path}/locked.db"
    holder, waiter = Store(url), Store(url, Timeouts(busy=0.05))
    with holder.writing() as holding:
        holding.execute(select(1))  # the write lock taken
        with pytest.raises(OperationalError, match="locked"), waiter.writing() as session:
            session.execute(select(1))
        with waiter.reading() as session:
            assert session.scalar(select(1)) == 1
    with waiter.writing() as session:  # the lock free again
        assert session.scalar(select(1)) == 1
    holder.close()
    waiter.close()
