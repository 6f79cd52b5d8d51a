"""The command's standard output: one it was started without, one whose reader went away,
and what a command that saved its game says when its output cannot be written.

A command that has saved has done its work: were it to fail because its report could not
be printed (into a closed pipe, a full disk, a closed descriptor), a script that retries
failed commands would adjudicate twice. So it ends with status 0, saying on stderr what
was saved and how to print it again; only a reader gone on purpose (``| head``) is not
told.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys


class ClosedOutput(io.TextIOBase):
    """The standard output of a command started without one (``hegemon show game.json
    >&-``), where Python keeps None: writing to it fails as writing to a closed
    descriptor does, as an error the command reports, not a bug."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed", STDOUT)


STDOUT = "the standard output"  # as an error names it


def flush_stdout() -> None:
    """Write out what the command printed; an OSError names the standard output."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, STDOUT) from None


def ensure_stdout() -> None:
    """A standard output to write to, failing if there is none."""
    if sys.stdout is None:
        sys.stdout = ClosedOutput()


def silence() -> None:
    """No more writing to the standard output, not even the interpreter's own flush at
    exit (which would complain): what is left to write goes nowhere."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
    finally:
        os.close(devnull)
    if isinstance(sys.stdout, ClosedOutput):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the process's, to its end)


def say_after_saving(text: str, saved: str, again: str = "") -> None:
    """Print what a command that saved has to say (`saved` says what was saved, `again`
    how to have it printed again). If it cannot be printed, the command still succeeds."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        silence()
    except OSError as exc:
        silence()
        reason = (exc.strerror or str(exc)).lower()
        warn(f"{saved}; the output could not be written ({reason}){again}")


def warn(message: str) -> None:
    """One line on stderr, if there is one to write to."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(f"hegemon: warning: {message}", file=sys.stderr)
