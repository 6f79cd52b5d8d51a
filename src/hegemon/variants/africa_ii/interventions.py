"""What the intervention units leave in the ledger, and what it costs their superpowers.

- b.9: a marine, paratroop or fleet disbanded after a dislodgement (no retreat open, or
  none ordered, or a disband ordered) is lost for good: its power may not raise another of
  its kind. The ledger keeps the kinds each power has lost.
- b.3 and b.10, noted through the Spring turn (its moves and its retreats, before the IP
  phase): the marines and paratroops each power has on the board, for their upkeep, and
  the states its guerillas operate in, where it may hold no IPs. At the IP phase, the
  upkeep comes off its revenue (10% rounded up for a marine or a paratroop, 20% for both)
  and its holdings in those states are lost.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Final

from hegemon.orders import place
from hegemon.position import Position, Unit
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.guerillas import GUERILLA
from hegemon.variants.africa_ii.ledger import Holdings, Ledger

LOST_FOR_GOOD: Final = ("P", "M", "F")  # b.9: the kinds a dislodgement may cost for good
UPKEEP: Final = ("P", "M")  # b.3: the kinds whose upkeep a power pays; "no IPs for having Fleets"


def lose(book: Book, position: Position, disbanded: Iterable[Unit]) -> Position:
    """The superpowers' marines, paratroops and fleets among units disbanded after a
    dislodgement, and aboard them, recorded as lost for good (b.9)."""
    gone = [
        u
        for u in aboard_too(disbanded)
        if u.power in book.superpowers and u.type.letter in LOST_FOR_GOOD
    ]
    if not gone:
        return position
    ledger = Ledger.of(position)
    lost = {power: list(kinds) for power, kinds in ledger.lost.items()}
    lines = []
    for unit in gone:
        lost.setdefault(unit.power, []).append(unit.type.letter)
        lines.append(
            f"{unit.power}'s {unit.type.name} ({unit.type.letter} {place(unit.location)}) is "
            f"lost for good: no other may be raised (rules b.9)"
        )
    kept = {power: tuple(sorted(set(kinds))) for power, kinds in lost.items()}
    return position.evolve(state=ledger.replace(lost=kept, news=(*ledger.news, *lines)))


def aboard_too(units: Iterable[Unit]) -> list[Unit]:
    """The units and those aboard them (a marine aboard its fleet)."""
    return [u for unit in units for u in (unit, *unit.cargo)]


def witness(book: Book, position: Position, units: Iterable[Unit]) -> Position:
    """The units seen on the board in the Spring turn (b.3, b.10), added to the ledger:
    each power's marines and paratroops, and the states its guerillas stand in. A marine
    aboard its fleet is off the board (b.8: it leaves the board by boarding its fleet), so
    only the units themselves are seen, never their cargo: a marine pays in a Spring it
    stands landed, before the moves (boarding then, "leaving the board") or after them."""
    ledger = Ledger.of(position)
    province_state = book.territory(ledger).province_state
    deployed = {p: set(kinds) for p, kinds in ledger.deployed.items()}
    operating = {p: set(states) for p, states in ledger.operating.items()}
    for unit in units:
        if unit.power not in book.superpowers:
            continue
        letter = unit.type.letter
        if letter in UPKEEP:
            deployed.setdefault(unit.power, set()).add(letter)
        state = province_state.get(unit.province)
        if letter == GUERILLA and state is not None:
            operating.setdefault(unit.power, set()).add(state)
    seen_deployed, seen_operating = _sorted(deployed), _sorted(operating)
    if seen_deployed == ledger.deployed and seen_operating == ledger.operating:
        return position  # nothing new seen (the retreats, after the moves): no copy made
    ledger = ledger.replace(deployed=seen_deployed, operating=seen_operating)
    return position.evolve(state=ledger)


def _sorted(table: Mapping[str, set[str]]) -> dict[str, tuple[str, ...]]:
    return {key: tuple(sorted(values)) for key, values in sorted(table.items())}


def upkeep(book: Book, ledger: Ledger) -> tuple[dict[str, int], list[str]]:
    """Each power's revenue less the upkeep of the marines and paratroops it had on the
    board this Spring (b.3): 10% (rounded up) for either, 20% for both; and the lines
    telling it."""
    revenue = dict(ledger.revenue)
    lines = []
    for power, kinds in sorted(ledger.deployed.items()):
        percent = book.upkeep_percent * len(kinds)
        cost = math.ceil(revenue.get(power, 0) * percent / 100)
        if cost:
            revenue[power] -= cost
            lines.append(
                f"{power} pays {cost} IPs ({percent}%) for its {_kinds(kinds)} (rules b.3)"
            )
    return revenue, lines


def _kinds(letters: Iterable[str]) -> str:
    names = {"P": "paratroops", "M": "marines"}
    return " and ".join(names[letter] for letter in letters)


def forfeit(ledger: Ledger) -> tuple[Holdings, list[str]]:
    """The holdings once each power has lost its IPs in the states its guerillas operated
    in this Spring (b.10: "Any IPs already invested in such states are lost")."""
    holdings = {state: dict(held) for state, held in ledger.holdings.items()}
    lines = []
    for power, states in sorted(ledger.operating.items()):
        for state in states:
            lost = holdings.get(state, {}).pop(power, 0)
            if lost:
                lines.append(
                    f"{power} loses its {lost} IPs in {state}: its guerillas operate there "
                    f"(rules b.10)"
                )
    return {state: held for state, held in holdings.items() if held}, lines
