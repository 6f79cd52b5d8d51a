"""The rules object: the only door through which a variant changes adjudication.

`Rules` is the standard game. A variant that needs different behaviour subclasses it and
overrides a hook; the resolver never asks which variant it is playing. Hooks receive the
units concerned; a variant whose answer depends on the game state (who is aligned with
whom, which states are neutral) builds its rules object for the phase from that state.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from mypy_extensions import mypyc_attr

from hegemon.board import Board
from hegemon.orders import Move
from hegemon.position import Position, Unit


class Edition(StrEnum):
    """The rulebook a game follows where rulebooks differ, as the DATC tests them: the
    2000 rules (DATC 2.4, the default) or the 2023 rules (DATC 3.0)."""

    RULES_2000 = "2000"
    RULES_2023 = "2023"


@mypyc_attr(allow_interpreted_subclasses=True)  # each variant's rules, in Python
class Rules:
    """Standard Diplomacy. Every hook below answers as the 2000 rulebook does, or the
    2023 one where the edition says so and they differ (docs/datc.md)."""

    edition: Edition = Edition.RULES_2000

    def __init__(self, edition: Edition = Edition.RULES_2000) -> None:
        self.edition = edition

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

    def goes_by_convoy(
        self, mover: Unit, move: Move, convoying: Sequence[Unit], route: bool
    ) -> bool:
        """Whether a move that could go over land goes by convoy, given the units ordered
        (legally) to convoy it and whether they form a route; a move that cannot go over
        land always goes by convoy. By intent (DATC 4.A.3): its order says "via convoy",
        or one of them is its own power's. The 2000 rules fall back to the land route when
        those fleets form no route (6.G.8); the 2023 rules never fall back (DATC 3.0)."""
        intended = move.via_convoy or any(unit.power == mover.power for unit in convoying)
        return intended and (route or self.edition is Edition.RULES_2023)

    def may_convoy_along(self, board: Board, origin: str, target: str, place: str) -> bool:
        """Whether a fleet at `place` may be ordered to convoy from `origin` to `target`:
        the 2000 rules, if some chain of convoy places between them passes it (DATC
        6.G.7); the 2023 rules, only if some route needs it, a chain none of whose
        places could be left out (DATC 3.0, 4.E.1 and 6.G.19)."""
        if self.edition is Edition.RULES_2023:
            return board.needed_on_convoy_route(origin, target, place)
        return board.on_convoy_route(origin, target, place)

    def retreats(self, unit: Unit) -> bool:
        """Whether a dislodged unit may retreat, or is disbanded at once (minor powers)."""
        return True

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        """The supply centers where `power` may build this winter, occupied or not.

        Standard: its home centers that it still owns. African Riots builds anywhere
        owned; Sub-Saharan adds the extra home centers a power has named.
        """
        owners = position.centers
        return frozenset([c for c in homes if c in owners and owners[c] == power])

    def build_problem(
        self, power: str, unit: Unit, earlier: Sequence[Unit], homes: frozenset[str]
    ) -> str | None:
        """Why `power` may not build `unit` after its `earlier` builds this winter, if the
        variant limits builds beyond the standard rules (Sub-Saharan names one new home
        center a winter; Europe 1615 builds fleets only in ports)."""
        return None

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
        units: the 2000 rules, its home centers, owned or not (DATC 2.4 6.J); the 2023
        rules, the centers it owns (DATC 3.0 6.J)."""
        if self.edition is Edition.RULES_2023:
            return frozenset(position.centers_of(power))
        return homes

    def disorder_by_any_province(self, unit: Unit) -> bool:
        """Whether civil disorder counts the unit's distance through provinces of any
        kind: the 2000 rules, for armies only (as if convoyed; fleets along fleet moves);
        the 2023 rules, for every unit, coasts not mattering (DATC 3.0 6.J)."""
        return unit.type.by_land or self.edition is Edition.RULES_2023


STANDARD = Rules()  # the 2000 rules, which the standard game follows by default
