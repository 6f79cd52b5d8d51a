"""The navigable rivers a board draws, from the data's `river` tags (`board.RIVER`), so
that a player sees where fleets may sail inland:

- a border tagged `river` is drawn along the border its two regions share (African
  Riots, whose rivers are borders fleets sail along);
- a fleet's move between two locations tagged `river`, across no such border, is drawn
  from the one's place to the other's (African Diplomacy II, whose rivers are coasts of
  the provinces they run through, and Riots' rivers that run through a province).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import RIVER, Board, province_of
from hegemon.render.places import board_places
from hegemon.render.svg import Point, line_path
from hegemon.render.territories import territories

RIVER_MEANING = "navigable river: fleets sail along it"


@cache
def river_lines(board: Board) -> BaseGeometry:
    """The board's navigable rivers, as lines (empty if it has none)."""
    return shapely.union_all([*_river_borders(board), *_river_reaches(board)])


@cache
def river_path(board: Board) -> str:
    """The board's navigable rivers as SVG path data ("" if it has none)."""
    lines = river_lines(board)
    return "" if lines.is_empty else line_path(lines)


def _river_borders(board: Board) -> list[BaseGeometry]:
    regions = territories(board).regions
    borders = []
    for pair, tags in board.edge_tags.items():
        provinces = sorted({province_of(location) for location in pair})
        if RIVER in tags and len(provinces) == 2:
            a, b = provinces
            borders.append(regions[a].boundary.intersection(regions[b].buffer(0.25)))
    return borders


def _river_reaches(board: Board) -> list[BaseGeometry]:
    """The reaches as a river's course: of the moves between river locations, the
    shortest that join them all (fleets move between any two places on one reach, but
    the river runs from one to the next)."""
    places = board_places(board).units
    moves = {
        frozenset((origin, target))
        for origin, targets in board.fleet_edges.items()
        if RIVER in board.tags_of(origin)
        for target in targets
        if RIVER in board.tags_of(target) and not _along_a_border(board, origin, target)
    }
    course: list[BaseGeometry] = []
    joined: dict[str, str] = {}  # each location's representative, as far as joined yet

    def root(location: str) -> str:
        while joined.get(location, location) != location:
            location = joined[location]
        return location

    for a, b in sorted((sorted(pair) for pair in moves), key=lambda p: _length(places, p)):
        if root(a) != root(b):
            joined[root(a)] = root(b)
            course.append(shapely.LineString([places[a], places[b]]))
    return course


def _length(places: Mapping[str, Point], pair: list[str]) -> float:
    return math.dist(places[pair[0]], places[pair[1]])


def _along_a_border(board: Board, origin: str, target: str) -> bool:
    """Whether a fleet's move follows a river border (drawn as such) rather than a reach."""
    pairs = ((origin, target), (province_of(origin), province_of(target)))
    return any(RIVER in board.edge_tags_between(a, b) for a, b in pairs)
