"""The calendar of a variant: the phases of its year (and of an opening before the first
year), each played by a procedure.

A `Procedure` owns one kind of phase: whether it is due, which powers act (all at once or
one at a time), the kinds of order it takes and how they are checked, what chance it
needs, how it is resolved, random orders for tests and benchmarks, and what it tells each
viewer. The standard game's year is Spring movement, retreats, Fall movement, retreats,
Winter adjustments; a variant may add seasons (a Summer) or procedures of
its own (a placement before the first year) without the judge knowing it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from hegemon.adjudication.adjustment import adjudicate_adjustments, adjustment_balances
from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.adjudication.retreat import adjudicate_retreats, may_retreat
from hegemon.game import menus, randomorders
from hegemon.game.chance import Chance, Draw
from hegemon.game.forms import Menu
from hegemon.legality import Illegal, check_movement_order, commanded_unit, ordered_unit
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OwnOrder,
    Retreat,
    Support,
    UnitOrder,
    Waive,
)
from hegemon.position import Phase, PhaseKind, Position, Season, Unit, Viewer, editable
from hegemon.reasons import BUILT_AUTOMATICALLY
from hegemon.rules import Rules

if TYPE_CHECKING:  # the variant and its calendar refer to each other
    from hegemon.game.variant import Variant


class Turn:
    """One phase being resolved: the position as prepared, the orders the adjudicator
    sees, the rules in force and the draws of chance."""

    # A plain class, as is `Resolution`: one of each is made for every phase, and the
    # compiled core builds and reads a plain class fastest (docs/compiled-core.md).
    def __init__(
        self,
        variant: Variant,
        position: Position,
        orders: Mapping[str, Sequence[Order]],
        rules: Rules,
        draws: Mapping[str, Draw],
    ) -> None:
        self.variant: Final = variant
        self.position: Final = position
        self.orders: Final = orders
        self.rules: Final = rules
        self.draws: Final = draws

    def replace(
        self,
        position: Position | None = None,
        orders: Mapping[str, Sequence[Order]] | None = None,
    ) -> Turn:
        """The same turn with another position or other orders: for a procedure that
        resolves part of its phase through another one."""
        return Turn(
            self.variant,
            self.position if position is None else position,
            self.orders if orders is None else orders,
            self.rules,
            self.draws,
        )


class Resolution:
    """A resolved phase: the position after it (still in that phase), every order's fate,
    worked out when first asked for, and the units destroyed on the spot."""

    def __init__(
        self,
        after: Position,
        explain: Callable[[], tuple[Outcome, ...]],
        destroyed: tuple[Unit, ...] = (),
    ) -> None:
        self.after: Final = after
        self.explain: Final = explain
        self.destroyed: Final = destroyed


# Variants play phases of their own, subclassing procedures in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Procedure(ABC):
    """How one kind of phase is played. The defaults suit a phase everyone acts in."""

    kind: ClassVar[PhaseKind]
    # The kinds of order it takes: the one place a kind is declared. A variant's procedure
    # adds its own kinds to its base's (`orders = (*Movement.orders, Bid)`) and checks
    # them in `check`; the variant reads every kind its calendar's procedures take
    # (`Calendar.order_kinds`).
    orders: ClassVar[tuple[type[Order], ...]] = ()
    one_at_a_time: ClassVar[bool] = False  # True: `actors` names the one power to act now

    def enter(self, variant: Variant, position: Position) -> Position:
        """The position as the phase begins, whether it is played or skipped."""
        return position

    def due(self, variant: Variant, position: Position) -> bool:
        """Whether the phase has anything to do; if not, it is skipped."""
        return True

    @abstractmethod
    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        """The powers this phase awaits orders from (one, for a phase played in turn)."""

    def awaits(self, variant: Variant, position: Position, owner: str) -> bool:
        """Whether the phase has something to order for `owner`'s units or centers, a
        power or not (a state whose commander is secret, `Variant.secret_commanders`)."""
        return owner in self.actors(variant, position)

    def takes_ahead(self, variant: Variant, position: Position, power: str) -> bool:
        """Whether a phase played in turn takes `power`'s orders ahead of its turn (a
        ranked list of placements for its turns to come); `check` then judges them."""
        return False

    def waits_for(self, variant: Variant, position: Position, power: str) -> bool:
        """Whether the phase waits for an actor's orders: not for one whose every order is
        optional (a declaration it may make), who is then not told as awaited."""
        return True

    def chances(self, variant: Variant, position: Position) -> tuple[Chance, ...]:
        """The draws of chance resolving this phase needs."""
        return ()

    def takes(self, variant: Variant, position: Position) -> tuple[type[Order], ...]:
        """The kinds of order it takes in this position: its `orders`, less those the
        rules allow only at some times (a declaration made only in an Autumn)."""
        return self.orders

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """Why any of a power's orders of the kinds it `takes` may not be given, each
        naming the order, judged only on what that power may know."""
        return _trial(self, variant, position, power, orders)

    @abstractmethod
    def resolve(self, turn: Turn) -> Resolution:
        """Resolve the phase: a pure function of the turn."""

    def leave(self, variant: Variant, position: Position) -> Position:
        """The position as the phase ends, whether it was played or skipped."""
        return position

    def repeats(self, variant: Variant, position: Position) -> bool:
        """Whether the same phase is played again after this one (one actor at a time)."""
        return False

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """Random legal orders for every actor, for tests and benchmarks."""
        return {}

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        """What this phase asks of whom, as the viewer may read it."""
        return []

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """The order forms of the kinds this phase takes that `power` may fill in: every
        legal order of each unit it commands, of each site, listed where they can be."""
        return ()

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """What `power` has still given no order for, given its pending `orders` (e.g. the
        units without one): shown to that power and the game master."""
        return []

    def cautions(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """What `power` is warned of in its pending `orders`, which are accepted as they
        are (one that can have no effect, say), each naming the order: shown to that
        power and the game master only."""
        return []


def _trial(
    procedure: Procedure, variant: Variant, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """The orders adjudicated alone, against the rules the power may know: the void ones.
    No orders, no trial: a phase that takes none (a drawing of lots) may need a draw of
    chance to be resolved, which is not drawn before the phase is adjudicated. A procedure
    that takes orders and needs chance checks them without resolving (its own `check`)."""
    if not orders:
        return []
    rules = variant.rules_at_submission(position, power)
    turn = Turn(variant, position, {power: orders}, rules, {})
    return [
        f"{o.text}: {o.problem}"
        for o in procedure.resolve(turn).explain()
        if o.power == power and o.verdict is Verdict.VOID
    ]


@mypyc_attr(allow_interpreted_subclasses=True)  # as variants subclass it
class Movement(Procedure):
    """Orders for every unit, resolved together (DATC)."""

    kind = PhaseKind.MOVEMENT
    # And a unit's order of any kind that adjudicates itself (boarding, leaving the board,
    # a variant's own): the legality checks and the resolver ask the order itself.
    orders: ClassVar[tuple[type[Order], ...]] = (Hold, Move, Support, Convoy, OwnOrder)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        """Every power with a unit to order (a movement that takes orders of other kinds,
        such as bids, may await every power)."""
        # Each unit's commander asked once, not once a power (`Variant.commanded_units`):
        # whose orders are in is counted twice an order given, and each unit's commander
        # is a call to the variant.
        commanders = {variant.commander_of(position, u) for u in position.units.values()}
        return tuple(p for p in variant.powers if p in commanders)

    def awaits(self, variant: Variant, position: Position, owner: str) -> bool:
        return any(u.power == owner for u in position.units.values())

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        rules = variant.rules_at_submission(position, power)
        problems = []
        for order in orders:
            assert isinstance(order, UnitOrder)
            unit = ordered_unit(position, power, order)
            if unit is not None and variant.may_order(position, power, unit):
                checked = check_movement_order(variant.board, position, unit.power, order, rules)
            else:
                checked = _refusal(variant, unit, power, order)
            if isinstance(checked, Illegal):
                problems.append(f"{order.format()}: {checked.reason}")
        return problems

    def resolve(self, turn: Turn) -> Resolution:
        board, position = turn.variant.board, turn.position
        moved = adjudicate_movement(board, position, turn.orders, turn.rules)
        after = position.after_moves(moved.units, moved.dislodged, moved.contested, moved.offboard)
        if not moved.dislodged:  # most phases: nothing to look through
            return Resolution(after, moved.explain, moved.disbanded)
        # A dislodged unit with no retreat open is destroyed at once. Read from the result's
        # own dict, which the position's view shows, as compiled code reads a dict directly.
        stranded = {
            p: d.unit
            for p, d in moved.dislodged.items()
            if not may_retreat(board, after, d, turn.rules)
        }
        if stranded:
            kept = {p: d for p, d in moved.dislodged.items() if p not in stranded}
            after = after.evolve(dislodged=kept)
        destroyed = (*moved.disbanded, *stranded.values()) if stranded else moved.disbanded
        return Resolution(after, moved.explain, destroyed)

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        return randomorders.movement(variant, position, rng)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return menus.movement_menu(variant, position, power)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return _without_orders(variant.commanded_units(position, power), orders)


def _refusal(variant: Variant, unit: Unit | None, power: str, order: UnitOrder) -> Illegal:
    """Why `power` may not order the unit the order names."""
    refused = commanded_unit(variant.board, unit, power, order)
    if isinstance(refused, Illegal):
        return refused
    return Illegal(f"{power} may not order the unit in {variant.board.name_of(order.province)}")


@mypyc_attr(allow_interpreted_subclasses=True)  # as variants subclass it
class Retreats(Procedure):
    """The dislodged units retreat or disband."""

    kind = PhaseKind.RETREAT
    orders: ClassVar[tuple[type[Order], ...]] = (Retreat, Move, Disband)

    def due(self, variant: Variant, position: Position) -> bool:
        return bool(position.dislodged)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        commanders = {variant.commander_of(position, d.unit) for d in position.dislodged.values()}
        return tuple(p for p in variant.powers if p in commanders)

    def awaits(self, variant: Variant, position: Position, owner: str) -> bool:
        return any(d.unit.power == owner for d in position.dislodged.values())

    def resolve(self, turn: Turn) -> Resolution:
        retreated = adjudicate_retreats(turn.variant.board, turn.position, turn.orders, turn.rules)
        after = turn.position.evolve(
            units=dict(retreated.units), dislodged={}, contested=frozenset()
        )
        return Resolution(after, _told(retreated.outcomes))

    def leave(self, variant: Variant, position: Position) -> Position:
        """Standoffs close retreats only in the retreat phase that follows them."""
        return position.evolve(contested=frozenset()) if position.contested else position

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        return randomorders.retreats(variant, position, rng)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return menus.retreat_menu(variant, position, power)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        dislodged = [d.unit for d in position.dislodged.values()]
        return _without_orders(
            [u for u in dislodged if variant.commander_of(position, u) == power], orders
        )


@mypyc_attr(allow_interpreted_subclasses=True)  # as variants subclass it
class Adjustments(Procedure):
    """Centers change hands as the phase begins; then builds and disbands."""

    kind = PhaseKind.ADJUSTMENT
    orders: ClassVar[tuple[type[Order], ...]] = (Build, Disband, Waive)

    def enter(self, variant: Variant, position: Position) -> Position:
        """Every supply center occupied by a unit of a kind that captures changes hands."""
        return change_hands(variant, position, _of_a_capturing_kind)

    def due(self, variant: Variant, position: Position) -> bool:
        """Whether anyone must disband, may build on a free site, or is built for."""
        rules = variant.rules_for(position)
        balances = adjustment_balances(position, rules)
        if any(balance < 0 for balance in balances.values()):
            return True
        homes = variant.home_centers(position)
        return any(
            site not in position.units
            for power, balance in balances.items()
            if balance > 0
            for site in rules.build_sites(power, homes.get(power, frozenset()), position)
        ) or bool(variant.automatic_builds(position))

    def _due(self, variant: Variant, position: Position) -> dict[str, int]:
        """The builds (positive) and disbands (negative) each power may or must make:
        builds only where a free site is left."""
        rules = variant.rules_for(position)
        homes = variant.home_centers(position)
        due = {}
        for power, balance in adjustment_balances(position, rules).items():
            if balance > 0:
                sites = rules.build_sites(power, homes.get(power, frozenset()), position)
                free = [site for site in sites if site not in position.units]
                balance = min(balance, len(free))
            if balance:
                due[power] = balance
        return due

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        due = self._due(variant, position)
        return tuple(p for p in variant.powers if p in due)

    def awaits(self, variant: Variant, position: Position, owner: str) -> bool:
        return owner in self._due(variant, position)

    def resolve(self, turn: Turn) -> Resolution:
        """The players' builds and disbands, then whatever the variant builds by itself."""
        variant, position = turn.variant, turn.position
        homes = variant.home_centers(position)
        adjusted = adjudicate_adjustments(variant.board, position, turn.orders, homes, turn.rules)
        units = dict(adjusted.units)
        automatic = [u for u in variant.automatic_builds(position) if u.province not in units]
        units.update((u.province, u) for u in automatic)
        after = variant.after_adjustments(position.evolve(units=units), adjusted.built)
        notes = tuple(
            Outcome(u.power, Build(u.type, u.location), Verdict.SUCCEEDS, BUILT_AUTOMATICALLY)
            for u in automatic
        )
        return Resolution(after, _told(adjusted.outcomes + notes))

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        return randomorders.adjustments(variant, position, rng)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return menus.adjustment_menu(variant, position, power)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        due = self._due(variant, position).get(power, 0)
        given = sum(1 for o in orders if isinstance(o, (Build, Waive, Disband)))
        if abs(due) <= given:
            return []
        what = "build" if due > 0 else "disband"
        return [f"{abs(due) - given} {what}{'s' if abs(due) - given > 1 else ''}"]

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        due = self._due(variant, position)
        builds = [f"{p} {due[p]}" for p in variant.powers if due.get(p, 0) > 0]
        disbands = [f"{p} {-due[p]}" for p in variant.powers if due.get(p, 0) < 0]
        return [
            *([f"Builds: {', '.join(builds)}"] if builds else []),
            *([f"Disbands: {', '.join(disbands)}"] if disbands else []),
        ]


