"""Issue 27's targets, and how a benchmark line says beside its figure whether it meets one.

Every line `make bench` and `make bench-server` print that issue 27 sets a goal for ends
with its verdict, ``target >= 40x: met`` or ``target <= 60 us: NOT met``, so that a run
reads as a list of what is met without a table beside it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """A bound a figure must reach: at least it (a ratio against the peer), or at most it
    (a cost), in `unit` as the line prints it."""

    bound: float
    unit: str
    at_least: bool = False

    def met(self, value: float) -> bool:
        return value >= self.bound if self.at_least else value <= self.bound

    def __str__(self) -> str:
        sign = ">=" if self.at_least else "<="
        space = "" if self.unit == "x" else " "
        return f"{sign} {self.bound:g}{space}{self.unit}"

    def verdict(self, value: float) -> str:
        """``target <= 2 ms: met``: the bound and whether `value` reaches it."""
        return f"target {self}: {'met' if self.met(value) else 'NOT met'}"


def at_least(bound: float, unit: str = "x") -> Target:
    return Target(bound, unit, at_least=True)


def at_most(bound: float, unit: str) -> Target:
    return Target(bound, unit)
