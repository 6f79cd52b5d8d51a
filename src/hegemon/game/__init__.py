"""The rules of play: what a variant is (`Variant`, its `Rules` and the calendar of
procedures that play its phases), chance as recorded input, the phase machine
(`play_phase`) and a game's history (`Game`), and the checking of orders as they are
given."""

from hegemon.game.chance import Chance, ChanceError, Draw, read_draws, settle
from hegemon.game.checking import order_problems
from hegemon.game.ending import PLAYING, GameEnd, Termination, won_or_drawn
from hegemon.game.machine import (
    Game,
    GameOver,
    OrderStatus,
    PhaseResult,
    advance,
    chances_for,
    describe_end,
    latest_per_slot,
    phase_rng,
    play_phase,
)
from hegemon.game.marks import NO_MARKS, Marks, Pattern, Shade
from hegemon.game.phases import (
    ADJUSTMENTS,
    MOVEMENT,
    RETREATS,
    Calendar,
    Procedure,
    Resolution,
    Step,
    Turn,
    seasons_calendar,
)
from hegemon.game.variant import (
    Lines,
    Owner,
    Power,
    Preparation,
    SetupError,
    Variant,
    Voice,
    setup_table,
    starting_unit,
)

__all__ = [
    "ADJUSTMENTS",
    "MOVEMENT",
    "NO_MARKS",
    "PLAYING",
    "RETREATS",
    "Calendar",
    "Chance",
    "ChanceError",
    "Draw",
    "Game",
    "GameEnd",
    "GameOver",
    "Lines",
    "Marks",
    "OrderStatus",
    "Owner",
    "Pattern",
    "PhaseResult",
    "Power",
    "Preparation",
    "Procedure",
    "Resolution",
    "SetupError",
    "Shade",
    "Step",
    "Termination",
    "Turn",
    "Variant",
    "Voice",
    "advance",
    "chances_for",
    "describe_end",
    "latest_per_slot",
    "order_problems",
    "phase_rng",
    "play_phase",
    "read_draws",
    "seasons_calendar",
    "settle",
    "setup_table",
    "starting_unit",
    "won_or_drawn",
]
