"""Composing a board: the layers from the water up, then the legend under the map.

Layers, bottom first: water; seas; land provinces, tinted by the owner of their center;
land no province covers; lakes; the variant's shades; impassable borders and crossings;
centers; orders; units (dislodged ones beside their province); labels.

Most of a board's text is the same for every position of its map: the provinces' shapes,
the coasts and borders, the rivers, the labels (placed clear of every place a piece may
stand, so the same whatever stands there). Those are written once per map and kept
(`Layer.fixed`): each province's shape is defined once and drawn by reference (`<use>`),
with its fill and tooltip, which change with the position. A server compresses a fixed
layer once, not once per position (`hegemon.server.web.boards`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import shapely
import shapely.ops
from shapely.geometry.base import BaseGeometry

from hegemon.adjudication.outcome import Outcome
from hegemon.board import OFFBOARD, Board, Terrain, province_of
from hegemon.game import Marks, Pattern, PhaseResult, Shade, Variant
from hegemon.orders import Hold, Order, Secrecy
from hegemon.position import Position, Unit, Viewer
from hegemon.render import palette
from hegemon.render.arrows import order_marks, pending_marks
from hegemon.render.glyphs import (
    CENTER_RADIUS,
    center_marker,
    no_passage,
    unit_caption,
    unit_glyph,
)
from hegemon.render.labels import (
    FONT,
    TAG_FONT,
    Pieces,
    Placed,
    Request,
    place_labels,
    text_width,
)
from hegemon.render.legend import Legend, legend
from hegemon.render.places import (
    DISLODGED_RADIUS,
    DISLODGED_RISE,
    DISLODGED_SCALE,
    Places,
    board_places,
    disc_box,
    dislodged_places,
    glyph_box,
)
from hegemon.render.rivers import RIVER_MEANING, river_path
from hegemon.render.svg import Point, Sketch, Stamp, num, pt, text, title
from hegemon.render.territories import BORDER_WIDTH, Territories, border_paths, territories

FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
# Units aboard others, drawn small at their carrier's lower right; units off the board,
# in a row at the map's lower right corner (where orders from and to OFFBOARD point).
CARGO_SCALE, CARGO_OFFSET, CARGO_SPACING = 0.55, 13.0, 12.0
OFFBOARD_MARGIN, OFFBOARD_SCALE, OFFBOARD_SPACING = 24.0, 0.8, 28.0
# The width of the boards a page shows whole at the labels' own size: a wider map is
# drawn smaller, so its labels are set larger by as much, to read as large on the page.
LABELS_WIDTH = 1000.0


@dataclass(frozen=True)
class Layer:
    """A part of a board's SVG, in order: `fixed` if it is the same text for every
    position of its map (and, for the labels, of their tags), kept and reused."""

    text: str
    fixed: bool = False


def draw_board(
    variant: Variant,
    position: Position | None,
    viewer: Viewer,
    pending: Sequence[tuple[str, Order]] = (),
) -> str:
    """The SVG of the board: the position as `viewer` may see it, or the map with no unit,
    its supply centres and the powers' colours (and their key) as at the start; with
    `pending`, orders given and not yet adjudicated, as (power, order), drawn on it. The
    caller passes only orders the viewer may read (a player's own while ordering)."""
    return board_scene(variant, position, viewer, pending).svg


def board_layers(
    variant: Variant,
    position: Position | None,
    viewer: Viewer,
    pending: Sequence[tuple[str, Order]] = (),
) -> list[Layer]:
    """`draw_board`'s SVG, in its layers."""
    return board_scene(variant, position, viewer, pending).layers()


def board_scene(
    variant: Variant,
    position: Position | None,
    viewer: Viewer,
    pending: Sequence[tuple[str, Order]] = (),
) -> Scene:
    """The board `draw_board` draws, to draw as SVG or as PNG (`hegemon.render.png`)."""
    start = position or variant.initial_position()
    return Scene(variant, start, viewer, (), tuple(pending), with_units=position is not None)


def draw_phase(variant: Variant, result: PhaseResult, viewer: Viewer) -> str:
    """The SVG of the position a phase started from, with its orders and their results as
    `viewer` may read them (orders secret until the game ends show to their power only)."""
    return phase_scene(variant, result, viewer).svg


def phase_scene(variant: Variant, result: PhaseResult, viewer: Viewer) -> Scene:
    """The board `draw_phase` draws, to draw as SVG or as PNG (`hegemon.render.png`)."""
    visible = tuple(
        o
        for o in result.outcomes
        if o.order.secrecy is not Secrecy.UNTIL_END or viewer.sees(o.power) or result.end
    )
    return Scene(variant, result.before, viewer, visible)


@dataclass(frozen=True)
class Scene:
    """One board: a variant's position as a viewer sees it, with the outcomes of the
    phase it began, if drawn with its orders, or the orders given for it so far; with
    its units, or as the empty map."""

    variant: Variant
    position: Position
    viewer: Viewer
    outcomes: tuple[Outcome, ...]
    pending: tuple[tuple[str, Order], ...] = ()
    with_units: bool = True

    @property
    def board(self) -> Board:
        return self.variant.board

    @cached_property
    def marks(self) -> Marks:
        return self.variant.board_marks(self.position, self.viewer)

    @cached_property
    def land(self) -> Territories:
        return territories(self.board)

    @cached_property
    def places(self) -> Places:
        return board_places(self.board)

    @cached_property
    def waiting_places(self) -> dict[str, Point]:
        return dislodged_places(self.board, self.position, [p.box for p in self.labels()])

    @cached_property
    def colors(self) -> dict[str, str]:
        return {p.name: p.color for p in self.variant.powers.values()}

    @cached_property
    def abbreviations(self) -> dict[str, str]:
        return abbreviations(list(self.variant.powers))

    def color_of(self, owner: str) -> str:
        return self.colors.get(owner, palette.NEUTRAL)

    @cached_property
    def legend(self) -> Legend:
        return legend(self, self.with_units)

    @property
    def tags(self) -> tuple[tuple[str, str], ...]:
        """The provinces' tags, as the labels are kept by (`board_labels`)."""
        return tuple(sorted(self.marks.tags.items()))

    @property
    def height(self) -> float:
        """The height of the whole: the map and the legend under it."""
        return self.board.size[1] + self.legend.height

    # --- the whole ---------------------------------------------------------------------
    @property
    def svg(self) -> str:
        return "".join(layer.text for layer in self.layers())

    def layers(self) -> list[Layer]:
        width, height = self.board.size
        tags = self.tags
        total = self.height
        head = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} '
            f'{num(total)}" width="{num(width)}" height="{num(total)}" '
            f'font-family="{FONT_FAMILY}">',
            title(f"{self.board.name}: {self.position.phase}"),
            f"<defs>{self.patterns}</defs>",
            f'<rect width="{num(width)}" height="{num(total)}" fill="#ffffff"/>',
            f'<rect width="{num(width)}" height="{num(height)}" fill="{palette.OFF_MAP}"/>\n',
        ]
        pieces = [
            '<g id="centers">',
            *(s.svg for s in self.centers()),
            '</g><g id="orders">',
            *(s.svg for s in self.orders()),
            "</g>",
            '<g id="units">',
            *(s.svg for s in (self.units() if self.with_units else ())),
            "</g>",
        ]
        return [
            Layer("\n".join(head)),
            Layer(shapes(self.board), fixed=True),
            Layer("\n".join([*self._regions(), ""])),
            Layer(ground(self.board), fixed=True),
            Layer("\n".join([*self._shades(), ""])),
            Layer(lines(self.board), fixed=True),
            Layer(label_layer(self.board, tags), fixed=True),
            Layer("\n".join([*pieces, self.legend.svg, "</svg>", ""])),
        ]

    def pieces(self) -> list[Sketch]:
        """What stands on the map, bottom first: centers, orders, units."""
        return [*self.centers(), *self.orders(), *(self.units() if self.with_units else ())]

    # --- where things are ----------------------------------------------------------------
    def locate(self, location: str) -> Point:
        """Where a unit at this location stands (`hegemon.render.places`); off the board,
        the map's bottom right corner, where the units off it are drawn."""
        if location == OFFBOARD:
            width, height = self.board.size
            return (width - OFFBOARD_MARGIN, height - OFFBOARD_MARGIN)
        return self.places.units[location]

    def unit_at(self, location: str) -> Point:
        """Where the unit an order names is drawn: beside its province if dislodged."""
        if province_of(location) in self.position.dislodged:
            return self.waiting(location)
        return self.locate(location)

    def waiting(self, location: str) -> Point:
        """Where a dislodged unit waits: beside its province, clear of the pieces."""
        return self.waiting_places[province_of(location)]

    def center_point(self, province: str) -> Point:
        return self.places.centers[province]

    # --- territories -------------------------------------------------------------------
    def _regions(self) -> Iterator[str]:
        """Each province's shape (`shapes`), filled and titled as the position has it."""
        yield '<g id="provinces">'
        for province in self.board.provinces.values():
            fill = self.fill(province.id)
            kind = "sea" if province.is_sea else "land"
            yield (
                f'<use id="{province.id}" class="province {kind}" href="#{SHAPE}{province.id}" '
                f'data-name="{text(province.name)}" fill="{fill}">'
                f"{title(self._tooltip(province.id))}</use>"
            )
        yield "</g>"

    def fill(self, province: str) -> str:
        """A province's colour: the sea's, or its shade's, or its center's owner's."""
        if self.board.provinces[province].is_sea:
            return palette.SEA
        fills = [s for s in self.marks.shades.get(province, ()) if s.pattern is Pattern.FILL]
        if fills:
            return palette.tint(fills[-1].color)
        owner = self.position.centers.get(province)
        if owner is None:
            return palette.LAND
        if owner not in self.colors:  # a minor power's: a shade only
            return palette.mix(palette.NEUTRAL, palette.LAND, palette.FAINT / 2)
        return palette.tint(self.colors[owner])

    def _tooltip(self, province: str) -> str:
        p = self.board.provinces[province]
        lines = [f"{p.name} ({p.label})"]
        owner = self.position.centers.get(province)
        if p.center:
            lines.append(f"supply center of {owner}" if owner else "supply center, unowned")
        lines += self.marks.notes.get(province, ())
        return "\n".join(lines)

    @cached_property
    def patterns(self) -> str:
        """The patterns the shades and the legend fill with, defined once."""
        return "".join(self._patterns())

    def _patterns(self) -> Iterator[str]:
        yield UNCLAIMED
        seen = set()
        for shades in self.marks.shades.values():
            for shade in shades:
                if shade.pattern is not Pattern.FILL and pattern_id(shade) not in seen:
                    seen.add(pattern_id(shade))
                    yield shade_pattern(shade)

    @cached_property
    def hatched(self) -> dict[Shade, list[str]]:
        """The provinces each hatching, cross-hatching or dots marks, in the order drawn."""
        marked: dict[Shade, list[str]] = {}
        for province, shades in self.marks.shades.items():
            for shade in shades:
                if shade.pattern is not Pattern.FILL:
                    marked.setdefault(shade, []).append(province)
        return marked

    def _shades(self) -> Iterator[str]:
        """Each hatching, cross-hatching or dots over the shapes of all the provinces it
        marks, in one group that says what it means."""
        yield '<g id="marks">'
        for shade, provinces in self.hatched.items():
            shapes_of = "".join(f'<use href="#{SHAPE}{p}"/>' for p in provinces)
            yield f'<g fill="url(#{pattern_id(shade)})">{title(shade.meaning)}{shapes_of}</g>'
        yield "</g>"

    # --- centers, orders and units ---------------------------------------------------------
    def centers(self) -> Iterator[Sketch]:
        homes = {c for cs in self.variant.home_centers(self.position).values() for c in cs}
        for center in sorted(self.board.centers):
            owner = self.position.centers.get(center)
            color = self.color_of(owner) if owner else None
            xy, home = self.center_point(center), center in homes
            yield Sketch(
                center_marker(xy, color, home, ' class="center"'),
                disc_box(xy, CENTER_RADIUS + 1),
                Stamp(center_marker((0, 0), color, home), xy),
            )

    def orders(self) -> Iterator[Sketch]:
        """The phase's orders with their results, or the orders given so far."""
        yield from order_marks(list(self.outcomes), self.locate, self.colors, self.unit_at)
        yield from pending_marks(list(self.pending), self.locate, self.colors, self.unit_at)

    def units(self) -> Iterator[Sketch]:
        for unit in self.position.units.values():
            yield self._unit(unit, self.locate(unit.location), 1.0, "")
            yield from self._cargo(unit, self.locate(unit.location), 1.0)
        x, y = self.locate(OFFBOARD)
        if self.position.offboard:
            words = "Off the board"
            right, baseline = x + OFFBOARD_MARGIN / 2, y - OFFBOARD_MARGIN
            yield Sketch(
                f'<text x="{num(right)}" y="{num(baseline)}" '
                f'text-anchor="end" font-size="12">{text(words)}</text>',
                (right - text_width(words, 12) - 12, baseline - 12, right + 2, baseline + 4),
            )
        for number, unit in enumerate(reversed(self.position.offboard)):
            xy = (x - number * OFFBOARD_SPACING, y)
            yield self._unit(unit, xy, OFFBOARD_SCALE, " offboard")
            yield from self._cargo(unit, xy, OFFBOARD_SCALE)
        for dislodgement in self.position.dislodged.values():
            unit = dislodgement.unit
            x, y = self.waiting(unit.location)
            yield Sketch(
                f'<circle cx="{num(x)}" cy="{num(y - DISLODGED_RISE)}" r="{num(DISLODGED_RADIUS)}" '
                'fill="#ffffff" fill-opacity="0.7" stroke="#d7191c" stroke-width="2" '
                'stroke-dasharray="4 2"/>',
                disc_box((x, y - DISLODGED_RISE), DISLODGED_RADIUS + 1),
            )
            yield self._unit(unit, (x, y), DISLODGED_SCALE, " dislodged")
            yield from self._cargo(unit, (x, y), DISLODGED_SCALE)

    def _cargo(self, carrier: Unit, xy: Point, scale: float) -> Iterator[Sketch]:
        """The units aboard a unit: small glyphs below its right side."""
        x, y = xy
        for number, unit in enumerate(carrier.cargo):
            at = (x + (CARGO_OFFSET + number * CARGO_SPACING) * scale, y + CARGO_OFFSET * scale)
            yield self._unit(unit, at, CARGO_SCALE * scale, " aboard")

    def _unit(self, unit: Unit, xy: Point, scale: float, state: str) -> Sketch:
        """A unit's glyph; a dislodged one (`state`) in its kind's own glyph."""
        glyph = unit.type.glyph if state else self.marks.glyphs.get(unit.province, unit.type.glyph)
        caption = unit_caption(glyph, unit.type.letter, self.abbreviations.get(unit.power, ""))
        if not state:
            caption = self.marks.captions.get(unit.province, caption)
        off = unit.location == OFFBOARD
        where = "off the board" if off else f"in {self.board.name_of(unit.location)}"
        color = self.color_of(unit.power)
        svg = unit_glyph(
            glyph,
            xy,
            color,
            caption,
            scale,
            # Its own identity, as its order form names it: two units off the board share
            # a province (OFFBOARD), and a click must open the one clicked.
            f' data-unit="{text(Hold(unit.type, unit.location).head)}" '
            f'data-power="{text(unit.power)}" class="unit{state}" data-province="{unit.province}"',
            title(f"{unit.power}: {unit.type.name} {where}{state}"),
        )
        left, top, right, bottom = glyph_box(xy, scale)
        box = (left - scale, top - scale, right + scale, bottom + scale)
        return Sketch(svg, box, Stamp(unit_glyph(glyph, (0, 0), color, caption, scale), xy))

    # --- labels --------------------------------------------------------------------------
    def labels(self) -> tuple[Placed, ...]:
        return board_labels(self.board, tuple(sorted(self.marks.tags.items())))


