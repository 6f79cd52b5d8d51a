"""The rules object: the only door through which a variant changes adjudication.

`Rules` is the standard game. A variant that needs different behaviour subclasses it and
overrides a hook; the resolver never asks which variant it is playing. Hooks receive the
units concerned; a variant whose answer depends on the game state (who is aligned with
whom, which states are neutral) builds its rules object for the phase from that state.
"""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.board import Board
from hegemon.position import Position, Unit


class Rules:
    """Standard Diplomacy. Every hook below answers as the 2000 rulebook does."""

    def is_stationary(self, unit: Unit) -> bool:
        """A stationary unit's moves always bounce, yet cut support and prevent entry.

        Sub-Saharan's minor powers (6.0). Such a unit never dislodges anything.
        """
        return False

    def may_dislodge(self, power: str, unit: Unit) -> bool:
        """Whether `power`'s units, and its supports, may count towards dislodging `unit`.

        Standard: never one's own unit. Europe 1615: never a unit aligned with oneself.
        """
        return power != unit.power

    def may_enter(self, unit: Unit, province: str) -> bool:
        """Whether the unit may move or retreat into the province (Europe 1615's neutral
        states; impassable spaces)."""
        return True

    def may_be_supported(self, unit: Unit) -> bool:
        """Whether support given to this unit counts (Europe 1615: a neutral unit in its
        own state cannot be supported)."""
        return True

    def may_convoy(self, board: Board, fleet: Unit) -> bool:
        """Whether this unit, where it stands, may convoy: a kind that convoys, at a convoy
        place of the map (standard: at sea; the data may add river coasts)."""
        return fleet.type.convoys and fleet.location in board.convoy_places

    def retreats(self, unit: Unit) -> bool:
        """Whether a dislodged unit may retreat, or is disbanded at once (minor powers)."""
        return True

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        """The supply centers where `power` may build this winter, occupied or not.

        Standard: its home centers that it still owns. African Riots builds anywhere
        owned; Sub-Saharan adds the extra home centers a power has named.
        """
        return frozenset(c for c in homes if position.centers.get(c) == power)

    def build_problem(
        self, power: str, unit: Unit, earlier: Sequence[Unit], homes: frozenset[str]
    ) -> str | None:
        """Why `power` may not build `unit` after its `earlier` builds this winter, if the
        variant limits builds beyond the standard rules (Sub-Saharan names one new home
        center a winter; Europe 1615 builds fleets only in ports)."""
        return None

    def captures_centers(self, unit: Unit) -> bool:
        """Whether the unit takes ownership of a supply center it occupies after Fall."""
        return True


STANDARD = Rules()
