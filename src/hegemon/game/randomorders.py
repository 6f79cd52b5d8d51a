"""Seeded random legal orders for the standard phases, for any variant.

Benchmarks and differential tests need many positions that look like real play: units in
contact, supported attacks, dislodgements, retreats, builds and civil disorder. Uniformly
random orders rarely produce those, so the movement generator chooses moves first and then
points most supports at moves actually ordered this phase, and lets fleets convoy armies
that were ordered overseas. Every order it returns has passed the judge's own legality
check, so a difference between two judges fed these orders is never a parsing or
legality question in disguise.

Only `rng` supplies randomness and every set is sorted before a choice is made from it, so
the same seed gives the same game in every process, whatever ``PYTHONHASHSEED`` is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, TypeAlias

from hegemon.adjudication.adjustment import adjustment_balances
from hegemon.adjudication.retreat import retreat_options
from hegemon.beyond import Embark, may_carry, may_leave_board
from hegemon.board import OFFBOARD, Board, UnitKind, province_of
from hegemon.game.menus import beyond_orders, head
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

if TYPE_CHECKING:  # the variant's calendar calls on these generators
    from hegemon.game.variant import Variant

# --- how often each kind of order is chosen ---------------------------------------------
# Weights of a unit's intent in a movement phase. Moves dominate so that units meet; the
# supports then mostly back those moves, which is what makes dislodgements common.
_INTENT_WEIGHTS = {"move": 50, "hold": 10, "support": 32, "convoy": 8}
_SEA_FLEET_CONVOY_WEIGHT = 30  # fleets at sea convoy more often, so that routes form
_OVERSEAS_MOVE = 0.3  # chance an army with a convoy route open moves by sea
_VIA_ADJACENT = 0.2  # chance an army moving by sea to a neighbour says "via convoy"
_ATTACK_WEIGHT = 4  # a move or support against a foreign unit is this much likelier
_SUPPORT_ORDERED_MOVE = 0.85  # chance a supporter backs a move that was really ordered
_SUPPORT_HOLD = 0.6  # otherwise, chance it supports a unit in place
_SUPPORT_NAMES_COAST = 0.5  # chance a support for a fleet names the coast it moves to
_NO_ORDER = 0.04  # chance a unit gets no order at all (it holds; a retreat disbands)
_RETREAT_DISBANDS = 0.1  # chance a unit able to retreat disbands instead
_WAIVE = 0.1  # chance a build is waived
_TOO_FEW = 0.2  # chance a power builds or disbands fewer than due (civil disorder)
# Where the rules have units leave the board, board carriers, land or enter it:
_LEAVES_OR_BOARDS = 0.1  # chance a unit that may leave the board or board a carrier does
_BEYOND_ACTS = 0.4  # chance a unit aboard or off the board lands, enters or leaves


def _grouped(orders: Mapping[str, Order], commanders: Mapping[str, str]) -> dict[str, list[Order]]:
    """Orders keyed by the ordered unit's province, regrouped by who gives them."""
    by_power: dict[str, list[Order]] = {}
    for province in sorted(orders):
        by_power.setdefault(commanders[province], []).append(orders[province])
    return by_power


# --- per-board data -------------------------------------------------------------------------


@dataclass(frozen=True)
class _BoardData:
    """Sorted neighbour lists, computed once per board: choices must not depend on set order."""

    # Keyed by (moves by land?, location).
    neighbours: Mapping[tuple[bool, str], tuple[str, ...]]
    reach: Mapping[tuple[bool, str], frozenset[str]]  # provinces a unit could move into
    shores: Mapping[str, tuple[str, ...]]  # for each convoy place, where it could land an army


@cache
def _board_data(board: Board) -> _BoardData:
    neighbours: dict[tuple[bool, str], tuple[str, ...]] = {}
    reach: dict[tuple[bool, str], frozenset[str]] = {}
    for by_land, edges in ((True, board.army_edges), (False, board.fleet_edges)):
        for origin, targets in edges.items():
            neighbours[by_land, origin] = tuple(sorted(targets))
            reach[by_land, origin] = frozenset(province_of(t) for t in targets)
    shores: dict[str, list[str]] = {}
    for province, places in board.convoy_shores.items():
        if not board.provinces[province].is_sea:
            for place in places:
                shores.setdefault(place, []).append(province)
    return _BoardData(neighbours, reach, {place: tuple(sorted(p)) for place, p in shores.items()})


