"""What happened to each order, and why: the words of a game master's report."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from hegemon.orders import Order, format_order


class Verdict(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"  # bounced, cut, no convoy route, support not matched
    VOID = "void"  # illegal: treated as hold


class Outcome:
    """One order's fate. `note` is the report's wording, e.g. ``Bounced 2v2 (with Mom)``;
    `decided_by` lists the units whose orders decided it, e.g. ``("A Mun",)``."""

    # A plain class with final fields rather than a NamedTuple: the compiled core makes one
    # for every order, and a NamedTuple is made through a function in Python.
    def __init__(
        self,
        power: str,
        order: Order,
        verdict: Verdict,
        note: str,
        decided_by: tuple[str, ...] = (),
        dislodged_by: str | None = None,
    ) -> None:
        self.power: Final = power
        self.order: Final = order
        self.verdict: Final = verdict
        self.note: Final = note
        self.decided_by: Final = decided_by
        self.dislodged_by: Final = dislodged_by

    def said(self) -> tuple[str, Order, Verdict, str, tuple[str, ...], str | None]:
        """Everything the outcome says, as a tuple: what it is equal and hashed by."""
        return (
            self.power,
            self.order,
            self.verdict,
            self.note,
            self.decided_by,
            self.dislodged_by,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self.said() == other.said()

    def __hash__(self) -> int:
        return hash(self.said())

    def __repr__(self) -> str:
        return f"Outcome{self.said()!r}"

    @property
    def text(self) -> str:
        """The order as reports write it; made when read, as most outcomes never are."""
        return format_order(self.order)

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS
