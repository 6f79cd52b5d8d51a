"""What the report of a movement phase tells of the bidding (rules 1.3, 8.0): each minor
unit's order for everyone, and to each power alone every bid of its own with what became
of it.

Written when first read (`Preparation.told`), not when the phase is played: a phase's
result is kept in the game's history and its report read seldom, while writing the lines
cost a fifth of the phase. Python, not in the compiled core: they are written once a
phase at most, and read at leisure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.game import Lines
from hegemon.influence import dp
from hegemon.influence.orders import Bid
from hegemon.orders import MovementOrder, format_order


def bidding_lines(
    given: Mapping[str, Sequence[Bid]],
    normal: Mapping[str, Sequence[Bid]],
    barred: Mapping[str, set[str]],
    tallies: Mapping[str, dp.Tally],
) -> Lines:
    """The minor units' orders for everyone, never who paid for them; the lines of each
    power that bid (`bid_lines`), for it alone. `given`: each power's bids as given;
    `normal`: in normal form, of the powers whose allocation stands."""
    public = neutral_orders([t.order for t in tallies.values()])
    private = {
        power: bid_lines(power, bids, normal.get(power), barred, tallies)
        for power, bids in given.items()
        if bids
    }
    return Lines(public, private)


def neutral_orders(orders: Sequence[MovementOrder]) -> tuple[str, ...]:
    """The public part of the bidding: each minor unit's order, never who paid for it."""
    listed = sorted(orders, key=lambda o: o.province)
    return ("Neutral Orders", *(f"   {format_order(o)}" for o in listed))


def bid_lines(
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