def _reach(data: _BoardData, kind: UnitKind, location: str) -> frozenset[str]:
    return data.reach.get((kind.by_land, location), frozenset())


def _neighbours(data: _BoardData, kind: UnitKind, location: str) -> tuple[str, ...]:
    return data.neighbours.get((kind.by_land, location), ())


def _convoy_lanes(board: Board, position: Position) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Each group of touching convoy places with a fleet in every one, with the shores it
    joins.

    An army on one of the shores may be ordered to any other shore of the group: the fleets
    stand there, whatever they are ordered, so the move is legal (DATC 6.D.8).
    """
    data = _board_data(board)
    occupied = position.convoying_fleets & board.convoy_places
    lanes: list[tuple[frozenset[str], frozenset[str]]] = []
    unvisited = set(occupied)
    for start in sorted(occupied):
        if start not in unvisited:
            continue
        unvisited.discard(start)
        group, frontier = {start}, [start]
        while frontier:
            nearby = board.convoy_legs[frontier.pop()] & unvisited
            unvisited.difference_update(nearby)
            group.update(nearby)
            frontier.extend(nearby)
        shores = frozenset(p for sea in group for p in data.shores.get(sea, ()))
        lanes.append((frozenset(group), shores))
    return lanes


# --- movement --------------------------------------------------------------------------------

_Picker: TypeAlias = Callable[[Sequence[MovementOrder]], MovementOrder]


def movement(variant: Variant, position: Position, rng: random.Random) -> dict[str, list[Order]]:
    """Moves first, then convoys for the overseas moves, then supports, then holds; the
    orders planned for units nobody owns become the players' bids on them."""
    planned = _MovementPlanner(variant.board, variant.rules_for(position), position, rng).plan()
    orders: dict[str, list[Order]] = {}
    for power in sorted(variant.powers):
        units = variant.commanded_units(position, power)
        commanded = sorted(u.province for u in units)
        given: list[Order] = [planned[p] for p in commanded if p in planned]
        given += _beyond_the_board(variant, position, power, units, rng)
        given += variant.random_influence(position, power, planned, rng)
        if given:
            orders[power] = given
    return orders


def _beyond_the_board(
    variant: Variant, position: Position, power: str, commanded: list[Unit], rng: random.Random
) -> list[Order]:
    """Orders for the units aboard `commanded` and `power`'s units off the board: most
    stay where they are, some land, enter the board or leave it."""
    orders: list[Order] = []
    beyond = beyond_orders(variant, position, power, commanded)
    for _, legal in sorted((head(unit), legal) for unit, legal in beyond.items()):
        moves = [order for order in legal if isinstance(order, Move)]
        if moves and rng.random() < _BEYOND_ACTS:
            orders.append(rng.choice(moves))
    return orders


