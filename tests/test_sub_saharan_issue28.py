"""Sub-Saharan, issue 28 point 13: the last friction of the variant, each test named for
what it checks, its docstring starting with the rule (or the issue's point) it stands for.
The rulebook's own example of 8.2 is played from the start of a game through the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from hegemon.game import order_problems, play_phase
from hegemon.position import MASTER, OBSERVER, Phase, PhaseKind, Season, Unit, Viewer
from hegemon.render import draw_board
from hegemon.variants import load_variant
from hegemon.variants.sub_saharan import SubSaharan
from tests.conftest import Command, run_cli
from tests.test_boards_europe_1615 import _drawn_text

# The orders of rules 8.2 ("DP in Action: Practical Example"), Yeke's bid breaking the
# Attacking & Allocating rule, as the players would send them in a file.
EXAMPLE = """\
Angola: A Lua - Bra
Angola: A Moc - Lun
Angola: 1: A Lib S Lua - Bra
Angola: 1: A Mwi S Kas H
Mozambique: A Tet - Muc
Mozambique: 1: A Tab - Aru
Mozambique: 1: A Mwi S Kas H
Toucouleur: 1: A Mwi - Lun
Toucouleur: 1: A Kam - Aru
Yeke: A Bun S Mwa - Kas
Yeke: A Mwa - Kas
Yeke: 2: A Kas - Kam
Zanzibar: A Mom - Aru
Zanzibar: A Sto - Tab
Zanzibar: 1: A Kam S Sto - Tab
Zanzibar: 1: A Kas S Sto - Tab
"""
WARNING = (
    "Warning: 2: A Kas - Kam: ignored at adjudication while your own orders attack Kasongo "
    "or support an attack on it (rules 8.0, the Attacking & Allocating rule)"
)


@pytest.fixture(scope="module")
def ss() -> SubSaharan:
    variant = load_variant("sub_saharan")
    assert isinstance(variant, SubSaharan)
    return variant


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The example played from the start: what `orders` and `status` said before the
    adjudication, and each viewer's report of it after."""
    folder = tmp_path_factory.mktemp("sub_saharan")
    game, given = str(folder / "game.json"), folder / "spring1881.txt"
    given.write_text(EXAMPLE, encoding="utf-8")
    run_cli("new", "sub_saharan", game, "--seed", "1881")
    told = {"game": game, "orders": run_cli("orders", game, "--from", str(given))}
    for power in ("Yeke", "Angola"):
        told[f"status {power}"] = run_cli("status", game, "--as", power)
    run_cli("adjudicate", game)
    for viewer in ("Yeke", "Angola", "observer", "master"):
        told[f"report {viewer}"] = run_cli("report", game, "--as", viewer)
    return told


def test_a_bid_breaking_attacking_and_allocating_is_warned_to_its_bidder_only(
    example: dict[str, str],
) -> None:
    """8.0, The Attacking & Allocating Rule (issue 28, point 13): Yeke's bid on Kasongo,
    which its own army attacks, is stored (the attack may yet be withdrawn) with a
    warning that it will be ignored; Yeke reads it, Angola does not."""
    yeke = example["orders"].split("Yeke: ")[1]
    assert f"\n   {WARNING}\n" in yeke and example["orders"].count("Warning") == 1
    assert f"   {WARNING}" in example["status Yeke"]
    assert "Warning" not in example["status Angola"]


def test_a_power_reads_back_its_own_bids_before_the_reveal(example: dict[str, str]) -> None:
    """1.3, 8.0 and docs/cli.md (issue 28, point 13): a power reads "its own bids in the
    results" with ``--as``, each with what became of it, and nobody else's; the
    observer reads none; the game master every power's."""
    assert (
        "Bids of Yeke\n"
        "   2: A Kas - Kam: ignored: Yeke's own orders attack it (Attacking & Allocating)\n"
    ) in example["report Yeke"]
    assert (
        "Bids of Angola\n   1: A Lib S Lua - Bra: performed\n   1: A Mwi S Kas H: performed\n"
    ) in example["report Angola"]
    assert "Bids of Angola" not in example["report Yeke"]
    assert "Bids of Yeke" not in example["report Angola"]
    assert "Bids of" not in example["report observer"]
    master = example["report master"]
    assert all(f"Bids of {p}" in master for p in ("Angola", "Mozambique", "Yeke", "Zanzibar"))
    assert "   1: A Kam - Aru: not performed" in master  # tied: the unit held


