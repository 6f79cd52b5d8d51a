"""The standard phases as Africa II plays them: the superpowers give the orders, the
African states own the units (rules a.3). A superpower's orders for the units of a state it
controls are adjudicated under the state's name, as the state's own: the standard rules
hold between the states, which are the owners on the board (two states one power controls
may fight each other), and the superpowers stand outside them.

The Autumn adjustments also close the year (`autumn`): the conquered states, the secessions
captured, and the revenue of the coming Spring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hegemon.adjudication.outcome import Verdict
from hegemon.board import province_of
from hegemon.game import Procedure, Resolution, Turn, Variant
from hegemon.game.forms import Menu, OrderForm
from hegemon.game.menus import adjustment_menu
from hegemon.game.phases import Adjustments, Movement, Retreats
from hegemon.orders import Order, UnitOrder, Waive, place
from hegemon.position import Position, Unit, Viewer
from hegemon.variants.africa_ii import autumn, declarations, guerillas, interventions, landings
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.given import Given, owner_of
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.orders import Aid, Independence
from hegemon.variants.africa_ii.own import DECLARATIONS, MUSTERING, checked, forms_in, takes


def _unordered_disbanded(
    book: Book, position: Position, destroyed: tuple[Unit, ...]
) -> tuple[Position, tuple[Unit, ...]]:
    """The units disbanded as they were dislodged though a retreat may have been open, told
    in the ledger's news with why: nobody orders their retreat (a.11, a.12), or their
    disband was ordered (b.11). The others are left to the core's report, which lists
    them as having no retreat possible."""
    ledger = Ledger.of(position)
    told = []
    kept = []
    for unit in destroyed:
        why = _why_no_retreat(book, ledger, unit)
        if why is None:
            kept.append(unit)
        else:
            told.append(f"{unit.power}: {unit.type.letter} {place(unit.location)} disbanded: {why}")
    if not told:
        return position, destroyed
    news = (*ledger.news, "Disbanded as dislodged, no retreat ordered:", *told)
    return position.evolve(state=ledger.replace(news=news)), tuple(kept)


def _why_no_retreat(book: Book, ledger: Ledger, unit: Unit) -> str | None:
    if ledger.disbanding.get(unit.location) == unit.power:
        return "its disband was ordered this turn (rules b.11)"
    if unit.power in ledger.civil_wars:
        return f"{unit.power} is in civil war, its units take no orders (rules a.12)"
    if book.commander(ledger, unit.power) is None:
        return f"nobody controls {unit.power}, its units stand unordered (rules a.11)"
    return None


def _trial(
    procedure: Procedure,
    book: Book,
    variant: Variant,
    position: Position,
    power: str,
    orders: Sequence[Order],
) -> list[str]:
    """The orders adjudicated alone, under the states they are for: the void ones, and
    those for a state's units the power does not command."""
    given = Given(book, position, {power: orders})
    turn = Turn(variant, position, given.owners, variant.rules_at_submission(position, power), {})
    return given.problems() + [
        f"{o.text}: {o.problem}"
        for o in procedure.resolve(turn).explain()
        if o.power in given.owners and o.verdict is Verdict.VOID
    ]


def _aboard(position: Position, form: OrderForm) -> bool:
    """Whether the form may be a unit's aboard another, whose orders alone may land it."""
    carrier = position.unit_in(province_of(form.unit)) if form.unit else None
    return carrier is not None and bool(carrier.cargo)


def _spring(variant: Variant, position: Position) -> bool:
    """Whether the phase is of the year's first season, the one with the IP phase."""
    return position.phase.season is variant.calendar.year[0].season