class _MovementPlanner:
    """Builds one phase's orders in the order that lets later orders refer to earlier ones."""

    def __init__(self, board: Board, rules: Rules, position: Position, rng: random.Random) -> None:
        self.board = board
        self.rules = rules
        self.position = position
        self.rng = rng
        self.data = _board_data(board)
        self.lanes = _convoy_lanes(board, position)
        self.orders: dict[str, MovementOrder] = {}

    def plan(self) -> dict[str, MovementOrder]:
        """An order for most units, by province."""
        intents = {p: self._intent(u) for p, u in sorted(self.position.units.items())}
        for province in self._with_intent(intents, "move"):
            self._order(province, self._pick_attack, self._move_candidates(province))
        for province in self._with_intent(intents, "convoy"):
            if not self._order(province, self.rng.choice, self._convoy_candidates(province)):
                intents[province] = "support"  # nothing to carry: help someone instead
        for province in self._with_intent(intents, "support"):
            self._order(province, self._pick_support, self._support_candidates(province))
        for province, unit in sorted(self.position.units.items()):
            if province not in self.orders and self.rng.random() >= _NO_ORDER:
                self.orders[province] = Hold(unit.type, unit.location)
        return self.orders

    def _intent(self, unit: Unit) -> str:
        weights = dict(_INTENT_WEIGHTS)
        if not may_convoy(self.board, unit):
            del weights["convoy"]
        elif unit.type.convoys:
            weights["convoy"] = _SEA_FLEET_CONVOY_WEIGHT
        return self.rng.choices(list(weights), list(weights.values()))[0]

    @staticmethod
    def _with_intent(intents: Mapping[str, str], intent: str) -> list[str]:
        return [p for p, wanted in intents.items() if wanted == intent]

    def _order(self, province: str, pick: _Picker, candidates: Sequence[MovementOrder]) -> bool:
        """Give the unit one of the legal candidates, if there is any."""
        legal = [c for c in (self._legal(province, c) for c in candidates) if c is not None]
        if not legal:
            return False
        self.orders[province] = pick(legal)
        return True

    def _legal(self, province: str, order: MovementOrder) -> MovementOrder | None:
        power = self.position.units[province].power
        checked = check_movement_order(self.board, self.position, power, order, self.rules)
        return None if isinstance(checked, Illegal) else checked

    # --- moves ---
    def _move_candidates(self, province: str) -> list[MovementOrder]:
        unit = self.position.units[province]
        leaving = self._leaving(unit)
        if leaving and self.rng.random() < _LEAVES_OR_BOARDS:
            return leaving
        by_land: list[MovementOrder] = [
            Move(unit.type, unit.location, target)
            for target in _neighbours(self.data, unit.type, unit.location)
        ]
        if not unit.type.convoyed or self.rng.random() >= _OVERSEAS_MOVE:
            return by_land
        by_sea = self._overseas_moves(unit)
        return by_sea or by_land

    def _leaving(self, unit: Unit) -> list[MovementOrder]:
        """Off the board, or aboard a carrier of its own beside it, where the rules let it
        (the standard game: never)."""
        orders: list[MovementOrder] = []
        if may_leave_board(self.rules, self.board, unit):
            orders.append(Move(unit.type, unit.location, OFFBOARD))
        for province in sorted(self.board.province_graph.get(unit.province, ())):
            carrier = self.position.unit_in(province)
            if carrier and carrier.power == unit.power and may_carry(self.rules, carrier, unit):
                orders.append(Embark(unit.type, unit.location, province, carrier.type))
        return orders

    def _overseas_moves(self, unit: Unit) -> list[MovementOrder]:
        """Army moves along the convoy lanes; to a neighbour, sometimes marked "via convoy"."""
        shores = sorted({s for _, lane in self.lanes if unit.province in lane for s in lane})
        moves: list[MovementOrder] = []
        for shore in shores:
            if shore == unit.province:
                continue
            adjacent = self.board.adjacent(unit.type, unit.location, shore)
            if not adjacent or self.rng.random() < _VIA_ADJACENT:
                moves.append(Move(unit.type, unit.location, shore, via_convoy=True))
        return moves

    # --- convoys ---
    def _convoy_candidates(self, province: str) -> list[MovementOrder]:
        """Convoys of armies ordered overseas along a lane this fleet is part of."""
        fleet = self.position.units[province]
        place = fleet.location
        shores = next((shores for places, shores in self.lanes if place in places), frozenset())
        candidates: list[MovementOrder] = []
        for origin, order in sorted(self.orders.items()):
            if (
                isinstance(order, Move)
                and order.via_convoy
                and origin in shores
                and province_of(order.target) in shores
            ):
                convoy = Convoy(fleet.type, fleet.location, origin, order.target, order.unit)
                candidates.append(convoy)
        return candidates

    # --- supports ---
    def _support_candidates(self, province: str) -> list[MovementOrder]:
        """Supports of moves ordered into reach, of units in reach, and of moves not made."""
        unit = self.position.units[province]
        reach = _reach(self.data, unit.type, unit.location)
        of_moves: list[MovementOrder] = []
        for origin, order in sorted(self.orders.items()):
            if (
                isinstance(order, Move)
                and origin != province
                and province_of(order.target) in reach
            ):
                of_moves.append(self._support_of_move(unit, origin, order.target))
        of_holds: list[MovementOrder] = [
            Support(unit.type, unit.location, p, None, self.position.units[p].type)
            for p in sorted(reach & self.position.units.keys())
        ]
        return [*of_moves, *of_holds, *self._supports_of_moves_not_made(unit, reach)]

    def _support_of_move(self, unit: Unit, origin: str, target: str) -> Support:
        supported = self.position.units[origin]
        if "/" in target and self.rng.random() >= _SUPPORT_NAMES_COAST:
            target = province_of(target)
        return Support(unit.type, unit.location, origin, target, supported.type)

    def _supports_of_moves_not_made(self, unit: Unit, reach: frozenset[str]) -> list[MovementOrder]:
        """Supports for moves a neighbour could have made: they find no matching move."""
        supports: list[MovementOrder] = []
        for origin in sorted(reach & self.position.units.keys()):
            other = self.position.units[origin]
            for target in _neighbours(self.data, other.type, other.location):
                move = Move(other.type, other.location, target)
                if province_of(target) in reach and self._legal(origin, move):
                    supports.append(Support(unit.type, unit.location, origin, target, other.type))
        return supports

    def _pick_attack(self, orders: Sequence[MovementOrder]) -> MovementOrder:
        """A random move or support of a move, favouring those aimed at a foreign unit."""
        weights = [_ATTACK_WEIGHT if self._attacks(order) else 1 for order in orders]
        return self.rng.choices(orders, weights)[0]

    def _attacks(self, order: MovementOrder) -> bool:
        if isinstance(order, Move):
            attacker, target = order.province, order.target
        elif isinstance(order, Support) and order.target is not None:
            attacker, target = order.supported, order.target
        else:
            return False
        defender = self.position.units.get(province_of(target))
        return defender is not None and defender.power != self.position.units[attacker].power

    def _pick_support(self, legal: Sequence[MovementOrder]) -> MovementOrder:
        """Mostly a support of an ordered move, else of a unit in place, else of a phantom move."""
        of_moves, of_holds, phantom = _split_supports(legal, self.orders)
        rng = self.rng
        if of_moves and rng.random() < _SUPPORT_ORDERED_MOVE:
            return self._pick_attack(of_moves)
        if of_holds and (not phantom or rng.random() < _SUPPORT_HOLD):
            return rng.choice(of_holds)
        return rng.choice(phantom or of_moves)


