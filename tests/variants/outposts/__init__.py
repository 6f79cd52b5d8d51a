"""Outposts: a small variant of the tests' own, showing every extension point of the core
at work without touching it (docs/writing-a-variant.md walks through it).

Before the first year, lots are drawn for the order of play: a phase of its own, which
asks chance for a shuffle. Then the players, one at a time in that order, each place a
scout (a kind of unit of its own, which needs no supply center and takes none) in an
empty land province without a center, and may name an objective: a supply center, kept
secret from the other players. A player who owns its objective after a Fall wins; after
the last year's Fall, the game is drawn.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board
from hegemon.game import (
    PLAYING,
    Chance,
    GameEnd,
    Procedure,
    Resolution,
    Step,
    Termination,
    Turn,
    Variant,
)
from hegemon.notation import OrderSyntaxError, province_named
from hegemon.orders import Order, ReadContext, Secrecy
from hegemon.position import PhaseKind, Position, Season, Unit, VariantState, Viewer
from hegemon.reasons import SUCCEEDED, Void, Why

LOTS = PhaseKind("L", "Lots")
PLACEMENT = PhaseKind("P", "Placement")
ORDER_OF_PLAY = "order of play"
SCOUT = "S"


@dataclass(frozen=True)
class OutpostsState(VariantState):
    order: tuple[str, ...] = ()  # the order of play, once drawn: public
    placed: tuple[str, ...] = ()  # who has had its turn to place: public
    objectives: Mapping[str, str] = field(default_factory=dict)  # power -> center: secret

    def view(self, viewer: Viewer) -> OutpostsState:
        """The state itself, but for the objectives of powers `viewer` may not see."""
        seen = {p: c for p, c in self.objectives.items() if viewer.sees(p)}
        return replace(self, objectives=seen)

    @staticmethod
    def of(position: Position) -> OutpostsState:
        state = position.state
        assert isinstance(state, OutpostsState)
        return state


_PLACE = re.compile(r"^\s*place\s+(?:s\s+|scout\s+)?(.+?)\s*$", re.IGNORECASE)
_OBJECTIVE = re.compile(r"^\s*objective\s+(.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Place(Order):
    """``Place S hil``: the player's scout, placed in the opening."""

    province: str

    def format(self) -> str:
        return f"Place S {self.province.capitalize()}"

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _PLACE.match(text)
        if match is None:
            return None
        return cls(province_named(context.board, text, match.group(1)))


