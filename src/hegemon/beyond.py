"""The orders that take a unit beyond the board's provinces, each deciding itself through
the resolver's protocol for order kinds of their own (`hegemon.orders.OwnOrder`):
boarding a carrier of one's own (``M Dca - F Gog``, `Embark`) and leaving the board
(``P Joh - OFFBOARD``, `Leave`). See docs/writing-a-variant.md, "Units aboard and off the
board".

They live in the core beside the units aboard and off the board themselves (a position's
`Unit.cargo` and `Position.offboard`, their notation, their JSON), which every variant may
use. A landing (``M Sao - Lus``) and an entry
(``F OFFBOARD - Sao``) are standard moves made from a unit's slot beyond the board, and
need no kind of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from hegemon.board import OFFBOARD, Board, UnitKind
from hegemon.orders import Illegal, OwnOrder, place
from hegemon.position import Position, Unit
from hegemon.reasons import SUCCEEDED, NoCarrier, Why
from hegemon.rules import Rules

if TYPE_CHECKING:
    from hegemon.adjudication.movement import Record, Resolver, Settling


@mypyc_attr(allow_interpreted_subclasses=True)  # each such variant's rules, in Python
class BeyondRules(Rules):
    """The rules of a variant with units aboard others or off the board: which units may
    be carried, leave the board and enter it. The standard game has none (its `Rules` are
    not these: nothing carries anything and the board has no edge), nor does a variant
    whose rules do not subclass these."""

    def may_carry(self, carrier: Unit, unit: Unit) -> bool:
        """Whether `unit` may be aboard `carrier`, a unit of its own power: whether it may
        board it (``M Dca - F Gog``), and what a position may say is aboard. `carrier`
        comes with its cargo, so that a variant may limit how much it takes (those
        boarding in the same phase are not counted); e.g. a fleet carries its
        power's marine."""
        return False

    def may_leave_board(self, board: Board, unit: Unit) -> bool:
        """Whether `unit`, where it stands (or aboard a unit there), may be ordered off the
        board (``P Joh - OFFBOARD``); such a move always succeeds, its cargo going too.
        E.g. fleets from the seas but one, paratroops from anywhere."""
        return False

    def may_enter_board(
        self, board: Board, unit: Unit, location: str, occupant: Unit | None
    ) -> bool:
        """Whether `unit`, off the board, may be ordered onto it at `location`, where
        `occupant` stands as the phase begins (``F OFFBOARD - Sao``). The entry competes
        for the province like any move from an unadjacent place: it may be supported,
        stands off with others and, if allowed into an occupied province, attacks the
        unit there. E.g. fleets, into seas but one, only if unoccupied."""
        return False


def may_carry(rules: Rules, carrier: Unit, unit: Unit) -> bool:
    """Whether the rules let `carrier` carry `unit` (`BeyondRules.may_carry`)."""
    return isinstance(rules, BeyondRules) and rules.may_carry(carrier, unit)


def may_board(rules: Rules, position: Position, unit: Unit, kind: UnitKind) -> bool:
    """Whether `unit` may board a carrier of `kind` (`Embark`): whether any of its power's
    units of that kind may carry it, wherever that one stands."""
    return any(
        may_carry(rules, u, unit)
        for u in position.units_of(unit.power)
        if u.type == kind and u is not unit
    )


def may_leave_board(rules: Rules, board: Board, unit: Unit) -> bool:
    """Whether the rules let `unit` leave the board (`BeyondRules.may_leave_board`)."""
    return isinstance(rules, BeyondRules) and rules.may_leave_board(board, unit)


def may_enter_board(
    rules: Rules, board: Board, unit: Unit, location: str, occupant: Unit | None
) -> bool:
    """Whether the rules let `unit` enter the board at `location`
    (`BeyondRules.may_enter_board`)."""
    return isinstance(rules, BeyondRules) and rules.may_enter_board(board, unit, location, occupant)


