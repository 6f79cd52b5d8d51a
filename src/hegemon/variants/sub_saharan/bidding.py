"""Sub-Saharan's bidding in a movement phase (rules 8.0, 8.1): each minor unit performs
the order with the most Diplomacy Points bid on it, and each power reads what became of
its own bids, the others only the orders the minor units perform.

Apart from the variant's class, so that the compiled core holds it: the bids are worked
out afresh in every movement phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from hegemon.game import Preparation
from hegemon.influence import dp
from hegemon.influence.orders import Bid
from hegemon.orders import Order
from hegemon.position import Position, Unit
from hegemon.variants.sub_saharan.reports import bidding_lines

if TYPE_CHECKING:  # the variant calls this, and this reads its tables
    from hegemon.variants.sub_saharan import SubSaharan


def movement_orders(
    variant: SubSaharan, position: Position, orders: Mapping[str, Sequence[Order]]
) -> Preparation:
    """The orders each unit follows, the minor units' bought ones among them; the minor
    units' orders for everyone, and each power's own bids for it alone, told when the
    report is first read (`reports.bidding_lines`)."""
    # The units bid for and the rules are the phase's, and each power's orders are
    # split into bids and unit orders: all worked out once, not again at each step.
    units = biddable(variant.minor_names, position)
    rules = variant.rules_for(position)
    given_bids = {power: dp.bids_of(given) for power, given in orders.items()}
    unit_orders: dict[str, list[Order]] = {
        power: dp.unit_orders_of(given) for power, given in orders.items()
    }
    bids: dict[str, list[Bid]] = {}
    barred: dict[str, set[str]] = {}
    points_of = allotments(variant.powers, position)
    for power, offered in given_bids.items():
        points = points_of.get(power, 0)  # none for a power not playing
        normal, problems = dp.allocation(
            variant.board, position, power, offered, points, units, rules
        )
        if problems:
            continue  # an allocation that breaks the rules is ignored as a whole
        barred[power] = dp.attacked_provinces(unit_orders[power])
        bids[power] = normal
    tallies = dp.tally(bids, units, barred)
    for t in sorted(tallies.values(), key=lambda t: t.unit.province):
        unit_orders.setdefault(t.unit.power, []).append(t.order)
    told = partial(bidding_lines, given_bids, bids, barred, tallies)  # written when read
    return Preparation(position, unit_orders, told=told)


def biddable(minors: frozenset[str], position: Position) -> dict[str, Unit]:
    """The minor powers' units, which the powers bid for, by province."""
    return {u.province: u for u in position.units.values() if u.power in minors}


def allotments(powers: Iterable[str], position: Position) -> dict[str, int]:
    """The Diplomacy Points each power's centers give it (rules 8.1)."""
    counts = position.center_counts
    return {power: dp.allotment(counts.get(power, 0)) for power in powers}
