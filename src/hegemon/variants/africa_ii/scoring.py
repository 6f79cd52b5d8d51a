"""The end of the game and victory (rules a.4, d.i, d.ii).

A superpower controlling 21 or more supply centers wins at once, whenever that happens, a
Spring IP phase included (d.i): the judge asks after every phase. At the end of an
adjustment turn, one controlling more than half the units on the board wins too (a.4: the
game "ends"; a power holding the board wins it, as a solo does). After the last year's
Autumn adjustments the game ends, won by the most victory points (d.ii); a tie is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.game import PLAYING, GameEnd, Termination, won_or_drawn
from hegemon.position import Position
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.influence import leader
from hegemon.variants.africa_ii.ledger import Ledger


def ending(book: Book, position: Position, victory_centers: int, last_year: int) -> GameEnd:
    ledger = Ledger.of(position)
    centers = {p: book.centers_of(position, p) for p in book.powers}
    claims = {p: n for p, n in centers.items() if n >= victory_centers}
    if claims:
        return _most(Termination.SOLO, claims)
    if not ledger.adjusted:
        return PLAYING
    total = len(position.units)
    units = {p: book.units_of(position, p) for p in book.powers}
    holders = {p: n for p, n in units.items() if 2 * n > total}
    if holders:
        return _most(Termination.SOLO, holders)
    if ledger.adjusted >= last_year:
        points = victory_points(book, position)
        return _most(Termination.POINTS, {p: sum(vp.values()) for p, vp in points.items()})
    return PLAYING


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
