"""Where the pieces stand on a board: each location's units, each supply center's
marker, and each dislodged unit while it waits to retreat, inside its own province's
region and clear of one another.

- A unit stands at its location's point (its province's, or its split coast's), moved
  inside its province's region where the point lies outside it or on its edge (a split
  coast's point out on the water).
- A center's marker stands beside its province's point, inside its region, clear of
  every place a unit may stand (any of the board's locations) and of the markers placed
  before it.
- A dislodged unit waits beside its province, clear of the units, the centers, the
  labels and the other dislodged units, inside its own region where there is room.

Each is searched among places on rings around its point, nearest first; where none is
clear, the one with the fewest clashes wins. Province labels are placed clear of every
place a unit may stand and of the centers (`hegemon.render.board.board_labels`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import Board, province_of
from hegemon.position import Position
from hegemon.render.glyphs import BOX, CENTER_RADIUS
from hegemon.render.labels import bounds, overlaps
from hegemon.render.svg import Box, Point
from hegemon.render.territories import territories

INSET = 5.0  # how far inside its region a unit's point is kept, in canvas units
DISLODGED_RADIUS = 13.0  # the dashed ring around a dislodged unit
DISLODGED_SCALE = 0.8  # a dislodged unit's glyph, against a unit's
DISLODGED_RISE = 2.0  # the ring's middle stands this far above the glyph's point
_CENTER_RINGS = (17.0, 22.0, 28.0, 35.0, 10.0)  # the last for a small island
_DISLODGED_RINGS = (22.0, 28.0, 35.0, 44.0)
_DIRECTIONS = 12
_CENTER_SIDE = math.pi  # a center's marker is first tried to the left of its point
_DISLODGED_SIDE = -math.pi / 4  # a dislodged unit, up and to the right


@dataclass(frozen=True)
class Places:
    """Where a board's units and center markers stand, by location and by province."""

    units: Mapping[str, Point]
    centers: Mapping[str, Point]


@cache
def board_places(board: Board) -> Places:
    """The places of a board's units and centers: a board's own, whatever the position."""
    regions = territories(board).regions
    units = {
        location: inside(regions[province_of(location)], _point(board, location))
        for province in board.provinces
        for location in (province, *board.locations(province))
    }
    glyphs = [glyph_box(xy) for xy in units.values()]
    centers: dict[str, Point] = {}
    for province in sorted(board.centers):
        taken = glyphs + [disc_box(xy, CENTER_RADIUS) for xy in centers.values()]
        centers[province] = _best(
            _around(board.provinces[province].xy, _CENTER_RINGS, _CENTER_SIDE),
            lambda xy: disc_box(xy, CENTER_RADIUS),
            taken,
            regions[province],
            inside_first=True,
        )
    return Places(units, centers)


def dislodged_places(
    board: Board, position: Position, labels: Sequence[Box] = ()
) -> dict[str, Point]:
    """Where each dislodged unit of a position waits, by province, clear of the labels'
    boxes too."""
    places = board_places(board)
    regions = territories(board).regions
    taken = [glyph_box(places.units[u.location]) for u in position.units.values()]
    taken += [disc_box(xy, CENTER_RADIUS) for xy in places.centers.values()]
    taken += labels
    waiting: dict[str, Point] = {}
    for province, dislodgement in sorted(position.dislodged.items()):
        start = places.units[dislodgement.unit.location]
        waiting[province] = _best(
            _around(start, _DISLODGED_RINGS, _DISLODGED_SIDE),
            dislodged_box,
            taken,
            regions[province],
            inside_first=False,
        )
        taken.append(dislodged_box(waiting[province]))
    return waiting


def inside(region: BaseGeometry, xy: Point) -> Point:
    """The point, or the nearest one inside the region, `INSET` from its edge where the
    region leaves room for it."""
    point = shapely.Point(xy)
    if region.contains(point) and region.boundary.distance(point) >= INSET:
        return xy  # as most are: no need to shrink the region
    for margin in (INSET, 1.0):
        inner = region.buffer(-margin)
        if inner.is_empty:
            continue
        if inner.contains(point):
            return xy
        (x, y), _ = shapely.get_coordinates(shapely.shortest_line(inner, point))
        return float(x), float(y)
    return xy


def glyph_box(xy: Point, scale: float = 1.0) -> Box:
    """The box a unit's glyph covers."""
    x, y = xy
    left, top, right, bottom = BOX
    return (x + left * scale, y + top * scale, x + right * scale, y + bottom * scale)


def disc_box(xy: Point, radius: float) -> Box:
    x, y = xy
    return (x - radius, y - radius, x + radius, y + radius)


def dislodged_box(xy: Point) -> Box:
    """The box a dislodged unit covers: its glyph in its dashed ring."""
    x, y = xy
    return disc_box((x, y - DISLODGED_RISE), DISLODGED_RADIUS)


def _point(board: Board, location: str) -> Point:
    return board.coast_xy.get(location, board.provinces[province_of(location)].xy)


def _around(anchor: Point, rings: Sequence[float], side: float) -> Iterator[Point]:
    """Places on rings around a point, nearest first, each ring from `side` round both
    ways."""
    x, y = anchor
    step = 2 * math.pi / _DIRECTIONS
    for radius in rings:
        for k in range(_DIRECTIONS):
            turn = (k + 1) // 2 * (1 if k % 2 else -1)
            angle = side + turn * step
            yield x + radius * math.cos(angle), y + radius * math.sin(angle)


def _best(
    candidates: Iterator[Point],
    footprint: Callable[[Point], Box],
    taken: Sequence[Box],
    region: BaseGeometry,
    inside_first: bool,
) -> Point:
    """The first place inside the region whose footprint overlaps nothing taken; else
    the best of the others: inside the region before clear of clashes if
    `inside_first`, else the other way round."""
    places = list(candidates)
    reach = bounds([footprint(xy) for xy in places])
    nearby = [box for box in taken if overlaps(box, reach)]
    best: tuple[int, int, int] | None = None
    choice = places[0]
    for rank, xy in enumerate(places):
        box = footprint(xy)
        clashes = sum(overlaps(box, other) for other in nearby)
        outside = 0 if region.contains(shapely.Point(xy)) else 1
        score = (outside, clashes, rank) if inside_first else (clashes, outside, rank)
        if best is None or score < best:
            best, choice = score, xy
        if (outside, clashes) == (0, 0):
            break
    return choice
