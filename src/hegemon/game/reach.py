"""What every unit on the board could be ordered to do this phase: the legal moves,
supports and convoys of the movement menus (`hegemon.game.menus`), found rather than
checked.

Each kind of order is found from what the judge's check of it asks (`hegemon.legality`),
so that no candidate is made only to be refused: a move, that its destination borders the
unit or is a landing the fleets standing now reach, and that the rules let the unit enter;
a support, that the supporter reaches the goal, the supported unit could move there
without it, and the rules allow it; a convoy, the map and the edition alone.

The orders themselves are made once per map (`Made`): a unit of a kind at a location
has the same hold, moves and supports in every phase it stands there, and a menu is
built for every power every phase, by bots many times over. Nothing kept depends on a
position, and so on nothing secret.
"""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.board import Board, UnitKind, province_of
from hegemon.orders import Convoy, Hold, Move, Order, Support
from hegemon.position import Position, Unit
from hegemon.rules import Edition, Rules

# A place a unit could move to: the location, its province, and whether only a convoy
# takes it there.
Target = tuple[str, str, bool]
# A goal a support could name: the supported unit, the move it makes (None: it holds),
# whether only a convoy takes it there, and its place among all supports (`Reach.goals`).
Goal = tuple[Unit, str | None, bool, int]


class Made:
    """The orders of a unit of one kind at one location on one map, each made when first
    asked for and kept: its hold, its moves (to a neighbour, by convoy) and its supports."""

    def __init__(self, board: Board, kind: UnitKind, location: str) -> None:
        self.kind = kind
        self.location = location
        self.province = province_of(location)
        self.hold = Hold(kind, location)
        neighbours = sorted(board.neighbours(kind, location))
        self.neighbours: list[Target] = [(t, province_of(t), False) for t in neighbours]
        self.reached = board.provinces_reached(kind, location)
        self._moves: dict[str, Move] = {t: Move(kind, location, t) for t in neighbours}
        self._convoyed: dict[str, Move] = {}  # by convoy (to a neighbour), or overseas
        # By the supported unit's location, then its goal: two lookups cost less than
        # one by a tuple of the three.
        self._supports: dict[str, dict[str | None, Support]] = {}

    def move(self, target: str) -> Move:
        move = self._moves.get(target)
        if move is None:  # a landing overseas
            move = self._moves[target] = Move(self.kind, self.location, target)
        return move

    def via_convoy(self, target: str) -> Move:
        """The move to a neighbour, by convoy."""
        move = self._convoyed.get(target)
        if move is None:
            move = self._convoyed[target] = Move(self.kind, self.location, target, True)
        return move

    def support(self, other: Unit, target: str | None) -> Support:
        """Support of `other` to hold (`target` None) or to move to `target`."""
        by_goal = self._supports.get(other.location)
        if by_goal is None:
            by_goal = self._supports[other.location] = {}
        support = by_goal.get(target)
        if support is None or support.supported_unit is not other.type:  # made anew for
            # another kind standing there
            support = Support(self.kind, self.location, other.province, target, other.type)
            by_goal[target] = support
        return support


