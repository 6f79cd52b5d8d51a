"""Europe 1615 played as a game master plays it, through the `hegemon` command: two years
of the rules' opening (Austria into Saxony and Bavaria, England and Spain into Hesse,
France into Württemberg), then the final units, centers, incomes and reports; and the
command's errors for the variant's orders."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hegemon.cli import main
from tests.conftest import Command, run_cli

# Each phase's orders, as the players would send them in a file.
YEARS = [
    (
        "Spring 1615",
        """
        Austria: 10: SAX
        Austria: 10: BAV
        Austria: A sax - sil       # Saxony's army makes way for Austria's
        Austria: A bav - tyr
        Austria: A boh - sax
        Austria: A vie - bav
        England: 6: HES
        Spain: 6: Hesse
        France: 16: Württemberg
        Scandinavia: 10: DUT
        """,
    ),
    (
        "Summer 1615",
        """
        France: 10: BAV            # Bavaria tied: NEUTRAL, with Austria's army inside
        France: A wur - bav
        England: Ally Scandinavia
        Scandinavia: Ally England
        """,
    ),
    ("Fall 1615", "England: HES > Spain"),
    ("Winter 1615", "Austria: Build A boh\nAustria: Build A vie"),
    (
        "Spring 1616",
        """
        Scandinavia: 5: BRU
        Scandinavia: A den - mec
        Scandinavia: A bru S A den - mec
        """,
    ),
    ("Summer 1616", ""),
    ("Fall 1616", ""),
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each phase's report, by the phase's name, and the board before each: the game
    played once for the module's tests, which only read it."""
    cli = run_cli
    tmp_path = tmp_path_factory.mktemp("europe_1615")
    game = str(tmp_path / "game.json")
    cli("new", "europe_1615", game, "--seed", "1615")
    told = {"game": game}
    for phase, orders in YEARS:
        told[f"board {phase}"] = cli("show", game)
        if orders:
            given = tmp_path / f"{phase}.txt"
            given.write_text(orders, encoding="utf-8")
            cli("orders", game, "--from", str(given))
        told[phase] = cli("adjudicate", game)
        assert told[phase].startswith(phase)
    told["board"] = cli("show", game)
    told["json"] = cli("show", game, "--json", "--as", "master")
    return told


def test_the_opening_moves_into_aligned_states(reports: dict[str, str]) -> None:
    # STATUS (3), and Movement: "A major power may move into its ALIGNED state if the
    # army is not present".
    spring = reports["Spring 1615"]
    assert "   A Boh - Sax                 Succeeds" in spring
    assert "   A Vie - Bav                 Succeeds" in spring
    assert "Saxony (Sx)\n   A Sax - Sil                 Succeeds" in spring
    assert "   Hesse (He): NEUTRAL (England 50%, Spain 50%)" in spring


def test_an_army_in_a_state_turned_neutral_is_attacked_then_interned(
    reports: dict[str, str],
) -> None:
    # Concerning neutrality: open to attack while it holds; interned at the build phase,
    # capturing nothing.
    summer = reports["Summer 1615"]
    assert "   Bavaria (Ba): NEUTRAL; Catholic (Austria 50%, France 50%)" in summer
    assert "Wurtemburg (Wu)\n   A Wur - Bav                 Bounced 1v1" in summer
    fall = reports["Fall 1615"]
    assert "Winter 1615\n   Interned in neutral states: A Bav (Austria)\n" in fall
    assert "INFs for 1616: Austria 52, England 46, France 66, Scandinavia 60, Spain 74" in fall
    assert "   Bavaria (Ba)           1 center,  1 unit    Bav" in fall


def test_alliances_and_attacks_are_told_when_they_happen(reports: dict[str, str]) -> None:
    assert "Alliances declared\n   England and Scandinavia" in reports["Summer 1615"]
    assert (
        "   England attacks Spain in Hesse (England 6, Spain 6): each loses 6 INFs"
        in reports["Fall 1615"]
    )


def test_the_board_lists_the_minor_units_and_every_state(reports: dict[str, str]) -> None:
    board = reports["board Winter 1615"]
    assert "Saxony (Sx): A Sil" in board and "Bavaria (Ba): A Tyr" in board
    assert "   Hesse (He): UNMARKED" in board
    assert "Builds: Austria 2" in board
    assert "   Mecklenburg (Me): captured" in reports["board"]


