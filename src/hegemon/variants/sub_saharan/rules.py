"""Sub-Saharan's rules (6.0, 7.0, 7.1): stationary minor powers, and builds in original or
named home centers.

Apart from the variant, so that the compiled core holds it: the resolver asks these hooks
of every unit and order in every phase, and a hook of rules written in Python is a call
into Python each time, the standard ones included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hegemon.position import Position, Unit
from hegemon.rules import Edition, Rules

MOST_EXTRA_HOMES: Final = 2


class SubSaharanRules(Rules):
    """Stationary minors, and builds in original or named home centers (rules 6.0, 7.x)."""

    def __init__(
        self,
        minors: frozenset[str],
        homes: Mapping[str, frozenset[str]],
        ever_homes: frozenset[str],
        extra: Mapping[str, Sequence[str]],
        edition: Edition,
    ) -> None:
        super().__init__(edition)
        self.minors = minors
        self.homes = homes
        self.ever_homes = ever_homes  # every center ever a home, of any power, living or not
        self.extra = extra

    def is_stationary(self, unit: Unit) -> bool:
        return unit.power in self.minors

    def retreats(self, unit: Unit) -> bool:
        return unit.power not in self.minors

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        owned = frozenset(c for c, owner in position.centers.items() if owner == power)
        if power in self.minors:
            return frozenset()
        sites = homes & owned
        if len(self.extra.get(power, ())) < MOST_EXTRA_HOMES:
            sites |= owned - self.ever_homes  # rules 7.1: a center that began as a minor's
        return sites

    def build_problem(
        self, power: str, unit: Unit, earlier: Sequence[Unit], homes: frozenset[str]
    ) -> str | None:
        if unit.province not in homes and any(u.province not in homes for u in earlier):
            return "only one additional home center may be named each winter (rules 7.1)"
        return None
