"""The server's commands at work (`hegemon.cli.hosting` reads their arguments): loaded
only by these commands, as the server needs FastAPI, SQLAlchemy and uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from fastapi import FastAPI
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.cli.common import UserError, read_text
from hegemon.gamefile import create
from hegemon.position import MASTER
from hegemon.server import adjudication, create_app, demo, logs, press, worker
from hegemon.server.app import password_hasher
from hegemon.server.backoff import Backoff, wait_for_database
from hegemon.server.bot_play import BotPlay
from hegemon.server.limits import Limits
from hegemon.server.mastering import seat_master
from hegemon.server.metrics import MULTIPROCESS_VARIABLE
from hegemon.server.notify import sender
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.policy import NO_DEADLINES
from hegemon.server.table import Lock, Table, find_user
from hegemon.store import DatabaseError, Store, database_url, exchange, models
from hegemon.store.database import URL_VARIABLE, first_line
from hegemon.store.models import now


def _store(args: argparse.Namespace, upgrade: bool = False) -> Store:
    """The database the command names, its tables current (brought up to date if asked)."""
    store = _open(args)
    try:
        if upgrade:
            store.upgrade()
        else:
            _require_current(store)
    except SQLAlchemyError as exc:
        raise UserError(f"database {_shown(store)}: {first_line(exc)}") from None
    return store


def _open(args: argparse.Namespace) -> Store:
    """The database the command names, not yet asked anything."""
    try:
        return Store(database_url(args.database))
    except DatabaseError as exc:
        raise UserError(str(exc)) from None


def _require_current(store: Store) -> None:
    if not store.is_current():
        raise UserError(
            f"database {_shown(store)}: its tables are not current; run 'hegemon db upgrade'"
        )


def _shown(store: Store) -> str:
    return store.engine.url.render_as_string()


def _configure_logs(args: argparse.Namespace) -> None:
    try:
        logs.configure(args.log_format, args.log_level)
    except logs.LogSettingError as exc:
        raise UserError(str(exc)) from None


# --- serve, worker --------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> int:
    _configure_logs(args)
    try:
        password_hasher()  # their settings checked before the server starts
        Limits.from_environment()
        adjudication.statement_timeout()
        notify = NotifySettings.from_environment()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    with _port_held(args.host, args.port):
        store = _store(args, upgrade=True)
        if args.demo:
            _print_demo(store, args.demo)
    print(f"Hegemon: open http://{args.host}:{args.port}/ (the API: /api, /openapi.json)")
    print(f"Games are kept in {_shown(store)}; Ctrl-C stops the server.")
    with _metrics_shared(args.workers):
        _run_server(args, store, notify)
    return 0


@contextlib.contextmanager
def _port_held(host: str, port: int) -> Iterator[None]:
    """The server's port, bound and listening while the database is made ready and the demo
    seeded, released for uvicorn to bind at once after: a second server started on a port
    in use is refused before it writes anything, as the demo gives its accounts new
    passwords, which would lock out whoever signed in with those the running server
    printed. (uvicorn binds its own socket: a socket handed to it answers a body cut off at
    the size limit with a reset, not the 413, tests/server/test_exhaustion.py.) Bound as
    uvicorn binds (SO_REUSEADDR: a port left in TIME_WAIT by a stopped server is free),
    and listening, as a socket merely bound would not keep a second one from binding it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            held.bind((host, port))
            held.listen()
        except OSError as exc:
            raise UserError(_refused(host, port, exc)) from None
        yield


def _refused(host: str, port: int, exc: OSError) -> str:
    why = exc.strerror or str(exc)
    if exc.errno == errno.EADDRINUSE:
        why += ": is a server running there already?"
    return (
        f"--port {port}: cannot listen on {host}:{port} ({why}); nothing was changed: "
        "choose another port with --port (make run PORT=8001)"
    )