def test_the_second_year_captures_scores_and_counts_the_infs(reports: dict[str, str]) -> None:
    # Capture of the minor state; SCORING PHASE (1616); GAIN AND LOSS OF INFLUENCE.
    assert (
        "Mecklenburg (Me)\n   A Mec H                     Dislodged by A Den (2v1)"
        in (reports["Spring 1616"])
    )
    fall = reports["Fall 1616"]
    assert "   Centers taken: Mec (Scandinavia)" in fall
    assert "   Withdrawn from the list of states: Mecklenburg" in fall
    assert "   Scoring 1616: Austria +295, France +175, Scandinavia +473" in fall
    assert (
        "INFs for 1617: Austria 54, England 48, France 64, Scandinavia 64 (Mec +4), Spain 72"
        in fall
    )
    assert "   Austria        295  1616: Saxony aligned, Catholic 295" in fall
    assert (
        "   Scandinavia    473  1616: Mec captured 30, Brunswick aligned 88, "
        "Dutch Provinces aligned, Protestant 355" in fall
    )


def test_the_game_ends_with_the_right_units_centers_and_incomes(reports: dict[str, str]) -> None:
    position: dict[str, Any] = json.loads(reports["json"])
    assert position["phase"] == "W1616A"
    units = position["units"]
    assert sorted(units["Austria"]) == ["A boh", "A sax", "A slo", "A vie"]
    assert units["Saxony"] == ["A sil"] and units["Bavaria"] == ["A tyr"]
    assert "Mecklenburg" not in units and len(units["Ottoman Empire"]) == 4
    counted = Counter(c for owner, held in position["centers"].items() for c in held)
    assert all(n == 1 for n in counted.values()) and len(counted) == 53
    centers = {c: owner for owner, held in position["centers"].items() for c in held}
    assert centers["sax"] == "Saxony" and centers["bav"] == "Bavaria"
    assert centers["mec"] == "Scandinavia"
    ledger = position["state"]["ledger"]
    assert ledger["income"] == {
        "Austria": 54, "England": 48, "France": 64, "Scandinavia": 64, "Spain": 72
    }  # fmt: skip
    assert ledger["vp"] == {"Austria": 295, "England": 0, "France": 175, "Scandinavia": 473,
                            "Spain": 0}  # fmt: skip
    assert ledger["allies"] == [["England", "Scandinavia"]]
    for owner in (*units, *position["centers"]):
        if owner not in ("Austria", "England", "France", "Scandinavia", "Spain"):
            assert len(units.get(owner, [])) <= len(position["centers"].get(owner, []))


def test_the_status_awaits_the_empires_orders_and_never_names_its_patron(
    tmp_path: Path, cli: Command
) -> None:
    # "The GM keeps the aligned major power for the Ottoman Empire secret"; it "is
    # responsible for ordering retreats" (STATUS (3)). Spain aligns the Empire; Austria
    # dislodges its army in Bosnia, which must retreat.
    game = str(tmp_path / "game.json")
    cli("new", "europe_1615", game)
    for power, orders in (
        ("Spain", ["20: OTE", "A ser - bos"]),
        ("Austria", ["10: HUN", "A hun - bud", "A slo - cro"]),
    ):
        cli("orders", game, power, *orders)
    cli("adjudicate", game)
    cli("orders", game, "Spain", "A bos H")
    cli("orders", game, "Austria", "A bud - bos", "A cro S A bud - bos")
    assert "Retreats needed:\n   Ottoman Empire: A Bos" in cli("adjudicate", game)
    waiting = cli("status", game, "--as", "observer")
    assert waiting.splitlines()[1:] == [
        "Orders received from: none",
        "Awaiting orders from: Ottoman Empire",
    ]
    cli("orders", game, "Spain", "A bos - ser")
    for command in (["status", game, "--as", "observer"], ["show", game]):
        shown = cli(*command)
        assert "Orders received from: Ottoman Empire\nAwaiting orders from: nobody" in shown
        assert "Spain" not in shown.split("Orders received from")[1]


# --- the command's errors for the variant's orders ------------------------------------------


def test_one_bad_file_names_every_power_refused_and_why(
    tmp_path: Path, cli: Command, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "game.json")
    cli("new", "europe_1615", game)
    before = Path(game).read_text()
    given = tmp_path / "orders.txt"
    given.write_text(
        "Austria: 5: WAR\nEngland: 5: PAP\nFrance: 16: WUR\nSpain: 5: Papal States\n",
        encoding="utf-8",
    )
    assert main(["orders", game, "--from", str(given)]) == 1
    err = capsys.readouterr().err
    assert err == (
        "hegemon: error: nothing stored; "
        "Austria: line 1: '5: WAR': 'WAR' is a province of POL: deploy INFs to the state | "
        "England: line 2: 5: PAP: only Catholic powers may deploy to Papal States\n"
    )
    assert Path(game).read_text() == before
