"""Resolution of a retreat phase.

A dislodged unit may retreat to an adjacent province that is empty, was not left empty by
a standoff, and is not where its attacker came from (unless the attacker was convoyed,
DATC 6.H.11). Two retreats to one province both fail; a unit without a valid retreat
order is disbanded. Units aboard a dislodged unit go where it goes, and are lost with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board, province_of
from hegemon.legality import Illegal, commanded_unit, fleet_destination
from hegemon.orders import Disband, Move, Order, Retreat, place
from hegemon.position import Dislodgement, Position, Unit, editable
from hegemon.reasons import SUCCEEDED, Disbanded, Reason, Void
from hegemon.rules import Rules


class RetreatResult(NamedTuple):
    units: Mapping[str, Unit]
    outcomes: tuple[Outcome, ...]
    disbanded: tuple[Unit, ...]


def retreat_options(
    board: Board, position: Position, dislodgement: Dislodgement, rules: Rules
) -> list[str]:
    """Every location the dislodged unit may retreat to, in board order."""
    unit = dislodgement.unit
    return [
        location
        for location in sorted(board.neighbours(unit.type, unit.location))
        if _open(position, dislodgement, rules, location)
    ]


def may_retreat(board: Board, position: Position, dislodgement: Dislodgement, rules: Rules) -> bool:
    """Whether the dislodged unit has anywhere to retreat (`retreat_options`, without
    sorting them all): asked of every unit a movement phase dislodges."""
    unit = dislodgement.unit
    neighbours = board.neighbours(unit.type, unit.location)
    return any(_open(position, dislodgement, rules, location) for location in neighbours)


def _open(position: Position, dislodgement: Dislodgement, rules: Rules, location: str) -> bool:
    """Whether the dislodged unit may retreat to `location`."""
    province = province_of(location)
    return (
        province not in position.units
        and province not in position.contested
        and province != dislodgement.attacker_from
        and rules.may_enter(dislodgement.unit, province)
    )


def adjudicate_retreats(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules
) -> RetreatResult:
    outcomes: list[Outcome] = []
    chosen: dict[str, str | None] = {}  # dislodged unit's province -> target, None to disband
    for power, power_orders in orders.items():
        for order in power_orders:
            target = _check_retreat(board, position, power, order, rules)
            if isinstance(target, Illegal):
                outcomes.append(Outcome(power, order, Verdict.VOID, Void(target.reason)))
            elif isinstance(order, (Retreat, Move, Disband)):
                chosen[order.province] = target
    crowded = _crowded_targets(chosen)
    units = editable(position.units)
    disbanded = []
    for province, dislodgement in position.dislodged.items():
        unit = dislodgement.unit
        target = chosen.get(province)
        if target is None:
            why = Disbanded(
                Reason.DISBANDED if province in chosen else Reason.NO_RETREAT, lost_aboard(unit)
            )
            order = Disband(unit.type, unit.location)
            outcomes.append(Outcome(unit.power, order, Verdict.SUCCEEDS, why))
            disbanded.append(unit)
            continue
        retreat = Retreat(unit.type, unit.location, target)
        rivals = tuple(r for r in crowded.get(province_of(target), ()) if r != province)
        if rivals:  # DATC 6.H.7, 6.H.8: all retreats to one province fail
            why = Disbanded(Reason.RETREAT_BOUNCED, lost_aboard(unit), rivals)
            told = tuple(place(r) for r in rivals)
            outcomes.append(Outcome(unit.power, retreat, Verdict.FAILS, why, told))
            disbanded.append(unit)
        else:
            units[province_of(target)] = unit.moved_to(target)
            outcomes.append(Outcome(unit.power, retreat, Verdict.SUCCEEDS, SUCCEEDED))
    return RetreatResult(units, tuple(outcomes), tuple(disbanded))


def lost_aboard(unit: Unit) -> tuple[str, ...]:
    """The letters of the units lost aboard a unit disbanded: ``("M",)``."""
    return tuple(u.type.letter for u in unit.cargo)


def _crowded_targets(chosen: Mapping[str, str | None]) -> dict[str, list[str]]:
    by_target: dict[str, list[str]] = {}
    for province, target in chosen.items():
        if target is not None:
            by_target.setdefault(province_of(target), []).append(province)
    return {t: ps for t, ps in by_target.items() if len(ps) > 1}


def _check_retreat(
    board: Board, position: Position, power: str, order: Order, rules: Rules
) -> str | Illegal | None:
    """The location retreated to, None for a disband, or why the order is illegal."""
    if not isinstance(order, (Retreat, Move, Disband)):
        return Illegal("only retreats and disbands may be ordered in a retreat phase")
    dislodgement = position.dislodged.get(order.province)
    if dislodgement is None:  # DATC 6.H.4
        return Illegal(f"no unit was dislodged from {board.name_of(order.province)}")
    unit = commanded_unit(board, dislodgement.unit, power, order)
    if isinstance(unit, Illegal):
        return unit
    if isinstance(order, Disband):
        return None
    target = order.target
    if not unit.type.by_land:
        resolved = fleet_destination(board, unit.location, target)
        if isinstance(resolved, Illegal):
            return resolved
        target = resolved
    else:
        target = province_of(target)
    if target not in retreat_options(board, position, dislodgement, rules):  # DATC 6.H.5-6.H.10
        why = _closed(board, position, dislodgement, target)
        return Illegal(
            f"{board.name_of(target)} is not a retreat open to {place(unit.location)}: {why}"
        )
    return target


def _closed(board: Board, position: Position, dislodgement: Dislodgement, target: str) -> str:
    """Why the dislodged unit may not retreat to `target`, in the order `retreat_options`
    asks; every reason is public once the moves are adjudicated."""
    unit = dislodgement.unit
    province = province_of(target)
    if target not in board.neighbours(unit.type, unit.location):
        where = place(unit.location)
        return (
            f"it does not border {where}"
            if unit.type.by_land
            else f"no fleet reaches it from {where}"
        )
    if province in position.units:
        occupant = position.units[province]
        return f"{occupant.type.letter} {place(occupant.location)} stands there"
    if province in position.contested:
        return "a standoff there this turn left it closed"
    if province == dislodgement.attacker_from:
        return "the attack came from there"
    return "the rules close it to this unit"  # `Rules.may_enter`: a neutral state, say
