"""Territories for maps that have only a point per province: regions derived from the
points, the adjacency and, where the data places the canvas on the globe, the coast.

Each province claims the space nearest to its *star*: its point and the half of every
line to a neighbour, sampled densely (a Voronoi diagram of the samples, each cell going
to the province whose star it sampled). Two neighbours' stars meet at the middle of the
line between them, so their regions touch there, unless water or another region lies
across it; non-neighbours' stars never meet, so their regions touch only where nothing
lies between them. Land provinces divide the land among themselves and seas the water;
the land is the real coast's where the map says where it lies (`Board.geo`), else the
union of the land provinces' own cells. A province reaches no further than a few
neighbours' distances from its star, so land no space covers (the Sahara, Arabia) stays
unclaimed, as the rules of both African variants want it.

What the drawing cannot make touch, or keep apart, it reports: `crossings` are
neighbours whose regions do not touch (straits, islands), drawn as lines across the
water; `barriers` are borders between regions whose provinces are not neighbours, drawn
as impassable borders. Either way the board shows the adjacency exactly.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, NamedTuple

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import Board, Province, Terrain
from hegemon.render import coast, stored
from hegemon.render.svg import area_path, line_path

SAMPLE_STEP = 6.0  # canvas units between samples along a star's arms
GRID = 0.01  # the precision of the regions' coordinates, in canvas units
TOUCH = 2.0  # the length of shared border that makes two regions touch, in canvas units
BORDER_WIDTH = 0.25  # how near a region's outline lies to a border it shares, likewise
_REACH = 1.4  # how far a land region reaches from its star, in typical neighbour distances
_SEA_REACH = 2.5  # and a sea's
_JITTER = (0.0, 0.013, -0.021, 0.008, -0.005, 0.017, -0.011)  # canvas units
_STRAIT = 2  # samples of water a land arm crosses (the Bosporus), or of land a sea's arm
_SHORE = 0.12  # the strip of shore an inland province leaves to its coastal neighbours
_SMALL_ISLAND = 0.5  # an island any nearby province may hold, in neighbour distances across
_DISPUTED = 0.3  # a third point this much nearer than its ends' stops an arm
_SMOOTH = 6.0  # how much of a border's detail smoothing drops (the sides of its triangles)
_WHOLE_ISLAND = 2.0  # the largest island a region partly claims and is given whole, across
_OFFSHORE = 0.2  # how far off its coast an island may lie, in neighbour distances
_ISLAND = 0.3  # an island's radius where the coast has no land under a point, likewise


@dataclass(frozen=True, eq=False)
class Territories:
    """A board's regions, in canvas coordinates."""

    regions: Mapping[str, BaseGeometry]  # by province
    land: BaseGeometry  # all land drawn, claimed or not
    lakes: BaseGeometry  # drawn over the land, belonging to the spaces around them
    unclaimed: BaseGeometry  # land no province covers: impassable
    crossings: tuple[tuple[str, str], ...]  # neighbours whose regions do not touch
    barriers: Mapping[tuple[str, str], BaseGeometry]  # shared borders of non-neighbours

    @cached_property
    def paths(self) -> Mapping[str, str]:
        """Each region as SVG path data, written once: a board draws them every time."""
        return {province: area_path(region) for province, region in self.regions.items()}

    @cached_property
    def barrier_paths(self) -> Mapping[tuple[str, str], str]:
        return {pair: line_path(shared) for pair, shared in self.barriers.items()}

    @cached_property
    def outline_paths(self) -> tuple[str, str, str]:
        """The land, the lakes and the unclaimed land, as SVG path data."""
        return area_path(self.land), area_path(self.lakes), area_path(self.unclaimed)


@cache
def territories(board: Board) -> Territories:
    """The territories of a board: derived once, and kept on disk for the next run
    (`hegemon.render.stored`)."""
    name = stored.digest(board, [*stored.SOURCES, Path(__file__)])
    data = stored.load(name)
    regions = None if data is None else data.get("regions")
    if data is not None and isinstance(regions, dict) and set(regions) == set(board.provinces):
        return _from_stored(data)
    derived = derive(board)
    stored.save(name, _to_stored(derived))
    return derived


