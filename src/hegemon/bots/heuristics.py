"""The bot's quick judgement of single orders, before any playout: where a unit is worth
moving, which units to disband, where points are worth spending.

Every value here is worked out from the position and a form's listed orders alone, by
the same measures as the evaluation (`hegemon.bots.evaluation`): centers not yet ours to
take, ours to keep, distances on the map. The search (`hegemon.bots.search`) starts from
the orders these prefer, and the other powers' replies are drawn with them too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from hegemon.board import province_of
from hegemon.bots.evaluation import FAR, Distances, Goals, distances
from hegemon.game import Variant
from hegemon.game.forms import Choice, Menu, OrderForm
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitOrder,
    Waive,
)
from hegemon.position import Position

TAKE = 3.0  # a move onto a center not ours
GUARD = 1.5  # a move onto (or a hold on) a center of ours an enemy could take
BOUNCE = 1.8  # taken off a move onto a center an enemy unit holds: it will likely bounce
CROWD = 2.5  # taken off a move onto a province one of our own units holds
STEP = 0.3  # per step between where a unit ends and the nearest center not ours
IDLE = 0.2  # a hold where nothing is gained: moving closer is better
AIDE = 0.8  # a unit worth less than this in its own order supports a contested move
BACKING = -0.5  # a support on its own: worth something only beside the move it backs
OTHER = -1.0  # an order of a kind these heuristics do not weigh (a variant's own)
CARRIED = 2.0  # taken off a move overseas: it needs fleets convoying it (see `convoys`)
CROSSING = 0.5  # what a move overseas must gain on a unit's planned order: a fleet's turn
SUPPORTED = 2.0  # another's unit supporting a move of ours (bought with a bid)
MADE_WAY = 1.5  # another's unit leaving a province a move of ours enters
FEW = 3  # centers to take a fleet can reach for each fleet built (see `Outlook.enough`)
LOST = -10.0  # a disband, where the unit could do anything else
BLOCKING = 2.5  # taken off ending on a home center while the power is owed a build there


@dataclass(frozen=True)
class Outlook:
    """One power's view of a position, as the heuristics weigh orders by: its goals, the
    provinces other powers' units could move into (where ours are contested), the map's
    distances."""

    variant: Variant
    position: Position
    power: str
    goals: Goals
    contested: frozenset[str]
    near: Distances
    hopeful: bool = False  # counts on a unit in its way moving off (an enemy's reply)

    @staticmethod
    def of(variant: Variant, position: Position, power: str, hopeful: bool = False) -> Outlook:
        board = variant.board
        contested = {  # by players' units: others move only as the rules or bids say
            province_of(n)
            for unit in position.units.values()
            if unit.power != power and unit.power in variant.powers
            for n in board.neighbours(unit.type, unit.location)
        }
        goals = Goals.of(variant, position, power)
        near = distances(board)
        return Outlook(variant, position, power, goals, frozenset(contested), near, hopeful)

    def value(self, order: Order) -> float:
        """What a unit's order is worth to the power on its own (a support's worth lies in
        the move it supports: see `plan`). Worked out once per order: the plan, the
        search and the replies ask again and again."""
        found = self._values.get(order)
        if found is None:
            found = self._values[order] = self._value(order)
        return found

    @cached_property
    def _values(self) -> dict[Order, float]:
        return {}

    def _value(self, order: Order) -> float:
        if isinstance(order, Move) and not self.variant.board.adjacent(
            order.unit, order.location, order.target
        ):
            return self._arrival(order, order.target) - CARRIED  # only with a convoy
        if isinstance(order, Move | Retreat):
            return self._arrival(order, order.target)
        if isinstance(order, Hold):
            return self._stay(order)
        if isinstance(order, Disband):
            return LOST
        if isinstance(order, Support):
            return BACKING
        return OTHER

    def _arrival(self, order: UnitOrder, target: str) -> float:
        province = province_of(target)
        goals = self.goals
        value = -STEP * self.near.of(order.unit, target, goals.targets)
        occupant = self.position.unit_in(province)
        if province in goals.centers and province not in goals.ours:
            value += TAKE
            if occupant is not None and occupant.power != self.power and not self.hopeful:
                value -= BOUNCE
        elif province in goals.ours and province in self.contested and occupant is None:
            value += GUARD
        if occupant is not None and occupant.power == self.power:
            value -= CROWD
        return value - (BLOCKING if self.blocks(province) else 0.0)

    def _stay(self, order: UnitOrder) -> float:
        province, goals = order.province, self.goals
        if province in goals.centers and province not in goals.ours:
            return TAKE + 0.2  # already there: it takes the center unless dislodged
        blocking = BLOCKING if self.blocks(province) else 0.0
        if province in goals.ours and province in self.contested:
            return GUARD + (0.5 if province in goals.homes else 0.0) - blocking
        return -IDLE - STEP * self.near.of(order.unit, order.location, goals.targets) - blocking

    def blocks(self, province: str) -> bool:
        """Whether a unit of ours staying in a province would keep out a build the power
        is owed (it has more centers than units, and builds on its home centers): so a
        unit with nothing to do at home makes room, and the power grows."""
        return province in self.goals.homes and self._owed

    @cached_property
    def _owed(self) -> bool:
        units = sum(1 for u in self.position.units.values() if u.power == self.power)
        return len(self.goals.ours) > units

    def helps(self, order: Order, ours: Sequence[Order]) -> float:
        """How much an order for another's unit (a bid's) helps the power's own orders:
        a support of a move of ours, a move out of a province ours move into, a move into
        one of our centers (a harm)."""
        if isinstance(order, Support):
            return SUPPORTED if backs(order, ours) else 0.0
        if isinstance(order, Move):
            entered = {o.destination for o in ours if isinstance(o, Move)}
            if order.province in entered:
                return MADE_WAY
            if order.destination in self.goals.ours:
                return -MADE_WAY
        return 0.0

    def usefulness(self, order: UnitOrder) -> float:
        """How much the unit an order names is worth keeping: near centers to take, or
        guarding one of ours."""
        return max(self._stay(order), -STEP * FAR)

    def enough(self, order: Order) -> bool:
        """Whether an order that puts a unit on the board (a build) adds one of a kind that
        cannot reach every center to take (a fleet: not those inland), of which the power
        has one already for every FEW of those it can reach. So an island power, once the
        coasts are taken, builds the armies that reach the rest."""
        if not isinstance(order, Build):
            return False
        targets = self.goals.targets
        reached = self.near.to(order.unit.by_land, targets)
        reachable = sum(1 for center in targets if center in reached)
        ours = sum(
            1
            for u in self.position.units.values()
            if u.power == self.power and u.type == order.unit
        )
        return reachable < len(targets) and FEW * ours >= reachable

    @cached_property
    def _mine(self) -> frozenset[str]:
        """Where the power's units stand and its centers lie."""
        units = {u.province for u in self.position.units.values() if u.power == self.power}
        return frozenset(units | self.goals.ours)

    def site_value(self, province: str) -> float:
        """How near a province lies to the power's units and centers (1 at one of them,
        less further off) and to centers it could take: where points put into a state,
        or a unit placed, buy the most."""
        value = 0.0
        mine = self._mine
        if mine:
            by_land = self.near.to(True, mine).get(province, FAR)
            value += 1.0 / (1.0 + min(by_land, self.near.to(False, mine).get(province, FAR)))
        if province in self.goals.targets:
            value += 0.5
        return value - 0.1 * self.near.to(True, self.goals.targets).get(province, FAR)

    def form_value(self, form: OrderForm) -> float:
        """A form's worth by the sites it names (a state's provinces), or its choices'."""
        sites = form.sites or ((form.unit,) if form.unit is not None else ())
        sites = sites or tuple(c for choice in form.choices for c in choice.clicks[:1])
        return max((self.site_value(province_of(s)) for s in sites), default=0.0)


def unit_forms(menu: Menu) -> list[OrderForm]:
    """The forms that order one unit each, from a list of its orders."""
    return [f for f in menu if f.unit is not None and not f.fields and f.choices]


def ranked(outlook: Outlook, form: OrderForm) -> list[int]:
    """The form's choices, best first by the heuristic value of each, without its
    supports unless it has nothing else: a support is planned and tried only beside the
    move it backs (`_support`, the search's alternatives), where alone it would leave the
    unit in place backing nothing, as a unit far from every center would choose."""
    order = sorted(range(len(form.choices)), key=lambda i: -outlook.value(form.choices[i].order))
    return [i for i in order if not isinstance(form.choices[i].order, Support)] or order


Plan = list[int]  # a choice for each unit form, by its place in the form's choices


def plan(outlook: Outlook, forms: Sequence[OrderForm]) -> Plan:
    """A choice for each unit form: the units with most to gain choose first, each its
    best order that sends it nowhere one of ours already goes; then a unit with little
    to do supports a move of ours into a province another power could also enter."""
    best = [ranked(outlook, f) for f in forms]
    first = sorted(
        range(len(forms)), key=lambda n: -outlook.value(forms[n].choices[best[n][0]].order)
    )
    claimed: set[str] = set()
    picked = [best[n][0] for n in range(len(forms))]
    for n in first:
        for i in best[n]:
            destination = _destination(forms[n].choices[i].order)
            if destination is None or destination not in claimed:
                picked[n] = i
                if destination is not None:
                    claimed.add(destination)
                break
    for (n, i), (m, j) in attacks(outlook, forms):
        now = outlook.value(forms[n].choices[picked[n]].order)
        if max(now, outlook.value(forms[m].choices[picked[m]].order)) < TAKE - BOUNCE:
            picked[n], picked[m] = i, j
    _carry(outlook, forms, picked)
    _support(outlook, forms, picked)
    return picked


