"""The end of the game and victory (rules a.4, d.i, d.ii).

A superpower controlling 21 or more supply centers wins at once, whenever that happens, a
Spring IP phase included (d.i): the judge asks after every phase. The game ends after the
last year's Autumn adjustments, or at the end of an adjustment turn (the Autumn's, or the
Spring IP phase, the rules' "Spring Adjustments") in which one power controls more than
half the units on the board (a.4). The text says only that the game then ends, not that
the holder wins: an ended game no claim has won is won by the most victory points (d.ii),
a tie a draw.
"""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.game import PLAYING, GameEnd, Termination, won_or_drawn
from hegemon.position import Position, Unit
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.holdings import leader
from hegemon.variants.africa_ii.ledger import Ledger


class Ending:
    """The game's end (`ending`) of a game's book and options, as last found with what it
    was found from: the centers' counts, the ledger and the units. The phase machine asks
    after every phase and every phase it enters, and those stay the same objects from one
    to the next until one changes. One entry, replaced whole, so that games played side
    by side never mix; all of it public."""

    def __init__(self, book: Book, victory_centers: int, last_year: int) -> None:
        self.book = book
        self.victory_centers = victory_centers
        self.last_year = last_year
        self._last: tuple[Mapping[str, int], Ledger, Mapping[str, Unit], GameEnd] | None = None

    def of(self, position: Position) -> GameEnd:
        counts, ledger, units = position.center_counts, Ledger.of(position), position.units
        last = self._last
        if last is not None and last[0] is counts and last[1] is ledger and last[2] is units:
            return last[3]
        end = ending(self.book, position, self.victory_centers, self.last_year)
        self._last = (counts, ledger, units, end)
        return end


def ending(book: Book, position: Position, victory_centers: int, last_year: int) -> GameEnd:
    centers = book.centers_by_power(position)
    claims = {p: n for p, n in centers.items() if n >= victory_centers}
    if claims:
        return _most(Termination.SOLO, claims)
    if not scored(book, position, last_year):
        return PLAYING
    points = victory_points(book, position)
    return _most(Termination.POINTS, {p: sum(vp.values()) for p, vp in points.items()})


def scored(book: Book, position: Position, last_year: int) -> bool:
    """Whether the game ends now, on victory points (a.4, d.ii): an adjustment turn has
    just ended, the last year's Autumn one, or one in which a power controls more than
    half the units on the board."""
    ledger = Ledger.of(position)
    if ledger.adjusted >= last_year:
        return True
    if not (ledger.adjusted or ledger.reviewed):
        return False
    total = len(position.units)
    return any(2 * units > total for units in book.units_by_power(position).values())


def _most(how: Termination, scores: Mapping[str, int]) -> GameEnd:
    best = max(scores.values())
    return won_or_drawn(how, tuple(p for p, n in scores.items() if n == best))


def victory_points(book: Book, position: Position) -> dict[str, dict[str, int]]:
    """Each superpower's VPs (d.ii), by what earns them: one for each IP it would gain the
    next Spring from its centers (a.6, before any aid, which it gives up rather than fails
    to gain); 3 for each state, with centers or none, where it holds the most IPs alone
    (a state part of another is none: Namibia and a secession count once independent);
    3 for the liberation of Namibia."""
    ledger = Ledger.of(position)
    points = {
        p: {"income": book.income(position, p), "states": 0, "liberation": 0} for p in book.powers
    }
    for state in book.territory(ledger).active:
        top = leader(ledger.holdings.get(state, {}))
        if top is not None:
            points[top]["states"] += book.state_vp
    if ledger.liberator:
        points[ledger.liberator]["liberation"] = book.liberation_vp
    return points
