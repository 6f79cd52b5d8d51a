"""Boards players can read (issue 11): every province a region; neighbours sharing a
border, with each exception listed and justified; labels that never overlap; colours
that stand apart; dislodged units drawn while they retreat; the variants' own marks;
and no power's secrets on another's board."""

from __future__ import annotations

import html
import math
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import shapely

from hegemon.board import province_of
from hegemon.game import GameEnd, PhaseResult, Termination, Variant, chances_for, play_phase, settle
from hegemon.position import MASTER, OBSERVER, Position, Viewer, read_unit
from hegemon.randomplay import random_orders
from hegemon.render import PngError, board_scene, draw_board, draw_phase, png_of
from hegemon.render import png as png_module
from hegemon.render.arrows import FAILED_DASH, GLYPH_RADIUS, SHORTEST
from hegemon.render.board import Scene, abbreviations
from hegemon.render.glyphs import CENTER_RADIUS
from hegemon.render.labels import overlaps, within
from hegemon.render.palette import (
    BORDER,
    COAST,
    COLOUR_BLIND_APART,
    COLOUR_BLINDNESS,
    LAND,
    SEA,
    TINT_APART,
    as_seen,
    difference,
    tint,
)
from hegemon.render.places import board_places, disc_box, dislodged_box, glyph_box
from hegemon.render.rivers import river_lines
from hegemon.render.svg import num
from hegemon.render.territories import territories, touching
from hegemon.variants import available_variants, load_variant, load_variant_from
from hegemon.variants.africa_ii import AfricaII
from hegemon.variants.africa_ii import Ledger as AfricaLedger
from hegemon.variants.europe_1615 import Europe1615
from hegemon.variants.europe_1615.ledger import OTTOMAN, Ledger
from tests.conftest import orders, units
from tests.test_europe_1615 import _empire_aligned_with_spain
from tests.variants.outposts import ORDER_OF_PLAY, Objective, Outposts, Place

OUTPOSTS = Path(__file__).parent / "variants" / "outposts"


def _variants() -> list[Variant]:
    """Every installed variant, and the tests' own, whose map is not placed on the globe
    (loaded as tests/test_outposts.py loads it, from its module imported already)."""
    outposts = load_variant_from(OUTPOSTS)
    assert isinstance(outposts, Outposts)
    return [*(load_variant(n) for n in available_variants()), outposts]


def _mid_game(variant: Variant, seed: int = 11) -> PhaseResult:
    """A movement phase of a seeded random game, in its third year, where a unit is
    dislodged."""
    rng = random.Random(seed)
    position = variant.initial_position()
    while True:
        result = play_phase(
            variant,
            position,
            random_orders(variant, position, rng),
            settle(chances_for(variant, position), None, rng),
        )
        third_year = position.phase.year >= variant.start_year + 2
        if third_year and result.after.dislodged:
            return result
        assert not result.end, "the game ended before a unit was dislodged"
        position = result.after


# --- territories ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_every_province_is_drawn_as_a_region(variant: Variant) -> None:
    land = territories(variant.board)
    svg = draw_board(variant, variant.initial_position(), OBSERVER)
    for province in variant.board.provinces.values():
        region = land.regions[province.id]
        assert region.area > 20, f"{province.name} has no region to speak of"
        assert f'<use id="{province.id}" class="province ' in svg
        assert region.buffer(2).contains(shapely.Point(province.xy)), f"{province.name} is off"


