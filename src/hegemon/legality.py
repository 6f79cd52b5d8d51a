"""Whether an order may be given, and if not, exactly why.

Each check returns the order in its normal form (the unit's real coast, the destination's
coast filled in where only one is reachable) or an `Illegal` naming the reason in words a
player understands. Checks follow the DATC's preferred rules; the case that decides each
one is cited beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hegemon.board import Board, UnitType, province_of
from hegemon.orders import Convoy, Hold, Move, MovementOrder, Order, Support, UnitOrder
from hegemon.position import Position, Unit
from hegemon.rules import Rules


@dataclass(frozen=True, slots=True)
class Illegal:
    reason: str


def commanded_unit(board: Board, unit: Unit | None, power: str, order: UnitOrder) -> Unit | Illegal:
    """The unit an order commands (`unit`, found at the order's province), if `power` may
    command it."""
    where = board.name_of(order.province)
    if unit is None:
        return Illegal(f"there is no unit in {where}")
    if unit.power != power:  # DATC 6.A.6
        return Illegal(f"the unit in {where} belongs to {unit.power}")
    if unit.type is not order.unit:
        return Illegal(f"the unit in {where} is {_article(unit.type)}, not {_article(order.unit)}")
    return unit


def check_movement_order(
    board: Board, position: Position, power: str, order: Order, rules: Rules
) -> MovementOrder | Illegal:
    if not isinstance(order, Hold | Move | Support | Convoy):
        return Illegal(f"{type(order).__name__.lower()} orders belong to another phase")
    unit = commanded_unit(board, position.units.get(order.province), power, order)
    if isinstance(unit, Illegal):
        return unit
    match order:
        case Hold():
            return Hold(unit.type, unit.location)
        case Move():
            return _check_move(board, position, unit, order, rules)
        case Support():
            return _check_support(board, position, unit, order)
        case Convoy():
            return _check_convoy(board, position, unit, order, rules)
    raise AssertionError(order)


def _check_move(
    board: Board, position: Position, unit: Unit, order: Move, rules: Rules
) -> Move | Illegal:
    target = province_of(order.target)
    name = board.name_of(target)
    if target == unit.province:  # DATC 6.A.4, 6.A.5
        return Illegal("a unit cannot move to the province it is in")
    if not rules.may_enter(unit, target):
        return Illegal(f"no unit may enter {name}")
    if unit.type is UnitType.ARMY:
        return _check_army_move(board, position, unit, target, order.via_convoy)
    location = fleet_destination(board, unit.location, order.target)
    if isinstance(location, Illegal):
        return location
    return Move(unit.type, unit.location, location)


def _check_army_move(
    board: Board, position: Position, unit: Unit, target: str, via_convoy: bool
) -> Move | Illegal:
    name = board.name_of(target)
    if board.provinces[target].is_sea:  # DATC 6.A.2
        return Illegal("armies cannot enter sea provinces")
    # A coast named for an army's destination is ignored (DATC 6.B.12).
    if board.adjacent(UnitType.ARMY, unit.location, target):
        return Move(unit.type, unit.location, target, via_convoy)
    here = board.name_of(unit.location)
    if not could_be_convoyed(board, unit.province, target):
        return Illegal(f"{here} does not border {name}, and no sea route joins them")
    # Overseas moves need fleets standing along some route, whatever their orders
    # (DATC 6.D.8 against 6.D.32).
    fleets = [u.province for u in position.units.values() if u.type is UnitType.FLEET]
    if not board.sea_chain(unit.province, target, fleets):
        return Illegal(f"no fleets stand between {here} and {name} to convoy it")
    return Move(unit.type, unit.location, target, via_convoy)


def fleet_destination(board: Board, origin: str, written: str) -> str | Illegal:
    """The location a fleet at `origin` moves to when ordered to `written`."""
    target = province_of(written)
    name = board.name_of(target)
    if board.provinces[target].terrain.value == "land":  # DATC 6.A.3
        return Illegal(f"fleets cannot enter inland provinces such as {name}")
    reachable = [
        loc for loc in board.locations(target) if board.adjacent(UnitType.FLEET, origin, loc)
    ]
    here = board.name_of(origin)
    if not reachable:  # DATC 6.A.1
        return Illegal(f"a fleet in {here} cannot reach {name}")
    if written != target and board.provinces[target].coasts:
        if written not in reachable:  # DATC 6.B.2
            return Illegal(f"a fleet in {here} cannot reach {board.name_of(written)}")
        return written
    if len(reachable) > 1:  # DATC 6.B.1
        return Illegal(f"say which coast of {name}: {' or '.join(reachable)}")
    return reachable[0]


def _check_support(
    board: Board, position: Position, unit: Unit, order: Support
) -> Support | Illegal:
    supported = position.units.get(province_of(order.supported))
    where = board.name_of(province_of(order.supported))
    if supported is None:
        return Illegal(f"there is no unit in {where} to support")
    if supported.province == unit.province:
        return Illegal("a unit cannot support itself")
    goal = province_of(order.target) if order.target else supported.province
    if order.target is not None and goal == supported.province:
        return Illegal("the supported unit cannot move to the province it is in")
    if goal == unit.province:
        return Illegal("a unit cannot support a move into its own province")
    if not board.reaches_province(unit.type, unit.location, goal):  # DATC 6.A.3.fleet...
        return Illegal(
            f"{_article(unit.type)} in {board.name_of(unit.location)} cannot reach "
            f"{board.name_of(goal)}"
        )
    target = order.target
    if target is not None and supported.type is UnitType.ARMY:
        target = province_of(target)
    return Support(unit.type, unit.location, supported.province, target, order.supported_unit)


def _check_convoy(
    board: Board, position: Position, unit: Unit, order: Convoy, rules: Rules
) -> Convoy | Illegal:
    if not rules.may_convoy(board, unit):  # DATC 6.A.7
        return Illegal(f"{_article(unit.type)} in {board.name_of(unit.location)} cannot convoy")
    army_at, target = province_of(order.army), province_of(order.target)
    army = position.units.get(army_at)
    if army is None or army.type is not UnitType.ARMY:
        return Illegal(f"there is no army in {board.name_of(army_at)} to convoy")
    # A fleet that could never be part of a route shows no intent (DATC 6.G.7).
    if not could_be_convoyed(board, army_at, target, through=unit.province):
        return Illegal(
            f"{board.name_of(unit.location)} lies on no sea route from "
            f"{board.name_of(army_at)} to {board.name_of(target)}"
        )
    return Convoy(unit.type, unit.location, army_at, target)


def could_be_convoyed(board: Board, origin: str, target: str, through: str | None = None) -> bool:
    """Whether a chain of seas could carry an army from origin to target (via `through`)."""
    if not (board.is_coastal(origin) and board.is_coastal(target)) or origin == target:
        return False
    regions = board.sea_regions
    starts = {regions[s] for s in board.seas_touching[origin]}
    ends = {regions[s] for s in board.seas_touching[target]}
    common = starts & ends
    return bool(common) if through is None else regions.get(through) in common


def _article(unit: UnitType) -> str:
    return f"an {unit.noun}" if unit is UnitType.ARMY else f"a {unit.noun}"