class Reach:
    """What every unit on the board could do this phase, worked out once for all the
    units' menus: where each unit could move, by its province, the provinces the fleets
    standing now could carry it to, and the supports each province could be the goal of
    (the holds and moves of the units there and into it)."""

    def __init__(self, board: Board, position: Position) -> None:
        self.board = board
        self.made = _made_on(board)
        units = sorted(position.units.values(), key=lambda u: u.location)
        self.fleets = position.convoying_fleets
        carriers = board.convoys.carriers(self.fleets)
        self._without: dict[tuple[str, str], frozenset[str]] = {}  # `_carried_without`'s
        self.carried = {
            u.province: carriers.carried_from(u.province) for u in units if u.type.convoyed
        }
        self.convoyed = [u for u in position.units.values() if u.type.convoyed]
        self.targets = {u.province: self._destinations(u) for u in units}
        # Each province's goals, ranked so that a menu lists its supports in one order (by
        # the supported unit's location, then its moves').
        self.goals: dict[str, list[Goal]] = {}
        for number, unit in enumerate(units):
            rank = number * 1000
            self._add_goal(unit.province, (unit, None, False, rank))
            for step, (target, province, overseas) in enumerate(self.targets[unit.province], 1):
                self._add_goal(province, (unit, target, overseas, rank + step))

    def _add_goal(self, province: str, entry: Goal) -> None:
        # Not `setdefault(province, [])`, which compiled code makes slowly.
        listed = self.goals.get(province)
        if listed is None:
            self.goals[province] = [entry]
        else:
            listed.append(entry)

    def of(self, unit: Unit) -> Made:
        """The orders made for a unit of its kind where it stands."""
        key = (unit.type.letter, unit.location)
        made = self.made.get(key)
        if made is None:
            made = self.made[key] = Made(self.board, unit.type, unit.location)
        return made

    def _destinations(self, unit: Unit) -> list[Target]:
        """Where the unit could move: its neighbours, and for a unit that may be
        convoyed, every other landing the fleets standing now carry it to."""
        near = self.of(unit).neighbours
        carried = self.carried.get(unit.province)
        if not carried:
            return near
        landings = landings_from(self.board, unit.type, unit.province)
        bordering = {province for _, province, _ in near}
        return near + [(p, p, True) for p in landings if p in carried and p not in bordering]

    def moves(self, unit: Unit, rules: Rules) -> list[Order]:
        """The unit's moves into the provinces the rules let it enter, and by convoy
        where the fleets standing now could carry it (an overseas move goes no other way;
        one to a neighbour is offered both ways)."""
        made = self.of(unit)
        carried = self.carried.get(unit.province, frozenset())
        moves: list[Order] = []
        for target, province, overseas in self.targets[unit.province]:
            if rules.may_enter(unit, province):
                moves.append(made.move(target))
                if not overseas and province in carried:
                    moves.append(made.via_convoy(target))
        return moves

    def supports(self, unit: Unit, rules: Rules) -> list[Order]:
        """The supports `unit` may give: of a hold or a move into a province it reaches
        itself, by a unit that could move there without it (else it would have to convoy
        instead, DATC 6.D.31), where the rules allow."""
        made = self.of(unit)
        found: dict[int, Support] = {}  # by rank: sorting whole numbers costs less than pairs
        for province in made.reached:
            if province == unit.province:
                continue
            for other, target, overseas, rank in self.goals.get(province, ()):
                if other.province == unit.province:
                    continue
                if overseas and not self._carried_without(other, province, unit):
                    continue
                if rules.may_support(unit, other, province):
                    found[rank] = made.support(other, target)
        return [found[rank] for rank in sorted(found)]

    def _carried_without(self, mover: Unit, goal: str, supporter: Unit) -> bool:
        """Whether the fleets standing now carry `mover` to `goal` without `supporter`."""
        fleet = supporter.location
        if fleet not in self.fleets:
            return True  # the fleets that carry it are all there without it
        # The fleets that chain from it without that one, found once for every goal overseas.
        convoys = self.board.convoys
        key = (fleet, mover.province)
        chained = self._without.get(key)
        if chained is None:
            fleets = self.fleets - {fleet}
            chained = self._without[key] = convoys.chained_from(mover.province, fleets)
        return not chained.isdisjoint(convoys.shores[goal])


# Each map's orders made so far, by the unit's kind (its letter) and location: bounded by
# the map, kept for as long as the map is.
_made: dict[Board, dict[tuple[str, str], Made]] = {}


def _made_on(board: Board) -> dict[tuple[str, str], Made]:
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


def convoys(board: Board, position: Position, fleet: Unit, rules: Rules) -> list[Order]:
    """Every convoy the fleet may be ordered to give: of each army standing now, to each
    landing whose routes pass the fleet. Each is legal whatever else stands on the board
    (the judge asks only the map and the rules' convoy hook, which answers from the map
    and the edition), so they are kept per map and found, not checked."""
    table = _convoy_table(board, rules).of(fleet)
    found: list[Order] = []
    for army in reach_of(board, position).convoyed:
        known = table.get(army.location)
        if known is None or known[0] is not army.type:
            known = table[army.location] = (army.type, _convoys(board, fleet, army, rules))
        found += known[1]
    return found


def _convoys(board: Board, fleet: Unit, army: Unit, rules: Rules) -> tuple[Convoy, ...]:
    origin = army.province
    return tuple(
        Convoy(fleet.type, fleet.location, origin, target, army.type)
        for target in landings_from(board, army.type, origin)
        if rules.may_convoy_along(board, origin, target, fleet.location)
    )


Known = tuple[UnitKind, tuple[Convoy, ...]]  # the army's kind, and the convoys of it


class _ConvoyTable:
    """The convoys a fleet of each kind at each place may give of the army at each
    location, worked out when first asked, for one map and one kind of rules. (Kept by
    the army's location alone, and made again should another kind stand there.)"""

    def __init__(self) -> None:
        self.by_fleet: dict[tuple[str, str], dict[str, Known]] = {}

    def of(self, fleet: Unit) -> dict[str, Known]:
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
_landings: dict[tuple[Board, str, str], tuple[str, ...]] = {}


def landings_from(board: Board, kind: UnitKind, province: str) -> tuple[str, ...]:
    key = (board, kind.letter, province)
    landings = _landings.get(key)
    if landings is None:
        landings = _landings[key] = tuple(
            p
            for p in sorted(board.convoy_shores)
            if board.can_hold(kind, p) and board.could_be_convoyed(province, p)
        )
    return landings
