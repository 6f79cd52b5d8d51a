"""African Riots v5.0 (Yvonne and Rene Linka): nine players in Africa and the Middle East,
74 supply centers, 38 to win.

One rule differs from the standard game, the "Aberration" rule: "a player may build on any
supply center he owns which is vacant as long as he still owns at least one of his original
home centers." Everything else the rules call special (navigable rivers as borders, the
four-way points, Lake Victoria, the impassable lakes, the split coasts, the Suez canal, the
islands that cannot convoy) is geography, and lives in map.toml.
"""

from __future__ import annotations

from dataclasses import dataclass

from hegemon.game import Variant
from hegemon.position import Position
from hegemon.rules import Rules


class AberrationRules(Rules):
    """The standard game, but a power builds in any vacant supply center it owns, for as
    long as it owns one of its original home centers."""

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        owned = frozenset(c for c, owner in position.centers.items() if owner == power)
        return owned if owned & homes else frozenset()


ABERRATION = AberrationRules()


@dataclass(frozen=True, eq=False)
class AfricanRiots(Variant):
    def rules_for(self, position: Position) -> Rules:
        return ABERRATION


VARIANT = AfricanRiots