@dataclass(frozen=True, slots=True)
class Embark(OwnOrder):
    """A move onto a carrier of one's own power in the province `target`, beside the
    unit's own (``M Dca - F Gog``). It competes for nothing (no standoff, no prevent
    strength): it succeeds if a carrier of the kind it names, of its power, that
    `BeyondRules.may_carry` it, ends the phase in `target` undislodged, having stayed there or
    moved in. Failed, it is a failed move: the unit stays."""

    target: str
    carrier: UnitKind | None = None  # the carrier's kind; always given, in normal form

    def format(self) -> str:
        kind = f"{self.carrier.letter} " if self.carrier else ""
        return f"{self.head} - {kind}{place(self.target)}"

    def check(
        self, board: Board, position: Position, unit: Unit, rules: Rules
    ) -> OwnOrder | Illegal:
        """A carrier of its own power stands there, or one that may move there this phase.
        The carrier's kind, if left out, is that of the unit standing in `target`."""
        target = self.target
        if target not in board.province_graph.get(unit.province, ()):
            here, there = board.name_of(unit.location), board.name_of(target)
            return Illegal(f"{here} does not border {there}")
        occupant = position.unit_in(target)
        kind = self.carrier or (occupant.type if occupant is not None else None)
        if kind is None or not may_board(rules, position, unit, kind):
            return Illegal(
                f"{unit.type.article} in {board.name_of(unit.location)} cannot board "
                f"{kind.article if kind else 'a unit'} of {unit.power} in {board.name_of(target)}"
            )
        return Embark(unit.type, unit.location, target, kind)

    def index(self, record: Record, resolver: Resolver) -> None:
        """It waits for its carrier: the unit standing there, or the moves into it."""
        record.target = self.target
        record.defender = resolver.record_in(self.target)
        record.rivals = resolver.contest(record)

    def decide(self, record: Record, resolver: Resolver) -> bool:
        staying = record.defender
        if (
            staying is not None
            and self._may_board(record.unit, staying.unit, resolver.rules)
            and not (staying.target is not None and resolver.resolve(staying))
        ):
            return not resolver.dislodged(staying)
        return any(
            self._may_board(record.unit, rival.unit, resolver.rules) and resolver.resolve(rival)
            for rival in record.rivals or ()
        )

    def _may_board(self, unit: Unit, carrier: Unit, rules: Rules) -> bool:
        return (
            carrier.power == unit.power
            and carrier.type == self.carrier
            and may_carry(rules, carrier, unit)
        )

    def settle(self, record: Record, unit: Unit, settling: Settling) -> None:
        settling.board(record, self.target)

    def explain(self, record: Record, resolver: Resolver) -> tuple[bool, Why, tuple[str, ...]]:
        if record.decided:
            return True, SUCCEEDED, ()
        assert self.carrier is not None
        return False, NoCarrier(self.carrier.name, record.unit.power, self.target), ()


@dataclass(frozen=True, slots=True)
class Leave(OwnOrder):
    """A unit, or a unit aboard, going off the board (``P Joh - OFFBOARD``), where
    `BeyondRules.may_leave_board` lets it: it always succeeds, its province empty for any unit
    moving in, its cargo going with it. Written as a `Move` to OFFBOARD, which checking
    turns into this."""

    def format(self) -> str:
        return f"{self.head} - {OFFBOARD}"

    def check(
        self, board: Board, position: Position, unit: Unit, rules: Rules
    ) -> OwnOrder | Illegal:
        if not may_leave_board(rules, board, unit):
            where = board.name_of(unit.location)
            return Illegal(f"{unit.type.article} in {where} may not leave the board")
        return Leave(unit.type, unit.location)

    def index(self, record: Record, resolver: Resolver) -> None:
        record.target = OFFBOARD
        record.decided = True

    def decide(self, record: Record, resolver: Resolver) -> bool:
        return True

    def settle(self, record: Record, unit: Unit, settling: Settling) -> None:
        settling.leave_board(unit)

    def explain(self, record: Record, resolver: Resolver) -> tuple[bool, Why, tuple[str, ...]]:
        return True, SUCCEEDED, ()
