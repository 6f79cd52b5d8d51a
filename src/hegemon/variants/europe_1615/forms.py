"""The order forms of Europe 1615's own orders, as a power may fill them in: INFs to deploy
in each state and a diplomatic attack there (with the movement orders), an alliance to
offer, a capture to waive, and the orders for the Ottoman Empire's units, which any power
may send and only its secret patron's are followed. Each is offered only where the power
may give it, judged on what that power may know: its own INFs, and what is public."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from hegemon.game.forms import Amount, Choice, Filled, Menu, OneOf, OrderForm, Purse, Stake, listed
from hegemon.game.menus import head, unit_orders
from hegemon.influence.orders import Deploy, DiplomaticAttack
from hegemon.orders import Order, UnitOrder
from hegemon.position import PhaseKind, Position, Unit
from hegemon.variants.europe_1615 import checks
from hegemon.variants.europe_1615.ledger import Ledger
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver, EmpireOrder
from hegemon.variants.europe_1615.states import EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def order_forms(variant: Europe1615, position: Position, power: str) -> Menu:
    """The forms of the orders of Europe 1615's own kinds `power` may give this phase."""
    movement = position.phase.kind is PhaseKind.MOVEMENT
    return (
        *(_influence(variant, position, power) if movement else ()),
        *_alliance(variant, position, power),
        *_waivers(variant, position, power),
        *(_empire(variant, position) if movement else ()),
    )


def _influence(variant: Europe1615, position: Position, power: str) -> list[OrderForm]:
    """INFs to deploy in each state that takes the power's, and an attack on another
    power's INFs where the power may make its attack with the INFs it held as the phase
    began (rules: DEPLOYMENT, THE DIPLOMATIC ATTACK ORDER; an attack where it deploys its
    first INFs this phase is written). The states are those the influence checks accept
    (`checks.deployable`, `checks.attackable`)."""
    if power not in variant.powers:
        return []  # a state's menu (its patron's to fill): it has no INFs to give
    ledger = Ledger.of(position)
    deployable = checks.deployable(variant, ledger, power)
    others = tuple(p for p in variant.powers if p != power)
    attackable = checks.attackable(variant, ledger, position, power) if others else set()
    if not deployable and not attackable:
        return []
    available = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
    purse = Purse("INF", available, _deployed)
    presumed = ledger.presumed_by(power, _published(ledger)) if deployable else {}
    terms = _Terms(variant, position.phase.year)
    faith = variant.religion[power]
    forms = []
    for state in variant.states.values():
        if state.id in deployable:
            faithful = ledger.religion.get(state.id) == faith
            stake = _stake(terms, presumed.get(state.id, {}), state, power, faithful)
            forms.append(_deployment(state, purse, stake))
        if state.id in attackable:
            forms.append(_attack(state, others))
    return forms


def _published(ledger: Ledger) -> dict[str, dict[str, int]]:
    """The shares the ledger publishes, the same for every power: worked out once for all
    the powers' menus of a position (one entry, as `_empire` keeps its forms)."""
    for known, published in _last_published:
        if known is ledger:
            return published
    published = ledger.published()
    _last_published[:] = [(ledger, published)]
    return published


_last_published: list[tuple[Ledger, dict[str, dict[str, int]]]] = []


def _deployed(order: Order) -> int:
    return order.points if isinstance(order, Deploy) else 0


class _Terms:
    """The INFs and share the rules ask for aligning the Ottoman Empire and a minor state
    (STATUS) this year, looked up once for all of a power's states."""

    def __init__(self, variant: Europe1615, year: int) -> None:
        thresholds = variant.thresholds
        self.empire = (thresholds["ottoman_minimum"], variant.ottoman_share.get(year, 50))
        self.minor = (thresholds["minor_minimum"], thresholds["minor_share"])


