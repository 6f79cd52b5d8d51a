"""African Riots' board (issue 28, point 11): the labels about the Suez canal, and the
line of two neighbours at Iraq's four-way point."""

from __future__ import annotations

import re

import pytest
import shapely

from hegemon.position import OBSERVER
from hegemon.render import draw_board
from hegemon.render.board import Scene
from hegemon.render.labels import FONT
from hegemon.render.svg import pt
from hegemon.render.territories import territories
from hegemon.variants import load_variant


@pytest.fixture(scope="module")
def scene() -> Scene:
    variant = load_variant("african_riots")
    return Scene(variant, variant.initial_position(), OBSERVER, ())


def _share_inside(scene: Scene, province: str) -> float:
    """How much of a province's label lies inside its own region, on the opening board."""
    (label,) = [p for p in scene.labels() if p.province == province]
    box = shapely.box(*label.box)
    return float(box.intersection(territories(scene.board).regions[province]).area / box.area)


@pytest.mark.parametrize("province", ["sue", "cai", "sin"])
def test_the_labels_about_the_suez_canal_name_their_own_provinces(
    scene: Scene, province: str
) -> None:
    """Characteristic 8 (issue 28, point 11): "Cai" sat on the Gulf of Suez shore and
    "Sue" began over Cairo beside Egypt's fleet. Each label stands in its own province;
    or, where that is too small to hold it clear of the places a unit may stand (the
    canal, Sinai), in the water beside it, over no other province's land, joined to its
    point by a line."""
    if _share_inside(scene, province) >= 0.9:
        return
    (label,) = [p for p in scene.labels() if p.province == province]
    box, regions = shapely.box(*label.box), territories(scene.board).regions
    for other, region in regions.items():
        if other != province and not scene.board.provinces[other].is_sea:
            assert box.intersection(region).area < 0.1 * box.area, other
    svg = draw_board(scene.variant, scene.position, OBSERVER)
    leaders = svg.split('<g id="leaders"', 1)[1].split("</g>", 1)[0]
    assert f'<path d="M{pt(label.center)}L' in leaders


@pytest.mark.parametrize(
    ("a", "b", "between"),
    [("Basra", "Al Jazira", "bag"), ("Adamawa", "Bight of Biafra", "bia")],
)
def test_the_line_of_neighbours_meeting_at_a_corner_crosses_no_third_province(
    a: str, b: str, between: str
) -> None:
    """Issue 28, point 11: Basra and Al Jazira are neighbours whose regions meet only
    where Baghdad's and Kirkuk's border ends on each (Iraq's four-way point); their
    line, drawn straight, crossed Baghdad. It runs along that border instead: into no
    third province's land, however far its points lie apart. So does Adamawa's to the
    Bight of Biafra, which crossed Biafra."""
    variant = load_variant("african_riots")
    svg = draw_board(variant, variant.initial_position(), OBSERVER)
    found = re.search(rf'<path d="M([^"]+)"[^>]*><title>{a} and {b} are neighbours', svg)
    assert found is not None
    way = shapely.LineString([map(float, xy.split(",")) for xy in found.group(1).split("L")])
    inside = territories(variant.board).regions[between].buffer(-0.5)
    assert way.intersection(inside).length < 0.5


def test_the_labels_read_as_large_on_the_page_as_other_maps(scene: Scene) -> None:
    """Issue 31: the board, 1610 units wide, is drawn 986 px wide on a 1366x900 page, and
    its labels read 6 px there. They are set larger by its width, to 9 px and more; only
    a label whose province is too small to hold it so, clear of every place a unit may
    stand, is set smaller, down to the usual size, and stays inside its province (Cairo's,
    above): 17 of the 199, placed once for the map (`board_labels`)."""
    on_page = 986 / scene.board.size[0]  # pixels a canvas unit
    sizes = {label.province: FONT * label.scale * on_page for label in scene.labels()}
    readable = [p for p, px in sizes.items() if px >= 9]
    assert len(readable) >= 0.9 * len(sizes), sorted(p for p in sizes if p not in readable)
    assert min(sizes.values()) >= FONT * on_page  # never smaller than before
    svg = draw_board(scene.variant, scene.position, OBSERVER)
    assert svg.count('font-size="16.1" data-province=') == sum(
        label.scale == scene.board.size[0] / 1000 for label in scene.labels()
    )