# --- what is the same for every position of a map --------------------------------------
SHAPE = "shape-"  # the id of a province's shape, before the province's own id


@cache
def shapes(board: Board) -> str:
    """Each province's shape, defined once, drawn where it is used (`Scene._regions`,
    the marks): most of a board's text."""
    paths = territories(board).paths
    defined = (
        f'<path id="{SHAPE}{province}" d="{paths[province]}" fill-rule="evenodd"/>'
        for province in board.provinces
    )
    return f"<defs>{''.join(defined)}</defs>\n"


@cache
def ground(board: Board) -> str:
    """Land no province covers, and the lakes, over the provinces."""
    _, lakes, unclaimed = territories(board).outline_paths
    return (
        f'<path d="{unclaimed}" fill="url(#unclaimed)" stroke="{palette.BORDER}" '
        f'stroke-width="0.5">{title("Impassable: no province")}</path>\n'
        f'<path d="{lakes}" fill="{palette.LAKE}" stroke="none"/>\n'
    )


@cache
def lines(board: Board) -> str:
    """The borders, each drawn once, then the shore; the rivers; borders no one crosses,
    and crossings between neighbours whose regions do not touch."""
    land_borders, sea_borders = border_paths(board)
    shore = territories(board).outline_paths[0]
    drawn = [
        f'<g id="borders" fill="none" stroke-width="0.8" stroke-linejoin="round">'
        f'<path d="{sea_borders}" stroke="{palette.COAST}"/>'
        f'<path d="{land_borders}" stroke="{palette.BORDER}"/>'
        f'<path d="{shore}" stroke="{palette.COAST}" stroke-width="1.1"/></g>'
    ]
    river = river_path(board)
    if river:
        drawn.append(
            f'<path id="rivers" d="{river}" fill="none" stroke="{palette.RIVER}" '
            'stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round">'
            f"{title(RIVER_MEANING)}</path>"
        )
    names = board.provinces
    for (a, b), shared in territories(board).barrier_paths.items():
        between = f"No passage between {names[a].name} and {names[b].name}"
        drawn.append(
            f'<g fill="none" stroke-linecap="round">{title(between)}{no_passage(shared)}</g>'
        )
    for a, b in territories(board).crossings:
        way = _crossing(board, a, b)
        neighbours = f"{names[a].name} and {names[b].name} are neighbours"
        drawn.append(
            f'<path d="M{"L".join(map(pt, way))}" stroke="{palette.COAST}" stroke-width="2" '
            f'stroke-dasharray="5 3" fill="none" opacity="0.8">{title(neighbours)}</path>'
        )
    return "\n".join([*drawn, ""])


