"""Placing province labels beside their units and centers, never over one another.

Labels are placed once for a map, not for each position (`Pieces`): clear of the centers'
markers, and of every place a unit may stand where its own region leaves room, so that no
piece hides them whatever stands where. Where a region is too small for that (Suez,
Sinai), a label stays in its region over a place a unit may stand, and a unit there is
drawn over it (`hegemon.render.board` lays the labels under the pieces).

Each label tries places around its province's point, nearest first (below, above, to
either side, then the diagonals, then further out), then, if none of them will do, places
anywhere inside its own region, nearest first; it takes the best by `Score`: clear of the
labels placed before it, of the markers, inside its own region, clear of the places a
unit may stand, nearest. A label never leaves the canvas. Provinces with the smallest
regions choose first, having the fewest good places.

A board drawn smaller than others on a page sets its labels larger (`place_labels`'s
scale), so that they read as large; where a province is too small to hold its label so,
clear of the rest, the label is set smaller, step by step down to the usual size, until
it fits: the first size at which it does, else the board's.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.render.svg import Box, Point

FONT = 10.0  # a label's font size, in canvas units
TAG_FONT = 7.5  # the size of a tag's text under a label
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
_RINGS = (1.0, 1.6, 2.3, 3.1, 4.0, 5.0, 6.2)
_GAP = (15.0, 15.0)  # the first ring's distance from the point, across and down
_GRID = 6.0  # the spacing of the places tried inside a region, in canvas units
_SMALLER = 0.92  # each size a label too large for its province tries, against the one before
FITS = 0.9  # the share of a label's box inside its region for it to fit there


@dataclass(frozen=True)
class Pieces:
    """What labels keep clear of: the `markers` always there (the centers'), never
    covered; the `places` a unit may stand, avoided where there is room; and the `land`,
    where a label beyond its own region would seem to name another's."""

    markers: Sequence[Box]
    places: Sequence[Box] = ()
    land: BaseGeometry | None = None

    def near(self, reach: Box) -> Pieces:
        """Those that overlap the box `reach`."""
        return Pieces(
            [b for b in self.markers if overlaps(b, reach)],
            [b for b in self.places if overlaps(b, reach)],
            self.land,
        )

    def astray(self, xs: Any, ys: Any) -> np.ndarray[Any, Any]:
        """Whether each point lies on land (where a label out of its region misleads)."""
        if self.land is None:
            return np.zeros(len(xs), dtype=bool)
        return np.asarray(shapely.contains_xy(self.land, xs, ys))


@dataclass(frozen=True)
class Request:
    province: str
    lines: tuple[str, ...]  # the label, and any tag under it
    anchor: Point
    region: BaseGeometry


@dataclass(frozen=True)
class Placed:
    province: str
    lines: tuple[str, ...]
    center: Point  # the middle of the label's box
    box: Box
    scale: float = 1.0  # its fonts' size, against `FONT` and `TAG_FONT`


@lru_cache(maxsize=4096)  # a board measures the same names and words on every drawing
def text_width(value: str, size: float) -> float:
    """About how wide a text is set in a sans-serif font (DejaVu Sans's proportions)."""
    return sum(_ADVANCES.get(c) or _advance(c) for c in value) * size


def _advance(char: str) -> float:
    if char.isupper() or char in "mwMW":
        return 0.72
    if char.isdigit():
        return 0.64
    if char in "iljtfr.,:;' ":
        return 0.36
    return 0.58


_ADVANCES = {c: _advance(c) for c in string.printable}  # the widths measured most often


def label_size(lines: Sequence[str], scale: float = 1.0) -> tuple[float, float]:
    """A label's box, its fonts `scale` times `FONT` and `TAG_FONT`."""
    font, tag = FONT * scale, TAG_FONT * scale
    width = max(text_width(line, font if i == 0 else tag) for i, line in enumerate(lines))
    height = font * 1.15 + (tag * 1.15 if len(lines) > 1 else 0)
    return width + 2, height


def place_labels(
    requests: Iterable[Request],
    pieces: Pieces,
    canvas: Box,
    scale: float = 1.0,
) -> list[Placed]:
    """Each request's label placed, its fonts `scale` times the usual."""
    ordered = sorted(requests, key=lambda r: (r.region.area, r.province))
    placed: list[Placed] = []
    taken: list[Box] = []
    for request in ordered:
        placed.append(_fitted(request, taken, pieces, canvas, scale))
        taken.append(placed[-1].box)
    return placed


def _fitted(
    request: Request,
    taken: Sequence[Box],
    pieces: Pieces,
    canvas: Box,
    scale: float,
) -> Placed:
    """The label at the largest size, from `scale` down to 1, at which its place lies
    inside its region (`FITS`) and clear of the rest; else at `scale`, where it may, if
    that is not on land (an island's, in the water beside it); else the largest at which
    it lies inside, clear of labels and markers, over a unit's place (Sinai's)."""
    first = _place(request, taken, pieces, canvas, scale)
    if scale <= 1.0 or _fits(first, request.region, taken, pieces, crowded=False):
        return first
    sizes = [first]
    while sizes[-1].scale > 1.0:
        smaller = max(1.0, sizes[-1].scale * _SMALLER)
        sizes.append(_place(request, taken, pieces, canvas, smaller))
        if _fits(sizes[-1], request.region, taken, pieces, crowded=False):
            return sizes[-1]
    if not pieces.astray([first.center[0]], [first.center[1]])[0]:
        return first
    fitting = (p for p in sizes if _fits(p, request.region, taken, pieces, crowded=True))
    return next(fitting, first)


def _fits(
    placed: Placed, region: BaseGeometry, taken: Sequence[Box], pieces: Pieces, crowded: bool
) -> bool:
    """Whether a label lies inside its region (`FITS` of its box) clear of the rest, or,
    if `crowded`, of the labels and markers only."""
    others = (*taken, *pieces.markers, *(() if crowded else pieces.places))
    if any(overlaps(placed.box, other) for other in others):
        return False
    left, top, right, bottom = placed.box
    inside = shapely.clip_by_rect(region, left, top, right, bottom).area  # far cheaper than
    return bool(inside >= FITS * (right - left) * (bottom - top))  # `intersection`


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def within(a: Box, b: Box) -> bool:
    """Whether box `a` lies wholly within box `b`."""
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


# Clashes with labels, with markers; out of its region on land; over a unit's place; out
# of its region; rank.
Score = tuple[int, int, int, int, int, int]
_CLEAR = (0, 0, 0, 0, 0)  # a score's first five, where a label lies as it should


def _place(
    request: Request, taken: Sequence[Box], pieces: Pieces, canvas: Box, scale: float
) -> Placed:
    """The label's place: on the rings around its point, else anywhere inside its
    region, the best by `Score`; never off the canvas."""
    width, height = label_size(request.lines, scale)
    rings = list(_candidates(request.anchor, width, height))
    left, top, right, bottom = request.region.bounds
    reach = bounds([*(_box(c, width, height) for c in rings), (left, top, right, bottom)])
    taken = [b for b in taken if overlaps(b, reach)]
    pieces = pieces.near(reach)

    def score(rank: int, center: Point, inside: bool) -> Score:
        box = _box(center, width, height)
        clashes = int(any(overlaps(box, other) for other in taken))
        blocked = int(any(overlaps(box, other) for other in pieces.markers))
        crowded = int(any(overlaps(box, other) for other in pieces.places))
        astray = int(not inside and pieces.astray([center[0]], [center[1]])[0])
        return clashes, blocked, astray, crowded, 0 if inside else 1, rank

    corners = _CORNERS if scale > 1.0 else _MIDDLE
    around = [c for c in rings if within(_box(c, width, height), canvas)]
    best: tuple[Score, Point] | None = None
    if corners is _MIDDLE:  # each asked as it is tried: most labels take the first
        for rank, center in enumerate(around):
            inside = _inside(request.region, center, width, height, corners)
            scored = (score(rank, center, inside), center)
            best = scored if best is None else min(best, scored)
            if scored[0][:5] == _CLEAR:
                break
    else:  # a larger label tries many: all asked at once
        best = _best(request.region, around, (width, height), taken, pieces, corners, False)
    if best is None or best[0][:5] != _CLEAR:
        inner = _inner(request, width, height, canvas)
        found = _best(request.region, inner, (width, height), taken, pieces, corners, True)
        if found is not None:
            (clash, block, stray, crowd, out, rank), center = found
            scored = ((clash, block, stray, crowd, out, rank + len(around)), center)
            best = scored if best is None else min(best, scored)
    choice = best[1] if best else _onto(rings[0], width, height, canvas)
    return Placed(request.province, request.lines, choice, _box(choice, width, height), scale)


# The points of a label's box that must lie inside its region for it to be inside: its
# middle for a label of the usual size; its corners too for one set larger, large against
# the provinces.
_MIDDLE = ((0, 0),)
_CORNERS = ((0, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


def _inside(
    region: BaseGeometry,
    center: Point,
    width: float,
    height: float,
    points: tuple[tuple[int, int], ...],
) -> bool:
    """Whether those points of a box (`_MIDDLE`, `_CORNERS`) lie inside the region."""
    x, y = center
    xs = [x + dx * width / 2 for dx, _ in points]
    ys = [y + dy * height / 2 for _, dy in points]
    return bool(shapely.contains_xy(region, xs, ys).all())


def _best(
    region: BaseGeometry,
    places: list[Point],
    size: tuple[float, float],
    taken: Sequence[Box],
    pieces: Pieces,
    points: tuple[tuple[int, int], ...],
    middles_inside: bool,
) -> tuple[Score, Point] | None:
    """The best of the places by `Score`, its rank among them: all scored at once, where
    most are tried (a crowded corner, a label larger than its province). Their middles
    known to lie inside the region if `middles_inside` (`_inner`'s)."""
    if not places:
        return None
    xy = np.array(places)
    half = np.array(size) / 2
    low, high = xy - half, xy + half
    clashes, blocked = _overlapping(low, high, taken), _overlapping(low, high, pieces.markers)
    crowded = _overlapping(low, high, pieces.places)
    outside: np.ndarray[Any, Any]
    if points is _MIDDLE and middles_inside:
        outside = np.zeros(len(places), dtype=bool)
    else:
        corners = xy[:, None, :] + np.array(points)[None, :, :] * half
        inside = shapely.contains_xy(region, corners[..., 0].ravel(), corners[..., 1].ravel())
        outside = np.asarray(~inside.reshape(len(places), len(points)).all(axis=1))
    astray = outside & pieces.astray(xy[:, 0], xy[:, 1])
    keys = (clashes, blocked, astray, crowded, outside)
    rank = int(np.lexsort((np.arange(len(places)), *reversed(keys)))[0])
    clash, block, stray, crowd, out = (int(key[rank]) for key in keys)
    score = (clash, block, stray, crowd, out, rank)
    return score, places[rank]


def _overlapping(
    low: np.ndarray[Any, Any], high: np.ndarray[Any, Any], boxes: Sequence[Box]
) -> np.ndarray[Any, Any]:
    """For each box from `low` to `high`, whether it overlaps any of `boxes` (`overlaps`)."""
    if not boxes:
        return np.zeros(len(low), dtype=bool)
    other = np.array(boxes)
    found: np.ndarray[Any, Any] = np.any(
        (low[:, None, 0] < other[None, :, 2])
        & (other[None, :, 0] < high[:, None, 0])
        & (low[:, None, 1] < other[None, :, 3])
        & (other[None, :, 1] < high[:, None, 1]),
        axis=1,
    )
    return found


def _inner(request: Request, width: float, height: float, canvas: Box) -> list[Point]:
    """Places inside the label's own region, on a grid, nearest its point first."""
    left, top, right, bottom = request.region.bounds
    columns = max(1, int((right - left) // _GRID))
    rows = max(1, int((bottom - top) // _GRID))
    grid = [
        (left + (i + 0.5) * (right - left) / columns, top + (j + 0.5) * (bottom - top) / rows)
        for i in range(columns)
        for j in range(rows)
    ]
    inside = shapely.contains_xy(request.region, *zip(*grid, strict=True))
    x, y = request.anchor
    places = [
        xy
        for xy, ok in zip(grid, inside, strict=True)
        if ok and within(_box(xy, width, height), canvas)
    ]
    return sorted(places, key=lambda xy: (xy[0] - x) ** 2 + (xy[1] - y) ** 2)


def _onto(center: Point, width: float, height: float, canvas: Box) -> Point:
    """The place moved onto the canvas."""
    x = min(max(center[0], canvas[0] + width / 2), canvas[2] - width / 2)
    y = min(max(center[1], canvas[1] + height / 2), canvas[3] - height / 2)
    return x, y


def bounds(boxes: Sequence[Box]) -> Box:
    """The box around the boxes."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _candidates(anchor: Point, width: float, height: float) -> Iterable[Point]:
    x, y = anchor
    for ring in _RINGS:
        for dx, dy in _DIRECTIONS:
            across = dx * (width / 2 + _GAP[0] * ring)
            down = dy * (height / 2 + _GAP[1] * ring * 0.75)
            yield x + across, y + down


def _box(center: Point, width: float, height: float) -> Box:
    x, y = center
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
