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

import statistics
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import Board, Province, Terrain
from hegemon.render import coast, stored
from hegemon.render.svg import area_path, line_path

SAMPLE_STEP = 6.0  # canvas units between samples along a star's arms
GRID = 0.01  # the precision of the regions' coordinates, in canvas units
TOUCH = 2.0  # the length of shared border that makes two regions touch, in canvas units
_REACH = 1.25  # how far a land region reaches from its star, in typical neighbour distances
_SEA_REACH = 2.5  # and a sea's
_JITTER = (0.0, 0.013, -0.021, 0.008, -0.005, 0.017, -0.011)  # canvas units
_STRAIT = 2  # samples of water a land arm crosses (the Bosporus), or of land a sea's arm
_SHORE = 0.12  # the strip of shore an inland province leaves to its coastal neighbours
_SMALL_ISLAND = 0.5  # an island any nearby province may hold, in neighbour distances across
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
    if data is not None and set(data.get("regions", ())) == set(board.provinces):
        return _from_stored(data)
    derived = derive(board)
    stored.save(name, _to_stored(derived))
    return derived


def _to_stored(land: Territories) -> dict[str, Any]:
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
    read = stored.geometry_from_text
    return Territories(
        regions={pid: read(region) for pid, region in data["regions"].items()},
        land=read(data["land"]),
        lakes=read(data["lakes"]),
        unclaimed=read(data["unclaimed"]),
        crossings=tuple((a, b) for a, b in data["crossings"]),
        barriers={(a, b): read(shared) for a, b, shared in data["barriers"]},
    )


def derive(board: Board) -> Territories:
    """The territories of a board, worked out from its data and the coast."""
    width, height = board.size
    canvas = shapely.box(0, 0, width, height)
    spacing = _typical_spacing(board)
    if board.geo is not None:
        land, lakes = coast.land(board.geo, board.size), coast.lakes(board.geo, board.size)
    else:
        land, lakes = _land_of_cells(board, canvas), shapely.Polygon()
    known = board.geo is not None
    regions = _partition(board, False, land, _REACH * spacing, canvas, known)
    regions = _inland_off_the_shore(board, regions, canvas - land, _SHORE * spacing)
    regions |= _partition(board, True, canvas - land, _SEA_REACH * spacing, canvas, known)
    regions = _without_stray_pieces(board, _with_islands(board, regions, _ISLAND * spacing))
    regions = {pid: polygonal(region) for pid, region in regions.items()}
    claimed = shapely.union_all(
        [r for pid, r in regions.items() if not board.provinces[pid].is_sea]
    )
    return Territories(
        regions=regions,
        land=land | claimed,
        lakes=lakes & claimed,
        unclaimed=land - claimed,
        crossings=tuple(_crossings(board, regions)),
        barriers=dict(_barriers(board, regions)),
    )


def touching(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether two regions share a stretch of border, not just a point."""
    return bool(a.boundary.intersection(b.buffer(0.25)).length > TOUCH)


def _typical_spacing(board: Board) -> float:
    """The median distance from a province's point to its nearest neighbour's."""
    nearest = []
    for province in board.provinces.values():
        others = [board.provinces[n].xy for n in board.province_graph[province.id]]
        if others:
            nearest.append(min(_distance(province.xy, xy) for xy in others))
    return statistics.median(nearest) if nearest else min(board.size) / 10


Arm = tuple[tuple[float, float], bool]  # where an arm ends, and whether it crosses realms


def _arms(board: Board, province: Province, onto_coasts: bool) -> list[Arm]:
    """Where the arms of a province's star end: halfway to each neighbour, or, for a sea
    dividing the water `onto_coasts`, all the way to each coast it washes, so that it
    claims the water in front of that coast; and to each of its own split coasts. An arm
    to a neighbour of the other realm (land to sea, sea to land) crosses the shore."""
    x, y = province.xy
    arms = [(board.coast_xy[c], False) for c in board.locations(province.id) if c in board.coast_xy]
    for neighbour in sorted(board.province_graph[province.id]):
        other = board.provinces[neighbour]
        nx, ny = other.xy
        across = other.is_sea != province.is_sea
        reach = 1.0 if onto_coasts and province.is_sea and across else 0.5
        arms.append(((x + (nx - x) * reach, y + (ny - y) * reach), across))
    return arms


def _star(
    board: Board, province: Province, onto_coasts: bool, domain: BaseGeometry | None
) -> list[tuple[float, float]]:
    """Samples of a province's point and of its star's arms, kept inside the domain (the
    land, or the water) if it is known: an arm across the shore stops there, or it would
    claim the far side of a sea or of a peninsula; an arm to a neighbour of its own realm
    goes on across a strait, to claim the far shore of the Bosporus, but not across a sea."""
    x, y = province.xy
    samples = [(x, y)]
    for (ex, ey), across in _arms(board, province, onto_coasts):
        steps = max(2, int(_distance((x, y), (ex, ey)) // SAMPLE_STEP))
        arm = [(x + (ex - x) * i / steps, y + (ey - y) * i / steps) for i in range(1, steps)]
        if domain is not None and arm:
            inside = list(shapely.contains_xy(domain, *zip(*arm, strict=True)))
            end = _shore_of(inside, 0 if across else _STRAIT)
            arm = [xy for xy, ok in zip(arm[:end], inside[:end], strict=True) if ok]
        samples += arm
    return samples


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
    onto_coasts: bool,
    canvas: BaseGeometry,
    domain: BaseGeometry | None = None,
) -> tuple[dict[str, BaseGeometry], dict[str, BaseGeometry]]:
    """Each province's share of the plane (the cells of its star's samples), and its
    star as lines."""
    stars = {p.id: _star(board, p, onto_coasts, domain) for p in provinces}
    owners = [pid for pid, star in stars.items() for _ in star]
    cells = _cells(owners, [xy for star in stars.values() for xy in star], canvas)
    lines = {pid: _star_lines(board.provinces[pid].xy, star) for pid, star in stars.items()}
    return cells, lines


def _star_lines(center: tuple[float, float], star: list[tuple[float, float]]) -> BaseGeometry:
    """The star as lines from its point through its samples' ends."""
    return (
        shapely.MultiLineString([[center, xy] for xy in star[1:]])
        if len(star) > 1
        else (shapely.Point(center))
    )