def _to_stored(land: Territories) -> dict[str, object]:
    text = stored.geometry_to_text
    return {
        "regions": {pid: text(region) for pid, region in land.regions.items()},
        "land": text(land.land),
        "lakes": text(land.lakes),
        "unclaimed": text(land.unclaimed),
        "crossings": [list(pair) for pair in land.crossings],
        "barriers": [[a, b, text(shared)] for (a, b), shared in land.barriers.items()],
    }


def _from_stored(data: Mapping[str, Any]) -> Territories:
    """Territories as `_to_stored` wrote them. (Any: this program's own cache, whose shape
    its format and digest stand for: `stored.digest`.)"""
    read = stored.geometry_from_text
    return Territories(
        regions={pid: read(region) for pid, region in data["regions"].items()},
        land=read(data["land"]),
        lakes=read(data["lakes"]),
        unclaimed=read(data["unclaimed"]),
        crossings=tuple((a, b) for a, b in data["crossings"]),
        barriers={(a, b): read(shared) for a, b, shared in data["barriers"]},
    )


@cache
def border_paths(board: Board) -> tuple[str, str]:
    """The borders between land regions, and between seas, as SVG path data: each drawn
    once (each region's own outline would draw a shared border twice, and the shore
    over again, which a board draws apart)."""
    regions = territories(board).regions
    land, seas = (
        _shared_edges([r for pid, r in regions.items() if board.provinces[pid].is_sea == sea])
        for sea in (False, True)
    )
    return line_path(land), line_path(seas)


def _shared_edges(regions: list[BaseGeometry]) -> BaseGeometry:
    """The edges two of the regions share: the regions match edge for edge (a coverage),
    so a shared edge is one that two of their rings run along."""
    counts: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    for region in regions:
        for polygon in shapely.get_parts(region):
            for ring in (polygon.exterior, *polygon.interiors):
                points = [(x, y) for x, y in shapely.get_coordinates(ring).tolist()]
                for a, b in itertools.pairwise(points):
                    edge = (a, b) if a <= b else (b, a)
                    counts[edge] = counts.get(edge, 0) + 1
    shared = [edge for edge, count in counts.items() if count > 1]
    return shapely.line_merge(shapely.MultiLineString(shared)) if shared else shapely.Point()


def derive(board: Board) -> Territories:
    """The territories of a board, worked out from its data and the coast."""
    width, height = board.size
    canvas = shapely.box(0, 0, width, height)
    spacing = _typical_spacing(board)
    if board.geo is not None:
        land, lakes = coast.land(board.geo, board.size), coast.lakes(board.geo, board.size)
        land, lakes, lake_seas = _with_sea_lakes(board, land, lakes)
    else:
        land, lakes, lake_seas = _land_of_cells(board, canvas), shapely.Polygon(), frozenset()
    known = board.geo is not None
    coasts = frozenset(p.id for p in board.provinces.values() if not p.is_sea)
    regions = _partition(board, False, land, spacing, canvas, known, lake_seas)
    regions = _whole_islands(regions, land, (spacing * _WHOLE_ISLAND) ** 2)
    regions = _inland_off_the_shore(board, regions, canvas - land, _SHORE * spacing)
    regions |= _partition(board, True, canvas - land, spacing, canvas, known, coasts)
    regions = _without_stray_pieces(board, _with_islands(board, regions, _ISLAND * spacing))
    regions = _smoothed(board, {pid: polygonal(region) for pid, region in regions.items()})
    claimed = shapely.union_all(
        [r for pid, r in regions.items() if not board.provinces[pid].is_sea]
    )
    sailed = shapely.union_all([r for pid, r in regions.items() if board.provinces[pid].is_sea])
    return Territories(
        regions=regions,
        land=(land | claimed) - sailed,
        lakes=lakes & claimed,
        unclaimed=land - claimed - sailed,
        crossings=tuple(_crossings(board, regions)),
        barriers=dict(_barriers(board, regions)),
    )