def _stake(terms: _Terms, held: dict[str, int], state: State, power: str, faithful: bool) -> Stake:
    """What the state's alignment gives `power` at a scoring (twice as much where its own
    faith controls the state, as it now does: public), and the fewest INFs more that would
    align it now, by the INFs `power` can presume there (`held`, by `Ledger.presumed_by`):
    one more than any other power's, at least the minimum, and the share the rules ask."""
    prize = state.vp_aligned_religious if faithful else state.vp_aligned
    mine = total = top = 0  # in one pass: compiled, `sum` and `max` are Python calls
    for holder, n in held.items():
        total += n
        if holder == power:
            mine = n
        elif n > top:
            top = n
    least, share = terms.empire if state.kind == EMPIRE else terms.minor
    by_share = -(-(share * total - 100 * mine) // (100 - share)) if share < 100 else 0
    # The largest of the four, compared one by one: compiled, `max` is a Python call.
    price = 0
    for needed in (least - mine, top + 1 - mine, by_share):
        if needed > price:
            price = needed
    return Stake(prize, price)


def _deployment(state: State, purse: Purse, stake: Stake) -> OrderForm:
    said = _said(state)
    return OrderForm(
        said.deploy_id,
        said.deploy_title,
        sites=state.provinces,
        fields=(Amount("points", said.points, 1, purse.total),),
        action="Deploy INFs",
        spends=purse,
        make=said.deploy,
        stake=stake,
    )


def _attack(state: State, others: tuple[str, ...]) -> OrderForm:
    said = _said(state)
    return OrderForm(
        said.attack_id,
        said.attack_title,
        sites=state.provinces,
        fields=(OneOf("power", said.target, others),),
        action="Attack",
        make=said.attack,
    )


class _Said:
    """What a state's deployment and attack forms say, and the orders they make: the same
    in every power's menu, so written once for each state of the map."""

    def __init__(self, state: str) -> None:
        label = Deploy.shown(state)
        self.state = state
        self.deploy_id, self.deploy_title = f"deploy {state}", f"INFs to {label}"
        self.points = f"INFs to deploy to {label}"
        self.attack_id, self.attack_title = f"attack {state}", f"A diplomatic attack in {label}"
        self.target = f"Attack the INFs in {label} of"

    def deploy(self, filled: Filled) -> Order:
        return Deploy(filled.amount("points"), self.state)

    def attack(self, filled: Filled) -> Order:
        return DiplomaticAttack(self.state, filled.one_of("power"))


def _said(state: State) -> _Said:
    said = _said_of.get(state.id)
    if said is None:
        said = _said_of[state.id] = _Said(state.id)
    return said


# By the state's id, all that what its forms say hangs on: bounded by the map's states.
_said_of: dict[str, _Said] = {}


def _alliance(variant: Europe1615, position: Position, power: str) -> list[OrderForm]:
    """An alliance to offer, to each power it may be offered to (Optional Alliances)."""
    allies = checks.offerable(variant, Ledger.of(position), position, power)
    legal = tuple([_offer(ally) for ally in allies])
    return [OrderForm("ally", "Offer an alliance", legal)] if legal else []


def _offer(ally: str) -> Choice:
    """The offer of an alliance to `ally`, as its form lists it: made once for each power
    of the map (an `AllianceOffer` is a class written in Python, slow to make)."""
    choice = _offers.get(ally)
    if choice is None:
        choice = _offers[ally] = listed(AllianceOffer(ally))
    return choice


# By the power offered an alliance: bounded by the powers of the maps played.
_offers: dict[str, Choice] = {}


def _waivers(variant: Europe1615, position: Position, power: str) -> list[OrderForm]:
    """A capture to waive at the next build, of each state's center the power does not
    hold (Waiving the capture): given by a click on the center."""
    legal = tuple([choice for owner, choice in _owned_waivers(variant, position) if owner != power])
    return [OrderForm("waive", "Waive a capture", legal)] if legal else []


def _owned_waivers(variant: Europe1615, position: Position) -> list[tuple[str | None, Choice]]:
    """The waiver of each state's center, with the center's owner (public): looked up
    once for all the powers' menus of a position (one entry, as `_empire` keeps its
    forms)."""
    centers = position.centers
    for known, owned in _last_owned:
        if known is centers:
            return owned
    owned = [(centers.get(c), choice) for c, choice in _waiver_choices(variant)]
    _last_owned[:] = [(centers, owned)]
    return owned


_last_owned: list[tuple[Mapping[str, str], list[tuple[str | None, Choice]]]] = []


@cache
def _waiver_choices(variant: Europe1615) -> tuple[tuple[str, Choice], ...]:
    """Each state's center, in order, with the listed waiver of its capture: the same in
    every menu of the map, made once."""
    centers = sorted(c for s in variant.states.values() for c in s.centers)
    return tuple((c, listed(CaptureWaiver(c), at=(c,))) for c in centers)


def _empire(variant: Europe1615, position: Position) -> list[OrderForm]:
    """Each of the Empire's units' legal orders, which every power may send alike: the
    same forms in every power's menu of a position, made for the first and kept for the
    rest (one entry, by the units they are of, as `hegemon.game.reach` keeps its reach)."""
    for known_variant, units, forms in _last_empire:
        if known_variant is variant and units is position.units:
            return forms
    forms = _empire_forms(variant, position)
    _last_empire[:] = [(variant, position.units, forms)]
    return forms


_last_empire: list[tuple[Europe1615, Mapping[str, Unit], list[OrderForm]]] = []


def _empire_forms(variant: Europe1615, position: Position) -> list[OrderForm]:
    empire = variant.ottoman.name
    units = [u for u in position.units.values() if u.power == empire]
    forms = []
    for unit, orders in unit_orders(variant, position, empire, units).items():
        choices = tuple([_for_empire(o) for o in orders if isinstance(o, UnitOrder)])
        name = head(unit)
        forms.append(
            OrderForm(
                f"empire {unit.location}",
                f"{name} of the {empire}",
                choices,
                unit=unit.location,
                action=f"Order {name} for the {empire}",
            )
        )
    return forms


def _for_empire(order: UnitOrder) -> Choice:
    """The order, given for the Empire, as its forms list it: made once for every order
    of the map (its `EmpireOrder` is a class written in Python, slow to make)."""
    choice = _empire_choices.get(order)
    if choice is None:
        choice = _empire_choices[order] = listed(EmpireOrder(order), like=order)
    return choice


# By the order given: bounded by the orders the Empire's units could give on the map.
_empire_choices: dict[UnitOrder, Choice] = {}
