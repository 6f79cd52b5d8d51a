"""African Diplomacy II's orders of its own: placing armies before the first year (rules A)
and declaring home centers in Winter (rules B)."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Self

from hegemon.notation import OrderSyntaxError, province_named
from hegemon.orders import Order, ReadContext, place

_PLACE = re.compile(r"^\s*place\b\s*(.*?)\s*$", re.IGNORECASE)
_DECLARE = re.compile(r"^\s*(?:declare(?:\s+home)?|home)\s+(.+?)\s*$", re.IGNORECASE)
_ARMY = re.compile(r"^(?:a|army)\s+", re.IGNORECASE)
_FLEET = re.compile(r"^(?:f|fleet)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Place(Order):
    """``Place A Bam``: an army placed in the player's turn; ``Place A Bam, Gui, Sen``: a
    ranked list of provinces for the draft, best first, each taken if still open."""

    provinces: tuple[str, ...]

    def format(self) -> str:
        return f"Place A {', '.join(place(p) for p in self.provinces)}"

    def slot(self) -> Hashable | None:
        """One placement, or one list, at a time: a new one replaces the last."""
        return "place"

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _PLACE.match(text)
        if match is None:
            return None
        provinces = tuple(_province(text, item, context) for item in match.group(1).split(","))
        if not provinces:
            raise OrderSyntaxError(text, "name the province to place the army in")
        return cls(provinces)


def _province(text: str, item: str, context: ReadContext) -> str:
    written = item.strip()
    if _FLEET.match(written):
        raise OrderSyntaxError(text, "only armies are placed (rules A)")
    written = _ARMY.sub("", written).strip()
    if not written:
        raise OrderSyntaxError(text, "name the province to place the army in")
    return province_named(context.board, text, written)


@dataclass(frozen=True, slots=True)
class Declare(Order):
    """``Declare Bam``: a supply center the player owns becomes one of its home centers,
    for good (rules B)."""

    center: str

    def format(self) -> str:
        return f"Declare {place(self.center)}"

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _DECLARE.match(text)
        if match is None:
            return None
        center = context.board.lookup(match.group(1))
        if center is None or center not in context.board.centers:
            raise OrderSyntaxError(text, f"{match.group(1)!r} is not a supply center")
        return cls(center)
