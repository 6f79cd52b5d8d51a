"""The map model and the loader's validation (foundation issue: variant data format)."""

from __future__ import annotations

from typing import Any

import pytest

from hegemon.board import ARMY, FLEET, Board, MapError, UnitKind
from hegemon.mapfile import board_from_data
from hegemon.notation import OrderSyntaxError, parse_order
from hegemon.orders import Move
from hegemon.variants import load_variant


def test_classic_map_has_the_standard_numbers(board: Board) -> None:
    assert len(board.provinces) == 75
    assert len(board.centers) == 34
    sea = [p for p in board.provinces.values() if p.is_sea]
    assert len(sea) == 19


def test_classic_setup_matches_the_rulebook() -> None:
    classic = load_variant("classic")
    assert classic.start_year == 1901
    assert classic.victory_centers == 18
    start = classic.initial_position()
    assert len(start.units) == 22
    assert str(start.units["stp"]) == "F stp/sc"
    assert sorted(start.centers_of("Russia")) == ["mos", "sev", "stp", "war"]


def test_names_and_aliases_resolve_in_any_case(board: Board) -> None:
    assert board.lookup("Mid-Atlantic Ocean") == "mid"
    assert board.lookup("MAO") == "mid"
    assert board.lookup("st. petersburg") == "stp"
    assert board.lookup("Nowhere") is None


def test_split_coasts_have_their_own_fleet_edges(board: Board) -> None:
    assert board.adjacent(FLEET, "gas", "spa/nc")
    assert not board.adjacent(FLEET, "gas", "spa/sc")
    assert board.reaches_province(FLEET, "wes", "spa")
    assert board.locations("spa") == ("spa/nc", "spa/sc")


def _tiny(**overrides: Any) -> dict[str, Any]:
    provinces: dict[str, Any] = {
        "aaa": {"name": "Alpha", "kind": "coast", "xy": [1, 1], "army": ["bbb"], "fleet": ["sss"]},
        "bbb": {"name": "Beta", "kind": "land", "xy": [2, 2], "army": ["aaa"]},
        "sss": {"name": "Sea", "kind": "sea", "xy": [3, 3], "fleet": ["aaa"]},
    }
    for pid, changes in overrides.items():
        provinces[pid] = {**provinces.get(pid, {}), **changes}
    return {"meta": {"name": "Tiny", "width": 10, "height": 10}, "provinces": provinces}


def test_a_valid_tiny_map_loads() -> None:
    board = board_from_data(_tiny())
    assert board.adjacent(ARMY, "aaa", "bbb")


def test_the_loader_reports_every_problem_at_once_with_names() -> None:
    data = _tiny(
        aaa={"army": ["bbb", "zzz"]},  # unknown province
        bbb={"army": [], "fleet": ["sss"]},  # one-way army edge and fleet edge inland
        iii={"name": "Isle", "kind": "coast", "xy": [4, 4]},  # an island with no sea
    )
    with pytest.raises(MapError) as caught:
        board_from_data(data, "tiny.toml")
    problems = "\n".join(caught.value.problems)
    assert "Alpha: army edge to unknown province 'zzz'" in problems
    assert "Alpha: army edge to Beta is one-way" in problems
    assert "Beta: an inland province with fleet edges" in problems
    assert "Isle: a coast province that touches no sea" in problems
    assert len(caught.value.problems) >= 4
    assert str(caught.value).startswith("tiny.toml:")


def test_armies_never_enter_the_sea_in_the_data() -> None:
    data = _tiny(aaa={"army": ["bbb", "sss"]}, sss={"army": ["aaa"]})
    with pytest.raises(MapError) as caught:
        board_from_data(data)
    problems = "\n".join(caught.value.problems)
    assert "Sea: a sea province with army edges" in problems


def test_a_coordinate_outside_the_canvas_is_reported() -> None:
    with pytest.raises(MapError, match="Beta: coordinate"):
        board_from_data(_tiny(bbb={"xy": [50, 2]}))


def test_unit_kinds_come_from_the_data() -> None:
    data = _tiny()
    data["units"] = {
        "A": {"name": "army", "moves": "army"},
        "F": {"name": "fleet", "moves": "fleet"},
        "S": {"name": "scout", "moves": "army", "supply": False, "captures": False},
    }
    board = board_from_data(data)
    scout = board.kinds["S"]
    assert scout.by_land and not scout.supply and not scout.captures
    assert scout.convoyed and not scout.convoys  # by default as the graph it moves on
    assert board.unit_words["scout"] is scout and board.unit_words["s"] is scout
    assert board.can_hold(scout, "bbb") and not board.can_hold(scout, "sss")


def test_a_map_without_unit_kinds_has_the_standard_two() -> None:
    assert board_from_data(_tiny()).kinds == {"A": ARMY, "F": FLEET}
    assert (ARMY.plural, FLEET.plural, ARMY.article) == ("armies", "fleets", "an army")


def test_bad_unit_kinds_are_reported() -> None:
    data = _tiny()
    data["units"] = {"A": {"name": "army", "moves": "road"}, "zz": {"moves": "army"}}
    with pytest.raises(MapError) as caught:
        board_from_data(data)
    problems = "\n".join(caught.value.problems)
    assert "[units.A]: moves must be 'army' or 'fleet'" in problems
    assert "[units.zz]: a unit kind is one capital letter" in problems


