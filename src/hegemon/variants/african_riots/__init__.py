"""African Riots v5.0 (Yvonne and Rene Linka): nine players in Africa and the Middle East,
74 supply centers, 38 to win.

One rule differs from the standard game, the "Aberration" rule: "a player may build on any
supply center he owns which is vacant as long as he still owns at least one of his original
home centers." Everything else the rules call special (navigable rivers as borders, the
four-way points, Lake Victoria, the impassable lakes, the split coasts, the Suez canal, the
islands that cannot convoy) is geography, and lives in map.toml.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

from hegemon.board import Board
from hegemon.game import Variant
from hegemon.position import Position
from hegemon.rules import Rules


class AberrationRules(Rules):
    """The standard game, but a power builds in any vacant supply center it owns, for as
    long as it owns one of its original home centers."""

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        owned = frozenset(c for c, owner in position.centers.items() if owner == power)
        return owned if owned & homes else frozenset()


@dataclass(frozen=True, eq=False)
class AfricanRiots(Variant):
    """`letters`: each power's letter in the rules' "Starting positions" (Egypt (Y)), a
    name the power goes by in orders and files as much as its own."""

    rules_class = AberrationRules
    letters: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    # Untyped: the setup's tables as TOML reads them, each value narrowed where it is read.
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        powers = setup["powers"].items()
        letters = {str(spec["letter"]).upper(): p for p, spec in powers if "letter" in spec}
        return replace(variant, letters=letters)

    def power_named(self, spelling: str) -> str | None:
        """A power by its name, its adjective or its letter, in any case (``y``)."""
        return super().power_named(spelling) or self.letters.get(spelling.strip().upper())


VARIANT = AfricanRiots
