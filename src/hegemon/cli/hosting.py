"""The commands that run the server on a database: serve, worker, and db (upgrade, import,
export, verify). Their work is done by `hegemon.cli.serving`, loaded only when one of
them runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from hegemon.cli.common import Commands, Handler


def add_commands(commands: Commands) -> None:
    serve = commands.add_parser("serve", help="run the server: the HTTP API on a database")
    _database_option(serve)
    serve.add_argument("--host", default="127.0.0.1", help="the address (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    serve.add_argument("--workers", type=int, default=1, help="API processes to run (default: 1)")
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="the proxies trusted to say, by X-Forwarded-For, whose request they pass on: "
        "comma-separated addresses, or * (default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )
    serve.add_argument(
        "--no-deadlines",
        action="store_true",
        help="run no deadline worker in this process (run 'hegemon worker' instead)",
    )
    serve.add_argument(
        "--demo",
        nargs="?",
        const="bots",
        choices=("bots", "humans"),
        help="add a demo game and print its accounts' passwords: one newcomer against bots "
        "(--demo), or an account for every seat (--demo=humans)",
    )
    _log_options(serve)
    serve.set_defaults(handler=_run("serve"))

    run = commands.add_parser("worker", help="run the deadlines of the games in a database")
    _database_option(run)
    run.add_argument("--poll", type=float, help="seconds between looks (default: 2)")
    run.add_argument("--once", action="store_true", help="handle what is due now, then stop")
    _log_options(run)
    run.set_defaults(handler=_run("run_worker"))

    database = commands.add_parser("db", help="the server's database: tables, game files")
    actions = database.add_subparsers(required=True, metavar="ACTION")
    upgrade = actions.add_parser("upgrade", help="make or bring up to date the tables")
    _database_option(upgrade)
    upgrade.set_defaults(handler=_run("upgrade"))
    load = actions.add_parser("import", help="store a CLI game file as a new game")
    load.add_argument("file", type=Path)
    load.add_argument("--master", metavar="USER", help="the account to be its game master")
    load.add_argument("--title", default="", help="the game's title (default: the file's name)")
    _database_option(load)
    load.set_defaults(handler=_run("import_game"))
    save = actions.add_parser("export", help="write a game as a CLI game file")
    save.add_argument("game", type=int, help="the game's number")
    save.add_argument("file", type=Path)
    save.add_argument("--force", action="store_true", help="replace a game file already there")
    save.add_argument(
        "--press",
        type=Path,
        metavar="FILE",
        help="also write its press, as the game master reads it, to FILE (JSON)",
    )
    _database_option(save)
    save.set_defaults(handler=_run("export_game"))
    check = actions.add_parser(
        "verify", help="replay a game's log and compare every phase with its stored snapshot"
    )
    check.add_argument("game", type=int, help="the game's number")
    _database_option(check)
    check.set_defaults(handler=_run("verify"))


def _database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        metavar="URL",
        help="sqlite:///FILE or postgresql+psycopg://USER@HOST/DB (default: "
        "$HEGEMON_DATABASE_URL, else sqlite:///hegemon.db)",
    )


def _log_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-format",
        choices=("logfmt", "json"),
        help="the log's lines on stderr (default: $HEGEMON_LOG_FORMAT, else logfmt)",
    )
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        help="the least a line must matter to be logged (default: $HEGEMON_LOG_LEVEL, else info)",
    )


def _run(name: str) -> Handler:
    """The handler that loads the server's commands and runs the one named."""

    def handler(args: argparse.Namespace) -> int:
        from hegemon.cli import serving  # FastAPI, SQLAlchemy: only for these commands

        command: Handler = getattr(serving, name)
        return int(command(args))

    return handler
