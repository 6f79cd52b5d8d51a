"""Intervention units coming onto the board: paratroops dropped before the moves (rules
b.4), marines landing from their fleet only into an unoccupied coast (b.5).

A drop is ordered as an entry from off the board, ``P OFFBOARD - Joh``, into an unoccupied
land province (`rules.AfricaRules.may_enter_board`). The drops are resolved as a movement
phase is prepared, "BEFORE other units move": two into one province stand each other off
and stay off the board; every other paratroop is put on the board, where it holds through
the moves that follow, as a unit given no order. A landing, ``M Sao - Lus``, is the core's
move of a unit aboard: it moves "simultaneously with other units, and may be stood off";
here it is refused into a province occupied as the moves begin (a paratroop dropped there
included), and stays aboard if it was given so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.beyond import may_enter_board
from hegemon.board import OFFBOARD, Board
from hegemon.game.forms import Choice
from hegemon.orders import Move, Order
from hegemon.position import Position, Unit
from hegemon.rules import Rules
from hegemon.variants.africa_ii.rules import FLEET, NO_OFFBOARD, PARATROOP


def is_drop(order: Order) -> bool:
    return isinstance(order, Move) and order.location == OFFBOARD and order.unit.letter == PARATROOP


def landing_problem(board: Board, position: Position, order: Order) -> str | None:
    """Why an order that lands a unit aboard may not be given now: its province occupied
    (b.5: "into an unoccupied coastal province"). None for any other order."""
    if not isinstance(order, Move) or OFFBOARD in (order.location, order.target):
        return None
    carrier = position.unit_in(order.province)
    if carrier is None or carrier.type == order.unit or carrier.aboard(order.unit) is None:
        return None
    if position.unit_in(order.destination) is None:
        return None
    name = board.name_of(order.destination)
    return f"{name} is occupied: a marine lands in an unoccupied coastal province (rules b.5)"


def landable(board: Board, position: Position, choices: tuple[Choice, ...]) -> tuple[Choice, ...]:
    """The choices but the landings `landing_problem` refuses now: found here, compiled,
    for the forms of the units aboard and their carriers, every power's, every phase."""
    return tuple([c for c in choices if landing_problem(board, position, c.order) is None])


def arrival_problem(board: Board, position: Position, power: str, order: Order) -> str | None:
    """Why an order bringing a unit of `power` onto the board, landing or entering it, may
    not be given now (b.4 to b.6); None for any other order."""
    return landing_problem(board, position, order) or entry_problem(board, position, power, order)


def entry_problem(board: Board, position: Position, power: str, order: Order) -> str | None:
    """Why an order bringing a unit of `power` onto the board may not be given now, in the
    rules' terms: its province occupied (b.4: a paratroop drops "in any unoccupied land
    province"; b.6: a fleet enters "any unoccupied sea province"), or a fleet entering by
    the Mozambique Channel (b.6). None for any other order, and for an entry the core
    refuses for another reason (a fleet into a coast)."""
    if not isinstance(order, Move) or order.location != OFFBOARD:
        return None
    target = order.destination
    if position.offboard_unit(power, order.unit) is None or target not in board.provinces:
        return None
    name = board.name_of(target)
    if order.unit.letter == FLEET and NO_OFFBOARD in board.provinces[target].tags:
        return f"no fleet enters the board by the {name} (rules b.6)"
    if position.unit_in(target) is None:
        return None
    if order.unit.letter == PARATROOP:
        return f"{name} is occupied: a paratroop drops into an unoccupied land province (rules b.4)"
    return f"{name} is occupied: a fleet enters an unoccupied sea (rules b.6)"


def drop(
    board: Board, rules: Rules, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Position, dict[str, list[Order]], list[str]]:
    """The paratroops dropped (b.4): the position with them on the board, the orders left
    for the moves, and what everyone reads of the drops."""
    dropping: dict[str, list[tuple[str, Unit, Order]]] = {}
    lines = []
    others: dict[str, list[Order]] = {}
    for power, given in orders.items():
        others[power] = [o for o in given if not is_drop(o)]
        for order in given:
            if not is_drop(order):
                continue
            assert isinstance(order, Move)
            unit = position.offboard_unit(power, order.unit)
            target = order.destination
            if unit is None or target not in board.provinces:
                lines.append(f"   {power}: {order.format()}: void, no paratroop to drop there")
            elif not may_enter_board(rules, board, unit, target, position.unit_in(target)):
                why = "it drops into an unoccupied land province (rules b.4)"
                lines.append(f"   {power}: {order.format()}: void, {why}")
            else:
                dropping.setdefault(target, []).append((power, unit, order))
    for target, drops in sorted(dropping.items()):
        if len(drops) > 1:
            lines += [f"   {p}: {o.format()}: stood off, off the board still" for p, _, o in drops]
            continue
        ((power, unit, order),) = drops
        position = position.removed(unit).placed(unit.moved_to(target))
        lines.append(f"   {power}: {order.format()}: dropped; it holds this turn")
    return position, others, (["Paratroop drops (rules b.4)", *lines] if lines else [])


def void_landings(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[str, list[Order]], list[str]]:
    """The orders without the landings into an occupied province (a file's orders edited
    by hand, or a paratroop dropped there): their marines stay aboard."""
    kept: dict[str, list[Order]] = {}
    lines = []
    for power, given in orders.items():
        kept[power] = []
        for order in given:
            why = landing_problem(board, position, order)
            if why is None:
                kept[power].append(order)
            else:
                lines.append(f"   {power}: {order.format()}: void, {why}; it stays aboard")
    return kept, (["Landings (rules b.5)", *lines] if lines else [])
