"""Africa II's board, issue 28 (point 7): a center another state holds is told on the board,
and the legend counts each superpower's centers as those of the states it controls."""

from __future__ import annotations

from dataclasses import replace

from hegemon.position import OBSERVER
from hegemon.render import draw_board
from hegemon.variants import load_variant
from hegemon.variants.africa_ii import AfricaII, Ledger


def test_a_center_held_by_another_state_and_the_superpowers_centers_are_told() -> None:
    """a.7, d.i (issue 28, point 7): Rhodesia holds Botswana's Francistown: its tag says
    so (the centers of states, no player's, share one colour); the Soviet Union, which
    controls Rhodesia, is counted its three centers in the legend, not 0."""
    variant = load_variant("africa_ii")
    assert isinstance(variant, AfricaII)
    start = variant.initial_position()
    ledger = replace(Ledger.of(start), control={"Rhodesia": "Soviet Union"})
    position = start.evolve(centers={**start.centers, "frt": "Rhodesia"}, state=ledger)
    svg = draw_board(variant, position, OBSERVER)
    assert ">Bot, held by Rho</text>" in svg
    assert ">Bot</text>" in svg  # Gaberones, Botswana's own
    assert "its center is held by Rhodesia" in svg
    assert "Soviet Union: 3 centers" in svg
    assert "others: 38 centers" in svg