def test_province_and_edge_tags_are_read() -> None:
    data = _tiny(aaa={"tags": ["holy-city"]})
    data["edges"] = [{"between": ["aaa", "bbb"], "tags": ["river"]}]
    board = board_from_data(data)
    assert board.tagged("holy-city") == {"aaa"}
    assert board.edge_tags_between("bbb", "aaa") == {"river"}
    assert board.edge_source("aaa", "bbb") == board.source  # the map's, by default
    data["edges"] = [{"between": ["bbb", "sss"], "tags": ["river"]}]
    with pytest.raises(MapError, match="the two are not neighbours"):
        board_from_data(data)


def test_typographic_apostrophes_name_what_the_plain_one_does() -> None:
    board = board_from_data(_tiny(aaa={"name": "Cote d'Ivoire", "aliases": ["N'zo"]}))
    for spelling in ("Cote d\u2019Ivoire", "cote d\u2018ivoire", "N\u2019zo", "N\u02bczo"):
        assert board.lookup(spelling) == "aaa", spelling


def test_an_edge_names_its_own_source() -> None:
    data = _tiny()
    data["meta"]["source"] = "reconstructed"
    data["edges"] = [{"between": ["aaa", "bbb"], "source": "rules, section 4"}]
    board = board_from_data(data)
    assert board.edge_source("bbb", "aaa") == "rules, section 4"
    assert board.edge_tags_between("aaa", "bbb") == frozenset()
    assert board.edge_source("aaa", "sss") == "reconstructed"


def test_labels_are_the_data_s_or_the_id_in_the_map_s_case() -> None:
    board = board_from_data(_tiny(aaa={"label": "AlF"}))
    assert board.provinces["aaa"].label == "AlF"
    assert board.provinces["bbb"].label == "Bbb"
    data = _tiny()
    data["meta"]["labels"] = "upper"
    assert board_from_data(data).provinces["bbb"].label == "BBB"
    data["meta"]["labels"] = "shouting"
    with pytest.raises(MapError, match="labels: one of capitalized, upper, not 'shouting'"):
        board_from_data(data)


def test_the_geo_frame_places_the_canvas_on_the_globe() -> None:
    data = _tiny()
    data["meta"]["projection"] = {"west": -20, "east": 55, "north": 25, "south": -37}
    frame = board_from_data(data).geo
    assert frame is not None
    assert frame.to_canvas(-20, 25, (1000, 1000)) == (0, 0)
    assert frame.to_canvas(17.5, -6, (1000, 1000)) == (500, 500)
    assert board_from_data(_tiny()).geo is None
    data["meta"]["projection"] = {"west": 55, "east": -20, "north": 25, "south": -37}
    with pytest.raises(MapError, match=r"\[meta.projection\]: west must lie west of east"):
        board_from_data(data)
    data["meta"]["projection"] = {"west": "far", "east": -20}
    with pytest.raises(MapError, match=r"\[meta.projection\]: west, east, north and south"):
        board_from_data(data)


def _split_coasts(**aliases: list[str]) -> dict[str, Any]:
    """A tiny map whose Alpha has two coasts, each on its own sea; `aliases` by coast."""
    data = _tiny()
    provinces = data["provinces"]
    del provinces["aaa"]["fleet"]
    provinces["aaa"]["coasts"] = {
        "nc": {"fleet": ["sss"], "aliases": aliases.get("nc", [])},
        "sc": {"fleet": ["ttt"], "aliases": aliases.get("sc", [])},
    }
    provinces["sss"]["fleet"] = ["aaa/nc", "ttt"]
    provinces["ttt"] = {"name": "Tide", "kind": "sea", "xy": [4, 4], "fleet": ["aaa/sc", "sss"]}
    return data


def test_a_coast_may_be_written_by_another_name_the_data_gives_it() -> None:
    board = board_from_data(_split_coasts(nc=["wc"], sc=["ec"]))
    assert board.coast_named("aaa", "wc") == "aaa/nc"
    assert board.coast_named("aaa", "sc") == "aaa/sc"
    assert board.coast_named("aaa", "ec") == "aaa/sc"
    assert board.coast_named("aaa", "n") is None
    assert parse_order("F Tide - Alpha[ec]", board) == Move(FLEET, "ttt", "aaa/sc")
    assert parse_order("F aaa/wc - sss", board) == Move(FLEET, "aaa/nc", "sss")
    with pytest.raises(OrderSyntaxError, match="'nc' is not a coast of Beta"):
        parse_order("A bbb/nc H", board)


def test_a_coast_alias_that_names_another_coast_is_reported() -> None:
    with pytest.raises(MapError, match=r"Alpha \(nc\): the alias 'sc' is not another name"):
        board_from_data(_split_coasts(nc=["sc"]))
    with pytest.raises(MapError, match=r"Alpha \(sc\): the alias 'wc' also names aaa/nc"):
        board_from_data(_split_coasts(nc=["wc"], sc=["wc"]))


def test_names_read_a_typeset_apostrophe_as_a_plain_one() -> None:
    board = board_from_data(_tiny(bbb={"name": "Beta's Reach"}))
    assert board.lookup("Beta\u2019s Reach") == board.lookup("beta's reach") == "bbb"
    assert parse_order("A Beta\u2019s Reach \u2013 Alpha", board) == Move(ARMY, "bbb", "aaa")


def test_unit_kinds_are_equal_field_by_field_and_hash_alike() -> None:
    """A kind's own equality and hash (quicker than the dataclass's) keep its meaning:
    a copy is equal and hashes alike; a kind differing in any field is another."""
    copy = UnitKind("A", "army", by_land=True, convoyed=True, glyph="army")
    assert copy == ARMY and copy is not ARMY and hash(copy) == hash(ARMY)
    assert {copy: 1}[ARMY] == 1
    assert UnitKind("A", "army", by_land=True, glyph="army") != ARMY  # not convoyed
    assert ARMY != FLEET and ARMY != "A"
