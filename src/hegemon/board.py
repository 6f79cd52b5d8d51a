"""The map: provinces, coasts and who may move where. Knows nothing of games.

A *location* is where a unit stands: a province id (``"par"``) or, for a province with
split coasts, a coast of it (``"spa/nc"``). Armies always stand on the province; fleets
in a split-coast province stand on one of its coasts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"

    @property
    def noun(self) -> str:
        return "army" if self is UnitType.ARMY else "fleet"


# The members as plain names: reading an enum member off its class costs a lookup each
# time, and the judge asks "is this an army?" on every order.
ARMY, FLEET = UnitType.ARMY, UnitType.FLEET


class Terrain(StrEnum):
    LAND = "land"
    SEA = "sea"
    COAST = "coast"


class MapError(ValueError):
    """A map file that breaks the format; carries every problem found, not just the first."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        listing = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s)\n{listing}")


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    name: str
    terrain: Terrain
    center: bool
    xy: tuple[float, float]
    aliases: tuple[str, ...] = ()
    coasts: tuple[str, ...] = ()  # ids of split coasts, e.g. ("nc", "sc"); empty if none
    source: str = ""
    port: bool = False  # where a variant lets fleets be built only in ports

    @property
    def is_sea(self) -> bool:
        return self.terrain is Terrain.SEA


