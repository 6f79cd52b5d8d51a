"""The declarations a superpower makes with its orders: Namibia's independence, at any time
(rules c.2); civil war, with the orders of the turn after it was ousted (a.12); military
aid, at the end of an Autumn turn (c.3). Each is checked when given, on what is public, and
takes effect as the phase it was given in is adjudicated, before its moves."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from hegemon.orders import Order, UnitOrder
from hegemon.position import PhaseKind, Position, Unit
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.orders import Aid, CivilWar, Independence

_CIVIL_WAR_CHANCE = 0.5  # how often a random player declares the civil war it may
_AID_CHANCE = 0.15  # how often it aids a state of its own, each Autumn
_INDEPENDENCE_CHANCE = 0.05  # how often it makes Namibia independent, when it may
# The kinds of declaration, as a tuple: compiled, `A | B | C` makes a new union each time.
_DECLARATIONS = (Independence, CivilWar, Aid)


def kinds_in(book: Book, position: Position, autumn: bool) -> tuple[type[Order], ...]:
    """The declarations this phase takes: Namibia's independence at any time, civil war in
    a movement phase (refused with a.12's reason to a power that may not declare it), aid
    in an Autumn's movement and retreats."""
    kind = position.phase.kind
    kinds: list[type[Order]] = []
    if book.declared:
        kinds.append(Independence)
    if kind is PhaseKind.MOVEMENT:
        kinds.append(CivilWar)
    if autumn and kind in (PhaseKind.MOVEMENT, PhaseKind.RETREAT):
        kinds.append(Aid)
    return tuple(kinds)


def _declarable(book: Book, ledger: Ledger) -> list[str]:
    territory = book.territory(ledger)
    return [s.name for s in book.declared if not territory.is_active(s.name)]


def problems(book: Book, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
    """Why declarations may not be given, each naming the order."""
    return [
        f"{order.format()}: {why}"
        for order in orders
        if (why := _problem(book, position, power, order)) is not None
    ]


def declarable(book: Book, position: Position, power: str, orders: Sequence[Order]) -> list[Order]:
    """Those of the declarations `power` may give (`problems` finds none in): a menu
    lists them."""
    return [order for order in orders if _problem(book, position, power, order) is None]


def cautions(book: Book, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
    """What the giver of aid is warned of (c.3): aid beyond the state's units can have no
    effect, whatever the moves. Each center's worth keeps or raises one unit at the
    adjustments; a state builds only on home centers it owns, which count among its
    centers, so aid can matter for no more units than the state has now (states' units
    only fall before the adjustments). The aid is accepted and charged all the same: the
    giver surrenders the IPs as it opts to (decision 10)."""
    ledger = Ledger.of(position)
    warned = []
    for order in orders:
        if not isinstance(order, Aid) or _problem(book, position, power, order):
            continue
        units = _units(position, order.state)
        total = ledger.aid_to(order.state) + order.centers
        if total > units:
            warned.append(
                f"{order.format()}: aid of {total} in all to {order.state}, which has {units} "
                f"unit{'' if units == 1 else 's'}: aid beyond them can have no effect, and is "
                f"charged {book.aid_cost} IPs each all the same (rules c.3)"
            )
    return warned


def aid_room(position: Position, state: str) -> int:
    """The centers' worth of aid that may still have an effect for the state this year:
    one for each of its units, less the aid given already (`cautions`)."""
    return _units(position, state) - Ledger.of(position).aid_to(state)


def _units(position: Position, state: str) -> int:
    """The state's units, those dislodged included."""
    dislodged = sum(1 for d in position.dislodged.values() if d.unit.power == state)
    return len(position.units_of(state)) + dislodged


def _problem(book: Book, position: Position, power: str, order: Order) -> str | None:
    ledger = Ledger.of(position)
    if isinstance(order, Independence):
        state = book.states[order.state]
        if not state.declared:
            return f"{order.state} is not one a power declares independent (rules c.2)"
        territory = book.territory(ledger)
        if territory.is_active(order.state):
            return f"{order.state} is independent already"
        parent = territory.sovereign(state.within)
        if ledger.control.get(parent) != power:
            return f"only the power controlling {parent} declares it (rules c.2)"
    elif isinstance(order, CivilWar) and ledger.rights.get(order.state) != power:
        return (
            f"{power} was not ousted from {order.state} at the last IP phase by a power "
            f"that held no IPs there (rules a.12)"
        )
    elif isinstance(order, Aid) and ledger.control.get(order.state) != power:
        return f"{power} does not control {order.state} (rules c.3)"
    return None


def declare(
    book: Book, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Position, list[str]]:
    """Every declaration that may be made, in the order given; a movement phase ends the
    rights to declare civil war, which last one turn (a.12)."""
    lines = []
    for power, given in orders.items():
        for order in given:
            # Most orders are the units': only a declaration is checked and made. A unit's
            # order is told first, by the compiled class (the declarations' are Python,
            # slower to test).
            if isinstance(order, UnitOrder) or not isinstance(order, _DECLARATIONS):
                continue
            if _problem(book, position, power, order):
                continue
            if isinstance(order, Independence):
                position = make_independent(book, position, order.state)
                lines.append(f"{power} declares {order.state} independent (rules c.2)")
            elif isinstance(order, CivilWar):
                ledger = Ledger.of(position)
                wars = {**ledger.civil_wars, order.state: power}
                position = position.evolve(state=ledger.replace(civil_wars=wars))
                lines.append(f"{power} declares civil war in {order.state} (rules a.12)")
            elif isinstance(order, Aid):
                position = _aid(position, power, order)
                lines.append(f"{power} gives {order.state} aid: {order.centers} (rules c.3)")
    # A ledger's fields are many: replaced only when there are rights to end.
    if position.phase.kind is PhaseKind.MOVEMENT and Ledger.of(position).rights:
        position = position.evolve(state=Ledger.of(position).replace(rights={}))
    return position, (["Declarations", *(f"   {line}" for line in lines)] if lines else [])


def make_independent(book: Book, position: Position, name: str) -> Position:
    """The state's centers its old state held, and that state's units in its provinces,
    are the new state's (rules c.2: "treated as a separate state")."""
    ledger = Ledger.of(position)
    state = book.states[name]
    parent = book.territory(ledger).sovereign(state.within)
    centers = {
        c: name if c in state.centers and owner == parent else owner
        for c, owner in position.centers.items()
    }
    units = {
        p: Unit(name, u.type, u.location, u.cargo)
        if p in state.provinces and u.power == parent
        else u
        for p, u in position.units.items()
    }
    ledger = ledger.replace(independent=(*ledger.independent, name))
    return position.evolve(units=units, centers=centers, state=ledger)


def _aid(position: Position, power: str, order: Aid) -> Position:
    ledger = Ledger.of(position)
    given = dict(ledger.aid.get(order.state, {}))
    given[power] = given.get(power, 0) + order.centers
    return position.evolve(state=ledger.replace(aid={**ledger.aid, order.state: given}))


def random_declarations(
    book: Book, position: Position, power: str, rng: random.Random, autumn: bool
) -> list[Order]:
    """A random player's declarations in a movement phase: now and then the civil war it
    may declare, aid to one of its states in an Autumn, Namibia's independence."""
    kinds = kinds_in(book, position, autumn)
    ledger = Ledger.of(position)
    orders: list[Order] = []
    if CivilWar in kinds:
        orders += [
            CivilWar(state)
            for state, ousted in sorted(ledger.rights.items())
            if ousted == power and rng.random() < _CIVIL_WAR_CHANCE
        ]
    if Aid in kinds and rng.random() < _AID_CHANCE:
        homes = book.territory(ledger).homes
        mine = [s for s in ledger.controlled_by(power) if homes.get(s)]
        if mine:
            orders.append(Aid(rng.choice(mine)))
    if Independence in kinds and rng.random() < _INDEPENDENCE_CHANCE:
        orders += [Independence(s) for s in _declarable(book, ledger)]
    return [o for o in orders if not _problem(book, position, power, o)]
