"""What each power reads of its own bids after a movement phase (rules 1.3, 8.0): every
bid with what became of it, for the power and the game master alone.

Written when first read, not when the phase is played: a phase's result is kept in the
game's history and its report read seldom, while writing every power's lines cost an
eighth of the phase. Python, not in the compiled core: it is made once a phase, and read
at leisure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from hegemon.influence import dp
from hegemon.influence.orders import Bid


class BidReports(Mapping[str, tuple[str, ...]]):
    """The lines of each power that bid, by power (see `bid_lines`), each power's written
    when it is first asked for and kept: the phase's result holds them, as it would a
    dict of them all, and each power's are read under its name alone."""

    def __init__(
        self,
        given: Mapping[str, Sequence[Bid]],
        normal: Mapping[str, Sequence[Bid]],
        barred: Mapping[str, set[str]],
        tallies: Mapping[str, dp.Tally],
    ) -> None:
        self._given = {power: bids for power, bids in given.items() if bids}
        self._normal = normal
        self._barred = barred
        self._tallies = tallies
        self._written: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, power: str) -> tuple[str, ...]:
        lines = self._written.get(power)
        if lines is None:
            given = self._given[power]  # a KeyError for a power that bid nothing
            normal = self._normal.get(power)
            lines = bid_lines(power, given, normal, self._barred, self._tallies)
            self._written[power] = lines
        return lines

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)


def bid_lines(
    power: str,
    given: Sequence[Bid],
    normal: Sequence[Bid] | None,
    barred: Mapping[str, set[str]],
    tallies: Mapping[str, dp.Tally],
) -> tuple[str, ...]:
    """A power's own bids with what became of each, for it and the game master alone (its
    bids stay secret from the others until the game ends, rules 1.3): performed by the
    unit, outbid (or tied: the unit held), or ignored, with the rule that ignores it.
    `normal`: the bids in normal form, None when the allocation was ignored whole."""
    lines = [f"Bids of {power}"]
    attacked = barred.get(power, set())
    for bid, order in zip(given, normal or given, strict=True):
        province = bid.order.province
        if normal is None:
            note = "ignored: the allocation breaks rules 8.0/8.1"
        elif province in attacked:
            note = f"ignored: {power}'s own orders attack it (Attacking & Allocating)"
        else:
            performed = tallies[province].order
            same = performed == order.order
            note = "performed" if same else "not performed"
        lines.append(f"   {bid.format()}: {note}")
    return tuple(lines)
