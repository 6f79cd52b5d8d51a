"""Whether an order may be given, and if not, exactly why.

Each check returns the order in its normal form (the unit's real coast, the destination's
coast filled in where only one is reachable) or an `Illegal` naming the reason in words a
player understands. Checks follow the DATC's preferred rules; the case that decides each
one is cited beside it.
"""

from __future__ import annotations

from hegemon.beyond import Embark, Leave, may_carry, may_enter_board
from hegemon.board import COAST_REQUIRED, OFFBOARD, Board, Terrain, province_of
from hegemon.orders import (
    Convoy,
    Hold,
    Move,
    MovementOrder,
    Order,
    OwnOrder,
    Support,
    UnitOrder,
)
from hegemon.orders import Illegal as Illegal  # re-exported, beside the checks that make it
from hegemon.position import Position, Unit
from hegemon.rules import Rules


def commanded_unit(board: Board, unit: Unit | None, power: str, order: UnitOrder) -> Unit | Illegal:
    """The unit an order commands (`unit`, found at the order's province), if `power` may
    command it."""
    if unit is not None and unit.power == power and _same_kind(unit, order):
        return unit
    where = board.name_of(order.province)
    if unit is None:
        return Illegal(f"there is no unit in {where}")
    if unit.power != power:  # DATC 6.A.6
        return Illegal(f"the unit in {where} belongs to {unit.power}")
    return Illegal(f"the unit in {where} is {unit.type.article}, not {order.unit.article}")


def ordered_unit(position: Position, power: str, order: UnitOrder) -> Unit | None:
    """The unit an order of `power` names: the one in its province, or the one of the kind
    it names aboard it (``M Sao``), or `power`'s off the board (``F OFFBOARD``)."""
    unit = position.unit_in(order.province)
    if not position.beyond_the_board:
        return unit
    if order.location == OFFBOARD:
        return position.offboard_unit(power, order.unit)
    if unit is not None and not _same_kind(unit, order):
        return unit.aboard(order.unit) or unit
    return unit


def _same_kind(unit: Unit, order: UnitOrder) -> bool:
    """Whether the order names the unit's kind (the same object, as a rule)."""
    return unit.type is order.unit or unit.type == order.unit


def check_movement_order(
    board: Board, position: Position, power: str, order: Order, rules: Rules
) -> MovementOrder | Illegal:
    """The order in its normal form, or why it may not be given. An order of a kind of
    its own (`OwnOrder`) checks itself, for the unit it commands."""
    if not isinstance(order, (Hold, Move, Support, Convoy, OwnOrder)):
        return Illegal(f"{order.format()!r} is not an order for a movement phase")
    return check_standing(board, position, power, order, rules, position.unit_in(order.province))


class Found:
    """What checking an order finds out that adjudicating it would ask again, for a caller
    that adjudicates (the resolver hands one to `check_standing` for each order): whether
    a move reaches its target over land, the landing the check looked up being found
    (`Board.landing`), and the units a support or a convoy names, which the check looks up
    through `unit_in`: the resolver's own lookup, which keeps the record it finds."""

    def __init__(self) -> None:
        self.landed = False  # a move to a landing its unit reaches where it stands

    def unit_in(self, position: Position, province: str) -> Unit | None:
        """The unit standing in `province` (`Position.unit_in`)."""
        return position.unit_in(province)


