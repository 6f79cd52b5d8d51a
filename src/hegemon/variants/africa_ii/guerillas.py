"""Guerillas (rules b.10 to b.12): China's and the Soviet Union's intervention units.

A guerilla is raised (``Raise G Kal``) or disbanded (``Disband G Kal``) by an order given
with a turn's movement orders, and either takes the whole turn, happening after its
retreats (b.11): a guerilla to be disbanded holds meanwhile, and one raised appears only if
its province is still empty then. It is raised in an unoccupied province that is no supply
center, and a power may have at most one more guerilla than the centers its guerillas hold
(b.12), which they capture for it; the Autumn adjustments disband the excess, as units
without supply (`rules.AfricaRules`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from hegemon.board import Board
from hegemon.orders import Disband, Order, UnitOrder, place
from hegemon.position import PhaseKind, Position, Unit, editable
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.orders import Raise

GUERILLA: Final = "G"
_RAISE_CHANCE = 0.3  # how often a random player raises a guerilla it may raise
_DISBAND_CHANCE = 0.05  # how often it disbands one of its guerillas


def kinds_in(book: Book, position: Position) -> tuple[type[Order], ...]:
    """Raises and disbands, with the movement orders, where some power raises guerillas."""
    raised = any(book.places(p, GUERILLA) for p in book.powers)
    return (Raise, Disband) if raised and position.phase.kind is PhaseKind.MOVEMENT else ()


def guerillas(position: Position, power: str) -> list[Unit]:
    return [u for u in position.units.values() if u.power == power and u.type.letter == GUERILLA]


def may_raise(book: Book, position: Position, power: str) -> bool:
    """Whether the power raises guerillas and has fewer than its limit (b.12)."""
    return book.places(power, GUERILLA) and (
        len(guerillas(position, power)) < book.guerilla_limit(position, power)
    )


def problems(
    book: Book, board: Board, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Why raises and disbands may not be given, each naming the order."""
    return [
        f"{order.format()}: {why}" for order, why in _refused(book, board, position, power, orders)
    ]


def _refused(
    book: Book, board: Board, position: Position, power: str, orders: Sequence[Order]
) -> list[tuple[Order, str]]:
    """Each raise or disband that may not be made, with why. The disbands are counted
    first: a power may raise as many guerillas as it disbands at its limit."""
    refused: list[tuple[Order, str]] = []
    count = len(guerillas(position, power))
    for order in orders:
        if isinstance(order, Disband):
            unit = position.unit_in(order.province)
            if unit is None or unit.power != power or unit.type.letter != GUERILLA:
                own = "only one's own guerillas are disbanded with the movement orders (rules b.11)"
                refused.append((order, own))
            else:
                count -= 1
    limit = book.guerilla_limit(position, power)
    for order in orders:
        if isinstance(order, Raise):
            why = _raise_problem(book, board, position, power, order.province)
            if why is None and count >= limit:
                why = (
                    f"{power} may have {limit} guerilla{'s' if limit != 1 else ''} at most: one "
                    f"more than the centers its guerillas hold (rules b.12)"
                )
            if why is None:
                count += 1
            else:
                refused.append((order, why))
    return refused


def _raise_problem(
    book: Book, board: Board, position: Position, power: str, province: str
) -> str | None:
    name = board.name_of(province)
    if not book.places(power, GUERILLA):
        return f"{power} raises no guerillas (rules b.10: China and the Soviet Union do)"
    if board.provinces[province].is_sea:
        return f"{name} is a sea: guerillas are raised on land"
    if province in board.centers:
        return f"{name} is a supply center (rules b.11: raised in a province that is none)"
    if province in position.units:
        return f"{name} is occupied (rules b.11: raised in an unoccupied province)"
    return None


def take(
    book: Book, board: Board, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Position, dict[str, list[Order]], list[str]]:
    """The raises and disbands given with a movement phase's orders (the latest for each
    unit), kept in the ledger for after the retreats; the position, the other orders (a
    guerilla to be disbanded gets none: it holds) and what everyone reads of them."""
    raising: dict[str, list[str]] = {}
    disbanding: dict[str, str] = {}
    lines = []
    others: dict[str, list[Order]] = {}
    for power, given in orders.items():
        mine = [o for o in given if _mustering(o)]
        if not mine:  # most powers raise none: their limit is not worked out
            others[power] = list(given)
            continue
        refused = dict(_refused(book, board, position, power, mine))
        for order in mine:
            why = refused.get(order)
            told = f"void, {why}" if why else "after the retreats"
            lines.append(f"   {power}: {order.format()}: {told}")
            if why is not None:
                continue
            if isinstance(order, Raise):
                raising.setdefault(order.province, []).append(power)
            elif isinstance(order, Disband):
                disbanding[order.province] = power
        others[power] = [o for o in given if o not in mine]
    ledger = Ledger.of(position)
    raised = {p: tuple(powers) for p, powers in raising.items()}
    if raised != ledger.raising or disbanding != ledger.disbanding:  # seldom: a ledger is big
        position = position.evolve(state=ledger.replace(raising=raised, disbanding=disbanding))
    public = ["Guerillas (rules b.11)", *lines] if lines else []
    return position, others, public


def _mustering(order: Order) -> bool:
    """Whether the order raises or disbands a guerilla. A unit's order is told first, by
    the compiled classes: nearly every order is one, and `Raise`, written in Python, is
    slower to test."""
    if isinstance(order, UnitOrder):
        return isinstance(order, Disband)
    return isinstance(order, Raise)


def muster(board: Board, position: Position) -> Position:
    """After a turn's retreats (b.11): the guerillas ordered disbanded go (one dislodged
    meanwhile went at once), then those ordered raised appear where their province is
    still empty; two raised in one province stand each other off."""
    ledger = Ledger.of(position)
    if not ledger.raising and not ledger.disbanding:
        return position
    units = editable(position.units)
    lines = []
    for province, power in sorted(ledger.disbanding.items()):
        unit = units.get(province)
        if unit is not None and unit.power == power and unit.type.letter == GUERILLA:
            del units[province]
            lines.append(f"{power} disbands G {place(province)} (rules b.11)")
    for province, powers in sorted(ledger.raising.items()):
        where = place(province)
        if len(powers) > 1:
            lines.append(f"Guerillas of {' and '.join(powers)} stand each other off in {where}")
        elif province in units:
            lines.append(f"{powers[0]}'s G {where} is not raised: {where} is occupied")
        else:
            units[province] = Unit(powers[0], board.kinds[GUERILLA], province)
            lines.append(f"{powers[0]} raises G {where} (rules b.11)")
    news = (*ledger.news, *lines)
    ledger = ledger.replace(raising={}, disbanding={}, news=news)
    return position.evolve(units=units, state=ledger)


def random_orders(
    book: Book, board: Board, position: Position, power: str, rng: random.Random
) -> list[Order]:
    """A random player's raise, now and then, where it may raise one, and more rarely a
    disband of one of its guerillas."""
    if not book.places(power, GUERILLA):
        return []
    orders: list[Order] = []
    own = guerillas(position, power)
    if own and rng.random() < _DISBAND_CHANCE:
        unit = rng.choice(own)
        orders.append(Disband(unit.type, unit.location))
    if rng.random() < _RAISE_CHANCE:
        free = [
            p
            for p, province in sorted(board.provinces.items())
            if not province.is_sea and p not in board.centers and p not in position.units
        ]
        if free:
            orders.append(Raise(rng.choice(free)))
    refused = {o for o, _ in _refused(book, board, position, power, orders)}
    return [o for o in orders if o not in refused]
