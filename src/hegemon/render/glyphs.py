"""The shapes units are drawn as: one for each kind of glyph a map may name, each in its
power's colour with the power's abbreviation on it, so that a player who cannot tell
the colours apart reads the owner all the same.

| glyph | shape |
| --- | --- |
| ``army`` | a hexagon |
| ``fleet`` | a hull under a sail |
| ``fort`` | a square keep with battlements: a unit that never moves |
| anything else | a disc, with the kind's letter before the power's abbreviation (``PBr``) |
"""

from __future__ import annotations

from hegemon.render import palette
from hegemon.render.svg import Point, num, text

SHAPED = frozenset({"army", "fleet", "fort"})  # the glyphs with a shape; the rest are discs
BOX = (-13.0, -15.0, 13.0, 9.0)  # the extent of any glyph around its point, unscaled
CENTER_RADIUS = 7.5  # a center's marker, with the ring of a home center
_HEXAGON = ((-12, 0), (-7, -8), (7, -8), (12, 0), (7, 8), (-7, 8))
_HULL = ((-13, -4), (13, -4), (9, 8), (-9, 8))
_SAIL = ((-1, -5), (-1, -15), (9, -6))
_KEEP = (
    (-10, 8), (-10, -9), (-6, -9), (-6, -6), (-2, -6), (-2, -9), (2, -9), (2, -6), (6, -6),
    (6, -9), (10, -9), (10, 8),
)  # fmt: skip


def unit_glyph(
    glyph: str,
    xy: Point,
    color: str,
    caption: str,
    scale: float = 1.0,
    attributes: str = "",
    tooltip: str = "",
) -> str:
    """A unit's shape at `xy`, filled with `color`, with `caption` written on it;
    `attributes` go on its group (a class), `tooltip` is its title."""
    outline = palette.outline_of(color)
    shape = _shape(glyph, color, outline)
    label = (
        f'<text y="3.5" font-size="{8 if len(caption) < 3 else 6.5}" font-weight="bold" '
        f'text-anchor="middle" fill="{palette.ink_on(color)}">{text(caption)}</text>'
        if caption
        else ""
    )
    transform = f"translate({num(xy[0])},{num(xy[1])})" + (
        f" scale({scale:g})" if scale != 1 else ""
    )
    return f'<g transform="{transform}"{attributes}>{tooltip}{shape}{label}</g>'


def unit_caption(glyph: str, letter: str, owner: str) -> str:
    """What a unit's glyph says: its owner's abbreviation, and on a disc, which several
    kinds of a map may share (Africa II's paratroops, marines and guerillas), the kind's
    letter before it."""
    return owner if glyph in SHAPED else f"{letter}{owner}"


def center_marker(xy: Point, color: str | None, home: bool, attributes: str = "") -> str:
    """A supply center's marker: a disc in its owner's colour; unowned, a white disc
    with a dark dot at its heart, a shape no owner's colour (Mozambique's white) can be
    taken for; a home center's inside a ring."""
    x, y = num(xy[0]), num(xy[1])
    ring = (
        f'<circle cx="{x}" cy="{y}" r="{num(CENTER_RADIUS)}" fill="#ffffff" '
        f'stroke="{palette.INK}" stroke-width="1.3"/>'
        if home
        else ""
    )
    fill, outline = (color, palette.outline_of(color)) if color else ("#ffffff", palette.INK)
    heart = f'<circle cx="{x}" cy="{y}" r="1.8" fill="{palette.INK}"/>' if color is None else ""
    return (
        f'<g{attributes}>{ring}<circle cx="{x}" cy="{y}" r="4.6" fill="{fill}" '
        f'stroke="{outline}" stroke-width="1.4"/>{heart}</g>'
    )


def no_passage(path: str) -> str:
    """A border between provinces that are not neighbours: a dark line crossed by
    ticks, like a fence; no order's line looks like it."""
    return (
        f'<path d="{path}" stroke="{palette.BARRIER}" stroke-width="2" stroke-linejoin="round"/>'
        f'<path d="{path}" stroke="{palette.BARRIER}" stroke-width="8" '
        'stroke-dasharray="1.6 4.4" stroke-linecap="butt" stroke-linejoin="bevel"/>'
    )


def _shape(glyph: str, color: str, outline: str) -> str:
    style = f'fill="{color}" stroke="{outline}" stroke-width="1.6" stroke-linejoin="round"'
    if glyph == "army":
        return f'<polygon points="{_points(_HEXAGON)}" {style}/>'
    if glyph == "fleet":
        return (
            f'<polygon points="{_points(_SAIL)}" {style}/>'
            f'<polygon points="{_points(_HULL)}" {style}/>'
        )
    if glyph == "fort":
        return f'<polygon points="{_points(_KEEP)}" {style}/>'
    return f'<circle r="9" {style}/>'


def _points(points: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)
