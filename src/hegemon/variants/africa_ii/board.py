"""Africa II on the drawn board: each state's territory with its label, tinted in the
colour of the superpower controlling it, cross-hatched while it is in civil war; a center
held by another than its province's state says by whom under its label; the states' units
carry their state's label; a province's tooltip gives its state's holdings; the legend
counts each superpower's centers as those of the states it controls and its own (d.i).
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
        held = ", ".join(f"{p} {n}" for p, n in sorted(ledger.holdings.get(state, {}).items()))
        notes[province] = (f"{state}: {controller or 'uncontrolled'}; IPs: {held or 'none'}",)
        tags[province] = book.states[state].label
        holder = position.centers.get(province)
        if holder is not None and holder != state:
            tags[province] += f", held by {_label(book, holder)}"
            notes[province] += (f"its center is held by {holder}",)
    captions = {
        u.province: book.states[u.power].label
        for u in position.units.values()
        if u.power in book.states
    }
    centers = {p: book.centers_of(position, p) for p in book.powers}
    return Marks(shades=shades, tags=tags, notes=notes, captions=captions, centers=centers)


def _label(book: Book, owner: str) -> str:
    """A center's owner as the board names it: a state by its label, a superpower (its
    guerillas') by its name."""
    state = book.states.get(owner)
    return state.label if state is not None else owner
