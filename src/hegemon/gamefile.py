"""Game files: a game kept in one JSON file, read whole, changed under a lock, replaced whole.

Every command that changes a game holds an exclusive lock on it (a hidden lock file
beside it, ``.NAME.lock``, which stays) from reading it to saving it, so that two
commands run at once follow one another and neither loses what the other stored; a
command that finds the file changed by something that took no lock saves nothing. The
lock file is its maker's own and is never changed after: in a folder others may write in,
a link or a pipe put in its place is refused, never followed or waited on. A save
writes a complete new file beside the old one, flushes it to the disk and puts it in
place in one step, keeping the file's permissions and owner and following a symbolic
link to the file it names; anything that goes wrong on the way leaves the old file as it
was and nothing else behind (and what a killed command left, the next one removes).
A game file must be a regular file, of today's format, holding nothing a save would drop."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hegemon import files, jsonio
from hegemon.game import Game
from hegemon.variants import load_variant

LOCK_WAIT = 30.0  # seconds a command waits for another to finish with the same game


class GameFileError(Exception):
    """A game file that cannot be read, locked or saved; the message names the file and
    the reason in one line."""


def read_game(path: Path, variants: jsonio.VariantLoader = load_variant) -> Game:
    """The game in `path`, for a command that only reads it: a save replaces the file in
    one step, so this reads either the old game or the new one, never a mixture."""
    return _parse(path, _read(path), variants)


@dataclass
class Update:
    """A game being changed under its file's lock; `save` writes it back."""

    path: Path
    game: Game
    _seen: os.stat_result

    def save(self) -> None:
        target = _target(self.path)
        try:
            now = target.stat()
        except OSError as exc:
            raise GameFileError(f"{self.path}: {_reason(exc)}; nothing saved") from None
        if _fingerprint(now) != _fingerprint(self._seen):
            raise GameFileError(
                f"{self.path}: changed by another program while this command ran; nothing saved"
            )
        _replace(self.path, target, _text(self.path, self.game), now)
        self._seen = target.stat()


@contextlib.contextmanager
def updating(path: Path, variants: jsonio.VariantLoader = load_variant) -> Iterator[Update]:
    """The game in `path`, locked against every other command until the block ends."""
    target = _target(path)
    with _locked(path, target):
        seen = _stat(path, target)
        if not stat.S_IMODE(seen.st_mode) & 0o222:
            raise GameFileError(f"{path}: the file is read-only; nothing can be saved")
        yield Update(path, _parse(path, _read(path), variants), seen)


def create(path: Path, game: Game, force: bool = False) -> None:
    """Write a new game to `path`; with `force`, replace a game already there, but never
    a file that is not a game, nor make one where a symbolic link to nothing points (in
    a folder others may write in, it could point anywhere)."""
    target = _target(path)
    if not target.parent.is_dir():
        raise GameFileError(f"{path}: the folder {target.parent} does not exist")
    if path.is_symlink() and not target.exists():
        raise GameFileError(f"{path}: a symbolic link to {target}, which does not exist")
    with _locked(path, target):
        existing = None
        if target.exists():
            if not force:
                raise GameFileError(f"{path}: already exists (use --force to replace it)")
            refuse_to_replace_a_non_game(path)
            existing = _stat(path, target)
        _replace(path, target, _text(path, game), existing)


def refuse_to_replace_a_non_game(path: Path) -> None:
    """Raise unless `path` is missing or holds a game (which a game may replace)."""
    if not is_game_file(path):
        raise GameFileError(f"{path}: not a game file, so it is not replaced")


