"""How a game ends: a solo winner, or a draw; asked after every phase."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

from hegemon.position import PhaseKind, Position


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


def draw_after_last_year(powers: Collection[str], position: Position, last_year: int) -> GameEnd:
    """The end of a game whose rules stop it after `last_year`'s adjustments: a draw of the
    survivors at that Winter or at any phase of a later year, so that a game whose Winter
    is skipped, or one given a position past it, ends all the same at the first phase it
    reaches; PLAYING before.

    The survivors are the powers holding a center or a unit; when nobody holds anything
    (nobody ever placed an army), every power shares the draw, as none outlasted another,
    and a draw of nobody would read as a game still going on."""
    phase = position.phase
    winter = phase.kind is PhaseKind.ADJUSTMENT
    if phase.year < last_year or (phase.year == last_year and not winter):
        return PLAYING
    alive = set(position.centers.values()) | {u.power for u in position.units.values()}
    survivors = tuple(p for p in powers if p in alive)
    return GameEnd(draw=survivors or tuple(powers))
