"""Writing SVG: geometry as path data, numbers short, text escaped."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from itertools import pairwise

import shapely
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass(frozen=True)
class Stamp:
    """A drawing made about the origin, standing at `at`: the same drawing wherever it
    stands (a power's army, a center's marker), so the PNG draws it once and lays it on
    each place (`hegemon.render.png`)."""

    drawing: str
    at: Point


@dataclass(frozen=True)
class Sketch:
    """A piece of a board's SVG with the box that holds all it draws, strokes included:
    the PNG draws each piece on its own, in that box (`hegemon.render.png`); or, if it
    is a `stamp`, as that."""

    svg: str
    box: Box
    stamp: Stamp | None = None

    def __add__(self, other: Sketch) -> Sketch:
        """Both, this one first (under the other)."""
        a, b = self.box, other.box
        box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        return Sketch(self.svg + other.svg, box)

    def wrapped(self, head: str, tail: str, reach: float = 0.0) -> Sketch:
        """Inside `head` and `tail` (a group), whose strokes reach `reach` beyond it."""
        left, top, right, bottom = self.box
        box = (left - reach, top - reach, right + reach, bottom + reach)
        return Sketch(f"{head}{self.svg}{tail}", box)


def num(value: float) -> str:
    """A coordinate to a tenth of a canvas unit, without trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def pt(xy: Point) -> str:
    return f"{num(xy[0])},{num(xy[1])}"


def area_path(geometry: BaseGeometry) -> str:
    """Path data for the polygons of a geometry, holes included (to fill evenodd)."""
    rings = []
    for polygon in shapely.get_parts(geometry):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            rings.append(_polyline(shapely.get_coordinates(ring)[:-1].tolist()) + "Z")
    return "".join(rings)


def line_path(geometry: BaseGeometry) -> str:
    """Path data for the lines of a geometry."""
    merged = shapely.line_merge(shapely.union_all(_lines(geometry)))
    return "".join(
        _polyline(shapely.get_coordinates(line).tolist()) for line in shapely.get_parts(merged)
    )


def _lines(geometry: BaseGeometry) -> list[BaseGeometry]:
    parts = shapely.get_parts(geometry)
    return [p for p in parts if p.geom_type in ("LineString", "MultiLineString")]


def _polyline(coords: Iterable[list[float]]) -> str:
    """A line through the points, to a tenth of a unit: the first absolute, each later one
    relative to the one before, which is shorter to send (a map's outlines are most of a
    board's bytes); steps are taken between the rounded points, so no error adds up, and
    a step of nothing is left out."""
    tenths = [(round(x * 10), round(y * 10)) for x, y in coords]
    if not tenths:
        return ""
    steps = [
        f"{_tenths(x - px)},{_tenths(y - py)}"
        for (px, py), (x, y) in pairwise(tenths)
        if (x, y) != (px, py)
    ]
    first = f"M{_tenths(tenths[0][0])},{_tenths(tenths[0][1])}"
    return first + ("l" + " ".join(steps) if steps else "")


def _tenths(value: int) -> str:
    """A number of tenths, written short: 12 is 1.2, 10 is 1, -3 is -.3."""
    whole, tenth = divmod(abs(value), 10)
    sign = "-" if value < 0 else ""
    if not tenth:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}.{tenth}"


def text(value: str) -> str:
    return escape(value, quote=True)


def title(value: str) -> str:
    """A tooltip: what a page shows on hovering, and a screen reader reads."""
    return f"<title>{text(value)}</title>"
