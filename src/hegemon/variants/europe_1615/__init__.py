"""Europe 1615: Prelude to War (Matthew Medeiros, 2013): five powers buy the allegiance and
the religion of Europe's minor states with influence points (INFs), and score victory
points (VPs) for conquests, alignments and religious control at the end of 1616, 1618
and 1620.

What differs from the standard game (the rules' headings in capitals), module by module:
- `preparation`: DEPLOYMENT of the year's INFs (``16: WUR``) with any movement phase's
  orders; THE DIPLOMATIC ATTACK ORDER (``LOR > France``); every state's STATUS (ALIGNED,
  NEUTRAL, UNMARKED) and RELIGIOUS STATUS; an aligned state's unit obeying its patron.
- `rules`: what the statuses do to adjudication: the patron may not dislodge its client;
  nobody enters a NEUTRAL state, but a foreign unit holding its position there may be
  attacked; minor units neither retreat nor capture (the Empire's do both).
- `winter`: the year's end as the build phase begins: internment, captures, annexation,
  capture of a state, ELIMINATION, the next year's INFs (GAIN AND LOSS OF INFLUENCE),
  and the minor states' own rebuilds.
- `scoring`: the SCORING PHASE and the VICTORY CONDITIONS, alliances included.
- `checks`: the checks made when orders are given, on what their power may know.
- `forms`: the forms of its own orders a player fills in (INFs, attacks, alliances ...).
- `orders`, `ledger`, `states`, `lines`: the variant's orders, its state and views, its
  states as the setup describes them, and what its reports say.
The Ottoman Empire's patron is kept secret throughout: orders for the Empire's units are
`EmpireOrder`s, secret until the end, and VPs that would name the patron wait for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Self

from hegemon.board import Board, MapError
from hegemon.game import Draw, GameEnd, Marks, Owner, Preparation, Variant, Voice
from hegemon.game.forms import Menu
from hegemon.game.phases import Adjustments, Movement, Retreats
from hegemon.influence.inf import attack_sequence
from hegemon.influence.orders import Deploy, DiplomaticAttack
from hegemon.orders import Order, ReadContext, UnitOrder
from hegemon.position import Phase, PhaseKind, Position, Unit, Viewer
from hegemon.rules import STANDARD, Rules
from hegemon.variants.europe_1615 import checks, forms, preparation, scoring, winter
from hegemon.variants.europe_1615.board import state_marks
from hegemon.variants.europe_1615.ledger import CATHOLIC, OTTOMAN, Ledger
from hegemon.variants.europe_1615.lines import (
    own_lines,
    secret_annexation_lines,
    secret_lines,
    standing_lines,
    status_lines,
)
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver, EmpireOrder
from hegemon.variants.europe_1615.rules import phase_rules
from hegemon.variants.europe_1615.states import EMPIRE, State, read_state

# Why no private message may be addressed to the Empire (rules: STATUS (3)).
EMPIRE_PRESS_RULE = (
    "the Ottoman Empire's patron stays anonymous: \"Communications with the Ottoman Empire "
    'should be conducted by public white/grey press or through the GM"'
)

THRESHOLDS = {  # the rules' numbers (rules: STATUS, RELIGIOUS STATUS), unless setup says
    "minor_share": 50,
    "minor_minimum": 5,
    "ottoman_minimum": 15,
    "religious_minimum": 10,
}
_ATTACK_CHANCE = 0.3  # how often a random player makes its diplomatic attack, when it can
_OFFER_CHANCE = 0.1  # how often it offers an alliance, while it may
_WAIVER_CHANCE = 0.2  # how often it waives a center one of its units stands in


# The kinds of order of its own each phase takes: declarations and the Empire's orders
# with any phase's orders, INFs and diplomatic attacks with the movement orders (rules:
# DEPLOYMENT, THE DIPLOMATIC ATTACK ORDER, Optional Alliances, STATUS (3)).
ANYTIME: tuple[type[Order], ...] = (AllianceOffer, CaptureWaiver, EmpireOrder)
INFLUENCE: tuple[type[Order], ...] = (Deploy, DiplomaticAttack)


# Each of the three procedures below repeats its two lines of `check` and `menu`: a mixin
# holding them once, an interpreted class beside the compiled procedure among the bases,
# crashes the compiled core (a segmentation fault in the Europe 1615 tests, tried).
class EuropeMovement(Movement):
    """A movement phase: the units' orders, the year's INFs deployed, attacks made."""

    orders = (*Movement.orders, *INFLUENCE, *ANYTIME)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        """Every power, as one with no unit left may still deploy its INFs."""
        return tuple(variant.powers)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return _checked(super().check, variant, position, power, orders)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (*super().menu(variant, position, power), *_forms(variant, position, power))


class EuropeRetreats(Retreats):
    """The retreats, with the declarations and the Empire's orders any phase takes."""

    orders = (*Retreats.orders, *ANYTIME)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return _checked(super().check, variant, position, power, orders)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (*super().menu(variant, position, power), *_forms(variant, position, power))


