"""The close of Africa II's year, around the Autumn adjustments.

As the adjustments begin, once centers have changed hands: a secession whose center another
state has captured ends (rules c.4), and a state another holds every home center of is
conquered and re-established (c.1; Namibia as a state of its own, c.2), before builds and
disbands are counted, so that "the conquering state forfeits any builds gained from those
centres". As they end, played or not: the revolutions of guerillas and Namibia's
liberation (b.13, c.2, `revolutions`), then the revenue of the coming Spring, computed and
published (a.6), less the military aid given (c.3), whose year is over.
"""

from __future__ import annotations

from hegemon.board import Board
from hegemon.orders import place
from hegemon.position import Position, Unit, editable
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.events import ARMY
from hegemon.variants.africa_ii.ledger import Ledger, without
from hegemon.variants.africa_ii.revolutions import overthrow
from hegemon.variants.africa_ii.states import Territory


def settle(book: Book, board: Board, position: Position) -> Position:
    """The secessions captured, then the conquests, each told in the ledger's news."""
    lines: list[str] = []
    for name in Ledger.of(position).independent:
        state = book.states[name]
        owners = {position.centers.get(c) for c in state.centers}
        if not state.conquerable and owners and owners <= set(book.states) - {name}:
            position = _secession_ends(name, position, lines)
    # The states as they stand, found again only once one is re-established: asked of
    # every state.
    territory = book.territory(Ledger.of(position))
    for name in sorted(book.states):
        conqueror = _conqueror(book, territory, position, name)
        if conqueror is not None:
            position = _reestablish(book, board, position, name, conqueror, lines)
            territory = book.territory(Ledger.of(position))
    ledger = Ledger.of(position)
    return position.evolve(state=ledger.replace(news=(*ledger.news, *lines)))


def _secession_ends(name: str, position: Position, lines: list[str]) -> Position:
    """c.4: "In the event of Port Harcourt being captured by another state ... it resumes
    its status" as its old state's home center: the secession is over, its units gone."""
    ledger = Ledger.of(position)
    gone = sorted(u.location for u in position.units.values() if u.power == name)
    units = {p: u for p, u in position.units.items() if u.power != name}
    lines.append(
        f"{name} is captured: its center is its old state's home again (rules c.4)"
        + (f"; its units disbanded: {', '.join(map(place, gone))}" if gone else "")
    )
    ledger = ledger.replace(
        independent=tuple(s for s in ledger.independent if s != name),
        holdings=without(ledger.holdings, name),
        control=without(ledger.control, name),
        civil_wars=without(ledger.civil_wars, name),
        aid=without(ledger.aid, name),
    )
    return position.evolve(units=units, state=ledger)


def _conqueror(book: Book, territory: Territory, position: Position, name: str) -> str | None:
    """The one state holding every home center of the state `name` (c.1), if any: a state
    there is now, or one that is part of another but conquerable (Namibia, taken from the
    RSA by a third state, c.2). `territory`: the states as they stand in `position`."""
    state = book.states[name]
    if not territory.is_active(name) and not state.conquerable:
        return None
    # Not `centers.get`: compiled, on a Mapping that is a method call by name, for every
    # state every Autumn.
    centers = position.centers
    owner: str | None = None
    for home in territory.conquest_homes(name):
        held = centers[home] if home in centers else None  # noqa: SIM401
        if held is None or held == name:
            return None  # a home of its own, or of nobody's, as most are: no conquest
        if owner is not None and held != owner:
            return None  # held by two others
        owner = held
    if owner is None or not territory.is_active(owner):
        return None
    return None if owner == territory.sovereign(name) else owner


def _reestablish(
    book: Book, board: Board, position: Position, name: str, conqueror: str, lines: list[str]
) -> Position:
    """c.1: the state "is re-established, with its original units on its home centres",
    those alone: its units elsewhere are disbanded; "all previous IP holdings in the
    conquered state are then lost, and the IP holdings of the conquering state are
    duplicated in the re-established conquered state". Control follows those holdings at
    the next Spring review (a.5), not before."""
    ledger = Ledger.of(position)
    homes = book.territory(ledger).conquest_homes(name)
    elsewhere = sorted(p for p, u in position.units.items() if u.power == name and p not in homes)
    units = {p: u for p, u in position.units.items() if p not in elsewhere}
    centers = editable(position.centers)
    removed = []
    for center in sorted(homes):
        centers[center] = name
        there = units.get(center)
        if there is not None and there.power == conqueror:
            del units[center]
            removed.append(place(center))
        if center not in units:
            units[center] = Unit(name, board.kinds[ARMY], center)
    holdings = {**ledger.holdings, name: dict(ledger.holdings.get(conqueror, {}))}
    independent = ledger.independent
    if name not in book.territory(ledger).active:
        independent = (*independent, name)
    ledger = ledger.replace(
        holdings={s: h for s, h in holdings.items() if h}, independent=independent
    )
    copied = ", ".join(f"{p} {n}" for p, n in sorted(holdings[name].items())) or "none"
    told = [f"IPs as in {conqueror}: {copied}"]
    if removed:
        told.append(f"{conqueror}'s units disbanded: {', '.join(removed)}")
    if elsewhere:
        told.append(f"its units elsewhere disbanded: {', '.join(map(place, elsewhere))}")
    lines.append(
        f"{name} is conquered by {conqueror} and re-established (rules c.1): " + "; ".join(told)
    )
    return position.evolve(units=units, centers=centers, state=ledger)


def close(book: Book, board: Board, position: Position) -> Position:
    """The revolutions and Namibia's liberation (b.13, c.2); then the coming Spring's
    revenue (a.6), less 5 IPs for each center's worth of military aid given (c.3); the
    aid's year is over."""
    position = overthrow(book, board, position)
    ledger = Ledger.of(position)
    revenue = {
        power: max(0, book.income(position, power) - book.aid_cost * ledger.aid_given(power))
        for power in book.powers
    }
    year = position.phase.year
    spend = ", ".join(f"{p} {n}" for p, n in revenue.items())
    ledger = ledger.replace(
        revenue=revenue,
        aid={},
        adjusted=year,
        news=(*ledger.news, f"IPs to spend in Spring {year + 1} (rules a.6): {spend}"),
    )
    return position.evolve(state=ledger)
