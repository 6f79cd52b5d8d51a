"""Game files hold up: commands run at once lose nothing, a save is whole or not at all,
and a file's mode, owner and symbolic link survive it."""

from __future__ import annotations

import json
import multiprocessing
import os
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
        assert report.read_text() == phase_report(game.variant, spring)


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
    assert main(["orders", str(path), "France", "A par - bur"]) == 2
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

    monkeypatch.setattr(gamefile.os, "replace", disk_full)
    assert main(["orders", str(path), "France", "A par - bur"]) == 2
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
    assert main(["new", "classic", str(notes), "--force"]) == 2
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
    assert main(["show", str(path)]) == 2
    assert "the file is not as Hegemon saved it (edited or cut short" in capsys.readouterr().err


def test_the_checksum_ignores_how_the_json_is_laid_out(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    data = _two_phases(path)
    path.write_text(json.dumps(dict(reversed(data.items()))))  # another order, no indent
    assert len(gamefile.read_game(path).history) == 2


def test_a_game_file_of_the_earlier_format_is_read(tmp_path: Path) -> None:
    # hegemon-game/2: the same, without the checksum; saved again in today's format.
    path = tmp_path / "game.json"
    data = _two_phases(path)
    del data["checksum"]
    path.write_text(json.dumps({**data, "format": "hegemon-game/2"}))
    assert len(gamefile.read_game(path).history) == 2
    assert main(["orders", str(path), "France", "A bur - pic"]) == 0
    assert json.loads(path.read_text())["format"] == jsonio.GAME_FORMAT


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


def test_the_lock_file_follows_the_games_permissions(tmp_path: Path) -> None:
    # A game made by a user whose umask keeps files private, then shared with a group.
    path = tmp_path / "game.json"
    _new_game(path)
    lock = tmp_path / ".game.json.lock"
    lock.chmod(0o600)
    path.chmod(0o660)
    assert main(["orders", str(path), "France", "A par - bur"]) == 0
    assert stat.S_IMODE(lock.stat().st_mode) == 0o660


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
            assert refused.returncode == 2, refused.stderr
            assert refused.stderr.startswith("hegemon: error: "), refused.stderr
            assert refused.stderr.count("\n") == 1 and reason in refused.stderr
            assert (sorted(folder.iterdir()), path.read_bytes()) == before
    finally:
        folder.chmod(0o755)
