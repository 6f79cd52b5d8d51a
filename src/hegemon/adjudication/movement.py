"""Resolution of a movement phase, by Lucas Kruijswijk's guess-and-check algorithm.

Each unit carries one decision, in a record of its own (`Record`) keyed by the province it
stands in: does its move succeed, is its support given, does it stay in place. The record
links the units its decision reads (its defender, rivals, supporters, attackers, convoying
fleets), which resolving follows as attributes. `Resolver.resolve` decides one lazily,
recursing into the decisions it depends on; when a decision turns out to depend on itself
it is tried both ways, and a cycle with no single answer is broken by the backup rule: all
moves in a circle succeed, and a convoy paradox makes the convoyed armies in it fail (the
Szykman rule, DATC 4.A.2).

Units aboard others and units off the board (docs/writing-a-variant.md, "Units aboard and
off the board") have records too, each saying where it stands: the province, the
carrier it is aboard there, whether it is off the board. Such a unit holds no province:
nobody attacks it, and its landing or entry (a `Move` from there) never meets a unit head
to head. Orders of a kind outside the standard four (`hegemon.orders.OwnOrder`:
boarding a carrier or leaving the board, `hegemon.beyond`, and the variants'
own) decide themselves through that protocol, the resolver asking them as it meets them;
a cycle through one is broken by failing it, as a convoy paradox fails its convoyed army.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, TypeVar, cast

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import OFFBOARD, Board, province_of
from hegemon.legality import Found, check_movement_order, check_standing
from hegemon.orders import (
    Convoy,
    Hold,
    Illegal,
    Move,
    MovementOrder,
    Order,
    OwnOrder,
    Support,
    UnitOrder,
    place,
    unit_name,
)
from hegemon.position import Dislodgement, Position, Unit
from hegemon.reasons import (
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
    Reason,
    Void,
    Why,
)
from hegemon.rules import Rules

_T = TypeVar("_T")


class MovementResult:
    """Where every unit stands after the phase, what must retreat, and every order's fate."""

    # A plain class, as the compiled core builds and reads one fastest (docs/compiled-core.md).
    def __init__(
        self,
        units: dict[str, Unit],  # its own: the next position takes it, `Position.after_moves`
        dislodged: dict[str, Dislodgement],
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
    # The resolver reads the units from a dict of their own, which it makes its index of
    # records: compiled, a dict is read a good deal quicker than the position's view.
    resolver = Resolver(board, position.editable_units(), rules, position)
    void = resolver.accept(orders)
    resolver.index_orders()
    resolver.resolve_all()
    return resolver.result(void)


def _appended(listed: list[_T] | None, value: _T) -> list[_T]:
    """`listed` with `value` appended, or a list of it alone. Not `setdefault(key, [])`,
    which compiled code makes by raising a KeyError inside for every key it lacks."""
    if listed is None:
        return [value]
    listed.append(value)
    return listed


def _contest(
    moves_into: dict[str, list[Record]], move: Record, joining: Record | None = None
) -> list[Record]:
    """The moves into `move`'s target: one list, which grows as the orders are indexed,
    shared by those moves as their rivals and by the unit standing there as its attackers
    (which keeps it: `moves_into` keeps those into empty provinces); with `joining` added
    to it, a standard move being indexed (a list made for it is made holding it)."""
    defender = move.defender
    if defender is not None:
        contest = defender.attackers
        if contest is None:
            contest = defender.attackers = [] if joining is None else [joining]
        elif joining is not None:
            contest.append(joining)
        return contest
    target = move.target or ""
    contest = moves_into.get(target)
    if contest is None:
        contest = moves_into[target] = [] if joining is None else [joining]
    elif joining is not None:
        contest.append(joining)
    return contest


class Record:
    """The resolver's record of one unit: its order, its decision, and the units that
    deciding it reads, linked directly. Resolving follows these links, read as attributes,
    where looking each up by province in a dict of its own cost a good deal more. Orders
    of their own kind (`OwnOrder`) read and set the fields their protocol names."""

    def __init__(
        self, unit: Unit, province: str, carrier: Unit | None = None, offboard: bool = False
    ) -> None:
        # Where it stands: its province (OFFBOARD off the board), the carrier it is aboard
        # there, if any, and whether it is off the board.
        self.province: Final = province
        self.carrier: Final = carrier
        self.offboard: Final = offboard
        # The province it holds, read by every decision: its own on the board; none ("",
        # no province id) for a unit aboard or off the board, which holds none.
        self.at: Final = "" if carrier is not None or offboard else province
        self.unit: Final = unit
        self.order: MovementOrder | None = None  # None: it holds
        self.own: OwnOrder | None = None  # its order, if of a kind that decides itself
        # The decision: a move succeeds, a support is given, any other unit stays put.
        self.decided: bool | None = None  # settled
        self.guess: bool | None = None  # being tried, while its cycle is found
        self.attackers: list[Record] | None = None  # the moves into its province
        self.hold_support: list[Record] | None = None  # supports given to it holding
        self.dislodger: Record | None = None  # once resolved
        # A move.
        self.target: str | None = None  # the province it moves to (an own kind's: where it goes)
        self.defender: Record | None = None  # the unit standing there
        self.rivals: list[Record] | None = None  # the moves into the target
        self.move_support: list[Record] | None = None
        self.convoy_fleets: list[Record] | None = None  # the fleets convoying it
        self.by_convoy = False
        self.landed = False  # its check found it reaches its target over land (`Found`)
        # A support's or a convoy's: the unit it names, as its check found it (`Found`).
        self.named: Record | None = None
        self.head_to_head = False  # with its defender, over land
        self.stationary = False
        self.paradox = False  # failed by the Szykman rule
        # A support given to a matching order, and where it supports into (None: a hold).
        self.supports = False
        self.support_into: str | None = None
        # A convoying fleet, and the army it carries where that army goes by sea.
        self.carries: Record | None = None

    @property
    def beyond(self) -> bool:
        """Whether it is aboard a carrier or off the board: it holds no province."""
        return self.carrier is not None or self.offboard

    def unlink(self) -> None:
        """Drop every link to another record (`Resolver.unlink`). Only the links made are
        set to None: most records have none or one, and compiled, reading a field costs a
        good deal less than setting it."""
        if self.attackers is not None:
            self.attackers = None
        if self.hold_support is not None:
            self.hold_support = None
        if self.dislodger is not None:
            self.dislodger = None
        if self.defender is not None:
            self.defender = None
        if self.rivals is not None:
            self.rivals = None
        if self.move_support is not None:
            self.move_support = None
        if self.convoy_fleets is not None:
            self.convoy_fleets = None
        if self.carries is not None:
            self.carries = None
        if self.named is not None:
            self.named = None

    def moved(self) -> bool:
        """Whether it moved: a move decided to succeed."""
        return self.target is not None and self.decided is True


class Resolver:
    """One movement phase being resolved, in four steps: `accept` the orders, index them
    (`index_orders`), `resolve_all` the decisions, and build the `result`."""

    def __init__(
        self,
        board: Board,
        units: dict[str, Unit],  # its own copy of the units, which it makes its records'
        rules: Rules,
        position: Position,
    ) -> None:
        self.board = board
        self.rules = rules
        self.position = position
        self.deps: list[Record] = []  # decisions guessed, in the order their cycle met them
        # Whether anything the standard game never has takes part: units aboard or off the
        # board, or (once indexed) orders of their own kind. If not, the direct paths.
        self.extended = position.beyond_the_board
        # The units on the board, listed in the position's order for the steps that go
        # through them all, and by the province each stands in (`Unit.province`, as
        # positions key them); those aboard, by their carrier's; those off the board.
        # Lists rather than a dict's items where they are gone through: compiled, an item
        # of a list costs a few instructions, one of a dict's items some hundred.
        self.on_board = [Record(unit, unit.province) for unit in list(units.values())]
        # By province: the dict given, the resolver's own, each unit replaced by its
        # record where it stands. Replacing a value costs a good deal less than putting a
        # key into a new dict.
        nodes = cast(dict[str, Record], units)
        for node in self.on_board:
            nodes[node.province] = node
        self.nodes = nodes
        self.cargo: dict[str, list[Record]] = {}
        self.offboard: list[Record] = []
        if self.extended:
            self._add_beyond(position)
        self.ordered: list[Record] = []  # units with a legal order, in the order it came
        self.moves: list[Record] = []  # standard moves
        self.own: list[Record] = []  # orders of their own kind
        self.moves_into: dict[str, list[Record]] = {}  # empty target -> the moves into it
        self.supporting: list[Record] = []  # supports that match what they support
        self.convoying: list[Record] = []  # fleets carrying an army (by sea, once routed)

    # --- setting up ----------------------------------------------------------------
    def _add_beyond(self, position: Position) -> None:
        """Record the units aboard and off the board beside those in provinces."""
        for province, carrier in position.units.items():
            if carrier.cargo:
                self.cargo[province] = [Record(unit, province, carrier) for unit in carrier.cargo]
        self.offboard = [Record(unit, OFFBOARD, offboard=True) for unit in position.offboard]

    def _record_for(self, power: str, order: UnitOrder) -> Record:
        """The record of the unit a legal order commands, in a position with units aboard
        or off the board: the unit in its province, or the one of the kind it names aboard
        that unit, or `power`'s off the board."""
        kind = order.unit
        if order.province == OFFBOARD:
            return next(r for r in self.offboard if r.unit.power == power and r.unit.type == kind)
        occupant = self.nodes[order.province]
        if occupant.unit.type == kind:
            return occupant
        return next(r for r in self.cargo[order.province] if r.unit.type == kind)

    def accept(self, orders: Mapping[str, Sequence[Order]]) -> list[Outcome]:
        """Give each unit its legal order (the last one given wins); the void orders."""
        board, position, rules, nodes = self.board, self.position, self.rules, self.nodes
        # Orders as written, where checking rewrote them (most it leaves as they are): what
        # the report of a replaced order quotes.
        rewritten: dict[Record, Order] = {}
        void: list[Outcome] = []
        beyond = position.beyond_the_board
        found = _Found(nodes)
        # A dict, as the phase machine hands them over, gone through directly: a mapping's
        # items are read through Python's protocol, an item at a time.
        given: dict[str, Sequence[Order]] = orders if isinstance(orders, dict) else dict(orders)
        for power, power_orders in given.items():
            # A tuple, as the phase machine freezes them (`tuple` hands it back as it is),
            # iterated directly where a sequence is iterated through Python's protocol.
            for order in tuple(power_orders):
                node: Record | None = None
                found.forget()
                if beyond or not isinstance(order, (Hold, Move, Support, Convoy, OwnOrder)):
                    checked = check_movement_order(board, position, power, order, rules)
                else:  # the unit is looked up once, for the check and for its record
                    node = nodes.get(order.province)
                    unit = None if node is None else node.unit
                    checked = check_standing(board, position, power, order, rules, unit, found)
                if isinstance(checked, Illegal):
                    void.append(Outcome(power, order, Verdict.VOID, Void(checked.reason)))
                    continue
                if beyond:
                    node = self._record_for(power, checked)
                elif node is None or node.province != checked.province:
                    node = nodes[checked.province]
                earlier = node.order
                if earlier is None:
                    self.ordered.append(node)
                else:  # only the unit's owner can have given both
                    written = rewritten.pop(node, earlier)
                    void.append(Outcome(power, written, Verdict.VOID, REPLACED))
                if checked is not order:
                    rewritten[node] = order
                node.order = checked
                node.landed, node.named = found.landed, found.named
        return void

    def index_orders(self) -> None:
        """Link each move with its defender and rivals, each convoy with its army and each
        matching support with what it supports, and decide which moves go by sea."""
        nodes = self.nodes
        moves_into = self.moves_into
        convoys: list[Record] = []
        supports: list[Record] = []
        for node in self.ordered:
            order = node.order
            if isinstance(order, Move):
                target = node.target = order.destination
                node.defender = nodes.get(target)
                self.moves.append(node)
                node.rivals = _contest(moves_into, node, node)
            elif isinstance(order, Support):
                supports.append(node)
            elif isinstance(order, Convoy):
                convoys.append(node)
            elif isinstance(order, OwnOrder):  # it decides itself (module docstring)
                node.own = order
                self.extended = True
                self.own.append(node)
                order.index(node, self)
        for fleet in convoys:
            self._carry(fleet)
        self._decide_convoy_routes()
        self._mark_moves()
        for supporter in supports:
            self._support(supporter)

    def _carry(self, fleet: Record) -> None:
        """Link a convoying fleet with the army it convoys, if that army moves where the
        convoy order says."""
        order = fleet.order
        assert isinstance(order, Convoy)
        army = fleet.named  # as its check found it (`Found`), if it did
        if army is None:
            army = self.nodes.get(order.army)
        if army is None or army.target != order.target:
            return
        fleet.carries = army
        army.convoy_fleets = _appended(army.convoy_fleets, fleet)
        self.convoying.append(fleet)

    def _support(self, supporter: Record) -> None:
        """Link a support with the order it supports, if it matches it."""
        order = supporter.order
        assert isinstance(order, Support)
        supported = self._named(supporter, order)
        if supported is None or not self._support_matches(order, supported):
            return
        supporter.supports = True
        self.supporting.append(supporter)
        if order.target is None:
            supported.hold_support = _appended(supported.hold_support, supporter)
        else:
            supporter.support_into = order.destination
            supported.move_support = _appended(supported.move_support, supporter)

    def _named(self, supporter: Record, order: Support) -> Record | None:
        """The record of the unit a support names: as its check found it (`Found`, which
        looks it up as `_supported` does where nothing stands aboard or off the board),
        or else looked up."""
        named = supporter.named
        return self._supported(supporter, order) if named is None else named

    def _supported(self, supporter: Record, order: Support) -> Record | None:
        """The record of the unit a support names: the unit in its province, or the one
        aboard it or off the board of the kind it names (off the board: the supporter's
        own power's, or else the only one of that kind that moves where it supports)."""
        held = order.supported
        occupant = self.nodes.get(held)
        kind = order.supported_unit
        if not self.extended or kind is None:
            return occupant
        if held == OFFBOARD:
            power = supporter.unit.power
            of_kind = [r for r in self.offboard if r.unit.type == kind]
            own = [r for r in of_kind if r.unit.power == power]
            moving = [r for r in of_kind if r.target == order.destination]
            return own[0] if own else moving[0] if len(moving) == 1 else None
        if occupant is None or occupant.unit.type == kind:
            return occupant
        aboard = [r for r in self.cargo.get(held, ()) if r.unit.type == kind]
        return aboard[0] if aboard else occupant

    def _decide_convoy_routes(self) -> None:
        """Which moves go by convoy (DATC 4.A.3): those that cannot go over land, and
        those that can but whose convoying fleets form a route and that the rules send by
        it (standard: by intent, the 2000 rules' reading, DATC 6.G.8)."""
        for node in self.moves:
            order = node.order
            assert isinstance(order, Move) and node.target is not None
            if not order.unit.convoyed:
                continue
            if self.extended and node.beyond:  # aboard or off the board: never convoyed
                continue
            # Over land if its check found its landing from where it stands (`Found`): the
            # board need not be asked again.
            over_land = (
                node.landed and node.unit.location == node.at
            ) or self.board.reaches_province(order.unit, node.at, node.target)
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
                and defender.target == node.at
                and not (node.by_convoy or defender.by_convoy or defender.own is not None)
            )
            node.stationary = stationary and self.rules.is_stationary(node.unit)

    def _intends_sea(self, node: Record, order: Move) -> bool:
        """Whether a unit that could go over land goes by convoy (the rules decide, from
        its order, the fleets ordered to convoy it and whether they form a route)."""
        fleets = node.convoy_fleets or _NO_RECORDS
        if not fleets and not order.via_convoy:
            return False  # nothing shows any intent to go by sea
        route = bool(fleets) and self.board.convoy_chain(node.at, order.destination, _at(fleets))
        convoying = [fleet.unit for fleet in fleets]
        return self.rules.goes_by_convoy(node.unit, order, convoying, route)

    def _support_matches(self, order: Support, supported: Record) -> bool:
        if not self.rules.may_be_supported(supported.unit):
            return False
        action = supported.order
        if order.target is None:
            return not isinstance(action, Move)
        if not isinstance(action, Move):
            return False
        if "/" in order.target:  # a coast named in a support must be the move's (DATC 6.B.9)
            return action.target == order.target
        return action.destination == order.target

    # --- the algorithm ----------------------------------------------------------------
    def resolve_all(self) -> None:
        self._resolve_each(self.moves)
        self._resolve_each(self.supporting)
        self._resolve_each(self.convoying)
        self._resolve_each(self.own)

    def _resolve_each(self, nodes: list[Record]) -> None:
        for node in nodes:
            self.resolve(node)

    def resolve(self, node: Record) -> bool:
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
        own = [q for q in cycle if q.own is not None]
        self._forget(mark)
        if own:  # the orders of their own kind fail; the rest is decided again without them
            for node in own:
                node.decided = False
        elif carried:  # a convoy paradox: the Szykman rule
            for army in carried:
                army.paradox = True
                army.decided = False
        else:  # circular movement: every move in the circle succeeds
            for node in cycle:
                if node.target is not None:
                    node.decided = True

    def _decide(self, node: Record) -> bool:
        own = node.own
        if node.target is not None:
            return self._move_succeeds(node) if own is None else own.decide(node, self)
        if node.supports:
            return self._support_given(node)
        if own is not None:
            return own.decide(node, self)
        return not self.dislodged(node)

    # --- strengths (DATC 5.B) ------------------------------------------------------
    def _move_succeeds(self, node: Record) -> bool:
        if node.stationary:
            return False
        attack = self._attack(node)
        if attack == 0:
            return False
        if attack <= self._resisted(node):
            return False
        for rival in node.rivals or _NO_RECORDS:
            if rival is not node and attack <= self._prevent(rival):
                return False
        return True

    def _strength(self, supporters: list[Record] | None, against: Unit | None = None) -> int:
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

    def _attack(self, node: Record) -> int:
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

    def _resisted(self, node: Record) -> int:
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

    def _prevent(self, node: Record) -> int:
        if node.by_convoy and not self._path(node):
            return 0
        if node.head_to_head and node.defender is not None and self.resolve(node.defender):
            return 0
        return self._strength(node.move_support)

    def _path(self, node: Record) -> bool:
        if not node.by_convoy:
            return True
        if node.paradox or node.convoy_fleets is None:  # often: no fleet convoys it at all
            return False
        fleets = [fleet for fleet in node.convoy_fleets if self.resolve(fleet)]
        return bool(fleets) and self.board.convoy_chain(node.at, node.target or "", _at(fleets))

    def _support_given(self, node: Record) -> bool:
        unit = node.unit
        into = node.support_into
        from_there = None  # an attack from where the support goes
        for attacker in node.attackers or _NO_RECORDS:
            if attacker.at == into:
                from_there = attacker
            elif attacker.unit.power != unit.power and self._path(attacker):
                return False
        # An attack from where the support goes cuts it only by dislodging (DATC 6.D.15).
        return from_there is None or not self.resolve(from_there)

    def _cuts(self, attacker: Record, supporter: Record) -> bool:
        """Whether the attack from `attacker` is one that cuts the support (for the report:
        the cutter it names)."""
        return (
            attacker.at != supporter.support_into
            and attacker.unit.power != supporter.unit.power
            and self._path(attacker)
        )

    def dislodged(self, node: Record) -> bool:
        """Whether a move into the unit's province succeeds (it is dislodged, unless it
        moved away)."""
        return any(self.resolve(attacker) for attacker in node.attackers or _NO_RECORDS)

    # --- what orders of their own kind ask (`OwnOrder`) -------------------------------
    def record_in(self, province: str) -> Record | None:
        """The record of the unit standing in `province`, if any."""
        return self.nodes.get(province)

    def contest(self, node: Record) -> list[Record]:
        """The standard moves into `node`'s target (its rivals there, not counting it),
        a list that grows while the orders are indexed."""
        return _contest(self.moves_into, node)

    def own_into(self, province: str) -> list[Record]:
        """The orders of their own kind that go to `province` (`Record.target`)."""
        return [node for node in self.own if node.target == province]

    def label(self, node: Record) -> str:
        """How the report names the unit: ``A Par``."""
        return _label(node)

    # --- results ---------------------------------------------------------------------
    def result(self, void: list[Outcome]) -> MovementResult:
        for node in self.moves:  # who dislodged whom (none where the unit moved away)
            defender = node.defender
            if node.decided and defender is not None and not defender.moved():
                defender.dislodger = node
        settling = Settling()
        units = settling.units
        dislodged: dict[str, Dislodgement] = {}
        disbanded: list[Unit] = []
        extended = self.extended
        for node in self.on_board:
            province, unit = node.province, node.unit
            moved = node.moved()
            if extended:
                cargo = self.cargo.get(province)
                if cargo is not None:
                    unit = _unloaded(cargo, unit)
                own = node.own
                if own is not None and moved:
                    own.settle(node, unit, settling)
                    continue
            if moved:
                order = node.order
                assert isinstance(order, Move)
                units[order.destination] = unit.moved_to(order.target)
            elif node.dislodger is not None:
                if self.rules.retreats(unit):
                    # Made as the tuple it is: its class's own constructor is Python
                    # code, which compiled code calls a good deal more slowly.
                    came_from = self._came_from(node.dislodger)
                    dislodged[province] = tuple.__new__(Dislodgement, (unit, came_from))
                else:
                    disbanded.append(unit)
            else:  # it stays, and nobody else can have moved in
                units[province] = unit
        if extended:
            self._settle_beyond(settling)
        standoffs = [
            node.target or ""
            for node in self.moves
            if not node.decided
            and node.target not in units
            and self._prevent(node) > 0
            and not (node.dislodger is not None and node.dislodger.at == node.target)
        ]
        return MovementResult(
            units,
            dislodged,
            frozenset(standoffs) if standoffs else _NO_STANDOFFS,
            tuple(disbanded),
            _Explanation(self, void),
            (*settling.offboard, *settling.leaving) if extended else (),
        )

    def _settle_beyond(self, settling: Settling) -> None:
        """Where the units aboard and off the board end the phase, and the units that
        boarded a carrier (in the order their orders came)."""
        for node in [*(r for cargo in self.cargo.values() for r in cargo), *self.offboard]:
            if not node.moved():  # stays aboard (its carrier took it along), or off the board
                if node.offboard:
                    settling.offboard.append(node.unit)
                continue
            own = node.own
            if own is not None:
                own.settle(node, node.unit, settling)
                continue
            order = node.order
            assert isinstance(order, Move)  # a landing or an entry
            settling.units[order.destination] = node.unit.moved_to(order.target)
        for node in self.own:
            target = settling.boarding.get(node)
            if target is not None:  # its carrier ends the phase there, undislodged
                carrier = settling.units[target]
                settling.units[target] = carrier.carrying((*carrier.cargo, node.unit))

    def _came_from(self, attacker: Record) -> str | None:
        """The province a dislodger came from, which its victim may not retreat to: none
        if it was convoyed or came from off the board; its carrier's, if it landed."""
        if attacker.by_convoy or attacker.offboard:
            return None
        return attacker.province

    def outcomes(self, void: list[Outcome]) -> tuple[Outcome, ...]:
        """The void orders, then the orders as given, then the units nobody ordered. A unit
        that holds because its owner's order was void is told once, on that order's line
        ("Void: ...; holds"), not again as a unit without an order."""
        last_void: dict[Record, int] = {}  # a unit without a legal order -> its last void order
        for index, outcome in enumerate(void):
            order = outcome.order
            node = self.nodes.get(order.province) if isinstance(order, UnitOrder) else None
            if node is None or node.unit.power != outcome.power or node.order is not None:
                continue
            if self.extended and isinstance(order, UnitOrder) and node.unit.type != order.unit:
                continue  # a void order for a unit aboard, or for none there
            last_void[node] = index
        told = list(void)
        for node, index in last_void.items():
            told[index] = self._outcome(node, void[index])
        # Made at their number in one go, where appending them one by one grows the list.
        told.extend([self._outcome(node) for node in self.ordered])
        # Then the units nobody ordered; units aboard and off the board do nothing unless
        # ordered, so only their orders are told.
        for node in self.on_board:
            if node.order is None and node not in last_void:
                told.append(self._outcome(node))
        return tuple(told)

    def unlink(self) -> None:
        """Drop the links between the records, once nothing will read them (see
        `_Explanation`)."""
        for node in self.on_board:
            node.unlink()
        for cargo in self.cargo.values():
            for node in cargo:
                node.unlink()
        for node in self.offboard:
            node.unlink()

    def _outcome(self, node: Record, void: Outcome | None = None) -> Outcome:
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
        if attacker is None and self.extended and node.carrier is not None:
            carrier = self.nodes.get(node.province)
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

    def _explain(self, node: Record, order: MovementOrder) -> tuple[Verdict, Why, tuple[str, ...]]:
        if isinstance(order, Move):
            return self._explain_move(node)
        if isinstance(order, Support):
            if not node.supports:
                supported = self._named(node, order)
                return Verdict.FAILS, self._mismatch(order, supported), ()
            if node.decided:
                return Verdict.SUCCEEDS, SUCCEEDED, ()
            cutter = next((a for a in node.attackers or _NO_RECORDS if self._cuts(a, node)), None)
            if cutter is None:
                return Verdict.FAILS, Named(Reason.CUT, None), ()
            label = _label(cutter)
            return Verdict.FAILS, Named(Reason.CUT, label), (label,)
        if isinstance(order, Convoy) and node.carries is None:
            army = self.nodes.get(order.army)
            convoyed = _label(army) if army is not None else place(order.army)
            return Verdict.FAILS, Mismatch(Reason.CONVOY_MISMATCH, convoyed, order.target), ()
        if isinstance(order, OwnOrder):
            succeeded, reason, deciders = order.explain(node, self)
            return (Verdict.SUCCEEDS if succeeded else Verdict.FAILS), reason, deciders
        return Verdict.SUCCEEDS, SUCCEEDED, ()

    def _mismatch(self, order: Support, supported: Record | None) -> Why:
        if supported is None:  # off the board, none of that kind moves there
            kind = order.supported_unit.letter if order.supported_unit else ""
            return Mismatch(Reason.SUPPORT_MISMATCH, f"{kind} {OFFBOARD}", order.target or "")
        label = _label(supported)
        if not self.rules.may_be_supported(supported.unit):
            return Named(Reason.NOT_SUPPORTABLE, label)
        action = supported.order
        moves_to = action.target if isinstance(action, Move) and order.target else None
        return Mismatch(Reason.SUPPORT_MISMATCH, label, order.target, moves_to)

    def _explain_move(self, node: Record) -> tuple[Verdict, Why, tuple[str, ...]]:
        if node.decided:
            return Verdict.SUCCEEDS, SUCCEEDED, ()
        order = node.order
        assert isinstance(order, Move)
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
        for rival in node.rivals or _NO_RECORDS:
            if rival is not node and attack <= (prevent := self._prevent(rival)):
                label = _label(rival)
                rival_at = province_of(rival.unit.location)
                return Verdict.FAILS, Bounced(label, attack, prevent, rival_at), (label,)
        return Verdict.FAILS, STATIONARY, ()


