"""Bad input never gets a traceback: each input a new user or a fuzzer tried (issue 8) ends
in one line naming the input and the reason, with exit status 1, and loses nothing."""

from __future__ import annotations

import fcntl
import json
import os
import random
import resource
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest

from hegemon import jsonio
from hegemon.cli import main
from hegemon.game import Chance, ChanceError, SetupError, settle
from hegemon.game.variant import Option
from hegemon.gamefile import read_game
from hegemon.rules import Edition
from hegemon.variants import load_variant
from tests.conftest import stdin


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert run(capsys, "new", "classic", str(path), "--seed", "1")[0] == 0
    return path


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused command prints, after checking it is one line and exit 2."""
    code, _, err = run(capsys, *argv)
    assert code == 1, err
    assert err.startswith("hegemon: error: ") and err.count("\n") == 1, err
    return err


def test_a_non_utf8_orders_file(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = game.with_name("orders.txt")
    orders.write_bytes(b"France: A par - bur\n\xff\xfe")
    assert "orders.txt: not UTF-8 text" in refused(
        capsys, "orders", str(game), "--from", str(orders)
    )


def test_a_non_utf8_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{}")
    assert "not a game file (not UTF-8 text" in refused(capsys, "show", str(path))


def test_new_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "game.json"
    assert "does not exist" in refused(capsys, "new", "classic", str(target))


@pytest.mark.parametrize(
    ("request_text", "reason"),
    [
        ('{"position":{"phase":"W1901A","units":{"France":NaN}}}', "NaN is not a JSON value"),
        ('{"position":{"phase":"S1901M","units":{},"centers": null}}', "'centers'"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 32 levels deep"),
        ('{"position":{"phase":"U1901M","units":{},"centers":{}}}', "not a phase of classic"),
        ('{"position":{"phase":"W1901M","units":{},"centers":{}}}', "not a phase of classic"),
        ('{"variant": "/etc", "position": {}}', "unknown variant '/etc'"),
        ('{"variant": "../src/hegemon/variants/classic"}', "unknown variant"),
        ("not json", "not valid JSON"),
        (
            '{"position":{"phase":"S1901M","units":{},"centers":{"France":["par"],'
            '"Germany":["PAR"]}}}',
            "centers: 'par' listed under both France and Germany",
        ),
        (
            '{"position":{"phase":"S1901M","units":{},"centers":{"France":["bur"]}}}',
            "centers.France: Burgundy is not a supply center",
        ),
        (
            '{"position":{"phase":"S1901R","units":{},"contested":["xyz"]}}',
            "contested: 'xyz' is not a province of classic",
        ),
        (
            '{"position":{"phase":"S1901M","units":{"Germany":["A bur"]},'
            '"dislodged":[{"power":"France","unit":"A bur","attacker_from":"mun"}]}}',
            "belong to a retreat phase, not to S1901M",
        ),
    ],
    ids=[
        "NaN",
        "null centers",
        "deep nesting",
        "U phase",
        "W movement",
        "path",
        "relative",
        "text",
        "a center twice",
        "not a center",
        "unknown contested",
        "dislodged in movement",
    ],
)
def test_bad_adjudicate_requests(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request_text: str,
    reason: str,
) -> None:
    monkeypatch.setattr("sys.stdin", stdin(request_text))
    assert reason in refused(capsys, "adjudicate", "--json")


def test_too_many_orders_in_a_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    request = {
        "position": {"phase": "S1901M", "units": {"France": ["A par"]}, "centers": {}},
        "orders": {"France": ["A par H"] * 1_000_000},
    }
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(request)))
    assert "more than 500 orders" in refused(capsys, "adjudicate", "--json")


def test_lower_case_powers_in_json_are_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    request = {
        "position": {"phase": "S1901M", "units": {"france": ["A par"]}, "centers": {}},
        "orders": {"FRANCE": ["A par - bur"]},
    }
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(request)))
    code, out, _ = run(capsys, "adjudicate", "--json")
    assert code == 0
    assert json.loads(out)["outcomes"][0] == {
        "power": "France",
        "order": "A Par - Bur",
        "result": "succeeds",
        "note": "Succeeds",
    }


def test_province_ids_are_read_in_any_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    request = {
        "position": {
            "phase": "S1901R",
            "units": {"Germany": ["A bur"]},
            "centers": {"France": ["Par"]},
            "dislodged": [{"power": "France", "unit": "A Bur", "attacker_from": "MUN"}],
            "contested": ["Pic"],
        },
        "orders": {"France": ["A bur R pic"]},
    }
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(request)))
    code, out, err = run(capsys, "adjudicate", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["position"]["centers"] == {"France": ["par"]}
    assert answer["outcomes"][0]["note"].startswith("Void")  # Picardy stays closed


BID = ("sub_saharan", "Ashanti")
DEPLOYMENT = ("europe_1615", "France")


@pytest.mark.parametrize(
    ("where", "order", "reason"),
    [
        (BID, "1" * 5000 + ": A Lib H", "an order of 5009 characters is too long to be one"),
        (BID, "1" * 20 + ": A Lib H", "a bid of 20 digits is more than anyone has"),
        (BID, "1: " * 500 + "A Lib H", "an order of 1507 characters is too long to be one"),
        (BID, "1: 1: A Lib H", "a bid is for one order, not for another bid"),
        (BID, "-1: A Lib H", "a bid is a whole number of points, not '-1'"),
        (BID, "1.5: A Lib H", "a bid is a whole number of points, not '1.5'"),
        (BID, "+1: A Lib H", "a bid is a whole number of points, not '+1'"),
        (BID, "1e3: A Lib H", "a bid is a whole number of points, not '1e3'"),
        (DEPLOYMENT, "5: 5: WUR", "a deployment is to one state, not to another deployment"),
        (DEPLOYMENT, "+5: WUR", "a deployment is a whole number of points, not '+5'"),
    ],
    ids=[
        "thousands of digits",
        "twenty digits",
        "nested",
        "twice",
        "negative",
        "fraction",
        "a plus sign",
        "an exponent",
        "a deployment of a deployment",
        "a deployment with a plus sign",
    ],
)
def test_bad_points(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: tuple[str, str],
    order: str,
    reason: str,
) -> None:
    variant, power = where
    path = tmp_path / "game.json"
    assert run(capsys, "new", variant, str(path))[0] == 0
    assert reason in refused(capsys, "orders", str(path), power, order)


def test_an_orders_file_may_begin_with_a_byte_order_mark(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = game.with_name("orders.txt")
    orders.write_bytes("France: A par - bur\n".encode("utf-8-sig"))
    code, out, err = run(capsys, "orders", str(game), "--from", str(orders))
    assert code == 0, err
    assert out.startswith("France: 1 order(s) stored")


def test_adjudicate_json_takes_no_game_file(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = game.read_bytes()
    message = refused(capsys, "adjudicate", "--json", str(game))
    assert "--json reads a position from stdin, not a game file" in message
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("abc", "not 'abc'"),
        ("true", "not 'true'"),
        ("-1", "not -1"),
        ("1.5", "not '1.5'"),
        ("1" * 20, f"not '{'1' * 20}'"),
    ],
)
def test_bad_option_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    path = tmp_path / "game.json"
    message = refused(capsys, "new", "sub_saharan", str(path), "--option", f"year_cap={value}")
    assert f"option year_cap: expected a whole number from 0 to 100, {reason}" in message
    assert not path.exists()


def test_an_option_is_read_as_its_declared_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/datc.md: a game under the 2023 rules; "2023" is a choice, not a number.
    path = tmp_path / "game.json"
    assert run(capsys, "new", "classic", str(path), "--option", "edition=2023")[0] == 0
    assert read_game(path).variant.edition is Edition.RULES_2023
    capped = tmp_path / "capped.json"
    assert run(capsys, "new", "sub_saharan", str(capped), "--option", "year_cap=+7")[0] == 0
    assert read_game(capped).variant.options["year_cap"] == 7


def test_options_of_each_kind_read_from_text() -> None:
    flag = Option("fog", "bool", False)
    assert (flag.read("TRUE"), flag.read(" false ")) == (True, False)
    with pytest.raises(SetupError, match="option fog: expected true or false, not 'yes'"):
        flag.read("yes")
    rules = Option("edition", "choice", "2000", choices=("2000", "2023"))
    assert rules.read("2023") == "2023"
    with pytest.raises(SetupError, match="expected one of 2000, 2023, not '2024'"):
        rules.read("2024")


def test_a_numeric_choice_may_come_as_a_json_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    request = {"options": {"edition": 2023}, "position": {"phase": "S1901M", "units": {}}}
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(request)))
    assert run(capsys, "adjudicate", "--json")[0] == 0
    variant = jsonio.configured(load_variant, "classic", {"edition": 2023}, None)
    assert variant.options["edition"] == "2023"  # written as the choice it is
    with pytest.raises(SetupError, match="expected one of 2000, 2023, not True"):
        load_variant("classic").configure({"edition": True})


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (
            ["new", "sub_saharan", "{new}", "--option", "year_cap=3", "--option", "year_cap=4"],
            "--option 'year_cap' is given twice",
        ),
        (["new", "african_riots", "{new}", "--seats", ""], "--seats '': name each one"),
        (
            ["new", "african_riots", "{new}", "--seats", "Egypt,,Ethiopia"],
            "--seats 'Egypt,,Ethiopia': name each one",
        ),
        (["end", "{game}", "--draw", "France,France,france"], "--draw: France is named twice"),
        (
            ["adjudicate", "{game}", "--draw", "x=1", "--draw", "x=2"],
            "--draw 'x' is given twice",
        ),
    ],
    ids=["option twice", "no seats", "an empty seat", "a draw of one", "draw twice"],
)
def test_lists_and_repeated_names_are_refused(
    game: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    before = game.read_bytes()
    new = game.with_name("new.json")
    files = {"{game}": str(game), "{new}": str(new)}
    assert reason in refused(capsys, *[files.get(a, a) for a in argv])
    assert game.read_bytes() == before and not new.exists()


def test_a_die_is_read_in_ascii_digits() -> None:
    die = Chance("event", sides=6)
    assert die.read(" 4 ") == 4
    with pytest.raises(ChanceError, match="event: expected a whole number from 1 to 6, not"):
        die.read("\u00b2")


def test_a_die_rerolled_on_faces_used_never_shows_them() -> None:
    # A table whose every number comes up once (Africa II's random events, rules c.4):
    # "If the same number is rolled a second time, discount and re-roll".
    die = Chance("event", sides=10, rerolled=(2, 5, 7))
    rng = random.Random(3)
    assert {die.draw(rng) for _ in range(400)} == {1, 3, 4, 6, 8, 9, 10}
    assert settle([die], {"event": 9}) == {"event": 9}
    with pytest.raises(ChanceError, match="event: 5 came up before and is rolled again"):
        settle([die], {"event": 5})


def test_a_refusal_names_the_first_problems_and_counts_the_rest(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = game.with_name("orders.txt")
    orders.write_text("France: A xyz H\n" * 20_000)
    message = refused(capsys, "orders", str(game), "--from", str(orders))
    assert message.count("is not a province") == 10
    assert message.endswith("(and 19990 more)\n")


def test_an_error_message_stays_short_however_long_the_input(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = game.with_name("orders.txt")
    orders.write_text("F" + "r" * 1_000_000 + ": A par H\n")
    message = refused(capsys, "orders", str(game), "--from", str(orders))
    assert "unknown power 'Frrr" in message and len(message) < 2100
    assert message.endswith("characters more)\n")


def test_an_odd_coast_is_an_error_not_a_key(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = refused(capsys, "orders", str(game), "France", "F spa/\u017fc - mid")
    assert "is not a coast of Spain (its coasts: nc, sc)" in message


def test_a_drawing_never_replaces_a_game(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = game.read_bytes()
    message = refused(capsys, "map", "draw", "classic", "--game", str(game), "-o", str(game))
    assert "a game file, which a drawing never replaces" in message
    assert game.read_bytes() == before


def hegemon(*argv: str, **options: Any) -> subprocess.CompletedProcess[str]:
    """The hegemon command as its own process, its outputs as text."""
    return subprocess.run(
        [sys.executable, "-m", "hegemon.cli", *argv],
        **{"stdout": subprocess.PIPE, **options},
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=30,
    )


def test_a_board_drawn_into_a_pipe(tmp_path: Path) -> None:
    # A pipe is never opened to see whether it holds a game: that waited for ever.
    fifo = tmp_path / "board.svg"
    os.mkfifo(fifo)
    received = tmp_path / "received.svg"
    with received.open("wb") as into:
        reader = subprocess.Popen(["cat", str(fifo)], stdout=into)
    try:
        drawn = hegemon("map", "draw", "classic", "-o", str(fifo))
        assert drawn.returncode == 0, drawn.stderr
        reader.wait(timeout=30)
    finally:
        reader.kill()
    assert received.read_bytes().startswith(b"<svg")
    shown = subprocess.run(
        f"{sys.executable} -m hegemon.cli map draw classic -o /dev/stdout | cat",
        shell=True,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert shown.stdout.startswith(b"<svg") and shown.stdout.endswith(b"</svg>\n")
    assert shown.stderr == b""


def test_a_board_that_cannot_be_written_leaves_nothing_behind(tmp_path: Path) -> None:
    # A file size limit fails the write part way, as a full disk does.
    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    board = tmp_path / "board.svg"
    drawn = hegemon("map", "draw", "classic", "-o", str(board), preexec_fn=small_files)
    assert drawn.returncode == 1
    assert drawn.stderr == f"hegemon: error: {board}: file too large; nothing written\n"
    assert list(tmp_path.iterdir()) == []
    board.write_text("<svg/>")
    assert hegemon("map", "draw", "classic", "-o", str(board), preexec_fn=small_files).returncode
    assert board.read_text() == "<svg/>"  # the old board, whole


@pytest.mark.parametrize("output", ["full", "closed", "gone"])
def test_a_command_that_saved_succeeds_whatever_becomes_of_its_output(
    game: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    # Adjudicated and saved: a failure status would make a script that retries failed
    # commands adjudicate the next phase too. A full disk, a closed standard output and a
    # reader gone before the report: each ends 0, and the report can be printed again.
    if output == "full":
        with Path("/dev/full").open("w") as full:
            done = hegemon("adjudicate", str(game), stdout=full)
    elif output == "closed":
        done = hegemon("adjudicate", str(game), stdout=None, preexec_fn=lambda: os.close(1))
    else:
        gone, into = os.pipe()
        os.close(gone)
        with os.fdopen(into, "wb") as closed:
            done = hegemon("adjudicate", str(game), stdout=closed)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    if output == "gone":
        assert done.stderr == ""  # a reader that went away went on purpose
    else:
        assert done.stderr.startswith("hegemon: warning: ") and done.stderr.count("\n") == 1
        assert f"{game}: S1901M adjudicated and saved; the output could not be written" in (
            done.stderr
        )
        assert f"'hegemon report {game}' prints it" in done.stderr
    assert len(read_game(game).history) == 1
    code, out, _ = run(capsys, "report", str(game))
    assert code == 0 and out.startswith("Spring 1901 Movement (Classic)")


def test_a_reading_command_whose_output_cannot_be_written_fails_in_one_line(game: Path) -> None:
    with Path("/dev/full").open("w") as full:
        shown = hegemon("show", str(game), stdout=full)
    assert shown.returncode == 1 and shown.stderr.count("\n") == 1
    assert shown.stderr.startswith("hegemon: error: ")
    # "the standard output: no space ..." when the write that fails is the last, at the end
    assert shown.stderr.endswith("no space left on device\n")
    closed = hegemon("show", str(game), "--json", stdout=None, preexec_fn=lambda: os.close(1))
    assert (closed.returncode, closed.stderr) == (
        1,
        "hegemon: error: the standard output: it is closed\n",
    )


def test_a_closed_pipe_ends_quietly(game: Path) -> None:
    # Into a pipe whose reader is gone before anything is written, and a drawing far larger
    # than a pipe holds into one closed after its first bytes: no word, status 141.
    gone, into = os.pipe()
    os.close(gone)
    with os.fdopen(into, "wb") as closed:
        shown = hegemon("show", str(game), "--json", stdout=closed)
    assert (shown.returncode, shown.stderr) == (141, "")
    to_stdout = ["map", "draw", "classic", "-o", "/dev/stdout"]
    drawing = subprocess.Popen(
        [sys.executable, "-m", "hegemon.cli", *to_stdout],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert drawing.stdout is not None and drawing.stderr is not None
    assert drawing.stdout.read(10) == b"<svg xmlns"
    drawing.stdout.close()
    assert drawing.wait(timeout=30) == 141
    assert drawing.stderr.read() == b""


def test_ctrl_c_while_the_judge_loads_ends_quietly(game: Path) -> None:
    # `python -v` tells when each module starts to load: Ctrl-C while the judge's own
    # modules load, long before the command runs.
    loading = subprocess.Popen(
        [sys.executable, "-v", "-m", "hegemon.cli", "show", str(game)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    assert loading.stderr is not None
    for line in loading.stderr:
        if f"hegemon{os.sep}game{os.sep}__init__" in line:
            loading.send_signal(signal.SIGINT)
            break
    rest = loading.stderr.read()
    assert loading.wait(timeout=30) == 130
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest


# Started as `python -m hegemon.cli` is, with Ctrl-C sent as a module begins to load (an
# audit hook sees each import) or as the process ends (an exit handler, run after the
# command's).
_INTERRUPTED_AT = """
import atexit, os, runpy, signal, sys
game, moment = sys.argv[1:]
def interrupt():
    print("interrupted", file=sys.stderr, flush=True)
    os.kill(os.getpid(), signal.SIGINT)
