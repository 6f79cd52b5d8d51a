"""A phase's orders as arrows, each in its power's colour: solid if it succeeded, dashed
with a cross at its head if it failed, grey and dotted if it was void; each carries the
report's words for its result as its tooltip.

| order | drawn as |
| --- | --- |
| move, retreat | an arrow to the destination |
| support to move | a thin line to the middle of the supported move, ending in a dot |
| support to hold | a thin line to the supported unit, ending in a ring |
| convoy | a dotted line to the middle of the convoyed move |
| hold | a ring around the unit |
| build | a ring around the new unit, with a plus |
| disband | a cross over the unit |
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, format_order
from hegemon.render import palette
from hegemon.render.svg import Point, num, pt, title

GLYPH_RADIUS = 12.0  # how far an arrow stops short of a unit's point
VOID = "#8c8c8c"
Locate = Callable[[str], Point]  # where a location is drawn


def order_marks(
    outcomes: list[Outcome], locate: Locate, colors: Mapping[str, str], unit_at: Locate
) -> Iterator[str]:
    """SVG for each outcome's order: `locate` finds a place, `unit_at` the unit an order
    names (beside its province if it was dislodged)."""
    moves = {
        o.order.location: (locate(o.order.location), locate(o.order.target))
        for o in outcomes
        if isinstance(o.order, Move)
    }
    for outcome in outcomes:
        color = VOID if outcome.verdict is Verdict.VOID else colors.get(outcome.power, VOID)
        tip = title(f"{outcome.power}: {format_order(outcome.order)}: {outcome.note}")
        drawing = _drawing(outcome, locate, unit_at, moves)
        if drawing:
            yield f'<g class="order {outcome.verdict}">{tip}{_styled(drawing, color, outcome)}</g>'


def _drawing(
    outcome: Outcome,
    locate: Locate,
    unit_at: Locate,
    moves: Mapping[str, tuple[Point, Point]],
) -> str:
    order = outcome.order
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
        return (
            _circle((x, y), 16)
            + f'<path d="M{num(x + 13)},{num(y - 19)}h8M{num(x + 17)},{num(y - 23)}v8"/>'
        )
    if isinstance(order, Disband):
        return _cross(unit_at(order.location), 9)
    return ""


def _styled(drawing: str, color: str, outcome: Outcome) -> str:
    """The drawing twice: a halo that sets it off from any ground, then in its colour."""
    dash = ""
    if outcome.verdict is Verdict.FAILS:
        dash = ' stroke-dasharray="7 4"'
    elif outcome.verdict is Verdict.VOID:
        dash = ' stroke-dasharray="2 3"'
    halo = palette.outline_of(color)
    head = _failure_cross(drawing) if outcome.verdict is Verdict.FAILS else ""
    return (
        f'<g fill="none" stroke="{halo}" stroke-width="5" stroke-linecap="round" '
        f'stroke-opacity="0.75">{drawing}</g>'
        f'<g fill="none" stroke="{color}" stroke-width="2.6" stroke-linecap="round"{dash}>'
        f"{drawing}</g>{head}"
    )


def _failure_cross(drawing: str) -> str:
    """A red cross where a failed order's line ends."""
    end = drawing.rsplit('data-end="', 1)
    if len(end) < 2:
        return ""
    x, y = (float(v) for v in end[1].split('"', 1)[0].split(","))
    return (
        f'<g stroke="#ffffff" stroke-width="4.5">{_cross((x, y), 5)}</g>'
        f'<g stroke="#d7191c" stroke-width="2.4">{_cross((x, y), 5)}</g>'
    )


def _arrow(start: Point, end: Point) -> str:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, GLYPH_RADIUS)
    angle = math.atan2(y2 - y1, x2 - x1)
    left, right = (
        (x2 - 9 * math.cos(angle + s), y2 - 9 * math.sin(angle + s)) for s in (0.45, -0.45)
    )
    head = f"M{pt(left)}L{num(x2)},{num(y2)}L{pt(right)}"
    return (
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}{head}" stroke-linejoin="round" '
        f'data-end="{num(x2)},{num(y2)}"/>'
    )


def _dot_line(start: Point, end: Point, support: bool) -> str:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, 0)
    pattern = "" if support else ' stroke-dasharray="1 4"'
    return (
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}" stroke-width="1.6"{pattern} '
        f'data-end="{num(x2)},{num(y2)}"/><circle cx="{num(x2)}" cy="{num(y2)}" r="2.5"/>'
    )


def _ring_line(start: Point, end: Point) -> str:
    (x1, y1), (x2, y2) = _shorten(start, end, GLYPH_RADIUS, GLYPH_RADIUS + 4)
    return (
        f'<path d="M{num(x1)},{num(y1)}L{num(x2)},{num(y2)}" data-end="{num(x2)},{num(y2)}"/>'
        + _circle(end, GLYPH_RADIUS + 4)
    )


def _circle(center: Point, radius: float) -> str:
    return f'<circle cx="{num(center[0])}" cy="{num(center[1])}" r="{num(radius)}"/>'


def _cross(center: Point, size: float) -> str:
    x, y = center
    return (
        f'<path d="M{num(x - size)},{num(y - size)}L{num(x + size)},{num(y + size)}'
        f'M{num(x - size)},{num(y + size)}L{num(x + size)},{num(y - size)}"/>'
    )


def _along(start: Point, end: Point, share: float) -> Point:
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def _shorten(start: Point, end: Point, at_start: float, at_end: float) -> tuple[Point, Point]:
    length = math.dist(start, end)
    if length <= at_start + at_end + 1:
        return start, end
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    return (
        (start[0] + ux * at_start, start[1] + uy * at_start),
        (end[0] - ux * at_end, end[1] - uy * at_end),
    )
