"""The standard orders' equality and hash, written out rather than left to `@dataclass`
(for speed): on both builds the same as `@dataclass`'s, for them and for the own kinds
(`OwnOrder`) that inherit them compiled: orders of one class with equal compared fields
equal, any other pair unequal, equal orders hashed alike."""

from __future__ import annotations

import itertools
from dataclasses import fields

from hegemon.beyond import Embark, Leave
from hegemon.board import ARMY, FLEET
from hegemon.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support

ORDERS: tuple[Order, ...] = (
    Hold(ARMY, "par"),
    Hold(FLEET, "par"),
    Hold(ARMY, "bur"),
    Move(ARMY, "par", "bur"),
    Move(ARMY, "par", "bur", via_convoy=True),
    Move(ARMY, "par", "pic"),
    Move(FLEET, "spa/nc", "gas"),
    Move(FLEET, "spa/sc", "gas"),
    Support(ARMY, "mar", "par"),
    Support(ARMY, "mar", "par", "bur"),
    Support(ARMY, "mar", "par", "bur", ARMY),
    Support(ARMY, "mar", "bur", "par"),
    Convoy(FLEET, "eng", "lon", "bre"),
    Convoy(FLEET, "eng", "lon", "bre", ARMY),
    Convoy(FLEET, "eng", "lon", "pic"),
    Retreat(ARMY, "par", "bur"),
    Retreat(ARMY, "par", "pic"),
    Disband(ARMY, "par"),
    Build(ARMY, "par"),
    Build(FLEET, "par"),
    Embark(ARMY, "par", "bur"),
    Embark(ARMY, "par", "bur", FLEET),
    Embark(ARMY, "par", "pic"),
    Embark(FLEET, "par", "bur"),
    Leave(ARMY, "par"),
)


def _compared(order: Order) -> tuple[object, ...]:
    """What `@dataclass` compares and hashes: the fields with `compare` set, in order."""
    return tuple(getattr(order, f.name) for f in fields(order) if f.compare)  # type: ignore[arg-type]


def _copy(order: Order) -> Order:
    """An equal order, made anew."""
    args = {f.name: getattr(order, f.name) for f in fields(order) if f.init}  # type: ignore[arg-type]
    return type(order)(**args)


def test_orders_equal_exactly_when_of_one_class_with_the_same_fields() -> None:
    for a, b in itertools.product(ORDERS, repeat=2):
        same = type(a) is type(b) and _compared(a) == _compared(b)
        assert (a == b) is same, (a, b)
        assert (a != b) is not same, (a, b)


def test_an_order_made_anew_is_equal_and_hashed_alike() -> None:
    for order in ORDERS:
        again = _copy(order)
        assert again is not order
        assert again == order
        assert hash(again) == hash(order)


def test_orders_hash_as_their_compared_fields() -> None:
    for order in ORDERS:
        assert hash(order) == hash(_compared(order)), order


def test_orders_as_keys_find_their_equals() -> None:
    points = {order: n for n, order in enumerate(ORDERS)}
    assert len(points) == len(ORDERS)
    assert all(points[_copy(order)] == n for n, order in enumerate(ORDERS))


def test_an_order_is_unequal_to_anything_else() -> None:
    assert Hold(ARMY, "par") != (ARMY, "par")
    assert Hold(ARMY, "par") != "A Par H"
    assert Hold(ARMY, "par") != Disband(ARMY, "par")
