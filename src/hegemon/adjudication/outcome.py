"""What happened to each order: its verdict, its typed reason (`hegemon.reasons`) and
what became of its unit, the report's words made from them when read."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from hegemon.orders import Order, format_order
from hegemon.reasons import Dislodged, Reason, Void, Why


class Verdict(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"  # bounced, cut, no convoy route, support not matched
    VOID = "void"  # illegal: treated as hold


class Outcome:
    """One order's fate. `reason` says why the order succeeded, failed or was void, e.g.
    ``Bounced("A Mun", 2, 2, "mom")``; `fate` what became of its unit after, if worth
    saying (dislodged, or held for want of a legal order); `decided_by` lists the units
    whose orders decided it, e.g. ``("A Mun",)``. `note` words them for the report."""

    # A plain class with final fields rather than a NamedTuple: the compiled core makes one
    # for every order, and a NamedTuple is made through a function in Python.
    def __init__(
        self,
        power: str,
        order: Order,
        verdict: Verdict,
        reason: Why,
        decided_by: tuple[str, ...] = (),
        fate: Why | None = None,
    ) -> None:
        self.power: Final = power
        self.order: Final = order
        self.verdict: Final = verdict
        self.reason: Final = reason
        self.decided_by: Final = decided_by
        self.fate: Final = fate

    def said(self) -> tuple[str, Order, Verdict, Why, tuple[str, ...], Why | None]:
        """Everything the outcome says, as a tuple: what it is equal and hashed by."""
        return (self.power, self.order, self.verdict, self.reason, self.decided_by, self.fate)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self.said() == other.said()

    def __hash__(self) -> int:
        return hash(self.said())

    def __repr__(self) -> str:
        return f"Outcome{self.said()!r}"

    @property
    def note(self) -> str:
        """The report's words for the reason and the fate: ``Bounced 1v2; Dislodged by A
        Mun (2v1)``; the fate alone after an order that succeeded, or none given (the
        unit's fate is then all there is to say). Made when read."""
        fate = self.fate
        if fate is None:
            return self.reason.words()
        kind = self.reason.reason
        if kind is Reason.SUCCEEDS or kind is Reason.NO_ORDER:
            return fate.words()
        return f"{self.reason.words()}; {fate.words()}"

    @property
    def problem(self) -> str | None:
        """Why the order is void, in legality's words, if it is: every void order's reason
        is a `Void`, whose problem a player reads beside the order it refused."""
        reason = self.reason
        return reason.problem if isinstance(reason, Void) else None

    @property
    def dislodged_by(self) -> str | None:
        """The unit that dislodged this one (``A Mun``), if one did."""
        fate = self.fate
        return fate.by if isinstance(fate, Dislodged) else None

    @property
    def text(self) -> str:
        """The order as reports write it; made when read, as most outcomes never are."""
        return format_order(self.order)

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS
