"""Sub-Saharan on the drawn board: the minor powers' units, which never move (rules 6.0),
as keeps rather than armies or fleets; in Spring and Fall, each player's Diplomacy
Points to bid (rules 8.1) in the legend. Nothing here is secret: the points follow from
the centers everyone sees, and who bid what never reaches the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.game import Marks
from hegemon.position import Position

if TYPE_CHECKING:
    from hegemon.variants.sub_saharan import SubSaharan

STATIONARY = "fort"


def minor_marks(variant: SubSaharan, position: Position) -> Marks:
    """Each minor power's unit as a keep, each minor's name on its province, and the
    players' Diplomacy Points in the legend's key."""
    units = variant.minor_units(position)
    return Marks(
        glyphs={u.province: STATIONARY for u in units},
        notes={p: (f"minor power {m.name} (flag: {m.flag})",) for p, m in variant.minors.items()},
        glyph_meanings={STATIONARY: "minor power's unit: never moves"} if units else {},
        key=_points_key(variant, position),
    )


def _points_key(variant: SubSaharan, position: Position) -> tuple[str, ...]:
    """Each player's Diplomacy Points to bid this turn (none outside Spring and Fall, and
    none for a player without a center)."""
    points = {p: n for p in variant.powers if (n := variant.allotment(position, p))}
    if not points:
        return ()
    listed = ", ".join(f"{p} {n}" for p, n in points.items())
    return (f"Diplomacy Points to bid this turn (one a center, at most 3): {listed}.",)
