"""What Africa II's reports and boards say beyond the standard ones, all of it public (the
holdings and the revenue are published, rules a.6, a.7): what the last steps did, each
superpower's states, every state's holdings and controller, the civil wars, the aid, the
random event, the intervention units off the board and what they cost, at the end the
victory points; and for a power, its own summary."""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.orders import place
from hegemon.position import Position, unit_text
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.guerillas import GUERILLA, guerillas
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.scoring import scored, victory_points


def _listed(numbers: Mapping[str, int]) -> str:
    """``Soviet Union 10, France 7``: the largest first."""
    return ", ".join(f"{p} {n}" for p, n in sorted(numbers.items(), key=lambda i: (-i[1], i[0])))


def standing_lines(book: Book, position: Position, last_year: int) -> list[str]:
    ledger = Ledger.of(position)
    lines = ["", *ledger.news] if ledger.news else []
    lines += ["", "Superpowers:", *_superpower_lines(book, position)]
    lines += ["", "Influence Points (rules a.7):", *_holding_lines(book, ledger)]
    lines += _special_lines(book, ledger)
    if position.offboard:
        lines += ["", "Off the board (rules b.6):", *_offboard_lines(position)]
    if scored(book, position, last_year):
        lines += ["", "Victory points (rules d.ii):"]
        for power, points in victory_points(book, position).items():
            detail = ", ".join(f"{what} {n}" for what, n in points.items() if n)
            lines.append(f"   {power}: {sum(points.values())} ({detail})")
    return lines


def _superpower_lines(book: Book, position: Position) -> list[str]:
    ledger = Ledger.of(position)
    lines = []
    for power in book.powers:
        states = ledger.controlled_by(power)
        centers = book.centers_of(position, power)
        units = book.units_of(position, power)
        summary = f"{_counted(centers, 'center')}, {_counted(units, 'unit')}"
        if power in ledger.revenue:
            summary += f", {ledger.revenue[power]} IPs to spend"
        lines.append(f"   {power}: {', '.join(states) or 'no state'} ({summary})")
    return lines


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _holding_lines(book: Book, ledger: Ledger) -> list[str]:
    lines = []
    for state in book.territory(ledger).active:
        held = ledger.holdings.get(state, {})
        controller = ledger.control.get(state)
        if held or controller:
            lines.append(f"   {state}: {controller or 'uncontrolled'}; {_listed(held) or 'no IPs'}")
    return lines or ["   none held"]


def _offboard_lines(position: Position) -> list[str]:
    """Each superpower's units off the board, the marine aboard its fleet: ``F [M], P``."""
    by_power: dict[str, list[str]] = {}
    for unit in position.offboard:
        by_power.setdefault(unit.power, []).append(unit_text(unit))
    return [f"   {power}: {', '.join(sorted(units))}" for power, units in sorted(by_power.items())]


def _special_lines(book: Book, ledger: Ledger) -> list[str]:
    lines = [
        f"Civil war in {state} (rules a.12), declared by {power}: its units stand until the "
        f"Spring IP phase"
        for state, power in sorted(ledger.civil_wars.items())
    ]
    lines += [
        f"{power} may declare civil war in {state} this turn (rules a.12)"
        for state, power in sorted(ledger.rights.items())
    ]
    lines += [
        f"Military aid to {state} this year (rules c.3): {_listed(given)}"
        for state, given in sorted(ledger.aid.items())
    ]
    if ledger.independent:
        lines.append(f"Independent now (rules c.2, c.4): {', '.join(ledger.independent)}")
    if ledger.event:
        event = book.events[ledger.event]
        lines.append(f"This year's random event (rules c.4): {event.number}, {event.text}")
    if ledger.liberator:
        lines.append(f"Namibia was liberated by {ledger.liberator} (rules c.2)")
    lines += _intervention_lines(ledger)
    return ["", *lines] if lines else []


def _intervention_lines(ledger: Ledger) -> list[str]:
    """The guerillas to raise and disband after this turn's retreats (b.11), what the
    Spring's units cost at the IP phase (b.3, b.10), the units lost for good (b.9)."""
    lines = [
        f"{' and '.join(powers)} raise{'s' if len(powers) == 1 else ''} G {place(province)} "
        f"after the retreats (rules b.11)"
        for province, powers in sorted(ledger.raising.items())
    ]
    lines += [
        f"{power} disbands G {place(province)} after the retreats (rules b.11)"
        for province, power in sorted(ledger.disbanding.items())
    ]
    lines += [
        f"{power} pays upkeep at the IP phase for its {', '.join(kinds)} (rules b.3)"
        for power, kinds in sorted(ledger.deployed.items())
    ]
    lines += [
        f"{power} may hold no IPs where its guerillas operate: {', '.join(states)} (rules b.10)"
        for power, states in sorted(ledger.operating.items())
    ]
    lines += [
        f"Lost for good (rules b.9): {power}'s {', '.join(kinds)}"
        for power, kinds in sorted(ledger.lost.items())
    ]
    return lines


def own_lines(book: Book, position: Position, power: str) -> list[str]:
    """A superpower's own summary: its states and the units it commands."""
    ledger = Ledger.of(position)
    states = ledger.controlled_by(power)
    frozen = [s for s in states if s in ledger.civil_wars]
    lines = [f"{power} controls: {', '.join(states) or 'no state'}"]
    if frozen:
        lines.append(f"In civil war, their units standing: {', '.join(frozen)}")
    if power in ledger.revenue:
        lines.append(f"IPs {power} spends at the next IP phase: {ledger.revenue[power]}")
    if book.places(power, GUERILLA):
        count = len(guerillas(position, power))
        limit = book.guerilla_limit(position, power)
        lines.append(f"Guerillas: {count}, {limit} at most (rules b.12)")
    if ledger.lost.get(power):
        lines.append(f"Lost for good, never raised again: {', '.join(ledger.lost[power])}")
    return lines