def change_hands(
    variant: Variant, position: Position, captures: Callable[[Unit], bool]
) -> Position:
    """The position with every supply center occupied by a unit that `captures` owned by
    that unit's power: as the adjustments begin (a variant whose units capture by other
    rules than their kind's passes its own `captures`)."""
    centers = editable(position.centers)
    supply_centers = variant.board.centers
    counts: dict[str, int] | None = None  # made when a center first changes hands
    # Not `supply_centers & units.keys()`: a frozenset and a dict's keys do not mix
    # once compiled.
    for province, unit in position.units.items():
        if province not in supply_centers:
            continue
        owner = centers.get(province)
        if owner != unit.power and captures(unit):
            centers[province] = unit.power
            if counts is None:
                counts = editable(position.center_counts)
            _recount(counts, owner, unit.power)
    # If none changed hands, the position keeps its centers, and the counts of them it
    # may have worked out already (the phase machine asks them after every phase); if
    # some did, their counts follow from the old by the few that did, where counting
    # them all again would cost more than the rest of the phase's end.
    if counts is None:
        return position
    return position.evolve(centers=centers, center_counts=counts)


def _recount(counts: dict[str, int], loser: str | None, taker: str) -> None:
    """`counts` of centers by owner once one passes from `loser` (None: it had no owner)
    to `taker`; an owner left with none is not counted (as `Position.center_counts`)."""
    counts[taker] = counts.get(taker, 0) + 1
    if loser is not None:
        left = counts[loser] - 1
        if left:
            counts[loser] = left
        else:
            del counts[loser]


