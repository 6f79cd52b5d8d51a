"""Writing a file whole or not at all: what game files and drawn boards share.

A file is replaced by writing a complete new one beside it, flushing it to the disk and
renaming it over the old one in one step, so that a reader sees the old file or the new
one and never a part; anything that goes wrong on the way (a full disk, a read-only
folder, Ctrl-C) leaves the old file as it was and nothing else behind.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def replace_whole(target: Path, data: bytes, existing: os.stat_result | None) -> None:
    """Put `data` in `target` in one step, with the permissions and owner of the file it
    replaces (`existing`), or for a new file those the user's umask gives. Raises the
    OSError that stopped it, having left nothing behind."""
    descriptor, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
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
    """Give an open file the permissions and owner of `existing`, or, with none, the
    permissions the user's umask gives new files (a temporary file starts private)."""
    if existing is None:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(descriptor, 0o666 & ~umask)
        return
    os.fchmod(descriptor, stat.S_IMODE(existing.st_mode))
    with contextlib.suppress(PermissionError):  # only the owner's own group, as a user
        os.fchown(descriptor, existing.st_uid, existing.st_gid)


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to the disk, where the system allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
