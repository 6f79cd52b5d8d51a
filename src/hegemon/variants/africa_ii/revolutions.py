"""Guerillas taking a state, judged at the end of each Autumn adjustment: a revolution
(rules b.13) and Namibia's liberation (c.2).

A revolution: one superpower's guerillas own every home center of a state. The IPs all the
powers held there are lost, half of their total (rounded up) handed to that power, which
controls the state at once; its guerillas inside the state are disbanded and the state's
armies stand on its home centers again, which are its own. Guerillas of two powers owning
the centers together make no revolution: the rules hand the IPs to "the Superpower
controlling the Guerillas", one.

A liberation: one superpower's guerillas stand on both Win and Wal while Namibia is part of
the RSA. Namibia is independent (as if declared, with the RSA's units in its provinces),
its revolution made as above: the guerillas disbanded, Namibia's armies on Win and Wal.
The liberator's IPs spent there at the next IP phase count double, and it earns the
victory points of d.ii.
"""

from __future__ import annotations

import math

from hegemon.board import Board
from hegemon.orders import place
from hegemon.position import Position, Unit
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.declarations import make_independent
from hegemon.variants.africa_ii.events import ARMY
from hegemon.variants.africa_ii.guerillas import GUERILLA
from hegemon.variants.africa_ii.ledger import Ledger, without


def overthrow(book: Book, board: Board, position: Position) -> Position:
    """Every revolution, then Namibia's liberation, each told in the ledger's news."""
    for name in book.territory(Ledger.of(position)).active:
        owner = _sole_owner(book, position, name)
        if owner is not None:
            position = _revolution(book, board, position, name, owner)
    for state in book.states.values():
        if state.liberated and not book.territory(Ledger.of(position)).is_active(state.name):
            standing = [position.unit_in(c) for c in state.centers]
            powers = {u.power if u and u.type.letter == GUERILLA else "" for u in standing}
            liberator = powers.pop() if len(powers) == 1 else ""
            if liberator:
                position = _liberation(book, board, position, state.name, liberator)
    return position


def _sole_owner(book: Book, position: Position, name: str) -> str | None:
    """The one superpower owning every home center of the state, if any (b.13)."""
    homes = book.territory(Ledger.of(position)).conquest_homes(name)
    owners = {position.centers.get(c) for c in homes}
    if len(owners) != 1:
        return None
    (owner,) = owners
    return owner if owner in book.superpowers else None


def _revolution(book: Book, board: Board, position: Position, name: str, power: str) -> Position:
    """b.13: "the IPs of all Superpowers invested in that state are lost - with half
    (rounded up) of that TOTAL, being handed over to the Superpower controlling the
    Guerillas"; its guerillas there disbanded, the state's armies on its home centers."""
    ledger = Ledger.of(position)
    total = sum(ledger.holdings.get(name, {}).values())
    handed = math.ceil(total / 2)
    holdings = without(ledger.holdings, name)
    control = without(ledger.control, name)
    if handed:
        holdings[name] = {power: handed}
        control[name] = power
    ledger = ledger.replace(
        holdings=holdings,
        control=control,
        rights=without(ledger.rights, name),
        civil_wars=without(ledger.civil_wars, name),
    )
    position, disbanded = _restored(book, board, position.evolve(state=ledger), name, power)
    told = (
        f"Revolution in {name}: {power}'s guerillas hold its centers (rules b.13); "
        f"its IPs lost, {handed} of {total} handed to {power}; guerillas disbanded: {disbanded}"
    )
    return _told(position, told)


def _liberation(book: Book, board: Board, position: Position, name: str, power: str) -> Position:
    """c.2: Namibia "liberated if Guerilla units belonging to the same Superpower occupy
    both its home centres"; "the relevant Superpowers IPs count double if invested there
    in the coming turn"."""
    position = make_independent(book, position, name)
    ledger = Ledger.of(position)
    doubled = {**ledger.doubled_for, power: (*ledger.doubled_for.get(power, ()), name)}
    ledger = ledger.replace(liberator=power, doubled_for=doubled)
    position, disbanded = _restored(book, board, position.evolve(state=ledger), name, power)
    told = (
        f"{power}'s guerillas liberate {name} (rules c.2): it is independent, {power}'s IPs "
        f"spent there at the next IP phase count double; guerillas disbanded: {disbanded}"
    )
    return _told(position, told)


def _restored(
    book: Book, board: Board, position: Position, name: str, power: str
) -> tuple[Position, str]:
    """The power's guerillas inside the state disbanded, the state's home centers its own,
    its armies on those left empty; with the guerillas disbanded, as the report names them."""
    territory = book.territory(Ledger.of(position))
    units = dict(position.units)
    gone = [
        p
        for p, u in sorted(units.items())
        if u.power == power
        and u.type.letter == GUERILLA
        and territory.province_state.get(p) == name
    ]
    for province in gone:
        del units[province]
    centers = dict(position.centers)
    for center in sorted(territory.conquest_homes(name)):
        centers[center] = name
        if center not in units:
            units[center] = Unit(name, board.kinds[ARMY], center)
    return position.evolve(units=units, centers=centers), ", ".join(map(place, gone))


def _told(position: Position, line: str) -> Position:
    ledger = Ledger.of(position)
    return position.evolve(state=ledger.replace(news=(*ledger.news, line)))
