"""The legal orders of a power's units: the menus a player picks from.

Each procedure lists what may be ordered in its kind of phase, as order forms
(`hegemon.game.forms`); the candidates come from the map (every neighbour, every convoy
route through fleets standing now, every unit in reach to support) and each passes the
judge's own check against the rules the power may know, so that a menu never offers an
order the judge would call void at submission.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from hegemon.adjudication.adjustment import adjustment_balances
from hegemon.adjudication.retreat import retreat_options
from hegemon.beyond import Embark
from hegemon.board import OFFBOARD, Board, UnitKind, province_of
from hegemon.game.forms import Menu, OrderForm, listed, unit_form
from hegemon.legality import Illegal, check_movement_order, may_convoy
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Retreat,
    Support,
    Waive,
)
from hegemon.position import Position, Unit
from hegemon.rules import Rules

if TYPE_CHECKING:  # the variant's calendar calls on these menus
    from hegemon.game.variant import Variant


def offered(variant: Variant, position: Position, power: str) -> Menu:
    """Everything `power` may order this phase: the forms of the phase's procedure (a
    variant's procedure offers those of its own kinds too: bids, deployments). It hangs on
    nothing any power has sent, its own orders included (what they leave to spend is the
    purse's to say: `Purse.left`)."""
    return variant.calendar.procedure(position.phase).menu(variant, position, power)


def movement_menu(variant: Variant, position: Position, power: str) -> Menu:
    """Every legal order for each unit `power` commands this phase, and for its units
    aboard others and off the board (their landings and entries; not supports of them)."""
    commanded = variant.commanded_units(position, power)
    orders = unit_orders(variant, position, power, commanded)
    orders.update(beyond_orders(variant, position, power, commanded))
    return tuple(unit_form(head(unit), unit.location, given) for unit, given in orders.items())


def head(unit: Unit) -> str:
    """The unit as orders name it: ``A Par``, ``M Sao`` (aboard), ``F OFFBOARD``."""
    return Hold(unit.type, unit.location).head


UnitOrders = dict[Unit, list[Order]]  # each unit's legal orders


def beyond_orders(
    variant: Variant, position: Position, power: str, commanded: Iterable[Unit]
) -> UnitOrders:
    """Every legal order for the units aboard `commanded` and `power`'s units off the
    board: to stay aboard, land, leave the board or enter it."""
    if not position.beyond_the_board:
        return {}
    rules = variant.rules_at_submission(position, power)
    beyond = [*(c for u in commanded for c in _addressable(u.cargo)), *position.offboard]
    return {
        unit: _checked(variant.board, position, unit, rules, _beyond(variant.board, unit))
        for unit in beyond
        if variant.commander_of(position, unit) == power
    }


def _addressable(units: Iterable[Unit]) -> list[Unit]:
    """The first unit of each kind: the one orders can name (``M Sao``, ``F OFFBOARD``)."""
    first: dict[UnitKind, Unit] = {}
    for unit in units:
        first.setdefault(unit.type, unit)
    return list(first.values())


def _beyond(board: Board, unit: Unit) -> Iterator[MovementOrder]:
    """What a unit aboard (``M Sao``) or off the board (``F OFFBOARD``) might be ordered:
    aboard, to stay, land beside its carrier or leave the board; off it, to enter it."""
    if unit.location == OFFBOARD:
        provinces: Iterable[str] = sorted(board.provinces)
    else:
        yield Hold(unit.type, unit.location)
        yield Move(unit.type, unit.location, OFFBOARD)
        provinces = sorted(board.province_graph.get(unit.province, ()))
    for province in provinces:
        for location in board.locations(province):
            if board.can_hold(unit.type, location):
                yield Move(unit.type, unit.location, location)


def unit_orders(
    variant: Variant, position: Position, power: str, units: Iterable[Unit]
) -> UnitOrders:
    """Every legal order for each of `units` under the rules `power` may know: its own
    units, or units it may order without commanding them (a variant's own orders)."""
    rules = variant.rules_at_submission(position, power)
    board = variant.board
    reach = _reach(board, position)
    menu: UnitOrders = {}
    for unit in sorted(units, key=lambda u: u.location):
        candidates = _candidates(board, position, unit, rules, reach)
        menu[unit] = _checked(board, position, unit, rules, candidates)
    return menu


def _checked(
    board: Board,
    position: Position,
    unit: Unit,
    rules: Rules,
    candidates: Iterable[MovementOrder],
) -> list[Order]:
    """The legal ones of the candidates, in the order found, each once."""
    legal: dict[Order, None] = {}
    for order in candidates:
        checked = check_movement_order(board, position, unit.power, order, rules)
        if not isinstance(checked, Illegal):
            legal[checked] = None
    return list(legal)


class Reach:
    """What every unit on the board could do this phase, worked out once for all the
    units' menus: where each unit could move, by its province, and the supports each
    province could be the goal of (the holds and moves of the units there and into it)."""

    def __init__(self, board: Board, position: Position) -> None:
        units = sorted(position.units.values(), key=lambda u: u.location)
        self.fleets = [u.location for u in units if u.type.convoys]
        self.targets = {u.province: _destinations(board, position, u, self.fleets) for u in units}
        # Each entry: the supported unit, the move it makes (None: it holds), and its rank
        # among that unit's supports, so that a menu lists them in one order.
        self.goals: dict[str, list[tuple[Unit, str | None, int]]] = {}
        for unit in units:
            self.goals.setdefault(unit.province, []).append((unit, None, 0))
            for rank, target in enumerate(self.targets[unit.province], 1):
                self.goals.setdefault(province_of(target), []).append((unit, target, rank))

    def supports(self, unit: Unit, reached: frozenset[str]) -> list[Support]:
        """The supports `unit` might give: of a hold or a move into a province it reaches
        itself (the judge's first test of a support, asked here before an order is made
        and checked, so that a unit is not offered a support of every unit on the board)."""
        found = [
            (other.location, rank, other, target)
            for province in reached
            for other, target, rank in self.goals.get(province, ())
            if other.province != unit.province
        ]
        found.sort(key=lambda entry: (entry[0], entry[1]))
        return [
            Support(unit.type, unit.location, other.province, target, other.type)
            for _, _, other, target in found
        ]


# The reach last worked out, with the board and the units it is of: every power's menu
# of a position asks for the same, and each power's sight of it shares its units (a
# state of its own, the same units). One entry, replaced whole, so that games played
# side by side never mix; held, so that the units it is of are not another's later.
_last_reach: list[tuple[Board, Mapping[str, Unit], Reach]] = []


def _reach(board: Board, position: Position) -> Reach:
    units = position.units
    for known_board, known_units, reach in _last_reach:
        if known_board is board and known_units is units:
            return reach
    reach = Reach(board, position)
    _last_reach[:] = [(board, units, reach)]
    return reach


def _candidates(
    board: Board, position: Position, unit: Unit, rules: Rules, reach: Reach
) -> Iterator[MovementOrder]:
    """The orders the unit might be given: `reach` holds what every unit could do."""
    yield Hold(unit.type, unit.location)
    yield Move(unit.type, unit.location, OFFBOARD)  # where the rules let it leave the board
    for other in position.units.values():  # its own carriers beside it, to board
        if other.power == unit.power and other.province in board.province_graph[unit.province]:
            yield Embark(unit.type, unit.location, other.province, other.type)
    for target in reach.targets[unit.province]:
        yield Move(unit.type, unit.location, target)
        if (
            unit.type.convoyed
            and board.adjacent(unit.type, unit.location, target)
            and board.convoy_chain(unit.province, target, reach.fleets)
        ):
            yield Move(unit.type, unit.location, target, via_convoy=True)
    yield from reach.supports(unit, board.provinces_reached(unit.type, unit.location))
    if may_convoy(board, unit):
        for army in position.units.values():
            if army.type.convoyed:
                for target in _landings(board, army):
                    if rules.may_convoy_along(board, army.province, target, unit.location):
                        yield Convoy(unit.type, unit.location, army.province, target, army.type)


def _destinations(board: Board, position: Position, unit: Unit, fleets: list[str]) -> list[str]:
    """Where the unit could move: its neighbours, and for a unit that may be convoyed,
    every coast a chain of the `fleets` standing now could carry it to."""
    targets = sorted(board.neighbours(unit.type, unit.location))
    if unit.type.convoyed and unit.province in board.convoy_shores:
        targets += [
            p
            for p in _landings(board, unit)
            if p not in targets and board.convoy_chain(unit.province, p, fleets)
        ]
    return targets


def _landings(board: Board, unit: Unit) -> tuple[str, ...]:
    """Every province a convoy could carry the unit to, were there fleets all the way."""
    return _landings_from(board, unit.type, unit.province)


@cache
def _landings_from(board: Board, kind: UnitKind, province: str) -> tuple[str, ...]:
    return tuple(
        p
        for p in sorted(board.convoy_shores)
        if board.can_hold(kind, p) and board.could_be_convoyed(province, p)
    )


def retreat_menu(variant: Variant, position: Position, power: str) -> Menu:
    """For each of `power`'s dislodged units, its open retreats and its disbanding."""
    rules = variant.rules_at_submission(position, power)
    menu: list[OrderForm] = []
    for _, dislodged in sorted(position.dislodged.items()):
        unit = dislodged.unit
        if variant.commander_of(position, unit) != power:
            continue
        options = retreat_options(variant.board, position, dislodged, rules)
        retreats: list[Order] = [Retreat(unit.type, unit.location, t) for t in options]
        menu.append(
            unit_form(head(unit), unit.location, [*retreats, Disband(unit.type, unit.location)])
        )
    return tuple(menu)


def adjustment_menu(variant: Variant, position: Position, power: str) -> Menu:
    """The builds `power` may make (on each free site, each kind that may stand there,
    and the waiving of a build), or the disbands it may choose among."""
    rules = variant.rules_for(position)
    balance = adjustment_balances(position, rules).get(power, 0)
    board = variant.board
    if balance < 0:
        return tuple(
            unit_form(head(u), u.location, [Disband(u.type, u.location)])
            for u in sorted(position.units.values(), key=lambda u: u.location)
            if u.power == power and rules.needs_supply(u)
        )
    if balance == 0:
        return ()
    homes = variant.home_centers(position).get(power, frozenset())
    sites = sorted(rules.build_sites(power, homes, position) - position.units.keys())
    builds: list[Order] = []
    for site in sites:
        for kind in board.kinds.values():
            where = (site,) if kind.by_land else board.locations(site)
            for location in where:
                unit = Unit(power, kind, location)
                if (
                    kind.buildable
                    and board.can_hold(kind, location)
                    and rules.build_problem(power, unit, [], homes) is None
                ):
                    builds.append(Build(kind, location))
    if not builds:
        return ()
    return (builds_form("builds", "Builds", [*builds, Waive()]),)


def builds_form(form_id: str, title: str, orders: Sequence[Order]) -> OrderForm:
    """The builds a power may make, each given by a click on its site, and the waiving
    of one."""
    return OrderForm(form_id, title, tuple(listed(o) for o in orders))