def _carry(outlook: Outlook, forms: Sequence[OrderForm], picked: Plan) -> None:
    """Moves overseas for units a fleet of ours has little else to do than carry: each
    unit's best such move, one fleet each, where it gains on the unit's planned order
    (counted without CARRIED, as the fleet's convoy is the price paid; a support planned
    counts as a hold, as its worth lies in the move it backs) and goes nowhere another
    of ours goes. So an island power's armies cross to the continent, and do not wait
    at home."""

    def value(change: Change) -> float:
        n, i = change
        order = forms[n].choices[i].order
        if isinstance(order, Support):
            order = Hold(order.unit, order.location)
        return outlook.value(order)

    busy: set[int] = set()
    for move, convoy in sorted(convoys(outlook, forms), key=lambda pair: -value(pair[0])):
        (n, i), (m, j) = move, convoy
        if n in busy or m in busy or value((m, picked[m])) >= AIDE:
            continue
        destination = _destination(forms[n].choices[i].order)
        taken = {_destination(f.choices[k].order) for f, k in zip(forms, picked, strict=True)}
        if value(move) + CARRIED - value((n, picked[n])) > CROSSING and destination not in taken:
            picked[n], picked[m] = i, j
            busy |= {n, m}


Change = tuple[int, int]  # the `n`th unit form's choice changed to its `i`th
Listed = TypeVar("Listed", Support, Convoy)


def attacks(outlook: Outlook, forms: Sequence[OrderForm]) -> list[tuple[Change, Change]]:
    """Supported attacks on centers another power's unit stands on: a unit's move there,
    and another unit's support of it (one alone would only bounce)."""
    held = {
        p for p, u in outlook.position.units.items() if u.power != outlook.power
    } & outlook.goals.centers
    supports = _listed(forms, Support, lambda s: (province_of(s.supported), s.destination))
    return [
        ((n, i), (m, j))
        for n, i, move in _moves(forms)
        if move.destination in held
        for m, j in supports.get((move.province, move.destination), ())
        if m != n
    ]


def convoys(outlook: Outlook, forms: Sequence[OrderForm]) -> list[tuple[Change, Change]]:
    """Moves overseas one fleet of ours can carry: the unit's move, the fleet's convoy.
    (A fleet's menu lists every convoy it could take part in, a chain of other fleets
    too: only one that touches both shores carries the army alone.)"""
    board = outlook.variant.board
    carried = _listed(forms, Convoy, lambda c: (province_of(c.army), province_of(c.target)))
    return [
        ((n, i), (m, j))
        for n, i, move in _moves(forms)
        if not board.adjacent(move.unit, move.location, move.target)
        for m, j in carried.get((move.province, move.destination), ())
        if _alone(outlook, forms[m].choices[j].order, move)
    ]