class BuildPhase(Adjustments):
    """The Winter: the year's end (`winter`) around the standard change of centers; the
    declarations and the Empire's orders any phase takes."""

    orders = (*Adjustments.orders, *ANYTIME)

    def enter(self, variant: Variant, position: Position) -> Position:
        return winter.enter(_europe(variant), position)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return _checked(super().check, variant, position, power, orders)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (*super().menu(variant, position, power), *_forms(variant, position, power))


def _checked(
    standard: Callable[[Variant, Position, str, Sequence[Order]], list[str]],
    variant: Variant,
    position: Position,
    power: str,
    orders: Sequence[Order],
) -> list[str]:
    """The problems of the orders of Europe 1615's own kinds (`checks`), then those the
    `standard` procedure's check finds in the others."""
    kinds = (*INFLUENCE, *ANYTIME)
    own = [o for o in orders if isinstance(o, kinds)]
    rest = [o for o in orders if not isinstance(o, kinds)]
    return checks.order_problems(_europe(variant), position, power, own) + standard(
        variant, position, power, rest
    )


def _forms(variant: Variant, position: Position, power: str) -> Menu:
    """The forms of the orders of Europe 1615's own kinds, after the standard ones."""
    return forms.order_forms(_europe(variant), position, power)


def _europe(variant: Variant) -> Europe1615:
    if not isinstance(variant, Europe1615):
        raise TypeError(f"Europe 1615's phase in {variant.id}")
    return variant


