"""The rules object: the only door through which a variant changes adjudication.

`Rules` is the standard game. A variant that needs different behaviour subclasses it and
overrides a hook; the resolver never asks which variant it is playing. Hooks receive the
units concerned; a variant whose answer depends on the game state (who is aligned with
whom, which states are neutral) builds its rules object for the phase from that state.
"""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.board import Board
from hegemon.orders import Move
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

    def shows_strengths(self, unit: Unit) -> bool:
        """Whether the report may give the strengths of attacks on this unit and say why
        they fall short. Europe 1615: not on the units of a state whose patron is secret
        (the Ottoman Empire's), since its patron's attacks count for nothing against them
        and the numbers, or "may not dislodge", would name it."""
        return True

    def may_support(self, supporter: Unit, supported: Unit, into: str) -> bool:
        """Whether `supporter` may support `supported` to hold or move into the province
        `into` (Africa II: an intervention fleet supports only its own marines landing)."""
        return True

    def goes_by_convoy(self, mover: Unit, move: Move, convoying: Sequence[Unit]) -> bool:
        """Whether a move that could go over land goes by the convoy of `convoying` (units
        ordered to convoy it that form a route). Standard, the 2000 rules' reading (DATC
        4.A.3, 6.G.8): only if its order says "via convoy" or one of them is its own
        power's; a move that cannot go over land always goes by convoy."""
        return move.via_convoy or any(unit.power == mover.power for unit in convoying)

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
        return unit.type.captures

    def needs_supply(self, unit: Unit) -> bool:
        """Whether the unit counts against its power's supply centers in adjustments."""
        return unit.type.supply

    def allowance(self, power: str, centers: int, position: Position) -> int:
        """How many units that need supply `power` may keep with `centers` supply centers
        (Africa II: one more for each supply center's worth of military aid)."""
        return centers

    def disorder_sources(
        self, power: str, homes: frozenset[str], position: Position
    ) -> frozenset[str]:
        """The provinces civil disorder measures distances to when it disbands a power's
        units: its home centers, owned or not (DATC 6.J, the 2000 rules; the 2023 rules
        measure to the centers it owns)."""
        return homes


STANDARD = Rules()
