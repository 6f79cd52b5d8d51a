"""The legend under the map: the phase and who is looking; each power with its colour,
abbreviation and centers; what every symbol, line and shade on the board means; and
every province's label with its full name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from hegemon.game import Pattern, Shade
from hegemon.render import palette
from hegemon.render.glyphs import center_marker, unit_glyph
from hegemon.render.labels import Placed, text_width
from hegemon.render.rivers import RIVER_MEANING, river_path
from hegemon.render.svg import num, text

if TYPE_CHECKING:
    from hegemon.render.board import Scene


MARGIN = 14.0
ROW = 22.0  # the height of a row of powers or symbols
INDEX_ROW = 11.0  # the height of a row of the province index
INDEX_FONT = 8.0


def legend(scene: Scene, placed: list[Placed], with_units: bool) -> tuple[str, float]:
    """The legend's SVG, laid under the map, and its height."""
    width, top = scene.board.size
    parts: list[str] = []
    y = top + MARGIN + 14
    parts.append(
        f'<text x="{num(MARGIN)}" y="{num(y)}" font-size="15" font-weight="bold" '
        f'fill="{palette.INK}">{text(_heading(scene, with_units))}</text>'
    )
    y += 12
    for block in (_powers(scene) if with_units else [], _symbols(scene, with_units)):
        cells = list(block)
        if cells:
            svg, rows = _grid(cells, width, y, 4)
            parts.append(svg)
            y += rows * ROW + 6
    index, rows = _index(scene, width, y + 6)
    parts.append(index)
    y += rows * INDEX_ROW + MARGIN + 6
    return f'<g id="legend">{"".join(parts)}</g>', y - top


def _heading(scene: Scene, with_units: bool) -> str:
    if not with_units:
        return f"{scene.board.name}: the map"
    who = "" if scene.viewer.master else f", as {scene.viewer} sees it"
    orders = " with its orders" if scene.outcomes else ""
    return f"{scene.board.name}: {scene.position.phase}{orders}{who}"


Cell = tuple[str, str]  # a drawing 22 units wide at (0, 0), and the words beside it