def _land_of_cells(board: Board, canvas: BaseGeometry) -> BaseGeometry:
    """Without a real coast: the land is where land provinces' stars are nearest."""
    cells, _ = _voronoi(board, list(board.provinces.values()), False, canvas)
    return shapely.union_all([c for pid, c in cells.items() if not board.provinces[pid].is_sea])


def _partition(
    board: Board,
    seas: bool,
    domain: BaseGeometry,
    reach: float,
    canvas: BaseGeometry,
    known: bool,
) -> dict[str, BaseGeometry]:
    """The domain (the water for the seas, else the land) divided among its provinces,
    each within reach of its star and of the seas it touches; `known` if the domain is
    the real coast's, so that stars stop at its shore."""
    realm = [p for p in board.provinces.values() if p.is_sea == seas]
    if not realm:
        return {}
    shapely.prepare(domain)
    cells, stars = _voronoi(board, realm, True, canvas, domain if known else None)
    island = (reach / _REACH * _SMALL_ISLAND) ** 2
    held: dict[str, list[BaseGeometry]] = {}
    orphans: list[tuple[str, BaseGeometry]] = []
    for province in realm:
        ends = [board.provinces[n].xy for n in board.province_graph[province.id]]
        ends += [board.coast_xy[c] for c in board.locations(province.id) if c in board.coast_xy]
        lines = [[province.xy, end] for end in ends]
        near: BaseGeometry = shapely.Point(province.xy).buffer(reach)
        if lines:
            near |= shapely.MultiLineString(lines).buffer(reach, quad_segs=4)
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
    return _adopt(regions, orphans, island, {p.id: p.xy for p in realm})


def _adopt(
    regions: dict[str, BaseGeometry],
    orphans: list[tuple[str, BaseGeometry]],
    island: float,
    points: Mapping[str, tuple[float, float]],
) -> dict[str, BaseGeometry]:
    """Pieces no star reaches: a piece bordering other regions goes to the one it borders
    most (the tip of a peninsula nearer another province's point than its own); a small
    island to the province whose point is nearest; a land mass only nearness would give
    away (Ireland to Liverpool on the standard map) stays unclaimed."""
    ids = list(regions)
    tree = shapely.STRtree([regions[pid] for pid in ids])
    adopted: dict[str, list[BaseGeometry]] = {pid: [r] for pid, r in regions.items()}
    for _, piece in orphans:
        around = piece.buffer(0.25)
        borders = {
            ids[i]: piece.boundary.intersection(regions[ids[i]].buffer(0.25)).length
            for i in tree.query(around, predicate="intersects")
        }
        best = max(borders, key=lambda pid: borders[pid], default=None)
        if best is not None and borders[best] > TOUCH:
            adopted[best].append(piece)
        elif piece.area < island:
            middle = piece.representative_point()
            nearest = min(ids, key=lambda pid: _distance((middle.x, middle.y), points[pid]))
            adopted[nearest].append(piece)
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
            around = piece.buffer(0.25)
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
    """A land province the coast leaves without land under its point, or with too little
    to see (a small island such as St. Helena), is drawn as a disc there, cut out of the
    sea."""
    islands = {}
    for pid, region in regions.items():
        province = board.provinces[pid]
        disc = shapely.Point(province.xy).buffer(radius)
        if not province.is_sea and (
            region.area < disc.area / 2
            or not region.buffer(0.5).contains(shapely.Point(province.xy))
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
            touched = {ids[i] for i in tree.query(piece.buffer(0.25), predicate="intersects")}
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
            shared = regions[a].boundary.intersection(regions[b].buffer(0.25))
            if shared.length > TOUCH:
                yield (a, b), shared


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
