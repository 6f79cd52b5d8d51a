"""Whole random games of any variant, from seeded random legal orders.

Each phase's procedure makes the random orders (see `hegemon.game.randomorders` for the
standard ones); a phase that needs chance draws it from the same generator, so a seed gives
the same game in every process.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hegemon.game import PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.orders import Order
from hegemon.position import Position


def random_orders(
    variant: Variant, position: Position, rng: random.Random
) -> dict[str, list[Order]]:
    """Random legal orders for every power with something to order in this phase."""
    return variant.calendar.procedure(position.phase).random_orders(variant, position, rng)


def random_game(variant: Variant, rng: random.Random, max_phases: int) -> Iterator[PhaseResult]:
    """Play from the variant's initial position with random orders, one phase per item.

    Stops early when the game ends (a solo victory or a draw), since no phase follows.
    """
    position = variant.initial_position()
    for _ in range(max_phases):
        orders = random_orders(variant, position, rng)
        draws = settle(chances_for(variant, position), None, rng)
        result = play_phase(variant, position, orders, draws)
        yield result
        if result.end:
            return
        position = result.after
