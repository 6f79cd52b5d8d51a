"""What the game page lets a power pick by clicking: each of its menus (a unit's legal
orders, the builds, a placement) with, for each order, the provinces a player clicks on
the board to give it; the units it may bid on; the states it may put points in or attack
in. All of it is the power's own menu (`Procedure.menu`, as `hegemon options` lists it)
and the map: nothing another power has sent.
"""

from __future__ import annotations

import re
from typing import Any

from hegemon.board import Board, province_of
from hegemon.game.menus import Menu, unit_menus
from hegemon.influence import dp, inf
from hegemon.orders import Build, Convoy, Move, Order, Retreat, Support, UnitOrder
from hegemon.server.table import Table


def choices(table: Table, power: str) -> dict[str, Any]:
    """Everything the page offers `power` this phase, as JSON."""
    variant, position = table.variant, table.position
    board = variant.board
    menu = table.procedure.menu(variant, position, power)
    kinds = variant.orders_in(position)
    # Points on states listed in the menu (Africa II's IPs) are given by clicking a state.
    on_states = {k for k, v in menu.items() if v and inf.points_kind(type(o) for o in v)}
    offered = [o for k in on_states for o in menu[k]]
    bids: Menu = {}
    if dp.takes_bids(kinds):
        bids = unit_menus(variant, position, power, variant.biddable_units(position))
    return {
        "power": power,
        "phase": position.phase.code,
        "menus": [_menu(board, k, o) for k, o in menu.items() if k not in on_states],
        "bids": [_menu(board, k, o) for k, o in bids.items()],
        "points": _points(table, inf.points_kind([*kinds, *(type(o) for o in offered)]), offered),
        "attacks": [p for p in variant.powers if p != power] if inf.takes_attacks(kinds) else [],
        "forms": variant.own_order_forms(position, power),
    }


def _menu(board: Board, key: str, orders: list[Order]) -> dict[str, Any]:
    """One entry of a menu: a unit (`province` where it stands), or the builds, or a
    placement. The draft's ranked list (African Diplomacy II) is the one menu made of
    several clicks in a row, best first."""
    first = orders[0] if orders else None
    unit = isinstance(first, UnitOrder) and not isinstance(first, Build)
    return {
        "key": key,
        "province": first.province if unit and isinstance(first, UnitOrder) else None,
        "ranked": key.lower().startswith("ranked"),
        "orders": [
            {"text": o.format(), "kind": type(o).__name__.lower(), "clicks": clicks(board, o)}
            for o in orders
        ],
    }


def clicks(board: Board, order: Order) -> list[str]:
    """The provinces a player clicks, once the unit is chosen, to give `order`: where a
    unit moves or retreats; the unit supported and where it goes (itself again to support
    it in place); the army convoyed and its landing; a build's site; for a variant's own
    order, the provinces it names (a placement's)."""
    if isinstance(order, Move | Retreat):
        return [province_of(order.target)]
    if isinstance(order, Support):
        supported = province_of(order.supported)
        return [supported, province_of(order.target) if order.target else supported]
    if isinstance(order, Convoy):
        return [province_of(order.army), province_of(order.target)]
    if isinstance(order, Build):
        return [order.province]
    if isinstance(order, UnitOrder):
        return []
    named = (board.lookup(word) for word in _WORDS.split(order.format()))
    return [province for province in named if province is not None]


_WORDS = re.compile(r"[\s,:]+")


def _points(table: Table, kind: inf.PointsKind | None, offered: list[Order]) -> Any:
    """The states the power may put points in (Europe 1615's INFs, Africa II's IPs), by the
    provinces that belong to each, and how the orders word them; None if none."""
    if kind is None:
        return None
    variant = table.variant
    context = variant.read_context()
    allowed = inf.states_of(offered)
    states: dict[str, str] = {}
    for province in variant.board.provinces:
        state = context.lookup("state of", province)
        if state is not None and (not allowed or state in allowed):
            states[province] = kind.shown(state)
    words = kind.wording
    return {"point": words.point, "verb": words.verb, "to": words.to, "states": states}
