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

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import Board, Province
from hegemon.render import coast
from hegemon.render.svg import area_path, line_path

SAMPLE_STEP = 6.0  # canvas units between samples along a star's arms
GRID = 0.01  # the precision of the regions' coordinates, in canvas units
TOUCH = 2.0  # the length of shared border that makes two regions touch, in canvas units
_REACH = 1.25  # how far a land region reaches from its star, in typical neighbour distances
_SEA_REACH = 2.5  # and a sea's
_JITTER = (0.0, 0.013, -0.021, 0.008, -0.005, 0.017, -0.011)  # canvas units
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
    """The territories of a board, derived once (a board is never changed)."""
    width, height = board.size
    canvas = shapely.box(0, 0, width, height)
    spacing = _typical_spacing(board)
    if board.geo is not None:
        land, lakes = coast.land(board.geo, board.size), coast.lakes(board.geo, board.size)
    else:
        land, lakes = _land_of_cells(board, canvas), shapely.Polygon()
    regions = _partition(board, False, land, _REACH * spacing, canvas)
    regions |= _partition(board, True, canvas - land, _SEA_REACH * spacing, canvas)
    regions = _with_islands(board, regions, _ISLAND * spacing)
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


def _arms(board: Board, province: Province, onto_coasts: bool) -> list[tuple[float, float]]:
    """Where the arms of a province's star end: halfway to each neighbour, or, for a sea
    dividing the water `onto_coasts`, all the way to each coast it washes, so that it
    claims the water in front of that coast."""
    x, y = province.xy
    ends = []
    for neighbour in sorted(board.province_graph[province.id]):
        other = board.provinces[neighbour]
        nx, ny = other.xy
        reach = 1.0 if onto_coasts and province.is_sea and not other.is_sea else 0.5
        ends.append((x + (nx - x) * reach, y + (ny - y) * reach))
    return ends


def _star(board: Board, province: Province, onto_coasts: bool) -> list[tuple[float, float]]:
    """Samples of a province's point and of its star's arms."""
    x, y = province.xy
    samples = [(x, y)]
    for ex, ey in _arms(board, province, onto_coasts):
        steps = int(_distance((x, y), (ex, ey)) // SAMPLE_STEP)
        samples += [(x + (ex - x) * i / steps, y + (ey - y) * i / steps) for i in range(1, steps)]
    return samples


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
    board: Board, provinces: list[Province], onto_coasts: bool, canvas: BaseGeometry
) -> dict[str, BaseGeometry]:
    """Each province's share of the plane: the cells of its star's samples."""
    stars = {p.id: _star(board, p, onto_coasts) for p in provinces}
    owners = [pid for pid, star in stars.items() for _ in star]
    return _cells(owners, [xy for star in stars.values() for xy in star], canvas)


def _land_of_cells(board: Board, canvas: BaseGeometry) -> BaseGeometry:
    """Without a real coast: the land is where land provinces' stars are nearest."""
    cells = _voronoi(board, list(board.provinces.values()), False, canvas)
    return shapely.union_all([c for pid, c in cells.items() if not board.provinces[pid].is_sea])


def _partition(
    board: Board, seas: bool, domain: BaseGeometry, reach: float, canvas: BaseGeometry
) -> dict[str, BaseGeometry]:
    """The domain (the water for the seas, else the land) divided among its provinces,
    each within reach of its star and of the seas it touches."""
    realm = [p for p in board.provinces.values() if p.is_sea == seas]
    if not realm:
        return {}
    cells = _voronoi(board, realm, True, canvas)
    regions = {}
    for province in realm:
        lines = [[province.xy, board.provinces[n].xy] for n in board.province_graph[province.id]]
        star = shapely.MultiLineString(lines) if lines else shapely.Point(province.xy)
        near = star.buffer(reach) | shapely.Point(province.xy).buffer(reach)
        regions[province.id] = _largest_pieces(cells[province.id] & domain & near, province)
    return regions


def _largest_pieces(region: BaseGeometry, province: Province) -> BaseGeometry:
    """A region without the slivers cut off by the coast: the piece holding the point, or
    the largest, and any other piece of some size (a province may hold islands)."""
    pieces = [p for p in shapely.get_parts(region) if p.area > 0]
    if not pieces:
        return shapely.Polygon()
    largest = max(p.area for p in pieces)
    here = shapely.Point(province.xy)
    kept = [p for p in pieces if p.area >= largest / 20 or p.contains(here)]
    return shapely.union_all(kept)


def _with_islands(
    board: Board, regions: dict[str, BaseGeometry], radius: float
) -> dict[str, BaseGeometry]:
    """A land province the coast leaves without land under its point (a small island the
    data's coast omits) is drawn as a disc there, cut out of the sea."""
    islands = {}
    for pid, region in regions.items():
        province = board.provinces[pid]
        if not province.is_sea and not region.buffer(0.5).contains(shapely.Point(province.xy)):
            islands[pid] = shapely.Point(province.xy).buffer(radius)
    if not islands:
        return regions
    cut = shapely.union_all(list(islands.values()))
    updated = {
        pid: (region - cut if pid not in islands else region) for pid, region in regions.items()
    }
    for pid, disc in islands.items():
        updated[pid] = regions[pid] | disc
    return updated


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