if moment == "exit":
    atexit.register(interrupt)
else:
    sys.addaudithook(lambda event, args: event == "import" and args[0] == moment and interrupt())
sys.argv = ["-m", "show", game]
runpy._run_module_as_main("hegemon.cli")
"""


@pytest.mark.parametrize(
    "moment",
    [
        "__future__",  # which Hegemon's package loaded first of all
        "typing",  # which it loaded next, for tens of milliseconds: 5 tracebacks in 60 runs
        "re",
        "argparse",
        "hegemon.cli.dispatch",
        "hegemon.jsonio",
        "hegemon.game",
        "hegemon.gamefile",
        "hegemon.report",
        "exit",
    ],
)
def test_ctrl_c_at_any_moment_after_the_command_takes_it_ends_quietly(
    game: Path, moment: str
) -> None:
    interrupted = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_AT, str(game), moment],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=60,
        preexec_fn=_interruptible,
    )
    assert interrupted.stderr.startswith("interrupted\n"), interrupted.stderr
    assert (interrupted.returncode, interrupted.stderr) == (130, "interrupted\n\n")


def test_ctrl_c_while_a_command_waits_ends_quietly() -> None:
    # The request has begun to arrive: the command is past starting, reading stdin.
    waiting = subprocess.Popen(
        [sys.executable, "-m", "hegemon.cli", "adjudicate", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    assert waiting.stdin is not None
    waiting.stdin.write("{")
    waiting.stdin.flush()
    while _unread(waiting.stdin.fileno()):
        time.sleep(0.01)
    waiting.send_signal(signal.SIGINT)
    out, err = waiting.communicate(timeout=30)
    assert (waiting.returncode, out, err) == (130, "", "\n")


def _interruptible() -> None:
    """Ctrl-C as a terminal delivers it: a suite started in the background by a script
    (a CI job's `&`) runs with SIGINT ignored, which its children would inherit, and a
    program started so rightly ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _unread(descriptor: int) -> int:
    """How many bytes written into a pipe are not read yet."""
    return struct.unpack("i", fcntl.ioctl(descriptor, termios.FIONREAD, b"\0" * 4))[0]


def test_ctrl_c_ends_quietly(
    game: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("hegemon.cli.reading.position_report", interrupted)
    code, _, err = run(capsys, "show", str(game))
    assert (code, err) == (130, "\n")


def test_a_bug_says_it_is_one_and_where_its_traceback_is(
    game: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr("hegemon.cli.reading.position_report", broken)
    code, _, err = run(capsys, "show", str(game))
    assert code == 70
    assert "internal error, a bug in Hegemon (KeyError: 'oops')" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    crash = Path(err.split("the traceback is in ")[1].split("; HEGEMON_DEBUG=1 prints it")[0])
    assert "KeyError: 'oops'" in crash.read_text()
    crash.unlink()
    monkeypatch.setenv("HEGEMON_DEBUG", "1")
    code, _, err = run(capsys, "show", str(game))
    assert code == 70
    assert err.startswith("Traceback (most recent call last):") and "KeyError: 'oops'" in err
    Path(err.split("the traceback is in ")[1].split(". Please")[0]).unlink()


def test_a_drawing_removes_what_a_killed_drawing_left(tmp_path: Path) -> None:
    ended = subprocess.Popen(["true"])  # a process that has ended, and the pid it had
    ended.wait()
    board = tmp_path / "board.svg"
    (tmp_path / f".board.svg.{ended.pid}.0123abcd.tmp").write_text("<svg")
    drawn = hegemon("map", "draw", "classic", "-o", str(board))
    assert drawn.returncode == 0, drawn.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg"]