def test_a_refused_retreat_says_why(ss: SubSaharan) -> None:
    """Retreats, rules 6.0 (issue 28, point 13): a retreat refused says why the province
    is closed. A constructed position: Ethiopia dislodges Zanzibar's army of Mombasa from
    Wajir; then, as if a minor's sortie had bounced in Arusha (rules 6.0: "not an
    eligible retreat location"), Arusha is closed too."""
    start = ss.initial_position()
    units = {p: u for p, u in start.units.items() if p in ("mom", "sto", "kis", "tab")}
    units.update((p, Unit("Ethiopia", units["mom"].type, p)) for p in ("waj", "pok"))
    given = {"Ethiopia": ["A Waj - Mom", "A Pok S Waj - Mom"]}
    orders = {p: [ss.parse_order(t) for t in ts] for p, ts in given.items()}
    retreat = play_phase(ss, start.evolve(units=units), orders).after
    retreat = retreat.evolve(contested=frozenset({"aru"}))
    assert retreat.phase.kind is PhaseKind.RETREAT and "mom" in retreat.dislodged
    problems = {
        target: order_problems(
            ss, retreat, "Zanzibar", [ss.parse_order(f"A mom - {target}", retreat.all_units)]
        )
        for target in ("waj", "sto", "kis", "aru", "acc")
    }
    assert problems == {
        "waj": ["A Mom - Waj: Wajir is not a retreat open to Mom: the attack came from there"],
        "sto": ["A Mom - Sto: Stone Town is not a retreat open to Mom: A Sto stands there"],
        "kis": ["A Mom - Kis: Kismayo is not a retreat open to Mom: A Kis stands there"],
        "aru": [
            "A Mom - Aru: Arusha is not a retreat open to Mom: a standoff there this turn "
            "left it closed"
        ],
        "acc": ["A Mom - Acc: Accra is not a retreat open to Mom: it does not border Mom"],
    }


def test_show_prints_no_diplomacy_points_once_the_game_is_over(
    tmp_path: Path, cli: Command
) -> None:
    """8.1 (issue 28, point 13): DP are "to bid this turn"; once the players have agreed
    to end the game there is no turn, and ``show --as`` no longer offers them."""
    game = str(tmp_path / "game.json")
    cli("new", "sub_saharan", game)
    assert "Diplomacy Points to bid this turn: 2" in cli("show", game, "--as", "Angola")
    cli("end", game, "--draw", "Angola,Yeke")
    shown = cli("show", game, "--as", "Angola")
    assert "The game is over" in shown and "Diplomacy Points" not in shown


def test_the_drawn_board_carries_the_diplomacy_points(ss: SubSaharan) -> None:
    """8.1 (issue 28, point 13): each player's DP this turn, one a center and at most
    three, are on the board (public: they follow from the centers); none in the Winter,
    when nobody bids."""
    start = ss.initial_position()
    richer = start.evolve(centers={**start.centers, "kas": "Yeke", "iri": "Yeke"})
    expected = (
        "Diplomacy Points to bid this turn (one a center, at most 3): Angola 2, Ashanti 2, "
        "Cape Colony 2, Ethiopia 2, Mahdist 2, Mozambique 2, Sokoto 2, Toucouleur 2, Yeke 3, "
        "Zanzibar 2."
    )
    for viewer in (OBSERVER, Viewer(power="Yeke"), MASTER):
        assert expected in " ".join(_drawn_text(draw_board(ss, richer, viewer)).split())
    winter = richer.evolve(phase=Phase(1881, Season.WINTER, PhaseKind.ADJUSTMENT))
    assert "Diplomacy Points" not in draw_board(ss, winter, OBSERVER)
