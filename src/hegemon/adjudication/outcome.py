"""What happened to each order, and why: the words of a game master's report."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from hegemon.orders import Order, format_order


class Verdict(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"  # bounced, cut, no convoy route, support not matched
    VOID = "void"  # illegal: treated as hold


class Outcome(NamedTuple):
    """One order's fate. `note` is the report's wording, e.g. ``Bounced 2v2 (with Mom)``;
    `decided_by` lists the units whose orders decided it, e.g. ``("A Mun",)``."""

    power: str
    order: Order
    verdict: Verdict
    note: str
    decided_by: tuple[str, ...] = ()
    dislodged_by: str | None = None

    @property
    def text(self) -> str:
        """The order as reports write it; made when read, as most outcomes never are."""
        return format_order(self.order)

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS
