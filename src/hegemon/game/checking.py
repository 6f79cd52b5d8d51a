"""Checking a power's orders when they are given, as the CLI and the server both do.

A check uses only what that power may know: the kinds of order the phase takes, the
variant's checks of its own orders (bids, deployments), and the procedure's checks of the
standard ones against the rules the power can see. What hangs on other powers' secrets is
left to adjudication, which reports it then.
"""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.game.variant import Variant
from hegemon.orders import Order
from hegemon.position import Position


def order_problems(
    variant: Variant, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Why `power` may not give these orders now; each problem names the order."""
    procedure = variant.calendar.procedure(position.phase)
    if procedure.one_at_a_time:
        acting = procedure.actors(variant, position)
        if power not in acting:
            now = " and ".join(acting) or "nobody"
            return [f"it is not {power}'s turn in {position.phase} ({now} acts now)"]
    own_kinds = variant.orders_in(position)
    standard: list[Order] = []
    own: list[Order] = []
    problems: list[str] = []
    for order in orders:
        if isinstance(order, procedure.orders):
            standard.append(order)
        elif isinstance(order, own_kinds):
            own.append(order)
        else:
            phase = position.phase.kind.name.lower()
            article = "an" if phase[:1] in "aeiou" else "a"
            problems.append(f"{order.format()}: not an order for {article} {phase} phase")
    problems += variant.order_problems(position, power, own)
    problems += procedure.check(variant, position, power, standard)
    return problems