# Neighbours whose regions do not touch, and regions that touch although their provinces
# are not neighbours, for each map; every one is drawn on the board (a dashed line across
# the water, a broken border), so that the board shows the adjacency exactly.
EXCEPTIONS: dict[str, tuple[set[tuple[str, str]], set[tuple[str, str]]]] = {
    "classic": (
        {
            ("fin", "swe"),  # they meet at the head of the Gulf of Bothnia, beyond both stars
            ("nwy", "stp"),  # the standard board's Norway reaches St Petersburg in the far north
            ("den", "swe"),  # across the Sound, narrower than the coast data draws a gap
            ("lvp", "nat"),  # the standard board's Liverpool reaches round Ireland's north
        },
        {
            ("bur", "pie"),  # the Alps: the standard board's Marseilles runs up between them
            ("mun", "pie"),  # Switzerland, impassable on the standard board, is not in the data
            ("cly", "nth"),  # the Highlands' north coast: Edinburgh's on the board
            ("bot", "nwy"),  # Norway's region runs round the north of Sweden's to the gulf's head
            ("aeg", "bla"),  # the Sea of Marmara: Constantinople lies between them
            ("bal", "ska"),  # the Danish straits: Denmark lies between them
        },
    ),
    "sub_saharan": (
        {
            ("can", "equ"),  # the link runs west of Yawri Bay (docs: reconstructed seas, 29)
            ("die", "moz"),  # the Indian Ocean's water wraps Madagascar's northern tip
        },
        {
            # The four-way corners where the reconstruction kept the other diagonal
            # (docs/variants/sub_saharan.md, adjacencies 45, 48, 51, 52, 59, 61, 64, 67):
            ("alf", "ouh"),
            ("cho", "kas"),
            ("don", "enn"),
            ("gao", "gob"),
            ("gri", "kar"),
            ("mat", "oka"),
            ("mwa", "tab"),
            ("seg", "yen"),
        },
    ),
    "europe_1615": (
        {
            ("cal", "sic"),  # the Strait of Messina (docs: decision 26)
            ("fin", "lap"),  # they meet round the Gulf of Bothnia, at the canvas's top edge
        },
        {
            # Not neighbours in the reconstruction (docs: the board, decisions 30-33):
            ("bur", "lor"),  # Champagne and Franche-Comte lie between
            ("cat", "guy"),  # across the Pyrenees, by Languedoc and Navarre
            ("hun", "sil"),  # the Carpathians: Upper Hungary meets Moravia and Poland
            ("hun", "mrv"),
            ("hun", "mol"),  # Transylvania between
            ("ser", "trn"),  # the Banat is Buda's (decision 33)
            ("tus", "ven"),  # the Papal Marche between
            ("aeg", "bla"),  # the Sea of Marmara: Constantinople lies between them
            ("bal", "ska"),  # the Danish straits: Denmark lies between them (decision 28)
            ("lap", "nrg"),  # at the canvas's top edge (66 N), where Norway's coast runs on north
        },
    ),
    "african_diplomacy_ii": (
        {
            # Both reach Lake Victoria, as do Kenya and Ruanda-Urundi between them on its
            # east and west shores: no flat map lets all four share the lake and these two
            # share a border as well (docs: the board).
            ("tan", "uga"),
        },
        {
            ("aeg", "bla"),  # the Sea of Marmara: Constantinople lies between them
            ("egy", "tib"),  # a four-way corner with Cyrenaica and El Obeid, no diagonal a border
            ("red", "syr"),  # the Gulf of Aqaba's head, Syria's on land but no coast of it
        },
    ),
    "african_riots": (
        {
            ("ash", "ass"),  # fleets only, across a four-way point of the Nile (rules 2)
            ("bas", "jaa"),  # fleets only, across a four-way point (rules 2)
            ("cai", "sin"),  # Suez, the canal's space, lies between (rules 8)
            ("ada", "bob"),  # Biafra and Yaounde meet at the Bight's head, before Douala's coast
            ("agu", "map"),  # the current washes KwaZulu-Natal; Maputo's coast faces the channel
            ("bnn", "kan"),  # across the Sankuru, whose space lies between
            ("goa", "sob"),  # round the Horn, where the Arabian Sea's water lies between
            ("gsd", "lys"),  # Cyrenaica's bulge parts them; they meet only off its cape
        },
        {
            # Across the impassable lakes (rules 4): Chad, Albert and Edward, Tanganyika, Malawi
            ("ada", "ndm"),
            ("ada", "zin"),
            ("ank", "itu"),
            ("ank", "nkv"),
            ("bur", "tan"),
            ("ruk", "tan"),
            ("des", "mal"),
            ("ser", "wlv"),  # no fleet moves between them on Lake Victoria (rules 3)
            # Four-way corners where the reconstruction kept the other diagonal:
            ("bia", "yao"),
            ("bod", "tun"),
            ("dja", "ndm"),
            ("drf", "kuf"),
            ("equ", "hko"),
            ("man", "snk"),
            ("ndm", "ouh"),
            # Gauteng and KwaZulu-Natal do not border (the map follows the real border), yet
            # their regions meet at the corner where Mpumalanga's and Free State's do
            ("joh", "kzn"),
            ("gam", "gbi"),  # Senegal's Casamance between them is too narrow to draw
            ("kzn", "mcs"),  # the channel's water reaches past Maputo's coast to the Natal shore
            ("mcs", "nmp"),  # the channel's two spaces meet off Nampula's coast
            ("cvs", "nao"),  # at the canvas's west edge, beyond the Canary Sea
            ("jaa", "lys"),  # at the canvas's top edge, the Libyan Sea's water round Anatolia
            ("dam", "lys"),  # the same water, round Cyprus to the Syrian coast's north end
        },
    ),
    "africa_ii": (
        set(),
        {
            # The great lakes, which no space covers: states that share a lake, not a
            # border (docs/variants/africa_ii.md, "The map").
            ("aru", "kam"),  # Lake Victoria: Uganda's shore faces Tanganyika's Arusha
            ("eli", "mbe"),  # Lake Tanganyika: Katanga faces Tanganyika's Mbeya,
            ("eli", "tab"),  # its Tabora
            ("eli", "rua"),  # and Usumbura, at the lake's head
        },
    ),
}


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_neighbours_share_a_border_except_where_listed(name: str) -> None:
    board = load_variant(name).board
    land = territories(board)
    crossings, barriers = EXCEPTIONS[name]
    assert set(land.crossings) == crossings
    assert set(land.barriers) == barriers
    for a in board.provinces:
        for b in board.province_graph[a]:
            if a < b and (a, b) not in crossings:
                assert touching(land.regions[a], land.regions[b]), f"{a}-{b} do not touch"


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_every_exception_is_drawn(variant: Variant) -> None:
    # Any map, listed above or not: the board shows the adjacency exactly.
    land = territories(variant.board)
    svg = html.unescape(draw_board(variant, variant.initial_position(), OBSERVER))
    names = variant.board.provinces
    for a, b in land.crossings:
        assert f"{names[a].name} and {names[b].name} are neighbours" in svg
    for a, b in land.barriers:
        assert f"No passage between {names[a].name} and {names[b].name}" in svg