def _whole_islands(
    regions: dict[str, BaseGeometry], land: BaseGeometry, largest: float
) -> dict[str, BaseGeometry]:
    """An island no larger than `largest` that one region claims only in part (the
    rest beyond its reach) is that region's whole: Sicily, Naples's."""
    ids = list(regions)
    tree = shapely.STRtree([regions[pid] for pid in ids])
    rests: dict[str, list[BaseGeometry]] = {}
    for island in shapely.get_parts(land):
        if island.area > largest:
            continue
        shares = {
            ids[i]: regions[ids[i]].intersection(island).area
            for i in tree.query(island, predicate="intersects")
        }
        holders = [pid for pid, share in shares.items() if share > 0]
        if len(holders) == 1 and shares[holders[0]] < island.area - TOUCH:
            rests.setdefault(holders[0], []).append(island)
    whole = dict(regions)
    for pid, islands in rests.items():
        whole[pid] = polygonal(shapely.union_all([regions[pid], *islands], grid_size=GRID))
    return whole


def _with_sea_lakes(
    board: Board, land: BaseGeometry, lakes: BaseGeometry
) -> tuple[BaseGeometry, BaseGeometry, frozenset[str]]:
    """A lake that holds a sea's point is that sea's water (Lake Victoria's spaces, the
    Caspian): taken out of the land, and out of the lakes drawn on it. With the seas
    that lie on lakes."""
    seas = {p.id: shapely.Point(p.xy) for p in board.provinces.values() if p.is_sea}
    on_lakes = {pid for pid, sea in seas.items() if lakes.contains(sea)}
    sailed = [
        lake for lake in shapely.get_parts(lakes) if any(lake.contains(s) for s in seas.values())
    ]
    if not sailed:
        return land, lakes, frozenset()
    water = shapely.union_all(sailed)
    return polygonal(land - water), polygonal(lakes - water), frozenset(on_lakes)


def _smoothed(board: Board, regions: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """The borders between land regions, and between seas, smoothed: where two arms run
    side by side, the Voronoi diagram of their samples draws a saw's teeth between them.
    The shore stays as the coast data draws it."""
    smoothed = _coverage(regions)
    for seas in (False, True):
        ids = [pid for pid in smoothed if board.provinces[pid].is_sea == seas]
        parts = shapely.coverage_simplify(
            [smoothed[pid] for pid in ids], _SMOOTH, simplify_boundary=False
        )
        smoothed.update(zip(ids, parts, strict=True))
    return smoothed


def _coverage(regions: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """The regions remade from the faces their borders cut the plane into, so that two
    regions share each border point for point and never overlap (a face two regions
    claim goes to the first), as smoothing them together needs."""
    ids = list(regions)
    borders = shapely.union_all([regions[pid].boundary for pid in ids], grid_size=GRID)
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(borders)))
    middles = [face.representative_point() for face in faces]
    tree = shapely.STRtree([regions[pid] for pid in ids])
    owned: dict[str, list[BaseGeometry]] = {pid: [] for pid in ids}
    for face, middle in zip(faces, middles, strict=True):
        holders = tree.query(middle, predicate="within")
        if len(holders):
            owned[ids[min(holders)]].append(face)
    return {
        pid: shapely.coverage_union_all(parts) if parts else shapely.Polygon()
        for pid, parts in owned.items()
    }


