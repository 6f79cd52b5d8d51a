"""The steps before a Europe 1615 phase is adjudicated (rules: Steps in resolving the
orders): the INFs deployed, the diplomatic attacks, every state's status, then the orders
each unit follows, the clients' from their patrons; and declarations of alliance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from hegemon.influence.inf import (
    Attack,
    deploy,
    diplomatic_attacks,
    political_status,
    religious_control,
)
from hegemon.orders import Build, Order, UnitOrder, format_order
from hegemon.position import Position, Unit
from hegemon.variants.europe_1615.checks import influence_orders, influence_problems
from hegemon.variants.europe_1615.ledger import OTTOMAN, Ledger
from hegemon.variants.europe_1615.lines import attack_lines
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver, EmpireOrder
from hegemon.variants.europe_1615.states import BARBARY, EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def deploy_and_attack(
    variant: Europe1615, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Ledger, list[str]]:
    """Steps 1 to 3: the deployments, the diplomatic attacks in the year's sequence, the
    statuses; and the attack lines for the report."""
    ledger = Ledger.of(position)
    deployments: dict[str, dict[str, int]] = {}
    attacks: list[Attack] = []
    for power, given in orders.items():
        if power not in variant.powers or influence_problems(
            variant, ledger, position, power, given
        ):
            continue  # an allocation that breaks the rules is ignored as a whole
        deploys, attacking = influence_orders(given)
        for deployment in deploys:
            placed = deployments.setdefault(power, {})
            placed[deployment.state] = placed.get(deployment.state, 0) + deployment.points
        attacks += [Attack(power, a.state, a.target) for a in attacking]
    holdings = deploy(ledger.inf, deployments)
    spent = dict(ledger.spent)
    for power, placed in deployments.items():
        spent[power] = spent.get(power, 0) + sum(placed.values())
    holdings, results = diplomatic_attacks(holdings, attacks, ledger.sequence)
    attacked = ledger.attacked + [a.attacker for a in attacks]
    remaining = {s: {p: n for p, n in h.items() if n > 0} for s, h in holdings.items()}
    status, religion = statuses(variant, ledger, remaining, position.phase.year)
    # One new ledger, not one for the INFs and another for the statuses: making one
    # copies every field of the ledger.
    ledger = replace(
        ledger, inf=remaining, spent=spent, attacked=attacked, status=status, religion=religion
    )
    return ledger, attack_lines(variant, results)


def judge(variant: Europe1615, ledger: Ledger, year: int) -> Ledger:
    """The ledger with every state's status judged from its INFs (`statuses`)."""
    status, religion = statuses(variant, ledger, ledger.inf, year)
    return replace(ledger, status=status, religion=religion)


def statuses(
    variant: Europe1615, ledger: Ledger, inf: dict[str, dict[str, int]], year: int
) -> tuple[dict[str, list[str | None]], dict[str, str]]:
    """Every state's political and religious status from the INFs `inf` (rules: Status of
    the Minor States, Religious Status); a captured state keeps its religion for good."""
    status: dict[str, list[str | None]] = {}
    religion = {s: f for s, f in ledger.religion.items() if s in ledger.captured}
    # The year's thresholds, read once for every state rather than once for each.
    thresholds, faiths = variant.thresholds, variant.religion
    minor_least, minor_share = thresholds["minor_minimum"], thresholds["minor_share"]
    ottoman_least, ottoman_share = (
        thresholds["ottoman_minimum"],
        variant.ottoman_share.get(year, 50),
    )
    faith_least, faith_share = (
        thresholds["religious_minimum"],
        variant.religious_share.get(year, 50),
    )
    for state in variant.states.values():
        if state.id in ledger.captured:
            continue
        held = inf.get(state.id, {})
        if state.kind == EMPIRE:
            result = political_status(held, ottoman_least, ottoman_share, True)
        else:
            result = political_status(held, minor_least, minor_share, state.kind == BARBARY)
        status[state.id] = [str(result.standing), result.patron]
        faith = state.fixed_religion or religious_control(held, faiths, faith_share, faith_least)
        if faith:
            religion[state.id] = faith
    return status, religion


