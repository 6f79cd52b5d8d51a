"""What every unit on the board could be ordered to do this phase: the legal moves,
supports and convoys of the movement menus (`hegemon.game.menus`), found rather than
checked.

Each kind of order is found from what the judge's check of it asks (`hegemon.legality`),
so that no candidate is made only to be refused: a move, that its destination borders the
unit or is a landing the fleets standing now reach, and that the rules let the unit enter;
a support, that the supporter reaches the goal, the supported unit could move there
without it, and the rules allow it; a convoy, the map and the edition alone.

The orders themselves are made once per map, each already the choice a form lists
(`Made`): a unit of a kind at a location has the same hold, moves and supports in every
phase it stands there, and a menu is built for every power every phase, by bots many
times over. So are the supports one unit could give another standing where it stands
(`Made.backing`): a menu's supports are those lists, joined, but for the few moves only
a convoy makes. Nothing kept depends on a position, and so on nothing secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.board import Board, UnitKind, province_of
from hegemon.game.forms import Choice
from hegemon.orders import Convoy, Hold, Move, Support
from hegemon.position import Position, Unit
from hegemon.rules import Edition, Rules

# A neighbour a unit could move to: the location, and its province.
Target = tuple[str, str]


class Backing:
    """The supports a unit could give another of a kind at a location, whatever else
    stands on the board: of its hold and of its moves to each neighbour, where the
    supporter reaches (a move only a convoy makes is asked anew each phase). `into` gives
    each one's province, for rules that allow some supports and not others."""

    def __init__(self, choices: tuple[Choice, ...], into: tuple[str, ...]) -> None:
        self.choices = choices
        self.into = into


class Made:
    """The orders of a unit of one kind at one location on one map, as the choices a form
    lists, each made when first asked for and kept: its hold, its moves (to a neighbour,
    by convoy) and its supports; and its form's id and title."""

    def __init__(self, board: Board, kind: UnitKind, location: str) -> None:
        self.kind = kind
        self.location = location
        self.province = province_of(location)
        hold = Hold(kind, location)
        self.head = hold.head  # the unit as orders name it: ``A Par``
        self.form_id = f"unit {location}"
        self.hold = Choice(hold)
        neighbours = sorted(board.neighbours(kind, location))
        self.neighbours: list[Target] = [(t, province_of(t)) for t in neighbours]
        self.reached = board.provinces_reached(kind, location)
        # The provinces a unit it could support (but by convoy) stands in: those it
        # reaches, and those a unit could move into one of them from.
        into = _approaches(board)
        self.near = self.reached.union(*(into.get(p, ()) for p in self.reached))
        self.bordering = frozenset(province for _, province in self.neighbours)
        self._moves: dict[str, Choice] = {t: Choice(Move(kind, location, t)) for t in neighbours}
        self.moves = tuple(self._moves.values())  # to every neighbour, in order
        self._convoyed: dict[str, Choice] = {}  # by convoy (to a neighbour), or overseas
        # By the supported unit's orders (its kind and location: a key hashed by
        # identity), then its goal: two lookups cost less than one by a tuple.
        self._supports: dict[Made, dict[str | None, Choice]] = {}
        self._backing: dict[Made, Backing] = {}  # by the supported unit's orders

    def move(self, target: str) -> Choice:
        move = self._moves.get(target)
        if move is None:  # a landing overseas
            move = self._moves[target] = Choice(Move(self.kind, self.location, target))
        return move

    def via_convoy(self, target: str) -> Choice:
        """The move to a neighbour, by convoy."""
        move = self._convoyed.get(target)
        if move is None:
            move = self._convoyed[target] = Choice(Move(self.kind, self.location, target, True))
        return move

    def support(self, theirs: Made, target: str | None) -> Choice:
        """Support of the unit whose orders are `theirs` to hold (`target` None) or to
        move to `target`."""
        by_goal = self._supports.get(theirs)
        if by_goal is None:
            by_goal = self._supports[theirs] = {}
        support = by_goal.get(target)
        if support is None:
            order = Support(self.kind, self.location, theirs.province, target, theirs.kind)
            support = by_goal[target] = Choice(order)
        return support

    def backing(self, theirs: Made) -> Backing:
        """The supports this unit could give the unit whose orders are `theirs` but for
        its moves only a convoy makes: of its hold, then of its moves in their order, each
        into a province this unit reaches, not its own."""
        known = self._backing.get(theirs)
        if known is None:
            known = self._backing[theirs] = self._backing_of(theirs)
        return known

    def _backing_of(self, theirs: Made) -> Backing:
        choices: list[Choice] = []
        into: list[str] = []
        if theirs.province != self.province:
            goals = [(theirs.province, None), *((p, t) for t, p in theirs.neighbours)]
            for province, target in goals:
                if province in self.reached and province != self.province:
                    choices.append(self.support(theirs, target))
                    into.append(province)
        return Backing(tuple(choices), tuple(into))


