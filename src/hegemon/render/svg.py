"""Writing SVG: geometry as path data, numbers short, text escaped."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

import shapely
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]


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
    points = [f"{x:.1f},{y:.1f}" for x, y in coords]
    return "M" + "L".join(points) if points else ""


def text(value: str) -> str:
    return escape(value, quote=True)


def title(value: str) -> str:
    """A tooltip: what a page shows on hovering, and a screen reader reads."""
    return f"<title>{text(value)}</title>"
