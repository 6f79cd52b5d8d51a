"""What African Diplomacy II keeps beyond units and centers: the order of play, the
placements still to make, and the home centers each player has declared. All of it is
public."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hegemon.position import VariantState, Viewer


@dataclass(frozen=True)
class AfricanState(VariantState):
    order: tuple[str, ...] = ()  # the order of play, once drawn (rules A)
    picks: tuple[str, ...] = ()  # whose placements are still to make, in turn (rules A)
    homes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # declared (rules B)

    def view(self, viewer: Viewer) -> AfricanState:
        """Everything, as everyone sees it, but for a power's homes before it declares any."""
        return replace(self, homes={p: cs for p, cs in self.homes.items() if cs})