class Reach:
    """What every unit on the board could do this phase, worked out once for all the
    units' menus: the units with their orders (by location), the provinces the fleets
    standing now could carry each unit that may be convoyed to, and the landings only a
    convoy takes it to."""

    def __init__(self, board: Board, position: Position) -> None:
        self.board = board
        self.made = _made_on(board)
        self.fleets = position.convoying_fleets
        carriers = board.convoys.carriers(self.fleets)
        self._chains: dict[str, frozenset[str]] = {}  # `_chained_without`'s
        self._without: dict[tuple[str, str], frozenset[str]] = {}  # and again
        self.carried: dict[str, frozenset[str]] = {}
        self.overseas: dict[str, list[str]] = {}  # by the carried unit's province
        # Each unit, by location, with its orders and the landings only a convoy takes it to.
        self.units: list[tuple[Unit, Made, list[str]]] = []
        for unit in sorted(position.units.values(), key=by_location):
            made = self.of(unit)
            overseas: list[str] = []
            if unit.type.convoyed:
                carried = self.carried[unit.province] = carriers.carried_from(unit.province)
                if carried:
                    overseas = self.overseas[unit.province] = self._overseas(unit, made, carried)
            self.units.append((unit, made, overseas))
        self.convoyed = [u for u in position.units.values() if u.type.convoyed]

    def of(self, unit: Unit) -> Made:
        """The orders made for a unit of its kind where it stands."""
        # By kind, then location: two lookups by a string cost less than one by a tuple.
        of_kind = self.made.get(unit.type.letter)
        if of_kind is None:
            of_kind = self.made[unit.type.letter] = {}
        made = of_kind.get(unit.location)
        if made is None:
            made = of_kind[unit.location] = Made(self.board, unit.type, unit.location)
        return made

    def _overseas(self, unit: Unit, made: Made, carried: frozenset[str]) -> list[str]:
        """The landings the fleets standing now carry the unit to that it could not
        reach by land."""
        landings = landings_from(self.board, unit.type, unit.province)
        return sorted((carried - made.bordering) & landings)  # by name, as menus list them

    def moves(self, unit: Unit, made: Made, rules: Rules) -> Sequence[Choice]:
        """The moves of `unit` (whose orders are `made`) into the provinces the rules let
        it enter, and by convoy where the fleets standing now could carry it (an overseas
        move goes no other way; one to a neighbour is offered both ways)."""
        carried = self.carried.get(unit.province)
        if not carried and type(rules).may_enter is Rules.may_enter:
            return made.moves  # the standard rules let a unit no fleet carries go anywhere
        carried = carried or frozenset()
        moves: list[Choice] = []
        for target, province in made.neighbours:
            if rules.may_enter(unit, province):
                moves.append(made.move(target))
                if province in carried:
                    moves.append(made.via_convoy(target))
        for province in self.overseas.get(unit.province, ()):
            if rules.may_enter(unit, province):
                moves.append(made.move(province))
        return moves

    def supports(self, unit: Unit, made: Made, rules: Rules) -> list[Choice]:
        """The supports `unit` (whose orders are `made`) may give, by the supported unit's
        location: of a hold or a move into a province it reaches itself, by a unit that
        could move there without it (else it would have to convoy instead, DATC 6.D.31),
        where the rules allow."""
        standard = type(rules).may_support is Rules.may_support
        near = made.near
        found: list[Choice] = []
        for other, theirs, overseas in self.units:
            if other.province in near:
                backing = made.backing(theirs)
                if standard:
                    found += backing.choices
                else:
                    # By place, not `zip`: compiled, a call of it is a Python call.
                    for i, choice in enumerate(backing.choices):
                        if rules.may_support(unit, other, backing.into[i]):
                            found.append(choice)
            if overseas and any(p in made.reached for p in overseas):
                found += self._overseas_supports(unit, made, other, theirs, overseas, rules)
        return found

    def _overseas_supports(
        self,
        unit: Unit,
        made: Made,
        other: Unit,
        theirs: Made,
        overseas: list[str],
        rules: Rules,
    ) -> list[Choice]:
        """The supports of `other`'s moves only a convoy makes, where it could be carried
        without `unit`."""
        if other.province == made.province:
            return []
        chained = self._chained_without(other, unit)
        shores = self.board.convoys.shores
        return [
            made.support(theirs, province)
            for province in overseas
            if province in made.reached
            and province != made.province
            and (chained is None or not chained.isdisjoint(shores[province]))
            and rules.may_support(unit, other, province)
        ]

    def _chained_without(self, mover: Unit, supporter: Unit) -> frozenset[str] | None:
        """The fleets that chain from `mover`'s province without `supporter`, which carry
        it to their shores; None where `supporter` is not among those that chain from it
        now, so that every fleet carrying it is there without it. Asked once for every
        goal overseas."""
        convoys = self.board.convoys
        chain = self._chains.get(mover.province)
        if chain is None:
            chain = self._chains[mover.province] = convoys.chained_from(mover.province, self.fleets)
        fleet = supporter.location
        if fleet not in chain:
            return None
        key = (fleet, mover.province)
        chained = self._without.get(key)
        if chained is None:
            # Among the fleets of the chain alone: no other joins it, with or without that one.
            chained = self._without[key] = convoys.chained_from(mover.province, chain - {fleet})
        return chained