def _crossing(board: Board, a: str, b: str) -> list[Point]:
    """The line between two neighbours whose regions do not touch: straight, across the
    water between them; but where that would cross the land of a province they both
    border (Baghdad, between Al Jazira's and Basra's points), along the shortest border
    that two such provinces share from one's region to the other's (Baghdad's and
    Kirkuk's, at Iraq's four-way point), crossing no third province."""
    units, regions = board_places(board).units, territories(board).regions
    start, end = units[a], units[b]
    between = board.province_graph[a] & board.province_graph[b]
    land = sorted(c for c in between if board.provinces[c].terrain is not Terrain.SEA)
    straight = shapely.LineString([start, end])
    if not any(regions[c].intersects(straight) for c in land):
        return [start, end]
    ways = [
        [start, *border, end]
        for c, d in itertools.combinations(land, 2)
        if (border := _border_between(regions[c], regions[d], regions[a], regions[b]))
    ]
    return min(ways, key=lambda way: shapely.LineString(way).length, default=[start, end])


def label_pieces(board: Board) -> Pieces:
    """What a label keeps clear of, whatever the position: every center's marker, a
    unit at every place one may stand, and other provinces' land."""
    places = board_places(board)
    return Pieces(
        [disc_box(xy, CENTER_RADIUS) for xy in places.centers.values()],
        [glyph_box(xy) for xy in places.units.values()],
        territories(board).land,
    )