def is_game_file(path: Path) -> bool:
    """Whether `path` holds a saved game (by its first bytes: a JSON object whose
    format is a game format). Only a regular file can: a pipe or a terminal is never
    opened to find out, which would wait for a writer."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as handle:
            head = handle.read(200)
    except OSError:
        return False
    known = any(name.encode() in head for name in jsonio.GAME_FORMATS)
    return known and head.lstrip().startswith(b"{")


# --- reading ----------------------------------------------------------------------------


def _read(path: Path) -> str:
    try:
        data = _read_regular(path)
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such game file (create one with 'hegemon new')") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read it: {_reason(exc)}") from None
    if len(data) > jsonio.MAX_BYTES:
        raise GameFileError(f"{path}: larger than {jsonio.MAX_BYTES} bytes, so not a game file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{path}: not a game file (not UTF-8 text: {exc.reason})") from None


def _read_regular(path: Path) -> bytes:
    """The first bytes of a regular file, up to one more than a game file may hold. A pipe
    or a device is refused before anything is read from it: opening one without
    O_NONBLOCK, or reading it, would wait for a writer (holding the game's lock)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise GameFileError(f"{path}: not a game file (not a regular file)")
        return handle.read(jsonio.MAX_BYTES + 1)


def _parse(path: Path, text: str, variants: jsonio.VariantLoader) -> Game:
    try:
        return jsonio.game_from_json(jsonio.parse(text, "the game file"), variants)
    except jsonio.WireError as exc:
        raise GameFileError(f"{path}: {exc}") from None


def _text(path: Path, game: Game) -> str:
    """The game as its file holds it: never a file the reader would refuse."""
    text = json.dumps(jsonio.game_to_json(game), indent=1) + "\n"
    size = len(text.encode())
    if size > jsonio.MAX_BYTES:
        raise GameFileError(
            f"{path}: the game would take {size} bytes, more than the {jsonio.MAX_BYTES} "
            "a game file may; nothing saved"
        )
    return text


# --- locking ----------------------------------------------------------------------------


def _target(path: Path) -> Path:
    """The file a game's name leads to: a symbolic link is followed, so that a save
    replaces the file it names and the link stays."""
    return Path(os.path.realpath(path))


@contextlib.contextmanager
def _locked(path: Path, target: Path) -> Iterator[None]:
    lock_path = target.with_name(f".{target.name}.lock")
    try:
        descriptor = _open_lock(lock_path)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot lock it: {_lock_reason(lock_path, exc)}") from None
    try:
        _refuse_a_strange_lock(path, lock_path, descriptor)
        _wait_for(descriptor, path)
        files.remove_leftovers(target)
        yield
    finally:
        os.close(descriptor)  # which releases the lock


LOCK_MODE = 0o644  # whoever may read the folder may lock (a flock needs no more than reading)
_LOCK_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # never a link, never a wait


def _open_lock(lock_path: Path) -> int:
    """The lock file, opened: made by this user if there is none (its own, LOCK_MODE),
    else as it is, never changed. A symbolic link is never followed: in a folder others
    may write in, it could name any file, or make one where they may not."""
    try:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _LOCK_FLAGS, 0o600)
    except FileExistsError:
        pass
    else:
        os.fchmod(descriptor, LOCK_MODE)  # this process's own new file, whatever the umask
        return descriptor
    try:
        return os.open(lock_path, os.O_RDWR | _LOCK_FLAGS)
    except PermissionError as denied:
        try:  # a lock file another user made, which this one may only read: enough to lock
            return os.open(lock_path, os.O_RDONLY | _LOCK_FLAGS)
        except FileNotFoundError:  # none, and this user may not make one
            raise denied from None


def _lock_reason(lock_path: Path, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return f"{lock_path.name} is a symbolic link, which a lock file never is; remove it"
    return _reason(exc)


def _refuse_a_strange_lock(path: Path, lock_path: Path, descriptor: int) -> None:
    """A lock file is a plain file of one name: a pipe, a device or another file's second
    name (a hard link) put in its place is refused, not locked."""
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
        what = "not a regular file" if not stat.S_ISREG(found.st_mode) else "another file's link"
        raise GameFileError(
            f"{path}: cannot lock it: {lock_path.name} is {what}, which a lock file never is; "
            "remove it"
        )


def _wait_for(descriptor: int, path: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise GameFileError(
                    f"{path}: another command has been changing this game for "
                    f"{LOCK_WAIT:.0f} s; try again"
                ) from None
            time.sleep(0.01)


def _stat(path: Path, target: Path) -> os.stat_result:
    try:
        return target.stat()
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such game file (create one with 'hegemon new')") from None
    except OSError as exc:
        raise GameFileError(f"{path}: {_reason(exc)}") from None


def _fingerprint(seen: os.stat_result) -> tuple[int, int, int]:
    return seen.st_ino, seen.st_size, seen.st_mtime_ns


# --- saving -----------------------------------------------------------------------------


def _replace(path: Path, target: Path, text: str, existing: os.stat_result | None) -> None:
    """Put `text` in `target` in one step, keeping the old file's permissions and owner."""
    try:
        files.replace_whole(target, text.encode(), existing)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot save it: {_reason(exc)}; nothing changed") from None


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()
