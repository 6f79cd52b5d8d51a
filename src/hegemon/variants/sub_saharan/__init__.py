"""Sub-Saharan (W. Alex Ronke, 2023): ten players, 27 stationary minor powers whose orders
are bought with secret Diplomacy Points, two extra home centers per player.

What differs from the standard game, by rules section:
- 6.0: minor units are stationary: their moves always bounce (yet cut support and block
  entry), they never dislodge anything, and when dislodged they are destroyed.
- 7.0, 7.1: players build in their home centers, and may name two more, one a winter, by
  a legal build in a vacant ex-minor center that was never anyone's home center.
- 7.2: a minor power that owns its vacant center in winter rebuilds its unit.
- 8.0, 8.1: each player has one DP per center held (at most 3) every Spring and Fall, to
  bid on minor units' orders; the Attacking & Allocating rule bars bids on a minor the
  player's own units attack or help attack.
- 2.0, 2.1: 18 centers and strictly the most wins; the optional year cap (a game option,
  10 years by default) ends the game after the Fall of its last year as a draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Self

from hegemon.board import Board, MapError
from hegemon.game import (
    PLAYING,
    Draw,
    GameEnd,
    Marks,
    Owner,
    Preparation,
    Variant,
    setup_table,
    starting_unit,
)
from hegemon.game.ending import draw_after_last_year
from hegemon.game.forms import (
    Amount,
    Choice,
    Filled,
    FormError,
    Menu,
    OrderForm,
    Purse,
)
from hegemon.game.menus import head, unit_choices
from hegemon.game.phases import Movement
from hegemon.influence import dp
from hegemon.influence.orders import Bid
from hegemon.orders import Convoy, Hold, Move, Order, Support
from hegemon.position import PhaseKind, Position, StateView, Unit, VariantState, Viewer
from hegemon.rules import Rules
from hegemon.variants.sub_saharan import bidding
from hegemon.variants.sub_saharan.board import minor_marks
from hegemon.variants.sub_saharan.rules import MOST_EXTRA_HOMES, SubSaharanRules

MINOR_HEADING = "Minor Neutral Powers"


@dataclass(frozen=True)
class SubSaharanState(VariantState):
    """The additional home centers each power has named, in order (rules 7.1): public."""

    extra_homes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def view(self, viewer: Viewer) -> SubSaharanView:
        named = {p: cs for p, cs in self.extra_homes.items() if cs}
        return SubSaharanView(named or None)


@dataclass(frozen=True)
class SubSaharanView(StateView):
    """Sub-Saharan's state, as everyone sees it: the homes named, None before any is."""

    additional_homes: Mapping[str, tuple[str, ...]] | None


@dataclass(frozen=True)
class MinorPower:
    name: str
    unit: Unit
    flag: str


