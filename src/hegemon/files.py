"""Writing a file whole or not at all: what game files and drawn boards share.

A file is replaced by writing a complete new one beside it, flushing it to the disk and
renaming it over the old one in one step, so that a reader sees the old file or the new
one and never a part; anything that goes wrong on the way (a full disk, a read-only
folder, Ctrl-C) leaves the old file as it was and nothing else behind.

The new file is made under a name of its own that nothing else may stand on (created
exclusively, never through a symbolic link, readable by its maker alone until it takes
the old file's permissions). A process killed while writing (SIGKILL, a power cut) cannot
remove it: its name says whose it was, ``.NAME.PID.RANDOM.tmp``, and `remove_leftovers`
removes those of processes that are gone.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def replace_whole(target: Path, data: bytes, existing: os.stat_result | None) -> None:
    """Put `data` in `target` in one step, with the permissions and owner of the file it
    replaces (`existing`), or for a new file those the user's umask gives. Raises the
    OSError that stopped it, having left nothing behind."""
    descriptor, temporary = _temporary_beside(target)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            like(handle.fileno(), existing)
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def like(descriptor: int, existing: os.stat_result | None) -> None:
    """Give the new file being written (open as `descriptor`) the permissions and owner
    of the file it replaces, or, with none, the permissions the user's umask gives new
    files (a temporary file starts private). Only ever for the replacement of that very
    file: never for a file this process did not just make."""
    if existing is None:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(descriptor, 0o666 & ~umask)
        return
    os.fchmod(descriptor, stat.S_IMODE(existing.st_mode))
    with contextlib.suppress(PermissionError):  # only the owner's own group, as a user
        os.fchown(descriptor, existing.st_uid, existing.st_gid)


def remove_leftovers(target: Path) -> list[Path]:
    """Remove the temporary files that processes now gone left beside `target` (killed
    while writing it); those removed. A live process's file is left to it."""
    prefix, removed = f".{target.name}.", []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    for entry in entries:
        owner = _maker(entry.name, prefix)
        if owner is not None and not _alive(owner):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)  # a name, never what a link names
                removed.append(Path(entry.path))
    return removed


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new, empty, private file in `target`'s folder, open for writing, and its name."""
    for _ in range(100):
        name = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, _TEMPORARY_FLAGS, 0o600), str(name)
        except FileExistsError:
            continue
    raise FileExistsError(f"{target.parent}: no free name for a temporary file")


def _maker(name: str, prefix: str) -> int | None:
    """The process that made a temporary file of this name, if it is one of ours."""
    if not (name.startswith(prefix) and name.endswith(".tmp")):
        return None
    pid, dot, rest = name[len(prefix) : -len(".tmp")].partition(".")
    if not (dot and pid.isdigit() and pid.isascii() and len(rest) == 8):
        return None
    return int(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's, or not a pid this system has: leave it be
    return True


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to the disk, where the system allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
