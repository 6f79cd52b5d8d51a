"""Europe 1615: Prelude to War (Matthew Medeiros, 2013): five powers buy the allegiance and
the religion of Europe's minor states with influence points (INFs), and score victory
points (VPs) for conquests, alignments and religious control at the end of 1616, 1618
and 1620.

What differs from the standard game (the rules' headings in capitals):
- PHASES: Spring, Summer and Fall movement with retreats, then Winter.
- DEPLOYMENT: each power has the year's INF income to deploy (``16: WUR``) with the orders
  of any movement phase; deployments accumulate; unused INFs are lost at the year's end.
- THE DIPLOMATIC ATTACK ORDER (``LOR > France``): one a year, not in the first movement
  phase, never in the Ottoman Empire; resolved least income first, by mutual reduction.
- STATUS: ALIGNED, NEUTRAL or UNMARKED (`hegemon.influence.inf`); an aligned state's
  unit obeys its patron, who may not dislodge it or help to; nobody enters a NEUTRAL
  state; its own unit there cannot be supported; a foreign unit there at the build phase
  is interned.
- RELIGIOUS STATUS: Protestant (England, Scandinavia) against Catholic INFs; the Papal
  States are Catholic, the Ottoman Empire and the Barbary States Islamic.
- MINOR UNITS never retreat and never capture (the Ottoman units do both); a captured
  state leaves the list for good; a free, uncaptured center rebuilds its unit.
- BUILDS: home centers and captured minor centers not of the opposite religion; fleets
  only in ports; never in captured Ottoman or Barbary centers; not in the opposite
  religion's captured home centers. A province's capture may be waived (``Waive Nor``).
- SCORING and VICTORY: most VPs after 1620 (ties: centers, then INFs); a Protestant
  power that captures Rome wins at once, and if the Ottomans take it the best Protestant
  does; allies declared before 1618 (``Ally England``) win together on combined VPs.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Self

from hegemon.board import Board, MapError
from hegemon.game import PLAYING, Draw, GameEnd, Marks, Preparation, Variant, starting_unit
from hegemon.influence.inf import (
    Attack,
    AttackResult,
    Deploy,
    DiplomaticAttack,
    Standing,
    attack_sequence,
    deploy,
    diplomatic_attacks,
    political_status,
    religious_control,
    shares,
)
from hegemon.orders import Build, Order, ReadContext, UnitOrder, format_order
from hegemon.position import Phase, PhaseKind, Position, Unit, Viewer
from hegemon.rules import STANDARD, Rules
from hegemon.variants.europe_1615.board import state_marks
from hegemon.variants.europe_1615.ledger import CATHOLIC, ISLAMIC, OTTOMAN, PROTESTANT, Ledger
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver

MINOR_HEADING = "Minor States"
THRESHOLDS = {  # the rules' numbers (rules: STATUS, RELIGIOUS STATUS), unless setup says
    "minor_share": 50,
    "minor_minimum": 5,
    "ottoman_minimum": 15,
    "religious_minimum": 10,
}
_ATTACK_CHANCE = 0.3  # how often a random player makes its diplomatic attack, when it can


@dataclass(frozen=True)
class State:
    """A pliant state: a minor state, a Barbary State, the Papal States or the Empire."""

    id: str
    name: str
    label: str
    kind: str  # "minor", "barbary", "papal" or "ottoman"
    provinces: tuple[str, ...]
    centers: tuple[str, ...]
    units: tuple[Unit, ...]
    inf: int  # INFs a captor gains per center
    vp_capture: int
    vp_aligned: int
    vp_aligned_religious: int
    catholic_only: bool = False

    @property
    def fixed_religion(self) -> str | None:
        if self.kind == "papal":
            return CATHOLIC
        if self.kind in ("barbary", "ottoman"):
            return ISLAMIC
        return None


class EuropeRules(Rules):
    """The standard rules as the statuses of the states bend them (rules: STATUS)."""

    def __init__(self, variant: Europe1615, ledger: Ledger) -> None:
        super().__init__(variant.edition)
        self.variant = variant
        self.ledger = ledger

    def _state_of_unit(self, unit: Unit) -> State | None:
        return self.variant.state_of_owner.get(unit.power)

    def may_dislodge(self, power: str, unit: Unit) -> bool:
        """The patron may neither dislodge its client's unit nor help to, even unawares."""
        state = self._state_of_unit(unit)
        return power != unit.power and not (state and self.ledger.patron(state.id) == power)

    def may_enter(self, unit: Unit, province: str) -> bool:
        """Nobody enters a NEUTRAL state but its own units."""
        state = self.variant.state_of_province.get(province)
        if state is None or state.id in self.ledger.captured:
            return True
        return self.ledger.standing(state.id) is not Standing.NEUTRAL or unit.power == state.name

    def may_be_supported(self, unit: Unit) -> bool:
        """A neutral state's own unit, inside the state, cannot be supported."""
        state = self._state_of_unit(unit)
        return not (
            state
            and unit.province in state.provinces
            and self.ledger.standing(state.id) is Standing.NEUTRAL
        )

    def retreats(self, unit: Unit) -> bool:
        state = self._state_of_unit(unit)
        return state is None or state.kind == "ottoman"

    def captures_centers(self, unit: Unit) -> bool:
        """Minor armies capture nothing; nor does a power inside a state aligned with it
        (rules: Movement); nor a power that waived the capture."""
        state = self._state_of_unit(unit)
        if state is not None and state.kind != "ottoman":
            return False
        host = self.variant.state_of_province.get(unit.province)
        if host is not None and self.ledger.patron(host.id) == unit.power:
            return False
        return unit.province not in self.ledger.waived.get(unit.power, [])

    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        owned = {c for c, owner in position.centers.items() if owner == power}
        if power == self.variant.ottoman.name:
            return frozenset(owned & set(self.variant.ottoman.centers))
        faith = self.variant.religion.get(power)
        sites = set()
        for center in owned:
            if center in homes:
                sites.add(center)
                continue
            state = self.variant.state_of_province.get(center)
            if state is not None:
                if state.kind not in ("barbary", "ottoman") and (
                    self.ledger.religion.get(state.id) in (None, faith)
                ):
                    sites.add(center)
            elif self.variant.religion.get(self.variant.home_owner.get(center, "")) == faith:
                sites.add(center)  # another power's home center of one's own religion
        return frozenset(sites)

    def build_problem(
        self, power: str, unit: Unit, earlier: Sequence[Unit], homes: frozenset[str]
    ) -> str | None:
        if not unit.type.by_land and not self.variant.board.provinces[unit.province].port:
            return f"{self.variant.board.name_of(unit.province)} is not a port"
        return None


