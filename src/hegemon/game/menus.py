"""The legal orders of a power's units: the menus a player picks from.

Each procedure lists what may be ordered in its kind of phase, as order forms
(`hegemon.game.forms`). A movement phase's orders are found from what the judge's check
asks of each kind (`hegemon.game.reach`), and the rest pass the judge's own check, against
the rules the power may know, so that a menu never offers an order the judge would call
void at submission (tests/test_menus.py holds the menus to that).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from hegemon.adjudication.adjustment import adjustment_balances
from hegemon.adjudication.retreat import retreat_options
from hegemon.beyond import BeyondRules, Embark, Leave, may_board
from hegemon.board import OFFBOARD, Board, UnitKind
from hegemon.game.forms import Choice, Menu, OrderForm, listed, unit_form, unit_listing
from hegemon.game.reach import Made, by_location, convoys, reach_of
from hegemon.legality import Illegal, check_movement_order, may_convoy
from hegemon.orders import (
    Build,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Retreat,
    Waive,
    unit_name,
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
    forms = [
        _listing(made, listed) for _, made, listed in _listings(variant, position, power, commanded)
    ]
    beyond = beyond_orders(variant, position, power, commanded)
    forms += [unit_form(head(unit), unit.location, given) for unit, given in beyond.items()]
    return tuple(forms)


def _listing(made: Made, choices: list[Choice]) -> OrderForm:
    """A unit's form, with the id and title made for it once per map."""
    return unit_listing(made.form_id, made.head, made.location, choices)


def head(unit: Unit) -> str:
    """The unit as orders name it: ``A Par``, ``M Sao`` (aboard), ``F OFFBOARD``."""
    return unit_name(unit.type.letter, unit.location)


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
    """Every legal order for each of `units` under the rules `power` may know (as
    `unit_choices` lists them)."""
    listed = unit_choices(variant, position, power, units)
    return {unit: [choice.order for choice in choices] for unit, choices in listed.items()}


def unit_choices(
    variant: Variant, position: Position, power: str, units: Iterable[Unit]
) -> dict[Unit, list[Choice]]:
    """Every legal order for each of `units`, as a form lists it, under the rules `power`
    may know: its own units, or units it may order without commanding them (a variant's
    own orders). Found by `hegemon.game.reach`; under rules that let units be carried or
    leave the board, a unit may also board a carrier or leave the board."""
    return {unit: listed for unit, _, listed in _listings(variant, position, power, units)}


def _listings(
    variant: Variant, position: Position, power: str, units: Iterable[Unit]
) -> list[tuple[Unit, Made, list[Choice]]]:
    """As `unit_choices`, by location, each unit with the orders made for it."""
    rules = variant.rules_at_submission(position, power)
    board = variant.board
    reach = reach_of(board, position)
    found: list[tuple[Unit, Made, list[Choice]]] = []
    for unit in sorted(units, key=by_location):
        made = reach.of(unit)
        listed = [made.hold]
        if isinstance(rules, BeyondRules):
            listed += [Choice(o) for o in _departures(board, position, unit, rules)]
        listed += reach.moves(unit, made, rules)
        listed += reach.supports(unit, made, rules)
        if may_convoy(board, unit):
            listed += convoys(board, position, unit, rules)
        found.append((unit, made, listed))
    return found


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


def _departures(board: Board, position: Position, unit: Unit, rules: BeyondRules) -> list[Order]:
    """The unit's ways off its province besides its moves, as the judge takes them: off
    the board, and onto each carrier of its own beside it (a move written onto one, were
    the unit not to enter that province itself, is the same boarding)."""
    found: list[Order] = []
    if rules.may_leave_board(board, unit):
        found.append(Leave(unit.type, unit.location))
    beside = board.province_graph[unit.province]
    boards: dict[UnitKind, bool] = {}  # whether it may board a carrier of each kind
    for other in position.units.values():
        if other.power == unit.power and other.province in beside:
            kind = other.type
            allowed = boards.get(kind)
            if allowed is None:
                allowed = boards[kind] = may_board(rules, position, unit, kind)
            if allowed:
                found.append(Embark(unit.type, unit.location, other.province, kind))
    return found


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
    occupied = position.units.keys()
    sites = sorted(s for s in rules.build_sites(power, homes, position) if s not in occupied)
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