def _split_supports(
    supports: Sequence[MovementOrder], ordered: Mapping[str, MovementOrder]
) -> tuple[list[MovementOrder], list[MovementOrder], list[MovementOrder]]:
    """Supports of moves really ordered, supports to hold, and supports of moves not ordered."""
    of_moves: list[MovementOrder] = []
    of_holds: list[MovementOrder] = []
    phantom: list[MovementOrder] = []
    for support in supports:
        assert isinstance(support, Support)
        action = ordered.get(support.supported)
        if support.target is None:
            of_holds.append(support)
        elif isinstance(action, Move) and province_of(action.target) == province_of(support.target):
            of_moves.append(support)
        else:
            phantom.append(support)
    return of_moves, of_holds, phantom


# --- retreats --------------------------------------------------------------------------------


def retreats(variant: Variant, position: Position, rng: random.Random) -> dict[str, list[Order]]:
    """A random open retreat for most dislodged units, a disband or no order for the rest.
    The orders for an owner whose commander is secret go to that commander as the variant
    words them (`Variant.random_influence`)."""
    orders: dict[str, Order] = {}
    commanders: dict[str, str] = {}
    for province, dislodgement in sorted(position.dislodged.items()):
        commander = variant.commander_of(position, dislodgement.unit)
        if commander is None:
            continue  # nobody orders it in the open: it disbands, or its secret commander orders it
        commanders[province] = commander
        order = _random_retreat(variant, position, province, rng)
        if order is not None:
            orders[province] = order
    grouped = _grouped(orders, commanders)
    for owner, commander in sorted(variant.secret_commanders(position).items()):
        planned = {
            province: order
            for province, dislodgement in sorted(position.dislodged.items())
            if dislodgement.unit.power == owner
            and (order := _random_retreat(variant, position, province, rng)) is not None
        }
        _add(grouped, commander, variant.random_influence(position, commander, planned, rng))
    return grouped


