"""The bot's spending of points bought by price (`hegemon.bots.spending`): in an Africa II
IP phase met in a seeded game of random players, the IPs go where a playout shows they
win a state, all of them, and with no playouts to price by, a point on each state."""

from __future__ import annotations

import random

import pytest

from hegemon.bots import Bot, Budget, sight_of
from hegemon.game import Variant, chances_for, play_phase, settle
from hegemon.position import Position
from hegemon.randomplay import random_orders
from hegemon.variants import load_variant
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.orders import Spend

POWER = "China"


@pytest.fixture(scope="module")
def variant() -> Variant:
    return load_variant("africa_ii")


@pytest.fixture(scope="module")
def ip_phase(variant: Variant) -> Position:
    """Spring 1964's IP phase of a seeded game of random players: holdings of every
    power lie about the map, halved as the phase began."""
    rng = random.Random(1)
    position = variant.initial_position()
    while not (position.phase.year == 1964 and "Influence" in str(position.phase)):
        draws = settle(chances_for(variant, position), None, rng)
        position = play_phase(variant, position, random_orders(variant, position, rng), draws).after
    assert Ledger.of(position).holdings, "the random players have spent"
    return position


def _spends(variant: Variant, position: Position, budget: Budget) -> list[Spend]:
    orders = Bot(budget, seed=1).orders(sight_of(variant, position, POWER))
    return [o for o in orders if isinstance(o, Spend)]


def test_points_go_where_a_playout_shows_they_win_a_state(
    variant: Variant, ip_phase: Position
) -> None:
    spends = _spends(variant, ip_phase, Budget(seconds=60.0, playouts=400))
    revenue = Ledger.of(ip_phase).revenue[POWER]
    assert sum(s.points for s in spends) == revenue  # IPs left unspent are lost (a.9)
    after = play_phase(variant, ip_phase, {POWER: spends}, {}).after
    controlled = set(Ledger.of(after).controlled_by(POWER))
    assert {s.state for s in spends} <= controlled


def test_with_no_playouts_to_price_by_each_state_gets_its_least(
    variant: Variant, ip_phase: Position
) -> None:
    spends = _spends(variant, ip_phase, Budget(seconds=60.0, playouts=1))
    revenue = Ledger.of(ip_phase).revenue[POWER]
    assert [s.points for s in spends] == [1] * revenue
    assert len({s.state for s in spends}) == revenue