def touching(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether two regions share a stretch of border, not just a point."""
    return bool(a.boundary.intersection(b.buffer(BORDER_WIDTH)).length > TOUCH)


def _typical_spacing(board: Board) -> float:
    """The median distance from a province's point to its nearest neighbour's."""
    nearest = []
    for province in board.provinces.values():
        others = [board.provinces[n].xy for n in board.province_graph[province.id]]
        if others:
            nearest.append(min(_distance(province.xy, xy) for xy in others))
    return statistics.median(nearest) if nearest else min(board.size) / 10


class Arm(NamedTuple):
    end: tuple[float, float]
    across: bool  # toward a neighbour of the other realm: it crosses the shore
    toward: str  # the neighbour, or "" toward one of the province's own split coasts


class Realm(NamedTuple):
    """The points of the provinces that divide one domain (the land, or the water)."""

    ids: list[str]
    points: shapely.STRtree


def _arms(board: Board, province: Province, to_shore: frozenset[str]) -> list[Arm]:
    """Where the arms of a province's star end: halfway to each neighbour, or all the way
    to a neighbour `to_shore` of the other realm (land to sea, sea to land), as the arm
    stops at the shore: a sea's, to claim the water in front of the coast it washes; a
    coast's to a lake, which is small beside the distances between points; and to each
    of its own split coasts."""
    x, y = province.xy
    arms = [
        Arm(board.coast_xy[c], False, "")
        for c in board.locations(province.id)
        if c in board.coast_xy
    ]
    for neighbour in sorted(board.province_graph[province.id]):
        other = board.provinces[neighbour]
        nx, ny = other.xy
        across = other.is_sea != province.is_sea
        reach = 1.0 if across and neighbour in to_shore else 0.5
        arms.append(Arm((x + (nx - x) * reach, y + (ny - y) * reach), across, neighbour))
    return arms


def _star(
    board: Board,
    province: Province,
    to_shore: frozenset[str],
    realm: Realm,
    domain: BaseGeometry | None,
) -> list[list[tuple[float, float]]]:
    """The province's point, then the samples of each of its star's arms, kept inside
    the domain (the land, or the water) if it is known: an arm across the shore stops
    there, or it would claim the far side of a sea or of a peninsula; an arm to a
    neighbour of its own realm goes on across a strait, to claim the far shore of the
    Bosporus, but not across a sea, nor, on land, past a third province's point (see
    `_undisputed`)."""
    x, y = province.xy
    arms = [[(x, y)]]
    for (ex, ey), across, toward in _arms(board, province, to_shore):
        steps = max(2, int(_distance((x, y), (ex, ey)) // SAMPLE_STEP))
        arm = [(x + (ex - x) * i / steps, y + (ey - y) * i / steps) for i in range(1, steps)]
        if toward and arm and not across and not province.is_sea:
            arm = arm[: _undisputed(arm, (province, board.provinces[toward]), realm)]
        if domain is not None and arm:
            inside = list(shapely.contains_xy(domain, *zip(*arm, strict=True)))
            end = _shore_of(inside, 0 if across else _STRAIT)
            arm = [xy for xy, ok in zip(arm[:end], inside[:end], strict=True) if ok]
        if arm:
            arms.append(arm)
    return arms


def _undisputed(
    arm: list[tuple[float, float]], ends: tuple[Province, Province], realm: Realm
) -> int:
    """How far an arm between two provinces of one realm goes: up to the first sample
    much nearer to a third province's point than to theirs. Such an arm would claim that
    province's heartland (Norway's to St Petersburg, over Sweden's north)."""
    ids = {end.id for end in ends}
    (_, nearest), distances = realm.points.query_nearest(
        shapely.points(arm), return_distance=True, all_matches=False
    )
    for i, (index, distance) in enumerate(zip(nearest, distances, strict=True)):
        own = min(_distance(arm[i], end.xy) for end in ends)
        if realm.ids[index] not in ids and distance < _DISPUTED * own:
            return i
    return len(arm)


def _shore_of(inside: list[bool], strait: int) -> int:
    """How far an arm goes: up to the first run of more than `strait` samples outside
    its domain (a strait is crossed, a sea is not)."""
    run = 0
    for i, ok in enumerate(inside):
        run = 0 if ok else run + 1
        if run > strait:
            return i - run + 1
    return len(inside)


