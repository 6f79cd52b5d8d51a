"""Order forms: what a player may order this phase, as typed values a page, a bot or the
API renders without knowing any variant's orders or their notation.

A power's menu is a tuple of `OrderForm`s. Each holds what it is for (a unit, a site, a
state), the legal orders where they can be listed (each with its kind and the provinces
a player clicks to give it), the fields a player fills in (an amount of points, a power),
whether it takes several of its listed orders in a row, best first, and the points it
spends. The form makes the order from what was filled in (`OrderForm.fill`), so that no
client ever writes an order's text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hegemon.board import province_of
from hegemon.orders import Build, Convoy, Move, Order, Retreat, Support


class FormError(ValueError):
    """A form filled in wrongly: a choice it does not list, a value out of its range."""


# `Choice` and `OrderForm` write their own `__init__` (init=False), as the standard orders
# do (hegemon.orders): compiled, ten times quicker than a frozen dataclass's, for a menu of
# a thousand choices made for every power, every phase.
@dataclass(frozen=True, init=False)
class Choice:
    """One legal order a form lists: its kind (``move``, ``build``, ``place``) and the
    provinces a player clicks, once the form is open, to give it; `note`, what a list of
    them says beside the order (the full name of the province it names).

    Its kind and clicks are those of the order, or of the standard order it wraps
    (`like`), or for another kind of order a click on each province of `at`; they are
    worked out when read, since a bot reads a menu's orders and never its clicks."""

    order: Order
    like: Order | None = None
    at: tuple[str, ...] = ()
    note: str = ""

    def __init__(
        self, order: Order, like: Order | None = None, at: tuple[str, ...] = (), note: str = ""
    ) -> None:
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "like", like)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "note", note)

    @property
    def text(self) -> str:
        return self.order.format()

    @property
    def kind(self) -> str:
        return type(self._model).__name__.lower()

    @property
    def clicks(self) -> tuple[str, ...]:
        return self.at or clicks(self._model)

    @property
    def _model(self) -> Order:
        return self.like if self.like is not None else self.order


def listed(
    order: Order, like: Order | None = None, at: tuple[str, ...] = (), note: str = ""
) -> Choice:
    """An order as a form lists it: given by the clicks of a standard order, or by those
    of the one it wraps (`like`), which also gives it its kind; or, for another kind of
    order, by a click on each province of `at`."""
    return Choice(order, like, at, note)


def clicks(order: Order) -> tuple[str, ...]:
    """The provinces a player clicks, once the unit is chosen, to give a standard order:
    where a unit moves or retreats; the unit supported and where it goes (itself again to
    support it in place); the army convoyed and its landing; a build's site."""
    if isinstance(order, Move | Retreat):
        return (province_of(order.target),)
    if isinstance(order, Support):
        supported = province_of(order.supported)
        return (supported, province_of(order.target) if order.target else supported)
    if isinstance(order, Convoy):
        return (province_of(order.army), province_of(order.target))
    if isinstance(order, Build):
        return (order.province,)
    return ()


# The fields and stakes write their own `__init__` too: an influence variant makes one of
# each for every state, for every power, every phase.
@dataclass(frozen=True, init=False)
class Amount:
    """A whole number a player enters: points to spend, centers' worth of aid."""

    name: str
    label: str
    least: int
    most: int

    def __init__(self, name: str, label: str, least: int, most: int) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "least", least)
        object.__setattr__(self, "most", most)


@dataclass(frozen=True, init=False)
class OneOf:
    """One of a few named values a player selects: the power a declaration names."""

    name: str
    label: str
    values: tuple[str, ...]

    def __init__(self, name: str, label: str, values: tuple[str, ...]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "values", values)


Field = Amount | OneOf


@dataclass(frozen=True)
class Purse:
    """Points a power spends with orders of its own this phase: their name (singular),
    how many it has, and what each order given costs (nothing for other orders)."""

    name: str
    total: int
    cost: Callable[[Order], int]

    def left(self, given: Sequence[Order]) -> int:
        """What is left once the orders given are paid for."""
        return self.total - sum(self.cost(o) for o in given)


@dataclass(frozen=True)
class Filled:
    """What a player filled a form in with: the listed orders picked (in the order
    picked) and each field's value."""

    picked: tuple[Order, ...]
    values: Mapping[str, int | str]

    def single(self) -> Order:
        """The one listed order picked, for a form that adds fields to it (a bid)."""
        if len(self.picked) != 1:
            raise FormError("pick one of the orders listed")
        return self.picked[0]

    def amount(self, name: str) -> int:
        value = self.values[name]
        assert isinstance(value, int), "checked by the form"
        return value

    def one_of(self, name: str) -> str:
        return str(self.values[name])


Maker = Callable[[Filled], Order]


@dataclass(frozen=True, init=False)
class Stake:
    """What a form's points may win its power, as far as the power can tell from what it
    sees: `prize`, the variant's points its target gives at a scoring while it is won (a
    state aligned); `price`, the fewest points more that win it now (0: won already)."""

    prize: int
    price: int

    def __init__(self, prize: int, price: int) -> None:
        object.__setattr__(self, "prize", prize)
        object.__setattr__(self, "price", price)


