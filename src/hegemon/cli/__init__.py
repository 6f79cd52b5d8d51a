"""The ``hegemon`` command: run games kept in JSON files, and check the judge.

Every problem with what the user gave (a file, an order, an option) or with the machine
(a full disk, a read-only folder) ends in one line on stderr naming the input and the
reason, with exit status 2; a game file is only ever replaced whole, under a lock, once
the new state is complete (`hegemon.gamefile`). Ctrl-C ends a command quietly with
status 130, however early it comes, as does a reader that stops reading (``hegemon show
game.json | head``), with status 141 (as a shell reports a command that a closed pipe
ended). Anything else is a bug in Hegemon: the command says so, and where it wrote the
traceback.

Importing this module loads nothing but the standard library: the judge and the commands
load within `main`, so that Ctrl-C while they load ends as quietly as later, and only the
commands that draw load what drawing needs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    """The hegemon command with these arguments (the process's own if None); its exit
    status."""
    try:
        from hegemon.cli.dispatch import run  # the whole judge: Ctrl-C may come meanwhile

        status = run(argv)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at the exit
        return status
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE


def _quiet_stdout() -> None:
    """After the reader of our output went away: no more writing to it, not even the
    interpreter's own flush at exit (which would complain)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    raise SystemExit(main())
