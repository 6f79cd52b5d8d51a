"""Rivers and lakes as map data: river coasts load, fleets sail them, and convoys follow
legs a fleet could sail (african_diplomacy_ii.txt, rule E); a coast that a fleet's move must
always name (rule F's Suez canal); on small maps of their own."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.adjudication.movement import MovementResult, adjudicate_movement
from hegemon.board import FLEET, Board, MapError
from hegemon.mapfile import board_from_data
from hegemon.notation import parse_order
from hegemon.position import Phase, PhaseKind, Position, Season, read_unit
from hegemon.rules import Rules


def _board(provinces: dict[str, Any]) -> Board:
    return board_from_data(
        {"meta": {"name": "River", "width": 10, "height": 10}, "provinces": provinces}
    )


def _spring(board: Board, units: dict[str, list[str]]) -> Position:
    placed = {}
    for power, texts in units.items():
        for text in texts:
            unit = read_unit(board, power, text)
            placed[unit.province] = unit
    return Position.create(Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), placed)


def _play(board: Board, position: Position, given: dict[str, list[str]]) -> MovementResult:
    orders = {p: [parse_order(t, board) for t in texts] for p, texts in given.items()}
    return adjudicate_movement(board, position, orders, Rules())


def _notes(board: Board, position: Position, given: dict[str, list[str]]) -> dict[str, str]:
    return {o.text: o.note for o in _play(board, position, given).outcomes}


def _river(tag_convoys: bool = True) -> dict[str, Any]:
    """Three provinces along a river (up, mid, down) and a dry hinterland: no sea at all."""
    tags = ["river", "convoys"] if tag_convoys else ["river"]
    return {
        "up": {"name": "Upstream", "kind": "coast", "xy": [1, 1], "tags": tags,
               "army": ["mid", "dry"], "fleet": ["mid"]},
        "mid": {"name": "Midstream", "kind": "coast", "xy": [2, 2], "tags": tags,
                "army": ["up", "down", "dry"], "fleet": ["up", "down"]},
        "down": {"name": "Downstream", "kind": "coast", "xy": [3, 3], "tags": tags,
                 "army": ["mid"], "fleet": ["mid"]},
        "dry": {"name": "Dry Land", "kind": "land", "xy": [4, 4], "army": ["up", "mid"]},
    }  # fmt: skip


def test_a_river_coast_that_touches_no_sea_loads() -> None:
    two = {
        "up": {"name": "Upstream", "kind": "coast", "xy": [1, 1], "tags": ["river"],
               "army": ["down"], "fleet": ["down"]},
        "down": {"name": "Downstream", "kind": "coast", "xy": [2, 2], "tags": ["river"],
                 "army": ["up"], "fleet": ["up"]},
    }  # fmt: skip
    board = _board(two)
    notes = _notes(board, _spring(board, {"Nile": ["F up"]}), {"Nile": ["F up - down"]})
    assert notes == {"F Up - Down": "Succeeds"}


def test_a_coast_on_no_sea_and_no_river_is_still_refused() -> None:
    data = _river()
    data["up"]["tags"] = []
    with pytest.raises(MapError, match="Upstream: a coast province that touches no sea"):
        _board(data)


def test_a_fleet_on_a_river_coast_convoys_along_the_river() -> None:
    board = _board(_river())
    position = _spring(board, {"Nile": ["A up", "F mid"]})
    notes = _notes(board, position, {"Nile": ["A up - down", "F mid C A up - down"]})
    assert notes["A Up - Down"] == "Succeeds"


def test_a_river_coast_carries_no_convoy_unless_the_data_says_so() -> None:
    board = _board(_river(tag_convoys=False))
    position = _spring(board, {"Nile": ["A up", "F mid"]})
    notes = _notes(board, position, {"Nile": ["A up - down", "F mid C A up - down"]})
    assert notes["F Mid C A Up - Down"] == "Void: a fleet in Midstream cannot convoy; holds"
    assert notes["A Up - Down"].startswith("Void:")


def test_an_unnavigable_coast_holds_a_fleet_that_never_moves() -> None:
    # African Riots' N'djamena, on the Chari that "is not assigned to be navigable by fleets".
    data = _river()
    data["dry"] = {"name": "Dry Land", "kind": "coast", "xy": [4, 4], "tags": ["unnavigable"],
                   "army": ["up", "mid"]}  # fmt: skip
    board = _board(data)
    assert board.can_hold(FLEET, "dry") and not board.neighbours(FLEET, "dry")
    notes = _notes(board, _spring(board, {"Nile": ["F dry"]}), {"Nile": ["F dry - up"]})
    assert notes["F Dry - Up"] == "Void: a fleet in Dry Land cannot reach Upstream; holds"


def test_an_unnavigable_coast_has_no_fleet_moves_and_is_a_coast() -> None:
    data = _river()
    data["up"]["tags"] = ["river", "unnavigable"]
    with pytest.raises(MapError, match="Upstream: unnavigable, yet fleets move from it"):
        _board(data)
    data = _river()
    data["dry"]["tags"] = ["unnavigable"]
    with pytest.raises(MapError, match="Dry Land: only a coast may be unnavigable"):
        _board(data)


# --- African Diplomacy II, rule E: the worked example --------------------------------------


def _rule_e_map(senegal_reaches_bamako: bool, bamako_reaches_upper_volta: bool) -> Board:
    """The example's corner of West Africa: Rio de Oro and Senegal on the Atlantic, the
    Senegal river along Senegal's border to Bamako's north coast, the Niger through
    Bamako's south coast, Upper Volta inland (rule F's moves for these spaces)."""
    bam_nc = [
        "gui/wc",
        *(["sen"] if senegal_reaches_bamako else []),
        *(["upv"] if bamako_reaches_upper_volta else []),
    ]
    upv: dict[str, Any] = {"name": "Upper Volta", "xy": [5, 6], "army": ["bam", "fsu"]}
    if bamako_reaches_upper_volta:  # the counterfactual: a river coast on Upper Volta
        upv |= {"kind": "coast", "tags": ["river"], "fleet": ["bam/nc"]}
    else:
        upv["kind"] = "land"
    provinces: dict[str, Any] = {
        "rdo": {"name": "Rio de Oro", "kind": "coast", "xy": [1, 1], "army": ["sen"],
                "fleet": ["atl", "sen"]},
        "sen": {"name": "Senegal", "kind": "coast", "xy": [2, 3], "tags": ["convoys"],
                "army": ["rdo", "bam", "gui"], "fleet": ["atl", "rdo", "gui/wc",
                *(["bam/nc"] if senegal_reaches_bamako else [])]},
        "bam": {"name": "Bamako", "kind": "coast", "xy": [5, 4],
                "army": ["sen", "gui", "fsu", "upv"],
                "coasts": {"nc": {"fleet": bam_nc, "tags": ["river", "convoys"]},
                           "sc": {"fleet": ["fsu"], "tags": ["river", "convoys"]}}},
        "gui": {"name": "Guinea", "kind": "coast", "xy": [3, 6], "army": ["sen", "bam"],
                "coasts": {"wc": {"fleet": ["atl", "sen", "bam/nc"], "tags": ["convoys"]},
                           "ec": {"fleet": [], "tags": ["river"]}}},
        "fsu": {"name": "French Sudan", "kind": "coast", "xy": [7, 3], "tags": ["river", "convoys"],
                "army": ["bam", "upv"], "fleet": ["bam/sc"]},
        "upv": upv,
        "atl": {"name": "Atlantic Ocean", "kind": "sea", "xy": [0, 5],
                "fleet": ["rdo", "sen", "gui/wc"]},
    }  # fmt: skip
    return _board(provinces)


EXAMPLE = {
    "North": ["A rdo"],
    "West": ["F sen", "F bam/nc"],
}
EXAMPLE_ORDERS = {
    "North": ["A Rio de Oro - Upper Volta"],
    "West": ["F Senegal C A Rio de Oro - Upper Volta", "F Bamako C A Rio de Oro - Upper Volta"],
}


@pytest.mark.parametrize(
    ("senegal_reaches_bamako", "bamako_reaches_upper_volta"),
    [(False, False), (True, False), (False, True)],
    ids=["as-in-the-rules", "only-the-last-leg-broken", "only-the-middle-leg-broken"],
)
def test_rule_e_example_fails_for_either_reason(
    senegal_reaches_bamako: bool, bamako_reaches_upper_volta: bool
) -> None:
    # "These moves fail for two reasons. Firstly, F Senegal cannot move to Bamako ...
    # Secondly, F Bamako cannot move to Upper Volta": each reason alone is enough.
    board = _rule_e_map(senegal_reaches_bamako, bamako_reaches_upper_volta)
    result = _play(board, _spring(board, EXAMPLE), EXAMPLE_ORDERS)
    assert "rdo" in result.units and "upv" not in result.units


def test_rule_e_convoy_succeeds_once_both_legs_can_be_sailed() -> None:
    board = _rule_e_map(senegal_reaches_bamako=True, bamako_reaches_upper_volta=True)
    result = _play(board, _spring(board, EXAMPLE), EXAMPLE_ORDERS)
    assert "upv" in result.units and "rdo" not in result.units


def test_rule_e_the_reasons_as_the_judge_gives_them() -> None:
    board = _rule_e_map(senegal_reaches_bamako=False, bamako_reaches_upper_volta=False)
    notes = _notes(board, _spring(board, EXAMPLE), EXAMPLE_ORDERS)
    assert notes["A Rdo - Upv"] == (
        "Void: Rio de Oro does not border Upper Volta, and no convoy route joins them; holds"
    )
    assert notes["F Bam C A Rdo - Upv"] == (
        "Void: Bamako (nc) lies on no convoy route from Rio de Oro to Upper Volta; holds"
    )


# --- a coast that must be named (African Diplomacy II, rule F: Egypt's Suez canal) ----------


def _canal(required: bool) -> Board:
    """A sea, a gulf, and a province between them with a canal coast on the gulf and a
    river coast on the sea; the gulf reaches the canal coast alone."""
    canal_tags = ["coast-required"] if required else []
    return _board({
        "sea": {"name": "Sea", "kind": "sea", "xy": [1, 1], "fleet": ["egy/wc", "egy/ec"]},
        "gul": {"name": "Gulf", "kind": "sea", "xy": [3, 3], "fleet": ["egy/ec"]},
        "egy": {"name": "Egypt", "kind": "coast", "xy": [2, 2],
                "coasts": {"ec": {"fleet": ["sea", "gul"], "tags": canal_tags},
                           "wc": {"fleet": ["sea"], "tags": ["river"]}}},
    })  # fmt: skip


def test_a_coast_the_map_requires_is_named_even_when_it_is_the_only_one_reachable() -> None:
    board = _canal(required=True)
    position = _spring(board, {"Nile": ["F gul"]})
    notes = _notes(board, position, {"Nile": ["F gul - egy"]})
    assert notes["F Gul - Egy"] == "Void: say which coast of Egypt: egy/ec; holds"
    assert _notes(board, position, {"Nile": ["F gul - egy/ec"]}) == {"F Gul - Egy/ec": "Succeeds"}


def test_without_the_tag_the_only_reachable_coast_is_filled_in() -> None:
    # DATC 6.B.2, the standard game's reading, which the tag departs from.
    board = _canal(required=False)
    position = _spring(board, {"Nile": ["F gul"]})
    assert _notes(board, position, {"Nile": ["F gul - egy"]}) == {"F Gul - Egy/ec": "Succeeds"}


def test_only_a_split_coast_may_be_required() -> None:
    data = _river()
    data["up"]["tags"] = ["river", "convoys", "coast-required"]
    with pytest.raises(MapError, match="Upstream: only a split coast may be coast-required"):
        _board(data)


# --- the convoy graph against a brute-force search on the standard map ----------------------


def _brute_force_route(board: Board, origin: str, target: str, place: str) -> bool:
    def extend(chain: list[str]) -> bool:
        if place in chain and chain[-1] in board.convoy_shores[target]:
            return True
        return any(extend([*chain, p]) for p in board.convoy_legs[chain[-1]] if p not in chain)

    return any(extend([p]) for p in board.convoy_shores[origin])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_on_convoy_route_agrees_with_a_search_of_every_chain(
    board: Board, data: st.DataObject
) -> None:
    coasts = sorted(p for p in board.provinces if board.is_coastal(p))
    origin = data.draw(st.sampled_from(coasts))
    target = data.draw(st.sampled_from([c for c in coasts if c != origin]))
    place = data.draw(st.sampled_from(sorted(board.convoy_places)))
    assert board.on_convoy_route(origin, target, place) == _brute_force_route(
        board, origin, target, place
    )