class _Found(Found):
    """What the resolver's check of an order finds (`Found`): a unit it looks up by
    province is found by its record, which is kept (`named`), so that linking the order
    with the unit it names asks the records no more."""

    def __init__(self, nodes: dict[str, Record]) -> None:
        super().__init__()
        self.nodes: Final = nodes
        self.named: Record | None = None

    def forget(self) -> None:
        """Ready for the next order's check: nothing found yet."""
        self.landed = False
        self.named = None

    def unit_in(self, position: Position, province: str) -> Unit | None:
        node = self.named = self.nodes.get(province)
        return None if node is None else node.unit


class Settling:
    """Where the units end a movement phase, as the result is being built: what an order
    of its own kind says of its unit, once it succeeded (`OwnOrder.settle`)."""

    def __init__(self) -> None:
        self.units: Final[dict[str, Unit]] = {}  # on the board, by province
        self.offboard: Final[list[Unit]] = []  # those that stay off the board
        self.leaving: Final[list[Unit]] = []  # and those that leave it, after them
        self.boarding: Final[dict[Record, str]] = {}  # boarders -> where their carrier is

    def stand(self, unit: Unit) -> None:
        """The unit ends the phase on the board where it stands (`Unit.moved_to` to put it
        elsewhere first); nothing else may."""
        self.units[unit.province] = unit

    def leave_board(self, unit: Unit) -> None:
        """The unit, with its cargo, ends the phase off the board."""
        self.leaving.append(unit.moved_to(OFFBOARD))

    def board(self, node: Record, province: str) -> None:
        """The record's unit ends the phase aboard the unit that ends it in `province`."""
        self.boarding[node] = province


