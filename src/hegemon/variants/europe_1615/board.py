"""Europe 1615 on the drawn board: each state's provinces, status, patron and religion,
the provinces annexed by a power, and the states' units under their labels; all read
from the ledger as the viewer may see it (`Ledger.view`), so that a player's board shows
its own INFs, everyone's shares, and the Ottoman Empire's patron only to the patron.

| what | drawn as |
| --- | --- |
| a state's provinces | a light fill of their own (the Ottoman Empire's apart) |
| ALIGNED | hatching in the patron's colour (grey where the patron is secret), leaning by power |
| NEUTRAL | grey cross-hatching: closed to every unit but the state's own |
| religion | dots: black for Protestant, white for Catholic, green for Islamic |
| an annexed province | the annexing power's tint |
| a state's unit | its state's label on it |
| INFs | in the legend and each province's tooltip, as the viewer may read them |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hegemon.game import Marks, Pattern, Shade
from hegemon.influence.inf import Standing
from hegemon.position import Position, Viewer
from hegemon.variants.europe_1615.ledger import (
    CATHOLIC,
    ISLAMIC,
    OTTOMAN,
    PROTESTANT,
    Ledger,
    SeenLedger,
)

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615
    from hegemon.variants.europe_1615.states import State

STATE_LAND = Shade("minor state", "#b9a6d6")
EMPIRE_LAND = Shade("Ottoman Empire", "#93c47d")
NEUTRAL = Shade("NEUTRAL: closed to all but its own units", "#4d4d4d", Pattern.CROSSHATCH)
SECRET_PATRON = Shade("ALIGNED (patron secret)", "#6b6b6b", Pattern.BACK_HATCH)  # not Austria's
FAITHS = {
    PROTESTANT: Shade("Protestant", "#111111", Pattern.DOTS),
    CATHOLIC: Shade("Catholic", "#ffffff", Pattern.DOTS),
    ISLAMIC: Shade("Islamic", "#0b6e2e", Pattern.DOTS),
}


def state_marks(variant: Europe1615, position: Position, viewer: Viewer) -> Marks:
    ledger = Ledger.of(position).view(viewer).ledger
    colors = {p.name: p.color for p in variant.powers.values()}
    shades: dict[str, tuple[Shade, ...]] = {}
    tags: dict[str, str] = {}
    notes: dict[str, tuple[str, ...]] = {}
    for state in variant.states.values():
        if state.id in ledger.captured:
            continue
        marks = _state_shades(state, ledger, colors)
        faith = ledger.religion.get(state.id)
        for province in state.provinces:
            shades[province] = marks
            tags[province] = state.label + (f" {faith[0]}" if faith else "")
            notes[province] = (_note(state, ledger, viewer),)
    for province, power in {**ledger.annexed, **ledger.secret_annexed}.items():
        shades[province] = (Shade(f"annexed by {power}", colors[power]),)
        notes[province] = (f"annexed by {power}",)
    captions = {
        u.province: variant.state_of_owner[u.power].label
        for u in position.units.values()
        if u.power in variant.state_of_owner
    }
    key = _key(variant, ledger, viewer)
    return Marks(shades=shades, tags=tags, notes=notes, captions=captions, key=key)


def _key(variant: Europe1615, ledger: SeenLedger, viewer: Viewer) -> tuple[str, ...]:
    """The legend's words for the tags under the labels and the shades over the states,
    then a line for each state holding INFs, as the viewer may read them: the tooltips
    hold them too, but a drawing in PNG has none."""
    states = sorted(variant.states.values(), key=lambda s: s.label)
    held = [(s, infs) for s in states if (infs := _infs(s, ledger, viewer))]
    return (
        "Under a state's province's label, in italics: the state's two letters, which its "
        "units carry, and its religion: C Catholic, P Protestant, I Islamic (Pa C: the "
        "Papal States, Catholic).",
        "Over a state's provinces: hatching in a power's colour, ALIGNED with that power "
        "(grey where the patron is secret), leaning one way or the other by the power; "
        "grey cross-hatching, NEUTRAL, closed to all but its own units; dots, its "
        "religion; none of these, unmarked.",
        "States: " + ", ".join(f"{s.label} {s.name}" for s in states) + ".",
        *(f"{s.label} {s.name}: {'; '.join(infs)}" for s, infs in held),
    )


def _state_shades(state: State, ledger: SeenLedger, colors: Mapping[str, str]) -> tuple[Shade, ...]:
    standing, patron = ledger.standing(state.id), ledger.patron(state.id)
    marks = [EMPIRE_LAND if state.id == OTTOMAN else STATE_LAND]
    if standing is Standing.NEUTRAL:
        marks.append(NEUTRAL)
    elif standing is Standing.ALIGNED:
        marks.append(_aligned(patron, colors) if patron else SECRET_PATRON)
    faith = ledger.religion.get(state.id)
    if faith:
        marks.append(FAITHS[faith])
    return tuple(marks)


def _aligned(patron: str, colors: Mapping[str, str]) -> Shade:
    """Hatching in the patron's colour, its lines leaning the other way from those of the
    power before it: two powers of like colours (France's blue and Scandinavia's paler
    one, side by side in the powers' order) are told apart by the lines' lean, and the
    secret patron's grey (leaning back) from Austria's near-black (leaning forward)."""
    lean = Pattern.HATCH if list(colors).index(patron) % 2 == 0 else Pattern.BACK_HATCH
    return Shade(f"ALIGNED with {patron}", colors[patron], lean)


def _note(state: State, ledger: SeenLedger, viewer: Viewer) -> str:
    """The state's status, religion and INFs as the viewer may read them (`_infs`)."""
    standing, patron = ledger.standing(state.id), ledger.patron(state.id)
    parts = [f"{state.name} ({state.label}): {standing}" + (f" with {patron}" if patron else "")]
    if faith := ledger.religion.get(state.id):
        parts.append(faith)
    return "; ".join([*parts, *_infs(state, ledger, viewer)])


def _infs(state: State, ledger: SeenLedger, viewer: Viewer) -> list[str]:
    """The INFs in the state as the viewer may read them: shares for a player (its own
    INFs too), the numbers for the game master; nothing where there are none."""
    held = ledger.inf.get(state.id, {})
    parts = []
    if viewer.master and held:
        parts.append("INFs: " + ", ".join(f"{p} {n}" for p, n in sorted(held.items())))
    shares = (ledger.shares or {}).get(state.id)
    if shares:
        parts.append("shares: " + ", ".join(f"{p} {n}%" for p, n in sorted(shares.items())))
    if viewer.power and held.get(viewer.power):
        parts.append(f"your INFs: {held[viewer.power]}")
    return parts
