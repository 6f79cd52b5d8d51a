"""Placing province labels beside their units and centers, never over one another.

Each label tries places around its province's point, nearest first (below, above, to
either side, then the diagonals, then further out); it takes the first that overlaps no
label placed before it and no unit or center and lies inside its own region, else the
nearest that overlaps no label and no unit or center, else the nearest clear of labels.
Provinces with the smallest regions choose first, having the fewest good places.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.render.svg import Point

Box = tuple[float, float, float, float]  # left, top, right, bottom
FONT = 10.0  # a label's font size, in canvas units
TAG_FONT = 7.5  # the size of a tag's text under a label
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
_RINGS = (1.0, 1.6, 2.3, 3.1, 4.0)
_GAP = (15.0, 15.0)  # the first ring's distance from the point, across and down


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


def text_width(value: str, size: float) -> float:
    """About how wide a text is set in a sans-serif font (DejaVu Sans's proportions)."""
    return sum(_advance(c) for c in value) * size


def _advance(char: str) -> float:
    if char.isupper() or char in "mwMW":
        return 0.72
    if char.isdigit():
        return 0.64
    if char in "iljtfr.,:;' ":
        return 0.36
    return 0.58


def label_size(lines: Sequence[str]) -> tuple[float, float]:
    width = max(text_width(line, FONT if i == 0 else TAG_FONT) for i, line in enumerate(lines))
    height = FONT * 1.15 + (TAG_FONT * 1.15 if len(lines) > 1 else 0)
    return width + 2, height


def place_labels(requests: Iterable[Request], obstacles: Sequence[Box]) -> list[Placed]:
    ordered = sorted(requests, key=lambda r: (r.region.area, r.province))
    placed: list[Placed] = []
    taken: list[Box] = []
    for request in ordered:
        placed.append(_place(request, taken, obstacles))
        taken.append(placed[-1].box)
    return placed


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place(request: Request, taken: Sequence[Box], obstacles: Sequence[Box]) -> Placed:
    width, height = label_size(request.lines)
    candidates = list(_candidates(request.anchor, width, height))
    margin = _farthest(candidates, request.anchor) + width  # no candidate's box goes further
    x, y = request.anchor
    reach = (x - margin, y - margin, x + margin, y + margin)
    taken = [b for b in taken if overlaps(b, reach)]
    obstacles = [b for b in obstacles if overlaps(b, reach)]
    best: tuple[int, int, int, int] | None = None
    choice = candidates[0]
    for rank, center in enumerate(candidates):
        box = _box(center, width, height)
        clashes = int(any(overlaps(box, other) for other in taken))
        blocked = int(any(overlaps(box, other) for other in obstacles))
        outside = 0 if request.region.contains(shapely.Point(center)) else 1
        score = (clashes, blocked, outside, rank)
        if best is None or score < best:
            best, choice = score, center
        if score[:3] == (0, 0, 0):
            break
    return Placed(request.province, request.lines, choice, _box(choice, width, height))


def _farthest(points: Sequence[Point], anchor: Point) -> float:
    return max(max(abs(x - anchor[0]), abs(y - anchor[1])) for x, y in points)


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
