"""The one interface every player program meets: given a power's sight, its orders."""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Protocol

from hegemon.bots.choosing import random_orders
from hegemon.bots.sight import Sight
from hegemon.orders import Order


class PlayerKind(StrEnum):
    """The kinds of player program, as reports, files and the player list name them."""

    BOT = "bot"  # the searching bot (`hegemon.bots.Bot`)
    RANDOM = "random"  # random legal orders


class Player(Protocol):
    """Gives a power's orders for the phase its sight shows: legal orders only, each
    from the sight's menu (`hegemon.game.forms`)."""

    kind: PlayerKind

    def orders(self, sight: Sight) -> list[Order]: ...


class RandomPlayer:
    """Random legal orders from the menu: the benchmark's opponent, and a seat-filler
    that costs nothing."""

    kind = PlayerKind.RANDOM

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def orders(self, sight: Sight) -> list[Order]:
        return random_orders(sight, self.rng)
