"""Game files hold up: commands run at once lose nothing, a save is whole or not at all,
and a file's mode, owner and symbolic link survive it."""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hegemon import gamefile, jsonio
from hegemon.cli import main
from hegemon.game import Game
from hegemon.position import OBSERVER
from hegemon.report import phase_report
from hegemon.variants import load_variant

FORK = multiprocessing.get_context("fork")


def _new_game(path: Path) -> None:
    gamefile.create(path, Game.new(load_variant("classic"), seed=1))


def _run(argv: list[str], out: Path, start: multiprocessing.synchronize.Event) -> None:
    """The hegemon command in a child process, its output into a file, on a signal."""
    with out.open("w") as handle:
        sys.stdout = sys.stderr = handle
        start.wait()
        code = main(argv)
        handle.flush()
    os._exit(code)


def _at_once(*commands: tuple[list[str], Path]) -> list[int]:
    """Run the commands as processes started together; their exit codes."""
    start = FORK.Event()
    children = [FORK.Process(target=_run, args=(argv, out, start)) for argv, out in commands]
    for child in children:
        child.start()
    start.set()
    for child in children:
        child.join(timeout=60)
    return [child.exitcode or 0 for child in children]


def test_fifty_pairs_of_simultaneous_orders_lose_nothing(tmp_path: Path) -> None:
    for pair in range(50):
        path = tmp_path / f"game{pair}.json"
        _new_game(path)
        codes = _at_once(
            (["orders", str(path), "France", "A par - bur"], tmp_path / f"f{pair}.txt"),
            (["orders", str(path), "England", "F lon - nth"], tmp_path / f"e{pair}.txt"),
        )
        assert codes == [0, 0]
        pending = gamefile.read_game(path).pending
        assert [o.format() for o in pending["France"]] == ["A Par - Bur"]
        assert [o.format() for o in pending["England"]] == ["F Lon - Nth"]


def test_thirty_adjudications_racing_late_orders_lose_nothing(tmp_path: Path) -> None:
    for race in range(30):
        path = tmp_path / f"game{race}.json"
        _new_game(path)
        assert main(["orders", str(path), "France", "A par - bur"]) == 0
        report = tmp_path / f"report{race}.txt"
        codes = _at_once(
            (["adjudicate", str(path)], report),
            (["orders", str(path), "England", "F lon - nth"], tmp_path / f"late{race}.txt"),
        )
        assert codes[0] == 0
        game = gamefile.read_game(path)
        [spring] = game.history
        assert [o.format() for o in spring.orders["France"]] == ["A Par - Bur"]
        late = [*spring.orders.get("England", ()), *game.pending.get("England", ())]
        if codes[1] == 0:  # stored before the adjudication, or for the next phase
            assert [o.format() for o in late] == ["F Lon - Nth"]
        # The report printed is the report of the phase saved: nothing was undone.
        assert report.read_text() == phase_report(game.variant, spring, OBSERVER)


def test_a_save_keeps_the_files_mode_and_replaces_the_file_a_link_names(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    path.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(path.name)
    assert main(["orders", str(link), "France", "A par - bur"]) == 0
    assert link.is_symlink() and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "France" in gamefile.read_game(path).pending
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".game.json.lock",
        "game.json",
        "link.json",
    ]


def test_a_read_only_game_is_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    path.chmod(0o444)
    before = path.read_bytes()
    assert main(["orders", str(path), "France", "A par - bur"]) == 1
    assert "the file is read-only" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_a_failed_save_leaves_the_old_file_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    before = path.read_bytes()

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    assert main(["orders", str(path), "France", "A par - bur"]) == 1
    assert "cannot save it: no space left on device; nothing changed" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.json.lock", "game.json"]


def test_a_game_changed_by_another_program_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    with (
        pytest.raises(gamefile.GameFileError, match="changed by another program"),
        gamefile.updating(path) as update,
    ):
        path.write_text(path.read_text() + " ")  # an editor, which takes no lock
        update.save()