def by_location(unit: Unit) -> str:
    """A unit's sort key: where it stands (a menu lists its units so)."""
    return unit.location


# Each map's orders made so far, by the unit's kind (its letter), then location: bounded
# by the map, kept for as long as the map is.
_made: dict[Board, dict[str, dict[str, Made]]] = {}


def _made_on(board: Board) -> dict[str, dict[str, Made]]:
    made = _made.get(board)
    if made is None:
        made = _made[board] = {}
    return made


# The reach last worked out, with the board and the units it is of: every power's menu
# of a position asks for the same, and each power's sight of it shares its units (a
# state of its own, the same units). One entry, replaced whole, so that games played
# side by side never mix; held, so that the units it is of are not another's later.
_last_reach: list[tuple[Board, Mapping[str, Unit], Reach]] = []


def reach_of(board: Board, position: Position) -> Reach:
    units = position.units
    for known_board, known_units, reach in _last_reach:
        if known_board is board and known_units is units:
            return reach
    reach = Reach(board, position)
    _last_reach[:] = [(board, units, reach)]
    return reach


def forget_reach() -> None:
    """Drop the reach last worked out (a benchmark's fresh start)."""
    _last_reach.clear()


def convoys(board: Board, position: Position, fleet: Unit, rules: Rules) -> list[Choice]:
    """Every convoy the fleet may be ordered to give: of each army standing now, to each
    landing whose routes pass the fleet. Each is legal whatever else stands on the board
    (the judge asks only the map and the rules' convoy hook, which answers from the map
    and the edition), so they are kept per map and found, not checked."""
    table = _convoy_table(board, rules).of(fleet)
    found: list[Choice] = []
    for army in reach_of(board, position).convoyed:
        # By kind, then location: two lookups by a string cost less than one by a tuple.
        of_kind = table.get(army.type.letter)
        if of_kind is None:
            of_kind = table[army.type.letter] = {}
        known = of_kind.get(army.location)
        if known is None:
            known = of_kind[army.location] = _convoys(board, fleet, army, rules)
        if known:  # most armies are nowhere near
            found += known
    return found


def _convoys(board: Board, fleet: Unit, army: Unit, rules: Rules) -> tuple[Choice, ...]:
    origin = army.province
    return tuple(
        Choice(Convoy(fleet.type, fleet.location, origin, target, army.type))
        for target in sorted(landings_from(board, army.type, origin))
        if rules.may_convoy_along(board, origin, target, fleet.location)
    )


Known = dict[str, dict[str, tuple[Choice, ...]]]  # by the army's kind (letter), location


class _ConvoyTable:
    """The convoys a fleet of each kind at each place may give of the army of each kind
    at each location, worked out when first asked, for one map and one kind of rules."""

    def __init__(self) -> None:
        self.by_fleet: dict[tuple[str, str], Known] = {}

    def of(self, fleet: Unit) -> Known:
        key = (fleet.type.letter, fleet.location)
        table = self.by_fleet.get(key)
        if table is None:
            table = self.by_fleet[key] = {}
        return table


# Per map, kind of rules and edition: few, each table bounded by its map.
_convoy_tables: dict[tuple[Board, type, Edition], _ConvoyTable] = {}


def _convoy_table(board: Board, rules: Rules) -> _ConvoyTable:
    key = (board, type(rules), rules.edition)
    table = _convoy_tables.get(key)
    if table is None:
        table = _convoy_tables[key] = _ConvoyTable()
    return table


# Every province a convoy could carry a unit of a kind to from a province, were there
# fleets all the way (never the province itself), per map.
_landings: dict[tuple[Board, str, str], frozenset[str]] = {}


def landings_from(board: Board, kind: UnitKind, province: str) -> frozenset[str]:
    key = (board, kind.letter, province)
    landings = _landings.get(key)
    if landings is None:
        landings = _landings[key] = frozenset(
            p
            for p in board.convoy_shores
            if board.can_hold(kind, p) and board.could_be_convoyed(province, p)
        )
    return landings


# Each province's approaches, per map: the provinces a unit of some kind could move into
# it from.
_approaches_on: dict[Board, dict[str, frozenset[str]]] = {}


def _approaches(board: Board) -> dict[str, frozenset[str]]:
    approaches = _approaches_on.get(board)
    if approaches is None:
        sources: dict[str, set[str]] = {}
        for origin, targets in board.province_graph.items():
            for target in targets:
                sources.setdefault(target, set()).add(origin)
        approaches = _approaches_on[board] = {p: frozenset(s) for p, s in sources.items()}
    return approaches
