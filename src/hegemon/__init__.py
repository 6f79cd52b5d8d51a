"""Hegemon: a judge for Diplomacy and its influence variants.

The public API for programs, in two pure functions and the types they use::

    from hegemon import load_variant, play_phase, parse_order

    classic = load_variant("classic")
    start = classic.initial_position()
    orders = {"France": [parse_order("A par - bur", classic.board)]}
    result = play_phase(classic, start, orders)
    result.after           # the next Position
    result.outcomes        # every order's fate and the reason for it
"""

from hegemon.game import Game, PhaseResult, Variant, play_phase
from hegemon.notation import OrderSyntaxError, parse_order
from hegemon.orders import format_order
from hegemon.position import Phase, Position, Unit
from hegemon.variants import load_variant

__all__ = [
    "Game",
    "OrderSyntaxError",
    "Phase",
    "PhaseResult",
    "Position",
    "Unit",
    "Variant",
    "format_order",
    "load_variant",
    "parse_order",
    "play_phase",
]
