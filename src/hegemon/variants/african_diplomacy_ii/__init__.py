"""African Diplomacy II (dc02), by David Lawler: Africa with Europe's south and the Middle
East, no powers at the start, rivers and lakes that fleets sail.

What differs from the standard game, by rules paragraph:
- A: no countries and no home centers at the start. Lots draw the order of play; the
  players then place four armies each, round by round in that order, one at a time or by
  ranked lists (`opening`). Spring 1901 follows.
- B: in Winter each player may declare home centers among the centers it owns, up to four
  in all, for good; builds go only on declared homes (`winter`).
- C, D, F: the rivers are coasts and the lakes seas of the map, with exactly the moves the
  text lists (`map.toml`); Egypt's canal coast must be named (tag `coast-required`).
- E: a fleet on a river convoys, each leg a move the fleet could make (the map's convoy
  graph: coasts tagged `convoys`).
Decisions where the rules are silent are in docs/variants/african_diplomacy_ii.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Self

from hegemon.board import Board, MapError
from hegemon.game import (
    ADJUSTMENTS,
    PLAYING,
    GameEnd,
    Step,
    Termination,
    Variant,
    setup_table,
)
from hegemon.game.ending import draw_after_last_year
from hegemon.position import Position, Season
from hegemon.variants.african_diplomacy_ii.opening import (
    ORDER_OF_PLAY,
    Draft,
    Lots,
    Placement,
    site_problem,
)
from hegemon.variants.african_diplomacy_ii.orders import Declare, Place
from hegemon.variants.african_diplomacy_ii.state import AfricanState
from hegemon.variants.african_diplomacy_ii.winter import AfricanRules, Winter

__all__ = [
    "ORDER_OF_PLAY",
    "AfricanDiplomacyII",
    "AfricanState",
    "Declare",
    "Place",
    "site_problem",
]


@dataclass(frozen=True, eq=False)
class AfricanDiplomacyII(Variant):
    armies: int = 4  # placed by each player before the first year (rules A)
    most_homes: int = 4  # home centers a player may declare (rules B)
    rules_class = AfricanRules

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, object], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        game = setup_table(setup, "game", [])  # a table: the base read it
        armies, most_homes = game.get("armies"), game.get("most_homes")
        problems = [
            f"[game] {name}: a whole number of at least 1, not {value!r}"
            for name, value in (("armies", armies), ("most_homes", most_homes))
            if isinstance(value, bool) or not isinstance(value, int) or value < 1
        ]
        if problems:
            raise MapError(source, problems)
        assert isinstance(armies, int) and isinstance(most_homes, int)
        opening = tuple(
            Step(Season.WINTER, procedure)
            for procedure in (Lots(armies), Draft(armies), Placement(armies))
        )
        year = tuple(
            Step(s.season, Winter(most_homes)) if s.procedure is ADJUSTMENTS else s
            for s in variant.calendar.year
        )
        calendar = replace(variant.calendar, year=year, opening=opening)
        return replace(variant, calendar=calendar, armies=armies, most_homes=most_homes)

    # --- the start and the state -------------------------------------------------------
    def initial_position(self) -> Position:
        return super().initial_position().evolve(state=AfricanState())

    def read_state(self, data: Mapping[str, object]) -> AfricanState:
        unknown = sorted(set(data) - {"order", "picks", "homes"})
        if unknown:
            raise ValueError(f"state: unknown field {unknown[0]!r}")
        order = self._powers_in(data.get("order", []), "state.order")
        picks = self._powers_in(data.get("picks", []), "state.picks")
        if len(set(order)) < len(order) or not set(picks) <= set(order):
            raise ValueError("state: the order of play names each power once, picks only those")
        return AfricanState(order, picks, self._homes_in(data.get("homes", {})))

    def _powers_in(self, value: object, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(
            isinstance(p, str) and p in self.powers for p in value
        ):
            raise ValueError(f"{where}: a list of the powers of {self.id}")
        return tuple(value)

    def _homes_in(self, value: object) -> dict[str, tuple[str, ...]]:
        if not isinstance(value, Mapping):
            raise ValueError("state.homes: an object of powers")
        homes: dict[str, tuple[str, ...]] = {}
        for power, centers in value.items():
            where = f"state.homes.{power}"
            if power not in self.powers:
                raise ValueError(f"{where}: not a power of {self.id}")
            if not isinstance(centers, list) or not 0 < len(centers) <= self.most_homes:
                raise ValueError(f"{where}: a list of 1 to {self.most_homes} supply centers")
            if not all(isinstance(c, str) and c in self.board.centers for c in centers):
                raise ValueError(f"{where}: every home center is a supply center")
            homes[power] = tuple(centers)
        declared = [c for centers in homes.values() for c in centers]
        if len(set(declared)) < len(declared):
            raise ValueError("state.homes: a center is the home of one power at most")
        return homes

    def home_centers(self, position: Position) -> dict[str, frozenset[str]]:
        homes = AfricanState.of(position).homes
        return {p: frozenset(homes.get(p, ())) for p in self.powers}

    # --- what each viewer reads ----------------------------------------------------------
    # The order of play is told by the phases that follow it (`opening`), the home centers
    # after the supply centers, in the report and the board as text alike.
    def standings(self, position: Position) -> list[str]:
        """``Home centers: Red Con; Blue Gui, Sen``, in the order of the powers."""
        state = AfricanState.of(position)
        declared = [
            f"{p} {', '.join(c.capitalize() for c in state.homes[p])}"
            for p in self.powers
            if state.homes.get(p)
        ]
        return [f"Home centers: {'; '.join(declared)}"] if declared else []

    # --- the end -------------------------------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        """A solo by the victory threshold; with the option `last_year`, a draw of the
        survivors after that year's Fall (at its Winter, or the first phase past it); and a
        draw of every player once the first year begins with nobody holding a unit or a
        center (nobody placed an army): nothing can happen on that board again."""
        solo = super().game_end(position)
        if solo:
            return solo
        if position.phase.year >= self.start_year and not (position.units or position.centers):
            return GameEnd(Termination.EMPTY_BOARD, draw=tuple(self.powers))
        last = int(self.options.get("last_year", 0))
        return draw_after_last_year(self.powers, position, last) if last else PLAYING


VARIANT = AfricanDiplomacyII
