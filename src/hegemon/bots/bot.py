"""The bot: Hegemon's own player for every variant (docs/bots.md).

A decision goes in three steps. The heuristics (`hegemon.bots.heuristics`) plan an order
for every unit: the units with most to gain choose first, and idle units support
contested moves. The forms beside the units' (builds, points to spend, declarations) are
filled in where playouts show a gain (`hegemon.bots.spending`). Then, in a phase where
units move, a local search (`hegemon.bots.search`) changes one unit's order at a time and
keeps the change where the judge, played against the same sampled replies of the other
powers, scores the result better. Whatever the search gives is checked by the phase's
own check before it is returned; the menu's random completion stands in for anything
refused, so the bot's orders are always legal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from hegemon.adjudication.adjustment import adjustment_balances
from hegemon.bots.choosing import complete
from hegemon.bots.heuristics import Outlook, Plan, disbands, plan, unit_forms
from hegemon.bots.player import PlayerKind
from hegemon.bots.search import Budget, Playouts, improve
from hegemon.bots.sight import Sight
from hegemon.bots.spending import spend
from hegemon.game.forms import OrderForm
from hegemon.orders import Disband, Move, Order

__all__ = ["Bot", "Budget"]

DEFAULT_BUDGET = Budget()  # 10 ms of CPU a decision


class Bot:
    """The searching bot. `budget` bounds each decision; `seed` makes its choices
    reproducible (with a playout budget, the same on any machine)."""

    kind = PlayerKind.BOT

    def __init__(self, budget: Budget = DEFAULT_BUDGET, seed: int | None = None) -> None:
        self.budget = budget
        self.rng = random.Random(seed)
        self.played = 0  # playouts of the last decision, for benchmarks and tests to read

    def orders(self, sight: Sight) -> list[Order]:
        """Legal orders for the sight's power this phase, from its menu."""
        started = time.thread_time()
        if not sight.menu:
            return []
        outlook = Outlook.of(sight.variant, sight.position, sight.power)
        units = unit_forms(sight.menu)
        moving = any(isinstance(c.order, Move) for f in units for c in f.choices)
        playouts = Playouts(outlook, self.budget, self.rng, moving, started)
        if units and all(_only_disbands(f) for f in units):
            unit_orders = disbands(outlook, units, _disbands_due(sight))
            picked: Plan = []
        else:
            picked = plan(outlook, units)
            unit_orders = _chosen(units, picked)
        others = [f for f in sight.menu if not any(f is u for u in units)]
        extra = spend(playouts, others, unit_orders, lambda o: _accepted(sight, o))
        if moving:
            picked = improve(playouts, units, picked, extra)
            unit_orders = _chosen(units, picked)
        self.played = playouts.played
        return _legal(sight, unit_orders, extra, units, picked, self.rng)


def _chosen(forms: Sequence[OrderForm], picked: Plan) -> list[Order]:
    return [form.choices[i].order for form, i in zip(forms, picked, strict=True)]


def _only_disbands(form: OrderForm) -> bool:
    return all(isinstance(c.order, Disband) for c in form.choices)


def _disbands_due(sight: Sight) -> int:
    rules = sight.variant.rules_for(sight.position)
    return -adjustment_balances(sight.position, rules).get(sight.power, 0)


def _accepted(sight: Sight, orders: Sequence[Order]) -> bool:
    procedure = sight.variant.calendar.procedure(sight.position.phase)
    return not procedure.check(sight.variant, sight.position, sight.power, orders)


def _legal(
    sight: Sight,
    units: list[Order],
    extra: list[Order],
    forms: Sequence[OrderForm],
    picked: Plan,
    rng: random.Random,
) -> list[Order]:
    """The orders if the phase's check takes them all; else the units' orders with the
    extras the check takes one by one; else the menu completed from the units' picks
    (`choosing.complete`, whose every set the check takes)."""
    if _accepted(sight, [*units, *extra]):
        return [*units, *extra]
    kept = list(units)
    if _accepted(sight, kept):
        for order in extra:
            if _accepted(sight, [*kept, order]):
                kept.append(order)
        return kept
    return complete(sight, sight.menu, lambda form: _pick(forms, picked, form), rng)


def _pick(forms: Sequence[OrderForm], picked: Plan, form: OrderForm) -> int | None:
    """The planned choice of a unit form, if it has one."""
    return next((i for f, i in zip(forms, picked, strict=False) if f is form), None)
