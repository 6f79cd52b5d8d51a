"""A variant's board in miniature, for a gallery of variants: its provinces filled as the
game begins (the seas, the land, each power's centres in its colour), with neither names,
units nor legend, and its borders simplified, so that a page showing every variant's
stays light (a few kilobytes each)."""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.game import Variant
from hegemon.render import palette
from hegemon.render.svg import num, title
from hegemon.render.territories import territories

WIDTH = 240  # the thumbnail's width on a page, in CSS pixels
_DETAIL = 5.0  # how much of a border's detail is dropped, in canvas units


def draw_thumbnail(variant: Variant) -> str:
    """The SVG of the variant's board as its game begins, small."""
    board = variant.board
    regions = territories(board).regions
    centers = variant.initial_position().centers
    colors = {power.name: palette.tint(power.color) for power in variant.powers.values()}
    areas: dict[str, list[str]] = {}  # fill -> the outlines of the provinces so filled
    for province in board.provinces.values():
        region = regions.get(province.id)
        if region is None:
            continue
        if province.is_sea:
            fill = palette.SEA
        else:
            fill = colors.get(centers.get(province.id, ""), palette.LAND)
        areas.setdefault(fill, []).append(_outline(region))
    width, height = board.size
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
            f'width="{WIDTH}" height="{round(WIDTH * height / width)}">',
            title(f"{variant.title or variant.id}: the board"),
            f'<rect width="{num(width)}" height="{num(height)}" fill="{palette.OFF_MAP}"/>',
            f'<g stroke="{palette.COAST}" stroke-width="1.5" stroke-linejoin="round">',
            *(f'<path fill="{fill}" d="{"".join(paths)}"/>' for fill, paths in areas.items()),
            "</g></svg>\n",
        ]
    )


def _outline(region: BaseGeometry) -> str:
    """Path data for a region's outer rings, simplified, to whole canvas units."""
    rings = []
    for polygon in shapely.get_parts(shapely.simplify(region, _DETAIL)):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        points = shapely.get_coordinates(polygon.exterior)[:-1].tolist()
        if len(points) >= 3:
            rings.append("M" + "L".join(f"{x:.0f},{y:.0f}" for x, y in points) + "Z")
    return "".join(rings)