def _unloaded(cargo: list[Record], unit: Unit) -> Unit:
    """The carrier without the units aboard it that landed or left the board."""
    staying = tuple([node.unit for node in cargo if not node.moved()])
    return unit if len(staying) == len(unit.cargo) else unit.carrying(staying)


class _Explanation:
    """A resolved phase's outcomes, told on the first call and kept: what a movement
    result's `explain` is. The resolver's records link each other both ways (a move and its
    defender, two units supporting each other), and a cycle of links is freed only by the
    garbage collector, which costs a phase more than unlinking them (docs/compiled-core.md).
    So they are unlinked once the outcomes are told, or, if they never are (a bot searching
    ahead), as the explanation goes."""

    def __init__(self, resolver: Resolver, void: list[Outcome]) -> None:
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


def _at(nodes: Iterable[Record]) -> list[str]:
    """Where these units stand (a fleet may be on a river's coast)."""
    return [node.unit.location for node in nodes]


def _label(node: Record) -> str:
    """How the report names a unit: ``A Par``, ``F Stp/sc``."""
    return unit_name(node.unit.type.letter, node.unit.location)


# What a record's missing list of records reads as: a list, never changed, which compiled
# code iterates directly, where it iterates `rivals or ()` (a list or a tuple) through
# Python's iteration protocol.
_NO_RECORDS: Final[list[Record]] = []

# What a phase without standoffs leaves contested: one empty set, where making one costs
# compiled code a call into Python's own type.
_NO_STANDOFFS: Final[frozenset[str]] = frozenset()