def test_territories_are_kept_between_runs_and_read_back_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEGEMON_CACHE", str(tmp_path))
    board = load_variant("sub_saharan").board
    derived = territories.__wrapped__(board)  # derived, and written to the store
    (kept,) = tmp_path.glob("*.json")
    again = territories.__wrapped__(board)  # read back
    assert again.crossings == derived.crossings and set(again.barriers) == set(derived.barriers)
    for pid, region in derived.regions.items():
        assert again.regions[pid].equals(region)
    kept.write_text("{not json")  # a damaged store is derived anew, and written over
    assert territories.__wrapped__(board).crossings == derived.crossings
    assert kept.read_text().startswith("{")


def test_rivers_are_drawn_where_fleets_sail_them() -> None:
    # African Riots: a river is a border fleets sail along (its data's [[edges]] tagged
    # "river"); African Diplomacy II: a river is a coast of each province it runs through.
    riots = load_variant("african_riots").board
    regions = territories(riots).regions
    rivers = river_lines(riots).buffer(0.5)
    for pair, tags in riots.edge_tags.items():
        a, b = sorted({province_of(location) for location in pair})
        shared = regions[a].boundary.intersection(regions[b].buffer(0.25))
        if "river" in tags and shared.length > 0:
            assert shared.difference(rivers).length < 1, f"the river between {a} and {b}"
    adii = load_variant("african_diplomacy_ii").board
    rivers = river_lines(adii).buffer(0.5)
    places = board_places(adii).units
    for location in (loc for p in adii.provinces for loc in (p, *adii.locations(p))):
        if "river" in adii.tags_of(location):
            assert rivers.contains(shapely.Point(places[location])), f"{location} off its river"
    for name in ("african_riots", "african_diplomacy_ii"):
        svg = draw_board(load_variant(name), None, OBSERVER)
        assert '<path id="rivers" ' in svg
        assert "navigable river: fleets sail along it" in _legend(svg)
        assert "lake: no space of its own" in _legend(svg)


# --- legibility ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_labels_stay_on_the_map_and_neither_overlap_nor_hide_a_piece(variant: Variant) -> None:
    """The labels are placed once for the map, clear of the centers and of every place a
    unit may stand where the province leaves room; a unit standing on one is drawn over
    it (the labels are laid under the pieces), so no label hides a piece."""
    mid = _mid_game(variant).after if variant.id != "outposts" else variant.initial_position()
    width, height = variant.board.size
    places = board_places(variant.board)
    for position in (variant.initial_position(), mid):
        scene = Scene(variant, position, OBSERVER, ())
        placed = scene.labels()
        assert len(placed) == len(variant.board.provinces)
        for label in placed:  # not over the canvas's edge, nor into the legend under it
            assert within(label.box, (0, 0, width, height)), f"{label.province} off the map"
        for i, one in enumerate(placed):
            for other in placed[i + 1 :]:
                assert not overlaps(one.box, other.box), f"{one.province} over {other.province}"
            for center, xy in places.centers.items():
                marker = disc_box(xy, CENTER_RADIUS)
                assert not overlaps(one.box, marker), f"{one.province}'s label hides {center}"
        svg = draw_board(variant, position, OBSERVER)
        layers = [svg.index(f'<g id="{layer}"') for layer in ("labels", "centers", "units")]
        assert layers == sorted(layers)  # the pieces over the labels


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_every_powers_colour_stands_apart(variant: Variant) -> None:
    colors = {p.name: p.color for p in variant.powers.values()}
    for power, color in colors.items():
        assert difference(color, LAND) >= 15, f"{power} on the land"
        assert difference(color, SEA) >= 15, f"{power} on the sea"
        for line in (BORDER, COAST):
            assert difference(color, line) >= 20, f"{power} against the lines {line}"
        for other, theirs in colors.items():
            if other < power:
                assert difference(color, theirs) >= 25, f"{power} and {other}"


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_every_powers_land_stands_apart_by_its_tint(variant: Variant) -> None:
    # The land a power owns is tinted with its colour: Mozambique's white and the
    # Mahdists' peach as plainly as the others.
    tints = {p.name: tint(p.color) for p in variant.powers.values()}
    for power, shade in tints.items():
        assert difference(shade, LAND) >= TINT_APART, f"{power}'s land looks unowned"
        for other, theirs in tints.items():
            if other < power:
                assert difference(shade, theirs) >= 10, f"{power}'s land and {other}'s"


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_powers_stand_apart_for_colour_blind_players(variant: Variant) -> None:
    # Simulated protanopia and deuteranopia (palette.as_seen): the powers' colours stay
    # plainly apart (ΔE >= 10), as well as their abbreviations on every unit.
    colors = {p.name: p.color for p in variant.powers.values()}
    for blindness in COLOUR_BLINDNESS:
        for power, color in colors.items():
            for other, theirs in colors.items():
                apart = difference(as_seen(color, blindness), as_seen(theirs, blindness))
                assert other >= power or apart >= COLOUR_BLIND_APART, (
                    f"{power}, {other}: {blindness}"
                )


