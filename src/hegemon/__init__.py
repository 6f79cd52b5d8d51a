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

import importlib

# Neither `from typing import TYPE_CHECKING` nor `from __future__ import annotations`:
# modules loaded before the command line's entry point can take Ctrl-C from Python
# (hegemon.cli), typing tens of milliseconds of them.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hegemon.game import Game, PhaseResult, Variant, play_phase
    from hegemon.notation import OrderSyntaxError, parse_order
    from hegemon.orders import format_order
    from hegemon.position import Phase, Position, Unit
    from hegemon.variants import load_variant

# Where each name lives: imported when first asked for, so that importing a part of the
# package (the command line's entry point) does not load the judge before it needs it.
_HOMES = {
    "Game": "hegemon.game",
    "PhaseResult": "hegemon.game",
    "Variant": "hegemon.game",
    "play_phase": "hegemon.game",
    "OrderSyntaxError": "hegemon.notation",
    "parse_order": "hegemon.notation",
    "format_order": "hegemon.orders",
    "Phase": "hegemon.position",
    "Position": "hegemon.position",
    "Unit": "hegemon.position",
    "load_variant": "hegemon.variants",
}

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


def __getattr__(name: str) -> "Any":  # Any: whichever public name is imported lazily
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hegemon' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
