"""A phase's orders as arrows, each in its power's colour: solid if it succeeded, dashed
with a cross if it failed (at its head; for a line to another order's arrow, a support or
a convoy, midway along its own line, so that the cross of a cut support is not read as
the supported move's), grey and dotted if it was void; each carries the
report's words for its result as its tooltip (and the legend lists them). An arrow
between two places close by keeps a shaft of `SHORTEST` at the least.

| order | drawn as |
| --- | --- |
| move, retreat | an arrow to the destination |
| support to move | a thin line to the middle of the supported move, ending in a dot |
| support to hold | a thin line to the supported unit, ending in a ring |
| convoy | a dotted line to the middle of the convoyed move |
| hold | a ring around the unit |
| build | a ring around the new unit, with a plus |
| disband | a cross over the unit |

Orders given but not yet adjudicated (`pending_marks`: a player's own, on the board while
ordering) are drawn the same way, solid, with no result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Secrecy,
    Support,
    format_order,
)
from hegemon.render import palette
from hegemon.render.svg import Box, Point, Sketch, Stamp, num, pt, title

GLYPH_RADIUS = 12.0  # how far an arrow stops short of a unit's point
HALO = 5.0  # the width of the halo under an order's line, its widest stroke
SHORTEST = 16.0  # the least length of an arrow's visible shaft, between neighbours close by
VOID = "#8c8c8c"
FAILED_DASH = "7 4"
Locate = Callable[[str], Point]  # where a location is drawn


def order_marks(
    outcomes: list[Outcome], locate: Locate, colors: Mapping[str, str], unit_at: Locate
) -> Iterator[Sketch]:
    """SVG for each outcome's order: `locate` finds a place, `unit_at` the unit an order
    names (beside its province if it was dislodged)."""
    moves = _moves([o.order for o in outcomes], locate)
    for outcome in outcomes:
        color = VOID if outcome.verdict is Verdict.VOID else colors.get(outcome.power, VOID)
        tip = title(f"{outcome.power}: {format_order(outcome.order)}: {outcome.note}")
        drawing = _drawing(outcome.order, locate, unit_at, moves)
        if drawing:
            styled = _styled(drawing, color, outcome.verdict)
            marked = styled.wrapped(f'<g class="order {outcome.verdict}">{tip}', "</g>")
            # An order every viewer sees is drawn alike on every board of its phase: the
            # PNG draws it once for them all (never one kept secret till the game ends).
            public = outcome.order.secrecy is not Secrecy.UNTIL_END
            yield replace(marked, stamp=Stamp(styled.svg, (0, 0))) if public else marked


def pending_marks(
    orders: list[tuple[str, Order]], locate: Locate, colors: Mapping[str, str], unit_at: Locate
) -> Iterator[Sketch]:
    """SVG for each order given and not yet adjudicated, as (power, order): drawn as it
    would be if it succeeded, marked as pending."""
    moves = _moves([order for _, order in orders], locate)
    for power, order in orders:
        drawing = _drawing(order, locate, unit_at, moves)
        if drawing:
            tip = title(f"{power}: {format_order(order)}: given, not yet adjudicated")
            styled = _styled(drawing, colors.get(power, VOID), Verdict.SUCCEEDS)
            yield styled.wrapped(f'<g class="order pending">{tip}', "</g>")


def _moves(orders: list[Order], locate: Locate) -> dict[str, tuple[Point, Point]]:
    """Where each move among the orders runs: supports and convoys point at its middle."""
    return {
        o.location: (locate(o.location), locate(o.target)) for o in orders if isinstance(o, Move)
    }


_KEY = (
    (
        (Move, Retreat),
        '<path d="M-11,0H9M4,-4L10,0L4,4"/>',
        "move or retreat: an arrow to where it goes",
    ),
    (
        (Support,),
        '<path d="M-11,5L6,-3" stroke-width="1.6"/><circle cx="7" cy="-3.5" r="2.5"/>',
        "support: a thin line to the move (dot) or unit (ring) it supports",
    ),
    (
        (Convoy,),
        '<path d="M-11,5L6,-3" stroke-width="1.6" stroke-dasharray="1 4"/>'
        '<circle cx="7" cy="-3.5" r="2.5"/>',
        "convoy: a dotted line to the army's move",
    ),
    ((Hold,), '<circle r="8"/>', "hold: a ring round the unit"),
    ((Build,), '<circle r="8"/><path d="M6,-10h8M10,-14v8"/>', "build: a ring with a plus"),
    ((Disband,), '<path d="M-6,-6L6,6M-6,6L6,-6"/>', "disband: a cross over the unit"),
)


def order_key(orders: list[Order]) -> list[tuple[str, str]]:
    """For the legend: a drawing of each kind of order among `orders`, with what it
    means."""
    kinds = {type(o) for o in orders}
    return [
        (
            f'<g fill="none" stroke="{palette.INK}" stroke-width="2.2" stroke-linecap="round" '
            f'stroke-linejoin="round">{drawing}</g>',
            meaning,
        )
        for types, drawing, meaning in _KEY
        if any(issubclass(kind, types) for kind in kinds)
    ]


def _drawing(
    order: Order, locate: Locate, unit_at: Locate, moves: Mapping[str, tuple[Point, Point]]
) -> Sketch | None:
    if isinstance(order, Move):
        return _arrow(locate(order.location), locate(order.target))
    if isinstance(order, Retreat):
        return _arrow(unit_at(order.location), locate(order.target))
    if isinstance(order, Support):
        if order.target is None:
            return _ring_line(locate(order.location), locate(order.supported))
        path = moves.get(order.supported) or (locate(order.supported), locate(order.target))
        return _dot_line(locate(order.location), _along(*path, 0.55), support=True)
    if isinstance(order, Convoy):
        path = moves.get(order.army) or (locate(order.army), locate(order.target))
        return _dot_line(locate(order.location), _along(*path, 0.5), support=False)
    if isinstance(order, Hold):
        return _circle(locate(order.location), 15)
    if isinstance(order, Build):
        x, y = locate(order.location)
        plus = f'<path d="M{num(x + 13)},{num(y - 19)}h8M{num(x + 17)},{num(y - 23)}v8"/>'
        return _circle((x, y), 16) + Sketch(plus, (x + 13, y - 23, x + 21, y - 15))
    if isinstance(order, Disband):
        return _cross(unit_at(order.location), 9)
    return None


def _styled(drawing: Sketch, color: str, verdict: Verdict) -> Sketch:
    """The drawing twice: a halo that sets it off from any ground, then in its colour."""
    dash = ""
    if verdict is Verdict.FAILS:
        dash = f' stroke-dasharray="{FAILED_DASH}"'
    elif verdict is Verdict.VOID:
        dash = ' stroke-dasharray="2 3"'
    halo = palette.outline_of(color)
    # The halo is dashed with the line: between a failed order's dashes the map shows,
    # so that a light power's failed move never reads as a border with no passage.
    styled = drawing.wrapped(
        f'<g fill="none" stroke="{halo}" stroke-width="{num(HALO)}" stroke-linecap="round" '
        f'stroke-opacity="0.75"{dash}>{drawing.svg}</g>'
        f'<g fill="none" stroke="{color}" stroke-width="2.6" stroke-linecap="round"{dash}>',
        "</g>",
        HALO / 2,
    )
    cross = _failure_cross(drawing.svg) if verdict is Verdict.FAILS else None
    return styled + cross if cross else styled


def _failure_cross(drawing: str) -> Sketch | None:
    """A red cross on a failed order's line: where a move's arrow ends; half way along a
    support's or a convoy's line, which ends on the move it helps (a cross there would
    read as that move failing, when the support was only cut)."""
    marked = drawing.rsplit('data-cross="', 1)
    if len(marked) < 2:
        return None
    x, y = (float(v) for v in marked[1].split('"', 1)[0].split(","))
    cross = _cross((x, y), 5)
    return cross.wrapped(
        f'<g stroke="#ffffff" stroke-width="4.5">{cross.svg}</g>'
        '<g stroke="#d7191c" stroke-width="2.4">',
        "</g>",
        4.5 / 2,
    )


def _arrow(start: Point, end: Point) -> Sketch:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, GLYPH_RADIUS, SHORTEST)
    angle = math.atan2(y2 - y1, x2 - x1)
    left, right = (
        (x2 - 9 * math.cos(angle + s), y2 - 9 * math.sin(angle + s)) for s in (0.45, -0.45)
    )
    head = f"M{pt(left)}L{num(x2)},{num(y2)}L{pt(right)}"
    return Sketch(
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}{head}" stroke-linejoin="round" '
        f'data-cross="{num(x2)},{num(y2)}"/>',
        _around([(x1, y1), (x2, y2), left, right]),
    )


def _dot_line(start: Point, end: Point, support: bool) -> Sketch:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, 0)
    pattern = "" if support else ' stroke-dasharray="1 4"'
    # Its end is on the arrow of the order it helps: its cross stays on its own line.
    cross = _along((x1, y1), (x2, y2), 0.5)
    line = Sketch(
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}" stroke-width="1.6"{pattern} '
        f'data-cross="{pt(cross)}"/>',
        _around([(x1, y1), (x2, y2)]),
    )
    return line + _circle((x2, y2), 2.5)


def _ring_line(start: Point, end: Point) -> Sketch:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, GLYPH_RADIUS + 4)
    line = Sketch(
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}" '
        f'data-cross="{pt(_along((x1, y1), (x2, y2), 0.5))}"/>',
        _around([(x1, y1), (x2, y2)]),
    )
    return line + _circle(end, GLYPH_RADIUS + 4)


def _circle(center: Point, radius: float) -> Sketch:
    x, y = center
    return Sketch(
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}"/>',
        (x - radius, y - radius, x + radius, y + radius),
    )


def _cross(center: Point, size: float) -> Sketch:
    x, y = center
    return Sketch(
        f'<path d="M{num(x - size)},{num(y - size)}L{num(x + size)},{num(y + size)}'
        f'M{num(x - size)},{num(y + size)}L{num(x + size)},{num(y - size)}"/>',
        (x - size, y - size, x + size, y + size),
    )


def _around(points: list[Point]) -> Box:
    """The box around the points."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _along(start: Point, end: Point, share: float) -> Point:
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def _shorten(
    start: Point, end: Point, at_start: float, at_end: float, least: float = 1.0
) -> tuple[Point, Point]:
    """The line from `start` to `end`, stopping `at_start` and `at_end` short of them
    (off the glyphs there), but with at least `least` of it left: between two places
    close by, it runs over the target's glyph, and beyond the target's point if need be."""
    length = math.dist(start, end)
    if length == 0:
        return start, end
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    at_end = min(at_end, max(0.0, length - at_start - least))
    reach = max(length - at_end, at_start + least)
    return (
        (start[0] + ux * at_start, start[1] + uy * at_start),
        (start[0] + ux * reach, start[1] + uy * reach),
    )
