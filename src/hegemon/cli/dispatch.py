"""Running a command: the command line read, the command run, and every failure turned
into its one line and exit status (`hegemon.cli` says which)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence

from hegemon import jsonio
from hegemon.board import MapError
from hegemon.cli import hosting, playing, reading, tools
from hegemon.cli.common import UserError, add_variant_dir_option
from hegemon.datc import DatcFormatError
from hegemon.game import SetupError
from hegemon.gamefile import GameFileError

EXIT_USER = 2  # bad input or a failing machine: one line says which
EXIT_BUG = 70  # an internal error (EX_SOFTWARE)
MAX_MESSAGE = 2000  # characters of an error message: one line, however large the input

_USER_ERRORS = (UserError, jsonio.WireError, GameFileError, DatcFormatError, MapError, SetupError)


def run(argv: Sequence[str] | None = None) -> int:
    """The command `argv` names, run; its exit status."""
    parser = build_parser()
    # Orders may follow the options or come before them (argparse would stop at the first).
    args, extra = parser.parse_known_args(argv)
    if extra and hasattr(args, "orders") and not any(e.startswith("--") for e in extra):
        args.orders += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.handler(args))
    except _USER_ERRORS as exc:
        return _fail(str(exc.args[0]) if exc.args else str(exc))
    except BrokenPipeError:
        raise  # the reader went away: `main` ends quietly
    except OSError as exc:  # the machine, not Hegemon: a full disk, a missing folder ...
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{(exc.strerror or str(exc)).lower()}")
    except Exception as exc:
        return _bug(exc)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hegemon", description="A judge for Diplomacy and its influence variants."
    )
    add_variant_dir_option(parser)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    for module in (playing, reading, tools, hosting):
        module.add_commands(commands)
    return parser


def _fail(message: str) -> int:
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE} characters more)"
    print(f"hegemon: error: {message}", file=sys.stderr)
    return EXIT_USER


def _bug(exc: Exception) -> int:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(tempfile.gettempdir(), f"hegemon-crash-{stamp}-{os.getpid()}.txt")
    try:
        with open(path, "w", encoding="utf-8") as handle:
            traceback.print_exception(exc, file=handle)
        where = f"the traceback is in {path}"
    except OSError:
        where = "the traceback could not be written"
    print(
        f"hegemon: internal error, a bug in Hegemon ({type(exc).__name__}: {exc}); {where}. "
        "Please report it with the command you ran.",
        file=sys.stderr,
    )
    return EXIT_BUG