# Placing a board's labels takes some 30 to 300 ms: placed clear of every place a piece
# may stand (under the pieces where they cannot be), they are the same for every position
# whose provinces carry the same tags.
@lru_cache(maxsize=64)
def board_labels(board: Board, tags: tuple[tuple[str, str], ...]) -> tuple[Placed, ...]:
    """The board's labels, each province's with its tag if it has one, clear of the
    pieces (`label_pieces`); set larger on a board wider than `LABELS_WIDTH`."""
    tagged, land, places = dict(tags), territories(board), board_places(board)
    requests = [
        Request(
            p.id,
            (p.label, tagged[p.id]) if p.id in tagged else (p.label,),
            places.units[p.id],
            land.regions[p.id],
        )
        for p in board.provinces.values()
    ]
    width, height = board.size
    scale = max(1.0, width / LABELS_WIDTH)
    pieces = label_pieces(board)
    canvas = (0.0, 0.0, width, height)
    return tuple(place_labels(requests, pieces, canvas, scale))


@lru_cache(maxsize=64)
def label_layer(board: Board, tags: tuple[tuple[str, str], ...]) -> str:
    """The labels' SVG: a thin line from each label that had to leave its own region to
    the point it names, so that a crowded corner still reads; then the labels."""
    placed = board_labels(board, tags)
    regions, units = territories(board).regions, board_places(board).units
    drawn = [f'<g id="leaders" stroke="{palette.INK}" stroke-width="0.7" opacity="0.6">']
    for label in placed:
        if not regions[label.province].contains(shapely.Point(label.center)):
            drawn.append(f'<path d="M{pt(label.center)}L{pt(units[label.province])}"/>')
    drawn.append("</g>")
    drawn.append(
        f'<g id="labels" text-anchor="middle" fill="{palette.INK}" stroke="{palette.HALO}" '
        'stroke-width="2.6" stroke-linejoin="round" paint-order="stroke">'
    )
    for label in placed:
        x, (_, top, _, _) = label.center[0], label.box
        font, tag = FONT * label.scale, TAG_FONT * label.scale
        drawn.append(
            f'<text x="{num(x)}" y="{num(top + font * 0.9)}" font-size="{num(font)}" '
            f'data-province="{label.province}">{text(label.lines[0])}</text>'
        )
        if len(label.lines) > 1:
            drawn.append(
                f'<text x="{num(x)}" y="{num(top + font * 1.15 + tag * 0.9)}" '
                f'font-size="{num(tag)}" font-style="italic">{text(label.lines[1])}</text>'
            )
    drawn.append("</g>")
    return "\n".join([*drawn, ""])


