"""Resolution of a winter adjustment phase: builds, waives and disbands.

Each power may build as many units as it has supply centers beyond its units, in vacant
build sites (standard: owned home centers), or must disband the excess. A power that
disbands too few is put in civil disorder: its units farthest from its owned home centers
go first, fleets before armies, then in alphabetical order (DATC 6.J).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board
from hegemon.legality import Illegal, commanded_unit
from hegemon.orders import Build, Disband, Order, Waive
from hegemon.position import Position, Unit, editable
from hegemon.reasons import BUILD_WAIVED, BUILT, CIVIL_DISORDER, DISBANDED, Void
from hegemon.rules import Rules


class AdjustmentResult(NamedTuple):
    units: Mapping[str, Unit]
    outcomes: tuple[Outcome, ...]
    built: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


def adjustment_balances(position: Position, rules: Rules) -> dict[str, int]:
    """Builds due (positive) or disbands due (negative) for every power with a center or
    a unit: its allowance less its units that need supply."""
    supplied = _supplied(position, rules)
    balance = {
        power: rules.allowance(power, n, position) - supplied.get(power, 0)
        for power, n in position.center_counts.items()
    }
    for power, n in supplied.items():
        if power not in balance:  # a power with no center: the allowance of none
            balance[power] = rules.allowance(power, 0, position) - n
    return balance


def _supplied(position: Position, rules: Rules) -> dict[str, int]:
    """Each power's units that need supply, by power in the order the units first name
    them. Counted run by run of one power's units (a position lists many of a power's
    units together): reading and writing the dict once a run, where doing so for every
    unit cost most of asking whether anyone is due to adjust, after every Fall."""
    supplied: dict[str, int] = {}
    standard = type(rules).needs_supply is Rules.needs_supply  # standard: the kind says
    power, run = "", 0  # the run being counted: its power's units so far
    for unit in position.units.values():
        if not (unit.type.supply if standard else rules.needs_supply(unit)):
            continue
        if unit.power != power:
            if run:
                supplied[power] = supplied.get(power, 0) + run
            power, run = unit.power, 0
        run += 1
    if run:
        supplied[power] = supplied.get(power, 0) + run
    return supplied


def adjudicate_adjustments(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    homes: Mapping[str, frozenset[str]],
    rules: Rules,
) -> AdjustmentResult:
    winter = _Winter(board, position, homes, rules)
    # Builds nobody orders are waived; disbands nobody orders come from civil disorder.
    due = {power for power, balance in winter.balances.items() if balance < 0}
    for power in sorted(due | set(orders)):
        winter.adjust(power, orders.get(power, ()))
    return AdjustmentResult(
        winter.units, tuple(winter.outcomes), tuple(winter.built), tuple(winter.disbanded)
    )


class _Winter:
    """One adjustment phase in progress: the units as they stand, and what was done."""

    def __init__(
        self, board: Board, position: Position, homes: Mapping[str, frozenset[str]], rules: Rules
    ) -> None:
        self.board, self.position, self.homes, self.rules = board, position, homes, rules
        self.units = editable(position.units)
        self.balances = adjustment_balances(position, rules)
        self.outcomes: list[Outcome] = []
        self.built: list[Unit] = []
        self.disbanded: list[Unit] = []

    def adjust(self, power: str, orders: Sequence[Order]) -> None:
        balance = self.balances.get(power, 0)
        if balance >= 0:
            if orders:  # builds not ordered are waived
                self._builds(power, orders, balance)
            return
        gone = self._disbands(power, orders, -balance)
        forced = self._civil_disorder(power, -balance - len(gone))
        self.outcomes.extend(
            Outcome(power, Disband(u.type, u.location), Verdict.SUCCEEDS, CIVIL_DISORDER)
            for u in forced
        )
        self.disbanded.extend(gone + forced)

    def _void(self, power: str, order: Order, reason: str) -> None:
        self.outcomes.append(Outcome(power, order, Verdict.VOID, Void(reason)))

    def _builds(self, power: str, orders: Sequence[Order], allowed: int) -> None:
        homes = self.homes.get(power, frozenset())
        sites = self.rules.build_sites(power, homes, self.position)
        mine: list[Unit] = []
        used = 0
        for order in orders:
            if not isinstance(order, (Build, Waive)):
                self._void(
                    power, order, "no disbands are due" if allowed else "no adjustments are due"
                )
            elif used >= allowed:  # DATC 6.I.1, 6.I.7
                self._void(power, order, "no builds left")
            elif isinstance(order, Waive):
                used += 1
                self.outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, BUILD_WAIVED))
            else:
                unit = _check_build(self.board, self.units, power, order, sites)
                problem = (
                    unit.reason
                    if isinstance(unit, Illegal)
                    else (self.rules.build_problem(power, unit, mine, homes))
                )
                if problem is not None or isinstance(unit, Illegal):
                    self._void(power, order, problem or "")
                    continue
                used += 1
                self.units[unit.province] = unit
                mine.append(unit)
                built = (
                    order if order.location == unit.location else Build(unit.type, unit.location)
                )
                self.outcomes.append(Outcome(power, built, Verdict.SUCCEEDS, BUILT))
        self.built.extend(mine)

    def _disbands(self, power: str, orders: Sequence[Order], due: int) -> list[Unit]:
        gone: list[Unit] = []
        for order in orders:
            if not isinstance(order, Disband):
                self._void(power, order, "disbands are due")
                continue
            unit = commanded_unit(self.board, self.units.get(order.province), power, order)
            if isinstance(unit, Illegal):  # DATC 6.J.1, 6.J.2
                self._void(power, order, unit.reason)
            elif not self.rules.needs_supply(unit):
                self._void(power, order, f"{unit.type.plural} need no supply center")
            elif len(gone) >= due:
                self._void(power, order, "no more disbands due")
            else:
                del self.units[unit.province]
                gone.append(unit)
                self.outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, DISBANDED))
        return gone

    def _civil_disorder(self, power: str, due: int) -> list[Unit]:
        """The `due` units farthest from where the rules measure (standard: the power's home
        centers, owned or not; DATC 6.J), among those that need supply."""
        if due <= 0:
            return []
        homes = self.homes.get(power, frozenset())
        sources = self.rules.disorder_sources(power, homes, self.position)
        beyond = len(self.board.provinces)  # out of reach counts as farthest

        def distance(unit: Unit) -> int:
            any_province = self.rules.disorder_by_any_province(unit)
            found = self.board.distance(unit.location, sources, any_province)
            return beyond if found is None else found

        mine = [u for u in self.units.values() if u.power == power and self.rules.needs_supply(u)]
        mine.sort(
            key=lambda u: (
                -distance(u),
                u.type.by_land,  # fleets first
                self.board.provinces[u.province].name,
            )
        )
        for unit in mine[:due]:
            del self.units[unit.province]
        return mine[:due]


def _check_build(
    board: Board, units: Mapping[str, Unit], power: str, order: Build, sites: frozenset[str]
) -> Unit | Illegal:
    province = order.province
    if province not in sites:  # DATC 6.I.5, 6.I.6
        return Illegal(f"{board.name_of(province)} is not a supply center where {power} may build")
    if province in units:  # DATC 6.I.3, 6.I.4, 6.I.7
        return Illegal(f"{board.name_of(province)} is occupied")
    location = order.location
    if not order.unit.buildable:
        return Illegal(f"{order.unit.plural} are not built in adjustment phases")
    if order.unit.by_land:
        location = province
    elif board.provinces[province].coasts and location == province:
        coasts = " or ".join(board.locations(province))
        return Illegal(
            f"say on which coast of {board.name_of(province)} to build the fleet: {coasts}"
        )
    if not board.can_hold(order.unit, location):  # DATC 6.I.2
        return Illegal(f"{order.unit.article} cannot be built in {board.name_of(location)}")
    return Unit(power, order.unit, location)