def check_standing(
    board: Board,
    position: Position,
    power: str,
    order: MovementOrder,
    rules: Rules,
    unit: Unit | None,
    found: Found | None = None,  # told what the check finds (see `Found`)
) -> MovementOrder | Illegal:
    """`check_movement_order` of an order of a movement phase's kind, given the unit
    standing in its province (`Position.unit_in`), for a caller that has it at hand."""
    # The common case first, without a call: the power's own unit, of the kind named.
    if unit is None or unit.power != power or unit.type is not order.unit:
        if position.beyond_the_board:
            beyond = _check_beyond(board, position, power, order, rules, unit)
            if beyond is not None:
                return beyond
        commanded = commanded_unit(board, unit, power, order)
        if isinstance(commanded, Illegal):
            return commanded
        unit = commanded
    # Dispatched by hand rather than through a table of functions, which compiled code
    # would call as Python objects.
    checked: MovementOrder | Illegal
    if isinstance(order, Move):
        if order.target == OFFBOARD:
            return _check_departure(board, position, unit, order, rules)
        checked = _check_move(board, position, unit, order, rules, found)
    elif isinstance(order, OwnOrder):
        return order.check(board, position, unit, rules)
    elif isinstance(order, Support):
        checked = _check_support(board, position, unit, order, rules, found)
    elif isinstance(order, Hold):
        checked = _check_hold(board, position, unit, order, rules)
    else:
        checked = _check_convoy(board, position, unit, order, rules, found)
    if isinstance(checked, Illegal) and _names_another_coast(order.location, unit.location):
        return _where_it_really_is(board, unit, order.location, checked)
    return checked


def _check_beyond(
    board: Board,
    position: Position,
    power: str,
    order: MovementOrder,
    rules: Rules,
    occupant: Unit | None,
) -> MovementOrder | Illegal | None:
    """The order checked if it names a unit off the board (``F OFFBOARD``) or one aboard
    the unit in its province (``M Sao``); None if it names neither, for the usual checks
    to judge."""
    kind = order.unit
    if order.location == OFFBOARD:
        unit = position.offboard_unit(power, kind)
        if unit is None:
            return Illegal(f"{power} has no {kind.name} off the board")
        if not isinstance(order, Move) or order.target == OFFBOARD:
            return Illegal("units off the board may only enter it")
        return _check_entry(board, position, unit, order, rules)
    if occupant is None or not occupant.cargo:
        return None
    carried = occupant.aboard(kind) if occupant.power == power else None
    if carried is None:
        where = board.name_of(order.province)
        return Illegal(f"there is no {kind.name} of {power} aboard in {where}")
    if isinstance(order, Hold):
        return Hold(carried.type, carried.location)  # stays aboard
    if isinstance(order, Leave) or (isinstance(order, Move) and order.target == OFFBOARD):
        return _check_departure(board, position, carried, order, rules)
    if not isinstance(order, Move):
        return Illegal(f"a unit aboard {occupant.type.article} may only land or stay aboard")
    return _check_landing(board, carried, order, rules)


def _check_landing(board: Board, unit: Unit, order: Move, rules: Rules) -> Move | Illegal:
    """A unit aboard moving into a province beside its carrier's (``M Sao - Lus``)."""
    target = order.destination
    if target not in board.province_graph.get(unit.province, ()):
        here, name = board.name_of(unit.province), board.name_of(target)
        return Illegal(f"{here} does not border {name}")
    if order.via_convoy:
        return Illegal("a unit aboard lands straight from its carrier, not by convoy")
    return _moved_beyond(board, unit, order, rules)


def _check_entry(
    board: Board, position: Position, unit: Unit, order: Move, rules: Rules
) -> Move | Illegal:
    """A unit off the board moving onto it (``F OFFBOARD - Sao``)."""
    moved = _moved_beyond(board, unit, order, rules)
    if isinstance(moved, Illegal):
        return moved
    occupant = position.unit_in(moved.destination)
    if order.via_convoy or not may_enter_board(rules, board, unit, moved.target, occupant):
        name = board.name_of(moved.target)
        return Illegal(f"{unit.type.article} off the board may not enter {name}")
    return moved


def _moved_beyond(board: Board, unit: Unit, order: Move, rules: Rules) -> Move | Illegal:
    """The move in normal form of a unit aboard or off the board into the location
    written (its only coast filled in), if the unit may stand there."""
    target = order.destination
    if target not in board.provinces:
        return Illegal(f"{order.target!r} is not a province")
    fits = [loc for loc in board.locations(target) if board.can_hold(unit.type, loc)]
    location = order.target if order.target in fits else None
    if location is None and order.target == target and len(fits) == 1:
        location = fits[0]
    if location is None:
        if len(fits) > 1 and order.target == target:
            return Illegal(f"say which coast of {board.name_of(target)}: {' or '.join(fits)}")
        return Illegal(f"{unit.type.plural} cannot stand in {board.name_of(order.target)}")
    if not rules.may_enter(unit, target):
        return Illegal(f"no unit may enter {board.name_of(target)}")
    return Move(unit.type, unit.location, location)


