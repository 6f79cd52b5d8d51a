"""Europe 1615's INFs where they align states: each deployment form's stake (the VPs an
alignment gives, the fewest INFs that align the state now) worked out from what the power
may know, others' INFs presumed from the published shares; and the bot buying the best
prize a point at those prices."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hegemon.bots import Bot, Budget, sight_of
from hegemon.bots.spending import MARGIN
from hegemon.game import chances_for, play_phase, settle
from hegemon.game.forms import OrderForm
from hegemon.game.menus import offered
from hegemon.influence.inf import shares
from hegemon.influence.orders import Deploy
from hegemon.position import Position, Viewer
from hegemon.randomplay import random_orders
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import Europe1615
from hegemon.variants.europe_1615.ledger import Ledger, presumed
from hegemon.variants.europe_1615.preparation import judge

POWER = "England"


@pytest.fixture(scope="module")
def variant() -> Europe1615:
    found = load_variant("europe_1615")
    assert isinstance(found, Europe1615)
    return found


@pytest.fixture(scope="module")
def spring_1617(variant: Europe1615) -> Position:
    """Spring 1617 of a seeded game of random players: two years of INFs in the states."""
    rng = random.Random(3)
    position = variant.initial_position()
    while str(position.phase) != "Spring 1617 Movement":
        draws = settle(chances_for(variant, position), None, rng)
        position = play_phase(variant, position, random_orders(variant, position, rng), draws).after
    return position


def _deployments(variant: Europe1615, position: Position) -> list[OrderForm]:
    return [f for f in offered(variant, position, POWER) if f.stake is not None]


def test_others_infs_are_presumed_from_the_shares_alone(spring_1617: Position) -> None:
    ledger = Ledger.of(spring_1617)
    mine = {s for s, held in ledger.inf.items() if held.get(POWER)}
    theirs = {s for s, held in ledger.inf.items() if s not in mine and s != "ote"}
    assert mine and theirs, "the seeded game has states of both kinds"
    seen = ledger.seen(Viewer(POWER)).inf
    for state in mine:  # its own share tells the total
        assert sum(seen[state].values()) == pytest.approx(sum(ledger.inf[state].values()), rel=0.1)
    # Others' INFs tripled where England holds none: the same shares, the same presumption.
    tripled = {
        s: {p: 3 * n for p, n in h.items()} if s in theirs else h for s, h in ledger.inf.items()
    }
    assert replace(ledger, inf=tripled).seen(Viewer(POWER)).inf == seen
    published = {s: shares(h) for s, h in ledger.inf.items() if s != "ote"}
    assert (
        presumed(
            {s: {POWER: h[POWER]} for s, h in ledger.inf.items() if s in mine}, published, POWER
        )
        == seen
    )


def test_a_stake_is_the_fewest_infs_that_align_the_state(
    variant: Europe1615, spring_1617: Position
) -> None:
    known = Ledger.of(spring_1617).seen(Viewer(POWER))
    year = spring_1617.phase.year
    checked = 0
    for form in _deployments(variant, spring_1617):
        state = form.id.removeprefix("deploy ")
        assert form.stake is not None
        for extra, aligned in ((form.stake.price, True), (form.stake.price - 1, False)):
            if extra < 0:
                continue
            held = dict(known.inf.get(state, {}))
            held[POWER] = held.get(POWER, 0) + extra
            judged = judge(variant, replace(known, inf={**known.inf, state: held}), year)
            assert (judged.patron(state) == POWER) is aligned, (state, extra, held)
            checked += 1
    assert checked > 20


def test_a_players_stakes_never_show_what_others_hold(
    variant: Europe1615, spring_1617: Position
) -> None:
    """The forms are a player's menu too: built on the true position, they show the
    same stakes whatever others hold behind the same shares."""
    ledger = Ledger.of(spring_1617)
    theirs = {s for s, h in ledger.inf.items() if not h.get(POWER)}
    doubled = {
        s: {p: 2 * n for p, n in h.items()} if s in theirs else h for s, h in ledger.inf.items()
    }
    other = spring_1617.evolve(state=replace(ledger, inf=doubled))
    stakes = [(f.id, f.stake) for f in _deployments(variant, spring_1617)]
    assert stakes == [(f.id, f.stake) for f in _deployments(variant, other)]


def test_the_bot_buys_states_at_their_price_best_prize_a_point_first(
    variant: Europe1615, spring_1617: Position
) -> None:
    forms = {f.id.removeprefix("deploy "): f for f in _deployments(variant, spring_1617)}
    orders = Bot(Budget(seconds=60.0, playouts=1), seed=1).orders(
        sight_of(variant, spring_1617, POWER)
    )
    deployed = {o.state: o.points for o in orders if isinstance(o, Deploy)}
    assert deployed, "England deploys its INFs"
    for state, points in deployed.items():
        stake = forms[state].stake
        assert stake is not None and points >= stake.price + MARGIN, (state, points, stake)

    def worth(state: str) -> float:
        stake = forms[state].stake
        assert stake is not None
        return stake.prize / (stake.price + MARGIN)

    passed_over = [s for s in forms if s not in deployed]
    cheapest_left = min(deployed.values())
    for state in passed_over:  # a better buy passed over only if it cost more than was left
        stake = forms[state].stake
        assert stake is not None
        if worth(state) > min(worth(s) for s in deployed):
            assert stake.price + MARGIN > cheapest_left or stake.prize == 0