@dataclass(frozen=True, eq=False)
class Europe1615(Variant):
    states: Mapping[str, State] = field(default_factory=dict)  # by id, the Empire included
    religion: Mapping[str, str] = field(default_factory=dict)  # power -> faith
    income_table: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    home_values: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # (inf, vp)
    ottoman_share: Mapping[int, int] = field(default_factory=dict)
    religious_share: Mapping[int, int] = field(default_factory=dict)
    scoring_years: tuple[int, ...] = ()
    end_year: int = 1620
    thresholds: Mapping[str, int] = field(default_factory=dict)  # the rules' minimums
    alliance_deadline: int = 1618  # alliances are formed before this year
    holy_city: str = ""  # the Protestant who captures it wins (Rome)

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        problems: list[str] = []
        states = {
            sid: _read_state(board, sid, spec, problems)
            for sid, spec in setup.get("states", {}).items()
        }
        if "ottoman" in setup:
            states[OTTOMAN] = _read_state(
                board, OTTOMAN, {**setup["ottoman"], "kind": "ottoman"}, problems
            )
        powers = setup.get("powers", {})
        game = setup.get("game", {})
        tables = setup.get("tables", {})
        if problems:
            raise MapError(source, problems)
        return replace(
            variant,
            states=states,
            religion={p: str(spec.get("religion", "")) for p, spec in powers.items()},
            income_table={
                p: {int(y): int(n) for y, n in spec.get("income", {}).items()}
                for p, spec in powers.items()
            },
            home_values={
                c: (int(v.get("inf", 0)), int(v.get("vp", 0)))
                for c, v in setup.get("home_centers", {}).items()
            },
            ottoman_share={int(y): int(n) for y, n in tables.get("ottoman_alignment", {}).items()},
            religious_share={
                int(y): int(n) for y, n in tables.get("religious_control", {}).items()
            },
            scoring_years=tuple(int(y) for y in game.get("scoring_years", ())),
            thresholds={**THRESHOLDS, **tables.get("thresholds", {})},
            end_year=int(game.get("end_year", 1620)),
            alliance_deadline=int(game.get("alliance_deadline", 1618)),
            holy_city=str(game.get("holy_city", "")),
        )

    # --- lookups -----------------------------------------------------------------------
    @property
    def first_phase(self) -> Phase:
        return self.calendar.first_phase()

    @property
    def ottoman(self) -> State:
        return self.states[OTTOMAN]

    @cached_property
    def state_of_owner(self) -> dict[str, State]:
        return {s.name: s for s in self.states.values()}

    @cached_property
    def state_of_province(self) -> dict[str, State]:
        return {p: s for s in self.states.values() for p in s.provinces}

    @cached_property
    def home_owner(self) -> dict[str, str]:
        return {c: p.name for p in self.powers.values() for c in p.home_centers}

    def owner_named(self, spelling: str) -> str | None:
        folded = spelling.strip().lower()
        state = next((s for s in self.states.values() if s.name.lower() == folded), None)
        return state.name if state else super().owner_named(spelling)

    def state_named(self, spelling: str) -> State | None:
        folded = spelling.strip().lower()
        return next(
            (s for s in self.states.values() if folded in (s.id, s.name.lower(), s.label.lower())),
            None,
        )

    # --- the start --------------------------------------------------------------------
    def initial_position(self) -> Position:
        start = super().initial_position()
        units = dict(start.units)
        centers = dict(start.centers)
        for state in self.states.values():
            units.update((u.province, u) for u in state.units)
            centers.update(dict.fromkeys(state.centers, state.name))
        year = self.start_year
        income = {p: self.income_table[p].get(year, 0) for p in self.powers}
        ledger = Ledger(
            inf={}, spent={}, income=income, attacked=[],
            sequence=attack_sequence(income, sorted(self.powers)),
            captured=[], status={}, religion={}, vp={}, allies=[], offers={}, waived={},
            eliminated=[], annexed={},
        )  # fmt: skip
        return start.evolve(units=units, centers=centers, state=self._judge(ledger, year))

    def read_state(self, data: Mapping[str, Any]) -> Ledger:
        return Ledger.from_json(data, self.powers, self.states)

    def rules_for(self, position: Position) -> Rules:
        return EuropeRules(self, Ledger.of(position))

    def report_group(self, power: str) -> str:
        """The states' units under one heading (the Empire under its own)."""
        state = self.state_of_owner.get(power)
        if state is None or state.kind == "ottoman":
            return power
        return MINOR_HEADING

    def standings(self, position: Position) -> list[str]:
        vp = Ledger.of(position).vp
        if not vp:
            return []
        scores = ", ".join(f"{p} {vp.get(p, 0)}" for p in self.powers)
        return ["", f"Victory points: {scores}"]

    def board_marks(self, position: Position, viewer: Viewer) -> Marks:
        return state_marks(self, position, viewer)

    # --- orders -----------------------------------------------------------------------
    order_types = (Deploy, DiplomaticAttack, AllianceOffer, CaptureWaiver)

    def read_context(self, units: Mapping[str, Unit] | None = None) -> ReadContext:
        """Orders name states by id, label or name (``16: WUR``, ``5: Papal States``)."""
        context = super().read_context(units)
        state_id = lambda spelling: state.id if (state := self.state_named(spelling)) else None  # noqa: E731
        return replace(context, names={**context.names, "state": state_id})

    def orders_in(self, position: Position) -> tuple[type[Order], ...]:
        """INFs and diplomatic attacks go with movement orders; declarations with any."""
        declarations = (AllianceOffer, CaptureWaiver)
        if position.phase.kind is PhaseKind.MOVEMENT:
            return (Deploy, DiplomaticAttack, *declarations)
        return declarations

    def own_order_forms(self, position: Position, power: str) -> list[str]:
        forms = ["Ally POWER  declares an alliance (rules: Optional Alliances)"]
        forms.append("Waive PROVINCE  waives capturing it at the next build (rules: Waiving)")
        if position.phase.kind is PhaseKind.MOVEMENT:
            forms[:0] = [
                "N: STATE  deploys N of this year's INFs in a state, e.g. '5: WUR'",
                "STATE > POWER  attacks that power's INFs in a state, e.g. 'LOR > France'",
            ]
        return forms

    def order_problems(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        ledger = Ledger.of(position)
        return _deployment_problems(self, ledger, position, power, orders)

    def may_order(self, position: Position, power: str, unit: Unit) -> bool:
        """A power may send orders to any state's unit: they are followed if the state
        turns out aligned with it once this phase's INFs are deployed (rules: STATUS)."""
        return unit.power == power or unit.power in self.state_of_owner

    def rules_at_submission(self, position: Position, power: str) -> Rules:
        """Which states are neutral this phase hangs on every power's secret deployments,
        so orders are checked against the map alone and the statuses judged at
        adjudication."""
        return STANDARD

    # --- each phase: deploy, attack, judge the states, give the clients' orders -----------
    def prepare(
        self, position: Position, orders: Mapping[str, Sequence[Order]], draws: Mapping[str, Draw]
    ) -> Preparation:
        ledger = Ledger.of(position)
        movement = position.phase.kind is PhaseKind.MOVEMENT
        public: list[str] = []
        if movement:
            ledger, public = self._deploy_and_attack(position, ledger, orders)
        ledger = _declare(ledger, position, orders, self.alliance_deadline)
        unit_orders, ignored = self._unit_orders(position, ledger, orders)
        if movement:
            public += self._status_lines(ledger)
        if ignored:
            public += ["Orders not followed", *ignored]
        private = {p: tuple(self._own_lines(ledger, p)) for p in self.powers} if movement else {}
        return Preparation(
            position.evolve(state=ledger),
            unit_orders,
            tuple(public),
            private,
            EuropeRules(self, ledger),
        )

    def commander_of(self, position: Position, unit: Unit) -> str | None:
        """A power commands its own units, and those of the states aligned with it,
        retreats and builds included (rules: STATUS (3))."""
        state = self.state_of_owner.get(unit.power)
        if state is None:
            return super().commander_of(position, unit)
        return Ledger.of(position).patron(state.id)

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        """Some of the year's INFs into a few states, and now and then a diplomatic attack
        where another power holds INFs beside this one."""
        if position.phase.kind is not PhaseKind.MOVEMENT or power not in self.powers:
            return []
        ledger = Ledger.of(position)
        left = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
        catholic = self.religion[power] == CATHOLIC
        open_states = sorted(
            s.id
            for s in self.states.values()
            if s.id not in ledger.captured and (catholic or not s.catholic_only)
        )
        orders: list[Order] = []
        for state in rng.sample(open_states, min(3, len(open_states))):
            if left <= 0:
                break
            amount = rng.randint(1, left)
            orders.append(Deploy(amount, state))
            left -= amount
        rivals = [
            (state, other)
            for state, held in sorted(ledger.inf.items())
            if state != OTTOMAN and held.get(power)
            for other in sorted(held)
            if other != power
        ]
        may_attack = position.phase != self.first_phase and power not in ledger.attacked
        if rivals and may_attack and rng.random() < _ATTACK_CHANCE:
            state, target = rng.choice(rivals)
            orders.append(DiplomaticAttack(state, target))
        return orders

    def _deploy_and_attack(
        self, position: Position, ledger: Ledger, orders: Mapping[str, Sequence[Order]]
    ) -> tuple[Ledger, list[str]]:
        deployments: dict[str, dict[str, int]] = {}
        attacks: list[Attack] = []
        for power, given in orders.items():
            if power not in self.powers or _deployment_problems(
                self, ledger, position, power, given
            ):
                continue  # an allocation that breaks the rules is ignored as a whole
            for order in given:
                if isinstance(order, Deploy):
                    placed = deployments.setdefault(power, {})
                    placed[order.state] = placed.get(order.state, 0) + order.points
                elif isinstance(order, DiplomaticAttack):
                    attacks.append(Attack(power, order.state, order.target))
        holdings = deploy(ledger.inf, deployments)
        spent = dict(ledger.spent)
        for power, placed in deployments.items():
            spent[power] = spent.get(power, 0) + sum(placed.values())
        holdings, results = diplomatic_attacks(holdings, attacks, ledger.sequence)
        attacked = ledger.attacked + [a.attacker for a in attacks]
        ledger = replace(ledger, inf=_clean(holdings), spent=spent, attacked=attacked)
        return self._judge(ledger, position.phase.year), _attack_lines(self, results)

    def _judge(self, ledger: Ledger, year: int) -> Ledger:
        """Every state's political and religious status from its INFs (rules: STATUS)."""
        status: dict[str, list[str | None]] = {}
        religion = {s: f for s, f in ledger.religion.items() if s in ledger.captured}
        for state in self.states.values():
            if state.id in ledger.captured:
                continue
            held = ledger.inf.get(state.id, {})
            minimum = self.thresholds["minor_minimum"]
            if state.kind == "ottoman":
                result = political_status(
                    held, self.thresholds["ottoman_minimum"], self.ottoman_share.get(year, 50), True
                )
            else:
                result = political_status(
                    held, minimum, self.thresholds["minor_share"], state.kind == "barbary"
                )
            status[state.id] = [result.standing.value, result.patron]
            faith = state.fixed_religion or religious_control(
                held,
                self.religion,
                self.religious_share.get(year, 50),
                self.thresholds["religious_minimum"],
            )
            if faith:
                religion[state.id] = faith
        return replace(ledger, status=status, religion=religion)

    def _unit_orders(
        self, position: Position, ledger: Ledger, orders: Mapping[str, Sequence[Order]]
    ) -> tuple[dict[str, list[Order]], list[str]]:
        """Players' orders for their own units, and an aligned state's unit's orders from
        its patron, given under the state's name (the Ottoman patron stays anonymous);
        then, for the report, the orders to states not aligned with who gave them."""
        units = position.all_units
        given: dict[str, list[Order]] = {}
        ignored: list[str] = []
        for power, power_orders in orders.items():
            for order in power_orders:
                if not isinstance(order, UnitOrder):
                    continue
                owner = self._commander(position, ledger, power, order, units)
                state = self.state_of_owner.get(_owner_of(order, position, units) or "")
                if state is not None and owner != state.name:
                    if state.kind != "ottoman":  # not even who failed to command the Empire
                        standing = ledger.standing(state.id).value
                        ignored.append(
                            f"   {power}: {format_order(order)} ({state.name} is {standing})"
                        )
                    continue
                given.setdefault(owner, []).append(order)
        return given, ignored

    def _commander(
        self,
        position: Position,
        ledger: Ledger,
        power: str,
        order: Order,
        units: Mapping[str, Unit],
    ) -> str:
        """Who gives this order: the power itself, or the state whose patron it is."""
        if not isinstance(order, UnitOrder):
            return power
        unit = units.get(order.province)
        if isinstance(order, Build):
            owner = position.centers.get(order.province, power)
            state = self.state_of_owner.get(owner)
        else:
            state = self.state_of_owner.get(unit.power) if unit else None
        if state is not None and ledger.patron(state.id) == power:
            return state.name
        return power

    def _status_lines(self, ledger: Ledger) -> list[str]:
        """Which powers hold INFs in each state, as percentages, and its status; for the
        Empire only whether it is aligned or neutral (rules: OTTOMAN EMPIRE)."""
        lines = ["States"]
        for state in sorted(self.states.values(), key=lambda s: s.id):
            if state.id in ledger.captured:
                continue
            standing = ledger.standing(state.id).value
            faith = ledger.religion.get(state.id)
            held = ledger.inf.get(state.id, {})
            if state.kind == "ottoman":
                lines.append(f"   {state.name}: {standing}")
                continue
            if not held and not faith and standing == "UNMARKED":
                continue
            split = ", ".join(f"{p} {n}%" for p, n in sorted(shares(held).items()))
            patron = ledger.patron(state.id)
            note = f"{standing} with {patron}" if patron else standing
            religious = f"; {faith}" if faith else ""
            lines.append(f"   {state.name}: {note}{religious}" + (f" ({split})" if split else ""))
        return lines

    def _own_lines(self, ledger: Ledger, power: str) -> list[str]:
        """A power's own INFs, state by state, and what it may still deploy this year."""
        held = [
            f"{self.states[s].name} {h[power]}"
            for s, h in sorted(ledger.inf.items())
            if h.get(power)
        ]
        left = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
        return [f"INFs of {power}: {', '.join(held) or 'none'}; {left} left to deploy this year"]

    def position_lines(self, position: Position, viewer: Viewer) -> list[str]:
        ledger = Ledger.of(position)
        power = viewer.power
        own = self._own_lines(ledger, power) if power is not None and power in self.powers else []
        return [*self._status_lines(ledger), *own]

    # --- the year's end -----------------------------------------------------------------
    def begin_phase(self, position: Position) -> Position:
        """At the build phase, once centers have changed hands: interned units go first
        (they annex nothing), then annexation, withdrawal of captured states, scoring,
        elimination and next year's income."""
        if position.phase.kind is not PhaseKind.ADJUSTMENT:
            return position
        ledger = Ledger.of(position)
        position = position.evolve(units=self._intern(dict(position.units), ledger))
        ledger = self._annex(position, ledger)
        ledger, units = self._withdraw_captured(position, ledger)
        ledger = self._judge(ledger, position.phase.year)
        position = position.evolve(units=units)
        if position.phase.year in self.scoring_years:
            ledger = replace(ledger, vp=self._score(position, ledger))
        ledger = self._eliminate(position, ledger)
        return position.evolve(state=self._next_year(position, ledger))

    def automatic_builds(self, position: Position) -> list[Unit]:
        """A free center of a state not yet captured rebuilds its unit (rules: BUILD PHASE)."""
        captured = Ledger.of(position).captured
        return [
            unit
            for state in self.states.values()
            if state.id not in captured
            for unit in state.units
            if position.centers.get(unit.province) == state.name
            and unit.province not in position.units
            and unit not in position.units.values()
        ]

    def _annex(self, position: Position, ledger: Ledger) -> Ledger:
        """A province without a center held by a power at the build phase is annexed to it,
        unless it belongs to a state aligned with that power; waived ones excepted."""
        annexed = dict(ledger.annexed)
        for province, unit in position.units.items():
            if unit.power not in self.powers or self.board.provinces[province].center:
                continue
            state = self.state_of_province.get(province)
            if state is not None and ledger.patron(state.id) == unit.power:
                continue
            if province not in ledger.waived.get(unit.power, []):
                annexed[province] = unit.power
        return replace(ledger, annexed=annexed)

    def _withdraw_captured(
        self, position: Position, ledger: Ledger
    ) -> tuple[Ledger, dict[str, Unit]]:
        """A state whose center a power took leaves the list: its INFs and alignment go,
        its religion stays, its units elsewhere are disbanded (rules: CAPTURE)."""
        captured = list(ledger.captured)
        for state in self.states.values():
            if state.id in captured:
                continue
            if not state.centers:  # a state without a center falls when all of it is annexed
                if all(p in ledger.annexed for p in state.provinces):
                    captured.append(state.id)
                continue
            owners = {position.centers.get(c) for c in state.centers}
            taken = owners - {state.name}
            gone = (owners == taken) if state.kind == "ottoman" else bool(taken)
            if gone:
                captured.append(state.id)
        holdings = {s: h for s, h in ledger.inf.items() if s not in captured}
        status = {s: v for s, v in ledger.status.items() if s not in captured}
        removed = {self.states[s].name for s in captured}
        units = {p: u for p, u in position.units.items() if u.power not in removed}
        return replace(ledger, captured=captured, inf=holdings, status=status), units

    def _intern(self, units: dict[str, Unit], ledger: Ledger) -> dict[str, Unit]:
        """A foreign unit in a NEUTRAL state at the build phase is interned (disbanded)."""
        kept = {}
        for province, unit in units.items():
            state = self.state_of_province.get(province)
            neutral = (
                state is not None
                and state.id not in ledger.captured
                and ledger.standing(state.id) is Standing.NEUTRAL
            )
            if not (neutral and state is not None and unit.power != state.name):
                kept[province] = unit
        return kept

    def _score(self, position: Position, ledger: Ledger) -> dict[str, int]:
        """The scoring checklist: captured centers, aligned states, aligned states under
        the patron's religion (double), none for a state another minor's army occupies."""
        vp = dict(ledger.vp)
        for power in self.powers:
            if power in ledger.eliminated:
                continue
            vp[power] = (
                vp.get(power, 0)
                + self._capture_points(position, power)
                + sum(
                    self._alignment_points(position, ledger, state, power)
                    for state in self.states.values()
                )
            )
        return vp

    def _capture_points(self, position: Position, power: str) -> int:
        points = 0
        homes = set(self.powers[power].home_centers)
        for center, owner in position.centers.items():
            if owner != power or center in homes:
                continue
            state = self.state_of_province.get(center)
            points += state.vp_capture if state else self.home_values.get(center, (0, 0))[1]
        return points

    def _alignment_points(
        self, position: Position, ledger: Ledger, state: State, power: str
    ) -> int:
        if state.id in ledger.captured or ledger.patron(state.id) != power:
            return 0
        for province in state.provinces:
            occupant = position.units.get(province)
            other = self.state_of_owner.get(occupant.power) if occupant else None
            if other is not None and other.id != state.id and ledger.patron(other.id) != power:
                return 0
        if ledger.religion.get(state.id) == self.religion.get(power):
            return state.vp_aligned_religious
        return state.vp_aligned

    def _eliminate(self, position: Position, ledger: Ledger) -> Ledger:
        """A power with no center and no unit cedes its VPs and its INFs everywhere."""
        alive = set(position.centers.values()) | {u.power for u in position.units.values()}
        out = [p for p in self.powers if p not in alive]
        if not out:
            return ledger
        holdings = {s: {p: n for p, n in h.items() if p not in out} for s, h in ledger.inf.items()}
        vp = {p: (0 if p in out else n) for p, n in ledger.vp.items()}
        eliminated = sorted(set(ledger.eliminated) | set(out))
        return replace(ledger, inf=holdings, vp=vp, eliminated=eliminated)

    def _next_year(self, position: Position, ledger: Ledger) -> Ledger:
        """Next year's income (rules: GAIN AND LOSS OF INFLUENCE); spent INFs, attacks and
        waivers start afresh."""
        year = position.phase.year + 1
        income = {
            power: 0 if power in ledger.eliminated else self._income(position, ledger, power, year)
            for power in self.powers
        }
        sequence = attack_sequence(income, ledger.sequence)
        ledger = replace(ledger, income=income, sequence=sequence, spent={}, attacked=[],
                         waived={})  # fmt: skip
        return self._judge(ledger, year)

    def _income(self, position: Position, ledger: Ledger, power: str, year: int) -> int:
        total = self.income_table[power].get(year, 0)
        faith = self.religion[power]
        for center in self.powers[power].home_centers:
            if position.centers.get(center) != power or self._blocked(
                position, ledger, center, power
            ):
                total -= self.home_values.get(center, (0, 0))[0]
        for center, owner in position.centers.items():
            if owner != power or center in self.powers[power].home_centers:
                continue
            if self._blocked(position, ledger, center, power):
                continue
            state = self.state_of_province.get(center)
            if state is None:
                total += self.home_values.get(center, (0, 0))[0]
            elif ledger.religion.get(state.id) in (None, faith, ISLAMIC):
                total += state.inf
        return max(total, 0)

    def _blocked(self, position: Position, ledger: Ledger, center: str, power: str) -> bool:
        """An owned center occupied by a minor army aligned with another power yields no
        INFs next year (an army of a neutral state has no effect)."""
        occupant = position.units.get(center)
        state = self.state_of_owner.get(occupant.power) if occupant else None
        if state is None:
            return False
        patron = ledger.patron(state.id)
        return patron is not None and patron != power

    # --- the end (rules: VICTORY CONDITIONS) ------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        ledger = Ledger.of(position)
        rome = position.centers.get(self.holy_city)
        if rome is not None and self.religion.get(rome) == PROTESTANT:
            return GameEnd(winners=(rome,))
        protestants = [p for p in self.powers if self.religion[p] == PROTESTANT]
        if rome == self.ottoman.name:
            best = max(protestants, key=lambda p: ledger.vp.get(p, 0))
            return GameEnd(winners=(best,))
        if position.phase.year < self.end_year or position.phase.kind is not PhaseKind.ADJUSTMENT:
            return PLAYING
        return GameEnd(winners=self._winners(position, ledger))

    def _winners(self, position: Position, ledger: Ledger) -> tuple[str, ...]:
        players = [p for p in self.powers if p not in ledger.eliminated]
        vp = {p: ledger.vp.get(p, 0) for p in players}
        for pair in ledger.allies:
            others = sum(n for p, n in vp.items() if p not in pair)
            if sum(vp.get(p, 0) for p in pair) > others:
                return tuple(sorted(pair))
        centers = {p: sum(1 for o in position.centers.values() if o == p) for p in players}
        best = max(players, key=lambda p: (vp[p], centers[p], ledger.income.get(p, 0)))
        return (best,)


def _owner_of(order: Order, position: Position, units: Mapping[str, Unit]) -> str | None:
    """Whose unit an order names (for a build, who owns the site)."""
    if isinstance(order, Build):
        return position.centers.get(order.province)
    if isinstance(order, UnitOrder) and (unit := units.get(order.province)) is not None:
        return unit.power
    return None


def _read_state(board: Board, sid: str, spec: Mapping[str, Any], problems: list[str]) -> State:
    name = str(spec.get("name", sid))
    units = tuple(
        u
        for u in (starting_unit(board, name, str(t), problems) for t in spec.get("units", ()))
        if u is not None
    )
    for place in (*spec.get("provinces", ()), *spec.get("centers", ())):
        if place not in board.provinces:
            problems.append(f"state {name}: unknown province {place!r}")
    return State(
        id=sid,
        name=name,
        label=str(spec.get("label", sid)),
        kind=str(spec.get("kind", "minor")),
        provinces=tuple(spec.get("provinces", ())),
        centers=tuple(spec.get("centers", ())),
        units=units,
        inf=int(spec.get("inf", 0)),
        vp_capture=int(spec.get("vp_capture", 0)),
        vp_aligned=int(spec.get("vp_aligned", 0)),
        vp_aligned_religious=int(spec.get("vp_aligned_religious", 0)),
        catholic_only=bool(spec.get("catholic_only", False)),
    )


def _deployment_problems(
    variant: Europe1615, ledger: Ledger, position: Position, power: str, orders: Sequence[Order]
) -> list[str]:
    """Why a power's deployments and diplomatic attack may not be made as given."""
    deploys = [o for o in orders if isinstance(o, Deploy)]
    attacks = [o for o in orders if isinstance(o, DiplomaticAttack)]
    if not deploys and not attacks:
        return []
    problems = []
    available = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
    total = sum(d.points for d in deploys)
    if total > available:
        problems.append(
            f"deployments total {total} INFs, but {power} has {available} left this year"
        )
    for order in deploys:
        state = variant.states[order.state]
        if order.points < 1:
            problems.append(f"{format_order(order)}: a deployment is at least 1 INF")
        elif state.id in ledger.captured:
            problems.append(f"{format_order(order)}: {state.name} was captured and takes no INFs")
        elif state.catholic_only and variant.religion.get(power) != CATHOLIC:
            problems.append(
                f"{format_order(order)}: only Catholic powers may deploy to {state.name}"
            )
    problems += _attack_problems(variant, ledger, position, power, attacks)
    return problems


def _attack_problems(
    variant: Europe1615,
    ledger: Ledger,
    position: Position,
    power: str,
    attacks: Sequence[DiplomaticAttack],
) -> list[str]:
    problems = []
    if len(attacks) > 1 or (attacks and power in ledger.attacked):
        problems.append(f"{power} may make only one diplomatic attack a year")
    for attack in attacks:
        text = format_order(attack)
        if position.phase == variant.first_phase:
            problems.append(f"{text}: no diplomatic attacks in the first movement phase")
        if attack.state == OTTOMAN:
            problems.append(f"{text}: no diplomatic attacks in the Ottoman Empire")
        if attack.target == power:
            problems.append(f"{text}: a power cannot attack itself")
    return problems


def _declare(
    ledger: Ledger, position: Position, orders: Mapping[str, Sequence[Order]], deadline: int
) -> Ledger:
    """Alliances (both must declare, before the deadline year) and waivers of capture."""
    offers = dict(ledger.offers)
    allies = [list(pair) for pair in ledger.allies]
    waived = {p: list(v) for p, v in ledger.waived.items()}
    for power, given in orders.items():
        for order in given:
            if isinstance(order, CaptureWaiver):
                waived.setdefault(power, []).append(order.province)
            elif (
                isinstance(order, AllianceOffer)
                and position.phase.year < deadline
                and not any(power in pair for pair in allies)
            ):
                offers[power] = order.ally
                if offers.get(order.ally) == power:
                    allies.append(sorted((power, order.ally)))
    return replace(ledger, offers=offers, allies=allies, waived=waived)


def _attack_lines(variant: Europe1615, results: Iterable[AttackResult]) -> list[str]:
    """Diplomatic attacks, the one time INF numbers are revealed."""
    lines = []
    for result in results:
        attack = result.attack
        state = variant.states[attack.state].name
        numbers = ", ".join(f"{p} {n}" for p, n in sorted(result.before.items()) if n)
        outcome = f"each loses {result.removed} INFs" if result.succeeded else "FAILED"
        lines.append(
            f"   {attack.attacker} attacks {attack.target} in {state} ({numbers}): {outcome}"
        )
    return ["Diplomatic attacks", *lines] if lines else []


def _clean(holdings: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    return {s: {p: n for p, n in h.items() if n > 0} for s, h in holdings.items()}


VARIANT = Europe1615
