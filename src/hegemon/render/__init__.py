"""The board as an SVG picture, in the style of an adjacency diagram.

Spaces are nodes at their map coordinates: land as circles, water as dashed light-blue
ovals. Edges show who may cross them: red for armies only, blue for fleets only, purple
for both. Supply centers carry a ring, filled in the owner's colour; units are drawn as
the usual shapes (an army's hexagon, a fleet's sail) in their power's colour.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from html import escape

from hegemon.board import Board, province_of
from hegemon.game import Variant
from hegemon.position import Position, Unit

ARMY_ONLY, FLEET_ONLY, BOTH = "#c0392b", "#2471a3", "#7d3c98"
WATER_FILL, LAND_FILL, NEUTRAL_FILL = "#d6eaf8", "#fdfefe", "#d5c4a1"
NODE = 14  # radius of a land node, in canvas units


def draw_board(variant: Variant, position: Position | None = None) -> str:
    """The SVG text of the variant's board, with the position's units and owners if given."""
    board = variant.board
    width, height = board.size
    colors = {p.name: p.color for p in variant.powers.values()}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-20 -20 {width + 40:g} '
        f'{height + 80:g}" width="{width + 40:g}" height="{height + 80:g}" '
        'font-family="sans-serif">',
        f'<rect x="-20" y="-20" width="{width + 40:g}" height="{height + 80:g}" fill="#ffffff"/>',
        f"<title>{escape(board.name)}</title>",
        *_edges(board),
        *_nodes(board, position.centers if position else {}, colors),
    ]
    if position is not None:
        parts += [_unit(board, unit, colors) for unit in position.units.values()]
        parts.append(_caption(variant, position, height))
    parts += _legend(height)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _edges(board: Board) -> Iterator[str]:
    pairs: dict[tuple[str, str], set[bool]] = {}  # joined by land (True), by water (False)
    for by_land, edges in ((True, board.army_edges), (False, board.fleet_edges)):
        for origin, targets in edges.items():
            for target in targets:
                a, b = sorted((province_of(origin), province_of(target)))
                pairs.setdefault((a, b), set()).add(by_land)
    for (a, b), ways in sorted(pairs.items()):
        color = BOTH if len(ways) == 2 else ARMY_ONLY if True in ways else FLEET_ONLY
        (x1, y1), (x2, y2) = board.provinces[a].xy, board.provinces[b].xy
        yield (
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{color}" '
            f'stroke-width="2" stroke-opacity="0.7"><title>{a}-{b}</title></line>'
        )


def _nodes(board: Board, owners: Mapping[str, str], colors: Mapping[str, str]) -> Iterator[str]:
    for province in board.provinces.values():
        x, y = province.xy
        label = escape(province.id.capitalize())
        title = f"<title>{escape(province.name)}</title>"
        if province.is_sea:
            yield (
                f'<ellipse cx="{x:g}" cy="{y:g}" rx="{NODE * 2.2:g}" ry="{NODE * 1.3:g}" '
                f'fill="{WATER_FILL}" stroke="#5dade2" stroke-dasharray="4 3">{title}</ellipse>'
            )
        else:
            fill = colors.get(owners.get(province.id, ""), LAND_FILL)
            if province.center and province.id in owners and owners[province.id] not in colors:
                fill = NEUTRAL_FILL
            stroke = 4 if province.center else 1.5
            yield (
                f'<circle cx="{x:g}" cy="{y:g}" r="{NODE}" fill="{fill}" stroke="#333333" '
                f'stroke-width="{stroke}">{title}</circle>'
            )
        yield (
            f'<text x="{x:g}" y="{y + NODE + 11:g}" font-size="11" text-anchor="middle" '
            f'fill="#1b2631">{label}</text>'
        )


def _unit(board: Board, unit: Unit, colors: Mapping[str, str]) -> str:
    x, y = board.coast_xy.get(unit.location, board.provinces[unit.province].xy)
    color = colors.get(unit.power, NEUTRAL_FILL)
    title = f"<title>{escape(unit.power)}: {escape(str(unit))}</title>"
    glyph = unit.type.glyph
    if glyph == "army":  # a hexagon
        points = " ".join(
            f"{x + dx * 8:g},{y + dy * 8:g}"
            for dx, dy in ((-1, 0), (-0.5, -0.87), (0.5, -0.87), (1, 0), (0.5, 0.87), (-0.5, 0.87))
        )
        return f'<polygon points="{points}" fill="{color}" stroke="#000000">{title}</polygon>'
    if glyph == "fleet":  # a sail
        sail = f"M{x - 9:g},{y + 6:g} L{x + 9:g},{y + 6:g} L{x:g},{y - 9:g} Z"
        return f'<path d="{sail}" fill="{color}" stroke="#000000">{title}</path>'
    return (  # any other kind: a disc with its letter
        f'<g><circle cx="{x:g}" cy="{y:g}" r="8" fill="{color}" stroke="#000000"/>'
        f'<text x="{x:g}" y="{y + 4:g}" font-size="10" text-anchor="middle">'
        f"{escape(unit.type.letter)}</text>{title}</g>"
    )


def _caption(variant: Variant, position: Position, height: float) -> str:
    return (
        f'<text x="0" y="{height + 20:g}" font-size="14" fill="#1b2631">'
        f"{escape(variant.board.name)}: {position.phase}</text>"
    )


def _legend(height: float) -> list[str]:
    y = height + 36
    entries = [("armies only", ARMY_ONLY), ("fleets only", FLEET_ONLY), ("both", BOTH)]
    parts = []
    for i, (text, color) in enumerate(entries):
        x = i * 150
        parts.append(
            f'<line x1="{x:g}" y1="{y:g}" x2="{x + 30:g}" y2="{y:g}" stroke="{color}" '
            'stroke-width="3"/>'
        )
        parts.append(f'<text x="{x + 36:g}" y="{y + 4:g}" font-size="12">{text}</text>')
    return parts
