"""Diplomacy Points, by the Common Ruleset for DP-based variants: pure functions.

Each player may spend its allotment of points on orders for units no player owns. For each
such unit the order with the most points in total is performed (the same order bid by
several players adds up); a tie for the most, or no bid, leaves the unit holding. A player
whose own unit attacks a minor power's province, or supports an attack on it, has all its
bids on that minor's unit ignored that turn (the Attacking & Allocating rule).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hegemon.board import Board, province_of
from hegemon.influence.orders import Bid
from hegemon.legality import Illegal, check_movement_order
from hegemon.orders import Hold, Move, MovementOrder, Order, Support, UnitOrder, format_order
from hegemon.position import Position, Unit
from hegemon.rules import Rules


def allotment(centers: int, cap: int = 3) -> int:
    """One point per supply center held, at most `cap` (Sub-Saharan 8.1)."""
    return min(cap, centers)


# Both tell a unit's order first, by its compiled class: nearly every order is one, and
# `Bid`, written in Python, is slower to test.
def bids_of(orders: Iterable[Order]) -> list[Bid]:
    return [o for o in orders if not isinstance(o, UnitOrder) and isinstance(o, Bid)]


def unit_orders_of(orders: Iterable[Order]) -> list[Order]:
    return [o for o in orders if isinstance(o, UnitOrder) or not isinstance(o, Bid)]


def attacked_provinces(orders: Iterable[Order]) -> set[str]:
    """Provinces a power's own orders move into or support a move into."""
    provinces = set()
    for order in orders:
        target = order.target if isinstance(order, (Move, Support)) else None
        if target is not None:
            provinces.add(province_of(target))
    return provinces


def allocation(
    board: Board,
    position: Position,
    power: str,
    bids: Sequence[Bid],
    points: int,
    biddable: Mapping[str, Unit],
    rules: Rules,
) -> tuple[list[Bid], list[str]]:
    """The bids in normal form (see `normal_bid`), those that may be given, and every
    reason the allocation may not be made, each naming the bid and what is wrong: one
    check of each bid serves both, where the phase needs both."""
    normal = []
    problems = []
    spent = sum(b.points for b in bids)
    if spent > points:
        problems.append(f"bids total {spent} DP, but {power} has {points} DP this turn")
    for bid in bids:
        checked = normal_bid(board, position, bid, biddable, rules)
        if isinstance(checked, Illegal):
            problems.append(f"{format_order(bid)}: {checked.reason}")
        else:
            # The very bid, when its order was in normal form already (most are): a new
            # `Bid` would run its `@dataclass` __init__ as Python.
            normal.append(bid if checked is bid.order else Bid(bid.points, checked))
    return normal, problems


def normal_bid(
    board: Board, position: Position, bid: Bid, biddable: Mapping[str, Unit], rules: Rules
) -> MovementOrder | Illegal:
    """The bid's order in normal form, or why it cannot be given to that unit."""
    unit = biddable.get(bid.order.province)
    if unit is None:
        return Illegal(f"{board.name_of(bid.order.province)} holds no minor power's unit")
    checked = check_movement_order(board, position, unit.power, bid.order, rules)
    # "S A Lua - Bra" and "S Lua - Bra" are one order (made anew only if it names the
    # kind; made by its class rather than `dataclasses.replace`, which runs as Python).
    if isinstance(checked, Support) and checked.supported_unit is not None:
        checked = Support(checked.unit, checked.location, checked.supported, checked.target)
    return checked


# Its own __init__ (init=False), as the standard orders write theirs: compiled, far
# quicker than a frozen dataclass's, made for every minor unit every movement phase.
@dataclass(frozen=True, init=False)
class Tally:
    """The bidding for one unit: points per order, and the order it will perform."""

    unit: Unit
    points: Mapping[MovementOrder, int]
    order: MovementOrder

    def __init__(
        self, unit: Unit, points: Mapping[MovementOrder, int], order: MovementOrder
    ) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "order", order)


def tally(
    bids: Mapping[str, Sequence[Bid]],
    biddable: Mapping[str, Unit],
    barred: Mapping[str, set[str]],
) -> dict[str, Tally]:
    """For each biddable unit (by province), the points on each order and the winner.

    `bids` maps each power to its bids, already in normal form (see `normal_bid`);
    `barred` maps each power to the provinces whose units it may not bid on this turn.
    """
    points: dict[str, dict[MovementOrder, int]] = {p: {} for p in biddable}
    for power, power_bids in bids.items():
        excluded = barred.get(power)
        for bid in power_bids:
            order = bid.order  # read once: a bid is a Python object
            province = order.province
            if province in points and (excluded is None or province not in excluded):
                totals = points[province]
                totals[order] = totals.get(order, 0) + bid.points
    tallies = {}
    for province, unit in biddable.items():
        totals = points[province]
        tallies[province] = Tally(unit, totals, _winner(unit, totals))
    return tallies


def _winner(unit: Unit, totals: dict[MovementOrder, int]) -> MovementOrder:
    """The order with the most points alone; a hold when there is none, or a tie for the
    most. One pass over the dict (compiled, `max` over its values is a Python call)."""
    best: int | None = None
    leader: MovementOrder | None = None
    for order, points in totals.items():
        if best is None or points > best:
            best, leader = points, order
        elif points == best:
            leader = None  # tied, unless a later order has more
    return leader if leader is not None else Hold(unit.type, unit.location)
