"""The standard rules as Africa II bends them: the units a state may keep (rules c.3), and
none kept on a superpower's centers (its guerillas need no supply, b.1, b.12)."""

from __future__ import annotations

from hegemon.position import Position, Unit
from hegemon.rules import Edition, Rules
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Ledger


class AfricaRules(Rules):
    def __init__(self, book: Book, ledger: Ledger, edition: Edition) -> None:
        super().__init__(edition)
        self.book = book
        self.ledger = ledger

    def allowance(self, power: str, centers: int, position: Position) -> int:
        """A state keeps a unit for each center and each center's worth of military aid
        given to it this year (c.3: it "may thus raise or maintain one extra unit");
        a superpower's centers, held by its guerillas, keep no unit of its own."""
        if power in self.book.powers:
            return 0
        return centers + self.ledger.aid_to(power)

    def retreats(self, unit: Unit) -> bool:
        """A unit nobody orders (its state uncontrolled, a.11, or in civil war, a.12) is
        given no retreat: dislodged, it is disbanded at once, as it would be for want of
        an order, without a retreat phase to wait for."""
        return self.book.commander(self.ledger, unit.power) is not None