def _alone(outlook: Outlook, convoy: Order, move: Move) -> bool:
    """Whether a fleet's convoy carries a move by itself: the fleet touches both shores."""
    if not isinstance(convoy, Convoy):
        return False
    board = outlook.variant.board
    shores = {province_of(n) for n in board.neighbours(convoy.unit, convoy.location)}
    return move.province in shores and move.destination in shores


def _moves(forms: Sequence[OrderForm]) -> Iterator[tuple[int, int, Move]]:
    """Every move the forms list, with its form's place and its own."""
    for n, form in enumerate(forms):
        for i, choice in enumerate(form.choices):
            if isinstance(choice.order, Move):
                yield n, i, choice.order


def _listed(
    forms: Sequence[OrderForm], kind: type[Listed], key: Callable[[Listed], tuple[str, str | None]]
) -> dict[tuple[str, str | None], list[Change]]:
    """The forms' orders of one kind (supports, convoys), each as a change, by the move
    it is for (the provinces it leaves and enters)."""
    found: dict[tuple[str, str | None], list[Change]] = {}
    for m, form in enumerate(forms):
        for j, choice in enumerate(form.choices):
            if isinstance(choice.order, kind):
                found.setdefault(key(choice.order), []).append((m, j))
    return found


def _destination(order: Order) -> str | None:
    """The province an order leaves its unit in, for a unit that stays on the board."""
    if isinstance(order, Move | Retreat):
        return province_of(order.target)
    if isinstance(order, UnitOrder) and not isinstance(order, Disband):
        return order.province
    return None


def _support(outlook: Outlook, forms: Sequence[OrderForm], picked: Plan) -> None:
    """Turn idle units into supports of contested moves (and holds) of ours."""
    chosen = [form.choices[i].order for form, i in zip(forms, picked, strict=True)]
    contested = outlook.contested | frozenset(
        u.province for u in outlook.position.units.values() if u.power != outlook.power
    )
    for n in sorted(range(len(forms)), key=lambda n: outlook.value(chosen[n])):
        if outlook.value(chosen[n]) >= AIDE or _leaves_room(outlook, chosen[n]):
            continue
        for i, choice in enumerate(forms[n].choices):
            wanted = choice.order
            if not isinstance(wanted, Support) or wanted.destination not in contested:
                continue
            if backs(wanted, chosen):
                picked[n] = i
                chosen[n] = wanted
                break


def _leaves_room(outlook: Outlook, order: Order) -> bool:
    """Whether an order moves its unit off a home center that a build is owed on (a
    support would keep it there)."""
    return isinstance(order, Move) and outlook.blocks(order.province)


def backs(support: Support, orders: Iterable[Order]) -> bool:
    """Whether a support is for one of these orders of ours, as given."""
    for order in orders:
        if not isinstance(order, UnitOrder) or order.province != province_of(support.supported):
            continue
        if isinstance(order, Move):
            return support.destination == order.destination
        return support.target is None and not isinstance(order, Support)
    return False


def disbands(outlook: Outlook, forms: Sequence[OrderForm], due: int) -> list[Order]:
    """The `due` units least worth keeping, disbanded."""
    orders = [f.choices[0].order for f in forms]
    units = [o for o in orders if isinstance(o, UnitOrder)]
    units.sort(key=outlook.usefulness)
    return list(units[: max(0, due)])


def preferred(outlook: Outlook, form: OrderForm) -> list[Order]:
    """A non-unit form's listed orders, the most promising first (a build or a placement
    nearer the centers to take, a state nearer our units); waivers left out."""
    choices = [c for c in form.choices if not isinstance(c.order, Waive)]
    choices = [c for c in choices if not outlook.enough(c.order)] or choices

    def worth(choice: Choice) -> float:
        order = choice.order
        if isinstance(order, UnitOrder):
            steps = outlook.near.of(order.unit, order.location, outlook.goals.targets)
            return outlook.site_value(order.province) - STEP * steps
        if choice.clicks:
            return outlook.site_value(province_of(choice.clicks[0]))
        return 0.0

    return [c.order for c in sorted(choices, key=lambda c: -worth(c))]