class BiddingMovement(Movement):
    """Spring and Fall: every power bids its Diplomacy Points on the minor units' orders
    with its own units' orders (rules 8.0)."""

    orders = (*Movement.orders, Bid)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        """Every power, as one with no unit left may still bid."""
        return tuple(variant.powers)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        if not isinstance(variant, SubSaharan):
            raise TypeError(f"Sub-Saharan's movement in {variant.id}")
        units = [o for o in orders if not isinstance(o, Bid)]
        return variant.bid_problems(position, power, orders) + super().check(
            variant, position, power, units
        )

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """The units' orders, then a bid on each minor power's unit."""
        if not isinstance(variant, SubSaharan):
            raise TypeError(f"Sub-Saharan's movement in {variant.id}")
        return (*super().menu(variant, position, power), *variant.bid_forms(position, power))

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        """What the turn asks of a power beside its units' orders: the Diplomacy Points
        it may bid (its own to read; nothing is asked once the game is over)."""
        if not isinstance(variant, SubSaharan):
            raise TypeError(f"Sub-Saharan's movement in {variant.id}")
        points = variant.allotment(position, viewer.power or "")
        return [f"Diplomacy Points to bid this turn: {points}"] if points else []

    def cautions(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """The Attacking & Allocating rule (8.0): a bid on a minor power the power's own
        orders attack, or support an attack on, is stored, as the attack may yet be
        withdrawn, but ignored at adjudication; the power alone is told so."""
        barred = dp.attacked_provinces(dp.unit_orders_of(orders))
        return [
            f"{bid.format()}: ignored at adjudication while your own orders attack "
            f"{variant.board.name_of(bid.order.province)} or support an attack on it "
            "(rules 8.0, the Attacking & Allocating rule)"
            for bid in dp.bids_of(orders)
            if bid.order.province in barred
        ]


BidChoices = dict[Unit, tuple[Choice, ...]]  # each minor unit's legal orders, listed


@dataclass(frozen=True, eq=False)
class SubSaharan(Variant):
    minors: Mapping[str, MinorPower] = field(default_factory=dict)  # by province
    # The rules last built, with the state they were built from: the rules hang on that
    # state alone, which stays the same object from phase to phase until a winter names a
    # home, and a phase asks for them a dozen times (each power's bids checked, then the
    # moves). One entry, replaced whole, so that games played side by side never mix.
    _last_rules: list[tuple[VariantState, Rules]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )
    # The minor units' orders as a bid's form lists them, with the units and the rules
    # they were found for: every power's menu lists the same (the orders of the units
    # standing now, under the phase's rules, all public). One entry, replaced whole, so
    # that games played side by side never mix; held, so that the units are not another's.
    _last_bid_choices: list[tuple[Mapping[str, Unit], Rules, BidChoices]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, object], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        problems: list[str] = []
        minors = {}
        for province, spec in setup_table(setup, "minors", problems).items():
            if not isinstance(spec, Mapping):
                problems.append(f"[minors.{province}]: a table, not {spec!r}")
                continue
            name = str(spec.get("name", province))
            unit = starting_unit(board, name, str(spec.get("unit", "")), problems)
            if unit is not None and unit.province != province:
                problems.append(f"minor {name}: its unit must stand in {province}")
            if unit is not None:
                minors[province] = MinorPower(name, unit, str(spec.get("flag", "")))
        if problems:
            raise MapError(source, problems)
        owners = {m.name: Owner(m.name, MINOR_HEADING) for m in minors.values()}
        calendar = variant.calendar.playing(BiddingMovement())
        return replace(variant, minors=minors, owners=owners, calendar=calendar)

    # --- the start and the state -------------------------------------------------------
    def initial_position(self) -> Position:
        start = super().initial_position()
        units = {**start.units, **{p: m.unit for p, m in self.minors.items()}}
        centers = {**start.centers, **{p: m.name for p, m in self.minors.items()}}
        return start.evolve(units=units, centers=centers, state=SubSaharanState())

    def read_state(self, data: Mapping[str, object]) -> SubSaharanState:
        unknown = sorted(set(data) - {"additional_homes"})
        if unknown:
            raise ValueError(f"state: unknown field {unknown[0]!r}")
        named = data.get("additional_homes", {})
        if not isinstance(named, Mapping):
            raise ValueError("state.additional_homes: expected an object of powers")
        homes: dict[str, tuple[str, ...]] = {}
        named_by: dict[str, str] = {}  # each center named, by whom
        for spelling, centers in named.items():
            where = f"state.additional_homes.{spelling}"
            power = self.power_named(spelling)
            if power is None:
                raise ValueError(f"{where}: not a power of {self.id}")
            if power in homes:
                raise ValueError(f"{where}: {power} is listed twice")
            if not isinstance(centers, list) or len(centers) > MOST_EXTRA_HOMES:
                raise ValueError(f"{where}: a list of at most {MOST_EXTRA_HOMES} centers")
            chosen = []
            for center in centers:
                chosen.append(self._extra_home(center, where, named_by))
                named_by[chosen[-1]] = power
            homes[power] = tuple(chosen)
        return SubSaharanState(homes)

    def _extra_home(self, written: object, where: str, named_by: Mapping[str, str]) -> str:
        """A center a power named an additional home: one that began the game as a minor
        power's, named by nobody before (rules 7.1: never any power's home)."""
        center = written.strip().lower() if isinstance(written, str) else ""
        if center not in self.minors:
            raise ValueError(f"{where}: {written!r} did not begin the game as a minor's center")
        if center in named_by:
            raise ValueError(f"{where}: {center!r} is named already, by {named_by[center]}")
        return center

    @cached_property
    def minor_names(self) -> frozenset[str]:
        return frozenset(m.name for m in self.minors.values())

    def extra_homes(self, position: Position) -> dict[str, list[str]]:
        state = position.state
        named = state.extra_homes if isinstance(state, SubSaharanState) else {}
        return {p: list(cs) for p, cs in named.items()}

    def home_centers(self, position: Position) -> dict[str, frozenset[str]]:
        homes = dict(super().home_centers(position))
        for power, named in self.extra_homes(position).items():
            homes[power] = homes.get(power, frozenset()) | frozenset(named)
        return homes

    def rules_for(self, position: Position) -> Rules:
        state = position.state
        last = self._last_rules
        if last and last[0][0] is state:
            return last[0][1]
        homes = self.home_centers(position)
        ever = frozenset(c for centers in homes.values() for c in centers)
        rules = SubSaharanRules(
            self.minor_names, homes, ever, self.extra_homes(position), self.edition
        )
        self._last_rules[:] = [(state, rules)]
        return rules

    def board_marks(self, position: Position, viewer: Viewer) -> Marks:
        return minor_marks(self, position)

    def report_lines(self, before: Position, after: Position, viewer: Viewer) -> list[str]:
        """A power reads its Diplomacy Points in the report when its centers change them."""
        return [
            f"{power}: {now} Diplomacy Points to bid from now on (before: {was})"
            for power in self.powers
            if viewer.sees(power)
            and (was := self._points(before, power)) != (now := self._points(after, power))
        ]

    # --- Diplomacy Points (rules 8.0, 8.1) ------------------------------------------------
    def allotment(self, position: Position, power: str) -> int:
        if power not in self.powers or position.phase.kind is not PhaseKind.MOVEMENT:
            return 0
        return self._points(position, power)

    def allotments(self, position: Position) -> dict[str, int]:
        """`allotment` of every power, found in one go where a phase needs them all (its
        bids checked, power by power): none outside a movement phase."""
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return {}
        return bidding.allotments(self.powers, position)

    def _points(self, position: Position, power: str) -> int:
        """The points the power's centers give it, whatever the phase."""
        return dp.allotment(position.center_counts.get(power, 0))

    def minor_units(self, position: Position) -> list[Unit]:
        """The minor powers' units, which the powers bid for."""
        return [u for u in position.units.values() if u.power in self.minor_names]

    def biddable(self, position: Position) -> dict[str, Unit]:
        """The minor units, which the powers bid for, by province."""
        return bidding.biddable(self.minor_names, position)

    def bid_forms(self, position: Position, power: str) -> Menu:
        """A bid on each minor power's unit: one of its legal orders and the points
        offered for it, out of the power's Diplomacy Points (rules 8.0); a new bid on
        that unit replaces the last."""
        points = self.allotment(position, power)
        if not points:
            return ()
        purse = Purse("Diplomacy Point", points, _bid_points)
        choices = self._bid_choices(position, power)
        return tuple(_bid_form(unit, listing, purse) for unit, listing in choices.items())

    def _bid_choices(self, position: Position, power: str) -> BidChoices:
        """Each minor unit's legal orders, listed, as `power` may know them."""
        rules = self.rules_at_submission(position, power)
        units = position.units
        last = self._last_bid_choices
        if last and last[0][0] is units and last[0][1] is rules:
            return last[0][2]
        minors = unit_choices(self, position, power, self.minor_units(position))
        choices = {unit: tuple(choices) for unit, choices in minors.items()}
        self._last_bid_choices[:] = [(units, rules, choices)]
        return choices

    def bid_problems(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        """Why a power's bids among its orders may not be made (rules 8.0, 8.1)."""
        bids = dp.bids_of(orders)
        if not bids:
            return []
        _, problems = dp.allocation(
            self.board,
            position,
            power,
            bids,
            self.allotment(position, power),
            self.biddable(position),
            self.rules_for(position),
        )
        return problems

    def prepare(
        self, position: Position, orders: Mapping[str, Sequence[Order]], draws: Mapping[str, Draw]
    ) -> Preparation:
        """Each minor unit performs the order with the most DP (rules 8.0)."""
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return Preparation(position, orders)
        return bidding.movement_orders(self, position, orders)

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        """A random player's DP spread over a few minor units' planned orders."""
        points = self.allotment(position, power)
        candidates = sorted(u.province for u in self.minor_units(position) if u.province in planned)
        bids: list[Order] = []
        while points > 0 and candidates:
            order = planned[candidates.pop(rng.randrange(len(candidates)))]
            spent = rng.randint(1, points)
            if isinstance(order, Hold | Move | Support | Convoy):
                bids.append(Bid(spent, order))
            points -= spent
        return bids

    # --- winter (rules 7.1, 7.2) ----------------------------------------------------------
    def automatic_builds(self, position: Position) -> list[Unit]:
        return [
            m.unit
            for p, m in self.minors.items()
            if position.centers.get(p) == m.name and p not in position.units
        ]

    def standings(self, position: Position) -> list[str]:
        """The additional home centers each power has named (rules 8.1.1): public, as
        every build is."""
        named = self.extra_homes(position)
        names = {p: ", ".join(self.board.name_of(c) for c in named[p]) for p in named}
        return [
            f"Additional home centers: {power}: {names[power]}"
            for power in self.powers
            if named.get(power)
        ]

    def after_adjustments(self, position: Position, built: Sequence[Unit]) -> Position:
        """A build in a center outside the power's homes names it an additional home."""
        homes = self.home_centers(position)
        named = self.extra_homes(position)
        for unit in built:
            if unit.power in self.powers and unit.province not in homes.get(unit.power, ()):
                named.setdefault(unit.power, []).append(unit.province)
        if named == self.extra_homes(position):
            return position
        return position.evolve(state=SubSaharanState({p: tuple(cs) for p, cs in named.items()}))

    # --- the end (rules 2.0, 2.1) -------------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        solo = super().game_end(position)
        if solo:
            return solo
        cap = int(self.options["year_cap"])
        last_year = self.start_year + cap - 1
        return draw_after_last_year(self.powers, position, last_year) if cap else PLAYING


VARIANT = SubSaharan


def _bid_points(order: Order) -> int:
    return order.points if isinstance(order, Bid) else 0


def _bid_form(unit: Unit, choices: tuple[Choice, ...], purse: Purse) -> OrderForm:
    """A bid on a minor power's unit: one of its legal orders, and the points offered."""
    name = f"Bid on {head(unit)}"
    points = Amount("points", "Diplomacy Points to bid", 1, purse.total)
    return OrderForm(
        f"bid {unit.location}",
        name,
        choices,
        unit=unit.location,
        fields=(points,),
        action=name,
        spends=purse,
        make=_bid,
    )


def _bid(filled: Filled) -> Bid:
    order = filled.single()
    if not isinstance(order, Hold | Move | Support | Convoy):
        raise FormError(f"{order.format()}: not an order a bid is for")
    return Bid(filled.amount("points"), order)
