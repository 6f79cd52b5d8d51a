"""The bots' ground rules: a player program is handed its power's sight, never the
position, so that no secret of another power reaches it; and whatever it gives from its
menu is legal, in every kind of phase of every variant."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest

from hegemon.board import province_of
from hegemon.bots import sight_of
from hegemon.bots.choosing import Pick, complete, random_orders
from hegemon.game import PLAYING, Variant, chances_for, play_phase, settle
from hegemon.game.forms import OrderForm
from hegemon.orders import Move, Order, Support
from hegemon.variants import load_variant

# --- legality ---------------------------------------------------------------------------

# Each variant as configured for play, with the kinds of phase it plays: African
# Diplomacy II's opening places armies in turn, or by ranked lists in a draft phase.
CONFIGURATIONS: tuple[tuple[str, Mapping[str, str], str], ...] = (
    ("classic", {}, "MRA"),
    ("sub_saharan", {}, "MRA"),
    ("europe_1615", {}, "MRA"),
    ("africa_ii", {}, "MRIA"),
    ("african_diplomacy_ii", {}, "LPMRA"),
    ("african_diplomacy_ii", {"placement": "lists"}, "LDMRA"),
    ("african_riots", {}, "MRA"),
)

# The kinds of order, the variant's own and the standard game's beyond moves and
# supports, that random play from the menus gives within the phases played (the rare
# ones, such as Africa II's declarations of independence, are left to the variants' own
# tests): each form is filled in, not only offered.
GIVEN = {
    "classic": {"Build", "Disband", "Retreat", "Convoy"},
    "sub_saharan": {"Bid", "Build"},
    "europe_1615": {"Deploy", "DiplomaticAttack", "AllianceOffer", "CaptureWaiver", "EmpireOrder"},
    "africa_ii": {"Spend", "Aid", "Raise", "Build"},
    "african_diplomacy_ii": {"Place", "Declare", "Build"},
    "african_riots": {"Build"},
}
MAX_PHASES = 80  # over all the games of a variant, enough to meet every kind of phase


def _configured(name: str, options: Mapping[str, str]) -> Variant:
    variant = load_variant(name)
    return variant.configure(variant.read_options(dict(options)), None) if options else variant


def attacking(rng: random.Random) -> Pick:
    """A pick for one power's units that moves most of them and has the others support
    the moves already picked: random play that dislodges units, so that the retreats
    come within a few years (uniform picks, mostly supports of nothing moving, rarely
    dislodge anything)."""
    moves: list[Move] = []

    def pick(form: OrderForm) -> int:
        orders = [c.order for c in form.choices]
        backing = [i for i, o in enumerate(orders) if _backs(o, moves)]
        if backing:
            return rng.choice(backing)
        onward = [i for i, o in enumerate(orders) if isinstance(o, Move)]
        i = rng.choice(onward) if onward and rng.random() < 0.7 else rng.randrange(len(orders))
        if isinstance(orders[i], Move):
            moves.append(orders[i])
        return i

    return pick


def _backs(order: Order, moves: list[Move]) -> bool:
    return isinstance(order, Support) and any(
        province_of(m.location) == province_of(order.supported)
        and province_of(m.target) == order.destination
        for m in moves
    )


def test_the_configurations_play_every_kind_of_phase_of_each_calendar() -> None:
    for name in GIVEN:
        played = {code for n, _, codes in CONFIGURATIONS if n == name for code in codes}
        assert played == set(load_variant(name).calendar.kinds), name


@pytest.mark.parametrize(("name", "options", "codes"), CONFIGURATIONS)
def test_players_from_sights_give_legal_orders_in_every_kind_of_phase(
    name: str, options: Mapping[str, str], codes: str
) -> None:
    """Random players from their sights, half of them uniform (the random player) and
    half attacking, play until every kind of phase the configuration plays has come and
    every kind of order expected was given; the judge accepts every set, and each game
    goes on to its end or the bound."""
    variant = _configured(name, options)
    met: Counter[str] = Counter()
    given: Counter[str] = Counter()
    played = 0

    def done() -> bool:
        return set(codes) <= set(met) and GIVEN[name] <= set(given)

    for seed in range(1, 10):
        rng = random.Random(seed)
        position = variant.initial_position()
        while played < MAX_PHASES and not done():
            procedure = variant.calendar.procedure(position.phase)
            met[position.phase.kind.code] += 1
            orders = {}
            for number, power in enumerate(procedure.actors(variant, position)):
                sight = sight_of(variant, position, power)
                if (number + played) % 2:
                    chosen = random_orders(sight, rng)
                else:
                    chosen = complete(sight, sight.menu, attacking(rng), rng)
                assert procedure.check(variant, position, power, chosen) == [], (
                    f"{name} {position.phase}: {power}: {[o.format() for o in chosen]}"
                )
                given.update(type(o).__name__ for o in chosen)
                orders[power] = chosen
            draws = settle(chances_for(variant, position), None, rng)
            result = play_phase(variant, position, orders, draws)
            played += 1
            if result.end is not PLAYING:
                break
            position = result.after
    assert set(codes) <= set(met), f"{name}: phases met {dict(met)}"
    assert GIVEN[name] <= set(given), f"{name}: orders given {dict(given)}"
