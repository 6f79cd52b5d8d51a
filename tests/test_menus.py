"""The menus of legal orders (`Procedure.menu`): what a player is offered to pick from
agrees with what the judge accepts, in every phase of every variant."""

from __future__ import annotations

import random

import pytest

from hegemon.board import Board, province_of
from hegemon.game import Variant, menus, order_problems
from hegemon.game.forms import Amount, OrderForm
from hegemon.game.phases import Adjustments, Movement, Procedure, Retreats
from hegemon.legality import Illegal, check_movement_order
from hegemon.orders import Convoy, Move, Order, Support
from hegemon.position import Position, Unit
from hegemon.randomplay import random_game
from hegemon.variants import load_variant
from hegemon.variants.africa_ii import Spend
from hegemon.variants.african_diplomacy_ii import Place
from tests.conftest import spring


def _menu(variant: Variant, position: Position, power: str) -> list[str]:
    procedure = variant.calendar.procedure(position.phase)
    return [c.text for form in procedure.menu(variant, position, power) for c in form.choices]


def _least(form: OrderForm) -> dict[str, int | str]:
    """Each field of the form at its first value: the least amount, the first name."""
    return {f.name: f.least if isinstance(f, Amount) else f.values[0] for f in form.fields}


def _made(form: OrderForm) -> list[Order]:
    """The orders a form gives: each it lists, or, for a form that makes its order from
    its fields, that order for each choice (or none) with the fields at their least."""
    if form.make is None:
        return [c.order for c in form.choices]
    picks = [[i] for i in range(len(form.choices))] or [[]]
    return [form.fill(pick, _least(form)) for pick in picks]


def test_a_convoy_lands_its_army_only_where_the_army_may_go(classic: Variant) -> None:
    position = spring({"England": ["F nth", "A yor", "F edi"]})
    board = classic.board
    offered = [o for o in _menu(classic, position, "England") if o.startswith("F Nth C A Yor")]
    landings = {o.rsplit(" - ", 1)[1].lower() for o in offered}
    assert "nwy" in landings and "bel" in landings
    assert not any(board.provinces[p].is_sea for p in landings)
    for sea in ("nth", "nwg", "eng"):
        convoy = Convoy(board.kinds["F"], "nth", "yor", sea, board.kinds["A"])
        assert order_problems(classic, position, "England", [convoy]) == [
            f"F Nth C A Yor - {sea.capitalize()}: armies cannot be convoyed into sea provinces"
        ]


# --- every phase of every variant ---------------------------------------------------------
# Each game: the variant, its seats and options, and enough phases to reach retreats and
# adjustments (and, for African Diplomacy II, its placements and first Winters).
GAMES: dict[str, tuple[str, list[str] | None, dict[str, object], int]] = {
    "classic": ("classic", None, {}, 16),
    "african_riots": ("african_riots", None, {}, 12),
    "sub_saharan": ("sub_saharan", None, {}, 16),
    "europe_1615": ("europe_1615", None, {}, 14),
    "africa_ii": ("africa_ii", None, {"random_events": True}, 24),
    "adii_turns": ("african_diplomacy_ii", ["Red", "Blue", "Green"], {}, 28),
    "adii_lists": ("african_diplomacy_ii", ["Red", "Blue", "Green"], {"placement": "lists"}, 16),
}


def _meaning(board: Board, order: Order) -> list[Order | tuple[object, ...]]:
    """What an order does, in the terms the menu offers it: a support's destination
    without its coast (it counts for either, DATC 6.B.4), an overseas move without "via
    convoy" (it can go no other way), a ranked list as each of its provinces, IPs spent in
    a state as one IP there (the menu offers the state; a player says how many)."""
    if isinstance(order, Support):
        target = order.target and province_of(order.target)
        return [("support", order.location, order.supported, target)]
    if isinstance(order, Move) and not board.adjacent(order.unit, order.location, order.target):
        return [Move(order.unit, order.location, order.target)]
    if isinstance(order, Place):
        return [Place((p,)) for p in order.provinces]
    if isinstance(order, Spend):
        return [Spend(1, order.state)]
    return [order]


