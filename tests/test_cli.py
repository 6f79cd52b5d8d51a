"""The hegemon command: games in files, clear errors, nothing lost on bad input."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from hegemon import jsonio
from hegemon.cli import main, manual
from hegemon.cli.dispatch import build_parser
from hegemon.gamefile import read_game
from hegemon.position import MASTER
from hegemon.variants import load_variant
from tests.conftest import DATC_DIR, stdin


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert run(capsys, "new", "classic", str(path))[0] == 0
    return path


def test_a_phase_from_orders_to_report(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(capsys, "orders", str(game_file), "France", "A par - bur", "A mar S A par - bur")[0]
        == 0
    )
    assert run(capsys, "orders", str(game_file), "germany", "A mun - bur")[0] == 0
    code, out, _ = run(capsys, "adjudicate", str(game_file))
    assert code == 0
    assert "France\n   A Par - Bur                 Succeeds" in out
    assert "A Mun - Bur                 Bounced 1v2 (with Par)" in out
    assert "Next phase: Fall 1901 Movement" in out
    code, out, _ = run(capsys, "show", str(game_file))
    assert "France: A Bur, A Mar, F Bre" in out


def test_orders_from_a_text_file(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text(
        "# Spring moves\nEngland: F lon - nth\nEngland: A lvp - yor\nTurkey: A con - bul\n"
    )
    code, out, _ = run(capsys, "orders", str(game_file), "--from", str(orders))
    assert code == 0
    assert "England: 2 order(s) stored" in out
    assert "Turkey: 1 order(s) stored" in out


def test_an_illegal_order_is_refused_and_nothing_is_lost(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "England", "F lon - nth")
    before = game_file.read_text()
    code, _, err = run(capsys, "orders", str(game_file), "England", "A lvp - iri")
    assert code == 1
    assert "A Lvp - Iri: armies cannot enter sea provinces" in err
    assert game_file.read_text() == before


def test_an_unreadable_order_names_the_line(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("England: F lon - nth\nEngland: F lon flies nth\n")
    code, _, err = run(capsys, "orders", str(game_file), "--from", str(orders))
    assert code == 1
    assert "line 2:" in err and "'flies' is not an order" in err


def test_unknown_power_variant_and_file_are_clear_errors(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        "unknown power 'Prussia'" in run(capsys, "orders", str(game_file), "Prussia", "A ber H")[2]
    )
    assert "unknown variant 'nope'" in run(capsys, "new", "nope", str(tmp_path / "x.json"))[2]
    assert "no such game file" in run(capsys, "show", str(tmp_path / "missing.json"))[2]
    assert "already exists" in run(capsys, "new", "classic", str(game_file))[2]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert "broken.json: the game file: not valid JSON" in run(capsys, "show", str(broken))[2]


def test_show_keeps_pending_orders_secret(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "England", "F lon - nth")
    _, out, _ = run(capsys, "show", str(game_file))
    assert "Orders received from: England" in out
    assert "nth" not in out.lower().split("orders received")[1]
    assert "Lon - Nth" not in out


def test_adjudicate_json_reads_a_position_and_writes_outcomes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    request = {
        "variant": "classic",
        "position": {
            "phase": "S1901M",
            "units": {"Germany": ["A mun", "A ruh"], "France": ["A bur"]},
            "centers": {"France": ["par"]},
        },
        "orders": {"Germany": ["A mun - bur", "A ruh S A mun - bur"]},
    }
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(request)))
    code, out, _ = run(capsys, "adjudicate", "--json")
    assert code == 0
    answer = json.loads(out)
    by_order = {o["order"]: o for o in answer["outcomes"]}
    assert by_order["A Bur H"]["note"] == "Dislodged by A Mun (2v1)"
    assert by_order["A Bur H"]["dislodged_by"] == "A Mun"
    assert answer["position"]["phase"] == "S1901R"
    assert answer["position"]["dislodged"] == [
        {"power": "France", "unit": "A bur", "attacker_from": "mun"}
    ]


def _europe_request(viewer: str | None) -> dict[str, object]:
    """A request to adjudicate Europe 1615's first phase from a position whose ledger holds
    INFs (Austria 12 and England 6 in Saxony): the numbers only the game master sees."""
    position = jsonio.position_to_json(load_variant("europe_1615").initial_position(), MASTER)
    state = position["state"]
    assert isinstance(state, dict)
    state["ledger"]["inf"] = {"sax": {"Austria": 12, "England": 6}}
    request: dict[str, object] = {"variant": "europe_1615", "position": position}
    return request if viewer is None else {**request, "viewer": viewer}


@pytest.mark.parametrize(
    ("viewer", "option", "seen"),
    [
        (None, [], {}),  # nobody named: the observer's view
        ("observer", ["--as", "master"], {}),  # the request's viewer comes first
        ("Austria", [], {"sax": {"Austria": 12}}),
        ("master", [], {"sax": {"Austria": 12, "England": 6}}),
        (None, ["--as", "master"], {"sax": {"Austria": 12, "England": 6}}),
        (None, ["--as", "England"], {"sax": {"England": 6}}),
    ],
)
def test_adjudicate_json_shows_the_secret_ledger_only_to_whom_it_names(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    viewer: str | None,
    option: list[str],
    seen: dict[str, dict[str, int]],
) -> None:
    monkeypatch.setattr("sys.stdin", stdin(json.dumps(_europe_request(viewer))))
    code, out, _ = run(capsys, "adjudicate", "--json", *option)
    assert code == 0
    ledger = json.loads(out)["position"]["state"]["ledger"]
    assert ledger["inf"] == seen
    assert ("shares" in ledger) == (seen != {"sax": {"Austria": 12, "England": 6}})


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("[1, 2", "stdin: not valid JSON"),
        ('{"position": {"phase": "X1901M", "units": {}}}', "phase 'X1901M'"),
        ('{"position": {"phase": "S1901M", "units": {"France": ["Q par"]}}}', "must start with A"),
        (
            '{"position": {"phase": "S1901M", "units": {}}, "orders": {"France": ["A par jumps"]}}',
            "orders of France",
        ),
        (
            '{"position": {"phase": "S1901R", "units": {}, "dislodged": [{"power": "France", '
            '"unit": "A bur", "attacker_from": []}]}}',
            "dislodged[0].attacker_from: [] is not a province",
        ),
    ],
)
def test_adjudicate_json_rejects_bad_requests_clearly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, payload: str, message: str
) -> None:
    monkeypatch.setattr("sys.stdin", stdin(payload))
    code, _, err = run(capsys, "adjudicate", "--json")
    assert code == 1
    assert message in err


def test_datc_command_ends_with_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "datc", str(DATC_DIR / "datc_v2.4_06.txt"))
    assert code == 0
    assert out.splitlines()[-1] == "167 passed, 0 failed (the 2000 rules)"
    files = [str(DATC_DIR / "datc_v2.4_06.txt"), str(DATC_DIR / "datc_v3.0_changes.txt")]
    code, out, _ = run(capsys, "datc", "--edition", "2023", *files)
    assert (code, out.splitlines()[-1]) == (0, "173 passed, 0 failed (the 2023 rules)")


def test_demo_plays_several_phases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert out.count("Supply centers:") >= 4
    assert "Winter 1901 Adjustment" in out


def test_map_check_reports_the_classic_map_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "check", "classic")
    assert code == 0
    assert "75 provinces (42 coastal, 14 inland, 19 sea), 34 supply centers, 7 powers" in out
    assert out.strip().endswith("no problems found")


def test_map_draw_shows_every_space_and_the_units(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "board.svg"
    code, out, _ = run(capsys, "map", "draw", "classic", "--game", str(game_file), "-o", str(svg))
    assert code == 0 and "Drew Classic to" in out
    text = svg.read_text()
    assert text.count('class="province ') == 75
    assert '<use id="stp" class="province land"' in text  # clickable by its id
    assert text.count('class="unit"') == 22
    assert "<title>Russia: fleet in St. Petersburg (sc)</title>" in text


def test_map_draw_without_a_game_shows_the_centers_and_the_powers_colours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "map.svg"
    code, _, _ = run(capsys, "map", "draw", "classic", "-o", str(svg))
    text = svg.read_text()
    assert code == 0 and text.count('class="center"') == 34 and 'class="unit"' not in text
    legend = text[text.index('<g id="legend">') :]
    assert "France: 3 centers" in legend and "Russia: 4 centers" in legend
    assert "home center (ring)" in legend and "the map, its centers as at the start" in legend


def test_map_draw_a_phase_with_its_orders_as_png(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur", "A mar S A par - bur")
    run(capsys, "orders", str(game_file), "Germany", "A mun - bur")
    run(capsys, "adjudicate", str(game_file))
    svg, png = tmp_path / "s1901.svg", tmp_path / "s1901.png"
    game = str(game_file)
    for path in (svg, png):
        code, _, err = run(capsys, "map", "draw", "classic", "--game", game, "--phase", "s1901m",
                           "--orders", "-o", str(path))  # fmt: skip
        assert code == 0, err
    text = svg.read_text()
    assert "<title>France: A Par - Bur: Succeeds</title>" in text
    assert "<title>Germany: A Mun - Bur: Bounced 1v2 (with Par)</title>" in text
    assert 'class="order fails"' in text
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_map_draw_every_phase_writes_one_board_each(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "adjudicate", str(game_file))
    folder = tmp_path / "boards"
    code, out, _ = run(capsys, "map", "draw", "classic", "--game", str(game_file),
                       "--every-phase", "-o", str(folder))  # fmt: skip
    assert code == 0 and "Drew 2 boards" in out
    assert sorted(p.name for p in folder.iterdir()) == ["F1901M.svg", "S1901M.svg"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--phase", "F1905M"], "phase 'F1905M': not in this game (played: none; now: S1901M)"),
        (["--orders"], "phase 'S1901M': not adjudicated yet, so it has no orders to draw"),
        (["--as", "Atlantis"], "unknown power 'Atlantis'"),
    ],
)
def test_map_draw_refuses_what_it_cannot_draw(
    game_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    out = tmp_path / "board.svg"
    code, _, err = run(capsys, "map", "draw", "classic", "--game", str(game_file), *arguments,
                       "-o", str(out))  # fmt: skip
    assert code == 1 and message in err and "Traceback" not in err
    assert not out.exists()


def test_map_draw_names_the_formats_it_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "map", "draw", "classic", "-o", str(tmp_path / "board.jpg"))
    assert code == 1 and "write the board to a .svg or a .png file" in err
    code, _, err = run(capsys, "map", "draw", "classic", "--orders", "-o", str(tmp_path / "b.svg"))
    assert code == 1 and "give --game FILE" in err


# --- a game master's daily tools --------------------------------------------------------


def test_a_units_new_order_replaces_its_earlier_one(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur", "F bre - mid")
    code, out, _ = run(capsys, "orders", str(game_file), "France", "A par - pic", "A mar H")
    assert code == 0
    assert out == "France: 2 order(s) stored for Spring 1901 Movement, 3 in all\n"
    _, status, _ = run(capsys, "status", str(game_file), "--as", "France")
    assert "   F Bre - Mid\n   A Par - Pic\n   A Mar H" in status


def test_replace_and_clear_act_on_the_whole_set(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur", "F bre - mid")
    run(capsys, "orders", str(game_file), "France", "--replace", "A mar H")
    _, status, _ = run(capsys, "status", str(game_file), "--as", "France")
    assert "France: 1 order(s)\n   A Mar H\n   No order yet for: F Bre, A Par" in status
    assert run(capsys, "orders", str(game_file), "France", "--clear")[0] == 0
    _, status, _ = run(capsys, "status", str(game_file), "--as", "master")
    assert "Orders received from: none" in status
    assert "France: 0 order(s)\n   No order yet for: F Bre, A Mar, A Par" in status


def test_two_orders_for_one_unit_in_one_batch_keep_the_later(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 400 holds of one unit are one order, not 400 that a later batch adds to beyond
    # what a game file may hold (which left the game unreadable for good).
    _, out, _ = run(capsys, "orders", str(game_file), "France", *["A par H"] * 400)
    assert out.startswith("France: 1 order(s) stored for Spring 1901 Movement, 1 in all;")
    assert run(capsys, "orders", str(game_file), "France", *["A mar H"] * 400)[0] == 0
    run(capsys, "orders", str(game_file), "France", "--replace", "A par - bur", "A par - pic")
    assert [o.format() for o in read_game(game_file).pending["France"]] == ["A Par - Pic"]


def test_orders_beyond_what_a_game_file_holds_are_refused(
    game_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonio, "MAX_ORDERS", 2)
    assert run(capsys, "orders", str(game_file), "France", "A par H", "A mar H")[0] == 0
    before = game_file.read_bytes()
    code, _, err = run(capsys, "orders", str(game_file), "France", "F bre H")
    assert code == 1
    assert "nothing stored; France: 3 orders in all, more than the 2 a power may give" in err
    assert game_file.read_bytes() == before


def test_a_game_is_never_saved_larger_than_a_reader_takes(
    game_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = game_file.read_bytes()
    monkeypatch.setattr(jsonio, "MAX_BYTES", len(before) + 10)
    code, _, err = run(capsys, "orders", str(game_file), "France", "A par - bur", "A mar H")
    assert code == 1
    assert "more than the" in err and "a game file may; nothing saved" in err
    assert game_file.read_bytes() == before
    assert read_game(game_file).pending == {}


def test_status_shows_a_powers_orders_to_it_and_the_game_master_only(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur")
    run(capsys, "orders", str(game_file), "England", "F lon - nth")
    _, everyone, _ = run(capsys, "status", str(game_file))
    _, france, _ = run(capsys, "status", str(game_file), "--as", "France")
    _, master, _ = run(capsys, "status", str(game_file), "--as", "master")
    assert "Orders received from: England, France" in everyone
    assert "A Par - Bur" not in everyone and "F Lon - Nth" not in everyone
    assert "A Par - Bur" in france and "F Lon - Nth" not in france
    assert "A Par - Bur" in master and "F Lon - Nth" in master


def test_options_list_every_legal_order_of_a_power(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "options", str(game_file), "England", "--json")
    assert code == 0
    menu = json.loads(out)["orders"]
    assert sorted(menu) == ["A Lvp", "F Edi", "F Lon"]
    assert menu["F Lon"][:5] == [
        "F Lon H",
        "F Lon - Eng",
        "F Lon - Nth",
        "F Lon - Wal",
        "F Lon - Yor",
    ]
    assert "F Lon S F Bre - Eng" in menu["F Lon"] and "F Lon - Lvp" not in menu["F Lon"]
    _, text, _ = run(capsys, "options", str(game_file), "England")
    assert text.startswith("England, Spring 1901 Movement: every legal order\nF Edi\n   F Edi H\n")


def test_report_reprints_any_phase(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur")
    _, first, _ = run(capsys, "adjudicate", str(game_file))
    run(capsys, "adjudicate", str(game_file))
    assert run(capsys, "report", str(game_file), "s1901m")[1] == first
    assert run(capsys, "report", str(game_file))[1].startswith("Fall 1901 Movement")
    code, _, err = run(capsys, "report", str(game_file), "F1902M")
    assert code == 1 and "no phase 'F1902M' was played (played: S1901M, F1901M)" in err


def test_winter_show_says_who_builds_or_disbands_how_many(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "orders", str(game_file), "France", "A par - bur", "F bre - mid")
    run(capsys, "adjudicate", str(game_file))
    run(capsys, "orders", str(game_file), "France", "F mid - spa/nc", "A bur - bel")
    run(capsys, "adjudicate", str(game_file))
    _, shown, _ = run(capsys, "show", str(game_file))
    assert "Winter 1901 Adjustment" in shown and "Builds: France 2" in shown


def test_a_game_ends_by_agreement_and_its_secrets_are_revealed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "new", "sub_saharan", game, "--option", "year_cap=0")
    run(capsys, "orders", game, "Yeke", "A Mwa - Kas", "2: A Kas - Kam")
    run(capsys, "adjudicate", game)
    assert "until the game is over" in run(capsys, "reveal", game)[2]
    code, out, _ = run(capsys, "end", game, "--draw", "yeke,Angola")
    assert (code, out) == (0, "The game is over: a draw of Angola, Yeke, by agreement.\n")
    assert "Yeke: 2: A Kas - Kam" in run(capsys, "reveal", game)[1]
    assert "The game is over: a draw of Angola, Yeke, by agreement." in run(capsys, "show", game)[1]
    assert "the game is over" in run(capsys, "adjudicate", game)[2]
    other = str(tmp_path / "other.json")
    run(capsys, "new", "classic", other)
    assert run(capsys, "end", other, "--concede-to", "france")[1] == (
        "The game is over: France won by concession.\n"
    )
    assert run(capsys, "reveal", other)[1] == "No order was kept secret in this game.\n"


# --- issue 29: the first phase of African Diplomacy II, the phase guard, the command line ----


def test_orders_in_african_diplomacy_iis_lots_are_refused_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The lots take no orders, and checking none resolved the phase without the order of
    # play it draws: every `orders` was an internal error.
    game = str(tmp_path / "game.json")
    assert run(capsys, "new", "african_diplomacy_ii", game, "--seed", "3")[0] == 0
    code, _, err = run(capsys, "orders", game, "Red", "Place A Bam")
    assert (code, err) == (
        1,
        "hegemon: error: nothing stored; Red: Place A Bam: not an order for a lots phase\n",
    )
    code, out, _ = run(capsys, "orders", game, "Red", "--clear")
    assert (code, out) == (0, "Red: 0 order(s) stored for Winter 1900 Lots, 0 in all\n")
    assert run(capsys, "adjudicate", game)[0] == 0
    assert read_game(Path(game)).position.phase.code == "W1900P"


def test_the_phase_guard_refuses_a_game_moved_on(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "adjudicate", str(game_file), "--phase", "s1901m")[0] == 0
    before = game_file.read_bytes()
    for argv, undone in [
        (["adjudicate", str(game_file), "--phase", "S1901M"], "nothing adjudicated"),
        (["orders", str(game_file), "France", "A par H", "--phase", "S1901M"], "nothing stored"),
    ]:
        code, _, err = run(capsys, *argv)
        assert (code, err) == (
            1,
            f"hegemon: error: {game_file}: the game is at F1901M (Fall 1901 Movement), not "
            f"S1901M; {undone}\n",
        )
    assert game_file.read_bytes() == before
    code, out, _ = run(capsys, "orders", str(game_file), "France", "A par H", "--phase", "F1901M")
    assert code == 0 and "stored for Fall 1901 Movement" in out


def test_datc_refuses_a_file_with_no_case(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "datc", str(DATC_DIR / "datc_v2.4_06.txt"), str(game_file))
    assert (code, out) == (1, "")
    assert err == f"hegemon: error: {game_file}: holds no DATC case (no CASE ... END)\n"


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("hegemon ") and out.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["order", "game.json"], "'order' (did you mean 'orders'?)"),
        (["adjudcate"], "'adjudcate' (did you mean 'adjudicate'?)"),
        (["db", "exprt"], "'exprt' (did you mean 'export'?)"),
    ],
    ids=["orders", "adjudicate", "db export"],
)
def test_a_mistyped_command_is_a_usage_error_with_a_suggestion(
    capsys: pytest.CaptureFixture[str], argv: list[str], meant: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2  # usage, not a refused input (1)
    assert f"invalid choice: {meant}\n" in capsys.readouterr().err


def test_every_command_has_a_description_and_an_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    named = [name for name, _ in manual.commands(parser)]
    assert len(named) == 22
    for name in named:
        with pytest.raises(SystemExit) as exited:
            main([*name.split(), "--help"])
        assert exited.value.code == 0
        page = capsys.readouterr().out
        description = manual.PAGES[name].description.splitlines()[0]
        assert description in page, name
        assert f"examples:\n  hegemon {name}" in page or "examples:\n  hegemon --" in page, name
    assert "exit status:\n  0    done\n  1    refused" in parser.format_help()
    for manual_page in manual.PAGES.values():
        for example in manual_page.examples:  # each one a command line the parser reads
            words = shlex.split(example.partition(" < ")[0], comments=True)
            assert words[0] == "hegemon"
            args, extra = parser.parse_known_args(words[1:])
            assert args.handler and all(not e.startswith("-") for e in extra), example
