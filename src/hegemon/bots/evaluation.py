"""What a position is worth to a power: the bot's evaluation of a playout's result, and the
map distances it and the heuristics measure by.

The goal is the variant's own (`Variant.points`: centers, or victory points), but a
phase's result says more than its points: a unit standing on a center it does not own yet
will likely take it, an enemy on one of ours will likely take it from us, a home center
left empty beside an enemy unit may be lost next, and a unit far from any center it could
take is wasted. The weights below are the bot's taste, tuned against random players.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from hegemon.board import Board, UnitKind, province_of
from hegemon.game import Variant
from hegemon.position import Position

SEA_STEP = 2  # a step across the sea for an army, which a fleet must carry
FAR = 6  # a distance counted no further: out of reach is as bad as far

POINT = 1.0  # a point of the variant's score (a center, or a victory point)
CENTER = 0.5  # a center held, beside the points it gives (VP variants: it pays later)
HOME = 0.3  # a home center (in variants where a power declares more, each one counts)
STANDING = 0.6  # a unit on a center it does not own yet: it takes it at the year's end
INTRUDER = 0.7  # an enemy on a center of ours
UNIT = 1.0  # a unit on the board: always worth more than its distance costs
DISLODGED = 0.4  # a unit of ours dislodged: it may yet retreat, or be lost
OPEN = 0.4  # a center of ours, empty, that an enemy unit could move into
NEAR = 0.15  # per step between a unit and the nearest center not ours


class Distances:
    """Fewest moves from each location to the nearest of some provinces, by the moves of
    one kind of unit: worked out by one breadth-first search per board, kind and set of
    provinces, kept for the next decision that asks the same."""

    KEPT = 256  # sets of provinces remembered per board: a game asks a few per phase

    def __init__(self, board: Board) -> None:
        self.board = board
        self._found: dict[tuple[bool, frozenset[str]], dict[str, int]] = {}

    def to(self, by_land: bool, provinces: frozenset[str]) -> Mapping[str, int]:
        """Distance from each reachable location (and its province) to the nearest of
        `provinces`; a location out of reach is missing."""
        key = (by_land, provinces)
        found = self._found.get(key)
        if found is None:
            if len(self._found) >= self.KEPT:
                self._found.clear()
            found = self._found[key] = self._spread(by_land, provinces)
        return found

    def _spread(self, by_land: bool, provinces: frozenset[str]) -> dict[str, int]:
        """Dijkstra's search out from the provinces, backwards along the moves: a unit
        moving by land may also be carried across the sea, at SEA_STEP a step (it needs
        fleets convoying it)."""
        board = self.board
        edges = board.province_graph if by_land else board.fleet_edges
        sources = [loc for p in provinces for loc in (p, *board.locations(p)) if loc in edges]
        distance = dict.fromkeys(sources, 0)
        frontier = [(0, loc) for loc in sources]
        while frontier:
            steps, loc = heapq.heappop(frontier)
            if steps > distance[loc]:
                continue
            for neighbour in edges[loc]:
                further = steps + (self._step(loc, neighbour) if by_land else 1)
                if further < distance.get(neighbour, further + 1):
                    distance[neighbour] = further
                    heapq.heappush(frontier, (further, neighbour))
        for loc, steps in list(distance.items()):  # a province as near as its nearest coast
            province = province_of(loc)
            distance[province] = min(steps, distance.get(province, steps))
        return distance

    def _step(self, a: str, b: str) -> int:
        """The steps a move between two provinces counts for a unit moving by land."""
        board = self.board
        return 1 if b in board.army_edges.get(a, ()) else SEA_STEP

    def of(self, kind: UnitKind, location: str, provinces: frozenset[str]) -> int:
        """Moves from `location` to the nearest of `provinces`, at most FAR."""
        return min(self.to(kind.by_land, provinces).get(location, FAR), FAR)


_DISTANCES: dict[int, Distances] = {}


def distances(board: Board) -> Distances:
    """The board's distances, made once per board."""
    found = _DISTANCES.get(id(board))
    if found is None or found.board is not board:
        found = _DISTANCES[id(board)] = Distances(board)
    return found


@dataclass(frozen=True)
class Goals:
    """What a power plays for in a position: the centers it does not own (to take), and
    the centers it owns and its homes (to keep)."""

    power: str
    centers: frozenset[str]
    ours: frozenset[str]
    targets: frozenset[str]
    homes: frozenset[str]

    @staticmethod
    def of(variant: Variant, position: Position, power: str) -> Goals:
        centers = variant.board.centers
        ours = frozenset(c for c, owner in position.centers.items() if owner == power)
        targets = centers - ours
        homes = variant.home_centers(position).get(power, frozenset())
        return Goals(power, centers, ours, targets or centers, homes)


def evaluate(variant: Variant, position: Position, power: str) -> float:
    """What `position` (a playout's result) is worth to `power`: more is better."""
    goals = Goals.of(variant, position, power)
    score = POINT * variant.points(position).get(power, 0) + CENTER * len(goals.ours)
    score += HOME * len(variant.home_centers(position).get(power, ()))
    near = distances(variant.board)
    enemies_next_to: set[str] = set()
    for province, unit in position.units.items():
        if unit.power == power:
            score += UNIT - NEAR * near.of(unit.type, unit.location, goals.targets)
            if province in goals.centers and province not in goals.ours:
                score += STANDING
        else:
            if province in goals.ours:
                score -= INTRUDER
            if unit.power in variant.powers:  # a player's: it may move in next
                enemies_next_to.update(
                    province_of(n) for n in variant.board.neighbours(unit.type, unit.location)
                )
    for dislodgement in position.dislodged.values():
        if dislodgement.unit.power == power:
            score -= UNIT - DISLODGED
    for center in goals.ours:
        if center in enemies_next_to and center not in position.units:
            score -= OPEN * (1.5 if center in goals.homes else 1)
    return score