def _menu_kinds(procedure: Procedure) -> tuple[type[Order], ...]:
    """The kinds of order whose every legal order the test finds on the menu: a standard
    procedure's own, not those a variant's procedure adds to them (bids, deployments)."""
    # By the class's ancestry: once compiled, `isinstance` through the abstract base's
    # metaclass answers False for a variant's (interpreted) subclass of a compiled one.
    for standard in (Movement, Retreats, Adjustments):
        if standard in type(procedure).__mro__:
            return standard.orders
    return procedure.orders


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_phase_offers_every_legal_order_and_nothing_else(game: str) -> None:
    name, seats, options, phases = GAMES[game]
    variant = load_variant(name).configure(options, seats)
    board = variant.board
    for seed in (1, 2):
        for result in random_game(variant, random.Random(seed), phases):
            position = result.before
            procedure = variant.calendar.procedure(position.phase)
            for power in variant.powers:
                offered = [
                    o for form in menus.offered(variant, position, power) for o in _made(form)
                ]
                where = f"{game}, seed {seed}, {position.phase}, {power}"
                for order in offered:
                    assert not order_problems(variant, position, power, [order]), where
                meanings = {m for o in offered for m in _meaning(board, o)}
                kinds = _menu_kinds(procedure)
                given = [o for o in result.orders.get(power, ()) if isinstance(o, kinds)]
                legal = [o for o in given if not order_problems(variant, position, power, [o])]
                for order in legal:
                    assert set(_meaning(board, order)) <= meanings, f"{where}: {order.format()}"
                if legal or procedure.unordered(variant, position, power, []):
                    assert offered, f"{where}: an empty menu"


# --- nothing legal missing: every order the judge accepts, however written ---------------
EXHAUSTIVE = ("classic", "africa_ii", "europe_1615", "sub_saharan", "african_riots")


def _every_order(board: Board, position: Position, unit: Unit) -> list[Order]:
    """Every movement order the unit could be written to give, legal or not: a move to
    every location, a support of every other unit to hold or to move anywhere, and a
    convoy of every other unit anywhere. (A move to a neighbour "via convoy" the judge
    accepts with no fleets to carry it, as the move it is; a menu offers it only where
    fleets stand to, and so the move alone is asked for here. Nor is a support asked for
    into a place the supported unit cannot stand: the judge lets a fleet support an army
    "into" a sea a convoy reaches, a support of no move there can be, which no menu
    offers.)"""
    places = [loc for province in sorted(board.provinces) for loc in board.locations(province)]
    kind, here = unit.type, unit.location
    orders: list[Order] = [Move(kind, here, target) for target in places]
    for other in position.units.values():
        if other is unit:
            continue
        orders.append(Support(kind, here, other.province, None, other.type))
        for target in places:
            if board.can_hold(other.type, target):
                orders.append(Support(kind, here, other.province, target, other.type))
            orders.append(Convoy(kind, here, other.province, target, other.type))
    return orders


@pytest.mark.parametrize("name", EXHAUSTIVE)
def test_every_order_the_judge_accepts_is_on_the_menu(name: str) -> None:
    """The movement menus find their orders rather than check candidates
    (`hegemon.game.reach`): written every way, any order of a unit the judge accepts is
    one the menu offers (as the random games above only sample)."""
    variant = load_variant(name)
    board = variant.board
    movements = [
        r.before
        for r in random_game(variant, random.Random(3), 12)
        if isinstance(variant.calendar.procedure(r.before.phase), Movement)
    ]
    position = movements[3]  # past the opening
    for power in variant.powers:
        rules = variant.rules_at_submission(position, power)
        units = variant.commanded_units(position, power)
        for unit, offered in menus.unit_orders(variant, position, power, units).items():
            meanings = {m for o in offered for m in _meaning(board, o)}
            for order in _every_order(board, position, unit):
                checked = check_movement_order(board, position, power, order, rules)
                if not isinstance(checked, Illegal):
                    where = f"{name}, {position.phase}, {power}: {order.format()}"
                    assert set(_meaning(board, checked)) <= meanings, where