def _check_departure(
    board: Board, position: Position, unit: Unit, order: Move | Leave, rules: Rules
) -> OwnOrder | Illegal:
    """A unit ordered off the board (``P Joh - OFFBOARD``): a `Leave`, if it may."""
    left = Leave(unit.type, unit.location).check(board, position, unit, rules)
    if not isinstance(left, Illegal) and isinstance(order, Move) and order.via_convoy:
        return Illegal("a unit leaving the board goes straight off it, not by convoy")
    return left


def _names_another_coast(written: str, location: str) -> bool:
    """Whether an order names a coast of the unit's province other than the one it is on."""
    return "/" in written and "/" in location and written != location


def _where_it_really_is(board: Board, unit: Unit, written: str, illegal: Illegal) -> Illegal:
    """An order is read for the unit where it stands, whatever coast it names: a reason that
    names the real coast says so first, lest it seem to contradict the order as written."""
    here = board.name_of(unit.location)
    if here not in illegal.reason:
        return illegal
    return Illegal(
        f"the {unit.type.name} is in {here}, not {board.name_of(written)}; {illegal.reason}"
    )


def _check_hold(
    board: Board, position: Position, unit: Unit, order: Hold, rules: Rules
) -> Hold | Illegal:
    return order if order.location == unit.location else Hold(unit.type, unit.location)


def _check_move(
    board: Board, position: Position, unit: Unit, order: Move, rules: Rules, found: Found | None
) -> Move | OwnOrder | Illegal:
    landing = board.landing(unit.type, unit.location, order.target)
    if landing is not None and rules.may_enter(unit, order.destination):
        if found is not None:
            found.landed = True
        return _normal_move(unit, order, landing)
    target = order.destination
    carrier = position.unit_in(target)
    if carrier is not None and carrier.power == unit.power and may_carry(rules, carrier, unit):
        # Onto its own carrier, written as a move (``M Dca - Gog``): a boarding.
        return Embark(unit.type, unit.location, target, carrier.type).check(
            board, position, unit, rules
        )
    if target == order.province:  # DATC 6.A.4, 6.A.5
        return Illegal("a unit cannot move to the province it is in")
    if not rules.may_enter(unit, target):
        return Illegal(f"{unit.type.plural} may not enter {board.name_of(target)}")
    if unit.type.by_land:
        return _check_army_move(board, position, unit, order, target)
    location = fleet_destination(board, unit.location, order.target)
    if isinstance(location, Illegal):
        return location
    if location == order.target and unit.location == order.location:
        return order
    return Move(unit.type, unit.location, location)


def _check_army_move(
    board: Board, position: Position, unit: Unit, order: Move, target: str
) -> Move | Illegal:
    if board.provinces[target].is_sea:  # DATC 6.A.2
        return Illegal(f"{unit.type.plural} cannot enter sea provinces")
    # A coast named for an army's destination is ignored (DATC 6.B.12).
    if board.adjacent(unit.type, unit.location, target):
        return _normal_move(unit, order, target)
    # Overseas moves need fleets standing along some route, whatever their orders
    # (DATC 6.D.8 against 6.D.32).
    if unit.type.convoyed and board.convoy_chain(unit.province, target, position.convoying_fleets):
        return _normal_move(unit, order, target)
    here, name = board.name_of(unit.location), board.name_of(target)  # for the reason
    if not unit.type.convoyed:
        return Illegal(f"{here} does not border {name}")
    if not board.could_be_convoyed(unit.province, target):
        return Illegal(f"{here} does not border {name}, and no convoy route joins them")
    return Illegal(f"no fleets stand between {here} and {name} to convoy it")


