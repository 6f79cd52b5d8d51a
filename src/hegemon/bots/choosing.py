"""Legal order sets made from a power's menu alone: the random player, and the sampler
a bot draws the other powers' likely replies and its own candidates from.

A menu is a tuple of order forms (`hegemon.game.forms`). A unit's form gives one of its
listed orders (`Pick` says which); a form with fields is filled in (points within what the
purse has left, one of the named values); a ranking form takes its choices in some order.
The other forms list orders a power gives several of, or none: builds, declarations,
raises, waivers, and the disbands of the units a power must disband. What the forms
cannot say alone (how many builds are due, two builds on one site, points overspent
between forms) the phase's own check says: an order it refuses is left out, so that every
set made here is one the judge accepts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hegemon.bots.sight import Sight
from hegemon.game.forms import Amount, FormError, Menu, OrderForm, purses
from hegemon.orders import Disband, Order

Pick = Callable[[OrderForm], int | None]  # which of a form's choices to give, if any


def random_orders(sight: Sight, rng: random.Random, menu: Menu | None = None) -> list[Order]:
    """A random legal set of orders for the sight's power from its menu, or from `menu`,
    forms of that menu (a bot's own shortlist). For another power's orders, as this one
    can work them out, pass `reply_sight(sight, other)`."""
    forms = sight.menu if menu is None else menu
    return complete(sight, forms, lambda form: rng.randrange(len(form.choices)), rng)


def reply_sight(sight: Sight, other: str) -> Sight:
    """Another power's sight as this one can work it out: the position this power sees,
    and the menu the other has on it (`Sight.menu_of`). What the other knows and this one
    does not stays out: a bot samples the others' replies from these."""
    return Sight(sight.variant, other, sight.position, sight.menu_of(other))


def complete(sight: Sight, menu: Menu, pick: Pick, rng: random.Random) -> list[Order]:
    """The sight's power's orders from forms of its menu: an order from each unit's form
    by `pick`, then the other forms filled at random, each order kept only if the phase's
    check accepts it beside those kept before."""
    judge = _Judge(sight)
    units = [f for f in menu if _unit_form(f)]
    orders: list[Order] = []
    disbands: list[Order] = []
    for form in units:
        if _only_disbands(form):
            disbands.append(form.choices[0].order)
        elif (choice := pick(form)) is not None:
            orders.append(form.choices[choice].order)
    if disbands:
        _give_listed(judge, disbands, orders, rng)
    for form in menu:
        if _unit_form(form):
            continue
        if form.ranking:
            _give_ranking(judge, form, orders, rng)
        elif form.fields:
            _give_filled(judge, form, orders, rng)
        else:
            _give_listed(judge, [c.order for c in form.choices], orders, rng)
    return orders


def _unit_form(form: OrderForm) -> bool:
    """A unit's own form: it gives one of its listed orders, and nothing else."""
    return form.unit is not None and not form.fields and bool(form.choices)


def _only_disbands(form: OrderForm) -> bool:
    """A unit's form that lists its disbanding alone: a unit the power may have to
    disband in an adjustment, as many as are due."""
    return all(isinstance(c.order, Disband) for c in form.choices)


class _Judge:
    """The phase's own check and what it still awaits of one power, on the sight's
    position."""

    def __init__(self, sight: Sight) -> None:
        self.variant = sight.variant
        self.position = sight.position
        self.power = sight.power
        self.procedure = sight.variant.calendar.procedure(sight.position.phase)

    def accepts(self, orders: Sequence[Order]) -> bool:
        return not self.procedure.check(self.variant, self.position, self.power, orders)

    def awaits(self, orders: Sequence[Order]) -> list[str]:
        return self.procedure.unordered(self.variant, self.position, self.power, orders)


def _give_listed(
    judge: _Judge, listed: Sequence[Order], orders: list[Order], rng: random.Random
) -> None:
    """Orders of the list in random order, each kept if the check accepts it. While they
    pay off what the phase awaits of the power (builds or disbands due, an army to
    place), all that it accepts; beyond that (a waiver, a raise, a build more than due),
    each next one with even odds, stopping at the first refused."""
    awaited = judge.awaits(orders)
    due = bool(awaited)
    for i in rng.sample(range(len(listed)), len(listed)):
        if not due and rng.random() < 0.5:
            return
        if not judge.accepts([*orders, listed[i]]):
            if due:
                continue  # another may still be accepted: a build on another site
            return
        orders.append(listed[i])
        if due:
            now = judge.awaits(orders)
            due = bool(now) and now != awaited
            awaited = now


def _give_ranking(judge: _Judge, form: OrderForm, orders: list[Order], rng: random.Random) -> None:
    """The form's choices, as many as it takes, in a random order of preference."""
    count = len(form.choices) if form.most is None else min(form.most, len(form.choices))
    order = form.fill(rng.sample(range(len(form.choices)), count), {})
    if judge.accepts([*orders, order]):
        orders.append(order)


def _give_filled(judge: _Judge, form: OrderForm, orders: list[Order], rng: random.Random) -> None:
    """Half the time nothing, as no player must fill in a form with fields (a bid, a
    deployment); else the form filled in at random, if the check accepts it."""
    if rng.random() < 0.5:
        return
    order = _filled(form, rng, orders)
    if order is not None and judge.accepts([*orders, order]):
        orders.append(order)


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