def _random_retreat(
    variant: Variant, position: Position, province: str, rng: random.Random
) -> Order | None:
    dislodgement = position.dislodged[province]
    unit = dislodgement.unit
    if rng.random() < _NO_ORDER:
        return None
    options = retreat_options(variant.board, position, dislodgement, variant.rules_for(position))
    if options and rng.random() >= _RETREAT_DISBANDS:
        return Retreat(unit.type, unit.location, rng.choice(options))
    return Disband(unit.type, unit.location)


def _add(orders: dict[str, list[Order]], power: str, more: list[Order]) -> None:
    if more:
        orders.setdefault(power, []).extend(more)


# --- adjustments -----------------------------------------------------------------------------


def adjustments(variant: Variant, position: Position, rng: random.Random) -> dict[str, list[Order]]:
    """Builds on random free sites or disbands of random units, sometimes fewer than due.
    The players order their own; an owner whose commander is secret is ordered by that
    commander as the variant words it (`Variant.random_influence`)."""
    homes = variant.home_centers(position)
    rules = variant.rules_for(position)
    balances = adjustment_balances(position, rules)
    orders: dict[str, list[Order]] = {}
    for power in sorted(variant.powers):  # the players; nobody orders for the others
        given = _random_adjustments(variant.board, position, rules, homes, power, balances, rng)
        _add(orders, power, given)
    for owner, commander in sorted(variant.secret_commanders(position).items()):
        given = _random_adjustments(variant.board, position, rules, homes, owner, balances, rng)
        planned = {o.province: o for o in given if isinstance(o, Build | Disband)}
        _add(orders, commander, variant.random_influence(position, commander, planned, rng))
    return orders


def _random_adjustments(
    board: Board,
    position: Position,
    rules: Rules,
    homes: Mapping[str, frozenset[str]],
    owner: str,
    balances: Mapping[str, int],
    rng: random.Random,
) -> list[Order]:
    balance = balances.get(owner, 0)
    if balance > 0:
        sites = rules.build_sites(owner, homes.get(owner, frozenset()), position)
        free = sorted(sites - position.units.keys())
        return _random_builds(board, free, _how_many(balance, rng), rng)
    if balance < 0:
        supplied = [u for u in position.units_of(owner) if rules.needs_supply(u)]
        return _random_disbands(supplied, _how_many(-balance, rng), rng)
    return []


def _how_many(due: int, rng: random.Random) -> int:
    """Usually all that is due; sometimes fewer, to exercise waiving and civil disorder."""
    return rng.randrange(due) if rng.random() < _TOO_FEW else due


def _random_builds(board: Board, free: list[str], count: int, rng: random.Random) -> list[Order]:
    sites = rng.sample(free, min(count, len(free)))
    return [Waive() if rng.random() < _WAIVE else _random_build(board, site, rng) for site in sites]


def _random_build(board: Board, site: str, rng: random.Random) -> Build:
    """A unit of a random buildable kind that can stand on the site; a fleet on a random
    coast."""
    choices = [
        (kind, location)
        for kind in board.kinds.values()
        if kind.buildable
        for location in ((site,) if kind.by_land else board.locations(site))
        if board.can_hold(kind, location)
    ]
    unit_type, location = rng.choice(choices)  # a supply center always holds one type
    return Build(unit_type, location)


def _random_disbands(units: list[Unit], count: int, rng: random.Random) -> list[Order]:
    ordered = sorted(units, key=lambda u: u.location)
    return [Disband(u.type, u.location) for u in rng.sample(ordered, count)]