@dataclass(frozen=True, init=False)
class OrderForm:
    """One order a power may give this phase, as a player fills it in.

    `id` names the form within the power's menu. `unit` is where the unit it orders
    stands, if it orders one; `sites` are the provinces whose click opens it (a state's,
    for points put into the state). `choices` are the legal orders it lists; a form with
    `ranking` takes several of them in a row, best first, into one order, `most` of them
    at most (no more can ever count, and a list must be short enough to send). `fields` are
    filled in, and `make` makes the order from them (and the choice picked, if any);
    without `make`, the form gives the one choice picked. `action` names the button that
    opens or sends a form offered beside the orders of the power's own units and sites (a
    bid, a deployment); `spends` is the purse its points come out of, and `stake` what
    they may win, where the variant can tell.
    """

    id: str
    title: str
    choices: tuple[Choice, ...] = ()
    unit: str | None = None
    sites: tuple[str, ...] = ()
    fields: tuple[Field, ...] = ()
    ranking: bool = False
    most: int | None = None
    action: str | None = None
    spends: Purse | None = None
    make: Maker | None = None
    stake: Stake | None = None

    def __init__(
        self,
        id: str,
        title: str,
        choices: tuple[Choice, ...] = (),
        unit: str | None = None,
        sites: tuple[str, ...] = (),
        fields: tuple[Field, ...] = (),
        ranking: bool = False,
        most: int | None = None,
        action: str | None = None,
        spends: Purse | None = None,
        make: Maker | None = None,
        stake: Stake | None = None,
    ) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "sites", sites)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "ranking", ranking)
        object.__setattr__(self, "most", most)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "spends", spends)
        object.__setattr__(self, "make", make)
        object.__setattr__(self, "stake", stake)

    def fill(self, picks: Sequence[int], values: Mapping[str, int | str]) -> Order:
        """The order the form gives, filled in with the choices picked (by their place in
        `choices`) and the fields' values; a FormError says what does not fit."""
        picked = tuple(self._picked(picks))
        filled = Filled(picked, {f.name: _value(f, values.get(f.name)) for f in self.fields})
        if unknown := sorted(set(values) - {f.name for f in self.fields}):
            raise FormError(f"{self.title} has no field {', '.join(unknown)}")
        if self.make is not None:
            return self.make(filled)
        if len(picked) != 1:
            raise FormError(f"{self.title}: pick one of its orders")
        return picked[0]

    def _picked(self, picks: Sequence[int]) -> list[Order]:
        if any(not 0 <= i < len(self.choices) for i in picks):
            raise FormError(f"{self.title} lists {len(self.choices)} orders")
        if len(set(picks)) < len(picks):
            raise FormError(f"{self.title}: each order is picked once")
        if len(picks) > 1 and not self.ranking:
            raise FormError(f"{self.title}: pick one of its orders")
        if self.ranking and self.choices and not picks:
            raise FormError(f"{self.title}: pick at least one")
        if self.most is not None and len(picks) > self.most:
            raise FormError(f"{self.title}: pick {self.most} at most")
        return [self.choices[i].order for i in picks]

    def gave(self, order: Order) -> bool:
        """Whether `order` is one given for what the form lists: for the same slot (its
        unit) as one of its choices."""
        slot = order.slot()
        return slot is not None and any(c.order.slot() == slot for c in self.choices)

    def describe(self) -> str:
        """The form in a line, for a form with fields: ``Bid on A Bra: one of its 4
        orders; Diplomacy Points to bid, 1 to 3``."""
        parts = [f"one of its {len(self.choices)} orders"] if self.choices else []
        if self.ranking:
            parts = [f"a list of its {len(self.choices)} choices, best first"]
        for field in self.fields:
            if isinstance(field, Amount):
                parts.append(f"{field.label}, {field.least} to {field.most}")
            else:
                parts.append(f"{field.label}: {', '.join(field.values)}")
        return f"{self.action or self.title}: {'; '.join(parts)}"


def _value(field: Field, given: int | str | None) -> int | str:
    """The field's value as given, or a FormError saying why it cannot be one."""
    if isinstance(field, Amount):
        if isinstance(given, bool) or not isinstance(given, int):
            raise FormError(f"{field.label}: a whole number, not {given!r}")
        if not field.least <= given <= field.most:
            raise FormError(f"{field.label}: from {field.least} to {field.most}, not {given}")
        return given
    if given not in field.values:
        raise FormError(f"{field.label}: one of {', '.join(field.values)}, not {given!r}")
    return given


Menu = tuple[OrderForm, ...]  # a power's order forms this phase


def unit_form(head: str, province: str, orders: Sequence[Order]) -> OrderForm:
    """The form of one unit the power commands: its legal orders, listed."""
    return unit_listing(f"unit {province}", head, province, [Choice(o) for o in orders])


def unit_listing(form_id: str, head: str, province: str, choices: Sequence[Choice]) -> OrderForm:
    """The form of one unit, of its choices as made (once per map, `hegemon.game.reach`)."""
    return OrderForm(form_id, head, tuple(choices), unit=province)


def purses(menu: Menu) -> tuple[Purse, ...]:
    """Each purse the menu's forms spend from, once."""
    return tuple({f.spends.name: f.spends for f in menu if f.spends is not None}.values())


def chosen(menu: Menu, form_id: str) -> OrderForm:
    """The form of that id, or a FormError."""
    for form in menu:
        if form.id == form_id:
            return form
    raise FormError(f"no order form {form_id!r} this phase")