def _run_server(args: argparse.Namespace, store: Store, notify: NotifySettings) -> None:
    """The deadline worker in a thread (unless told not), the notifications' sender in
    another, and uvicorn until stopped."""
    import uvicorn

    stop = threading.Event()
    if not args.no_deadlines:
        threading.Thread(target=worker.work, args=(store, stop), daemon=True).start()
    threading.Thread(target=sender.work, args=(store, stop, notify), daemon=True).start()
    try:
        app: FastAPI | str
        if args.workers > 1:  # each worker makes its own app, from what the environment says
            os.environ[URL_VARIABLE] = store.engine.url.render_as_string(hide_password=False)
            os.environ.update(logs.keep_for_children(args.log_format, args.log_level))
            app = "hegemon.server:from_environment"
        else:
            app = create_app(store=store, notify=notify)
        uvicorn.run(
            app,
            factory=args.workers > 1,
            host=args.host,
            port=args.port,
            workers=args.workers,
            forwarded_allow_ips=args.forwarded_allow_ips,
            # uvicorn's log is hegemon's (logs.configure); its access log, hegemon.access's.
            log_config=None,
            access_log=False,
        )
    finally:
        stop.set()


@contextlib.contextmanager
def _metrics_shared(processes: int) -> Iterator[None]:
    """With several processes, each keeps its metrics in files of a new folder that a
    scrape reads all of (prometheus-client's multiprocess mode), removed at the end. Set
    before any metric is made, in this process or those started after."""
    if processes <= 1:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="hegemon-metrics-") as folder:
        os.environ[MULTIPROCESS_VARIABLE] = folder
        try:
            yield
        finally:
            del os.environ[MULTIPROCESS_VARIABLE]


DEMO_VARIANT = "classic"  # the game `serve --demo` seats
DEMO_POWER = "France"  # the newcomer's power in it, against bots
HUMANS = "humans"  # `--demo=humans`: every seat an account, as before the bots


def _print_demo(store: Store, which: str) -> None:
    try:
        if which == HUMANS:
            passwords = demo.seed(store, password_hasher(), now(), DEMO_VARIANT)
            print(f"The demo game '{demo.TITLE}': sign in as any of these "
                  "(passwords are new each run)")  # fmt: skip
        else:
            passwords = demo.seed_against_bots(
                store, password_hasher(), now(), DEMO_VARIANT, DEMO_POWER
            )
            print(f"The demo game: you play {DEMO_POWER} against six bots; sign in as "
                  "(the password is new each run)")  # fmt: skip
    except demo.NamesTaken as exc:
        raise UserError(f"--demo: {exc}") from None
    for name, password in passwords.items():
        print(f"   {name:<10} {password}")


def run_worker(args: argparse.Namespace) -> int:
    """Run the deadlines. A database that does not answer, at the start or later, is asked
    again with back-off (`hegemon.server.backoff`) rather than ending the worker; `--once`
    (for a scheduler that runs it again) gives up at once instead."""
    _configure_logs(args)
    try:
        adjudication.statement_timeout()  # its setting checked before the first deadline
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.once:
        store = _store(args)
        seats = BotPlay().run(store)
        print(f"{seats} bot seat(s) played, {worker.run_due(store)} phase(s) adjudicated")
        return 0
    store = _open(args)
    stop = threading.Event()
    try:
        backoff = Backoff.from_environment()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        if wait_for_database(store, stop, backoff):
            _require_current(store)
            worker.work(store, stop, args.poll or worker.POLL, backoff=backoff)
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
        sent = press.export(session, press.Reader(game, MASTER)) if args.press else None
    create(args.file, jsonio.game_from_json(data), force=args.force)
    print(f"Game {args.game} written to {args.file}")
    if sent is not None:
        _write_new(args.press, sent.model_dump_json(indent=2) + "\n", args.force)
        count = len(sent.messages)
        print(f"Its press ({count} message(s), as its game master reads it) to {args.press}")
    return 0


def _write_new(path: Path, text: str, force: bool) -> None:
    """Write a new file (with `force`, replace one already there)."""
    try:
        with path.open("w" if force else "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise UserError(f"{path}: already exists (use --force to replace it)") from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror}") from None


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
