"""Checking a power's orders when they are given, as the CLI and the server both do.

A check uses only what that power may know: the kinds of order the phase's procedure
takes, and the procedure's checks of them (a variant's procedure checks its own kinds,
bids or deployments, beside the standard ones) against the rules the power can see. What
hangs on other powers' secrets is left to adjudication, which reports it then.
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
    if procedure.one_at_a_time and not procedure.takes_ahead(variant, position, power):
        acting = procedure.actors(variant, position)
        if power not in acting:
            now = " and ".join(acting) or "nobody"
            return [f"it is not {power}'s turn in {position.phase} ({now} acts now)"]
    kinds = procedure.takes(variant, position)
    taken: list[Order] = []
    problems: list[str] = []
    for order in orders:
        if isinstance(order, kinds):
            taken.append(order)
        else:
            phase = position.phase.kind.name.lower()
            article = "an" if phase[:1] in "aeiou" else "a"
            problems.append(f"{order.format()}: not an order for {article} {phase} phase")
    return problems + procedure.check(variant, position, power, taken)