def abbreviations(powers: list[str]) -> dict[str, str]:
    """A short, distinct abbreviation for each power, written on its units and in the
    legend: the initials of a name of several words ("CC"), else its first two letters
    ("Fr"), else its first letter and a later one that makes it distinct."""
    chosen: dict[str, str] = {}
    for power in powers:
        words = power.split()
        options = [words[0][0] + words[1][0]] if len(words) > 1 else []
        letters = power.replace(" ", "")
        options += [letters[0] + c for c in letters[1:]]
        chosen[power] = next((o for o in options if o not in chosen.values()), letters[:3] or power)
    return chosen


def pattern_id(shade: Shade) -> str:
    return f"{shade.pattern}-{shade.color.lstrip('#')}"


def shade_pattern(shade: Shade) -> str:
    """The pattern a shade fills with, defined under `pattern_id`."""
    return _pattern(pattern_id(shade), shade.pattern, shade.color, None)


def _border_between(
    c: BaseGeometry, d: BaseGeometry, a: BaseGeometry, b: BaseGeometry
) -> list[Point]:
    """The border regions `c` and `d` share, from where it meets region `a` to where it
    meets `b`, if it runs so; else nothing."""
    border = c.boundary.intersection(d.buffer(BORDER_WIDTH))
    if isinstance(border, shapely.MultiLineString):
        border = shapely.ops.linemerge(border)
    if not isinstance(border, shapely.LineString) or border.is_empty:
        return []
    way: list[Point] = [(x, y) for x, y in border.coords]
    if _touches(a, way[-1]) and _touches(b, way[0]):
        way.reverse()
    return way if _touches(a, way[0]) and _touches(b, way[-1]) else []