@dataclass(frozen=True, eq=False)
class Europe1615(Variant):
    states: Mapping[str, State] = field(default_factory=dict)  # by id, the Empire included
    religion: Mapping[str, str] = field(default_factory=dict)  # power -> faith
    lands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # power -> its provinces
    income_table: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    home_values: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # (inf, vp)
    ottoman_share: Mapping[int, int] = field(default_factory=dict)
    religious_share: Mapping[int, int] = field(default_factory=dict)
    scoring_years: tuple[int, ...] = ()
    end_year: int = 0  # the last year (rules: Introduction); always read from the data
    thresholds: Mapping[str, int] = field(default_factory=dict)  # the rules' minimums
    alliance_deadline: int = 0  # alliances are formed before this year; from the data
    holy_city: str = ""  # the Protestant who captures it wins (Rome)

    @classmethod
    # Untyped: the setup's nested tables as TOML reads them, each value narrowed where it is read
    # (the base's own part is read as Mapping[str, object], `hegemon.game.setup_table`).
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        problems: list[str] = []
        states = {
            sid: read_state(board, sid, spec, problems)
            for sid, spec in setup.get("states", {}).items()
        }
        if "ottoman" in setup:
            states[OTTOMAN] = read_state(
                board, OTTOMAN, {**setup["ottoman"], "kind": EMPIRE}, problems
            )
        powers = setup.get("powers", {})
        game = setup.get("game", {})
        tables = setup.get("tables", {})
        lands = {p: tuple(spec.get("provinces", ())) for p, spec in powers.items()}
        problems += [
            f"{power}: unknown province {province!r}"
            for power, held in lands.items()
            for province in held
            if province not in board.provinces
        ]
        end_year = _required_year(game, "end_year", problems)
        alliance_deadline = _required_year(game, "alliance_deadline", problems)
        if problems:
            raise MapError(source, problems)
        calendar = variant.calendar.playing(EuropeMovement(), EuropeRetreats(), BuildPhase())
        return replace(
            variant,
            calendar=calendar,
            owners={s.name: Owner(s.name, s.heading) for s in states.values()},
            states=states,
            religion={p: str(spec.get("religion", "")) for p, spec in powers.items()},
            lands=lands,
            income_table={
                p: {int(y): int(n) for y, n in spec.get("income", {}).items()}
                for p, spec in powers.items()
            },
            home_values={
                c: (int(v.get("inf", 0)), int(v.get("vp", 0)))
                for c, v in setup.get("home_centers", {}).items()
            },
            ottoman_share={int(y): int(n) for y, n in tables.get("ottoman_alignment", {}).items()},
            religious_share={
                int(y): int(n) for y, n in tables.get("religious_control", {}).items()
            },
            scoring_years=tuple(int(y) for y in game.get("scoring_years", ())),
            thresholds={**THRESHOLDS, **tables.get("thresholds", {})},
            end_year=end_year,
            alliance_deadline=alliance_deadline,
            holy_city=str(game.get("holy_city", "")),
        )

    # --- lookups -----------------------------------------------------------------------
    @property
    def first_phase(self) -> Phase:
        return self.calendar.first_phase()

    @property
    def ottoman(self) -> State:
        return self.states[OTTOMAN]

    @cached_property
    def state_of_owner(self) -> dict[str, State]:
        return {s.name: s for s in self.states.values()}

    @cached_property
    def states_by_name(self) -> tuple[State, ...]:
        """The states in the order the reports list them, by name: fixed, not sorted for
        every report."""
        return tuple(sorted(self.states.values(), key=lambda s: s.name))

    @cached_property
    def state_of_province(self) -> dict[str, State]:
        return {p: s for s in self.states.values() for p in s.provinces}

    @cached_property
    def home_owner(self) -> dict[str, str]:
        return {c: p.name for p in self.powers.values() for c in p.home_centers}

    @cached_property
    def first_holder(self) -> dict[str, str]:
        """Whose each land province is at the start: a power's, a state's (its name), or
        nobody's (not listed; seas are nobody's)."""
        holders = {p: s.name for s in self.states.values() for p in s.provinces}
        holders.update((p, power) for power, held in self.lands.items() for p in held)
        return holders

    def state_named(self, spelling: str) -> State | None:
        return next((s for s in self.states.values() if s.called(spelling)), None)

    # --- the start --------------------------------------------------------------------
    def initial_position(self) -> Position:
        start = super().initial_position()
        units = dict(start.units)
        centers = dict(start.centers)
        for state in self.states.values():
            units.update((u.province, u) for u in state.units)
            centers.update(dict.fromkeys(state.centers, state.name))
        year = self.start_year
        income = {p: self.income_table[p].get(year, 0) for p in self.powers}
        ledger = Ledger(
            inf={}, spent={}, income=income, attacked=[],
            sequence=attack_sequence(income, sorted(self.powers)),
            captured=[], status={}, religion={}, vp={}, allies=[], offers={}, waived={},
            eliminated=[], annexed={}, secret_annexed={}, awards={}, secret_awards={},
            year_end=[],
        )  # fmt: skip
        ledger = preparation.judge(self, ledger, year)
        return start.evolve(units=units, centers=centers, state=ledger)

    def read_state(self, data: Mapping[str, object]) -> Ledger:
        return Ledger.from_json(data, self.powers, self.states)

    def rules_for(self, position: Position) -> Rules:
        return phase_rules(self, position, Ledger.of(position))

    def rules_at_submission(self, position: Position, power: str) -> Rules:
        """In a movement phase, which states are neutral hangs on every power's secret
        deployments of this very phase, so orders are checked against the map alone and
        the statuses applied at adjudication. Other phases' statuses are settled, and
        public."""
        if position.phase.kind is PhaseKind.MOVEMENT:
            return STANDARD
        return self.rules_for(position)

    def board_marks(self, position: Position, viewer: Viewer) -> Marks:
        return state_marks(self, position, viewer)

    # --- orders -----------------------------------------------------------------------
    def read_context(self, units: Mapping[str, Unit] | None = None) -> ReadContext:
        """Orders name states by id, label or name (``16: WUR``, ``5: Papal States``), and
        the Empire's units or centers make an order an `EmpireOrder`."""
        context = super().read_context(units)
        standing = units or {}

        def state(spelling: str) -> str | None:
            found = self.state_named(spelling)
            return found.id if found else None

        def state_of(spelling: str) -> str | None:
            province = self.board.lookup(spelling)
            host = self.state_of_province.get(province) if province else None
            return host.id if host else None

        def empire(province: str) -> str | None:
            unit = standing.get(province)
            if unit is not None:
                return province if unit.power == self.ottoman.name else None
            return province if province in self.ottoman.centers else None

        names = {**context.names, "state": state, "state of": state_of, "empire": empire}
        return replace(context, names=names)

    def may_order(self, position: Position, power: str, unit: Unit) -> bool:
        """A power may send orders to any state's unit: they are followed if the state
        turns out aligned with it once this phase's INFs are deployed (rules: STATUS)."""
        return unit.power == power or unit.power in self.state_of_owner

    def commander_of(self, position: Position, unit: Unit) -> str | None:
        """A power commands its own units and those of the minor states aligned with it
        (STATUS (3)). Nobody commands the Empire's in the open: its patron's orders for
        them are `EmpireOrder`s, and the Empire is listed among those whose orders are
        awaited under its own name (`secret_commanders`)."""
        state = self.state_of_owner.get(unit.power)
        if state is None:
            return super().commander_of(position, unit)
        return None if state.kind == EMPIRE else Ledger.of(position).patron(state.id)

    def commanded_units(self, position: Position, power: str) -> list[Unit]:
        """The units `commander_of` gives `power`: its own and its clients', found by
        their owners (every unit of every state and power is asked of in each menu)."""
        return preparation.commanded_units(self, position, power)

    def secret_commanders(self, position: Position) -> Mapping[str, str]:
        """The aligned Empire, ordered by its patron: "For a power aligned with the
        Ottoman Empire, the GM keeps the player/power anonymous" (STATUS (3))."""
        patron = Ledger.of(position).patron(OTTOMAN)
        return {self.ottoman.name: patron} if patron is not None else {}

    def given_for(self, order: Order) -> str | None:
        return self.ottoman.name if isinstance(order, EmpireOrder) else None

    def press_voices(self, position: Position) -> Mapping[str, Voice]:
        """The Empire speaks in public press and to the GM through its patron, who stays
        anonymous (STATUS (3)); nobody speaks for it while it is neutral."""
        patron = Ledger.of(position).patron(OTTOMAN)
        return {self.ottoman.name: Voice(patron, EMPIRE_PRESS_RULE)}

    def eliminated(self, position: Position, power: str) -> bool:
        """ELIMINATION, as the year's end records it."""
        return power in Ledger.of(position).eliminated

    # --- each phase: deploy, attack, judge the states, give the clients' orders -----------
    def prepare(
        self, position: Position, orders: Mapping[str, Sequence[Order]], draws: Mapping[str, Draw]
    ) -> Preparation:
        return preparation.prepare(self, position, orders)

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        """For the Empire's patron, the planned orders of the Empire's units (and builds),
        in any phase; in a movement phase, some of the year's INFs into a few states, now
        and then a diplomatic attack where this power holds INFs beside another, an
        alliance offer or a waiver."""
        ledger = Ledger.of(position)
        if power not in self.powers or power in ledger.eliminated:
            return []
        orders: list[Order] = []
        if ledger.patron(OTTOMAN) == power:
            orders += self._empire_orders(position, planned)
        if position.phase.kind is PhaseKind.MOVEMENT:
            orders += self._random_deployments(ledger, power, rng)
            orders += self._random_attack(position, ledger, power, rng)
            orders += self._random_declarations(position, ledger, power, rng)
        return orders

    def _empire_orders(self, position: Position, planned: Mapping[str, Order]) -> list[Order]:
        units = position.all_units
        return [
            EmpireOrder(order)
            for province, order in sorted(planned.items())
            if isinstance(order, UnitOrder)
            and (
                units[province].power == self.ottoman.name
                if province in units
                else province in self.ottoman.centers
            )
        ]

    def _random_deployments(self, ledger: Ledger, power: str, rng: random.Random) -> list[Order]:
        left = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
        catholic = self.religion[power] == CATHOLIC
        open_states = sorted(
            s.id
            for s in self.states.values()
            if s.id not in ledger.captured and (catholic or not s.catholic_only)
        )
        orders: list[Order] = []
        for state in rng.sample(open_states, min(3, len(open_states))):
            if left <= 0:
                break
            amount = rng.randint(1, left)
            orders.append(Deploy(amount, state))
            left -= amount
        return orders

    def _random_attack(
        self, position: Position, ledger: Ledger, power: str, rng: random.Random
    ) -> list[Order]:
        rivals = [
            (state, other)
            for state, held in sorted(ledger.inf.items())
            if state != OTTOMAN and held.get(power)
            for other in sorted(held)
            if other != power
        ]
        may_attack = position.phase != self.first_phase and power not in ledger.attacked
        if rivals and may_attack and rng.random() < _ATTACK_CHANCE:
            state, target = rng.choice(rivals)
            return [DiplomaticAttack(state, target)]
        return []

    def _random_declarations(
        self, position: Position, ledger: Ledger, power: str, rng: random.Random
    ) -> list[Order]:
        """Now and then an alliance offer to a power free to accept it, before the
        deadline; now and then a waiver of a center one of its units stands in."""
        orders: list[Order] = []
        allied = {p for pair in ledger.allies for p in pair} | set(ledger.eliminated)
        partners = sorted(set(self.powers) - allied - {power})
        open_to_offers = position.phase.year < self.alliance_deadline and power not in allied
        if open_to_offers and partners and rng.random() < _OFFER_CHANCE:
            orders.append(AllianceOffer(rng.choice(partners)))
        held = sorted(
            p
            for p, u in position.units.items()
            if u.power == power and p in self.board.centers and position.centers.get(p) != power
        )
        if held and rng.random() < _WAIVER_CHANCE:
            orders.append(CaptureWaiver(rng.choice(held)))
        return orders

    # --- the year's end -----------------------------------------------------------------
    def automatic_builds(self, position: Position) -> list[Unit]:
        return winter.rebuilds(self, position)

    # --- the end ------------------------------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        return scoring.ending(self, position)

    def points(self, position: Position) -> Mapping[str, int]:
        """Victory points, the secret ones the position's ledger holds included."""
        ledger = Ledger.of(position)
        return {power: ledger.total_vp(power) for power in self.powers}

    # --- what each viewer reads -----------------------------------------------------------
    def standings(self, position: Position) -> list[str]:
        return standing_lines(self, Ledger.of(position))

    def report_lines(self, before: Position, after: Position, viewer: Viewer) -> list[str]:
        """To a power alone: its secret VPs when a scoring added to them, and the Empire's
        provinces it annexed in secret this year."""
        was, now = Ledger.of(before), Ledger.of(after)
        annexed = {p: q for p, q in now.secret_annexed.items() if was.secret_annexed.get(p) != q}
        lines = []
        for power in self.powers:
            if not viewer.sees(power):
                continue
            if was.secret_awards.get(power) != now.secret_awards.get(power):
                lines += secret_lines(now, power)
            lines += secret_annexation_lines(annexed, power, new=True)
        return lines

    def position_lines(self, position: Position, viewer: Viewer) -> list[str]:
        """Every state's status, and for a power its own INFs and secret VPs."""
        ledger = Ledger.of(position)
        power = viewer.power
        if power is None or power not in self.powers:
            return status_lines(self, ledger, every=True)
        own = own_lines(self, ledger, power, self.income_year(position))
        return [*status_lines(self, ledger, every=True), *own]

    def income_year(self, position: Position) -> int | None:
        """The year the ledger's income is for: the build phase counts the next year's
        as it begins (`winter`); once the game has ended, none."""
        year = position.phase.year
        if position.phase.kind is not PhaseKind.ADJUSTMENT:
            return year
        return None if self.game_end(position) else year + 1


def _required_year(game: Mapping[str, object], key: str, problems: list[str]) -> int:
    """A year the rules fix, which the data must give as ``[game] key``."""
    year = game.get(key)
    if isinstance(year, bool) or not isinstance(year, int):
        problems.append(f"[game] {key}: a year is required, not {year!r}")
        return 0
    return year


VARIANT = Europe1615
