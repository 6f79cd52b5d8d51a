"""The orders of a phase by the owner they are for (rules a.3, a.11, a.12): a superpower's
orders for the units of a state it controls are adjudicated under the state's name.

Apart from the procedures, so that the compiled core holds it: every phase sorts each of
its orders so, and a loop over every order costs a Python call an order when written in
Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.orders import Build, Order, UnitOrder
from hegemon.position import Position, Unit
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger


class Given:
    """Orders by the owner they are for: each unit order under the name of the unit's
    owner (a build, the center's owner) when its sender commands that owner's units. One
    for a state's unit its sender does not command is `refused`, with why; one naming no
    unit stays under its sender's name, for the adjudicator to refuse with the reason."""

    def __init__(self, book: Book, position: Position, orders: Mapping[str, Sequence[Order]]):
        ledger = Ledger.of(position)
        units = position.all_units  # a copy each time it is read: read once for all orders
        self.owners: dict[str, list[Order]] = {}
        self.refused: list[tuple[str, UnitOrder, str]] = []  # (sender, order, why)
        for power, sent in orders.items():
            for order in sent:
                if not isinstance(order, UnitOrder):
                    continue
                owner = owner_of(position, units, order)
                # Asked again for every order, not kept for each owner: compiled, on the
                # compiled ledger, the question costs less than a dict of the answers.
                if owner and book.commander(ledger, owner) == power:
                    self._add(owner, order)
                elif owner in book.states:
                    self.refused.append((power, order, _not_commanded(ledger, power, owner)))
                else:
                    self._add(power, order)

    def _add(self, owner: str, order: Order) -> None:
        # Not `setdefault(owner, [])`: compiled, it makes a list for every order.
        listed = self.owners.get(owner)
        if listed is None:
            self.owners[owner] = [order]
        else:
            listed.append(order)

    def problems(self) -> list[str]:
        return [f"{order.format()}: {why}" for _, order, why in self.refused]


def owner_of(position: Position, units: dict[str, Unit], order: UnitOrder) -> str:
    """Whose unit an order names (a build: whose center), "" for nobody's; `units` are
    the position's `all_units`, a dict (compiled, `.get` on a Mapping is a method call by
    name, once an order)."""
    if isinstance(order, Build):
        return position.centers.get(order.province, "")
    unit = units.get(order.province)
    return unit.power if unit is not None else ""


def _not_commanded(ledger: Ledger, power: str, state: str) -> str:
    if state in ledger.civil_wars and ledger.control.get(state) == power:
        return f"{state} is in civil war (rules a.12): its units take no orders"
    if state not in ledger.control:
        return f"nobody controls {state} (rules a.11): its units stand unordered"
    return f"{power} does not control {state}"
