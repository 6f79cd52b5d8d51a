"""Africa II played as a game master plays it, through the `hegemon` command: two years with
the random events on (the game master's own rolls), IPs spent, military aid, a civil war, a
guerilla raised and taking a center, a paratroop dropped and withdrawn, fleets entering, a
marine landing and boarding again; then the saved file read back, replayed to the same
positions, and its reports again."""

from __future__ import annotations

from pathlib import Path

import pytest

from hegemon import jsonio
from hegemon.gamefile import read_game
from hegemon.variants.africa_ii import Ledger
from tests.conftest import Command, run_cli

# Each phase: its name, the orders as the players would send them in a file, and the game
# master's roll of the random events' die.
YEARS = [
    # Nobody controls a state yet: every unit stands. China raises a guerilla.
    ("Spring 1961 Movement", "China: Raise G nfd", "7"),
    (
        "Spring 1961 Influence",
        """
        Soviet Union: 6: Botswana
        Soviet Union: 6: Rhodesia
        France: 8: Kenya
        France: 4: Uganda
        United States: 12: Nigeria
        Britain: 12: RSA
        China: 12: Congo (Leopoldville)
        """,
        "",
    ),
    (
        "Autumn 1961 Movement",
        """
        Soviet Union: A gab - kal     # Botswana's army makes room for a unit the aid keeps
        Soviet Union: Aid Botswana
        France: A nai - aru
        France: F OFFBOARD - gog      # its fleet enters, its marine aboard
        Britain: A win - ova
        Britain: P OFFBOARD - ofs     # dropped before the moves
        United States: F OFFBOARD - sao
        """,
        "",
    ),
    ("Autumn 1961 Adjustment", "Russia: Build A gab", ""),
    (
        "Spring 1962 Movement",
        """
        France: M gog - lom           # landed from the fleet
        Britain: P ofs - OFFBOARD     # withdrawn: it pays its upkeep all the same
        United States: F sao - agu
        """,
        "2",
    ),
    (
        "Spring 1962 Influence",
        """
        Soviet Union: 12: Kenya       # France's 8 are 4 now: Kenya changes hands
        France: 10: Uganda            # its 12 less 2 for the marine's upkeep
        """,
        "",
    ),
    (
        "Autumn 1962 Movement",
        """
        France: Civil war Kenya
        Soviet Union: A aru - nai
        China: G nfd - nai            # Kenya's units stand: Nairobi is China's guerilla's
        France: M lom - F gog         # back aboard its fleet
        """,
        "",
    ),
    ("Autumn 1962 Adjustment", "", ""),  # Kenya, in civil war, disbands by civil disorder
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("africa_ii") / "game.json"


@pytest.fixture(scope="module")
def reports(played: Path) -> dict[str, str]:
    """Each phase's report by the phase's name, and what France reads while it is pending:
    the game played once for the module's tests, which only read it."""
    cli = run_cli
    game = str(played)
    cli("new", "africa_ii", game, "--option", "random_events=true", "--force")
    told = {}
    for phase, orders, roll in YEARS:
        if orders:
            given = played.with_name(f"{phase}.txt")
            given.write_text(orders, encoding="utf-8")
            cli("orders", game, "--from", str(given))
        told[f"status {phase}"] = cli("status", game, "--as", "France")
        draw = ["--draw", f"random event={roll}"] if roll else []
        told[phase] = cli("adjudicate", game, *draw)
        assert told[phase].startswith(phase), told[phase]
    told["board"] = cli("show", game, "--as", "Soviet Union")
    return told


def test_the_first_spring_stands_still_and_rolls_an_event(reports: dict[str, str]) -> None:
    spring = reports["Spring 1961 Movement"]
    assert "Drawn: random event: 7" in spring
    assert "Random event 7: Coup in Uganda" in spring
    assert "   A Nai H                     No order: holds" in spring


def test_the_spending_is_secret_until_adjudicated_then_published(
    reports: dict[str, str],
) -> None:
    pending = reports["status Spring 1961 Influence"]
    assert "   8: Kenya" in pending  # France reads its own
    assert "6: Botswana" not in pending  # and not the Soviet Union's
    assert "Orders received from: Britain, China, France, Soviet Union, United States" in pending
    spent = reports["Spring 1961 Influence"]
    assert "Soviet Union\n   6: Botswana                 Spent\n   6: Rhodesia" in spent
    assert "Kenya: controlled by France (was nobody)" in spent
    assert "   Kenya: France; France 8" in spent


def test_aid_keeps_a_fourth_unit_and_costs_five_ips(reports: dict[str, str]) -> None:
    assert "   Soviet Union gives Botswana aid: 1 (rules c.3)" in reports["Autumn 1961 Movement"]
    adjusted = reports["Autumn 1961 Adjustment"]
    assert "   Build A Gab                 Built" in adjusted
    assert (
        "IPs to spend in Spring 1962 (rules a.6): Britain 17, China 15, France 16, "
        "Soviet Union 11, United States 15"
    ) in adjusted


def test_an_event_changes_the_revenue_before_it_is_spent(reports: dict[str, str]) -> None:
    spring = reports["Spring 1962 Movement"]
    assert "Random event 2: French Community deplores lack of French aid" in spring
    assert (
        "IPs to spend this Spring: Britain 18, China 16, France 12, Soviet Union 12, "
        "United States 16"
    ) in spring


def test_the_ousted_controller_declares_civil_war(reports: dict[str, str]) -> None:
    influence = reports["Spring 1962 Influence"]
    assert "Kenya: controlled by Soviet Union (was France)" in influence
    assert "   France may declare civil war in Kenya with its next orders" in influence
    autumn = reports["Autumn 1962 Movement"]
    assert "   France declares civil war in Kenya (rules a.12)" in autumn
    assert "Orders not followed\n   Soviet Union: A Aru - Nai: Kenya is in civil war" in autumn
    assert "   A Aru H                     No order: holds" in autumn
    assert "In civil war, their units standing: Kenya" in reports["board"]


def test_a_guerilla_is_raised_and_takes_a_center_for_china(reports: dict[str, str]) -> None:
    assert (
        "Guerillas (rules b.11)\n   China: Raise G Nfd: after the retreats"
        in (reports["Spring 1961 Movement"])
    )
    assert "China raises G Nfd (rules b.11)" in reports["Spring 1961 Movement"]
    assert "   G Nfd - Nai                 Succeeds" in reports["Autumn 1962 Movement"]
    adjusted = reports["Autumn 1962 Adjustment"]
    assert "   China                  1 center,  1 unit    Nai" in adjusted
    assert "   Kenya                  2 centers,  2 units  Kis, Mom" in adjusted


def test_paratroops_marines_and_fleets_come_on_the_board_pay_and_leave_it(
    reports: dict[str, str],
) -> None:
    autumn = reports["Autumn 1961 Movement"]
    assert "Paratroop drops (rules b.4)\n   Britain: P OFFBOARD - Ofs: dropped" in autumn
    assert "   F OFFBOARD - Gog            Succeeds" in autumn
    spring = reports["Spring 1962 Movement"]
    assert "   M Gog - Lom                 Succeeds" in spring
    assert "   P Ofs - OFFBOARD            Succeeds" in spring
    assert "Britain pays 2 IPs (10%) for its paratroops (rules b.3)" in spring
    assert "France pays 2 IPs (10%) for its marines (rules b.3)" in spring
    assert "   M Lom - F Gog               Succeeds" in reports["Autumn 1962 Movement"]


def test_the_file_replays_to_the_same_positions_and_reports(
    reports: dict[str, str], played: Path, cli: Command
) -> None:
    game = read_game(played)  # replays every phase and checks its digest
    codes = [r.before.phase.code for r in game.history]
    assert codes[:4] == ["S1961M", "S1961I", "A1961M", "A1961A"]
    again = jsonio.game_from_json(jsonio.game_to_json(game))
    assert jsonio.position_digest(again.position) == jsonio.position_digest(game.position)
    for code, phase in (("S1961M", "Spring 1961 Movement"), ("A1961A", "Autumn 1961 Adjustment")):
        assert cli("report", str(played), code) == reports[phase]


def test_aid_beyond_a_states_units_is_warned_to_its_giver_alone(tmp_path: Path) -> None:
    """c.3 (issue 28, point 4), from the start: the Soviet Union takes Uganda (one army)
    and gives it two centers' worth of aid, more than its income would once have allowed;
    the aid is stored, and the warning that the second can have no effect goes to the
    Soviet Union (and the game master) alone, never to France."""
    game = str(tmp_path / "game.json")
    run_cli("new", "africa_ii", game, "--force")
    run_cli("adjudicate", game)
    run_cli("orders", game, "Russia", "12: Uganda")
    run_cli("adjudicate", game)
    stored = run_cli("orders", game, "Russia", "Aid 2 Uganda", "A kam H")
    warning = (
        "Warning: Aid 2 Uganda: aid of 2 in all to Uganda, which has 1 unit: aid beyond them "
        "can have no effect, and is charged 5 IPs each all the same (rules c.3)"
    )
    assert warning in stored
    assert warning in run_cli("status", game, "--as", "Russia")
    assert warning in run_cli("status", game, "--as", "master")
    assert "Warning" not in run_cli("status", game)  # an observer
    assert "Warning" not in run_cli("status", game, "--as", "France")
    run_cli("adjudicate", game)
    saved = read_game(Path(game))
    assert saved.position.phase.code == "S1962M"
    assert Ledger.of(saved.position).revenue["Soviet Union"] == 12 + 1 - 10
