"""The standard rules as the statuses of Europe 1615's states bend them (rules: Rules
Concerning Political Status of Minor States; Other Rules Concerning the Minor State and
Its Army/Fleet; Build/Adjustment Phase)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hegemon.orders import Move, Order
from hegemon.position import Position, Unit
from hegemon.rules import Rules
from hegemon.variants.europe_1615.ledger import ISLAMIC, OTTOMAN, Ledger
from hegemon.variants.europe_1615.states import BARBARY, EMPIRE, State

if TYPE_CHECKING:  # the variant builds these rules, and they read its tables
    from hegemon.variants.europe_1615 import Europe1615


class EuropeRules(Rules):
    """The rules of one phase: the ledger's statuses, and the neutral provinces open to
    attack because a foreign unit holds its position there."""

    def __init__(
        self,
        variant: Europe1615,
        ledger: Ledger,
        open_to_attack: frozenset[str] = frozenset(),
        hosts: dict[str, State] | None = None,  # the ledger's `neutral_hosts`, if found
    ) -> None:
        super().__init__(variant.edition)
        self.variant = variant
        self.ledger = ledger
        self.open_to_attack = open_to_attack
        # Asked of every unit a phase dislodges, supports or reports: the variant's table
        # read once, not as a cached property of its class (written in Python) each time.
        self._state_of_owner = variant.state_of_owner
        # Asked of every move, support and unit of a phase: found once for the rules.
        self._neutral_hosts = neutral_hosts(variant, ledger) if hosts is None else hosts

    def _state_of_unit(self, unit: Unit) -> State | None:
        return self._state_of_owner.get(unit.power)

    def neutral_host(self, province: str) -> State | None:
        """The state the province belongs to, if that state is NEUTRAL and not captured."""
        return self._neutral_hosts.get(province)

    def may_dislodge(self, power: str, unit: Unit) -> bool:
        """STATUS (3): the patron may neither dislodge its client's unit nor help to, even
        unawares."""
        state = self._state_of_unit(unit)
        return power != unit.power and not (state and self.ledger.patron(state.id) == power)

    def may_enter(self, unit: Unit, province: str) -> bool:
        """STATUS (2): nobody enters a NEUTRAL state but its own units; Concerning
        neutrality: a foreign unit holding its position there is open to attack."""
        host = self.neutral_host(province)
        return host is None or unit.power == host.name or province in self.open_to_attack

    def may_be_supported(self, unit: Unit) -> bool:
        """STATUS (2): a neutral state's own unit, inside the state, cannot be supported."""
        host = self.neutral_host(unit.province)
        return host is None or unit.power != host.name

    def shows_strengths(self, unit: Unit) -> bool:
        """Attacks on the units of an aligned Empire are reported without strengths: its
        patron's count for nothing, and the numbers would name the patron."""
        state = self._state_of_unit(unit)
        return state is None or state.kind != EMPIRE or self.ledger.patron(OTTOMAN) is None

    def retreats(self, unit: Unit) -> bool:
        """Disbanding: a minor state's dislodged unit is disbanded; the Empire's retreat."""
        state = self._state_of_unit(unit)
        return state is None or state.kind == EMPIRE

    def captures_centers(self, unit: Unit) -> bool:
        """Whether the unit takes the supply center it stands in as the build phase begins
        (`BuildPhase` asks; the standard game's units capture by their kind). Capturing a
        SC: minor armies capture nothing. Movement: nor does a power inside a state
        aligned with it. Waiving: nor a power that waived the capture. (A unit in a
        neutral state is interned before centers change hands: `winter.intern`.)"""
        state = self._state_of_unit(unit)
        if state is not None and state.kind != EMPIRE:
            return False
        host = self.variant.state_of_province.get(unit.province)
        if host is not None and self.ledger.patron(host.id) == unit.power:
            return False
        return unit.province not in self.ledger.waived.get(unit.power, [])

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        """Owned home centers, and captured centers not of the opposite religion nor the
        Empire's or the Barbary States'; the Empire builds in its own centers (ordered by
        its patron), the minor states never by order (their units come back by themselves)."""
        owned = {c for c, owner in position.centers.items() if owner == power}
        state = self._state_of_owner.get(power)
        if state is not None:
            return frozenset(owned & set(state.centers)) if state.kind == EMPIRE else frozenset()
        return frozenset(c for c in owned if c in homes or self._captured_site(power, c))

    def _captured_site(self, power: str, center: str) -> bool:
        faith = self.variant.religion.get(power)
        state = self.variant.state_of_province.get(center)
        if state is not None:  # the opposition is Catholics against Protestants
            opposed = self.ledger.religion.get(state.id) not in (None, faith, ISLAMIC)
            return state.kind not in (BARBARY, EMPIRE) and not opposed
        home_of = self.variant.home_owner.get(center, "")
        return self.variant.religion.get(home_of) == faith  # a home center of one's own faith

    def build_problem(
        self, power: str, unit: Unit, earlier: Sequence[Unit], homes: frozenset[str]
    ) -> str | None:
        if not unit.type.by_land and not self.variant.board.provinces[unit.province].port:
            return f"{self.variant.board.name_of(unit.province)} is not a port"
        return None


def phase_rules(
    variant: Europe1615,
    position: Position,
    ledger: Ledger,
    orders: Mapping[str, Sequence[Order]] | None = None,
) -> EuropeRules:
    """The rules of the position's phase by the ledger's statuses, the neutral provinces
    open to attack (`open_to_attack`) among them."""
    hosts = neutral_hosts(variant, ledger)
    return EuropeRules(variant, ledger, open_to_attack(position, hosts, orders), hosts)


def neutral_hosts(variant: Europe1615, ledger: Ledger) -> dict[str, State]:
    """The provinces of the states NEUTRAL and not captured, each with its state."""
    hosts: dict[str, State] = {}
    of_province = variant.state_of_province
    for neutral in ledger.neutral():
        host = variant.states[neutral]
        for province in host.provinces:
            if of_province.get(province) is host:  # as the map's table has it
                hosts[province] = host
    return hosts


def open_to_attack(
    position: Position,
    hosts: dict[str, State],
    orders: Mapping[str, Sequence[Order]] | None = None,
) -> frozenset[str]:
    """Concerning neutrality: the provinces of NEUTRAL states (`hosts`, by province)
    where a foreign unit holds its position ("while holding its position in the neutral
    state it is open to attack and dislodgment"); one ordered out of the state closes it
    ("If the army moves out of the neutral state, no other army can enter"). `orders` are
    those each unit follows, by its owner's name; without them, every province a foreign
    unit stands in."""
    foreign = {
        province
        for province, host in hosts.items()
        if (unit := position.unit_in(province)) is not None and unit.power != host.name
    }
    if not foreign or not orders:  # where no foreign unit stands, no order need be read
        return frozenset(foreign)
    moving = {
        order.province
        for owner, given in orders.items()
        for order in given
        if isinstance(order, Move)
        and order.province in foreign
        and (unit := position.unit_in(order.province)) is not None
        and unit.power == owner  # the unit's own order, not another power's void one
    }
    return frozenset(foreign - moving)