@dataclass(frozen=True)
class AfricaMovement(Movement):
    book: Book
    orders = (*Movement.orders, *DECLARATIONS, *MUSTERING)

    def takes(self, variant: Variant, position: Position) -> tuple[type[Order], ...]:
        return takes(Movement.orders, self.book, variant, position)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        """The superpowers commanding units, on the board or off it, one that may declare
        civil war (a.12), and one that may raise a guerilla (b.11)."""
        rights = set(Ledger.of(position).rights.values())
        offboard = {u.power for u in position.offboard}
        return tuple(
            p
            for p in variant.powers
            if p in rights
            or p in offboard
            or variant.commanded_units(position, p)
            or guerillas.may_raise(self.book, position, p)
        )

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """The standard menu without the landings into occupied provinces (b.5), then
        the declarations and raises. A state has none: its controller orders its units
        (a.5), and only the superpowers declare or raise."""
        if power not in self.book.powers:
            return ()
        board = variant.board
        return (
            *(
                replace(form, choices=landings.landable(board, position, form.choices))
                if _aboard(position, form)
                else form
                for form in super().menu(variant, position, power)
            ),
            *forms_in(self.book, variant, position, power),
        )

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """The standard random orders but landings into occupied provinces (b.5)."""
        return {
            power: [o for o in given if not landings.landing_problem(variant.board, position, o)]
            for power, given in super().random_orders(variant, position, rng).items()
        }

    def resolve(self, turn: Turn) -> Resolution:
        """The standard moves; then the superpowers' marines, paratroops and fleets
        dislodged with no retreat are lost for good (b.9), and in the Spring what each
        power had on the board is noted (b.3, b.10)."""
        resolution = super().resolve(turn)
        after = interventions.lose(self.book, resolution.after, resolution.destroyed)
        if _spring(turn.variant, after):
            dislodged = [d.unit for d in after.dislodged.values()]
            seen = [*turn.position.units.values(), *after.units.values(), *dislodged]
            after = interventions.witness(self.book, after, seen)
        after, destroyed = _unordered_disbanded(self.book, after, resolution.destroyed)
        return Resolution(after, resolution.explain, destroyed)

    def cautions(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return declarations.cautions(self.book, position, power, orders)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """The declarations and guerillas checked; the standard checks, a state's units
        refused to a power not commanding them with the reason in the rules' terms, and
        marines landing, paratroops dropping and fleets entering only into unoccupied
        provinces (b.4 to b.6), with the rules' reason."""
        own = (*DECLARATIONS, *MUSTERING)
        return checked(self._check_units, own, self.book, variant, position, power, orders)

    def _check_units(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        given = Given(self.book, position, {power: orders})
        refused = {order for _, order, _ in given.refused}
        rest = [o for o in orders if o not in refused]
        board = variant.board
        arriving = {
            o: why for o in rest if (why := landings.arrival_problem(board, position, power, o))
        }
        rest = [o for o in rest if o not in arriving]
        problems = [f"{o.format()}: {why}" for o, why in arriving.items()]
        return given.problems() + problems + super().check(variant, position, power, rest)


@dataclass(frozen=True)
class AfricaRetreats(Retreats):
    book: Book
    orders = (*Retreats.orders, Aid, Independence)

    def takes(self, variant: Variant, position: Position) -> tuple[type[Order], ...]:
        return takes(Retreats.orders, self.book, variant, position)

    def cautions(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return declarations.cautions(self.book, position, power, orders)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return checked(self._trial, DECLARATIONS, self.book, variant, position, power, orders)

    def _trial(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return _trial(self, self.book, variant, position, power, orders)

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (
            *super().menu(variant, position, power),
            *forms_in(self.book, variant, position, power),
        )

    def resolve(self, turn: Turn) -> Resolution:
        """The standard retreats; the superpowers' marines, paratroops and fleets that
        did not retreat, and those aboard them, are lost for good (b.9)."""
        resolution = super().resolve(turn)
        after = resolution.after
        standing = {(u.power, u.type) for u in after.units.values()}
        gone = [
            d.unit
            for d in turn.position.dislodged.values()
            if (d.unit.power, d.unit.type) not in standing
        ]
        after = interventions.lose(self.book, after, gone)
        return Resolution(after, resolution.explain, resolution.destroyed)

    def leave(self, variant: Variant, position: Position) -> Position:
        """After the retreats, played or not, the guerillas raised and disbanded this turn
        (b.11); in the Spring, those standing then are noted (b.10)."""
        position = guerillas.muster(variant.board, super().leave(variant, position))
        if _spring(variant, position):
            position = interventions.witness(self.book, position, position.units.values())
        return position


@dataclass(frozen=True)
class AfricaAdjustments(Adjustments):
    """The Autumn adjustments: the year's end around the standard change of centers, and
    the builds and disbands of each state, ordered by its controller. A build not ordered
    is waived: a `Waive` is refused, as it would not say for which state."""

    book: Book
    orders = (*Adjustments.orders, Independence)

    def takes(self, variant: Variant, position: Position) -> tuple[type[Order], ...]:
        return takes(Adjustments.orders, self.book, variant, position)

    def enter(self, variant: Variant, position: Position) -> Position:
        return autumn.settle(self.book, variant.board, super().enter(variant, position))

    def leave(self, variant: Variant, position: Position) -> Position:
        return autumn.close(self.book, variant.board, position)

    def due(self, variant: Variant, position: Position) -> bool:
        """Whether a state must disband, or a controlled one may build."""
        ledger = Ledger.of(position)
        return any(
            balance < 0 or self.book.commander(ledger, owner) is not None
            for owner, balance in self._due(variant, position).items()
        )

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        ledger = Ledger.of(position)
        commanders = {self.book.commander(ledger, o) for o in self._due(variant, position)}
        return tuple(p for p in variant.powers if p in commanders)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return checked(self._check_units, DECLARATIONS, self.book, variant, position, power, orders)

    def _check_units(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        waived = [
            f"{o.format()}: a build not ordered is waived; a waiver names no state"
            for o in orders
            if isinstance(o, Waive)
        ]
        return waived + _trial(self, self.book, variant, position, power, orders)

    def _owners(self, variant: Variant, position: Position, power: str) -> dict[str, int]:
        """The owners whose adjustments `power` orders, with what is due for each."""
        ledger = Ledger.of(position)
        return {
            owner: balance
            for owner, balance in sorted(self._due(variant, position).items())
            if self.book.commander(ledger, owner) == power
        }

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        """Each state's builds or disbands, with the power ordering them."""
        ledger = Ledger.of(position)
        due = self._due(variant, position)

        def listed(owners: list[str]) -> str:
            return ", ".join(
                f"{o} {abs(due[o])} ({self.book.commander(ledger, o) or 'nobody'})" for o in owners
            )

        builds = [o for o in sorted(due) if due[o] > 0]
        disbands = [o for o in sorted(due) if due[o] < 0]
        return [
            *([f"Builds: {listed(builds)}"] if builds else []),
            *([f"Disbands: {listed(disbands)}"] if disbands else []),
        ]

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (
            *self._unit_menu(variant, position, power),
            *forms_in(self.book, variant, position, power),
        )

    def _unit_menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """Each commanded state's builds (armies only, a.13) or disbands, by state."""
        menu: list[OrderForm] = []
        for owner in self._owners(variant, position, power):
            for form in adjustment_menu(variant, position, owner):
                kept = tuple(c for c in form.choices if not isinstance(c.order, Waive))
                if form.unit is None:  # the builds, of this state's
                    form = replace(form, id=_builds(owner), title=f"Builds of {owner}")
                menu.append(replace(form, choices=kept))
        return tuple(menu)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        given = Given(self.book, position, {power: orders}).owners
        left = []
        for owner, due in self._owners(variant, position, power).items():
            missing = abs(due) - len(given.get(owner, ()))
            if missing > 0:
                what = "build" if due > 0 else "disband"
                left.append(f"{owner}: {missing} {what}{'s' if missing > 1 else ''}")
        return left

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """For each commanded state, builds on random free sites or disbands of random
        units, now and then fewer than due (waived builds, civil disorder)."""
        orders: dict[str, list[Order]] = {}
        for power in self.actors(variant, position):
            menu = {form.id: form for form in self._unit_menu(variant, position, power)}
            for owner, due in self._owners(variant, position, power).items():
                choices: list[Order]
                if due > 0:
                    builds = menu.get(_builds(owner))
                    choices = [c.order for c in builds.choices] if builds else []
                else:
                    offered = [c.order for form in menu.values() for c in form.choices]
                    units = position.all_units
                    choices = [
                        o
                        for o in offered
                        if isinstance(o, UnitOrder) and owner_of(position, units, o) == owner
                    ]
                count = min(abs(due), len(choices))
                if count and rng.random() < _TOO_FEW:
                    count -= 1
                orders.setdefault(power, []).extend(rng.sample(choices, count))
        return orders


def _builds(owner: str) -> str:
    """The id of the form of a state's builds."""
    return f"builds {owner}"


_TOO_FEW = 0.2  # how often a random player orders one build or disband fewer than due
