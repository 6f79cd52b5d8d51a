"""Europe 1615's orders beside the standard ones and the INF orders: declarations to the
game master, given with any phase's orders, and orders for the Ottoman Empire's units,
whose sender stays secret."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Self

from hegemon.notation import OrderSyntaxError, parse_order, province_named
from hegemon.orders import Order, ReadContext, Secrecy, UnitOrder

_ALLY = re.compile(r"^\s*ally\s+(.+?)\s*$", re.IGNORECASE)
_WAIVE = re.compile(r"^\s*waive\s+(.+?)\s*$", re.IGNORECASE)  # plain "Waive" waives a build


@dataclass(frozen=True, slots=True)
class AllianceOffer(Order):
    """``Ally England``: an alliance is formed when both powers declare it before 1618.
    The alliance, "a permanent agreement", is "communicated to the GM and declared to the
    other players" (rules: Optional Alliances); an offer not yet returned is no agreement,
    and stays between its power and the game master until the game ends."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
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
        return cls(province_named(context.board, text, match.group(1)))


@dataclass(frozen=True, slots=True)
class EmpireOrder(Order):
    """An order for one of the Ottoman Empire's units, or a build in its centers, written
    as any other (``A ser - bud``). The Empire follows it only from its patron and the
    report publishes it under the Empire's name; who sent it stays between the sender and
    the game master until the game ends (rules: STATUS (3), "For a power aligned with the
    Ottoman Empire, the GM keeps the player/power anonymous, but orders are published")."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
    order: UnitOrder

    def format(self) -> str:
        return self.order.format()

    def slot(self) -> Hashable | None:
        """The Empire's unit, as the order inside names it: a new order replaces it."""
        return self.order.slot()

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        try:
            order = parse_order(text, context.board, context.units)
        except OrderSyntaxError:
            return None  # the standard reader gives the reason
        if isinstance(order, UnitOrder) and context.lookup("empire", order.province):
            return cls(order)
        return None
