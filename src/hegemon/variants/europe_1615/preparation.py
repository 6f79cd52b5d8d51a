"""The steps before a Europe 1615 phase is adjudicated (rules: Steps in resolving the
orders): the INFs deployed, the diplomatic attacks, every state's status, then the orders
each unit follows, the clients' from their patrons; and declarations of alliance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Final

from hegemon.game import Lines, Preparation
from hegemon.influence.inf import (
    Attack,
    AttackResult,
    Standing,
    deploy,
    diplomatic_attacks,
    political_status,
    religious_control,
)
from hegemon.orders import Build, Order, UnitOrder, format_order
from hegemon.position import PhaseKind, Position, Unit
from hegemon.variants.europe_1615.checks import allocation_problems, influence_orders
from hegemon.variants.europe_1615.ledger import OTTOMAN, Changes, Ledger
from hegemon.variants.europe_1615.lines import attack_lines, own_lines, status_lines
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver, EmpireOrder
from hegemon.variants.europe_1615.rules import phase_rules
from hegemon.variants.europe_1615.states import BARBARY, EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def prepare(
    variant: Europe1615, position: Position, orders: Mapping[str, Sequence[Order]]
) -> Preparation:
    """The phase as it is resolved (`Europe1615.prepare`): in a movement phase, steps 1 to 3
    (`deploy_and_attack`); any phase's declarations, and the orders each unit follows;
    the rules of the phase from the statuses then. The report's lines are written when
    first read (`_lines`): every state's status and every power's own INFs are much of
    a phase's work."""
    movement = position.phase.kind is PhaseKind.MOVEMENT
    ledger = Ledger.of(position)
    # The phase's changes gathered, and one new ledger made of them: making one copies
    # every field. The declarations read no field the deployments and attacks change.
    changes: Changes = {}
    attacks: list[AttackResult] = []
    if movement:
        changes, attacks = deploy_and_attack(variant, position, orders)
    declared_changes, declared = declare(variant, position, ledger, orders)
    changes.update(declared_changes)
    if ledger.year_end:  # told with the phase before
        changes["year_end"] = []
    if changes:
        ledger = ledger.replace(**changes)
    given, ignored = client_orders(variant, position, ledger, orders)
    after = [*declared, "Orders not followed", *ignored] if ignored else declared
    year = position.phase.year if movement else None
    told = partial(_lines, variant, ledger, year, attacks, after)
    rules = phase_rules(variant, position, ledger, given)
    return Preparation(position.evolve(state=ledger), given, rules=rules, told=told)


def _lines(
    variant: Europe1615,
    ledger: Ledger,
    year: int | None,
    attacks: list[AttackResult],
    after: list[str],
) -> Lines:
    """The report's own lines: in a movement phase (of `year`), the diplomatic `attacks`,
    every state's status and, to each power alone, its own INFs; then the lines `after`
    (alliances declared, orders not followed)."""
    if year is None:
        return Lines(tuple(after), {})
    private = {p: tuple(own_lines(variant, ledger, p, year)) for p in variant.powers}
    public = (*attack_lines(variant, attacks), *status_lines(variant, ledger), *after)
    return Lines(public, private)


def deploy_and_attack(
    variant: Europe1615, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Changes, list[AttackResult]]:
    """Steps 1 to 3: the deployments, the diplomatic attacks in the year's sequence, the
    statuses, as changes to the ledger; and the attacks' results for the report."""
    ledger = Ledger.of(position)
    deployments: dict[str, dict[str, int]] = {}
    attacks: list[Attack] = []
    for power, given in orders.items():
        if power not in variant.powers:
            continue
        deploys, attacking = influence_orders(given)
        if allocation_problems(variant, ledger, position, power, deploys, attacking):
            continue  # an allocation that breaks the rules is ignored as a whole
        for deployment in deploys:
            placed = deployments.setdefault(power, {})
            placed[deployment.state] = placed.get(deployment.state, 0) + deployment.points
        attacks += [Attack(power, a.state, a.target) for a in attacking]
    holdings = deploy(ledger.inf, deployments)
    spent = dict(ledger.spent)
    for power, placed in deployments.items():
        spent[power] = spent.get(power, 0) + sum(placed.values())
    results: list[AttackResult] = []
    if attacks:  # none in many phases: the INFs are then not copied once more
        holdings, results = diplomatic_attacks(holdings, attacks, ledger.sequence)
    attacked = ledger.attacked + [a.attacker for a in attacks]
    remaining = _without_spent(holdings)
    status, religion = statuses(variant, ledger, remaining, position.phase.year)
    changes: Changes = {
        "inf": remaining,
        "spent": spent,
        "attacked": attacked,
        "status": status,
        "religion": religion,
    }
    return changes, results


