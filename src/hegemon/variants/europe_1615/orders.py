"""Europe 1615's declarations to the game master, given with any phase's orders."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Self

from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order, ReadContext, Secrecy

_ALLY = re.compile(r"^\s*ally\s+(.+?)\s*$", re.IGNORECASE)
_WAIVE = re.compile(r"^\s*waive\s+(.+?)\s*$", re.IGNORECASE)  # plain "Waive" waives a build


@dataclass(frozen=True, slots=True)
class AllianceOffer(Order):
    """``Ally England``: an alliance is formed when both powers declare it before 1618;
    it is "declared to the other players" (rules: Optional Alliances)."""

    ally: str

    def format(self) -> str:
        return f"Ally {self.ally}"

    def slot(self) -> Hashable | None:
        return ("ally", self.ally)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _ALLY.match(text)
        if match is None:
            return None
        power = context.lookup("power", match.group(1))
        if power is None:
            raise OrderSyntaxError(text, f"{match.group(1)!r} is not a power")
        return cls(power)


@dataclass(frozen=True, slots=True)
class CaptureWaiver(Order):
    """``Waive Nor``: the power does not capture that province at the next build phase,
    as "arranged by the player (and communicated to the GM)" (rules: Waiving the capture)."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
    province: str

    def format(self) -> str:
        return f"Waive {self.province.capitalize()}"

    def slot(self) -> Hashable | None:
        return ("waive", self.province)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _WAIVE.match(text)
        if match is None:
            return None
        province = context.board.lookup(match.group(1))
        if province is None:
            raise OrderSyntaxError(text, f"{match.group(1)!r} is not a province on this map")
        return cls(province)
