"""The one interface every player program meets: given a power's sight, its orders."""

from __future__ import annotations

import random
from typing import Protocol

from hegemon.bots.choosing import random_orders
from hegemon.bots.sight import Sight
from hegemon.orders import Order


class Player(Protocol):
    """Gives a power's orders for the phase its sight shows: legal orders only, each
    from the sight's menu (`hegemon.game.forms`)."""

    name: str  # how reports and the player list call this kind of player

    def orders(self, sight: Sight) -> list[Order]: ...


class RandomPlayer:
    """Random legal orders from the menu: the benchmark's opponent, and a seat-filler
    that costs nothing."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def orders(self, sight: Sight) -> list[Order]:
        return random_orders(sight, self.rng)