def _cells(
    owners: list[str], samples: list[tuple[float, float]], canvas: BaseGeometry
) -> dict[str, BaseGeometry]:
    """The Voronoi cells of the samples, united by the province each sample belongs to."""
    # A star's samples lie in a line, which GEOS's Voronoi diagram mishandles now and then
    # (self-intersecting cells): a tiny, fixed jitter breaks the lines.
    jittered = [(x + _JITTER[i % 7], y + _JITTER[i % 5]) for i, (x, y) in enumerate(samples)]
    cells = shapely.voronoi_polygons(shapely.MultiPoint(jittered), extend_to=canvas, ordered=True)
    grouped: dict[str, list[BaseGeometry]] = {}
    for owner, cell in zip(owners, shapely.get_parts(cells), strict=True):
        grouped.setdefault(owner, []).append(shapely.make_valid(cell))
    # United on a fine grid: the cells' shared edges match to rounding only.
    return {
        owner: shapely.union_all(parts, grid_size=GRID) & canvas for owner, parts in grouped.items()
    }


def _voronoi(
    board: Board,
    provinces: list[Province],
    to_shore: frozenset[str],
    canvas: BaseGeometry,
    domain: BaseGeometry | None = None,
) -> tuple[dict[str, BaseGeometry], dict[str, BaseGeometry]]:
    """Each province's share of the plane (the cells of its star's samples), and its
    star as lines."""
    realms = {
        seas: Realm(
            [p.id for p in provinces if p.is_sea == seas],
            shapely.STRtree([shapely.Point(p.xy) for p in provinces if p.is_sea == seas]),
        )
        for seas in (False, True)
    }
    stars = {p.id: _star(board, p, to_shore, realms[p.is_sea], domain) for p in provinces}
    samples = {pid: [xy for arm in star for xy in arm] for pid, star in stars.items()}
    owners = [pid for pid, star in samples.items() for _ in star]
    cells = _cells(owners, [xy for star in samples.values() for xy in star], canvas)
    lines = {pid: _star_lines(star) for pid, star in stars.items()}
    return cells, lines


def _star_lines(star: list[list[tuple[float, float]]]) -> BaseGeometry:
    """The star as lines from its point to each arm's last sample."""
    (center,), *arms = star
    return (
        shapely.MultiLineString([[center, arm[-1]] for arm in arms])
        if arms
        else shapely.Point(center)
    )


def _land_of_cells(board: Board, canvas: BaseGeometry) -> BaseGeometry:
    """Without a real coast: the land is where land provinces' stars are nearest."""
    cells, _ = _voronoi(board, list(board.provinces.values()), frozenset(), canvas)
    return shapely.union_all([c for pid, c in cells.items() if not board.provinces[pid].is_sea])


def _partition(
    board: Board,
    seas: bool,
    domain: BaseGeometry,
    spacing: float,
    canvas: BaseGeometry,
    known: bool,
    to_shore: frozenset[str],
) -> dict[str, BaseGeometry]:
    """The domain (the water for the seas, else the land) divided among its provinces,
    each within reach of its star (see `_near`); `spacing` is the typical distance
    between neighbours' points; `known` if the domain is
    the real coast's, so that stars stop at its shore; arms go all the way to the
    neighbours `to_shore` (see `_arms`)."""
    realm = [p for p in board.provinces.values() if p.is_sea == seas]
    if not realm:
        return {}
    shapely.prepare(domain)
    cells, stars = _voronoi(board, realm, to_shore, canvas, domain if known else None)
    reach = (_SEA_REACH if seas else _REACH) * spacing
    held: dict[str, list[BaseGeometry]] = {}
    orphans: list[tuple[str, BaseGeometry]] = []
    for province in realm:
        near = _near(board, province, stars[province.id], reach, domain if known else None)
        here = shapely.Point(province.xy)
        held[province.id] = []
        for piece in shapely.get_parts(cells[province.id] & domain & near):
            if piece.area <= 0:
                continue
            if piece.intersects(stars[province.id]) or piece.contains(here):
                held[province.id].append(piece)
            else:
                orphans.append((province.id, piece))
    regions = {pid: shapely.union_all(parts) for pid, parts in held.items()}
    return _adopt(regions, orphans, (spacing * _SMALL_ISLAND) ** 2, spacing * _OFFSHORE)