def _without_spent(holdings: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The INFs (this phase's own tables, which `deploy` and `diplomatic_attacks` make
    anew) without the powers an attack left none to: those tables changed in place, not
    copied a third time, as a state rarely has such a power."""
    for held in holdings.values():
        if all(amount > 0 for amount in held.values()):  # compiled, a loop, not a call
            continue  # nearly every state: no list made of nobody
        spent = [power for power, amount in held.items() if amount <= 0]
        for power in spent:
            del held[power]
    return holdings


def judge(variant: Europe1615, ledger: Ledger, year: int) -> Ledger:
    """The ledger with every state's status judged from its INFs (`statuses`)."""
    status, religion = statuses(variant, ledger, ledger.inf, year)
    return ledger.replace(status=status, religion=religion)


# A state's INFs where it has none: one empty table, read only, not one made for each.
_NO_INFS: Final[dict[str, int]] = {}


def statuses(
    variant: Europe1615, ledger: Ledger, inf: dict[str, dict[str, int]], year: int
) -> tuple[dict[str, list[str | None]], dict[str, str]]:
    """Every state's political and religious status from the INFs `inf` (rules: Status of
    the Minor States, Religious Status); a captured state keeps its religion for good."""
    status: dict[str, list[str | None]] = {}
    captured = set(ledger.captured)  # asked of every state: a set's lookup, not a list's scan
    religion = {s: f for s, f in ledger.religion.items() if s in captured}
    # The year's thresholds, read once for every state rather than once for each; the
    # powers' faiths as a dict, which compiled code reads without a call.
    thresholds, faiths = variant.thresholds, dict(variant.religion)
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
        if state.id in captured:
            continue
        held = inf.get(state.id, _NO_INFS)
        if state.kind == EMPIRE:
            result = political_status(held, ottoman_least, ottoman_share, True)
        else:
            result = political_status(held, minor_least, minor_share, state.kind == BARBARY)
        status[state.id] = [_written(result.standing), result.patron]
        faith = state.fixed_religion or (  # no INFs, no control: not asked
            religious_control(held, faiths, faith_share, faith_least) if held else None
        )
        if faith:
            religion[state.id] = faith
    return status, religion


# The standings and their texts, read as constants: compiled, each is then no lookup on
# its class, and no call of `str` or `value`.
_ALIGNED: Final = Standing.ALIGNED
_NEUTRAL: Final = Standing.NEUTRAL
_ALIGNED_TEXT: Final[str] = Standing.ALIGNED.value
_NEUTRAL_TEXT: Final[str] = Standing.NEUTRAL.value
_UNMARKED_TEXT: Final[str] = Standing.UNMARKED.value


def _written(standing: Standing) -> str:
    """The standing's text, as the ledger writes it: told apart by identity, as `str` of
    an enumeration's member is a Python call, for every state every phase."""
    if standing is _ALIGNED:
        return _ALIGNED_TEXT
    return _NEUTRAL_TEXT if standing is _NEUTRAL else _UNMARKED_TEXT


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
                    _follow(given, power, order)
                elif ledger.patron(state.id) == power:
                    _follow(given, state.name, order)
                elif state.kind != EMPIRE:
                    standing = str(ledger.standing(state.id))  # its text, not a call of `value`
                    ignored.append(
                        f"   {power}: {format_order(order)} ({state.name} is {standing})"
                    )
            elif isinstance(order, EmpireOrder) and ledger.patron(OTTOMAN) == power:
                _follow(given, variant.ottoman.name, order.order)
    return given, ignored


def commanded_units(variant: Europe1615, position: Position, power: str) -> list[Unit]:
    """The units `power` commands (`Europe1615.commanded_units`): its own and its
    clients', in the position's order. Here, compiled, rather than in the variant's class:
    every menu of every power and state asks, and the loops interpreted cost several
    times as much."""
    if power not in variant.powers:
        return []  # a state's units are commanded by its patron, if by anyone
    ledger = Ledger.of(position)
    clients = set()
    for state in variant.states.values():
        if state.kind != EMPIRE and ledger.patron(state.id) == power:
            clients.add(state.name)
    return [u for u in position.units.values() if u.power == power or u.power in clients]


def _follow(given: dict[str, list[Order]], name: str, order: Order) -> None:
    """The order added to those followed under `name`: not by `setdefault`, which,
    compiled, makes a list for every order."""
    followed = given.get(name)
    if followed is None:
        given[name] = [order]
    else:
        followed.append(order)


def _client(
    owners: dict[str, State], position: Position, order: UnitOrder, units: dict[str, Unit]
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
) -> tuple[Changes, list[str]]:
    """Alliances, formed when both powers have offered one before the deadline year and
    then "declared to the other players"; waivers of capture, kept for the next build
    phase and secret till the game ends: as changes to the ledger, and lines to report."""
    if not _declares(orders):
        return {}, []  # the ledger as it was: a new one copies every field
    offers = dict(ledger.offers)
    allies = [list(pair) for pair in ledger.allies]
    waived = {p: list(v) for p, v in ledger.waived.items()}
    declared = []
    for power, given in orders.items():
        for order in given:
            if isinstance(order, UnitOrder):  # most orders: passed over, as in `_declares`
                continue
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
    changes: Changes = {"offers": offers, "allies": allies, "waived": waived}
    return changes, (["Alliances declared", *declared] if declared else [])


def _declares(orders: Mapping[str, Sequence[Order]]) -> bool:
    """Whether any order is a waiver or an alliance offer, asked of every order of every
    phase: in loops, not a generator (compiled, a call for every order); one class at a
    time, as compiled an isinstance of a tuple is a slow call; and a unit order (most of
    them) passed over first, a type's check where the others' are calls."""
    for given in orders.values():
        for order in given:
            if isinstance(order, UnitOrder):
                continue
            if isinstance(order, CaptureWaiver):
                return True
            if isinstance(order, AllianceOffer):
                return True
    return False


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
