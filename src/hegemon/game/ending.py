"""How a game ends: a solo winner, a draw, the most points, an agreement; asked after
every phase."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from hegemon.position import PhaseKind, Position


class Termination(StrEnum):
    """What ended a game: its JSON name, and in `GameEnd` the winners or the draw it
    made."""

    SOLO = "solo"  # the rules' victory condition met (the threshold of centers, or a
    # variant's own, such as a city taken); a tie on it, where the rules allow one, a draw
    POINTS = "points"  # the last year played, the most points won; a tie is a draw
    LAST_YEAR = "last_year"  # the last year played (a year cap), a draw of the survivors
    EMPTY_BOARD = "empty_board"  # nobody holds anything, nor ever can: a draw of all
    DRAW_AGREED = "draw_agreed"  # the players agreed a draw of the powers named
    CONCESSION = "concession"  # the players conceded the game to one power

    @property
    def agreed(self) -> bool:
        """Whether the players ended the game themselves, rather than the rules."""
        return self is Termination.DRAW_AGREED or self is Termination.CONCESSION


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: what ended it, and the powers it made winners, or the powers
    sharing the draw; no termination while the game goes on (`PLAYING`)."""

    # In a compiled module of its own: the phase machine asks whether the game has ended
    # a few times a phase, and compiled, that is no call to a method written in Python.
    how: Termination | None
    winners: tuple[str, ...] = ()
    draw: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.winners or self.draw)

    @property
    def agreed(self) -> bool:
        """Whether the players ended it themselves (a draw they agreed, a concession)."""
        return self.how is not None and self.how.agreed


PLAYING: Final = GameEnd(None)  # the game goes on


def won_or_drawn(how: Termination, leaders: tuple[str, ...]) -> GameEnd:
    """The end of a game whose leaders by some count (points, centers) are these: the one
    leader wins; leaders tied share a draw."""
    return GameEnd(how, winners=leaders) if len(leaders) == 1 else GameEnd(how, draw=leaders)


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
    return GameEnd(Termination.SOLO, winners=(leader,))


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
    return GameEnd(Termination.LAST_YEAR, draw=survivors or tuple(powers))
