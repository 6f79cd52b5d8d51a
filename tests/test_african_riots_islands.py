"""African Riots: the island centres that can be taken (issue 28, point 8): Saint Helena
and Cyprus each border two seas (reconstructed), so that an attack on them can be
supported."""

from __future__ import annotations

from pathlib import Path

import pytest

from hegemon.board import FLEET
from hegemon.variants import load_variant
from tests.test_cli import run

# From the start: Angola's fleet sails into the Benguela Current and a second is built at
# Lubango; South Africa's fleet rounds the Cape and lands on Saint Helena first.
TURNS: list[dict[str, list[str]]] = [
    {"Angola": ["F Lub - Bng", "A Cho - Kan"], "South Africa": ["F Cto - Cab"]},  # Spring 2001
    {"South Africa": ["F Cab - Sao"]},  # Fall 2001: Angola owns Kananga besides its homes
    {"Angola": ["Build F Lub"]},  # Winter 2001
    {"Angola": ["F Bng - Sao", "F Lub - Bng"], "South Africa": ["F Sao - Sth"]},  # Spring 2002
]


def test_saint_helena_is_taken_by_a_supported_attack_from_its_two_seas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Characteristic 9 (issue 28, point 8): Saint Helena borders the South Atlantic and
    the Benguela Current (reconstructed); a fleet in one supports an attack from the other
    and dislodges the island's holder, 2 to 1, where every attack on it bounced 1 to 1."""
    game = str(tmp_path / "game.json")
    assert run(capsys, "new", "african_riots", game)[0] == 0
    for turn in TURNS:
        for power, orders in turn.items():
            code, _, err = run(capsys, "orders", game, power, *orders)
            assert code == 0, err
        assert run(capsys, "adjudicate", game)[0] == 0
    attack = {"Angola": ["F Sao - Sth", "F Bng S F Sao - Sth"], "South Africa": ["F Sth H"]}
    for power, orders in attack.items():
        assert run(capsys, "orders", game, power, *orders)[0] == 0
    code, report, err = run(capsys, "adjudicate", game)
    assert code == 0, err
    assert report.startswith("Fall 2002 Movement (African Riots)")
    lines = [" ".join(line.split()) for line in report.splitlines()]
    assert "F Bng S F Sao - Sth Succeeds" in lines
    assert "F Sao - Sth Succeeds" in lines
    _, shown, _ = run(capsys, "show", game)
    assert "Angola: A Kan, A Lua, F Bng, F Sth" in shown  # South Africa's fleet had no retreat
    owned = next(line.split() for line in shown.splitlines() if line.startswith("   Angola "))
    assert "Sth" in owned


@pytest.mark.parametrize(("island", "seas"), [("sth", {"sao", "bng"}), ("cyp", {"ems", "lys"})])
def test_each_island_centre_borders_two_seas(island: str, seas: set[str]) -> None:
    """Characteristic 9 (issue 28, point 8): an island centre with one neighbouring sea
    could never be taken from a holder; each borders two (reconstructed: the rules give
    no adjacency)."""
    board = load_variant("african_riots").board
    assert board.fleet_edges[island] == seas
    assert all(board.reaches_province(FLEET, sea, island) for sea in seas)
