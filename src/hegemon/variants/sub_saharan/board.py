"""Sub-Saharan on the drawn board: the minor powers' units, which never move (rules 6.0),
as keeps rather than armies or fleets. Nothing here is secret: who bid what never
reaches the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.game import Marks
from hegemon.position import Position

if TYPE_CHECKING:
    from hegemon.variants.sub_saharan import SubSaharan

STATIONARY = "fort"


def minor_marks(variant: SubSaharan, position: Position) -> Marks:
    """Each minor power's unit as a keep, and each minor's name on its province."""
    units = variant.minor_units(position)
    return Marks(
        glyphs={u.province: STATIONARY for u in units},
        notes={p: (f"minor power {m.name} (flag: {m.flag})",) for p, m in variant.minors.items()},
        glyph_meanings={STATIONARY: "minor power's unit: never moves"} if units else {},
    )
