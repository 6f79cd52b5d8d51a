"""Running a command: the command line read, the command run, and every failure turned
into its one line and exit status (`hegemon.cli` says which)."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence

from hegemon import jsonio
from hegemon.board import MapError
from hegemon.cli import hosting, manual, playing, reading, tools
from hegemon.cli.common import UserError, add_variant_dir_option
from hegemon.cli.output import ensure_stdout, flush_stdout
from hegemon.datc import DatcFormatError
from hegemon.game import SetupError
from hegemon.gamefile import GameFileError

EXIT_REFUSED = 1  # bad input or a failing machine: one line says which
EXIT_USAGE = 2  # a command line argparse cannot read (its own status)
EXIT_BUG = 70  # an internal error (EX_SOFTWARE)
DEBUG_VARIABLE = "HEGEMON_DEBUG"  # set to 1: an internal error's traceback on stderr too
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
    ensure_stdout()
    try:
        status = int(args.handler(args))
        flush_stdout()  # here, where a full disk or a closed pipe is caught
        return status
    except _USER_ERRORS as exc:
        return _fail(str(exc.args[0]) if exc.args else str(exc))
    except BrokenPipeError:
        raise  # the reader went away: `main` ends quietly
    except OSError as exc:  # the machine, not Hegemon: a full disk, a missing folder ...
        where = f"{exc.filename}: " if exc.filename else ""  # printing names no file
        return _fail(f"{where}{(exc.strerror or str(exc)).lower()}")
    except Exception as exc:
        return _bug(exc)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hegemon",
        description="A judge for Diplomacy and its influence variants.",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version of Hegemon and exit"
    )
    add_variant_dir_option(parser)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    for module in (playing, reading, tools, hosting):
        module.add_commands(commands)
    manual.document(parser)
    return parser


EXIT_STATUSES = """exit status:
  0    done
  1    refused: bad input (an order, a file, an option) or a failing machine; one line
       on stderr names the input and the reason, and nothing is lost
  2    a command line that cannot be read (usage)
  70   an internal error, a bug in Hegemon (HEGEMON_DEBUG=1 prints its traceback)
  130  interrupted by Ctrl-C
  141  the reader of the output went away (hegemon show game.json | head)

hegemon COMMAND --help describes a command, with examples."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, which also suggests what was meant for a mistyped command or
    choice ("did you mean 'orders'?")."""

    def _check_value(self, action: argparse.Action, value: object) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        meant = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
        if not meant:
            super()._check_value(action, value)
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r} (did you mean {meant[0]!r}?)"
        )


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked (reading
    the package's metadata loads a good part of the email package)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from importlib import metadata

        try:
            version = metadata.version("hegemon")
        except metadata.PackageNotFoundError:  # run from a source tree never installed
            version = "(not installed)"
        print(f"hegemon {version}")
        parser.exit()


def _fail(message: str) -> int:
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE} characters more)"
    print(f"hegemon: error: {message}", file=sys.stderr)
    return EXIT_REFUSED


def _bug(exc: Exception) -> int:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(tempfile.gettempdir(), f"hegemon-crash-{stamp}-{os.getpid()}.txt")
    try:
        with open(path, "w", encoding="utf-8") as handle:
            traceback.print_exception(exc, file=handle)
        where = f"the traceback is in {path}"
    except OSError:
        where = "the traceback could not be written"
    if os.environ.get(DEBUG_VARIABLE) == "1":
        traceback.print_exception(exc, file=sys.stderr)
    else:
        where += f"; {DEBUG_VARIABLE}=1 prints it here"
    print(
        f"hegemon: internal error, a bug in Hegemon ({type(exc).__name__}: {exc}); {where}. "
        "Please report it with the command you ran.",
        file=sys.stderr,
    )
    return EXIT_BUG
