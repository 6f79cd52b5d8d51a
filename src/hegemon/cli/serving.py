"""The server's commands at work (`hegemon.cli.hosting` reads their arguments): loaded
only by these commands, as the server needs FastAPI, SQLAlchemy and uvicorn."""

from __future__ import annotations

import argparse
import logging
import os
import threading

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.cli.common import UserError, read_text
from hegemon.gamefile import create
from hegemon.server import create_app, demo, worker
from hegemon.server.app import password_hasher
from hegemon.server.limits import Limits
from hegemon.server.mastering import seat_master
from hegemon.server.policy import NO_DEADLINES
from hegemon.server.table import Lock, Table, find_user
from hegemon.store import DatabaseError, Store, database_url, exchange, models
from hegemon.store.database import URL_VARIABLE
from hegemon.store.models import now


def _store(args: argparse.Namespace, upgrade: bool = False) -> Store:
    """The database the command names, its tables current (brought up to date if asked)."""
    url = database_url(args.database)
    try:
        store = Store(url)
        if upgrade:
            store.upgrade()
        elif not store.is_current():
            raise UserError(f"database {url}: its tables are not current; run 'hegemon db upgrade'")
    except DatabaseError as exc:
        raise UserError(str(exc)) from None
    except SQLAlchemyError as exc:
        raise UserError(f"database {url}: {_first_line(exc)}") from None
    return store


def _first_line(exc: Exception) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# --- serve, worker --------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    try:
        password_hasher()  # their settings checked before the server starts
        Limits.from_environment()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    store = _store(args, upgrade=True)
    if args.demo:
        _print_demo(store)
    stop = threading.Event()
    if not args.no_deadlines:
        threading.Thread(target=worker.work, args=(store, stop), daemon=True).start()
    print(f"Hegemon: open http://{args.host}:{args.port}/ (the API: /api, /openapi.json)")
    print(f"Games are kept in {store.engine.url.render_as_string()}; Ctrl-C stops the server.")
    try:
        if args.workers > 1:
            os.environ[URL_VARIABLE] = store.engine.url.render_as_string(hide_password=False)
            uvicorn.run(
                "hegemon.server:from_environment",
                factory=True,
                host=args.host,
                port=args.port,
                workers=args.workers,
                forwarded_allow_ips=args.forwarded_allow_ips,
            )
        else:
            uvicorn.run(create_app(store=store), host=args.host, port=args.port,
                        forwarded_allow_ips=args.forwarded_allow_ips)  # fmt: skip
    finally:
        stop.set()
    return 0


def _print_demo(store: Store) -> None:
    passwords = demo.seed(store, password_hasher(), now())
    print(f"The demo game '{demo.TITLE}': sign in as any of these (passwords are new each run)")
    for name, password in passwords.items():
        print(f"   {name:<10} {password}")


def run_worker(args: argparse.Namespace) -> int:
    store = _store(args)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if args.once:
        print(f"{worker.run_due(store)} phase(s) adjudicated")
        return 0
    stop = threading.Event()
    try:
        worker.work(store, stop, args.poll or worker.POLL)
    except KeyboardInterrupt:
        stop.set()
    return 0


# --- db -----------------------------------------------------------------------------------


def upgrade(args: argparse.Namespace) -> int:
    store = _store(args, upgrade=True)
    print(f"{store.engine.url.render_as_string()}: the tables are current")
    return 0


def import_game(args: argparse.Namespace) -> int:
    data = jsonio.parse(read_text(args.file), str(args.file))
    store = _store(args)
    with store.writing() as session:
        master = find_user(session, args.master) if args.master else None
        try:
            game = exchange.import_game(
                session, data, args.title or args.file.stem, NO_DEADLINES.to_json()
            )
        except jsonio.WireError as exc:
            raise UserError(f"{args.file}: {exc}") from None
        table = Table.open(session, game.id, master, Lock.UPDATE)
        if master is not None:
            seat_master(table, now())
        else:
            table.log("imported", phases=game.played, phase=game.phase)
        print(f"Game {game.id}: {game.title}, {game.variant}, at {game.phase} ({game.status})")
    return 0


def export_game(args: argparse.Namespace) -> int:
    store = _store(args)
    with store.reading() as session:
        game = _game(session, args.game)
        data = exchange.export_game(session, game)
    create(args.file, jsonio.game_from_json(data), force=args.force)
    print(f"Game {args.game} written to {args.file}")
    return 0


def _game(session: Session, number: int) -> models.Game:
    game = session.get(models.Game, number)
    if game is None:
        raise UserError(f"no game {number} in the database")
    return game


def verify(args: argparse.Namespace) -> int:
    store = _store(args)
    with store.reading() as session:
        game = _game(session, args.game)
        problems = exchange.verify(session, game)
    for problem in problems:
        print(problem)
    print(f"game {args.game}: {game.played} phase(s) replayed, {len(problems)} problem(s)")
    return 1 if problems else 0