def test_new_never_replaces_a_file_that_is_not_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert main(["new", "classic", str(notes), "--force"]) == 1
    assert "not a game file, so it is not replaced" in capsys.readouterr().err
    assert notes.read_text() == "my notes"
    game = tmp_path / "game.json"
    _new_game(game)
    assert main(["new", "classic", str(game), "--force"]) == 0  # a game may replace a game


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (
            lambda d: d["phases"][0].pop("digest"),
            "expected an object with phase, orders and digest",
        ),
        (lambda d: d.pop("phases"), "phases missing"),
        (lambda d: d["start"]["units"]["France"].pop(), "not the starting position of classic"),
        (lambda d: d["phases"][0].update(phase="F1901M"), "but the game is at S1901M"),
    ],
    ids=["digest deleted", "phases deleted", "start edited", "phase renamed"],
)
def test_a_tampered_game_file_is_refused(tmp_path: Path, edit: object, reason: str) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    assert main(["adjudicate", str(path)]) == 0
    data = json.loads(path.read_text())
    edit(data)  # type: ignore[operator]
    with pytest.raises(jsonio.WireError, match=reason):
        jsonio.game_from_json(data)


def _two_phases(path: Path) -> dict[str, Any]:
    """A game of two phases played, as its file holds it."""
    _new_game(path)
    assert main(["orders", str(path), "France", "A par - bur"]) == 0
    assert main(["adjudicate", str(path)]) == 0
    assert main(["adjudicate", str(path)]) == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.update(phases=[]),
        lambda d: d.update(phases=d["phases"][:1]),
        lambda d: d.update(options={"edition": "2023"}),
        lambda d: d.pop("agreed"),
        lambda d: d.update(pending={"France": ["A bur - pic"]}),
    ],
    ids=["phases emptied", "phases cut", "options changed", "agreed end deleted", "pending"],
)
def test_a_cut_or_changed_game_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Callable[[dict[str, Any]], object]
) -> None:
    # Each of these replays without a fault, to another game than the one saved.
    path = tmp_path / "game.json"
    _two_phases(path)
    assert main(["end", str(path), "--draw", "France,England"]) == 0
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data, indent=1))
    capsys.readouterr()
    assert main(["show", str(path)]) == 1
    assert "the file is not as Hegemon saved it (edited or cut short" in capsys.readouterr().err


def test_the_checksum_ignores_how_the_json_is_laid_out(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    data = _two_phases(path)
    path.write_text(json.dumps(dict(reversed(data.items()))))  # another order, no indent
    assert len(gamefile.read_game(path).history) == 2


def test_a_file_relabelled_as_the_format_before_the_checksum_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # hegemon-game/2 was /3 without the checksum: read, it let an edited file pass
    # unchecked by taking the checksum away and the label back.
    path = tmp_path / "game.json"
    data = _two_phases(path)
    del data["checksum"]
    data["phases"] = data["phases"][:1]  # an edit the checksum would have caught
    path.write_text(json.dumps({**data, "format": "hegemon-game/2"}))
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["orders", str(path), "France", "A bur - pic"]) == 1
    err = capsys.readouterr().err
    assert "format 'hegemon-game/2': a file without a checksum, no longer read" in err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d.update(notes="my notes"), "'notes'"),
        (lambda d: d["phases"][1].update(comment="a stab"), "'phases[1].comment'"),
    ],
    ids=["in the file", "in a phase"],
)
def test_a_part_a_save_would_drop_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: Callable[[dict[str, Any]], object],
    named: str,
) -> None:
    # With its checksum made again (as a program adding its own notes would): read, the
    # next save dropped the notes without a word.
    path = tmp_path / "game.json"
    data = _two_phases(path)
    edit(data)
    data["checksum"] = jsonio.game_checksum(data)
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["orders", str(path), "France", "A bur - pic"]) == 1
    err = capsys.readouterr().err
    assert f"{named}: not a part of a game file (a save would drop it without a word)" in err
    assert path.read_bytes() == before


def test_a_pipe_for_a_game_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    # Opening a pipe waits for a writer, with the game's lock held: every other command on
    # the game waited too.
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    for argv in (["show", str(fifo)], ["orders", str(fifo), "France", "A par - bur"]):
        refused = bound_by_permissions(*argv)  # a process of its own, which could hang
        assert refused.returncode == 1, refused.stderr
        assert refused.stderr == f"hegemon: error: {fifo}: not a game file (not a regular file)\n"


def _adjudicate_once(tmp_path: Path, race: int) -> list[int]:
    path = tmp_path / f"game{race}.json"
    _new_game(path)
    guarded = ["adjudicate", str(path), "--phase", "S1901M"]
    return _at_once((guarded, tmp_path / f"a{race}.txt"), (guarded, tmp_path / f"b{race}.txt"))