@dataclass(frozen=True, slots=True)
class Objective(Order):
    """``Objective mid``: the center a player means to own; nobody else learns it."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
    center: str

    def format(self) -> str:
        return f"Objective {self.center.capitalize()}"

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _OBJECTIVE.match(text)
        if match is None:
            return None
        center = context.board.lookup(match.group(1))
        if center is None or center not in context.board.centers:
            raise OrderSyntaxError(text, f"{match.group(1)!r} is not a supply center")
        return cls(center)


class Lots(Procedure):
    """Nobody orders anything: chance draws the order of play."""

    kind = LOTS

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        return ()

    def chances(self, variant: Variant, position: Position) -> tuple[Chance, ...]:
        return (Chance(ORDER_OF_PLAY, items=tuple(variant.powers)),)

    def resolve(self, turn: Turn) -> Resolution:
        order = turn.draws[ORDER_OF_PLAY]
        assert isinstance(order, tuple)
        state = replace(OutpostsState.of(turn.position), order=order)
        return Resolution(turn.position.evolve(state=state), lambda: ())


class Placement(Procedure):
    """One player at a time places its scout, until each has had its turn."""

    kind = PLACEMENT
    orders = (Place, Objective)
    one_at_a_time = True

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        state = OutpostsState.of(position)
        return tuple(p for p in state.order if p not in state.placed)[:1]

    def repeats(self, variant: Variant, position: Position) -> bool:
        return bool(self.actors(variant, position))

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        problems = [
            f"{order.format()}: {problem}"
            for order in orders
            if isinstance(order, Place) and (problem := _site_problem(variant, position, order))
        ]
        if sum(isinstance(order, Place) for order in orders) > 1:
            problems.append("each player places one scout")
        return problems

    def resolve(self, turn: Turn) -> Resolution:
        variant, position = turn.variant, turn.position
        (actor,) = self.actors(variant, position)
        state = OutpostsState.of(position)
        units = dict(position.units)
        objectives = dict(state.objectives)
        outcomes = []
        for power, given in turn.orders.items():
            for order in given:
                reason: Why = SUCCEEDED
                verdict = Verdict.SUCCEEDS
                problem = (
                    f"it is {actor}'s turn"
                    if power != actor
                    else _site_problem(variant, position.evolve(units=units), order)
                    if isinstance(order, Place)
                    else None
                )
                if problem:
                    verdict, reason = Verdict.VOID, Void(problem)
                elif isinstance(order, Place):
                    units[order.province] = Unit(power, variant.board.kinds[SCOUT], order.province)
                elif isinstance(order, Objective):
                    objectives[power] = order.center
                outcomes.append(Outcome(power, order, verdict, reason))
        state = replace(state, placed=(*state.placed, actor), objectives=objectives)
        after = position.evolve(units=units, state=state)
        return Resolution(after, lambda: tuple(outcomes))

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        (actor,) = self.actors(variant, position)
        sites = sorted(
            p for p in variant.board.provinces if not _site_problem(variant, position, Place(p))
        )
        centers = sorted(variant.board.centers)
        return {actor: [Place(rng.choice(sites)), Objective(rng.choice(centers))]}

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        state = OutpostsState.of(position)
        acting = " and ".join(self.actors(variant, position))
        return [f"Order of play: {', '.join(state.order)}; {acting} places a scout now"]


def _site_problem(variant: Variant, position: Position, order: Order) -> str | None:
    """Why a scout may not be placed there: a scout goes to empty land without a center."""
    if not isinstance(order, Place):
        return None
    province = variant.board.provinces[order.province]
    if province.is_sea or province.center:
        return f"{province.name} is not land without a supply center"
    if order.province in position.units:
        return f"{province.name} is occupied"
    return None


LOTS_PROCEDURE, PLACEMENT_PROCEDURE = Lots(), Placement()


@dataclass(frozen=True, eq=False)
class Outposts(Variant):
    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        opening = (Step(Season.WINTER, LOTS_PROCEDURE), Step(Season.WINTER, PLACEMENT_PROCEDURE))
        return replace(variant, calendar=replace(variant.calendar, opening=opening))

    def initial_position(self) -> Position:
        return super().initial_position().evolve(state=OutpostsState())

    def read_state(self, data: Mapping[str, Any]) -> OutpostsState:
        order, placed = data.get("order", []), data.get("placed", [])
        objectives = data.get("objectives", {})
        for name in (*order, *placed, *objectives):
            if name not in self.powers:
                raise ValueError(f"state: {name!r} is not a power of {self.id}")
        if any(center not in self.board.centers for center in objectives.values()):
            raise ValueError("state.objectives: every objective is a supply center")
        return OutpostsState(tuple(order), tuple(placed), dict(objectives))

    def game_end(self, position: Position) -> GameEnd:
        """Owning one's objective after a Fall wins; the last year's Fall ends in a draw."""
        if position.phase.kind is not PhaseKind.ADJUSTMENT:
            return PLAYING
        objectives = OutpostsState.of(position).objectives
        winners = tuple(p for p, c in objectives.items() if position.centers.get(c) == p)
        if winners:
            return GameEnd(Termination.SOLO, winners=tuple(sorted(winners)))
        if position.phase.year >= int(self.options["last_year"]):
            alive = {u.power for u in position.units.values()} | set(position.centers.values())
            return GameEnd(Termination.LAST_YEAR, draw=tuple(p for p in self.powers if p in alive))
        return super().game_end(position)


VARIANT = Outposts