def _normal_move(unit: Unit, order: Move, target: str) -> Move:
    """The order itself if already in normal form: most are, and building one costs time."""
    if order.location == unit.location and order.target == target:
        return order
    return Move(unit.type, unit.location, target, order.via_convoy)


def fleet_destination(board: Board, origin: str, written: str) -> str | Illegal:
    """The location a fleet at `origin` moves to when ordered to `written`."""
    target = province_of(written)
    edges = board.fleet_edges.get(origin, frozenset())
    if target in edges:  # the common case: no split coast involved
        return target
    name, here = board.name_of(target), board.name_of(origin)
    if board.provinces[target].terrain is Terrain.LAND:  # DATC 6.A.3
        return Illegal(f"fleets cannot enter inland provinces such as {name}")
    reachable = [loc for loc in board.locations(target) if loc in edges]
    if not reachable:  # DATC 6.A.1
        return Illegal(f"a fleet in {here} cannot reach {name}")
    if written != target:
        if written not in reachable:  # DATC 6.B.2
            return Illegal(f"a fleet in {here} cannot reach {board.name_of(written)}")
        return written
    if len(reachable) > 1:  # DATC 6.B.1
        return Illegal(f"say which coast of {name}: {' or '.join(reachable)}")
    if COAST_REQUIRED in board.tags_of(reachable[0]):  # a coast the map says to name always
        return Illegal(f"say which coast of {name}: {reachable[0]}")
    return reachable[0]


def _check_support(
    board: Board, position: Position, unit: Unit, order: Support, rules: Rules, found: Found | None
) -> Support | Illegal:
    # The unit stands in order.province; the supported one in `held`.
    if position.beyond_the_board:
        beyond = _support_beyond(board, position, unit, order, rules)
        if beyond is not None:
            return beyond
    held = province_of(order.supported)
    supported = position.unit_in(held) if found is None else found.unit_in(position, held)
    if supported is None:
        return Illegal(f"there is no unit in {board.name_of(held)} to support")
    if held == order.province:
        return Illegal("a unit cannot support itself")
    goal = order.destination or held
    if order.target is not None and goal == held:
        return Illegal("the supported unit cannot move to the province it is in")
    if goal == order.province:
        return Illegal("a unit cannot support a move into its own province")
    if not board.reaches_province(unit.type, unit.location, goal):  # DATC 6.A.3.fleet...
        return _cannot_reach(board, unit, goal)
    if order.target is not None and not _could_move(board, position, supported, goal, unit):
        # The support could never be valid together with the move (DATC 6.D.31): the
        # supported unit reaches the goal neither over land nor by any other fleets.
        mover = f"{supported.type.article} in {board.name_of(held)}"
        if _could_move(board, position, supported, goal, None):
            return Illegal(
                f"{mover} could reach {board.name_of(goal)} only through "
                f"{board.name_of(unit.location)}, which supports instead of convoying"
            )
        return Illegal(f"{mover} cannot reach {board.name_of(goal)}")
    if not rules.may_support(unit, supported, goal):
        return Illegal(
            f"{unit.type.article} in {board.name_of(unit.location)} may not support "
            f"{supported.type.article} into {board.name_of(goal)}"
        )
    # An army's destination is its province (the coast written is ignored: DATC 6.B.12).
    target = order.destination if supported.type.by_land else order.target
    if unit.location == order.location and held == order.supported and target == order.target:
        return order
    return Support(unit.type, unit.location, held, target, order.supported_unit)


def _cannot_reach(board: Board, unit: Unit, goal: str) -> Illegal:
    return Illegal(
        f"{unit.type.article} in {board.name_of(unit.location)} cannot reach {board.name_of(goal)}"
    )