def test_two_adjudications_of_one_phase_at_once_adjudicate_it_once(tmp_path: Path) -> None:
    # Without --phase the second adjudicated Fall 1901 with nobody's orders.
    for race in range(10):
        codes = _adjudicate_once(tmp_path, race)
        assert sorted(codes) == [0, 1]
        refusal = (tmp_path / f"{'ab'[codes.index(1)]}{race}.txt").read_text()
        assert "the game is at F1901M (Fall 1901 Movement), not S1901M; nothing adjudicated" in (
            refusal
        )
        assert len(gamefile.read_game(tmp_path / f"game{race}.json").history) == 1


def _killed_while_writing(path: Path) -> Path:
    """A temporary file a process killed while saving `path` left beside it (a game of
    16 MiB less a little, so that writing takes a while)."""
    whole = path.read_text().rstrip() + " " * (jsonio.MAX_BYTES - 1000 - path.stat().st_size)
    saving = (
        "import sys; from pathlib import Path; from hegemon import files\n"
        "data = sys.stdin.buffer.read()\n"
        "while True: files.replace_whole(Path(sys.argv[1]), data, None)\n"
    )
    for _ in range(50):
        writer = subprocess.Popen([sys.executable, "-c", saving, str(path)], stdin=subprocess.PIPE)
        assert writer.stdin is not None
        writer.stdin.write(whole.encode())
        writer.stdin.close()
        while not (left := _temporaries(path)):
            assert writer.poll() is None
        writer.kill()
        writer.wait()
        left = _temporaries(path)
        if left:
            assert left[0].name.startswith(f".{path.name}.{writer.pid}.")
            return left[0]
    raise AssertionError("the writer was never killed while writing")


def _temporaries(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f".{path.name}.*.tmp"))