def test_an_unowned_center_is_told_from_an_owned_one_by_its_shape() -> None:
    # Mozambique's centers are near-white (rules 5.6: white): an unowned center has a dark
    # heart that no owner's colour can be taken for.
    variant = load_variant("sub_saharan")
    start = variant.initial_position()
    owners = dict(start.centers)
    lost = sorted(c for c, owner in owners.items() if owner not in variant.powers)[:3]
    for center in lost:
        del owners[center]
    position = start.evolve(centers=owners)
    svg = draw_board(variant, position, OBSERVER)
    markers = re.findall(r'<g class="center">(.*?)</g>', svg)
    hearts = {
        c: m.count('r="1.8"') for c, m in zip(sorted(variant.board.centers), markers, strict=True)
    }
    unowned = variant.board.centers - owners.keys()
    assert lost and {c for c, n in hearts.items() if n} == unowned
    assert "Mozambique" in owners.values()  # whose near-white centers have no heart


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_units_carry_their_powers_abbreviation_for_colour_blind_players(variant: Variant) -> None:
    short = abbreviations(list(variant.powers))
    assert len(set(short.values())) == len(short)
    svg = draw_board(variant, variant.initial_position(), OBSERVER)
    for power in variant.powers.values():
        for unit in power.units:
            group = _unit_group(svg, unit.province)
            assert f">{short[power.name]}</text>" in group
        assert f"{power.name}: " in _legend(svg)


def _unit_group(svg: str, province: str, state: str = "") -> str:
    match = re.search(rf'<g [^>]*class="unit{state}" data-province="{province}">.*?</g>', svg)
    assert match, f"no unit{state} drawn in {province}"
    return match.group(0)


def _legend(svg: str) -> str:
    return html.unescape(svg[svg.index('<g id="legend">') :])


def test_sub_saharan_labels_are_the_rulebooks_abbreviations() -> None:
    # rules 4.1: "AlF", "BOB", "GOA", "SAO", "StH", "WWD" (not capitalised ids)
    svg = draw_board(load_variant("sub_saharan"), None, OBSERVER)
    for label in ("AlF", "BOB", "GOA", "SAO", "StH", "WWD"):
        assert f">{label}</text>" in svg
        assert f'<tspan font-weight="bold">{label}</tspan>' in svg  # and its full name


# --- units and orders -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", _variants(), ids=lambda v: v.id)
def test_every_unit_and_center_stands_inside_its_own_province(variant: Variant) -> None:
    # A unit may stand at any of the board's locations (a split coast's point lies out on
    # the water); a center's marker stands beside its province's point.
    regions = territories(variant.board).regions
    places = board_places(variant.board)
    for location, xy in places.units.items():
        region = regions[province_of(location)]
        assert region.contains(shapely.Point(xy)), f"a unit in {location} stands outside it"
    for center, xy in places.centers.items():
        assert regions[center].contains(shapely.Point(xy)), f"{center}'s center is outside it"
    svg = draw_board(variant, variant.initial_position(), OBSERVER)
    for xy in places.centers.values():
        assert f'cx="{num(xy[0])}" cy="{num(xy[1])}" r="4.6"' in svg  # drawn where placed


