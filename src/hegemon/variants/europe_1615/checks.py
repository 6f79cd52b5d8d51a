"""Why a power's orders of Europe 1615's own kinds may not be given, judged only on what
that power may know: its own INFs and spending, and what is public (statuses, captures,
alliances, the map). Whatever hangs on the other powers' secret INFs is decided at
adjudication and reported then."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hegemon import game
from hegemon.influence.orders import Deploy, DiplomaticAttack
from hegemon.orders import Order, UnitOrder, format_order
from hegemon.position import Position
from hegemon.variants.europe_1615.ledger import CATHOLIC, OTTOMAN, Ledger
from hegemon.variants.europe_1615.orders import AllianceOffer, EmpireOrder
from hegemon.variants.europe_1615.states import State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def order_problems(
    variant: Europe1615, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Every reason the orders may not be given, each naming its order."""
    ledger = Ledger.of(position)
    return [
        *influence_problems(variant, ledger, position, power, orders),
        *_alliance_problems(variant, ledger, position, power, orders),
        *_empire_problems(variant, position, orders),
    ]


def influence_problems(
    variant: Europe1615, ledger: Ledger, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Why a power's deployments and diplomatic attack may not be made as given. At
    adjudication, a power's influence orders with any of these problems are ignored as a
    whole, as a game master would return the list."""
    deploys, attacks = influence_orders(orders)
    return allocation_problems(variant, ledger, position, power, deploys, attacks)


def allocation_problems(
    variant: Europe1615,
    ledger: Ledger,
    position: Position,
    power: str,
    deploys: Sequence[Deploy],
    attacks: Sequence[DiplomaticAttack],
) -> list[str]:
    """`influence_problems`, of the power's deployments and attacks found already."""
    if not deploys and not attacks:
        return []
    if power in ledger.eliminated:  # rules: ELIMINATION
        return [f"{power} was eliminated: it neither receives nor deploys INFs"]
    return [
        *_deployment_problems(variant, ledger, power, deploys),
        *_attack_problems(variant, ledger, position, power, attacks, deploys),
    ]


def influence_orders(orders: Sequence[Order]) -> tuple[list[Deploy], list[DiplomaticAttack]]:
    """The deployments and the diplomatic attacks among a power's orders, each in order.
    The unit orders, most of them, are passed over first: compiled, a check of their
    class is a type's, and a check of an influence order's class (written in Python) is
    a call, asked of every order of every phase."""
    deploys: list[Deploy] = []
    attacks: list[DiplomaticAttack] = []
    for order in orders:
        if isinstance(order, UnitOrder):
            continue
        if isinstance(order, Deploy):
            deploys.append(order)
        elif isinstance(order, DiplomaticAttack):
            attacks.append(order)
    return deploys, attacks


def deployable(variant: Europe1615, ledger: Ledger, power: str) -> set[str]:
    """The states (ids) `power` may deploy INFs to now: those a deployment of one INF has
    no problem in (`influence_problems`), found without making one, as a menu asks of
    every state for every power."""
    if power in ledger.eliminated or _left(ledger, power) < 1:
        return set()
    return {s.id for s in variant.states.values() if _closed(variant, ledger, power, s) is None}


def attackable(variant: Europe1615, ledger: Ledger, position: Position, power: str) -> set[str]:
    """The states (ids) where `power` may make its diplomatic attack now on another power
    with the INFs it held as the phase began: those such an attack, alone, has no problem
    in (`influence_problems`; a negative balance of INFs is what `_deployment_problems`
    finds in no deployment at all)."""
    if power in ledger.eliminated or _left(ledger, power) < 0 or power in ledger.attacked:
        return set()
    # Through the ledger's INFs, not `Ledger.held` of every state: each `get` of a
    # mapping is a method call.
    held_in = {s for s, held in ledger.inf.items() if s != OTTOMAN and held.get(power, 0)}
    # The first phase asked last, and only where there are INFs to attack with: compiled,
    # the variant's `first_phase` and the comparison of phases are Python calls.
    if held_in and position.phase == variant.first_phase:
        return set()
    return held_in


def _left(ledger: Ledger, power: str) -> int:
    """The INFs `power` has left to deploy this year."""
    return ledger.income.get(power, 0) - ledger.spent.get(power, 0)


def _closed(variant: Europe1615, ledger: Ledger, power: str, state: State) -> str | None:
    """Why `power` may deploy no INFs to the state at all, if it may not."""
    if state.id in ledger.captured:  # rules: Capture of the minor state
        return f"{state.name} was captured and takes no INFs"
    if state.catholic_only and variant.religion.get(power) != CATHOLIC:
        return f"only Catholic powers may deploy to {state.name}"
    return None


def _deployment_problems(
    variant: Europe1615, ledger: Ledger, power: str, deploys: Sequence[Deploy]
) -> list[str]:
    problems = []
    available = _left(ledger, power)
    total = 0
    for deployment in deploys:  # a loop: compiled, `sum` of a generator is calls
        total += deployment.points
    if total > available:  # rules: DEPLOYMENT
        problems.append(
            f"deployments total {total} INFs, but {power} has {available} left this year"
        )
    for order in deploys:
        if order.points < 1:
            problems.append(f"{format_order(order)}: a deployment is at least 1 INF")
        elif closed := _closed(variant, ledger, power, variant.states[order.state]):
            problems.append(f"{format_order(order)}: {closed}")
    return problems


def _attack_problems(
    variant: Europe1615,
    ledger: Ledger,
    position: Position,
    power: str,
    attacks: Sequence[DiplomaticAttack],
    deploys: Sequence[Deploy],
) -> list[str]:
    """THE DIPLOMATIC ATTACK ORDER: once a year, not in the first movement phase, never in
    the Ottoman Empire, against another power, from a state where the attacker "has
    deployed or will be deploying INFs" (this phase's deployments count)."""
    problems = []
    if len(attacks) > 1 or (attacks and power in ledger.attacked):
        problems.append(f"{power} may make only one diplomatic attack a year")
    for attack in attacks:
        reasons = _attack_reasons(variant, ledger, position, power, attack, deploys)
        # The order written out only for a reason to give: most attacks have none.
        problems += [f"{format_order(attack)}: {reason}" for reason in reasons]
    return problems


def _attack_reasons(
    variant: Europe1615,
    ledger: Ledger,
    position: Position,
    power: str,
    attack: DiplomaticAttack,
    deploys: Sequence[Deploy],
) -> list[str]:
    """Why the attack may not be made, each reason without the order it is about."""
    reasons = []
    deploying = 0
    for deployment in deploys:  # a loop: compiled, `sum` of a generator is calls
        if deployment.state == attack.state:
            deploying += deployment.points
    if position.phase == variant.first_phase:
        reasons.append("no diplomatic attacks in the first movement phase")
    if attack.state == OTTOMAN:
        reasons.append("no diplomatic attacks in the Ottoman Empire")
    elif ledger.held(attack.state, power) + deploying == 0:
        name = variant.states[attack.state].name
        reasons.append(
            f"{power} holds no INFs in {name}, and an attacker must have deployed or be "
            "deploying INFs in the state it attacks in"
        )
    if attack.target == power:
        reasons.append("a power cannot attack itself")
    return reasons


def _alliance_problems(
    variant: Europe1615, ledger: Ledger, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Optional Alliances: two players, before the deadline year, once and for good."""
    offers = [o for o in orders if isinstance(o, AllianceOffer)]
    problems = []
    if len(offers) > 1:
        problems.append(f"{power} may offer one alliance at a time")
    partner = _partners(ledger)
    for offer in offers:
        barred = _offer_barred(variant, ledger, position, power, offer.ally, partner)
        problems += [f"{format_order(offer)}: {reason}" for reason in barred]
    return problems


def offerable(variant: Europe1615, ledger: Ledger, position: Position, power: str) -> list[str]:
    """The powers `power` may offer an alliance to now, in the powers' order: those an
    offer to, alone, has no problem with (`order_problems`), found without making one."""
    if position.phase.year >= variant.alliance_deadline or power not in variant.powers:
        return []  # as `_offer_barred` says of every power, without writing why
    partner = _partners(ledger)
    return [
        ally
        for ally in variant.powers
        if not _offer_barred(variant, ledger, position, power, ally, partner)
    ]


def _partners(ledger: Ledger) -> dict[str, str]:
    """Each allied power's partner."""
    return {p: q for pair in ledger.allies for p, q in (pair, pair[::-1])}


def _offer_barred(
    variant: Europe1615,
    ledger: Ledger,
    position: Position,
    power: str,
    ally: str,
    partner: dict[str, str],
) -> list[str]:
    """Why `power` may not offer `ally` an alliance now, if it may not."""
    if position.phase.year >= variant.alliance_deadline:
        return [f"alliances are formed before {variant.alliance_deadline}"]
    if power not in variant.powers:  # a state's orders, its patron's to give
        return [f"{power} is a minor state: alliances are formed by two players"]
    if ally == power:
        return ["a power cannot ally with itself"]
    if ally in ledger.eliminated:
        return [f"{ally} was eliminated"]
    return [
        f"{side} is already allied with {partner[side]}"
        for side in (power, ally)
        if side in partner
    ]


def _empire_problems(variant: Europe1615, position: Position, orders: Sequence[Order]) -> list[str]:
    """Orders for the Empire's units are checked as the Empire's own, against what
    everyone may know; whether their sender is its patron is decided at adjudication."""
    given = [o.order for o in orders if isinstance(o, EmpireOrder)]
    return game.order_problems(variant, position, variant.ottoman.name, given) if given else []
