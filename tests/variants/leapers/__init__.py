"""Leapers: a small variant of the tests' own, showing that a rule like Africa II's costs
one folder and no core file (docs/writing-a-variant.md, "Orders that adjudicate
themselves").

Two rules of its own. A scout (a unit kind of the map's) rides aboard an army of its own
power: it boards it with the core's boarding order (``S Hil - A Nor``) and lands from it
(``S Nor - Hil``), where its rules' `may_carry` (`BeyondRules`) lets it. And an army may leap
(``Leap A Nor - Eas``) over a province to one two steps away: a leap competes for nothing,
neither bouncing nor stopping anybody, and lands only if its target ends the phase empty;
the scout aboard comes along. The leap is an `OwnOrder`, which the resolver asks for its
decision, its effect and its explanation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Self

from hegemon.adjudication.movement import Record, Resolver, Settling
from hegemon.beyond import BeyondRules
from hegemon.board import Board
from hegemon.game import Variant
from hegemon.game.phases import Movement
from hegemon.notation import province_named
from hegemon.orders import Illegal, OwnOrder, ReadContext, place
from hegemon.position import Position, Unit
from hegemon.reasons import SUCCEEDED, VariantReason, Why
from hegemon.rules import Rules

ARMY, SCOUT = "A", "S"

_LEAP = re.compile(r"^\s*leap\s+a\s+(\S+)\s*(?:-|to)\s*(\S+)\s*$", re.IGNORECASE)


# Not `slots=True`: the slots a dataclass makes would hide the fields of the compiled
# core's `UnitOrder` (docs/compiled-core.md).
@dataclass(frozen=True)
class Leap(OwnOrder):
    """``Leap A Nor - Eas``: the army lands two provinces away if nobody ends the phase
    there; else it stays."""

    target: str

    def format(self) -> str:
        return f"Leap {self.head} - {place(self.target)}"

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _LEAP.match(text)
        if match is None:
            return None
        board = context.board
        origin, target = (province_named(board, text, name) for name in match.groups())
        return cls(board.kinds[ARMY], origin, target)

    def check(
        self, board: Board, position: Position, unit: Unit, rules: Rules
    ) -> OwnOrder | Illegal:
        """An army leaps into land two steps away, over a province between."""
        if unit.type.letter != ARMY:
            return Illegal(f"{unit.type.plural} do not leap")
        graph = board.province_graph
        over = graph.get(unit.province, frozenset())
        beyond = {far for near in over for far in graph.get(near, ())}
        if self.target in over or self.target not in beyond - {unit.province}:
            name = board.name_of(self.target)
            return Illegal(f"{name} is not two provinces away from {board.name_of(unit.location)}")
        if not board.can_hold(unit.type, self.target):
            return Illegal(f"armies cannot stand in {board.name_of(self.target)}")
        return self

    def index(self, record: Record, resolver: Resolver) -> None:
        """It reads the unit in its target and the moves into it."""
        record.target = self.target
        record.defender = resolver.record_in(self.target)
        record.rivals = resolver.contest(record)

    def decide(self, record: Record, resolver: Resolver) -> bool:
        """Its target ends the phase empty: the unit there moves away, no move into it
        succeeds, and no other leap goes there."""
        return self._blocker(record, resolver) is None

    def _blocker(self, record: Record, resolver: Resolver) -> Record | None:
        """The unit that ends the phase in the target, or leaps there too, if any."""
        staying = record.defender
        if staying is not None and not (staying.target is not None and resolver.resolve(staying)):
            return staying
        for rival in record.rivals or ():
            if resolver.resolve(rival):
                return rival
        return next((o for o in resolver.own_into(self.target) if o is not record), None)

    def settle(self, record: Record, unit: Unit, settling: Settling) -> None:
        settling.stand(unit.moved_to(self.target))  # its scout aboard comes along

    def explain(self, record: Record, resolver: Resolver) -> tuple[bool, Why, tuple[str, ...]]:
        if record.decided:
            return True, SUCCEEDED, ()
        blocker = self._blocker(record, resolver)
        if blocker is None:  # failed in a cycle of decisions
            return False, VariantReason("leap_cycle", "Fails: its landing depends on itself"), ()
        by = resolver.label(blocker)
        landing = VariantReason(
            "landing_taken",
            "Fails: {unit} ends the phase in {province}",
            unit=by,
            province=place(self.target),
        )
        return False, landing, (by,)


class LeapersRules(BeyondRules):
    def may_carry(self, carrier: Unit, unit: Unit) -> bool:
        """An army carries one scout of its power."""
        letters = (carrier.type.letter, unit.type.letter)
        return letters == (ARMY, SCOUT) and not carrier.cargo


class LeapingMovement(Movement):
    """The standard movement, which takes leaps too."""

    orders = (*Movement.orders, Leap)


@dataclass(frozen=True, eq=False)
class Leapers(Variant):
    rules_class = LeapersRules

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, object], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        return replace(variant, calendar=variant.calendar.playing(LeapingMovement()))


VARIANT = Leapers
