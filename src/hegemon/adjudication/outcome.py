"""What happened to each order, and why: the words of a game master's report."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from hegemon.orders import Order, format_order


class Verdict(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"  # bounced, cut, no convoy route, support not matched
    VOID = "void"  # illegal: treated as hold


@dataclass(frozen=True, slots=True)
class Outcome:
    """One order's fate. `note` is the report's wording, e.g. ``Bounced 2v2 (with Mom)``;
    `decided_by` lists the units whose orders decided it, e.g. ``("A Mun",)``."""

    power: str
    order: Order
    verdict: Verdict
    note: str
    decided_by: tuple[str, ...] = ()
    dislodged_by: str | None = None
    # The order as reports write it, made once: every report and view of a phase reads it.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", format_order(self.order))

    @property
    def succeeded(self) -> bool:
        return self.verdict is Verdict.SUCCEEDS
