"""The standard rules as Africa II bends them: the units a state may keep (rules c.3), the
guerillas a superpower may keep (b.12), the intervention fleets that never enter a coast
and support only their own marines there (b.6), convoys only where wanted (b.6), and the
intervention units aboard and off the board: a fleet carrying its marine (b.5, b.8),
fleets entering and leaving the board but by the Mozambique Channel (b.6), paratroops
dropped and withdrawn (b.4, b.8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hegemon.beyond import BeyondRules
from hegemon.board import Board, province_of
from hegemon.orders import Move
from hegemon.position import Position, Unit
from hegemon.rules import Edition
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.guerillas import GUERILLA
from hegemon.variants.africa_ii.ledger import Ledger

FLEET: Final = "F"
MARINE: Final = "M"
PARATROOP: Final = "P"
# A sea fleets neither enter the board by nor leave it from (b.6).
NO_OFFBOARD: Final = "no-offboard"


class AfricaRules(BeyondRules):
    def __init__(self, book: Book, board: Board, ledger: Ledger, edition: Edition) -> None:
        super().__init__(edition)
        self.book = book
        self.board = board
        self.ledger = ledger

    def needs_supply(self, unit: Unit) -> bool:
        """A guerilla needs no center of a state (b.1), but counts against its power's
        limit of one more guerilla than the centers its guerillas hold (b.12): the
        adjustments disband the excess, as units without supply."""
        return unit.type.supply or unit.type.letter == GUERILLA

    def allowance(self, power: str, centers: int, position: Position) -> int:
        """A state keeps a unit for each center and each center's worth of military aid
        given to it this year (c.3: it "may thus raise or maintain one extra unit"); a
        superpower keeps one more guerilla than the centers its guerillas hold (b.12)."""
        if power in self.book.superpowers:
            return centers + self.book.guerilla_margin
        # Most states are given no aid: asked of every state, the ledger's Python not called.
        return centers + (self.ledger.aid_to(power) if power in self.ledger.aid else 0)

    def retreats(self, unit: Unit) -> bool:
        """A unit nobody orders (its state uncontrolled, a.11, or in civil war, a.12) is
        given no retreat: dislodged, it is disbanded at once, as it would be for want of
        an order, without a retreat phase to wait for. Nor is a guerilla being disbanded
        this turn (b.11)."""
        if self.ledger.disbanding.get(unit.location) == unit.power:
            return False
        return self.book.commander(self.ledger, unit.power) is not None

    def may_enter(self, unit: Unit, province: str) -> bool:
        """Fleets "may NOT enter coastal provinces" (b.6): the seas only."""
        return unit.type.letter != FLEET or self.board.provinces[province].is_sea

    def may_support(self, supporter: Unit, supported: Unit, into: str) -> bool:
        """A fleet supports into a coast only its own marines (b.6: "They may NOT support
        the actions of other units (including Paratroops) in coastal provinces"); at sea,
        any fleet, as usual."""
        if supporter.type.letter != FLEET or self.board.provinces[into].is_sea:
            return True
        return supported.type.letter == MARINE and supported.power == supporter.power

    def goes_by_convoy(
        self, mover: Unit, move: Move, convoying: Sequence[Unit], route: bool
    ) -> bool:
        """ "Unwanted convoys are NOT allowed" (b.6): a move that could go over land goes
        by convoy only when its order says "via Convoy", whoever's fleets convoy it."""
        return move.via_convoy and (route or self.edition is Edition.RULES_2023)

    def may_carry(self, carrier: Unit, unit: Unit) -> bool:
        """A fleet carries its power's marine (b.5: "landed from the relevant
        superpower's Fleet"; b.8: withdrawn "onto a Fleet"), one."""
        return carrier.type.letter == FLEET and unit.type.letter == MARINE and not carrier.cargo

    def may_leave_board(self, board: Board, unit: Unit) -> bool:
        """A paratroop from any province (b.8), a fleet from any sea but the Mozambique
        Channel (b.6); a marine only aboard its fleet, which leaves with it."""
        letter = unit.type.letter
        if letter == FLEET:
            return NO_OFFBOARD not in board.provinces[unit.province].tags
        return letter == PARATROOP

    def may_enter_board(
        self, board: Board, unit: Unit, location: str, occupant: Unit | None
    ) -> bool:
        """A fleet into an unoccupied sea but the Mozambique Channel (b.6); a paratroop,
        the only other unit off the board (a marine is aboard its fleet), into an
        unoccupied province (of land, where alone it stands), dropped before the moves
        (b.4, `landings`)."""
        if occupant is not None:
            return False
        if unit.type.letter == FLEET:
            province = board.provinces[province_of(location)]
            return province.is_sea and NO_OFFBOARD not in province.tags
        return True
