"""Checking a map's graph: names that mean one province, edges both ways between places
that exist, terrain that fits the edges, tags where they may stand. Each problem is said
in a line naming the provinces concerned, for `MapError` to list them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hegemon.board import (
    ARMY,
    COAST_REQUIRED,
    CONVOYS,
    FLEET,
    RIVER,
    UNNAVIGABLE,
    Board,
    Terrain,
    UnitKind,
    fold_spelling,
    province_of,
)


def validate(board: Board) -> list[str]:
    """Every problem with a board's graph, each naming the provinces concerned."""
    problems: list[str] = []
    problems += _check_names(board)
    problems += _check_edges(board, ARMY, board.army_edges)
    problems += _check_edges(board, FLEET, board.fleet_edges)
    problems += _check_terrain(board)
    problems += _check_tags(board)
    width, height = board.size
    for p in board.provinces.values():
        x, y = p.xy
        if not (0 <= x <= width and 0 <= y <= height):
            problems.append(f"{p.name}: coordinate {p.xy} lies outside the {width}x{height} map")
    return problems


def _check_names(board: Board) -> list[str]:
    problems: list[str] = []
    seen: dict[str, str] = {}
    for p in board.provinces.values():
        for spelling in {fold_spelling(s) for s in (p.id, p.name, *p.aliases)}:
            other = seen.setdefault(spelling, p.id)
            if other != p.id:
                problems.append(f"{p.name}: the name {spelling!r} also means {other}")
    return problems


def _check_edges(board: Board, kind: UnitKind, edges: Mapping[str, Iterable[str]]) -> list[str]:
    problems: list[str] = []
    noun = kind.name
    for origin, targets in edges.items():
        here = board.name_of(origin) if province_of(origin) in board.provinces else origin
        for target in targets:
            if province_of(target) not in board.provinces:
                problems.append(f"{here}: {noun} edge to unknown province {target!r}")
            elif not board.can_hold(kind, target):
                problems.append(f"{here}: {noun} edge to {target!r}, where no {noun} can stand")
            elif origin not in edges.get(target, ()):
                problems.append(
                    f"{here}: {noun} edge to {board.name_of(target)} is one-way"
                    f" ({target} does not list {origin})"
                )
    return problems


def _check_terrain(board: Board) -> list[str]:
    problems: list[str] = []
    for p in board.provinces.values():
        locs = board.locations(p.id)
        if p.terrain is Terrain.SEA and p.id in board.army_edges:
            problems.append(f"{p.name}: a sea province with army edges")
        if p.terrain is Terrain.LAND and any(loc in board.fleet_edges for loc in locs):
            problems.append(f"{p.name}: an inland province with fleet edges")
        if p.terrain is Terrain.COAST and not any(_touches_water(board, loc) for loc in locs):
            problems.append(f"{p.name}: a {p.terrain} province that touches no sea")
        if p.terrain is Terrain.LAND and p.id not in board.army_edges:
            problems.append(f"{p.name}: an inland province with no neighbours")
    return problems


def _touches_water(board: Board, location: str) -> bool:
    """A coast touches the sea, or runs along a navigable river (tagged ``river``) with
    somewhere a fleet can go, or lies on water no fleet sails (tagged ``unnavigable``)."""
    targets = board.fleet_edges.get(location, ())
    tags = board.tags_of(location)
    if UNNAVIGABLE in tags:
        return True
    if RIVER in tags:
        return bool(targets)
    return any(
        board.provinces[province_of(t)].is_sea for t in targets if province_of(t) in board.provinces
    )


def _check_tags(board: Board) -> list[str]:
    problems: list[str] = []
    for p in board.provinces.values():
        for location in board.locations(p.id):
            tags = board.tags_of(location)
            if tags & {RIVER, CONVOYS} and p.terrain is not Terrain.COAST:
                problems.append(f"{board.name_of(location)}: only a coast may be a river bank")
            if UNNAVIGABLE in tags and p.terrain is not Terrain.COAST:
                problems.append(f"{board.name_of(location)}: only a coast may be {UNNAVIGABLE}")
            if UNNAVIGABLE in tags and location in board.fleet_edges:
                problems.append(
                    f"{board.name_of(location)}: {UNNAVIGABLE}, yet fleets move from it"
                )
            if COAST_REQUIRED in tags and "/" not in location:
                problems.append(
                    f"{board.name_of(location)}: only a split coast may be {COAST_REQUIRED}"
                )
    for ends in board.edge_tags:
        a, b = sorted(ends)
        if province_of(a) not in board.provinces or province_of(b) not in board.provinces:
            problems.append(f"[[edges]] {a}-{b}: unknown place")
        elif province_of(b) not in board.province_graph[province_of(a)]:
            problems.append(f"[[edges]] {a}-{b}: the two are not neighbours")
    return problems
