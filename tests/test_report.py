"""The report as a game master posts it: each order with its result in a column."""

from __future__ import annotations

from dataclasses import dataclass

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import ARMY
from hegemon.game import Variant
from hegemon.orders import Hold, Order
from hegemon.reasons import VariantReason
from hegemon.report import ORDER_WIDTH, order_lines


@dataclass(frozen=True)
class Written(Order):
    """An order of any length, as a variant's own kinds may write it."""

    text: str

    def format(self) -> str:
        return self.text


def _worded(words: str) -> VariantReason:
    """A reason worded as given: the layout, not the wording, is under test."""
    return VariantReason("worded", words.replace("{", "{{").replace("}", "}}"))


def test_each_result_stands_in_its_column_at_least_two_spaces_after_its_order(
    classic: Variant,
) -> None:
    lengths = (ORDER_WIDTH - 3, ORDER_WIDTH - 2, ORDER_WIDTH - 1, ORDER_WIDTH, 60)
    outcomes = [
        Outcome("France", Written("x" * n), Verdict.SUCCEEDS, _worded(f"Result {n}"))
        for n in lengths
    ]
    outcomes.append(Outcome("France", Hold(ARMY, "par"), Verdict.SUCCEEDS, _worded("Holds")))
    pad = " " * (3 + ORDER_WIDTH)  # where every result starts
    assert order_lines(classic, outcomes) == [
        "France",
        f"   {'x' * (ORDER_WIDTH - 3)}   Result {ORDER_WIDTH - 3}",
        f"   {'x' * (ORDER_WIDTH - 2)}  Result {ORDER_WIDTH - 2}",
        f"   {'x' * (ORDER_WIDTH - 1)}",  # no room for two spaces: the result goes below
        f"{pad}Result {ORDER_WIDTH - 1}",
        f"   {'x' * ORDER_WIDTH}",
        f"{pad}Result {ORDER_WIDTH}",
        f"   {'x' * 60}",
        f"{pad}Result 60",
        f"   A Par H{' ' * (ORDER_WIDTH - 7)}Holds",
    ]
