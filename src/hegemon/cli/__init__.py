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

# Nothing here loads a module the interpreter has not loaded already, until Ctrl-C is
# taken: not `from __future__ import annotations` (annotations are written as strings),
# not `typing`, and not the `signal` module but the C module under it, loaded by the
# interpreter itself (`signal` loads `enum` first: milliseconds, on a busy machine tens,
# in which Ctrl-C would be Python's, with a traceback).
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal
    from collections.abc import Callable, Sequence
    from types import FrameType

    Handler = Callable[[int, FrameType | None], object] | int | None
else:
    import _signal

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


def _end_quietly(signum: int, frame: "FrameType | None") -> None:
    """Ctrl-C while the command loads or ends, when nothing is being changed: at once."""
    os.write(2, b"\n")
    os._exit(EXIT_INTERRUPTED)


def _take_ctrl_c(handler: "Handler") -> "Handler":
    """Handle SIGINT so; the handler there before. SIGINT ignored stays ignored (a program
    started in the background by a script runs so, rightly), and a thread other than the
    main one changes nothing."""
    try:
        previous = _signal.getsignal(_signal.SIGINT)
        if previous != _signal.SIG_IGN and handler is not None:
            _signal.signal(_signal.SIGINT, handler)
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


def main(argv: "Sequence[str] | None" = None) -> int:
    """The hegemon command with these arguments (the process's own if None); its exit
    status."""
    outside = _take_ctrl_c(_signal.default_int_handler)  # the command may clean up
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
