"""Legal order sets made from a power's menu alone: the random player, and the sampler
a bot draws the other powers' likely replies and its own candidates from.

A menu is a tuple of order forms (`hegemon.game.forms`). A unit's form gives one of its
listed orders; a form with fields is filled in (points within what the purse has left, one
of the named values); a ranking form takes its choices in some order; the other listed
forms (builds, declarations, raises) may give several orders or none. What the forms
cannot say alone (how many builds are due, two builds on one site, points overspent
between forms) the phase's own check says: an order it refuses is left out, so that every
set made here is one the judge accepts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hegemon.adjudication.adjustment import adjustment_balances
from hegemon.bots.sight import Sight
from hegemon.game.forms import Amount, FormError, Menu, OrderForm, purses
from hegemon.orders import Disband, Order
from hegemon.position import PhaseKind

Pick = Callable[[OrderForm], int | None]  # which of a form's choices to give, if any


def random_orders(sight: Sight, rng: random.Random, menu: Menu | None = None) -> list[Order]:
    """A random legal set of orders for the sight's power from its menu (or `menu`, when
    it is another power's, worked out from the same sight)."""
    forms = sight.menu if menu is None else menu
    return complete(sight, forms, lambda form: rng.randrange(len(form.choices)), rng)


def complete(sight: Sight, menu: Menu, pick: Pick, rng: random.Random) -> list[Order]:
    """An order from each unit's form by `pick`, then the menu's other forms filled at
    random, each kept only if the phase's check accepts it beside those kept before."""
    units = [f for f in menu if f.unit is not None and not f.fields and f.choices]
    disbanding = units and all(_only_disbands(f) for f in units)
    orders: list[Order] = []
    if disbanding:
        orders += _disbands(sight, units, rng)
    else:
        for form in units:
            choice = pick(form)
            if choice is not None:
                orders.append(form.choices[choice].order)
    others = [f for f in menu if f not in units]
    for form in others:
        for order in _fillings(form, rng, orders):
            if _accepted(sight, [*orders, order]):
                orders.append(order)
    return orders


def _only_disbands(form: OrderForm) -> bool:
    return all(isinstance(c.order, Disband) for c in form.choices)


def _disbands(sight: Sight, forms: Sequence[OrderForm], rng: random.Random) -> list[Order]:
    """As many of the units' disbands as the adjustment is due."""
    position = sight.position
    due = 0
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        rules = sight.variant.rules_for(position)
        due = -adjustment_balances(position, rules).get(sight.power, 0)
    chosen = rng.sample(list(forms), max(0, min(due, len(forms))))
    return [form.choices[0].order for form in chosen]


def _fillings(form: OrderForm, rng: random.Random, given: Sequence[Order]) -> list[Order]:
    """Orders the form might give, most likely first; none, half the time, for a form
    with fields (a bid, a deployment), which no player must fill in."""
    if form.ranking:
        order = list(range(len(form.choices)))
        rng.shuffle(order)
        return [form.fill(order, {})]
    if form.fields:
        if rng.random() < 0.5:
            return []
        return [o for o in [_filled(form, rng, given)] if o is not None]
    picks = list(range(len(form.choices)))
    rng.shuffle(picks)
    return [form.choices[i].order for i in picks]


def _filled(form: OrderForm, rng: random.Random, given: Sequence[Order]) -> Order | None:
    """The form filled in at random: one of its choices, each field a value in range, an
    amount no more than the purse has left."""
    picks = [rng.randrange(len(form.choices))] if form.choices else []
    values: dict[str, int | str] = {}
    for field in form.fields:
        if isinstance(field, Amount):
            most = field.most
            for purse in purses((form,)):
                most = min(most, purse.left(given))
            if most < field.least:
                return None
            values[field.name] = rng.randint(field.least, most)
        else:
            values[field.name] = rng.choice(field.values)
    try:
        return form.fill(picks, values)
    except FormError:
        return None


def _accepted(sight: Sight, orders: Sequence[Order]) -> bool:
    procedure = sight.variant.calendar.procedure(sight.position.phase)
    return not procedure.check(sight.variant, sight.position, sight.power, orders)