def _near(
    board: Board,
    province: Province,
    star: BaseGeometry,
    reach: float,
    domain: BaseGeometry | None,
) -> BaseGeometry:
    """Where a province's region may reach: within `reach` of its star and of the lines
    to its neighbours; a land province's line to a sea only as far as the first shore
    (the domain's, if known), so that Iran does not reach round the Caspian."""
    lines = [star]
    for neighbour in sorted(board.province_graph[province.id]):
        end = board.provinces[neighbour].xy
        if domain is not None and board.provinces[neighbour].is_sea and not province.is_sea:
            end = _shore_toward(province.xy, end, domain)
        lines.append(shapely.LineString([province.xy, end]))
    return shapely.union_all(lines).buffer(reach, quad_segs=4)


def _shore_toward(
    start: tuple[float, float], end: tuple[float, float], land: BaseGeometry
) -> tuple[float, float]:
    """Where the straight way from `start` toward `end` first leaves the land."""
    (x, y), (ex, ey) = start, end
    steps = max(2, int(_distance(start, end) // SAMPLE_STEP))
    way = [(x + (ex - x) * i / steps, y + (ey - y) * i / steps) for i in range(steps + 1)]
    inside = list(shapely.contains_xy(land, *zip(*way, strict=True)))
    return way[max(0, _shore_of(inside, 0) - 1)]


def _adopt(
    regions: dict[str, BaseGeometry],
    orphans: list[tuple[str, BaseGeometry]],
    island: float,
    offshore: float,
) -> dict[str, BaseGeometry]:
    """Pieces no star reaches: a piece bordering other regions goes to the one it borders
    most (the tip of a peninsula nearer another province's point than its own); a small
    island (smaller than `island`) to the region it lies off, if no further than `offshore`
    (Sicily to Naples); a land mass only nearness would give away (Ireland to Liverpool,
    Corsica to Tuscany on the standard map) stays unclaimed."""
    ids = list(regions)
    tree = shapely.STRtree([regions[pid] for pid in ids])
    adopted: dict[str, list[BaseGeometry]] = {pid: [r] for pid, r in regions.items()}
    for _, piece in orphans:
        around = piece.buffer(BORDER_WIDTH)
        borders = {
            ids[i]: piece.boundary.intersection(regions[ids[i]].buffer(BORDER_WIDTH)).length
            for i in tree.query(around, predicate="intersects")
        }
        best = max(borders, key=lambda pid: borders[pid], default=None)
        if best is not None and borders[best] > TOUCH:
            adopted[best].append(piece)
        elif piece.area < island:
            nearest = tree.query_nearest(piece, max_distance=offshore)
            if len(nearest):
                adopted[ids[nearest[0]]].append(piece)
    return {
        pid: polygonal(shapely.union_all(parts, grid_size=GRID)) for pid, parts in adopted.items()
    }


def _inland_off_the_shore(
    board: Board, regions: dict[str, BaseGeometry], water: BaseGeometry, width: float
) -> dict[str, BaseGeometry]:
    """An inland province (kind "land") never touches the sea: where its region reaches
    the shore, a strip along it goes to the coastal neighbour bordering that stretch
    most (Ethiopia's highlands stop short of the Red Sea, which Suakin's coast holds)."""
    shore = water.buffer(width, quad_segs=4)
    updated = dict(regions)
    for province in board.provinces.values():
        if province.terrain is not Terrain.LAND or not regions[province.id].intersects(shore):
            continue
        coastal = [
            n
            for n in board.province_graph[province.id]
            if board.provinces[n].terrain is Terrain.COAST
        ]
        if not coastal:
            continue
        strip = updated[province.id] & shore
        updated[province.id] = polygonal(updated[province.id] - shore)
        for piece in shapely.get_parts(polygonal(strip)):
            around = piece.buffer(BORDER_WIDTH)
            taker = max(coastal, key=lambda n: around.intersection(updated[n].boundary).length)
            updated[taker] = polygonal(shapely.union_all([updated[taker], piece], grid_size=GRID))
    return updated


def polygonal(geometry: BaseGeometry) -> BaseGeometry:
    """The areas of a geometry, without the lines and points that cutting one shape by
    another may leave (a region is an area: its border must be one)."""
    parts: list[BaseGeometry] = [p for p in shapely.get_parts(geometry) if p.area > 0]
    if len(parts) == 1 and parts[0].geom_type in ("Polygon", "MultiPolygon"):
        return parts[0]
    flat = [q for p in parts for q in shapely.get_parts(p) if q.geom_type == "Polygon"]
    return shapely.union_all(flat, grid_size=GRID) if flat else shapely.Polygon()


def _with_islands(
    board: Board, regions: dict[str, BaseGeometry], radius: float
) -> dict[str, BaseGeometry]:
    """A province the coast leaves without room under its point, or with too little to
    see (a small island such as St. Helena, a lake the coast data draws smaller than the
    map's space on it, such as Lake Chad), is drawn as a disc there, cut out of the
    regions around it."""
    islands = {}
    for pid, region in regions.items():
        disc = shapely.Point(board.provinces[pid].xy).buffer(radius)
        if region.area < disc.area / 4 or not region.buffer(0.5).contains(
            shapely.Point(board.provinces[pid].xy)
        ):
            islands[pid] = disc
    if not islands:
        return regions
    cut = shapely.union_all(list(islands.values()))
    updated = {
        pid: (region - cut if pid not in islands else region) for pid, region in regions.items()
    }
    for pid, disc in islands.items():
        updated[pid] = regions[pid] | disc
    return updated


def _without_stray_pieces(
    board: Board, regions: dict[str, BaseGeometry]
) -> dict[str, BaseGeometry]:
    """A piece of a region away from its province's point (an island, a cape) that
    borders a province which is not a neighbour is left unclaimed: a false border on
    the board would mislead more than a gap."""
    ids = list(regions)
    tree = shapely.STRtree([regions[pid] for pid in ids])
    cleaned = {}
    for pid, region in regions.items():
        pieces = shapely.get_parts(region)
        if len(pieces) < 2:
            cleaned[pid] = region
            continue
        here = shapely.Point(board.provinces[pid].xy).buffer(1.0)
        neighbours = board.province_graph[pid] | {pid}
        kept = []
        for piece in pieces:
            touched = {
                ids[i] for i in tree.query(piece.buffer(BORDER_WIDTH), predicate="intersects")
            }
            strays = [other for other in touched - neighbours if touching(piece, regions[other])]
            if piece.intersects(here) or not strays:
                kept.append(piece)
        cleaned[pid] = shapely.union_all(kept) if kept else region
    return cleaned


def _crossings(board: Board, regions: Mapping[str, BaseGeometry]) -> Iterator[tuple[str, str]]:
    for a in sorted(board.province_graph):
        for b in sorted(board.province_graph[a]):
            if a < b and not touching(regions[a], regions[b]):
                yield a, b


def _barriers(
    board: Board, regions: Mapping[str, BaseGeometry]
) -> Iterator[tuple[tuple[str, str], BaseGeometry]]:
    tree = shapely.STRtree(list(regions.values()))
    ids = list(regions)
    for i, j in zip(*tree.query(list(regions.values()), predicate="intersects"), strict=True):
        a, b = ids[i], ids[j]
        if a < b and b not in board.province_graph[a]:
            shared = regions[a].boundary.intersection(regions[b].buffer(BORDER_WIDTH))
            if shared.length > TOUCH:
                yield (a, b), shared


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
