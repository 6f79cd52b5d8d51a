"""The phase machine: from a position and everyone's orders to the next position.

`play_phase` is a pure function. `Game` wraps it with the pending orders of the current
phase and the history of every phase played, which is what save, load and replay keep.
Phases with nothing to do are skipped: a retreat phase when no dislodged unit can retreat,
an adjustment phase when nobody can build or must disband.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

from hegemon.adjudication.adjustment import adjudicate_adjustments, adjustment_balances
from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.adjudication.retreat import adjudicate_retreats, retreat_options
from hegemon.orders import Build, Order
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
from hegemon.rules import Rules
from hegemon.variants import PLAYING, GameEnd, Variant


@dataclass(frozen=True)
class PhaseResult:
    """One adjudicated phase: the position it started from, the orders, what happened."""

    before: Position
    orders: Mapping[str, tuple[Order, ...]]
    explain: Callable[[], tuple[Outcome, ...]] = field(repr=False, compare=False)
    after: Position
    destroyed: tuple[Unit, ...] = ()  # dislodged units that could not retreat
    end: GameEnd = PLAYING  # set when this phase ended the game
    public: tuple[str, ...] = ()  # what the variant's influence step lets everyone read

    @property
    def winners(self) -> tuple[str, ...]:
        return self.end.winners

    @cached_property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every order's fate and its reason, worked out when first asked for."""
        return self.explain()


def play_phase(
    variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]
) -> PhaseResult:
    """Adjudicate the phase of `position` with `orders` and move on to the next phase."""
    board = variant.board
    frozen = {power: tuple(given) for power, given in orders.items()}
    influence = variant.influence(position, orders)
    rules = influence.rules or variant.rules_for(position)
    kind = position.phase.kind
    destroyed: tuple[Unit, ...] = ()
    if kind is PhaseKind.MOVEMENT:
        moved = adjudicate_movement(board, position, influence.orders, rules)
        after = position.evolve(
            units=dict(moved.units), dislodged=dict(moved.dislodged), contested=moved.contested
        )
        after, stranded = _drop_stranded(variant, rules, after)
        explain, destroyed = moved.explain, (*moved.disbanded, *stranded)
    elif kind is PhaseKind.RETREAT:
        retreated = adjudicate_retreats(board, position, influence.orders, rules)
        after = position.evolve(units=dict(retreated.units), dislodged={}, contested=frozenset())
        explain = _told(retreated.outcomes)
    else:
        after, outcomes = _adjust(variant, rules, position, influence.orders)
        explain = _told(outcomes)
    if influence.extras is not None:
        after = after.evolve(extras=dict(influence.extras))
    after, end = _advance(variant, after)
    return PhaseResult(position, frozen, explain, after, destroyed, end, influence.public)


def _adjust(
    variant: Variant, rules: Rules, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Position, tuple[Outcome, ...]]:
    """The players' builds and disbands, then whatever the variant builds by itself."""
    homes = variant.home_centers(position)
    adjusted = adjudicate_adjustments(variant.board, position, orders, homes, rules)
    units = dict(adjusted.units)
    automatic = [u for u in variant.automatic_builds(position) if u.province not in units]
    units.update((u.province, u) for u in automatic)
    after = variant.after_adjustments(position.evolve(units=units), adjusted.built)
    notes = tuple(
        Outcome(u.power, Build(u.type, u.location), Verdict.SUCCEEDS, "Built automatically")
        for u in automatic
    )
    return after, adjusted.outcomes + notes


def _told(outcomes: tuple[Outcome, ...]) -> Callable[[], tuple[Outcome, ...]]:
    return lambda: outcomes


def _drop_stranded(
    variant: Variant, rules: Rules, position: Position
) -> tuple[Position, tuple[Unit, ...]]:
    """Dislodged units with no retreat open are destroyed at once."""
    stranded = {
        p: d.unit
        for p, d in position.dislodged.items()
        if not retreat_options(variant.board, position, d, rules)
    }
    if not stranded:
        return position, ()
    kept = {p: d for p, d in position.dislodged.items() if p not in stranded}
    return position.evolve(dislodged=kept), tuple(stranded.values())


def _advance(variant: Variant, position: Position) -> tuple[Position, GameEnd]:
    """Step to the next phase that has something to do, updating centers after Fall."""
    phase = position.phase
    while True:
        phase = _following(phase, variant.seasons)
        if phase.kind is PhaseKind.RETREAT:
            if position.dislodged:
                return position.evolve(phase=phase), PLAYING
            continue
        if phase.kind is PhaseKind.ADJUSTMENT:
            position = variant.enter_winter(_take_centers(variant, position.evolve(phase=phase)))
            end = variant.game_end(position)
            if end or _adjustments_due(variant, position):
                return position, end
            continue
        return position.evolve(phase=phase, contested=frozenset()), PLAYING


@cache  # phases are values: the same few come back every year
def _following(phase: Phase, seasons: tuple[Season, ...]) -> Phase:
    """The next phase in a year of `seasons` movement seasons, then Winter."""
    if phase.kind is PhaseKind.MOVEMENT:
        return Phase(phase.year, phase.season, PhaseKind.RETREAT)
    if phase.kind is PhaseKind.RETREAT:
        later = seasons[seasons.index(phase.season) + 1 :]
        if later:
            return Phase(phase.year, later[0], PhaseKind.MOVEMENT)
        return Phase(phase.year, Season.WINTER, PhaseKind.ADJUSTMENT)
    return Phase(phase.year + 1, seasons[0], PhaseKind.MOVEMENT)


def _take_centers(variant: Variant, position: Position) -> Position:
    """After the Fall retreats, every supply center occupied by a capturing unit changes hands."""
    centers = dict(position.centers)
    rules = variant.rules_for(position)
    for province in variant.board.centers & position.units.keys():
        unit = position.units[province]
        if rules.captures_centers(unit):
            centers[province] = unit.power
    return position.evolve(centers=centers)


def _adjustments_due(variant: Variant, position: Position) -> bool:
    if variant.automatic_builds(position):
        return True
    balances = adjustment_balances(position)
    if any(balance < 0 for balance in balances.values()):
        return True
    homes = variant.home_centers(position)
    rules = variant.rules_for(position)
    return any(
        site not in position.units
        for power, balance in balances.items()
        if balance > 0
        for site in rules.build_sites(power, homes.get(power, frozenset()), position)
    )


@dataclass
class Game:
    """A game in progress: its variant, every phase played, and the orders now pending."""

    variant: Variant
    start: Position
    history: list[PhaseResult] = field(default_factory=list)
    pending: dict[str, list[Order]] = field(default_factory=dict)

    @classmethod
    def new(cls, variant: Variant) -> Game:
        return cls(variant, variant.initial_position())

    @property
    def position(self) -> Position:
        return self.history[-1].after if self.history else self.start

    @property
    def end(self) -> GameEnd:
        return self.history[-1].end if self.history else PLAYING

    @property
    def winners(self) -> tuple[str, ...]:
        return self.end.winners

    @property
    def over(self) -> bool:
        return bool(self.end)

    def set_orders(self, power: str, orders: Sequence[Order]) -> None:
        """Replace `power`'s pending orders for the current phase."""
        self.pending[power] = list(orders)

    def adjudicate(self) -> PhaseResult:
        if self.over:
            raise GameOver(f"the game is over: {', '.join(self.winners)} won")
        result = play_phase(self.variant, self.position, self.pending)
        self.history.append(result)
        self.pending = {}
        return result


class GameOver(RuntimeError):
    pass
