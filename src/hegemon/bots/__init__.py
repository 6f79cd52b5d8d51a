"""Programs that play: each is handed its power's sight of a game (`Sight`, never the
position) and gives legal orders from its menu (`Player`). docs/bots.md says how the bot
decides and how to use it from Python, the command line and the server."""

from hegemon.bots.bot import Bot, Budget
from hegemon.bots.choosing import random_orders
from hegemon.bots.player import Player, PlayerKind, RandomPlayer
from hegemon.bots.sight import Sight, sight_of

__all__ = [
    "Bot",
    "Budget",
    "Player",
    "PlayerKind",
    "RandomPlayer",
    "Sight",
    "random_orders",
    "sight_of",
]