def _grid(cells: list[Cell], width: float, top: float, columns: int) -> tuple[str, int]:
    column = (width - 2 * MARGIN) / columns
    parts = []
    for i, (drawing, words) in enumerate(cells):
        x = MARGIN + (i % columns) * column
        y = top + (i // columns) * ROW + ROW / 2
        parts.append(
            f'<g transform="translate({num(x + 12)},{num(y)})">{drawing}</g>'
            f'<text x="{num(x + 30)}" y="{num(y + 4)}" font-size="10.5" fill="{palette.INK}">'
            f"{text(words)}</text>"
        )
    return "".join(parts), (len(cells) + columns - 1) // columns


def _powers(scene: Scene) -> Iterator[Cell]:
    counts = scene.position.center_counts
    for power in scene.variant.powers:
        glyph = unit_glyph("army", (0, 0), scene.color_of(power), scene.abbreviations[power])
        count = counts.get(power, 0)
        yield glyph, f"{power}: {count} center{'s' if count != 1 else ''}"
    others = sum(n for owner, n in counts.items() if owner not in scene.variant.powers)
    if others:
        yield (
            center_marker((0, 0), palette.NEUTRAL, False),
            f"others: {others} center{'s' if others != 1 else ''}",
        )


def _symbols(scene: Scene, with_units: bool) -> Iterator[Cell]:
    if with_units:
        yield center_marker((0, 0), None, False), "supply center, unowned"
        yield center_marker((0, 0), palette.NEUTRAL, False), "supply center, its owner's colour"
        yield center_marker((0, 0), palette.NEUTRAL, True), "home center (ring)"
        kinds = {k.glyph: k.name for k in scene.board.kinds.values()}
        for glyph, name in sorted(kinds.items()):
            yield unit_glyph(glyph, (0, 0), palette.NEUTRAL, name[:1].upper()), name
        for glyph, meaning in sorted(scene.marks.glyph_meanings.items()):
            yield unit_glyph(glyph, (0, 0), palette.NEUTRAL, ""), meaning
        if scene.position.dislodged:
            yield (
                '<circle r="9" fill="none" stroke="#d7191c" stroke-width="2" '
                'stroke-dasharray="4 2"/>',
                "dislodged, to retreat",
            )
    if scene.outcomes:
        yield _line("none"), "order carried out"
        yield _line("7 4") + _cross(), "order failed"
        yield _line("2 3", palette.NEUTRAL), "order void"
    if river_path(scene.board):
        yield (
            f'<path d="M-11,2C-4,-6 4,8 11,-2" fill="none" stroke="{palette.RIVER}" '
            'stroke-width="2.4" stroke-linecap="round"/>',
            RIVER_MEANING,
        )
    if not scene.land.lakes.is_empty:
        yield _swatch(palette.LAKE), "lake: no space of its own"
    if scene.land.crossings:
        yield _line("5 3", palette.COAST), "neighbours across the water"
    if scene.land.barriers:
        yield (
            f'<path d="M-11,0H11" stroke="{palette.BARRIER}" stroke-width="4.2"/>'
            '<path d="M-11,0H11" stroke="#ffffff" stroke-width="1.4" stroke-dasharray="3 3"/>',
            "no passage: not neighbours",
        )
    if not scene.land.unclaimed.is_empty:
        yield _swatch("url(#unclaimed)"), "impassable"
    yield from _shades(scene)


def _shades(scene: Scene) -> Iterator[Cell]:
    seen: dict[tuple[str, str, Pattern], Shade] = {}
    for shades in scene.marks.shades.values():
        for shade in shades:
            seen.setdefault((shade.meaning, shade.color, shade.pattern), shade)
    for shade in sorted(seen.values(), key=lambda s: (s.pattern != Pattern.FILL, s.meaning)):
        if shade.pattern is Pattern.FILL:
            fill = palette.tint(shade.color)
        else:
            fill = f"url(#{shade.pattern}-{shade.color.lstrip('#')})"
        yield _swatch(fill), shade.meaning


def _index(scene: Scene, width: float, top: float) -> tuple[str, int]:
    """Every province's label and full name, in columns, in the order of the labels."""
    provinces = sorted(scene.board.provinces.values(), key=lambda p: p.label.lower())
    widest = max(text_width(f"{p.label}  {p.name}", INDEX_FONT) for p in provinces)
    columns = max(1, int((width - 2 * MARGIN) // (widest + 12)))
    rows = (len(provinces) + columns - 1) // columns
    column = (width - 2 * MARGIN) / columns
    parts = [f'<g font-size="{num(INDEX_FONT)}" fill="{palette.INK}">']
    for i, province in enumerate(provinces):
        x = MARGIN + (i // rows) * column
        y = top + (i % rows) * INDEX_ROW
        parts.append(
            f'<text x="{num(x)}" y="{num(y)}"><tspan font-weight="bold">{text(province.label)}'
            f"</tspan> {text(province.name)}</text>"
        )
    parts.append("</g>")
    return "".join(parts), rows


def _line(dash: str, color: str = palette.INK) -> str:
    pattern = f' stroke-dasharray="{dash}"' if dash != "none" else ""
    return (
        f'<path d="M-11,0H9M4,-4L10,0L4,4" fill="none" stroke="{color}" '
        f'stroke-width="2.2"{pattern}/>'
    )


def _cross() -> str:
    return '<path d="M6,-4L14,4M6,4L14,-4" stroke="#d7191c" stroke-width="2.2"/>'


def _swatch(fill: str) -> str:
    """A patch of land under the fill or pattern, as the board lays them."""
    return (
        f'<rect x="-11" y="-7" width="22" height="14" fill="{palette.LAND}"/>'
        f'<rect x="-11" y="-7" width="22" height="14" fill="{fill}" stroke="{palette.BORDER}" '
        'stroke-width="0.8"/>'
    )
