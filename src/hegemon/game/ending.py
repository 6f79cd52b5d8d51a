"""How a game ends: a solo winner, or a draw; asked after every phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: a solo winner, or a draw shared by the powers named; `agreed`
    when the players ended it themselves (a draw they agreed, a concession)."""

    # In a compiled module of its own: the phase machine asks whether the game has ended
    # a few times a phase, and compiled, that is no call to a method written in Python.
    winners: tuple[str, ...] = ()
    draw: tuple[str, ...] = ()
    agreed: bool = False

    def __bool__(self) -> bool:
        return bool(self.winners or self.draw)


PLAYING: Final = GameEnd()  # the game goes on


def solo_winner(counts: Mapping[str, int], threshold: int) -> GameEnd:
    """A solo victory, from each power's count of centers: the threshold reached with
    strictly more centers than anyone else. Compiled here, as the standard game asks it
    after every phase."""
    leader, most, tied = "", 0, False
    for power, count in counts.items():
        if count > most:
            leader, most, tied = power, count, False
        elif count == most:
            tied = True
    if not leader or tied or most < threshold:
        return PLAYING
    return GameEnd(winners=(leader,))
