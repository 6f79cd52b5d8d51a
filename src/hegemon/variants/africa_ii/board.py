"""Africa II on the drawn board: each state's territory with its label, tinted in the
colour of the superpower controlling it, cross-hatched while it is in civil war; the
states' units carry their state's label; a province's tooltip gives its state's holdings.
All of it is public (rules a.7)."""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.game import Marks, Pattern, Shade
from hegemon.position import Position
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger

CIVIL_WAR = Shade("civil war: its units stand (rules a.12)", "#4d4d4d", Pattern.CROSSHATCH)


def state_marks(book: Book, position: Position, colors: Mapping[str, str]) -> Marks:
    ledger = Ledger.of(position)
    territory = book.territory(ledger)
    shades: dict[str, tuple[Shade, ...]] = {}
    tags: dict[str, str] = {}
    notes: dict[str, tuple[str, ...]] = {}
    for province, state in territory.province_state.items():
        controller = ledger.control.get(state)
        marks = [Shade(f"controlled by {controller}", colors[controller])] if controller else []
        if state in ledger.civil_wars:
            marks.append(CIVIL_WAR)
        shades[province] = tuple(marks)
        tags[province] = book.states[state].label
        held = ", ".join(f"{p} {n}" for p, n in sorted(ledger.holdings.get(state, {}).items()))
        notes[province] = (f"{state}: {controller or 'uncontrolled'}; IPs: {held or 'none'}",)
    captions = {
        u.province: book.states[u.power].label
        for u in position.units.values()
        if u.power in book.states
    }
    return Marks(shades=shades, tags=tags, notes=notes, captions=captions)
