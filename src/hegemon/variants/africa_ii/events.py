"""The random events table (rules c.4, an optional rule): what each event does, read from
`setup.toml`, and the events that happen as they are rolled.

One die of ten is rolled each Spring, as the Spring moves are adjudicated (the rules say
when no more than "roll"), and a number that came up before is rolled again (the core's
`Chance.rerolled`). What an event does to units and revenue happens at once; what it does
to spending waits for that Spring's IP phase (`influence`): every effect in the table is
for "the coming turn" or "the coming game year", and the IP phase is the next turn.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from hegemon.board import Board
from hegemon.orders import place
from hegemon.position import Position, Unit
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.states import State, Territory

RANDOM_EVENT = "random event"  # the name of the die's draw
ARMY: Final = "A"
_EFFECTS = {
    "text",
    "secession",
    "doubled",
    "revenue",
    "others",
    "revenue_percent",
    "riots",
    "spared",
    "union",
    "coup",
}


@dataclass(frozen=True)
class Event:
    number: int
    text: str
    secession: str = ""  # a state within another raises an army in its center
    doubled: tuple[str, ...] = ()  # states where IPs spent this Spring count double
    revenue: Mapping[str, int] = field(default_factory=dict)  # power -> IPs gained or lost
    others: int = 0  # IPs each power not in `revenue` gains
    revenue_percent: int = 0  # percent of its revenue every power gains (negative: loses)
    riots: str = ""  # IPs spent there count double, the same powers' elsewhere half
    spared: tuple[str, ...] = ()  # states where the riots do not halve
    union: tuple[str, ...] = ()  # states controlled together for a year
    coup: str = ""  # each power spends at least 1 IP there or loses its IPs there


def read_events(
    setup: Mapping[str, Any],
    states: Mapping[str, State],
    powers: Collection[str],
    problems: list[str],
) -> dict[int, Event]:
    """The table by number, 1 to its length; each problem of the data goes to `problems`.
    (Untyped: the events' tables as TOML reads them.)"""
    events: dict[int, Event] = {}
    for key, spec in setup.items():
        where = f"[events.{key}]"
        unknown = sorted(set(spec) - _EFFECTS)
        if not key.isdigit() or unknown:
            problems.append(f"{where}: a number, with the keys {', '.join(sorted(_EFFECTS))}")
            continue
        event = Event(
            number=int(key),
            text=str(spec.get("text", "")),
            secession=str(spec.get("secession", "")),
            doubled=tuple(spec.get("doubled", ())),
            revenue=dict(spec.get("revenue", {})),
            others=int(spec.get("others", 0)),
            revenue_percent=int(spec.get("revenue_percent", 0)),
            riots=str(spec.get("riots", "")),
            spared=tuple(spec.get("spared", ())),
            union=tuple(spec.get("union", ())),
            coup=str(spec.get("coup", "")),
        )
        named = [event.secession, event.riots, event.coup, *event.doubled]
        named += [*event.spared, *event.union]
        problems += [f"{where}: {s!r} is not a state" for s in named if s and s not in states]
        problems += [f"{where}: {p!r} is not a power" for p in event.revenue if p not in powers]
        if event.secession and not states.get(event.secession, State("", "", (), ())).within:
            problems.append(f"{where}: {event.secession} secedes from no state")
        events[event.number] = event
    if sorted(events) != list(range(1, len(events) + 1)):
        problems.append("[events]: numbered from 1, each number once")
    return events


def happen(
    event: Event, board: Board, territory: Territory, position: Position
) -> tuple[Position, list[str]]:
    """The event as it is rolled: a secession raises its army, revenue changes; what it
    does to spending is kept for the IP phase (`Ledger.event`, `Ledger.doubled`)."""
    ledger = Ledger.of(position)
    ledger = ledger.replace(
        events=(*ledger.events, event.number),
        event=event.number,
        doubled=(*ledger.doubled, *event.doubled),
        revenue=_revenue(event, ledger.revenue),
    )
    lines = [f"Random event {event.number}: {event.text}"]
    position = position.evolve(state=ledger)
    if event.secession:
        position, raised = _secede(territory.states[event.secession], board, territory, position)
        lines += raised
    if event.revenue or event.others or event.revenue_percent:
        lines.append(f"   IPs to spend this Spring: {_listed(ledger.revenue)}")
    return position, lines


def _listed(revenue: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {n}" for p, n in sorted(revenue.items()))


def _revenue(event: Event, revenue: Mapping[str, int]) -> dict[str, int]:
    """Each power's revenue once the event has changed it (never below nothing)."""
    changed = {}
    for power, ips in revenue.items():
        if event.revenue_percent < 0:  # "lose 10%": rounded up, as b.3 rounds a loss
            ips -= math.ceil(ips * -event.revenue_percent / 100)
        else:
            ips += ips * event.revenue_percent // 100
        changed[power] = max(0, ips + event.revenue.get(power, event.others))
    return changed


def _secede(
    state: State, board: Board, territory: Territory, position: Position
) -> tuple[Position, list[str]]:
    """The state raises an army in each of its centers: the unit of the state it leaves
    that stands there is disbanded and the center lost to it. A center held by another
    state stays that state's (which ends the secession at the next capture, `autumn`)."""
    parent = territory.sovereign(state.within)
    units = dict(position.units)
    centers = dict(position.centers)
    lines = []
    for center in state.centers:
        there = units.get(center)
        if there is not None and there.power == parent:
            del units[center]
            lines.append(f"   {parent}'s {there.type.letter} {place(center)} is disbanded")
        if centers.get(center) == parent:
            centers[center] = state.name
        if center not in units:
            units[center] = Unit(state.name, board.kinds[ARMY], center)
            lines.append(f"   {state.name} raises A {place(center)}")
    ledger = Ledger.of(position)
    independent = ledger.replace(independent=(*ledger.independent, state.name))
    return position.evolve(units=units, centers=centers, state=independent), lines
