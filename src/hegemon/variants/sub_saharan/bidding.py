"""Sub-Saharan's bidding in a movement phase (rules 8.0, 8.1): each minor unit performs
the order with the most Diplomacy Points bid on it, and each power reads what became of
its own bids, the others only the orders the minor units perform.

Apart from the variant's class, so that the compiled core holds it: the bids are worked
out afresh in every movement phase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hegemon.game import Preparation
from hegemon.influence import dp
from hegemon.influence.orders import Bid
from hegemon.orders import MovementOrder, Order, format_order
from hegemon.position import Position

if TYPE_CHECKING:  # the variant calls this, and this reads its tables
    from hegemon.variants.sub_saharan import SubSaharan


def movement_orders(
    variant: SubSaharan, position: Position, orders: Mapping[str, Sequence[Order]]
) -> Preparation:
    """The orders each unit follows, the minor units' bought ones among them; the minor
    units' orders for everyone, and each power's own bids for it alone."""
    # The units bid for and the rules are the phase's, and each power's orders are
    # split into bids and unit orders: all worked out once, not again at each step.
    biddable = variant.biddable(position)
    rules = variant.rules_for(position)
    given_bids = {power: dp.bids_of(given) for power, given in orders.items()}
    unit_orders: dict[str, list[Order]] = {
        power: dp.unit_orders_of(given) for power, given in orders.items()
    }
    bids: dict[str, list[Bid]] = {}
    barred: dict[str, set[str]] = {}
    allotments = variant.allotments(position)
    for power, offered in given_bids.items():
        points = allotments.get(power, 0)  # none for a power not playing
        normal, problems = dp.allocation(
            variant.board, position, power, offered, points, biddable, rules
        )
        if problems:
            continue  # an allocation that breaks the rules is ignored as a whole
        barred[power] = dp.attacked_provinces(unit_orders[power])
        bids[power] = normal
    tallies = dp.tally(bids, biddable, barred)
    for t in sorted(tallies.values(), key=lambda t: t.unit.province):
        unit_orders.setdefault(t.unit.power, []).append(t.order)
    public = _neutral_orders([t.order for t in tallies.values()])
    private = {
        power: _bid_lines(power, offered, bids.get(power), barred, tallies)
        for power, offered in given_bids.items()
        if offered
    }
    return Preparation(position, unit_orders, public, private)


def _bid_lines(
    power: str,
    given: Sequence[Bid],
    normal: Sequence[Bid] | None,
    barred: Mapping[str, set[str]],
    tallies: Mapping[str, dp.Tally],
) -> tuple[str, ...]:
    """A power's own bids with what became of each, for it and the game master alone (its
    bids stay secret from the others until the game ends, rules 1.3): performed by the
    unit, outbid (or tied: the unit held), or ignored, with the rule that ignores it.
    `normal`: the bids in normal form, None when the allocation was ignored whole."""
    lines = [f"Bids of {power}"]
    attacked = barred.get(power, set())
    for bid, order in zip(given, normal or given, strict=True):
        province = bid.order.province
        if normal is None:
            note = "ignored: the allocation breaks rules 8.0/8.1"
        elif province in attacked:
            note = f"ignored: {power}'s own orders attack it (Attacking & Allocating)"
        else:
            performed = tallies[province].order
            same = performed == order.order
            note = "performed" if same else "not performed"
        lines.append(f"   {bid.format()}: {note}")
    return tuple(lines)


def _neutral_orders(orders: Sequence[MovementOrder]) -> tuple[str, ...]:
    """The public part of the bidding: each minor unit's order, never who paid for it."""
    listed = sorted(orders, key=lambda o: o.province)
    return ("Neutral Orders", *(f"   {format_order(o)}" for o in listed))
