"""The legend under the map: the phase and who is looking; each power with its colour,
abbreviation and centers; what every symbol, line and shade on the board means; and
every province's label with its full name."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from hegemon.adjudication.outcome import Verdict
from hegemon.board import Board
from hegemon.game import Pattern, Shade
from hegemon.render import palette
from hegemon.render.arrows import FAILED_DASH, order_key
from hegemon.render.glyphs import SHAPED, center_marker, no_passage, unit_glyph
from hegemon.render.labels import text_width
from hegemon.render.rivers import RIVER_MEANING, river_path
from hegemon.render.svg import Sketch, Stamp, num, text
from hegemon.report import order_groups

if TYPE_CHECKING:
    from hegemon.render.board import Scene


MARGIN = 14.0
ROW = 22.0  # the height of a row of powers or symbols
INDEX_ROW = 11.0  # the height of a row of the province index
INDEX_FONT = 8.0
CELL_FONT = 10.5  # the words beside a legend's drawing
KEY_FONT = 9.5  # a variant's own key to its marks
KEY_ROW = 12.5
CELL_REACH = 16.0  # how far a cell's drawing reaches from its point, strokes included


@dataclass(frozen=True)
class Words:
    """A line of the legend's text, set from `x` on its baseline `y`; `lead`, bold words
    before it (a province's label before its name). Written as SVG text, or set by the
    PNG itself (`hegemon.render.png`), which sets many words far faster than resvg."""

    x: float
    y: float
    size: float
    text: str
    bold: bool = False
    italic: bool = False
    fill: str = palette.INK
    lead: str = ""

    def lower(self, by: float) -> Words:
        return replace(self, y=self.y + by)

    @property
    def svg(self) -> str:
        style = (' font-weight="bold"' if self.bold else "") + (
            ' font-style="italic"' if self.italic else ""
        )
        lead = f'<tspan font-weight="bold">{text(self.lead)}</tspan> ' if self.lead else ""
        return (
            f'<text x="{num(self.x)}" y="{num(self.y)}" font-size="{num(self.size)}" '
            f'fill="{self.fill}"{style}>{lead}{text(self.text)}</text>'
        )


@dataclass(frozen=True)
class Legend:
    """The legend under the map: its drawings, its words, the index of the provinces
    (the same for every board of a map: set from its first line's baseline, at
    `index_top`), and its height."""

    sketches: tuple[Sketch, ...]
    words: tuple[Words, ...]
    index: tuple[Words, ...]
    index_top: float
    height: float

    @property
    def svg(self) -> str:
        drawn = [s.svg for s in self.sketches] + [w.svg for w in self.words]
        drawn += [w.lower(self.index_top).svg for w in self.index]
        return f'<g id="legend">{"".join(drawn)}</g>'


def legend(scene: Scene, with_units: bool) -> Legend:
    """The legend, laid under the map."""
    width, top = scene.board.size
    sketches: list[Sketch] = []
    words: list[Words] = []
    y = top + MARGIN + 14
    words.append(Words(MARGIN, y, 15, _heading(scene, with_units), bold=True))
    y += 12
    for block in (_powers(scene), _symbols(scene, with_units)):
        cells = list(block)
        if cells:
            rows = _grid(cells, width, y, 4, sketches, words)
            y += rows * ROW + 6
    if with_units and scene.marks.key:
        lines = _paragraphs(scene.marks.key, width, y + 4)
        words += lines
        y += len(lines) * KEY_ROW + 14
    if scene.outcomes:
        rows = _results(scene, width, y + 6, words)
        y += rows * INDEX_ROW + 12
    index = index_of(scene.board)
    rows = round(max(w.y for w in index) / INDEX_ROW) + 1
    index_top, y = y + 6, y + rows * INDEX_ROW + MARGIN + 6
    return Legend(tuple(sketches), tuple(words), index, index_top, y - top)


def _heading(scene: Scene, with_units: bool) -> str:
    if not with_units:
        return f"{scene.board.name}: the map, its centers as at the start"
    who = "" if scene.viewer.master else f", as {scene.viewer} sees it"
    orders = " with its orders" if scene.outcomes else ""
    return f"{scene.board.name}: {scene.position.phase}{orders}{who}"


Cell = tuple[str, str]  # a drawing 22 units wide at (0, 0), and the words beside it


def _grid(
    cells: list[Cell],
    width: float,
    top: float,
    columns: int,
    sketches: list[Sketch],
    words: list[Words],
) -> int:
    """The cells in rows of `columns`, a cell whose words need more room taking more
    than one column, added to the sketches and words; the number of rows."""
    column = (width - 2 * MARGIN) / columns
    row, at = 0, 0  # the row, and the column the next cell starts at
    for drawing, meaning in cells:
        span = min(columns, math.ceil((30 + text_width(meaning, CELL_FONT) + 8) / column))
        if at + span > columns:
            row, at = row + 1, 0
        x = MARGIN + at * column
        y = top + row * ROW + ROW / 2
        middle = x + 12
        box = (middle - CELL_REACH, y - CELL_REACH, middle + CELL_REACH, y + CELL_REACH)
        svg = f'<g transform="translate({num(middle)},{num(y)})">{drawing}</g>'
        sketches.append(Sketch(svg, box, Stamp(drawing, (middle, y))))
        words.append(Words(x + 30, y + 4, CELL_FONT, meaning))
        at += span
    return row + 1 if cells else 0


def _powers(scene: Scene) -> Iterator[Cell]:
    owned = scene.position.center_counts
    counts = owned if scene.marks.centers is None else scene.marks.centers
    for power in scene.variant.powers:
        glyph = unit_glyph("army", (0, 0), scene.color_of(power), scene.abbreviations[power])
        count = counts.get(power, 0)
        yield glyph, f"{power}: {count} center{'s' if count != 1 else ''}"
    others = sum(owned.values()) - sum(counts.get(p, 0) for p in scene.variant.powers)
    if others:
        yield (
            center_marker((0, 0), palette.NEUTRAL, False),
            f"others: {others} center{'s' if others != 1 else ''}",
        )


def _symbols(scene: Scene, with_units: bool) -> Iterator[Cell]:
    yield center_marker((0, 0), None, False), "supply center, unowned"
    yield center_marker((0, 0), palette.NEUTRAL, False), "supply center, its owner's colour"
    yield center_marker((0, 0), palette.NEUTRAL, True), "home center (ring)"
    if with_units:
        # One entry for each shape, and one for each kind drawn as a disc, with its letter.
        kinds = {
            (k.glyph, "" if k.glyph in SHAPED else k.letter): k for k in scene.board.kinds.values()
        }
        for (glyph, letter), kind in sorted(kinds.items()):
            yield unit_glyph(glyph, (0, 0), palette.NEUTRAL, letter or kind.letter), kind.name
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
        yield _line(FAILED_DASH) + _cross(), "order failed"
        yield _line("2 3", palette.NEUTRAL), "order void"
        yield from order_key([o.order for o in scene.outcomes])
    elif scene.pending:
        yield _line("none"), "order given, not yet adjudicated"
        yield from order_key([order for _, order in scene.pending])
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
        yield f'<g fill="none">{no_passage("M-11,0H11")}</g>', "no passage: not neighbours"
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


def _paragraphs(paragraphs: tuple[str, ...], width: float, top: float) -> list[Words]:
    """Lines of words, wrapped to the legend's width."""
    lines = [line for paragraph in paragraphs for line in _wrapped(paragraph, width - 2 * MARGIN)]
    return [Words(MARGIN, top + (i + 1) * KEY_ROW, KEY_FONT, line) for i, line in enumerate(lines)]


def _wrapped(words: str, width: float) -> list[str]:
    """The words in lines no wider than `width`, each measured once (a line's width is its
    words' and spaces' widths summed)."""
    lines, used = [""], 0.0
    space = text_width(" ", KEY_FONT)
    for word in words.split():
        wide = text_width(word, KEY_FONT)
        if lines[-1] and used + space + wide > width:
            lines.append(word)
            used = wide
        elif lines[-1]:
            lines[-1] = f"{lines[-1]} {word}"
            used += space + wide
        else:
            lines[-1], used = word, wide
    return lines


def _results(scene: Scene, width: float, top: float, words: list[Words]) -> int:
    """The phase's orders with their results, under each power's name, in columns: the
    report's words, which the arrows only show by their style; the number of rows."""
    lines: list[tuple[str, bool, str, bool]] = []  # words: bold, colour, italic
    for heading, outcomes in order_groups(scene.variant, scene.outcomes):
        lines.append((heading, True, palette.INK, False))
        lines += [(f"{o.text}: {o.note}", False, *_RESULT_STYLE[o.verdict]) for o in outcomes]
    widest = max(text_width(line[0], INDEX_FONT) for line in lines)
    columns = max(1, int((width - 2 * MARGIN) // (widest + 14)))
    rows = (len(lines) + columns - 1) // columns
    column = (width - 2 * MARGIN) / columns
    for i, (line, bold, fill, italic) in enumerate(lines):
        x = MARGIN + (i // rows) * column
        y = top + (i % rows) * INDEX_ROW
        words.append(Words(x, y, INDEX_FONT, line, bold=bold, italic=italic, fill=fill))
    return rows


_RESULT_STYLE = {  # a result's words: their colour, and whether set in italics
    Verdict.SUCCEEDS: (palette.INK, False),
    Verdict.FAILS: ("#b2151a", False),
    Verdict.VOID: (palette.NEUTRAL, True),
}


@cache
def index_of(board: Board) -> tuple[Words, ...]:
    """Every province's label and full name, in columns, in the order of the labels,
    from the first line's baseline."""
    width = board.size[0]
    provinces = sorted(board.provinces.values(), key=lambda p: p.label.lower())
    widest = max(text_width(f"{p.label}  {p.name}", INDEX_FONT) for p in provinces)
    columns = max(1, int((width - 2 * MARGIN) // (widest + 12)))
    rows = (len(provinces) + columns - 1) // columns
    column = (width - 2 * MARGIN) / columns
    return tuple(
        Words(
            MARGIN + (i // rows) * column, (i % rows) * INDEX_ROW, INDEX_FONT, p.name, lead=p.label
        )
        for i, p in enumerate(provinces)
    )


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
