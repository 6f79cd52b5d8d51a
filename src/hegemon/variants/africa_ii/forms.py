"""The order forms of Africa II's own orders, as a superpower fills them in: IPs to spend on
each state at the Spring IP phase (a.7), a state to declare independent (c.2) or in civil
war (a.12), aid to a state (c.3), a guerilla to raise (b.11). Each is offered only where
the power may give it, judged, as the orders are, on what that power may know."""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.board import Board
from hegemon.game.forms import Amount, Filled, Menu, OrderForm, Purse, listed
from hegemon.orders import Order
from hegemon.position import Position
from hegemon.variants.africa_ii import declarations, guerillas
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.orders import Aid, CivilWar, Independence, Raise, Spend


def spending_forms(book: Book, position: Position, power: str) -> Menu:
    """IPs to spend on each state, out of the power's revenue, by a click on any of the
    state's provinces: as many as the player likes in each (a.7, a.9)."""
    ledger = Ledger.of(position)
    available = ledger.revenue.get(power, 0)
    if not available:
        return ()
    purse = Purse("IP", available, _spent)
    territory = book.territory(ledger)
    provinces: dict[str, list[str]] = {s: [] for s in territory.active}
    for province, state in sorted(territory.province_state.items()):
        provinces.setdefault(state, []).append(province)
    return tuple(_spending(state, tuple(provinces[state]), purse) for state in territory.active)


def _spent(order: Order) -> int:
    return order.points if isinstance(order, Spend) else 0


def _spending(state: str, provinces: tuple[str, ...], purse: Purse) -> OrderForm:
    def spend(filled: Filled) -> Order:
        return Spend(filled.amount("points"), state)

    return OrderForm(
        f"spend {state}",
        f"IPs on {state}",
        sites=provinces,
        fields=(Amount("points", f"IPs to spend on {state}", 1, purse.total),),
        action="Spend IPs",
        spends=purse,
        make=spend,
    )


def declaration_forms(
    book: Book, board: Board, position: Position, power: str, autumn: bool
) -> Menu:
    """The declarations and raises `power` may make this phase, the phase of the season
    that ends with the adjustments if `autumn`."""
    kinds = declarations.kinds_in(book, position, autumn)
    ledger = Ledger.of(position)
    states = book.territory(ledger).active
    found: list[OrderForm] = []
    if Independence in kinds:
        declared = [Independence(s.name) for s in book.declared]
        found += _listed(book, position, power, "independence", "Declare independence", declared)
    if CivilWar in kinds:
        # Only where an ousted controller holds the right to (a.12): seldom anywhere.
        wars = [CivilWar(s) for s in states if s in ledger.rights]
        found += _listed(book, position, power, "civil war", "Declare civil war", wars)
    if Aid in kinds:
        found += _aid(position, power)
    if guerillas.kinds_in(book, position) and guerillas.may_raise(book, position, power):
        raises = [Raise(p) for p in sorted(board.provinces)]
        legal = [r for r in raises if not guerillas.problems(book, board, position, power, [r])]
        choices = tuple(listed(r, at=(r.province,)) for r in legal)
        found += [OrderForm("raise", "Raise a guerilla", choices)] if choices else []
    return tuple(found)


def _listed(
    book: Book, position: Position, power: str, form_id: str, title: str, orders: Sequence[Order]
) -> list[OrderForm]:
    """A form listing those of the declarations `power` may make."""
    legal = tuple(listed(o) for o in declarations.declarable(book, position, power, orders))
    return [OrderForm(form_id, title, legal)] if legal else []


def _aid(position: Position, power: str) -> list[OrderForm]:
    """Aid to each state the power controls, as many centers' worth as may still have an
    effect: one for each of the state's units (c.3 sets no limit, but more can do
    nothing; the order is accepted all the same, with a warning)."""
    forms = []
    for state in Ledger.of(position).controlled_by(power):
        most = declarations.aid_room(position, state)
        if most >= 1:
            forms.append(_aid_form(state, most))
    return forms


def _aid_form(state: str, most: int) -> OrderForm:
    def aid(filled: Filled) -> Order:
        return Aid(state, filled.amount("centers"))

    return OrderForm(
        f"aid {state}",
        f"Aid to {state}",
        fields=(Amount("centers", f"Centers' worth of aid to {state}", 1, most),),
        action=f"Aid {state}",
        make=aid,
    )