def _of_a_capturing_kind(unit: Unit) -> bool:
    return unit.type.captures


def _without_orders(units: Sequence[Unit], orders: Sequence[Order]) -> list[str]:
    """The units (as orders name them) that no order names."""
    ordered = {o.slot() for o in orders}
    holds = [Hold(u.type, u.location) for u in sorted(units, key=lambda u: u.location)]
    return [hold.head for hold in holds if hold.slot() not in ordered]


def _told(outcomes: tuple[Outcome, ...]) -> Callable[[], tuple[Outcome, ...]]:
    return lambda: outcomes


MOVEMENT, RETREATS, ADJUSTMENTS = Movement(), Retreats(), Adjustments()
# The kinds the standard game's procedures take, which every variant reads.
STANDARD_KINDS: Final = frozenset((*Movement.orders, *Retreats.orders, *Adjustments.orders))


# Where a phase stands on a calendar: its procedure, the phase after it and that one's.
_Place = tuple[Procedure, Phase, Procedure]


@dataclass(frozen=True)
class Step:
    """One phase of the calendar: its season and the procedure that plays it."""

    season: Season
    procedure: Procedure


@dataclass(frozen=True)
class Calendar:
    """The phases of a variant's year, in order, and of its opening: steps played once,
    in the year before `start_year`, before the first year begins."""

    start_year: int
    year: tuple[Step, ...]
    opening: tuple[Step, ...] = ()
    # Filled when first asked for (`_place`, `kinds`); plain fields, since a cached_property
    # stops caching once compiled. Not arguments: a calendar replaced starts afresh.
    _places: dict[PhaseKind, dict[Season, dict[int, _Place]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _kinds: dict[str, PhaseKind] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _seasons: dict[str, Season] = field(default_factory=dict, init=False, repr=False, compare=False)
    _order_kinds: list[tuple[type[Order], ...]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for steps in (self.year, self.opening):
            seen = [(s.season, s.procedure.kind) for s in steps]
            if len(set(seen)) != len(seen):
                raise ValueError("a calendar has each season's kind of phase once a year")
        seasons = {s.season for s in (*self.opening, *self.year)}
        if len({s.letter for s in seasons}) != len(seasons):
            names = ", ".join(f"{s} ({s.letter})" for s in seasons)
            raise ValueError(f"the seasons of a calendar need a letter each: {names}")

    def first_phase(self) -> Phase:
        if self.opening:
            step, year = self.opening[0], self.start_year - 1
        else:
            step, year = self.year[0], self.start_year
        return Phase(year, step.season, step.procedure.kind)

    def procedure(self, phase: Phase) -> Procedure:
        """The procedure playing a phase; a LookupError if the calendar has no such phase."""
        return self._place(phase)[0]

    def following(self, phase: Phase) -> tuple[Phase, Procedure]:
        """The phase after this one on the calendar, and its procedure."""
        _, after, procedure = self._place(phase)
        return after, procedure

    @property
    def kinds(self) -> Mapping[str, PhaseKind]:
        """Every kind of phase on the calendar, by its code."""
        if not self._kinds:
            steps = (*self.opening, *self.year)
            self._kinds.update((s.procedure.kind.code, s.procedure.kind) for s in steps)
        return self._kinds

    @property
    def seasons(self) -> Mapping[str, Season]:
        """Every season on the calendar, by its letter."""
        if not self._seasons:
            steps = (*self.opening, *self.year)
            self._seasons.update((s.season.letter, s.season) for s in steps)
        return self._seasons

    @property
    def order_kinds(self) -> tuple[type[Order], ...]:
        """The kinds of order its procedures take beyond the standard game's, in the order
        they are declared: what the variant's orders are read as, before the standard
        ones."""
        if not self._order_kinds:
            taken = [k for s in (*self.opening, *self.year) for k in s.procedure.orders]
            own = tuple(k for k in dict.fromkeys(taken) if k not in STANDARD_KINDS)
            self._order_kinds.append(own)
        return self._order_kinds[0]

    def playing(self, *procedures: Procedure) -> Calendar:
        """The calendar with each of these procedures playing the phases of its kind: a
        variant's own movement (with its bids, say) in every season's."""
        by_kind = {p.kind: p for p in procedures}

        def played(steps: tuple[Step, ...]) -> tuple[Step, ...]:
            return tuple(Step(s.season, by_kind.get(s.procedure.kind, s.procedure)) for s in steps)

        return replace(self, year=played(self.year), opening=played(self.opening))

    def _place(self, phase: Phase) -> _Place:
        """A phase's procedure, the phase after it and that one's procedure: worked out
        once per phase, as the phase machine asks for them after every phase, and kept
        with the phase too (`Phase.placed`), which the phases the calendar makes carry
        from one position to the next."""
        placed = phase.placed
        if isinstance(placed, _Placed) and placed.calendar is self:
            return placed.place
        place = self._look_up(phase)
        phase.keep_placed(_Placed(self, place))
        return place

    def _look_up(self, phase: Phase) -> _Place:
        """`_place` from the calendar's own table."""
        # Looked up by the phase's parts, one dict each: a dataclass's hash is a function
        # written in Python, and a tuple of the parts, made, hashed and compared part by
        # part at every call, cost a fifth more than these lookups (asked a few times a
        # phase).
        seasons = self._places.get(phase.kind)
        if seasons is None:
            seasons = self._places[phase.kind] = {}
        years = seasons.get(phase.season)
        if years is None:
            years = seasons[phase.season] = {}
        place = years.get(phase.year)
        if place is None:
            place = years[phase.year] = self._find(phase)
        return place

    def _find(self, phase: Phase) -> _Place:
        opening = phase.year < self.start_year and any(
            s.season is phase.season and s.procedure.kind is phase.kind for s in self.opening
        )
        steps = self.opening if opening else self.year
        index = next(
            (
                i
                for i, s in enumerate(steps)
                if s.season is phase.season and s.procedure.kind is phase.kind
            ),
            None,
        )
        if index is None:
            raise LookupError(f"{phase} is not a phase of this variant")
        if index + 1 < len(steps):
            step, year = steps[index + 1], phase.year
        else:
            step, year = self.year[0], self.start_year if opening else phase.year + 1
        after = Phase(year, step.season, step.procedure.kind)
        return steps[index].procedure, after, step.procedure


class _Placed:
    """Where a calendar found a phase (`Calendar._place`), as the phase keeps it."""

    def __init__(self, calendar: Calendar, place: _Place) -> None:
        self.calendar: Final = calendar
        self.place: Final = place


def seasons_calendar(seasons: Sequence[Season], start_year: int) -> Calendar:
    """The standard year for these movement seasons: each season's movement and retreats,
    then the Winter adjustments."""
    steps = [Step(s, p) for s in seasons for p in (MOVEMENT, RETREATS)]
    return Calendar(start_year, (*steps, Step(Season.WINTER, ADJUSTMENTS)))
