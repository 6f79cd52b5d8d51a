"""The ``hegemon`` command: run games kept in JSON files, and check the judge.

Exit statuses: 0 done; 1 refused, when what the user gave (a file, an order, an option)
or the machine (a full disk, a read-only folder) stops the command, with one line on
stderr naming the input and the reason; 2 a command line argparse cannot read; 70 an
internal error, a bug in Hegemon, which the command says, with where it wrote the
traceback; 130 Ctrl-C; 141 a reader that stops reading (``hegemon show game.json |
head``), as a shell reports a command that a closed pipe ended. A game file is only ever
replaced whole, under a lock, once the new state is complete (`hegemon.gamefile`), and a
command that saved its game ends with 0 even if its output could not be written
(`hegemon.cli.output`): run again, it would do its work twice.

Ctrl-C ends the command quietly with 130, however early it comes. Started as the command,
this module takes SIGINT first thing, ending the process at once while the rest loads
(nothing is being changed then); a command being run gets it as KeyboardInterrupt, so
that what it was writing is taken away. Importing this module loads nothing but the
standard library: the judge and the commands load within `main`.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE

Handler = Callable[[int, FrameType | None], object] | int | None


def _end_quietly(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C while the command loads or ends, when nothing is being changed: at once."""
    os.write(2, b"\n")
    os._exit(EXIT_INTERRUPTED)


def _take_ctrl_c(handler: Handler) -> Handler:
    """Handle SIGINT so; the handler there before. SIGINT ignored stays ignored (a program
    started in the background by a script runs so, rightly), and a thread other than the
    main one changes nothing."""
    try:
        previous = signal.getsignal(signal.SIGINT)
        if previous is not signal.SIG_IGN and handler is not None:
            signal.signal(signal.SIGINT, handler)
        return previous
    except ValueError:  # not the main thread
        return None


def _started_as_the_command() -> bool:
    """Whether this process is the hegemon command starting: its script, or ``python -m
    hegemon.cli`` (whose package loads before argv[0] names it), not a program importing
    the module, whose Ctrl-C is its own."""
    return sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") == "hegemon"


if _started_as_the_command():
    _take_ctrl_c(_end_quietly)


def main(argv: Sequence[str] | None = None) -> int:
    """The hegemon command with these arguments (the process's own if None); its exit
    status."""
    outside = _take_ctrl_c(signal.default_int_handler)  # the command may clean up
    try:
        from hegemon.cli.dispatch import run  # the whole judge: Ctrl-C may come meanwhile

        return run(argv)
    except KeyboardInterrupt:
        _take_ctrl_c(outside)  # a second Ctrl-C, as the first is told, ends it as quietly
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        from hegemon.cli.output import silence

        silence()
        return EXIT_BROKEN_PIPE
    finally:
        _take_ctrl_c(outside)


if __name__ == "__main__":
    raise SystemExit(main())