def _touches(region: BaseGeometry, xy: Point) -> bool:
    return bool(region.distance(shapely.Point(xy)) <= BORDER_WIDTH)


PATTERN_SIZE = 8  # canvas units: the side of a pattern's tile


def _pattern(name: str, kind: Pattern, color: str, ground: str | None) -> str:
    side = PATTERN_SIZE
    back = f'<rect width="{side}" height="{side}" fill="{ground}"/>' if ground else ""
    if kind is Pattern.DOTS:
        body = f'<circle cx="4" cy="4" r="1.3" fill="{color}"/>'
    elif kind is Pattern.CROSSHATCH:
        body = f'<path d="M0,0L8,8M8,0L0,8" stroke="{color}" stroke-width="1.3"/>'
    elif kind is Pattern.BACK_HATCH:
        body = f'<path d="M-2,6L2,10M0,0L8,8M6,-2L10,2" stroke="{color}" stroke-width="1.6"/>'
    else:
        body = f'<path d="M-2,2L2,-2M0,8L8,0M6,10L10,6" stroke="{color}" stroke-width="1.6"/>'
    return (
        f'<pattern id="{name}" width="{side}" height="{side}" patternUnits="userSpaceOnUse">'
        f"{back}{body}</pattern>"
    )


UNCLAIMED = _pattern("unclaimed", Pattern.HATCH, "#a79f8e", palette.UNCLAIMED)  # `ground`'s
