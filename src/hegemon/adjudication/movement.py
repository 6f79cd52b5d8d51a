"""Resolution of a movement phase, by Lucas Kruijswijk's guess-and-check algorithm.

Each ordered unit carries one decision, keyed by the province it stands in: does its move
succeed, is its support given, does its convoying fleet stay in place. `_Resolver.resolve`
decides one lazily, recursing into the decisions it depends on; when a decision turns out
to depend on itself it is tried both ways, and a cycle with no single answer is broken by
the backup rule: all moves in a circle succeed, and a convoy paradox makes the convoyed
armies in it fail (the Szykman rule, DATC 4.A.2).

Units aboard others and units off the board (docs/writing-a-variant.md, "Units aboard and
off the board") have decisions too, keyed apart from every province: ``sao+0`` for the
first unit aboard the one in Sao, ``OFFBOARD+1`` for the second unit off the board. A
move off the board always succeeds. A boarding competes for nothing: it decides whether
its carrier ends the phase where it boards; a cycle through one is broken by failing the
boarding, as a convoy paradox fails its convoyed army.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import OFFBOARD, Board, province_of
from hegemon.legality import Illegal, check_movement_order
from hegemon.orders import (
    Convoy,
    Embark,
    Hold,
    Move,
    MovementOrder,
    Order,
    Support,
    UnitOrder,
    place,
)
from hegemon.position import Dislodgement, Position, Unit, editable, moved_unit
from hegemon.rules import Rules


class MovementResult:
    """Where every unit stands after the phase, what must retreat, and every order's fate."""

    # A plain class, as the compiled core builds and reads one fastest (docs/compiled-core.md).
    def __init__(
        self,
        units: Mapping[str, Unit],
        dislodged: Mapping[str, Dislodgement],
        contested: frozenset[str],
        disbanded: tuple[Unit, ...],  # dislodged units that may not retreat, with their cargo
        explain: Callable[[], tuple[Outcome, ...]],
        offboard: tuple[Unit, ...] = (),  # the units off the board after the phase
    ) -> None:
        self.units: Final = units
        self.dislodged: Final = dislodged
        self.contested: Final = contested
        self.disbanded: Final = disbanded
        self.explain: Final = explain
        self.offboard: Final = offboard
        self._outcomes: tuple[Outcome, ...] | None = None

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every order's fate and its reason, worked out on first use: a program that only
        wants the next position (a bot searching ahead) never pays for the explanations."""
        if self._outcomes is None:
            self._outcomes = self.explain()
        return self._outcomes


def adjudicate_movement(
    board: Board,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
) -> MovementResult:
    """Resolve a movement phase. `orders` maps each power to the orders it gave.

    Illegal orders are void and their units hold; units without orders hold.
    """
    accepted, void = _accept_orders(board, position, orders, rules)
    # The resolver reads units from a dict of its own: a lookup in a dict is a good deal
    # quicker than through the position's read-only view, once compiled.
    resolver = _Resolver(board, editable(position.units), accepted, rules, position)
    resolver.resolve_all()
    return resolver.result(void)


def _key(position: Position, power: str, order: MovementOrder) -> str:
    """The resolver's key for the unit a legal order commands, in a position with units
    aboard or off the board: its province, unless it is one of those."""
    province = order.province
    if province == OFFBOARD:
        unit = position.offboard_unit(power, order.unit)
        assert unit is not None  # the order is legal
        return f"{OFFBOARD}+{position.offboard.index(unit)}"
    occupant = position.unit_in(province)
    if occupant is None or occupant.type == order.unit:
        return province
    carried = occupant.aboard(order.unit)
    assert carried is not None  # the order is legal
    return f"{province}+{occupant.cargo.index(carried)}"


def _accept_orders(
    board: Board, position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules
) -> tuple[dict[str, MovementOrder], list[Outcome]]:
    """The legal order for each unit (the last one given wins) and the void ones."""
    accepted: dict[str, MovementOrder] = {}
    # Orders as written, where checking rewrote them (most it leaves as they are): what
    # the report of a replaced order quotes.
    rewritten: dict[str, Order] = {}
    void: list[Outcome] = []
    beyond = position.beyond_the_board
    for power, power_orders in orders.items():
        for order in power_orders:
            checked = check_movement_order(board, position, power, order, rules)
            if isinstance(checked, Illegal):
                void.append(Outcome(power, order, Verdict.VOID, f"Void: {checked.reason}"))
                continue
            province = checked.province
            if beyond:
                province = _key(position, power, checked)
            earlier = accepted.get(province)
            if earlier is not None:  # only the unit's owner can have given both
                written = rewritten.pop(province, earlier)
                void.append(
                    Outcome(power, written, Verdict.VOID, "Void: replaced by a later order")
                )
            if checked is not order:
                rewritten[province] = order
            accepted[province] = checked
    return accepted, void


def _listed(index: dict[str, list[str]], key: str, value: str) -> None:
    """Add `value` to the list `index` keeps under `key`. Not `setdefault(key, [])`, which
    compiled code makes by raising a KeyError inside for every key it does not hold yet."""
    listed = index.get(key)
    if listed is None:
        index[key] = [value]
    else:
        listed.append(value)


class _Resolver:
    def __init__(
        self,
        board: Board,
        units: dict[str, Unit],
        orders: dict[str, MovementOrder],
        rules: Rules,
        position: Position,
    ) -> None:
        self.board = board
        self.units = units  # by province; and by key, units aboard and off the board
        self.rules = rules
        self.orders = orders  # units without an order hold
        self.move_to: dict[str, str] = {}
        self.moves_into: dict[str, list[str]] = {}
        self.supports: dict[str, str | None] = {}  # supporter -> province it supports into
        self.move_support: dict[str, list[str]] = {}  # mover's province -> its supporters
        self.hold_support: dict[str, list[str]] = {}
        self.convoys: dict[str, str] = {}  # convoying fleet -> the army it carries
        self.convoy_fleets: dict[str, list[str]] = {}  # convoyed army -> its fleets
        self.by_convoy: set[str] = set()
        self.paradox: set[str] = set()  # convoyed armies failed by the Szykman rule
        self.decided: dict[str, bool] = {}  # settled decisions
        self.guess: dict[str, bool] = {}  # decisions being tried, while their cycle is found
        self.deps: list[str] = []
        # Units aboard and off the board, and the moves none but they make.
        self.beyond = position.beyond_the_board  # any of them, or (once indexed) such a move
        self.cargo_keys: dict[str, list[str]] = {}  # carrier's province -> keys aboard it
        self.offboard_keys: list[str] = []
        self.boarding: dict[str, str] = {}  # boarding unit -> province boarded in
        if self.beyond:
            self._add_beyond(position)
        self._index_orders()

    # --- setting up ----------------------------------------------------------------
    def _add_beyond(self, position: Position) -> None:
        """Key the units aboard and off the board beside those in provinces."""
        for province, carrier in position.units.items():
            for index, unit in enumerate(carrier.cargo):
                key = f"{province}+{index}"
                self.units[key] = unit
                _listed(self.cargo_keys, province, key)
        for index, unit in enumerate(position.offboard):
            key = f"{OFFBOARD}+{index}"
            self.units[key] = unit
            self.offboard_keys.append(key)

    def _index_orders(self) -> None:
        convoys: list[tuple[str, Convoy]] = []
        supports: list[tuple[str, Support]] = []
        for origin, order in self.orders.items():
            if isinstance(order, Move):
                target = order.destination
                self.move_to[origin] = target
                if isinstance(order, Embark):  # competes for nothing (module docstring)
                    self.boarding[origin] = target
                    self.beyond = True
                    continue
                if target == OFFBOARD:
                    self.decided[origin] = True  # always succeeds
                    self.beyond = True
                    continue
                _listed(self.moves_into, target, origin)
            elif isinstance(order, Support):
                supports.append((origin, order))
            elif isinstance(order, Convoy):
                convoys.append((origin, order))
        for origin, convoy in convoys:
            if self.move_to.get(convoy.army) == convoy.target:
                self.convoys[origin] = convoy.army
                _listed(self.convoy_fleets, convoy.army, origin)
        self._decide_convoy_routes()
        for origin, support in supports:
            supported = self._supported(origin, support)
            if not self._support_matches(support, supported):
                continue
            if support.target is None:
                self.supports[origin] = None
                _listed(self.hold_support, supported, origin)
            else:
                self.supports[origin] = support.destination
                _listed(self.move_support, supported, origin)

    def _supported(self, supporter: str, order: Support) -> str:
        """The key of the unit a support names: the unit in its province, or the one
        aboard it or off the board of the kind it names (off the board: the supporter's
        own power's, or else the only one of that kind that moves where it supports)."""
        held = order.supported
        if not self.beyond or order.supported_unit is None:
            return held
        kind = order.supported_unit
        if held == OFFBOARD:
            power = self.units[supporter].power
            keys = [k for k in self.offboard_keys if self.units[k].type == kind]
            own = [k for k in keys if self.units[k].power == power]
            moving = [k for k in keys if self.move_to.get(k) == order.destination]
            return own[0] if own else moving[0] if len(moving) == 1 else held
        occupant = self.units.get(held)
        if occupant is None or occupant.type == kind:
            return held
        aboard = [k for k in self.cargo_keys.get(held, ()) if self.units[k].type == kind]
        return aboard[0] if aboard else held

    def _decide_convoy_routes(self) -> None:
        """Which moves go by convoy (DATC 4.A.3): those that cannot go over land, and
        those that can but whose convoying fleets form a route and that the rules send by
        it (standard: by intent, the 2000 rules' reading, DATC 6.G.8)."""
        for origin, target in self.move_to.items():
            order = self.orders[origin]
            assert isinstance(order, Move)
            if not order.unit.convoyed or origin in self.boarding or target == OFFBOARD:
                continue
            if self.beyond and "+" in origin:  # aboard or off the board: never convoyed
                continue
            over_land = self.board.reaches_province(order.unit, origin, target)
            if not over_land or self._intends_sea(origin, order):
                self.by_convoy.add(origin)
        for army in [a for a in self.convoy_fleets if a not in self.by_convoy]:
            for fleet in self.convoy_fleets.pop(army):
                del self.convoys[fleet]
        # Two units moving into each other's province over land meet head to head.
        self.head_to_head = {
            origin
            for origin, target in self.move_to.items()
            if self.move_to.get(target) == origin
            and origin not in self.by_convoy
            and target not in self.by_convoy
            and origin not in self.boarding
            and target not in self.boarding
        }
        self.stationary = (
            {p for p in self.move_to if self.rules.is_stationary(self.units[p])}
            if type(self.rules).is_stationary is not Rules.is_stationary  # standard: none
            else set()
        )

    def _intends_sea(self, origin: str, order: Move) -> bool:
        """Whether a unit that could go over land goes by convoy (the rules decide, from
        its order, the fleets ordered to convoy it and whether they form a route)."""
        fleets = self.convoy_fleets.get(origin) or []  # no list made for most moves
        if not fleets and not order.via_convoy:
            return False  # nothing shows any intent to go by sea
        route = bool(fleets) and self.board.convoy_chain(
            origin, order.destination, self._at(fleets)
        )
        convoying = [self.units[f] for f in fleets]
        return self.rules.goes_by_convoy(self.units[origin], order, convoying, route)

    def _support_matches(self, order: Support, key: str) -> bool:
        supported = self.units.get(key)
        if supported is None or not self.rules.may_be_supported(supported):
            return False
        action = self.orders.get(key)
        if order.target is None:
            return not isinstance(action, Move)
        if not isinstance(action, Move) or isinstance(action, Embark):
            return False
        if "/" in order.target:  # a coast named in a support must be the move's (DATC 6.B.9)
            return action.target == order.target
        return action.destination == order.target

    # --- the algorithm ----------------------------------------------------------------
    def resolve_all(self) -> None:
        for province in (*self.move_to, *self.supports, *self.convoys):
            self.resolve(province)

    def resolve(self, p: str) -> bool:
        decided = self.decided.get(p)
        if decided is not None:
            return decided
        guess = self.guess.get(p)
        if guess is not None:  # a decision that depends on itself: note the cycle
            if p not in self.deps:
                self.deps.append(p)
            return guess
        mark = len(self.deps)
        self.guess[p] = False
        first = self._decide(p)
        if len(self.deps) == mark:  # no guess was involved
            # Its guess is left behind: a decision settled is never read from `guess`.
            self.decided.setdefault(p, first)
            return first
        if self.deps[mark] != p:  # part of a larger cycle: let its head decide
            self.deps.append(p)
            self.guess[p] = first
            return first
        self._forget(mark)
        self.guess[p] = True
        second = self._decide(p)
        if first == second:  # a cycle with one consistent answer
            self._forget(mark)
            self.guess.pop(p, None)
            self.decided[p] = first
            return first
        self._backup_rule(mark)
        return self.resolve(p)

    def _forget(self, mark: int) -> None:
        for q in self.deps[mark:]:
            self.guess.pop(q, None)
        del self.deps[mark:]

    def _backup_rule(self, mark: int) -> None:
        cycle = self.deps[mark:]
        carried = {self.convoys[q] for q in cycle if q in self.convoys}
        boarding = [q for q in cycle if q in self.boarding]
        self._forget(mark)
        if boarding:  # the boardings fail; the rest is decided again without them
            for q in boarding:
                self.decided[q] = False
        elif carried:  # a convoy paradox: the Szykman rule
            for army in carried:
                self.paradox.add(army)
                self.decided[army] = False
        else:  # circular movement: every move in the circle succeeds
            for q in cycle:
                if q in self.move_to:
                    self.decided[q] = True

    def _decide(self, p: str) -> bool:
        if p in self.move_to:
            return self._boards(p) if p in self.boarding else self._move_succeeds(p)
        if p in self.supports:
            return self._support_given(p)
        return not self._dislodged(p)

    # --- strengths (DATC 5.B) ------------------------------------------------------
    def _move_succeeds(self, origin: str) -> bool:
        if origin in self.stationary:
            return False
        attack = self._attack(origin)
        if attack == 0:
            return False
        target = self.move_to[origin]
        resistance = self._defend(target) if origin in self.head_to_head else self._hold(target)
        if attack <= resistance:
            return False
        for rival in self.moves_into[target]:
            if rival != origin and attack <= self._prevent(rival):
                return False
        return True

    def _boards(self, origin: str) -> bool:
        """Whether a boarding succeeds: a carrier it may board ends the phase where it
        boards, having stayed there undislodged or moved in."""
        target = self.boarding[origin]
        order = self.orders[origin]
        assert isinstance(order, Embark)
        unit = self.units[origin]
        staying = self.units.get(target)
        if (
            staying is not None
            and self._may_board(unit, staying, order)
            and not (target in self.move_to and self.resolve(target))
        ):
            return not self._dislodged(target)
        return any(
            self._may_board(unit, self.units[q], order) and self.resolve(q)
            for q in self.moves_into.get(target, ())
        )

    def _may_board(self, unit: Unit, carrier: Unit, order: Embark) -> bool:
        return (
            carrier.power == unit.power
            and carrier.type == order.carrier
            and self.rules.may_carry(carrier, unit)
        )

    def _strength(self, supporters: list[str] | None, against: Unit | None = None) -> int:
        """One for the unit and one for each support given; supports from powers that may
        not dislodge `against` do not count."""
        if supporters is None:  # the common case
            return 1
        strength = 1
        for supporter in supporters:
            if against is not None and not self.rules.may_dislodge(
                self.units[supporter].power, against
            ):
                continue
            # A support nobody attacks is given; only an attacked one needs deciding.
            if supporter not in self.moves_into or self.resolve(supporter):
                strength += 1
        return strength

    def _attack(self, origin: str) -> int:
        if origin in self.by_convoy and not self._path(origin):
            return 0
        target = self.move_to[origin]
        supporters = self.move_support.get(origin)
        defender = self.units.get(target)
        if defender is None or (
            target in self.move_to and origin not in self.head_to_head and self.resolve(target)
        ):
            return self._strength(supporters)
        if not self.rules.may_dislodge(self.units[origin].power, defender):
            return 0
        return self._strength(supporters, against=defender)

    def _defend(self, origin: str) -> int:
        return self._strength(self.move_support.get(origin))

    def _prevent(self, origin: str) -> int:
        if origin in self.by_convoy and not self._path(origin):
            return 0
        if origin in self.head_to_head and self.resolve(self.move_to[origin]):
            return 0
        return self._strength(self.move_support.get(origin))

    def _hold(self, province: str) -> int:
        if province not in self.units:
            return 0
        if province in self.move_to:
            return 0 if self.resolve(province) else 1
        return self._strength(self.hold_support.get(province))

    def _path(self, origin: str) -> bool:
        if origin not in self.by_convoy:
            return True
        if origin in self.paradox:
            return False
        fleets = [f for f in self.convoy_fleets.get(origin, ()) if self.resolve(f)]
        return self.board.convoy_chain(origin, self.move_to[origin], self._at(fleets))

    def _at(self, provinces: Iterable[str]) -> list[str]:
        """Where the units of these provinces stand (a fleet may be on a river's coast)."""
        return [self.units[p].location for p in provinces]

    def _support_given(self, supporter: str) -> bool:
        unit = self.units[supporter]
        into = self.supports[supporter]
        attackers = self.moves_into.get(supporter, ())
        for attacker in attackers:
            if attacker == into or not self.rules.may_cut(self.units[attacker].power, unit):
                continue
            if self._path(attacker):
                return False
        # An attack from where the support goes cuts it only by dislodging (DATC 6.D.15).
        return not (into is not None and into in attackers and self.resolve(into))

    def _cuts(self, attacker: str, supporter: str) -> bool:
        """Whether the attack from `attacker` is one that cuts the support (for the report:
        the cutter it names)."""
        return (
            attacker != self.supports[supporter]
            and self.rules.may_cut(self.units[attacker].power, self.units[supporter])
            and self._path(attacker)
        )

    def _dislodged(self, province: str) -> bool:
        return any(self.resolve(q) for q in self.moves_into.get(province, ()))

    # --- results ---------------------------------------------------------------------
    def result(self, void: list[Outcome]) -> MovementResult:
        moved = {p for p in self.move_to if self.decided[p]}
        boarding = self.boarding
        # Which unit dislodged the one standing in each province (none if it moved away).
        dislodger = {
            target: p
            for p in moved
            if (target := self.move_to[p]) in self.units
            and target not in moved
            and p not in boarding
        }
        units: dict[str, Unit] = {}
        dislodged: dict[str, Dislodgement] = {}
        disbanded: list[Unit] = []
        offboard: list[Unit] = []  # those that stay off the board
        leaving: list[Unit] = []  # and those that leave it, after them
        beyond = self.beyond
        for province, unit in self.units.items():
            if beyond:
                if province not in moved and "+" in province:  # stays aboard, or off the board
                    if province in self.offboard_keys:
                        offboard.append(unit)
                    continue
                if province in self.cargo_keys:
                    unit = self._unloaded(province, unit, moved)
                if province in boarding and province in moved:
                    continue  # aboard its carrier: see below
                if self.move_to.get(province) == OFFBOARD:
                    leaving.append(moved_unit(unit, OFFBOARD))
                    continue
            if province in moved:
                order = self.orders[province]
                assert isinstance(order, Move)
                units[order.destination] = moved_unit(unit, order.target)
            elif province in dislodger:
                if self.rules.retreats(unit):
                    dislodged[province] = Dislodgement(unit, self._came_from(dislodger[province]))
                else:
                    disbanded.append(unit)
            else:  # it stays, and nobody else can have moved in
                units[province] = unit
        for origin, target in boarding.items():
            if origin in moved:  # its carrier ends the phase in the target, undislodged
                carrier = units[target]
                units[target] = carrier.carrying((*carrier.cargo, self.units[origin]))
        contested = frozenset(
            target
            for p, target in self.move_to.items()
            if p not in moved
            and target not in units
            and p not in boarding
            and self._prevent(p) > 0
            and dislodger.get(p) != target
        )
        return MovementResult(
            units,
            dislodged,
            contested,
            tuple(disbanded),
            lambda: self._outcomes(void, dislodger),
            (*offboard, *leaving),
        )

    def _unloaded(self, carrier: str, unit: Unit, moved: set[str]) -> Unit:
        """The carrier without the units aboard it that landed or left the board."""
        staying = tuple(self.units[k] for k in self.cargo_keys[carrier] if k not in moved)
        return unit if len(staying) == len(unit.cargo) else Unit(*unit[:3], staying)

    def _came_from(self, attacker: str) -> str | None:
        """The province a dislodger came from, which its victim may not retreat to: none
        if it was convoyed or came from off the board; its carrier's, if it landed."""
        if attacker in self.by_convoy or attacker.startswith(OFFBOARD):
            return None
        return attacker.partition("+")[0]

    def _outcomes(self, void: list[Outcome], dislodger: dict[str, str]) -> tuple[Outcome, ...]:
        """The void orders, then the orders as given, then the units nobody ordered. A unit
        that holds because its owner's order was void is told once, on that order's line
        ("Void: ...; holds"), not again as a unit without an order."""
        last_void = {}  # a unit without a legal order -> its owner's last void order for it
        for index, outcome in enumerate(void):
            province = outcome.order.province if isinstance(outcome.order, UnitOrder) else ""
            unit = self.units.get(province)
            if unit is not None and unit.power == outcome.power and province not in self.orders:
                order = outcome.order
                if self.beyond and isinstance(order, UnitOrder) and unit.type != order.unit:
                    continue  # a void order for a unit aboard, or for none there
                last_void[province] = index
        told = list(void)
        for province, index in last_void.items():
            told[index] = self._outcome(province, dislodger, void[index])
        units, orders, beyond = self.units, self.orders, self.beyond
        for province in orders:
            if province in units:
                told.append(self._outcome(province, dislodger))
        # Then the units nobody ordered; units aboard and off the board do nothing unless
        # ordered, so only their orders are told.
        for province in units:
            aboard_or_off = beyond and "+" in province
            if province not in orders and province not in last_void and not aboard_or_off:
                told.append(self._outcome(province, dislodger))
        return tuple(told)

    def _outcome(
        self, province: str, dislodger: dict[str, str], void: Outcome | None = None
    ) -> Outcome:
        """The unit's order and its fate; for a unit without a legal order, which holds,
        its owner's `void` order if it gave one."""
        unit = self.units[province]
        given = self.orders.get(province)
        order: Order
        if given is not None:
            order = given
            verdict, note, deciders = self._explain(province, given)
        elif void is not None:
            order, verdict, note, deciders = void.order, void.verdict, f"{void.note}; holds", ()
        else:
            order = Hold(unit.type, unit.location)
            verdict, note, deciders = Verdict.SUCCEEDS, "No order: holds", ()
        attacker = dislodger.get(province)
        if attacker is None and self.beyond and "+" in province:
            carrier = province.partition("+")[0]
            if carrier in dislodger and not (province in self.move_to and self.decided[province]):
                # Still aboard its carrier, it shares its fate.
                aboard = f"Aboard {self._label(carrier)}, dislodged with it"
                note = aboard if verdict is Verdict.SUCCEEDS else f"{note}; {aboard}"
                return Outcome(unit.power, order, Verdict.FAILS, note, deciders)
        if attacker is None:
            return Outcome(unit.power, order, verdict, note, deciders)
        by = self._label(attacker)
        dislodged_note = f"Dislodged by {by}"
        if self.rules.shows_strengths(unit):
            dislodged_note += f" ({self._attack(attacker)}v{self._resisted(attacker)})"
        if void is not None:  # the void order stays void, its unit dislodged where it held
            note = f"{void.note}; {dislodged_note}"
        elif verdict is Verdict.SUCCEEDS:
            note, verdict = dislodged_note, Verdict.FAILS
        else:
            note, verdict = f"{note}; {dislodged_note}", Verdict.FAILS
        return Outcome(unit.power, order, verdict, note, (*deciders, by), by)

    def _resisted(self, origin: str) -> int:
        target = self.move_to[origin]
        return self._defend(target) if origin in self.head_to_head else self._hold(target)

    def _label(self, province: str) -> str:
        unit = self.units[province]
        return f"{unit.type.letter} {place(unit.location)}"

    def _explain(self, p: str, order: MovementOrder) -> tuple[Verdict, str, tuple[str, ...]]:
        if isinstance(order, Move):
            return self._explain_move(p)
        if isinstance(order, Support):
            if p not in self.supports:
                supported = self._supported(p, order)
                return Verdict.FAILS, f"No effect: {self._mismatch(order, supported)}", ()
            if self.decided[p]:
                return Verdict.SUCCEEDS, "Succeeds", ()
            cutter = next((a for a in self.moves_into.get(p, ()) if self._cuts(a, p)), None)
            if cutter is None:
                return Verdict.FAILS, "Cut", ()
            return Verdict.FAILS, f"Cut by {self._label(cutter)}", (self._label(cutter),)
        if isinstance(order, Convoy) and p not in self.convoys:
            convoyed = self._label(order.army) if order.army in self.units else place(order.army)
            return (
                Verdict.FAILS,
                f"No effect: {convoyed} does not go to {place(order.target)} by sea",
                (),
            )
        return Verdict.SUCCEEDS, "Succeeds", ()

    def _mismatch(self, order: Support, key: str) -> str:
        if key not in self.units:  # off the board, none of that kind moves there
            kind = order.supported_unit.letter if order.supported_unit else ""
            return f"{kind} {OFFBOARD} does not move to {place(order.target or '')}"
        if not self.rules.may_be_supported(self.units[key]):
            return f"{self._label(key)} may not be supported"
        supported = self.orders.get(key)
        label = self._label(key)
        if order.target is None:
            return f"{label} is not holding"
        if isinstance(supported, Move):
            return f"{label} moves to {place(supported.target)}, not {place(order.target)}"
        return f"{label} does not move to {place(order.target)}"

    def _explain_move(self, origin: str) -> tuple[Verdict, str, tuple[str, ...]]:
        if self.decided[origin]:
            return Verdict.SUCCEEDS, "Succeeds", ()
        if origin in self.boarding:
            order = self.orders[origin]
            assert isinstance(order, Embark) and order.carrier is not None
            carrier = f"{order.carrier.name} of {self.units[origin].power}"
            return Verdict.FAILS, f"Fails: no {carrier} to board in {place(order.target)}", ()
        if origin in self.paradox:
            return Verdict.FAILS, "Fails: convoy paradox (Szykman rule)", ()
        if not self._path(origin):
            return Verdict.FAILS, "Fails: no convoy route", ()
        target = self.move_to[origin]
        defender = self.units.get(target)
        if defender is not None and not self.rules.shows_strengths(defender):
            return Verdict.FAILS, "Bounced", (self._label(target),)
        attack = self._attack(origin)
        if (
            defender is not None
            and attack == 0
            and not self.rules.may_dislodge(self.units[origin].power, defender)
        ):
            return (
                Verdict.FAILS,
                f"Bounced: may not dislodge {self._label(target)}",
                (self._label(target),),
            )
        resistance = self._resisted(origin)
        if attack <= resistance:
            return Verdict.FAILS, f"Bounced {attack}v{resistance}", (self._label(target),)
        for rival in self.moves_into[target]:
            if rival != origin and attack <= (prevent := self._prevent(rival)):
                rival_place = place(province_of(self.units[rival].location))
                return (
                    Verdict.FAILS,
                    f"Bounced {attack}v{prevent} (with {rival_place})",
                    (self._label(rival),),
                )
        return Verdict.FAILS, "Bounced (a stationary unit never moves)", ()