def _covered_by_a_dislodged_unit(scene: Scene) -> list[str]:
    """What a dislodged unit's glyph covers: a unit, a center, a label, another one."""
    pieces = {f"unit in {u.location}": glyph_box(scene.locate(u.location)) for u in
              scene.position.units.values()}  # fmt: skip
    pieces |= {f"center {c}": disc_box(xy, CENTER_RADIUS) for c, xy in scene.places.centers.items()}
    pieces |= {f"label {p.province}": p.box for p in scene.labels()}
    waiting = sorted(scene.waiting_places.items())
    pieces |= {f"dislodged in {p}": dislodged_box(xy) for p, xy in waiting}
    return [
        f"dislodged in {province} covers the {what}"
        for province, xy in waiting
        for what, box in pieces.items()
        if what != f"dislodged in {province}" and overlaps(dislodged_box(xy), box)
    ]


@pytest.mark.parametrize("variant", _variants()[:-1], ids=lambda v: v.id)
def test_a_dislodged_unit_covers_no_unit_center_nor_label(variant: Variant) -> None:
    position = _mid_game(variant).after
    assert position.dislodged
    assert _covered_by_a_dislodged_unit(Scene(variant, position, OBSERVER, ())) == []


def test_a_dislodged_army_beside_vienna_covers_neither_its_center_nor_its_army(
    classic: Variant,
) -> None:
    # Italy's army in Tyrolia, dislodged by Austria's from Bohemia, waits beside Tyrolia,
    # whose point lies close to Vienna's center and army.
    start = classic.initial_position().evolve(
        units=units({"Austria": ["A vie", "A boh", "A tri"], "Italy": ["A tyr"]})
    )
    given = orders(classic.board, {"Austria": ["A boh - tyr", "A vie S A boh - tyr"]})
    retreat = play_phase(classic, start, given).after
    assert "tyr" in retreat.dislodged
    assert _covered_by_a_dislodged_unit(Scene(classic, retreat, OBSERVER, ())) == []


def test_a_dislodged_unit_is_drawn_during_its_retreat_phase(classic: Variant) -> None:
    start = classic.initial_position().evolve(
        units=units({"Germany": ["A mun", "A ruh"], "France": ["A bur"]})
    )
    given = orders(classic.board, {"Germany": ["A mun - bur", "A ruh S A mun - bur"]})
    retreat = play_phase(classic, start, given).after
    assert "bur" in retreat.dislodged
    svg = draw_board(classic, retreat, OBSERVER)
    group = _unit_group(svg, "bur", " dislodged")
    assert "<title>France: army in Burgundy dislodged</title>" in group
    assert _unit_group(svg, "bur").count("Germany: army in Burgundy") == 1
    assert "dislodged, to retreat" in _legend(svg)


def test_a_retreat_is_drawn_from_beside_the_province(classic: Variant) -> None:
    start = classic.initial_position().evolve(
        units=units({"Germany": ["A mun", "A ruh"], "France": ["A bur"]})
    )
    given = orders(classic.board, {"Germany": ["A mun - bur", "A ruh S A mun - bur"]})
    retreat = play_phase(classic, start, given).after
    result = play_phase(classic, retreat, orders(classic.board, {"France": ["A bur R par"]}))
    svg = draw_phase(classic, result, OBSERVER)
    drawn = re.search(r'<title>France: A Bur R Par: Succeeds</title>.*?d="M([\d.]+),([\d.]+)L', svg)
    assert drawn, "no retreat arrow"
    x, y = classic.board.provinces["bur"].xy
    start_x, start_y = float(drawn.group(1)), float(drawn.group(2))
    assert start_x > x and start_y < y  # from the dislodged unit, up and to the right


def test_orders_are_drawn_with_their_results(classic: Variant) -> None:
    start = classic.initial_position()
    given = orders(
        classic.board,
        {"France": ["A par - bur", "A mar S A par - bur"], "Germany": ["A mun - bur"],
         "Italy": ["A ven - tri"]},
    )  # fmt: skip
    svg = draw_phase(classic, play_phase(classic, start, given), OBSERVER)
    assert re.search(r'<g class="order succeeds"><title>France: A Par - Bur: Succeeds', svg)
    assert re.search(r'<g class="order fails"><title>Germany: A Mun - Bur: Bounced', svg)
    failed = svg[svg.index("Germany: A Mun - Bur") :].split('<g class="order', 1)[0]
    assert 'stroke-dasharray="7 4"' in failed and "#d7191c" in failed  # dashed, with a cross
    assert re.search(r'<g class="order fails"><title>Italy: A Ven - Tri: Bounced', svg)
    assert "France: A Mar S A Par - Bur: Succeeds" in svg


