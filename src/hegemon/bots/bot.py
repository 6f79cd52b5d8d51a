"""The bot: Hegemon's own player for every variant (docs/bots.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hegemon.bots.choosing import random_orders
from hegemon.bots.player import PlayerKind
from hegemon.bots.sight import Sight
from hegemon.orders import Order


@dataclass(frozen=True)
class Budget:
    """How far the bot searches for one decision: CPU seconds, and at most this many
    playouts if given (for games that replay the same on any machine)."""

    seconds: float = 0.01
    playouts: int | None = None


class Bot:
    """FIRST CUT, to be replaced by the search (helper A): random legal orders."""

    kind = PlayerKind.BOT

    def __init__(self, budget: Budget = Budget(), seed: int | None = None) -> None:
        self.budget = budget
        self.rng = random.Random(seed)

    def orders(self, sight: Sight) -> list[Order]:
        return random_orders(sight, self.rng)
