"""Resolution of a winter adjustment phase: builds, waives and disbands.

Each power may build as many units as it has supply centers beyond its units, in vacant
build sites (standard: owned home centers), or must disband the excess. A power that
disbands too few is put in civil disorder: its units farthest from its owned home centers
go first, fleets before armies, then in alphabetical order (DATC 6.J).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board, UnitType
from hegemon.legality import Illegal, commanded_unit
from hegemon.orders import Build, Disband, Order, Waive
from hegemon.position import Position, Unit
from hegemon.rules import Rules


@dataclass(frozen=True)
class AdjustmentResult:
    units: Mapping[str, Unit]
    outcomes: tuple[Outcome, ...]
    built: tuple[Unit, ...]
    disbanded: tuple[Unit, ...]


def adjustment_balance(position: Position, power: str) -> int:
    """Builds due (positive) or disbands due (negative) for a power."""
    centers = sum(1 for owner in position.centers.values() if owner == power)
    units = sum(1 for unit in position.units.values() if unit.power == power)
    return centers - units


def adjudicate_adjustments(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    homes: Mapping[str, frozenset[str]],
    rules: Rules,
) -> AdjustmentResult:
    units = dict(position.units)
    outcomes: list[Outcome] = []
    built: list[Unit] = []
    disbanded: list[Unit] = []
    powers = sorted(
        {u.power for u in units.values()} | set(position.centers.values()) | set(orders)
    )
    for power in powers:
        balance = adjustment_balance(position, power)
        given = orders.get(power, ())
        if balance >= 0:
            sites = rules.build_sites(power, homes.get(power, frozenset()), position)
            news = _builds(board, units, power, given, balance, sites, outcomes)
            built.extend(news)
        else:
            gone = _disbands(board, units, power, given, -balance, outcomes)
            forced = _civil_disorder(board, units, power, -balance - len(gone), homes, position)
            outcomes.extend(
                Outcome(
                    power,
                    Disband(u.type, u.location),
                    Verdict.SUCCEEDS,
                    "Civil disorder: disbanded",
                )
                for u in forced
            )
            disbanded.extend(gone + forced)
    return AdjustmentResult(units, tuple(outcomes), tuple(built), tuple(disbanded))


def _builds(
    board: Board,
    units: dict[str, Unit],
    power: str,
    orders: Sequence[Order],
    allowed: int,
    sites: frozenset[str],
    outcomes: list[Outcome],
) -> list[Unit]:
    built: list[Unit] = []
    used = 0
    for order in orders:
        if not isinstance(order, Build | Waive):
            reason = "no disbands are due" if allowed else "no adjustments are due"
            outcomes.append(Outcome(power, order, Verdict.VOID, f"Void: {reason}"))
            continue
        if used >= allowed:  # DATC 6.I.1, 6.I.7
            outcomes.append(Outcome(power, order, Verdict.VOID, "Void: no builds left"))
            continue
        if isinstance(order, Waive):
            used += 1
            outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, "Build waived"))
            continue
        unit = _check_build(board, units, power, order, sites)
        if isinstance(unit, Illegal):
            outcomes.append(Outcome(power, order, Verdict.VOID, f"Void: {unit.reason}"))
            continue
        used += 1
        units[unit.province] = unit
        built.append(unit)
        outcomes.append(Outcome(power, Build(unit.type, unit.location), Verdict.SUCCEEDS, "Built"))
    return built


def _check_build(
    board: Board, units: Mapping[str, Unit], power: str, order: Build, sites: frozenset[str]
) -> Unit | Illegal:
    province = order.province
    name = board.name_of(province)
    if province not in sites:  # DATC 6.I.5, 6.I.6
        return Illegal(f"{name} is not a supply center where {power} may build")
    if province in units:  # DATC 6.I.3, 6.I.4, 6.I.7
        return Illegal(f"{name} is occupied")
    location = order.location
    if order.unit is UnitType.ARMY:
        location = province
    elif board.provinces[province].coasts and location == province:
        coasts = " or ".join(board.locations(province))
        return Illegal(f"say on which coast of {name} to build the fleet: {coasts}")
    if not board.can_hold(order.unit, location):  # DATC 6.I.2
        return Illegal(
            f"{'an army' if order.unit is UnitType.ARMY else 'a fleet'} "
            f"cannot be built in {board.name_of(location)}"
        )
    return Unit(power, order.unit, location)


def _disbands(
    board: Board,
    units: dict[str, Unit],
    power: str,
    orders: Sequence[Order],
    due: int,
    outcomes: list[Outcome],
) -> list[Unit]:
    gone: list[Unit] = []
    for order in orders:
        if not isinstance(order, Disband):
            outcomes.append(Outcome(power, order, Verdict.VOID, "Void: disbands are due"))
            continue
        unit = commanded_unit(board, units.get(order.province), power, order)
        if isinstance(unit, Illegal):  # DATC 6.J.1, 6.J.2
            outcomes.append(Outcome(power, order, Verdict.VOID, f"Void: {unit.reason}"))
            continue
        if len(gone) >= due:
            outcomes.append(Outcome(power, order, Verdict.VOID, "Void: no more disbands due"))
            continue
        del units[unit.province]
        gone.append(unit)
        outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, "Disbanded"))
    return gone


def _civil_disorder(
    board: Board,
    units: dict[str, Unit],
    power: str,
    due: int,
    homes: Mapping[str, frozenset[str]],
    position: Position,
) -> list[Unit]:
    if due <= 0:
        return []
    own_homes = [c for c in homes.get(power, ()) if position.centers.get(c) == power]
    distance = board.distances_from(own_homes or list(homes.get(power, ())))
    mine = [u for u in units.values() if u.power == power]
    mine.sort(
        key=lambda u: (
            -distance.get(u.province, len(board.provinces)),
            u.type is not UnitType.FLEET,
            board.provinces[u.province].name,
        )
    )
    gone = mine[:due]
    for unit in gone:
        del units[unit.province]
    return gone