def province_of(location: str) -> str:
    """The province a location lies in: ``"spa/nc"`` -> ``"spa"``."""
    return location.partition("/")[0] if "/" in location else location


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable map graph. Adjacency is kept per unit type, from location to locations."""

    name: str
    provinces: Mapping[str, Province]
    army_edges: Mapping[str, frozenset[str]]
    fleet_edges: Mapping[str, frozenset[str]]
    size: tuple[float, float] = (1000.0, 1000.0)
    source: str = ""
    coast_xy: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    _names: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for province in self.provinces.values():
            for spelling in (province.id, province.name, *province.aliases):
                self._names[_fold(spelling)] = province.id

    # --- names -------------------------------------------------------------------
    def lookup(self, spelling: str) -> str | None:
        """The province id for an id, full name or alias in any case; None if unknown."""
        return self._names.get(_fold(spelling))

    def name_of(self, location: str) -> str:
        province = self.provinces[province_of(location)]
        _, _, coast = location.partition("/")
        return f"{province.name} ({coast})" if coast else province.name

    @cached_property
    def centers(self) -> frozenset[str]:
        return frozenset(p.id for p in self.provinces.values() if p.center)

    # --- movement ------------------------------------------------------------------
    def locations(self, province: str) -> tuple[str, ...]:
        """Every location in a province: its coasts if split, else the province itself."""
        coasts = self.provinces[province].coasts
        return tuple(f"{province}/{c}" for c in coasts) if coasts else (province,)

    def can_hold(self, unit: UnitType, location: str) -> bool:
        """Whether a unit of this type may stand at this location at all."""
        province = self.provinces.get(province_of(location))
        if province is None:
            return False
        if unit is UnitType.ARMY:
            return location == province.id and not province.is_sea
        if province.terrain is Terrain.LAND:
            return False
        return location in self.locations(province.id)

    def neighbours(self, unit: UnitType, location: str) -> frozenset[str]:
        edges = self.army_edges if unit is UnitType.ARMY else self.fleet_edges
        return edges.get(location, frozenset())

    def adjacent(self, unit: UnitType, origin: str, target: str) -> bool:
        edges = self.army_edges if unit is ARMY else self.fleet_edges
        return target in edges.get(origin, ())

    def reaches_province(self, unit: UnitType, origin: str, province: str) -> bool:
        """Whether the unit can move from origin into some location of the province."""
        return province in self._tables[unit][1].get(origin, ())

    def landing(self, unit: UnitType, origin: str, written: str) -> str | None:
        """Where a unit at origin lands when ordered straight to `written`, if it can:
        armies ignore coasts; a fleet's coast is filled in when only one is reachable."""
        landings = self._tables[unit][0].get(origin)
        return None if landings is None else landings.get(written)

    @cached_property
    def _tables(
        self,
    ) -> dict[UnitType, tuple[dict[str, dict[str, str]], dict[str, frozenset[str]]]]:
        """Per unit type, built once so that checking an ordinary move is one lookup: from
        each location, the landing for every way of writing a destination it reaches, and
        the provinces it reaches."""
        return {
            UnitType.ARMY: (
                self._landings(self.army_edges, coasts=False),
                self._reach(self.army_edges),
            ),
            UnitType.FLEET: (
                self._landings(self.fleet_edges, coasts=True),
                self._reach(self.fleet_edges),
            ),
        }

    @staticmethod
    def _reach(edges: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
        return {
            origin: frozenset(province_of(t) for t in targets) for origin, targets in edges.items()
        }

    def _landings(
        self, edges: Mapping[str, frozenset[str]], coasts: bool
    ) -> dict[str, dict[str, str]]:
        table: dict[str, dict[str, str]] = {}
        for origin, targets in edges.items():
            ways = table.setdefault(origin, {})
            for target in targets:
                ways[target] = target
                if not coasts:  # an army ignores any coast written (DATC 6.B.12)
                    ways.update(dict.fromkeys(self.locations(target), target))
                    continue
                province = province_of(target)
                if sum(1 for t in targets if province_of(t) == province) == 1:
                    ways[province] = target  # the only coast it can reach (DATC 6.B.2)
        return table

    def is_coastal(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.COAST

    @cached_property
    def seas_touching(self) -> Mapping[str, frozenset[str]]:
        """For every province, the sea provinces a fleet there could move to."""
        touching: dict[str, set[str]] = {p: set() for p in self.provinces}
        for origin, targets in self.fleet_edges.items():
            for target in targets:
                if self.provinces[province_of(target)].is_sea:
                    touching[province_of(origin)].add(province_of(target))
        return {p: frozenset(seas) for p, seas in touching.items()}

    def sea_chain(self, origin: str, target: str, seas: Iterable[str]) -> bool:
        """Whether the given sea provinces chain from one coastal province to another."""
        touching = self.seas_touching
        unused = set(seas)
        frontier = [s for s in unused if s in touching[origin]]
        unused.difference_update(frontier)
        while frontier:
            sea = frontier.pop()
            if sea in touching[target]:
                return True
            nearby = [s for s in unused if s in touching[sea]]
            unused.difference_update(nearby)
            frontier.extend(nearby)
        return False

    @cached_property
    def province_graph(self) -> Mapping[str, frozenset[str]]:
        """Provinces joined by any edge, army or fleet: the map as civil disorder sees it."""
        graph: dict[str, set[str]] = {p: set() for p in self.provinces}
        for edges in (self.army_edges, self.fleet_edges):
            for origin, targets in edges.items():
                graph[province_of(origin)].update(province_of(t) for t in targets)
        return {p: frozenset(n) for p, n in graph.items()}

    def distances_to(self, unit: UnitType, provinces: frozenset[str]) -> Mapping[str, int]:
        """Fewest moves from each location to any of the provinces, for this unit type.

        Armies may count through any province, seas included (as if convoyed); fleets only
        along fleet moves. This is the distance civil disorder measures (DATC 6.J).
        Locations out of reach are absent. Worked out once per set of provinces."""
        key = (unit, provinces)
        if key not in self._distances:
            edges = self.province_graph if unit is ARMY else self.fleet_edges
            sources = [loc for p in provinces for loc in (p, *self.locations(p)) if loc in edges]
            distance = dict.fromkeys(sources, 0)
            frontier = sources
            while frontier:
                following = []
                for loc in frontier:
                    for neighbour in edges[loc]:
                        if neighbour not in distance:
                            distance[neighbour] = distance[loc] + 1
                            following.append(neighbour)
                frontier = following
            self._distances[key] = distance
        return self._distances[key]

    @cached_property
    def _distances(self) -> dict[tuple[UnitType, frozenset[str]], dict[str, int]]:
        return {}

    def on_convoy_route(self, origin: str, target: str, sea: str) -> bool:
        """Whether some chain of distinct seas from origin's coast to target's passes `sea`:
        a fleet on no such chain could never take part in the convoy (DATC 6.G.7)."""
        key = (origin, target, sea)
        if key not in self._routes_through:
            touching = self.seas_touching

            def extend(chain: list[str]) -> bool:
                if sea in chain and chain[-1] in touching[target]:
                    return True
                return any(extend([*chain, s]) for s in touching[chain[-1]] if s not in chain)

            self._routes_through[key] = any(extend([s]) for s in touching[origin])
        return self._routes_through[key]

    @cached_property
    def _routes_through(self) -> dict[tuple[str, str, str], bool]:
        return {}

    @cached_property
    def sea_regions(self) -> Mapping[str, int]:
        """Each sea province's connected body of water, numbered: convoys stay inside one."""
        region: dict[str, int] = {}
        seas = [p.id for p in self.provinces.values() if p.is_sea]
        for number, start in enumerate(seas):
            if start in region:
                continue
            frontier = [start]
            while frontier:
                sea = frontier.pop()
                if sea not in region:
                    region[sea] = number
                    frontier.extend(self.seas_touching[sea] - region.keys())
        return region


def _fold(spelling: str) -> str:
    return " ".join(spelling.lower().replace(".", " ").replace("-", " ").split())


# --- loading and validation ------------------------------------------------------------


def load_board(path: Path) -> Board:
    """Read and validate a map.toml; raise MapError listing every problem found."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [str(exc)]) from exc
    return board_from_data(data, str(path))


def board_from_data(data: Mapping[str, Any], source: str = "map") -> Board:
    problems: list[str] = []
    meta = data.get("meta", {})
    raw = data.get("provinces")
    if not isinstance(raw, dict) or not raw:
        raise MapError(source, ["no [provinces] table"])
    size = (float(meta.get("width", 1000)), float(meta.get("height", 1000)))

    provinces: dict[str, Province] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    coast_xy: dict[str, tuple[float, float]] = {}
    for pid, entry in raw.items():
        province = _read_province(pid, entry, meta, problems)
        if province is None:
            continue
        provinces[pid] = province
        army[pid] = frozenset(entry.get("army", ()))
        if province.coasts:
            for coast in province.coasts:
                spec = entry["coasts"][coast]
                fleet[f"{pid}/{coast}"] = frozenset(spec.get("fleet", ()))
                coast_xy[f"{pid}/{coast}"] = _xy(spec.get("xy", province.xy))
            if "fleet" in entry:
                problems.append(f"{province.name}: has split coasts, so fleet edges go per coast")
        else:
            fleet[pid] = frozenset(entry.get("fleet", ()))

    board = Board(
        name=str(meta.get("name", source)),
        provinces=provinces,
        army_edges={k: v for k, v in army.items() if v},
        fleet_edges={k: v for k, v in fleet.items() if v},
        size=size,
        source=str(meta.get("source", "")),
        coast_xy=coast_xy,
    )
    problems.extend(validate(board))
    if problems:
        raise MapError(source, problems)
    return board


def _xy(value: Any) -> tuple[float, float]:
    x, y = value
    return float(x), float(y)


def _read_province(
    pid: str, entry: Mapping[str, Any], meta: Mapping[str, Any], problems: list[str]
) -> Province | None:
    label = entry.get("name", pid)
    try:
        terrain = Terrain(entry.get("kind", ""))
    except ValueError:
        problems.append(f"{label}: kind must be land, sea or coast, not {entry.get('kind')!r}")
        return None
    if "xy" not in entry:
        problems.append(f"{label}: no coordinate (xy)")
    coasts = tuple(entry.get("coasts", {}))
    return Province(
        id=pid,
        name=str(label),
        terrain=terrain,
        center=bool(entry.get("center", False)),
        xy=_xy(entry.get("xy", (0, 0))),
        aliases=tuple(entry.get("aliases", ())),
        coasts=coasts,
        source=str(entry.get("source", meta.get("source", ""))),
        port=bool(entry.get("port", False)),
    )


def validate(board: Board) -> list[str]:
    """Every problem with a board's graph, each naming the provinces concerned."""
    problems: list[str] = []
    problems += _check_names(board)
    problems += _check_edges(board, UnitType.ARMY, board.army_edges)
    problems += _check_edges(board, UnitType.FLEET, board.fleet_edges)
    problems += _check_terrain(board)
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
        for spelling in {_fold(s) for s in (p.id, p.name, *p.aliases)}:
            other = seen.setdefault(spelling, p.id)
            if other != p.id:
                problems.append(f"{p.name}: the name {spelling!r} also means {other}")
    return problems


def _check_edges(board: Board, unit: UnitType, edges: Mapping[str, Iterable[str]]) -> list[str]:
    problems: list[str] = []
    for origin, targets in edges.items():
        here = board.name_of(origin) if province_of(origin) in board.provinces else origin
        for target in targets:
            if province_of(target) not in board.provinces:
                problems.append(f"{here}: {unit.noun} edge to unknown province {target!r}")
            elif not board.can_hold(unit, target):
                problems.append(
                    f"{here}: {unit.noun} edge to {target!r}, where no {unit.noun} can stand"
                )
            elif origin not in edges.get(target, ()):
                problems.append(
                    f"{here}: {unit.noun} edge to {board.name_of(target)} is one-way"
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
        if p.terrain is Terrain.COAST:
            touches_sea = any(
                board.provinces[province_of(t)].is_sea
                for loc in locs
                for t in board.fleet_edges.get(loc, ())
                if province_of(t) in board.provinces
            )
            if not touches_sea:
                problems.append(f"{p.name}: a {p.terrain} province that touches no sea")
        if p.terrain is Terrain.LAND and p.id not in board.army_edges:
            problems.append(f"{p.name}: an inland province with no neighbours")
    return problems