def client_orders(
    variant: Europe1615, position: Position, ledger: Ledger, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[str, list[Order]], list[str]]:
    """The orders each unit follows, by the name it is adjudicated under: a power's for
    its own units, a patron's for its client's units under the state's name (STATUS
    (3)). Then, for the report, the orders given to a state not aligned with its sender,
    but for the Empire's: who tried to command the Empire stays as secret as its patron."""
    units = position.all_units
    # Read once, not for every order: a cached property of a class written in Python.
    owners = variant.state_of_owner
    given: dict[str, list[Order]] = {}
    ignored: list[str] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            if isinstance(order, UnitOrder):  # first: compiled, the cheaper check
                state = _client(owners, position, order, units)
                if state is None:
                    given.setdefault(power, []).append(order)
                elif ledger.patron(state.id) == power:
                    given.setdefault(state.name, []).append(order)
                elif state.kind != EMPIRE:
                    standing = ledger.standing(state.id).value
                    ignored.append(
                        f"   {power}: {format_order(order)} ({state.name} is {standing})"
                    )
            elif isinstance(order, EmpireOrder) and ledger.patron(OTTOMAN) == power:
                given.setdefault(variant.ottoman.name, []).append(order.order)
    return given, ignored


def _client(
    owners: Mapping[str, State], position: Position, order: UnitOrder, units: Mapping[str, Unit]
) -> State | None:
    """The state whose unit an order names (for a build, whose center it is in), of the
    states by their `owners`' names."""
    if isinstance(order, Build):
        owner = position.centers.get(order.province)
    else:
        unit = units.get(order.province)
        owner = unit.power if unit is not None else None
    return owners.get(owner) if owner is not None else None


def declare(
    variant: Europe1615, position: Position, ledger: Ledger, orders: Mapping[str, Sequence[Order]]
) -> tuple[Ledger, list[str]]:
    """Alliances, formed when both powers have offered one before the deadline year and
    then "declared to the other players"; waivers of capture, kept for the next build
    phase and secret till the game ends."""
    if not any(_declaration(o) for g in orders.values() for o in g):
        return ledger, []  # the ledger as it was: a new one copies every field
    offers = dict(ledger.offers)
    allies = [list(pair) for pair in ledger.allies]
    waived = {p: list(v) for p, v in ledger.waived.items()}
    declared = []
    for power, given in orders.items():
        for order in given:
            if isinstance(order, CaptureWaiver):
                waived.setdefault(power, []).append(order.province)
            elif isinstance(order, AllianceOffer) and _may_ally(
                variant, position, ledger, power, order.ally
            ):
                offers[power] = order.ally
                mutual = offers.get(order.ally) == power
                if mutual and not _allied(allies, power) and not _allied(allies, order.ally):
                    pair = sorted((power, order.ally))
                    allies.append(pair)
                    declared.append(f"   {pair[0]} and {pair[1]}")
    ledger = replace(ledger, offers=offers, allies=allies, waived=waived)
    return ledger, (["Alliances declared", *declared] if declared else [])


def _declaration(order: Order) -> bool:
    """Whether the order is a waiver or an alliance offer, asked of every order of every
    phase: one class at a time, as compiled an isinstance of a tuple is a slow call, and
    a unit order (most of them) first, a type's check where the others' are calls."""
    if isinstance(order, UnitOrder):
        return False
    if isinstance(order, CaptureWaiver):
        return True
    return isinstance(order, AllianceOffer)


def _may_ally(
    variant: Europe1615, position: Position, ledger: Ledger, power: str, ally: str
) -> bool:
    return (
        position.phase.year < variant.alliance_deadline
        and power != ally
        and ally in variant.powers
        and not {power, ally} & set(ledger.eliminated)
        and not _allied(ledger.allies, power)
        and not _allied(ledger.allies, ally)
    )


def _allied(allies: Sequence[Sequence[str]], power: str) -> bool:
    return any(power in pair for pair in allies)