def _support_beyond(
    board: Board, position: Position, unit: Unit, order: Support, rules: Rules
) -> Support | Illegal | None:
    """The support checked if it names a unit off the board (``S F OFFBOARD - Sao``: the
    supporter's own power's, or else any power's) or one aboard (``S M Sao - Lus``);
    None if it names neither. Such units may be supported only to move."""
    kind = order.supported_unit
    held = province_of(order.supported)
    if held == OFFBOARD:
        if kind is None:
            return Illegal("say which unit off the board it supports, e.g. F OFFBOARD")
        mover = position.offboard_unit(unit.power, kind) or next(
            (u for u in position.offboard if u.type == kind), None
        )
        if mover is None:
            return Illegal(f"there is no {kind.name} off the board to support")
    else:
        occupant = position.unit_in(held)
        if kind is None or occupant is None or occupant.type == kind:
            return None
        mover = occupant.aboard(kind)
        if mover is None:
            return None
    if order.target is None:
        return Illegal("a unit aboard or off the board may be supported only to move")
    goal = province_of(order.target)
    if goal == order.province:
        return Illegal("a unit cannot support a move into its own province")
    if not board.reaches_province(unit.type, unit.location, goal):
        return _cannot_reach(board, unit, goal)
    if not rules.may_support(unit, mover, goal):
        return Illegal(
            f"{unit.type.article} in {board.name_of(unit.location)} may not support "
            f"{mover.type.article} into {board.name_of(goal)}"
        )
    target = goal if mover.type.by_land else order.target
    if unit.location == order.location and held == order.supported and target == order.target:
        return order
    return Support(unit.type, unit.location, held, target, kind)


def _could_move(
    board: Board, position: Position, mover: Unit, goal: str, supporter: Unit | None
) -> bool:
    """Whether `mover` could move into `goal` while `supporter` supports it: over land, or
    by a chain of the fleets standing now other than the supporter."""
    if board.reaches_province(mover.type, mover.location, goal):
        return True
    fleets = position.convoying_fleets - {supporter.location if supporter else ""}
    return mover.type.convoyed and board.convoy_chain(mover.province, goal, fleets)


def may_convoy(board: Board, fleet: Unit) -> bool:
    """Whether this unit, where it stands, may convoy: a kind that convoys, at a convoy
    place of the map (at sea; the map's data may add river coasts)."""
    return fleet.type.convoys and fleet.location in board.convoy_places


def _check_convoy(
    board: Board, position: Position, unit: Unit, order: Convoy, rules: Rules, found: Found | None
) -> Convoy | Illegal:
    if not may_convoy(board, unit):  # DATC 6.A.7
        return Illegal(f"{unit.type.article} in {board.name_of(unit.location)} cannot convoy")
    army_at, target = province_of(order.army), province_of(order.target)
    army = position.unit_in(army_at) if found is None else found.unit_in(position, army_at)
    if army is None:
        return Illegal(f"there is no unit in {board.name_of(army_at)} to convoy")
    refused = _convoyed_problem(board, army, order)
    if refused is not None:
        return refused
    # The destination is one the unit's own move could name (as `_check_army_move` asks):
    # a convoy never lands a unit at sea.
    if not board.can_hold(army.type, target):
        return Illegal(f"{army.type.plural} cannot be convoyed into sea provinces")
    # A fleet that could never be part of a route shows no intent (DATC 6.G.7).
    if army_at == target or not rules.may_convoy_along(board, army_at, target, unit.location):
        return Illegal(
            f"{board.name_of(unit.location)} lies on no convoy route from "
            f"{board.name_of(army_at)} to {board.name_of(target)}"
        )
    return Convoy(unit.type, unit.location, army_at, target, army.type)


def _convoyed_problem(board: Board, convoyed: Unit, order: Convoy) -> Illegal | None:
    """Why a fleet may not convoy `convoyed`, the unit its order names, if it may not: its
    kind is never convoyed (DATC 6.A.7), or the order names another kind."""
    if not convoyed.type.convoyed:
        return Illegal(f"{convoyed.type.plural} cannot be convoyed")
    written = order.convoyed_unit
    # The same object, as a rule: a dataclass's `!=` is a function written in Python.
    if written is not None and written is not convoyed.type and written != convoyed.type:
        where = board.name_of(convoyed.province)
        return Illegal(f"the unit in {where} is {convoyed.type.article}, not {written.article}")
    return None