def test_a_cut_supports_cross_is_on_the_support_not_on_the_move_it_supported(
    classic: Variant,
) -> None:
    # The move succeeds; its support, cut, fails: its cross must not sit on the move's arrow.
    start = classic.initial_position().evolve(
        units=units({"France": ["A par", "A mar"], "Italy": ["A pie"]})
    )
    given = orders(
        classic.board, {"France": ["A par - bur", "A mar S A par - bur"], "Italy": ["A pie - mar"]}
    )
    svg = draw_phase(classic, play_phase(classic, start, given), OBSERVER)
    support = svg[svg.index("France: A Mar S A Par - Bur: Cut") :].split('<g class="order', 1)[0]
    corner = re.search(r'stroke="#d7191c"[^>]*><path d="M([\d.-]+),([\d.-]+)L', support)
    assert corner, support
    cross = (float(corner.group(1)) + 5, float(corner.group(2)) + 5)
    places = board_places(classic.board).units
    assert _distance_to_line(cross, places["par"], places["bur"]) > 15
    assert _distance_to_line(cross, places["mar"], places["bur"]) < 15  # on its own line


def _distance_to_line(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    return shapely.LineString([a, b]).distance(shapely.Point(point))


def test_a_move_between_close_places_keeps_a_visible_arrow(classic: Variant) -> None:
    # Liverpool's and Yorkshire's units stand 17 apart: the arrow still leaves the
    # moving unit's glyph with a shaft of its own.
    start = classic.initial_position().evolve(units=units({"England": ["A lvp"]}))
    svg = draw_phase(
        classic,
        play_phase(classic, start, orders(classic.board, {"England": ["A lvp - yor"]})),
        OBSERVER,
    )
    drawn = re.search(
        r"England: A Lvp - Yor: Succeeds.*?d=\"M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)", svg
    )
    assert drawn
    x1, y1, x2, y2 = (float(v) for v in drawn.groups())
    unit = board_places(classic.board).units["lvp"]
    assert math.dist((x1, y1), unit) >= GLYPH_RADIUS - 0.1  # off the glyph
    assert math.dist((x1, y1), (x2, y2)) >= SHORTEST - 0.1


def test_the_legend_explains_each_kind_of_order_and_lists_the_results(classic: Variant) -> None:
    start = classic.initial_position()
    given = orders(
        classic.board,
        {"France": ["A par - bur", "A mar S A par - bur", "F bre H"], "Germany": ["A mun - bur"]},
    )
    legend = _legend(draw_phase(classic, play_phase(classic, start, given), OBSERVER))
    for meaning in ("move or retreat", "support: ", "hold: ", "order failed"):
        assert meaning in legend
    assert "convoy: " not in legend  # only the kinds the phase has
    assert "A Mun - Bur: Bounced" in legend and "A Par - Bur: Succeeds" in legend


def test_a_failed_order_does_not_look_like_a_border_with_no_passage(classic: Variant) -> None:
    # A light power's failed move: its dark halo is dashed with it, so the map shows
    # between its dashes; a border with no passage is a dark line crossed by ticks.
    given = orders(classic.board, {"France": ["A par - bur"], "Germany": ["A mun - bur"]})
    svg = draw_phase(classic, play_phase(classic, classic.initial_position(), given), OBSERVER)
    failed = svg[svg.index("France: A Par - Bur") :].split('<g class="order', 1)[0]
    assert failed.count(f'stroke-dasharray="{FAILED_DASH}"') == 2  # the halo and the line


def test_sub_saharan_minor_units_are_drawn_as_keeps() -> None:
    # rules 6.0: minor units are stationary, so they have a glyph of their own
    variant = load_variant("sub_saharan")
    svg = draw_board(variant, variant.initial_position(), OBSERVER)
    keep = "-10,8 -10,-9 -6,-9"
    assert keep in _unit_group(svg, "kas")  # a minor's army
    assert keep in _unit_group(svg, "dak")  # a minor's fleet
    assert keep not in _unit_group(svg, "lua")  # Angola's army
    assert "minor power's unit: never moves" in _legend(svg)


# --- Europe 1615's states --------------------------------------------------------------------


@pytest.fixture(scope="module")
def eu() -> Europe1615:
    variant = load_variant("europe_1615")
    assert isinstance(variant, Europe1615)
    return variant


def _after_spring_1615(eu: Europe1615) -> Position:
    # rules: EXAMPLE OF PLAY, Spring 1615
    spec = {
        "Scandinavia": ["10: DUT", "5: MEC", "5: BRU"],
        "England": ["5: DUT", "16: HUN"],
        "Austria": ["14: HUN", "8: POL"],
        "Spain": ["5: MEC", "5: WES"],
    }
    position = eu.initial_position()
    given = {p: [eu.parse_order(t, position.all_units) for t in ts] for p, ts in spec.items()}
    return play_phase(eu, position, given).after


def test_state_status_patron_and_religion_are_drawn(eu: Europe1615) -> None:
    # rules: STATUS, RELIGIOUS STATUS; the example: Hungary ALIGNED with England and
    # Protestant, Mecklenburg NEUTRAL (closed), Poland ALIGNED with Austria.
    after = _after_spring_1615(eu)
    svg = draw_board(eu, after, OBSERVER)
    england = eu.powers["England"].color.lstrip("#")
    assert _shade_on(svg, "hun", f"backhatch-{england}")  # England's lines lean back
    assert _shade_on(svg, "hun", "dots-111111")  # Protestant
    assert _shade_on(svg, "mec", "crosshatch-4d4d4d")  # NEUTRAL: closed
    assert _shade_on(svg, "war", f"hatch-{eu.powers['Austria'].color.lstrip('#')}")
    legend = _legend(svg)
    for meaning in (
        "ALIGNED with England",
        "NEUTRAL: closed to all but its own units",
        "Protestant",
    ):
        assert meaning in legend
    assert "Hungary (Hu): ALIGNED with England; Protestant; shares: Austria 46%, England 53%" in svg


def test_the_legend_explains_the_tags_and_shades_of_the_states(eu: Europe1615) -> None:
    # "Pa C" under Rome's label: the Papal States, Catholic; hatching, cross-hatching, dots.
    svg = draw_board(eu, eu.initial_position(), OBSERVER)
    assert re.search(r'font-style="italic">Pa C</text>', svg)
    legend = _legend(svg)
    assert "religion: C Catholic, P Protestant, I Islamic" in legend
    assert "Pa Papal States" in legend and "Ot Ottoman Empire" in legend
    for shading in ("hatching in a power's colour, ALIGNED", "cross-hatching, NEUTRAL", "dots"):
        assert shading in legend


def _shade_on(svg: str, province: str, pattern: str) -> bool:
    """Whether the province's region is laid with the pattern (the marks use its shape)."""
    assert f'<path id="shape-{province}" ' in svg, province
    marks = re.findall(rf'<g fill="url\(#{pattern}\)">(.*?)</g>', svg)
    return any(f'<use href="#shape-{province}"/>' in laid for laid in marks)


def test_state_units_carry_their_states_label(eu: Europe1615) -> None:
    svg = draw_board(eu, eu.initial_position(), OBSERVER)
    assert ">Sx</text>" in _unit_group(svg, "sax")
    assert ">Ot</text>" in _unit_group(svg, "ser")


def test_a_players_board_carries_no_other_powers_secrets(eu: Europe1615) -> None:
    # rules: STATUS ("The GM keeps the aligned major power for the Ottoman Empire secret"),
    # DIPLOMATIC ATTACK (INF numbers are revealed only where an attack takes place).
    seen = {"own INFs": 0, "patron": 0, "master's INFs": 0}
    aligned_empire = _empire_aligned_with_spain(eu)  # random games rarely align the Empire
    played = [(aligned_empire, play_phase(eu, aligned_empire, {}))]
    for position, result in [*_eu_positions(eu, games=4), *played]:
        ledger = Ledger.of(position)
        patron = ledger.patron(OTTOMAN)
        for power in eu.powers:
            viewer = Viewer(power=power)
            own = {held[power] for held in ledger.inf.values() if held.get(power)}
            for svg in (draw_board(eu, position, viewer), draw_phase(eu, result, viewer)):
                assert not re.search(r"(?<!your )INFs: ", svg), f"{power} reads INF numbers"
                shown = {int(n) for n in re.findall(r"your INFs: (\d+)", svg)}
                assert shown <= own, f"{power} reads INFs that are not its own: {shown - own}"
                seen["own INFs"] += bool(shown)
                aligned = f"Ottoman Empire (Ot): ALIGNED with {patron}"
                if patron is not None and patron != power:
                    assert aligned not in svg, f"{power} reads the Ottoman patron"
                elif patron == power:
                    seen["patron"] += aligned in svg
        if ledger.inf:
            seen["master's INFs"] += "INFs: " in draw_board(eu, position, MASTER)
    assert all(seen.values()), f"a secret is never shown, not even to its owner: {seen}"


def _eu_positions(eu: Europe1615, games: int) -> Iterator[tuple[Position, PhaseResult]]:
    for seed in range(games):
        rng = random.Random(seed)
        position = eu.initial_position()
        for _ in range(12):
            result = play_phase(eu, position, random_orders(eu, position, rng))
            yield position, result
            if result.end:
                break
            position = result.after


def test_an_order_secret_until_the_game_ends_shows_on_its_powers_board_only() -> None:
    # Outposts' objective is kept secret until the game ends (Secrecy.UNTIL_END): the
    # phase's results under the board list it for its own power only, and for everyone
    # once the game is over.
    outposts = load_variant_from(OUTPOSTS)
    order_of_play = ("South", "North", "East")
    lots = play_phase(outposts, outposts.initial_position(), {}, {ORDER_OF_PLAY: order_of_play})
    given = {"South": [Place("for"), Objective("mid")]}
    result = play_phase(outposts, lots.after, given)
    secret = "Objective Mid"
    assert secret in _legend(draw_phase(outposts, result, Viewer(power="South")))
    for viewer in (OBSERVER, Viewer(power="North"), Viewer(power="East")):
        svg = draw_phase(outposts, result, viewer)
        assert secret not in svg and "Place S For" in _legend(svg), viewer
    over = PhaseResult(
        result.before,
        result.orders,
        result.explain,
        result.after,
        end=GameEnd(Termination.LAST_YEAR, draw=order_of_play),
    )
    assert secret in _legend(draw_phase(outposts, over, OBSERVER))


def test_sub_saharan_bids_stay_off_every_board() -> None:
    # rules 8.0: bids are secret; only each minor unit's winning order is public
    variant = load_variant("sub_saharan")
    rng = random.Random(5)
    position = variant.initial_position()
    for _ in range(6):
        given = random_orders(variant, position, rng)
        bids = {o.format() for power_orders in given.values() for o in power_orders}
        bids = {b for b in bids if re.match(r"\d+: ", b)}
        result = play_phase(variant, position, given)
        assert bids or position.phase.kind.code != "M"
        for viewer in (OBSERVER, *(Viewer(power=p) for p in variant.powers)):
            svg = draw_phase(variant, result, viewer)
            assert not [bid for bid in bids if bid in svg], f"{viewer} reads a bid"
        position = result.after


# --- Africa II's states -------------------------------------------------------------------


def test_africa_ii_states_are_drawn_in_their_controllers_colour() -> None:
    # rules a.7, a.11, a.12: who controls each state is public; a state in civil war stands
    variant = load_variant("africa_ii")
    assert isinstance(variant, AfricaII)
    ledger = replace(
        AfricaLedger.of(variant.initial_position()),
        control={"Kenya": "Soviet Union", "Uganda": "France"},
        holdings={"Kenya": {"Soviet Union": 10, "France": 7}, "Uganda": {"France": 3}},
        civil_wars={"Uganda": "United States"},
    )
    svg = draw_board(variant, variant.initial_position().evolve(state=ledger), OBSERVER)
    legend = _legend(svg)
    assert "controlled by Soviet Union" in legend and "controlled by France" in legend
    assert _shade_on(svg, "kam", "crosshatch-4d4d4d")  # the civil war
    assert not _shade_on(svg, "nai", "crosshatch-4d4d4d")
    assert "Kenya: Soviet Union; IPs: France 7, Soviet Union 10" in svg
    assert ">Ken</text>" in _unit_group(svg, "nai")
    assert ">RSA</text>" in _unit_group(svg, "win")  # Namibia is the RSA's at the start


def test_africa_ii_intervention_units_are_told_apart_on_the_board() -> None:
    # rules b.1: paratroops, marines and guerillas all drawn as discs, each with its letter
    variant = load_variant("africa_ii")
    position = variant.initial_position()
    brought = [
        ("Britain", "P", "ofs"), ("France", "M", "lom"), ("China", "G", "kal"),
    ]  # fmt: skip
    for power, letter, province in brought:
        position = position.placed(read_unit(variant.board, power, f"{letter} {province}"))
    svg = draw_board(variant, position, OBSERVER)
    assert ">PBr</text>" in _unit_group(svg, "ofs")
    assert ">MFr</text>" in _unit_group(svg, "lom")
    assert ">GCh</text>" in _unit_group(svg, "kal")
    legend = _legend(svg)
    assert all(f">{kind}</text>" in legend for kind in ("paratroop", "marine", "guerilla"))


# --- output ---------------------------------------------------------------------------------


def test_png_is_rendered_with_the_boards_size(classic: Variant) -> None:
    image = png_of(board_scene(classic, classic.initial_position(), OBSERVER))
    assert image.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(image[16:20], "big")
    assert width == int(classic.board.size[0] * png_module.ZOOM)


def test_a_wide_boards_png_is_drawn_no_wider_than_forums_take() -> None:
    riots = load_variant("african_riots")  # 1610 units wide: 2415 pixels at the usual zoom
    image = png_of(board_scene(riots, None, OBSERVER))
    assert int.from_bytes(image[16:20], "big") == png_module.WIDEST


def test_png_without_any_font_is_refused_with_the_reason(
    classic: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(png_module, "FONT_FOLDERS", ())
    with pytest.raises(PngError, match="no font found"):
        png_of(board_scene(classic, None, OBSERVER))