def test_what_a_killed_save_left_the_next_command_removes(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    leftover = _killed_while_writing(path)
    alive = path.with_name(f".{path.name}.{os.getpid()}.0123abcd.tmp")  # a save going on
    alive.write_text("")
    assert main(["orders", str(path), "France", "A par - bur"]) == 0
    assert not leftover.exists() and alive.exists()
    assert "France" in gamefile.read_game(path).pending


# --- what permissions forbid ----------------------------------------------------------------


def bound_by_permissions(*argv: str) -> subprocess.CompletedProcess[str]:
    """The hegemon command in a process that file permissions bind: as root, whom they do
    not bind, with every capability dropped (setpriv, of util-linux); as anyone else, as
    it is."""
    unprivileged = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"]
    return subprocess.run(
        [*(unprivileged if os.geteuid() == 0 else []), sys.executable, "-m", "hegemon.cli", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_a_lock_file_this_user_may_only_read_still_locks(tmp_path: Path) -> None:
    # As a lock file another user made looks (0644 by the usual umask), and a flock needs
    # no more than reading.
    path = tmp_path / "game.json"
    _new_game(path)
    (tmp_path / ".game.json.lock").chmod(0o444)
    stored = bound_by_permissions("orders", str(path), "France", "A par - bur")
    assert stored.returncode == 0, stored.stderr
    assert "France" in gamefile.read_game(path).pending


def test_the_lock_file_is_its_makers_own_and_never_changed(tmp_path: Path) -> None:
    # The game is another user's, shared with a group: the lock file is made by whoever
    # locks first, as its own, readable by all (enough to lock), and never given the game's
    # permissions or owner, nor changed after.
    path = tmp_path / "game.json"
    _new_game(path)
    (tmp_path / ".game.json.lock").unlink()
    path.chmod(0o660)
    if os.geteuid() == 0:
        os.chown(path, 1234, 1234)
    assert main(["orders", str(path), "France", "A par - bur"]) == 0
    lock = (tmp_path / ".game.json.lock").stat()
    assert (stat.S_IMODE(lock.st_mode), lock.st_uid) == (0o644, os.geteuid())
    (tmp_path / ".game.json.lock").chmod(0o600)
    assert main(["orders", str(path), "France", "A mar H"]) == 0
    assert stat.S_IMODE((tmp_path / ".game.json.lock").stat().st_mode) == 0o600


def _victim(folder: Path) -> tuple[Path, tuple[int, int, int, bytes]]:
    """A private file of another user (when the tests run as root), and how it stands."""
    victim = folder / "shadow"
    victim.write_text("secret\n")
    victim.chmod(0o600)
    if os.geteuid() == 0:
        os.chown(victim, 1234, 1234)
    found = victim.stat()
    return victim, (found.st_mode, found.st_uid, found.st_gid, victim.read_bytes())


def _as_it_stands(victim: Path) -> tuple[int, int, int, bytes]:
    found = victim.stat()
    return found.st_mode, found.st_uid, found.st_gid, victim.read_bytes()


@pytest.mark.parametrize("command", ["orders", "adjudicate", "new"])
def test_a_lock_file_that_is_a_link_is_refused_and_its_target_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # Anyone who may write in a shared games folder could put a link there: the lock was
    # opened through it, then given the game's permissions and owner (chmod 0666 and chown
    # of a file of their choosing, by root's command).
    games, private = tmp_path / "games", tmp_path / "private"
    games.mkdir()
    private.mkdir(mode=0o700)
    victim, before = _victim(private)
    path = games / "game.json"
    _new_game(path)
    path.chmod(0o666)
    (games / ".game.json.lock").unlink()
    (games / ".game.json.lock").symlink_to(victim)
    game_before = path.read_bytes()
    argv = {
        "orders": ["orders", str(path), "France", "A par - bur"],
        "adjudicate": ["adjudicate", str(path)],
        "new": ["new", "classic", str(path), "--force"],
    }[command]
    capsys.readouterr()
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err == (
        f"hegemon: error: {path}: cannot lock it: .game.json.lock is a symbolic link, which a "
        "lock file never is; remove it\n"
    )
    assert _as_it_stands(victim) == before and path.read_bytes() == game_before


def test_a_lock_file_that_links_nowhere_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A link to a file that does not exist: opened with O_CREAT, it made that file, in a
    # folder only root may write in.
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    path = tmp_path / "game.json"
    _new_game(path)
    (tmp_path / ".game.json.lock").unlink()
    (tmp_path / ".game.json.lock").symlink_to(private / "made")
    assert main(["orders", str(path), "France", "A par - bur"]) == 1
    assert "is a symbolic link" in capsys.readouterr().err
    assert list(private.iterdir()) == []


def test_a_save_never_writes_through_a_link_in_its_temporary_files_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The new file is made exclusively and without following a link: one planted under
    # the name it first draws is passed over for another name.
    path = tmp_path / "game.json"
    _new_game(path)
    victim, before = _victim(tmp_path)
    planted = tmp_path / f".game.json.{os.getpid()}.0123abcd.tmp"
    planted.symlink_to(victim)
    names = iter(["0123abcd"])
    real = secrets.token_hex
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(names, None) or real(n))
    assert main(["orders", str(path), "France", "A par - bur"]) == 0
    assert _as_it_stands(victim) == before and planted.is_symlink()
    assert "France" in gamefile.read_game(path).pending


def test_a_new_game_is_never_made_through_a_link_to_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    link = tmp_path / "game.json"
    link.symlink_to(private / "made.json")
    assert main(["new", "classic", str(link)]) == 1
    err = capsys.readouterr().err
    assert f"{link}: a symbolic link to {private / 'made.json'}, which does not exist" in err
    assert list(private.iterdir()) == []


@pytest.mark.parametrize("kind", ["pipe", "hard link"])
def test_a_lock_file_that_is_not_a_plain_file_of_its_own_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "game.json"
    _new_game(path)
    lock = tmp_path / ".game.json.lock"
    lock.unlink()
    victim, before = _victim(tmp_path)
    if kind == "pipe":
        os.mkfifo(lock)
    else:
        os.link(victim, lock)
    assert main(["orders", str(path), "France", "A par - bur"]) == 1
    what = "not a regular file" if kind == "pipe" else "another file's link"
    assert f"cannot lock it: .game.json.lock is {what}" in capsys.readouterr().err
    assert _as_it_stands(victim) == before


def test_a_read_only_folder_is_refused_in_one_line_and_left_as_it_was(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "game.json"
    _new_game(path)
    folder.chmod(0o555)
    before = sorted(folder.iterdir()), path.read_bytes()
    try:
        for argv, reason in [
            (["orders", str(path), "France", "A par - bur"], "cannot save it: permission denied"),
            (["new", "classic", str(folder / "new.json")], "cannot lock it: permission denied"),
            (["map", "draw", "classic", "-o", str(folder / "board.svg")], "permission denied"),
        ]:
            refused = bound_by_permissions(*argv)
            assert refused.returncode == 1, refused.stderr
            assert refused.stderr.startswith("hegemon: error: "), refused.stderr
            assert refused.stderr.count("\n") == 1 and reason in refused.stderr
            assert (sorted(folder.iterdir()), path.read_bytes()) == before
    finally:
        folder.chmod(0o755)
