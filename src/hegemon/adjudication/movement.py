"""Resolution of a movement phase, by Lucas Kruijswijk's guess-and-check algorithm.

Each unit carries one decision, in a record of its own (`_Node`) keyed by the province it
stands in: does its move succeed, is its support given, does it stay in place. The record
links the units its decision reads (its defender, rivals, supporters, attackers, convoying
fleets), which resolving follows as attributes. `_Resolver.resolve` decides one lazily,
recursing into the decisions it depends on; when a decision turns out to depend on itself
it is tried both ways, and a cycle with no single answer is broken by the backup rule: all
moves in a circle succeed, and a convoy paradox makes the convoyed armies in it fail (the
Szykman rule, DATC 4.A.2).

Units aboard others and units off the board (docs/writing-a-variant.md, "Units aboard and
off the board") have decisions too, keyed apart from every province: ``sao+0`` for the
first unit aboard the one in Sao, ``OFFBOARD+1`` for the second unit off the board. A
move off the board always succeeds. A boarding competes for nothing: it decides whether
its carrier ends the phase where it boards; a cycle through one is broken by failing the
boarding, as a convoy paradox fails its convoyed army.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, TypeVar

from hegemon.adjudication.outcome import (
    CONVOY_PARADOX,
    HELD,
    NO_CONVOY_ROUTE,
    REPLACED,
    STATIONARY,
    SUCCEEDED,
    UNORDERED,
    Bounced,
    Dislodged,
    Mismatch,
    Named,
    NoCarrier,
    Outcome,
    Reason,
    Verdict,
    Void,
    Why,
)
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

_T = TypeVar("_T")


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
    # The resolver reads the units from a dict of their own: compiled, iterating a dict is
    # a good deal quicker than iterating the position's read-only view.
    resolver = _Resolver(board, editable(position.units), rules, position)
    void = resolver.accept(orders)
    resolver.index_orders()
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


def _appended(listed: list[_T] | None, value: _T) -> list[_T]:
    """`listed` with `value` appended, or a list of it alone. Not `setdefault(key, [])`,
    which compiled code makes by raising a KeyError inside for every key it lacks."""
    if listed is None:
        return [value]
    listed.append(value)
    return listed


def _contest(moves_into: dict[str, list[_Node]], move: _Node) -> list[_Node]:
    """The moves into `move`'s target: one list, which grows as the orders are indexed,
    shared by those moves as their rivals and by the unit standing there as its attackers."""
    target = move.target or ""
    contest = moves_into.get(target)
    if contest is None:
        contest = moves_into[target] = []
        if move.defender is not None:
            move.defender.attackers = contest
    return contest


class _Node:
    """The resolver's record of one unit: its order, its decision, and the units that
    deciding it reads, linked directly. Resolving follows these links, read as attributes,
    where looking each up by province in a dict of its own cost a good deal more."""

    def __init__(self, key: str, unit: Unit) -> None:
        self.key: Final = key  # its province; or as the module docstring says, beyond one
        self.unit: Final = unit
        self.order: MovementOrder | None = None  # None: it holds
        # The decision: a move succeeds, a support is given, any other unit stays put.
        self.decided: bool | None = None  # settled
        self.guess: bool | None = None  # being tried, while its cycle is found
        self.attackers: list[_Node] | None = None  # the moves into its province
        self.hold_support: list[_Node] | None = None  # supports given to it holding
        self.dislodger: _Node | None = None  # once resolved
        # A move.
        self.target: str | None = None  # the province it moves to
        self.defender: _Node | None = None  # the unit standing there
        self.rivals: list[_Node] | None = None  # the moves into the target, but a boarding
        self.move_support: list[_Node] | None = None
        self.convoy_fleets: list[_Node] | None = None  # the fleets convoying it
        self.boards = False  # an Embark (module docstring)
        self.by_convoy = False
        self.head_to_head = False  # with its defender, over land
        self.stationary = False
        self.paradox = False  # failed by the Szykman rule
        # A support given to a matching order, and where it supports into (None: a hold).
        self.supports = False
        self.support_into: str | None = None
        # A convoying fleet, and the army it carries where that army goes by sea.
        self.carries: _Node | None = None

    def unlink(self) -> None:
        """Drop every link to another record (`_Resolver.unlink`)."""
        self.attackers = self.hold_support = self.dislodger = self.defender = None
        self.rivals = self.move_support = self.convoy_fleets = self.carries = None

    def moved(self) -> bool:
        """Whether it moved: a move decided to succeed."""
        return self.target is not None and self.decided is True


class _Resolver:
    """One movement phase being resolved, in four steps: `accept` the orders, index them
    (`index_orders`), `resolve_all` the decisions, and build the `result`."""

    def __init__(
        self,
        board: Board,
        units: dict[str, Unit],
        rules: Rules,
        position: Position,
    ) -> None:
        self.board = board
        self.rules = rules
        self.position = position
        self.deps: list[_Node] = []  # decisions guessed, in the order their cycle met them
        # Units aboard and off the board, and the moves none but they make.
        self.beyond = position.beyond_the_board  # any of them, or (once indexed) such a move
        self.cargo_keys: dict[str, list[str]] = {}  # carrier's province -> keys aboard it
        self.offboard_keys: list[str] = []
        # By province; and by key, the units aboard and off the board.
        self.nodes = {key: _Node(key, unit) for key, unit in units.items()}
        if self.beyond:
            self._add_beyond(position)
        self.ordered: list[_Node] = []  # units with a legal order, in the order it came
        self.moves: list[_Node] = []
        self.supporting: list[_Node] = []  # supports that match what they support
        self.convoying: list[_Node] = []  # fleets carrying an army (by sea, once routed)

    # --- setting up ----------------------------------------------------------------
    def _add_beyond(self, position: Position) -> None:
        """Key the units aboard and off the board beside those in provinces."""
        for province, carrier in position.units.items():
            for index, unit in enumerate(carrier.cargo):
                key = f"{province}+{index}"
                self.nodes[key] = _Node(key, unit)
                self.cargo_keys[province] = _appended(self.cargo_keys.get(province), key)
        for index, unit in enumerate(position.offboard):
            key = f"{OFFBOARD}+{index}"
            self.nodes[key] = _Node(key, unit)
            self.offboard_keys.append(key)

    def accept(self, orders: Mapping[str, Sequence[Order]]) -> list[Outcome]:
        """Give each unit its legal order (the last one given wins); the void orders."""
        board, position, rules, nodes = self.board, self.position, self.rules, self.nodes
        # Orders as written, where checking rewrote them (most it leaves as they are): what
        # the report of a replaced order quotes.
        rewritten: dict[str, Order] = {}
        void: list[Outcome] = []
        beyond = position.beyond_the_board
        for power, power_orders in orders.items():
            for order in power_orders:
                checked = check_movement_order(board, position, power, order, rules)
                if isinstance(checked, Illegal):
                    void.append(Outcome(power, order, Verdict.VOID, Void(checked.reason)))
                    continue
                key = _key(position, power, checked) if beyond else checked.province
                node = nodes[key]
                earlier = node.order
                if earlier is None:
                    self.ordered.append(node)
                else:  # only the unit's owner can have given both
                    written = rewritten.pop(key, earlier)
                    void.append(Outcome(power, written, Verdict.VOID, REPLACED))
                if checked is not order:
                    rewritten[key] = order
                node.order = checked
        return void

    def index_orders(self) -> None:
        """Link each move with its defender and rivals, each convoy with its army and each
        matching support with what it supports, and decide which moves go by sea."""
        nodes = self.nodes
        moves_into: dict[str, list[_Node]] = {}
        convoys: list[_Node] = []
        supports: list[_Node] = []
        for node in self.ordered:
            order = node.order
            if isinstance(order, Move):
                target = node.target = order.destination
                node.defender = nodes.get(target)
                self.moves.append(node)
                if isinstance(order, Embark):  # competes for nothing (module docstring)
                    node.boards = self.beyond = True
                    node.rivals = _contest(moves_into, node)
                elif target == OFFBOARD:
                    node.decided = self.beyond = True  # always succeeds
                else:
                    node.rivals = _contest(moves_into, node)
                    node.rivals.append(node)
            elif isinstance(order, Support):
                supports.append(node)
            elif isinstance(order, Convoy):
                convoys.append(node)
        for fleet in convoys:
            self._carry(fleet)
        self._decide_convoy_routes()
        self._mark_moves()
        for supporter in supports:
            self._support(supporter)

    def _carry(self, fleet: _Node) -> None:
        """Link a convoying fleet with the army it convoys, if that army moves where the
        convoy order says."""
        order = fleet.order
        assert isinstance(order, Convoy)
        army = self.nodes.get(order.army)
        if army is None or army.target != order.target:
            return
        fleet.carries = army
        army.convoy_fleets = _appended(army.convoy_fleets, fleet)
        self.convoying.append(fleet)

    def _support(self, supporter: _Node) -> None:
        """Link a support with the order it supports, if it matches it."""
        order = supporter.order
        assert isinstance(order, Support)
        supported = self.nodes.get(self._supported(supporter.key, order))
        if supported is None or not self._support_matches(order, supported):
            return
        supporter.supports = True
        self.supporting.append(supporter)
        if order.target is None:
            supported.hold_support = _appended(supported.hold_support, supporter)
        else:
            supporter.support_into = order.destination
            supported.move_support = _appended(supported.move_support, supporter)

    def _supported(self, supporter: str, order: Support) -> str:
        """The key of the unit a support names: the unit in its province, or the one
        aboard it or off the board of the kind it names (off the board: the supporter's
        own power's, or else the only one of that kind that moves where it supports)."""
        held = order.supported
        if not self.beyond or order.supported_unit is None:
            return held
        kind = order.supported_unit
        if held == OFFBOARD:
            power = self.nodes[supporter].unit.power
            keys = [k for k in self.offboard_keys if self.nodes[k].unit.type == kind]
            own = [k for k in keys if self.nodes[k].unit.power == power]
            moving = [k for k in keys if self.nodes[k].target == order.destination]
            return own[0] if own else moving[0] if len(moving) == 1 else held
        occupant = self.nodes.get(held)
        if occupant is None or occupant.unit.type == kind:
            return held
        aboard = [k for k in self.cargo_keys.get(held, ()) if self.nodes[k].unit.type == kind]
        return aboard[0] if aboard else held

    def _decide_convoy_routes(self) -> None:
        """Which moves go by convoy (DATC 4.A.3): those that cannot go over land, and
        those that can but whose convoying fleets form a route and that the rules send by
        it (standard: by intent, the 2000 rules' reading, DATC 6.G.8)."""
        for node in self.moves:
            order = node.order
            assert isinstance(order, Move) and node.target is not None
            if not order.unit.convoyed or node.boards or node.target == OFFBOARD:
                continue
            if self.beyond and "+" in node.key:  # aboard or off the board: never convoyed
                continue
            over_land = self.board.reaches_province(order.unit, node.key, node.target)
            if not over_land or self._intends_sea(node, order):
                node.by_convoy = True
        for fleet in self.convoying:
            army = fleet.carries
            assert army is not None
            if not army.by_convoy:  # it goes over land: nobody convoys it
                fleet.carries = army.convoy_fleets = None
        self.convoying = [fleet for fleet in self.convoying if fleet.carries is not None]

    def _mark_moves(self) -> None:
        """Which moves meet head to head, now that it is known which go by sea, and which
        the rules hold stationary."""
        stationary = type(self.rules).is_stationary is not Rules.is_stationary  # standard: no
        for node in self.moves:
            defender = node.defender
            # Two units moving into each other's province over land meet head to head.
            node.head_to_head = (
                defender is not None
                and defender.target == node.key
                and not (node.by_convoy or defender.by_convoy or node.boards or defender.boards)
            )
            node.stationary = stationary and self.rules.is_stationary(node.unit)

    def _intends_sea(self, node: _Node, order: Move) -> bool:
        """Whether a unit that could go over land goes by convoy (the rules decide, from
        its order, the fleets ordered to convoy it and whether they form a route)."""
        fleets = node.convoy_fleets or []
        if not fleets and not order.via_convoy:
            return False  # nothing shows any intent to go by sea
        route = bool(fleets) and self.board.convoy_chain(node.key, order.destination, _at(fleets))
        convoying = [fleet.unit for fleet in fleets]
        return self.rules.goes_by_convoy(node.unit, order, convoying, route)

    def _support_matches(self, order: Support, supported: _Node) -> bool:
        if not self.rules.may_be_supported(supported.unit):
            return False
        action = supported.order
        if order.target is None:
            return not isinstance(action, Move)
        if not isinstance(action, Move) or isinstance(action, Embark):
            return False
        if "/" in order.target:  # a coast named in a support must be the move's (DATC 6.B.9)
            return action.target == order.target
        return action.destination == order.target

    # --- the algorithm ----------------------------------------------------------------
    def resolve_all(self) -> None:
        for node in (*self.moves, *self.supporting, *self.convoying):
            self.resolve(node)

    def resolve(self, node: _Node) -> bool:
        decided = node.decided
        if decided is not None:
            return decided
        guess = node.guess
        if guess is not None:  # a decision that depends on itself: note the cycle
            if node not in self.deps:
                self.deps.append(node)
            return guess
        mark = len(self.deps)
        node.guess = False
        first = self._decide(node)
        if len(self.deps) == mark:  # no guess was involved
            # Its guess is left behind: a decision settled is never read from `guess`.
            if node.decided is None:
                node.decided = first
            return first
        if self.deps[mark] is not node:  # part of a larger cycle: let its head decide
            self.deps.append(node)
            node.guess = first
            return first
        self._forget(mark)
        node.guess = True
        second = self._decide(node)
        if first == second:  # a cycle with one consistent answer
            self._forget(mark)
            node.guess = None
            node.decided = first
            return first
        self._backup_rule(mark)
        return self.resolve(node)

    def _forget(self, mark: int) -> None:
        for node in self.deps[mark:]:
            node.guess = None
        del self.deps[mark:]

    def _backup_rule(self, mark: int) -> None:
        cycle = self.deps[mark:]
        carried = [q.carries for q in cycle if q.carries is not None]
        boarding = [q for q in cycle if q.boards]
        self._forget(mark)
        if boarding:  # the boardings fail; the rest is decided again without them
            for node in boarding:
                node.decided = False
        elif carried:  # a convoy paradox: the Szykman rule
            for army in carried:
                army.paradox = True
                army.decided = False
        else:  # circular movement: every move in the circle succeeds
            for node in cycle:
                if node.target is not None:
                    node.decided = True

    def _decide(self, node: _Node) -> bool:
        if node.target is not None:
            return self._boards(node) if node.boards else self._move_succeeds(node)
        if node.supports:
            return self._support_given(node)
        return not self._dislodged(node)

    # --- strengths (DATC 5.B) ------------------------------------------------------
    def _move_succeeds(self, node: _Node) -> bool:
        if node.stationary:
            return False
        attack = self._attack(node)
        if attack == 0:
            return False
        if attack <= self._resisted(node):
            return False
        for rival in node.rivals or ():
            if rival is not node and attack <= self._prevent(rival):
                return False
        return True

    def _boards(self, node: _Node) -> bool:
        """Whether a boarding succeeds: a carrier it may board ends the phase where it
        boards, having stayed there undislodged or moved in."""
        order = node.order
        assert isinstance(order, Embark)
        staying = node.defender
        if (
            staying is not None
            and self._may_board(node.unit, staying.unit, order)
            and not (staying.target is not None and self.resolve(staying))
        ):
            return not self._dislodged(staying)
        return any(
            self._may_board(node.unit, rival.unit, order) and self.resolve(rival)
            for rival in node.rivals or ()
        )

    def _may_board(self, unit: Unit, carrier: Unit, order: Embark) -> bool:
        return (
            carrier.power == unit.power
            and carrier.type == order.carrier
            and self.rules.may_carry(carrier, unit)
        )

    def _strength(self, supporters: list[_Node] | None, against: Unit | None = None) -> int:
        """One for the unit and one for each support given; supports from powers that may
        not dislodge `against` do not count."""
        if supporters is None:  # the common case
            return 1
        strength = 1
        for supporter in supporters:
            if against is not None and not self.rules.may_dislodge(supporter.unit.power, against):
                continue
            # A support nobody attacks is given; only an attacked one needs deciding.
            if supporter.attackers is None or self.resolve(supporter):
                strength += 1
        return strength

    def _attack(self, node: _Node) -> int:
        if node.by_convoy and not self._path(node):
            return 0
        defender = node.defender
        if defender is None or (
            defender.target is not None and not node.head_to_head and self.resolve(defender)
        ):
            return self._strength(node.move_support)
        if not self.rules.may_dislodge(node.unit.power, defender.unit):
            return 0
        return self._strength(node.move_support, against=defender.unit)

    def _resisted(self, node: _Node) -> int:
        """What a move must beat in its target: a defender it meets head to head defends
        with its own move's supports, any other defender holds."""
        defender = node.defender
        if defender is None:
            return 0
        if node.head_to_head:
            return self._strength(defender.move_support)
        if defender.target is not None:
            return 0 if self.resolve(defender) else 1
        return self._strength(defender.hold_support)

    def _prevent(self, node: _Node) -> int:
        if node.by_convoy and not self._path(node):
            return 0
        if node.head_to_head and node.defender is not None and self.resolve(node.defender):
            return 0
        return self._strength(node.move_support)

    def _path(self, node: _Node) -> bool:
        if not node.by_convoy:
            return True
        if node.paradox:
            return False
        fleets = [fleet for fleet in node.convoy_fleets or () if self.resolve(fleet)]
        return self.board.convoy_chain(node.key, node.target or "", _at(fleets))

    def _support_given(self, node: _Node) -> bool:
        unit = node.unit
        into = node.support_into
        from_there = None  # an attack from where the support goes
        for attacker in node.attackers or ():
            if attacker.key == into:
                from_there = attacker
            elif self.rules.may_cut(attacker.unit.power, unit) and self._path(attacker):
                return False
        # An attack from where the support goes cuts it only by dislodging (DATC 6.D.15).
        return from_there is None or not self.resolve(from_there)

    def _cuts(self, attacker: _Node, supporter: _Node) -> bool:
        """Whether the attack from `attacker` is one that cuts the support (for the report:
        the cutter it names)."""
        return (
            attacker.key != supporter.support_into
            and self.rules.may_cut(attacker.unit.power, supporter.unit)
            and self._path(attacker)
        )

    def _dislodged(self, node: _Node) -> bool:
        return any(self.resolve(attacker) for attacker in node.attackers or ())

    # --- results ---------------------------------------------------------------------
    def result(self, void: list[Outcome]) -> MovementResult:
        for node in self.moves:  # who dislodged whom (none where the unit moved away)
            defender = node.defender
            if node.decided and defender is not None and not defender.moved() and not node.boards:
                defender.dislodger = node
        units: dict[str, Unit] = {}
        dislodged: dict[str, Dislodgement] = {}
        disbanded: list[Unit] = []
        offboard: list[Unit] = []  # those that stay off the board
        leaving: list[Unit] = []  # and those that leave it, after them
        beyond = self.beyond
        for key, node in self.nodes.items():
            unit = node.unit
            moved = node.moved()
            if beyond:
                if not moved and "+" in key:  # stays aboard, or off the board
                    if key in self.offboard_keys:
                        offboard.append(unit)
                    continue
                if key in self.cargo_keys:
                    unit = self._unloaded(key, unit)
                if node.boards and moved:
                    continue  # aboard its carrier: see below
                if node.target == OFFBOARD:
                    leaving.append(moved_unit(unit, OFFBOARD))
                    continue
            if moved:
                order = node.order
                assert isinstance(order, Move)
                units[order.destination] = moved_unit(unit, order.target)
            elif node.dislodger is not None:
                if self.rules.retreats(unit):
                    dislodged[key] = Dislodgement(unit, self._came_from(node.dislodger))
                else:
                    disbanded.append(unit)
            else:  # it stays, and nobody else can have moved in
                units[key] = unit
        for node in self.moves:
            if node.boards and node.moved():  # its carrier ends the phase there, undislodged
                target = node.target or ""
                carrier = units[target]
                units[target] = carrier.carrying((*carrier.cargo, node.unit))
        contested = frozenset(
            node.target or ""
            for node in self.moves
            if not node.decided
            and node.target not in units
            and not node.boards
            and self._prevent(node) > 0
            and not (node.dislodger is not None and node.dislodger.key == node.target)
        )
        return MovementResult(
            units,
            dislodged,
            contested,
            tuple(disbanded),
            _Explanation(self, void),
            (*offboard, *leaving),
        )

    def _unloaded(self, carrier: str, unit: Unit) -> Unit:
        """The carrier without the units aboard it that landed or left the board."""
        staying = tuple(
            self.nodes[k].unit for k in self.cargo_keys[carrier] if not self.nodes[k].moved()
        )
        return unit if len(staying) == len(unit.cargo) else Unit(*unit[:3], staying)

    def _came_from(self, attacker: _Node) -> str | None:
        """The province a dislodger came from, which its victim may not retreat to: none
        if it was convoyed or came from off the board; its carrier's, if it landed."""
        if attacker.by_convoy or attacker.key.startswith(OFFBOARD):
            return None
        return attacker.key.partition("+")[0]

    def outcomes(self, void: list[Outcome]) -> tuple[Outcome, ...]:
        """The void orders, then the orders as given, then the units nobody ordered. A unit
        that holds because its owner's order was void is told once, on that order's line
        ("Void: ...; holds"), not again as a unit without an order."""
        last_void: dict[str, int] = {}  # a unit without a legal order -> its last void order
        for index, outcome in enumerate(void):
            order = outcome.order
            node = self.nodes.get(order.province) if isinstance(order, UnitOrder) else None
            if node is None or node.unit.power != outcome.power or node.order is not None:
                continue
            if self.beyond and isinstance(order, UnitOrder) and node.unit.type != order.unit:
                continue  # a void order for a unit aboard, or for none there
            last_void[node.key] = index
        told = list(void)
        for key, index in last_void.items():
            told[index] = self._outcome(self.nodes[key], void[index])
        for node in self.ordered:
            told.append(self._outcome(node))
        # Then the units nobody ordered; units aboard and off the board do nothing unless
        # ordered, so only their orders are told.
        beyond = self.beyond
        for key, node in self.nodes.items():
            aboard_or_off = beyond and "+" in key
            if node.order is None and key not in last_void and not aboard_or_off:
                told.append(self._outcome(node))
        return tuple(told)

    def unlink(self) -> None:
        """Drop the links between the records, once nothing will read them (see
        `_Explanation`)."""
        for node in self.nodes.values():
            node.unlink()

    def _outcome(self, node: _Node, void: Outcome | None = None) -> Outcome:
        """The unit's order and its fate; for a unit without a legal order, which holds,
        its owner's `void` order if it gave one."""
        unit = node.unit
        given = node.order
        order: Order
        if given is not None:
            order = given
            verdict, reason, deciders = self._explain(node, given)
        elif void is not None:
            order, verdict, reason, deciders = void.order, void.verdict, void.reason, ()
        else:
            order = Hold(unit.type, unit.location)
            verdict, reason, deciders = Verdict.SUCCEEDS, UNORDERED, ()
        attacker = node.dislodger
        if attacker is None and self.beyond and "+" in node.key:
            carrier = self.nodes.get(node.key.partition("+")[0])
            if carrier is not None and carrier.dislodger is not None and not node.moved():
                # Still aboard its carrier, it shares its fate.
                aboard = Named(Reason.DISLODGED_ABOARD, _label(carrier))
                return Outcome(unit.power, order, Verdict.FAILS, reason, deciders, aboard)
        if attacker is None:
            held = HELD if void is not None else None  # held for want of a legal order
            return Outcome(unit.power, order, verdict, reason, deciders, held)
        by = _label(attacker)
        dislodged = (
            Dislodged(by, self._attack(attacker), self._resisted(attacker))
            if self.rules.shows_strengths(unit)
            else Dislodged(by, None, None)
        )
        if void is None:  # a void order stays void, its unit dislodged where it held
            verdict = Verdict.FAILS
        return Outcome(unit.power, order, verdict, reason, (*deciders, by), dislodged)

    def _explain(self, node: _Node, order: MovementOrder) -> tuple[Verdict, Why, tuple[str, ...]]:
        if isinstance(order, Move):
            return self._explain_move(node)
        if isinstance(order, Support):
            if not node.supports:
                supported = self._supported(node.key, order)
                return Verdict.FAILS, self._mismatch(order, supported), ()
            if node.decided:
                return Verdict.SUCCEEDS, SUCCEEDED, ()
            cutter = next((a for a in node.attackers or () if self._cuts(a, node)), None)
            if cutter is None:
                return Verdict.FAILS, Named(Reason.CUT, None), ()
            return Verdict.FAILS, Named(Reason.CUT, _label(cutter)), (_label(cutter),)
        if isinstance(order, Convoy) and node.carries is None:
            army = self.nodes.get(order.army)
            convoyed = _label(army) if army is not None else place(order.army)
            return Verdict.FAILS, Mismatch(Reason.CONVOY_MISMATCH, convoyed, order.target), ()
        return Verdict.SUCCEEDS, SUCCEEDED, ()

    def _mismatch(self, order: Support, key: str) -> Why:
        supported = self.nodes.get(key)
        if supported is None:  # off the board, none of that kind moves there
            kind = order.supported_unit.letter if order.supported_unit else ""
            return Mismatch(Reason.SUPPORT_MISMATCH, f"{kind} {OFFBOARD}", order.target or "")
        label = _label(supported)
        if not self.rules.may_be_supported(supported.unit):
            return Named(Reason.NOT_SUPPORTABLE, label)
        action = supported.order
        moves_to = action.target if isinstance(action, Move) and order.target else None
        return Mismatch(Reason.SUPPORT_MISMATCH, label, order.target, moves_to)

    def _explain_move(self, node: _Node) -> tuple[Verdict, Why, tuple[str, ...]]:
        if node.decided:
            return Verdict.SUCCEEDS, SUCCEEDED, ()
        order = node.order
        assert isinstance(order, Move)
        if isinstance(order, Embark):
            assert order.carrier is not None
            carrier = NoCarrier(order.carrier.name, node.unit.power, order.target)
            return Verdict.FAILS, carrier, ()
        if node.paradox:
            return Verdict.FAILS, CONVOY_PARADOX, ()
        if not self._path(node):
            return Verdict.FAILS, NO_CONVOY_ROUTE, ()
        defender = node.defender
        if defender is not None and not self.rules.shows_strengths(defender.unit):
            label = _label(defender)
            return Verdict.FAILS, Bounced(label, None, None), (label,)
        attack = self._attack(node)
        if (
            defender is not None
            and attack == 0
            and not self.rules.may_dislodge(node.unit.power, defender.unit)
        ):
            label = _label(defender)
            return Verdict.FAILS, Named(Reason.MAY_NOT_DISLODGE, label), (label,)
        resistance = self._resisted(node)
        if attack <= resistance:
            assert defender is not None  # an attack of one or more beats an empty province
            label = _label(defender)
            return Verdict.FAILS, Bounced(label, attack, resistance), (label,)
        for rival in node.rivals or ():
            if rival is not node and attack <= (prevent := self._prevent(rival)):
                label = _label(rival)
                rival_at = province_of(rival.unit.location)
                return Verdict.FAILS, Bounced(label, attack, prevent, rival_at), (label,)
        return Verdict.FAILS, STATIONARY, ()


class _Explanation:
    """A resolved phase's outcomes, told on the first call and kept: what a movement
    result's `explain` is. The resolver's records link each other both ways (a move and its
    defender, two units supporting each other), and a cycle of links is freed only by the
    garbage collector, which costs a phase more than unlinking them (docs/compiled-core.md).
    So they are unlinked once the outcomes are told, or, if they never are (a bot searching
    ahead), as the explanation goes."""

    def __init__(self, resolver: _Resolver, void: list[Outcome]) -> None:
        self._resolver: Final = resolver
        self._void: Final = void
        self._told: tuple[Outcome, ...] | None = None

    def __call__(self) -> tuple[Outcome, ...]:
        if self._told is None:
            self._told = self._resolver.outcomes(self._void)
            self._resolver.unlink()
        return self._told

    def __del__(self) -> None:
        if self._told is None:
            self._resolver.unlink()


def _at(nodes: Iterable[_Node]) -> list[str]:
    """Where these units stand (a fleet may be on a river's coast)."""
    return [node.unit.location for node in nodes]


def _label(node: _Node) -> str:
    """How the report names a unit: ``A Par``, ``F Stp/sc``."""
    unit = node.unit
    letter = unit.type.letter
    labels = _LABELS.get(letter)
    if labels is None:
        labels = _LABELS[letter] = {}
    label = labels.get(unit.location)
    if label is None:
        label = labels[unit.location] = f"{letter} {place(unit.location)}"
    return label


# Labels written so far, by unit letter and location: the report names most units several
# times, phase after phase. As `place`'s, bounded by the maps' locations.
_LABELS: Final[dict[str, dict[str, str]]] = {}
