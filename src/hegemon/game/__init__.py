"""The rules of play: what a variant is (`Variant`, its `Rules` and the calendar of
procedures that play its phases), chance as recorded input, the phase machine
(`play_phase`) and a game's history (`Game`), and the checking of orders as they are
given."""

from hegemon.game.chance import Chance, ChanceError, Draw, settle
from hegemon.game.checking import order_problems
from hegemon.game.machine import (
    Game,
    GameOver,
    PhaseResult,
    advance,
    chances_for,
    describe_end,
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
    PLAYING,
    GameEnd,
    Power,
    Preparation,
    SetupError,
    Variant,
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
    "Marks",
    "Pattern",
    "PhaseResult",
    "Power",
    "Preparation",
    "Procedure",
    "Resolution",
    "SetupError",
    "Shade",
    "Step",
    "Turn",
    "Variant",
    "advance",
    "chances_for",
    "describe_end",
    "order_problems",
    "phase_rng",
    "play_phase",
    "seasons_calendar",
    "settle",
    "starting_unit",
]
