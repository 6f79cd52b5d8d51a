"""The Spring IP phase (rules a.5 to a.12): "carried out in Spring Adjustments after the
Spring turn moves and retreats", a phase of its own on the calendar.

As it begins every holding is halved (a.8). Every superpower then spends the IPs of its
revenue at once, in secret, knowing the Spring's results but not the others' spending
(a.9); what is left is lost. The largest holding in a state controls it until the next IP
phase (a.11; a tie, nobody), and a controller ousted by a power that held nothing there
may declare civil war with its next orders (a.12). The random event of the Spring changes
what spending counts for (c.4), and so does a secession or a liberation (`Ledger.doubled`,
`Ledger.doubled_for`). The intervention units of the Spring cost their upkeep (b.3), and
a power's IPs in the states its guerillas operated in are lost, spent or held (b.10).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.game import Procedure, Resolution, Turn, Variant
from hegemon.game.forms import Menu
from hegemon.orders import Order
from hegemon.position import PhaseKind, Position, Viewer
from hegemon.reasons import VariantReason, Void, Why
from hegemon.variants.africa_ii import own
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.events import Event
from hegemon.variants.africa_ii.forms import spending_forms
from hegemon.variants.africa_ii.holdings import leader, opening
from hegemon.variants.africa_ii.ledger import Holdings, Ledger
from hegemon.variants.africa_ii.orders import Independence, Spend

INFLUENCE = PhaseKind("I", "Influence")
_STATES_AT_MOST = 4  # a random player spends in one to this many states
_KEEPS_SOME = 0.1  # how often it leaves some of its IPs unspent


@dataclass(frozen=True)
class InfluencePhase(Procedure):
    kind = INFLUENCE
    orders = (Spend, Independence)
    book: Book

    def takes(self, variant: Variant, position: Position) -> tuple[type[Order], ...]:
        return own.takes((Spend,), self.book, variant, position)

    def enter(self, variant: Variant, position: Position) -> Position:
        """Every holding halved before anyone spends, the upkeep of the Spring's
        intervention units paid, the IPs where guerillas operated lost (`opening`)."""
        return opening(self.book, position)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        revenue = Ledger.of(position).revenue
        return tuple(p for p in variant.powers if revenue.get(p, 0) > 0)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        return own.checked(
            self._spend_problems, own.DECLARATIONS, self.book, variant, position, power, orders
        )

    def _spend_problems(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        spends = [o for o in orders if isinstance(o, Spend)]
        return [f"{o.format()}: {why}" for o, why in self._refused(position, power, spends)]

    def _refused(
        self, position: Position, power: str, spends: Sequence[Spend]
    ) -> list[tuple[Spend, str]]:
        """Each spending that may not be made, with why: in a state that is none now, or
        all of them, if together they spend more than the power has (a.9)."""
        territory = self.book.territory(Ledger.of(position))
        refused = [
            (o, f"{o.state} is part of {territory.sovereign(o.state)} (spend IPs on a state)")
            for o in spends
            if not territory.is_active(o.state)
        ]
        available = Ledger.of(position).revenue.get(power, 0)
        total = sum(o.points for o in spends)
        if total > available:
            why = f"{power} spends {total} IPs in all, more than the {available} it has"
            refused = [(o, why) for o in spends]
        return refused

    # --- the resolution ----------------------------------------------------------------
    def resolve(self, turn: Turn) -> Resolution:
        position = turn.position
        ledger = Ledger.of(position)
        outcomes: list[Outcome] = []
        spent: dict[str, dict[str, int]] = {}
        for power, given in turn.orders.items():
            spends = [o for o in given if isinstance(o, Spend)]
            refused = dict(self._refused(position, power, spends))
            credit = self._credit(ledger, power, {o.state for o in spends if o not in refused})
            for order in spends:
                if order in refused:
                    outcomes.append(Outcome(power, order, Verdict.VOID, Void(refused[order])))
                    continue
                counted = credit(order)
                mine = spent.setdefault(power, {})
                mine[order.state] = mine.get(order.state, 0) + counted
                outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, credit.reason(order)))
        holdings, lost = self._spend(ledger, spent)
        after = _review(self.book, ledger, holdings, lost, position.phase.year)
        return Resolution(position.evolve(state=after), lambda: tuple(outcomes))

    def _event(self, ledger: Ledger) -> Event | None:
        return self.book.events.get(ledger.event)

    def _credit(self, ledger: Ledger, power: str, states: set[str]) -> _Credit:
        event = self._event(ledger)
        riots = event.riots if event is not None and event.riots in states else ""
        spared = event.spared if event is not None else ()
        doubled = (*ledger.doubled, *ledger.doubled_for.get(power, ()))
        return _Credit(doubled, riots, spared, ledger.operating.get(power, ()))

    def _spend(
        self, ledger: Ledger, spent: Mapping[str, Mapping[str, int]]
    ) -> tuple[dict[str, dict[str, int]], list[str]]:
        """The holdings once everyone's spending is in, and who lost its IPs in a state
        whose coup it did not pay for (c.4, event 7)."""
        holdings = {s: dict(held) for s, held in ledger.holdings.items()}
        lost = []
        event = self._event(ledger)
        if event is not None and event.coup:
            for power in sorted(holdings.get(event.coup, {})):
                if not spent.get(power, {}).get(event.coup):
                    lost.append(f"{power} {holdings[event.coup].pop(power)}")
        for power, placed in spent.items():
            for state, amount in placed.items():
                if amount:
                    there = holdings.setdefault(state, {})
                    there[power] = there.get(power, 0) + amount
        lines = [f"IPs lost in {event.coup}'s coup: {', '.join(lost)}"] if event and lost else []
        return {s: held for s, held in holdings.items() if held}, lines

    # --- what players are offered -------------------------------------------------------
    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """Each superpower spends its IPs in a few states, those with centers likelier."""
        territory = self.book.territory(Ledger.of(position))
        states = list(territory.active)
        weights = [1 + 3 * len(territory.homes[s]) for s in states]
        revenue = Ledger.of(position).revenue
        orders: dict[str, list[Order]] = {}
        for power in self.actors(variant, position):
            left = revenue[power]
            if rng.random() < _KEEPS_SOME:
                left = rng.randint(0, left)
            chosen = {rng.choices(states, weights)[0] for _ in range(_STATES_AT_MOST)}
            spends: list[Order] = []
            for state in sorted(chosen):
                if left > 0:
                    amount = rng.randint(1, left)
                    spends.append(Spend(amount, state))
                    left -= amount
            orders[power] = spends
        return orders

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        return (
            *spending_forms(self.book, position, power),
            *own.forms_in(self.book, variant, position, power),
        )

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        available = Ledger.of(position).revenue.get(power, 0)
        spent = sum(o.points for o in orders if isinstance(o, Spend))
        return [f"{available - spent} IPs to spend"] if spent < available else []

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        revenue = Ledger.of(position).revenue
        to_spend = ", ".join(f"{p} {revenue[p]}" for p in variant.powers if revenue.get(p))
        return [f"IPs are spent now (rules a.7): {to_spend}"] if to_spend else []


@dataclass(frozen=True)
class _Credit:
    """What a power's spending counts for this Spring: double in a state `doubled` (c.2,
    c.4's secessions); in the riots (c.4, event 3), double in their state and half
    elsewhere, rounded up, but in the states spared, for a power that spends in the riots'
    state; nothing in a state its guerillas operate in, lost as spent (b.10)."""

    doubled: tuple[str, ...]
    riots: str
    spared: tuple[str, ...]
    operating: tuple[str, ...]

    def reason(self, order: Spend) -> Why:
        """What the spending counted for: the variant's reasons ``spent`` (with the IPs it
        counts for, when that is not what was spent) and ``spent_and_lost``."""
        if order.state in self.operating:
            return VariantReason(
                "spent_and_lost",
                "Spent, and lost: guerillas of the spender operate in {state} (rules b.10)",
                state=order.state,
            )
        counted = self(order)
        if counted == order.points:
            return VariantReason("spent", "Spent", counts=counted)
        return VariantReason("spent", "Spent: counts {counts}", counts=counted)

    def __call__(self, order: Spend) -> int:
        if order.state in self.operating:
            return 0
        points = order.points * (2 if order.state in self.doubled else 1)
        if not self.riots:
            return points
        if order.state == self.riots:
            return 2 * points
        return points if order.state in self.spared else math.ceil(points / 2)


def _review(
    book: Book, ledger: Ledger, holdings: Holdings, lost: Sequence[str], year: int
) -> Ledger:
    """Control after the spending (a.11), the civil wars that may be declared (a.12) and
    those that end; the IPs not spent are lost (a.9); the year's Spring adjustments over
    (a.4)."""
    territory = book.territory(ledger)
    event = book.events.get(ledger.event)
    union = [s for s in event.union if territory.is_active(s)] if event else []
    together: dict[str, int] = {}
    for state in union:
        for power, amount in holdings.get(state, {}).items():
            together[power] = together.get(power, 0) + amount
    control: dict[str, str] = {}
    rights: dict[str, str] = {}
    lines = list(lost)
    for state in territory.active:
        held = holdings.get(state, {})
        now = leader(together if state in union else held)
        was = ledger.control.get(state)
        if now is not None:
            control[state] = now
        if now != was:
            lines.append(f"{state}: controlled by {now or 'nobody'} (was {was or 'nobody'})")
        newcomer = now not in ledger.held_before.get(state, ())
        if was and now and now != was and newcomer and held.get(was):
            rights[state] = was  # a.12: the newcomer held nothing before the halving
            lines.append(f"   {was} may declare civil war in {state} with its next orders")
    return ledger.replace(
        holdings=holdings,
        control=control,
        rights=rights,
        civil_wars={},
        revenue={},
        doubled=(),
        doubled_for={},
        deployed={},
        operating={},
        held_before={},
        reviewed=year,
        news=tuple(lines),
    )
