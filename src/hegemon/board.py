"""The map: provinces, coasts, the kinds of unit and where each may move. Knows nothing of
games.

A *location* is where a unit stands: a province id (``"par"``) or, for a province with
split coasts, a coast of it (``"spa/nc"``). Units that move like armies always stand on
the province; units that move like fleets in a split-coast province stand on one of its
coasts.

Convoys follow the data too: a fleet may carry a convoy at a *convoy place* (every sea,
and any coast the data tags ``convoys``, such as a navigable river's), and each leg of a
convoy, from the army's province through the fleets to its destination, is a move the
fleets there could make: in the standard game, the familiar chain of seas; on a map with
navigable rivers, legs along the river as its fleets sail it.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

# Tags the judge itself reads; a map may carry any others, for its variant or its drawing.
RIVER: Final = "river"  # a coast along a navigable river: it need not touch the sea
CONVOYS: Final = "convoys"  # a coast where a fleet may carry a convoy, as at sea
NO_CONVOY: Final = "no-convoy"  # a sea where fleets may not convoy
COAST_REQUIRED: Final = "coast-required"  # a split coast a fleet's move must name, even when alone
UNNAVIGABLE: Final = (
    "unnavigable"  # a coast on water no fleet sails: fleets stand there, never move
)

# The place of units off the board (docs/writing-a-variant.md, "Units aboard and off the
# board"): not a province, and written so in orders (``F OFFBOARD - sao``). Province ids
# are lower case, so no map's province can be taken for it.
OFFBOARD: Final = "OFFBOARD"


@dataclass(frozen=True, slots=True)
class UnitKind:
    """A kind of unit, as a variant's data declares it in ``[units.X]``."""

    letter: str  # as orders write it: "A"
    name: str  # "army"
    by_land: bool  # moves along the army edges (True) or the fleet edges (False)
    supply: bool = True  # needs a supply center: counts against its power's centers
    captures: bool = True  # takes ownership of the supply center it holds after Fall
    convoyed: bool = False  # may be carried by a convoy
    convoys: bool = False  # may carry a convoy
    buildable: bool = True  # may be built in an adjustment phase
    glyph: str = ""  # how a map draws it: "army", "fleet", or "" for its letter

    @property
    def article(self) -> str:
        """The kind with its article, as messages say it: "an army", "a fleet"."""
        return f"{'an' if self.name[:1] in 'aeiou' else 'a'} {self.name}"

    @property
    def plural(self) -> str:
        """The kind's name in the plural: "armies", "fleets", "scouts"."""
        name = self.name
        if name.endswith("y") and name[-2:-1] not in "aeiou":
            return f"{name[:-1]}ies"
        return f"{name}s"

    def __str__(self) -> str:
        return self.letter


ARMY: Final = UnitKind("A", "army", by_land=True, convoyed=True, glyph="army")
FLEET: Final = UnitKind("F", "fleet", by_land=False, convoys=True, glyph="fleet")
STANDARD_KINDS: Mapping[str, UnitKind] = {"A": ARMY, "F": FLEET}


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
    tags: frozenset[str] = frozenset()
    label: str = ""  # how a drawn map writes it: the rulebook's abbreviation ("AlF")

    @property
    def is_sea(self) -> bool:
        return self.terrain is Terrain.SEA


@dataclass(frozen=True, slots=True)
class GeoFrame:
    """Where a map's canvas lies on the globe: its coordinates are an equirectangular
    projection of these longitudes and latitudes (west to east, north to south), so a
    drawing may lay real geography under them."""

    west: float
    east: float
    north: float
    south: float

    def to_canvas(self, lon: float, lat: float, size: tuple[float, float]) -> tuple[float, float]:
        width, height = size
        x = (lon - self.west) / (self.east - self.west) * width
        y = (self.north - lat) / (self.north - self.south) * height
        return x, y


def province_of(location: str) -> str:
    """The province a location lies in: ``"spa/nc"`` -> ``"spa"``."""
    return location.partition("/")[0] if "/" in location else location


class Moves:
    """The moves of one way of moving (by land, or not), as `Board._moves` tables them."""

    # A plain class, as the compiled core reads its fields directly: these tables are
    # read for every order checked.
    def __init__(
        self, landings: dict[str, dict[str, str]], reach: dict[str, frozenset[str]]
    ) -> None:
        self.landings: Final = landings
        self.reach: Final = reach


class _Derived:
    """The tables a board works out from its data when first asked for, kept here since
    the board itself is frozen. (Not `functools.cached_property`, which stops caching
    once the class is compiled: docs/compiled-core.md.)"""

    def __init__(self) -> None:
        self.centers: frozenset[str] | None = None
        self.unit_words: Mapping[str, UnitKind] | None = None
        self.land_moves: Moves | None = None
        self.sea_moves: Moves | None = None
        self.province_graph: Mapping[str, frozenset[str]] | None = None
        self.convoy_places: frozenset[str] | None = None
        self.convoy_legs: Mapping[str, frozenset[str]] | None = None
        self.convoy_shores: Mapping[str, frozenset[str]] | None = None
        self.convoy_regions: Mapping[str, int] | None = None
        self.convoy_network: dict[str, dict[str, int]] | None = None
        self.name_words: dict[str, int] | None = None
        # Answers worked out once per question.
        self.distances: dict[tuple[bool, frozenset[str]], dict[str, int]] = {}
        self.routes_through: dict[tuple[str, str, str], bool] = {}
        self.routes_needing: dict[tuple[str, str, str], bool] = {}


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable map graph. Adjacency is kept for each of the two ways units move
    (army edges and fleet edges), from location to locations."""

    name: str
    provinces: Mapping[str, Province]
    army_edges: Mapping[str, frozenset[str]]
    fleet_edges: Mapping[str, frozenset[str]]
    size: tuple[float, float] = (1000.0, 1000.0)
    source: str = ""
    coast_xy: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    kinds: Mapping[str, UnitKind] = field(default_factory=lambda: dict(STANDARD_KINDS))
    coast_tags: Mapping[str, frozenset[str]] = field(default_factory=dict)  # by "prov/coast"
    edge_tags: Mapping[frozenset[str], frozenset[str]] = field(default_factory=dict)
    edge_sources: Mapping[frozenset[str], str] = field(default_factory=dict)  # of [[edges]]
    geo: GeoFrame | None = None  # where the canvas lies on the globe, if the data says
    coast_aliases: Mapping[str, str] = field(default_factory=dict)  # "bam/ec" -> "bam/sc"
    _names: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _derived: _Derived = field(default_factory=_Derived, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for province in self.provinces.values():
            for spelling in (province.id, province.name, *province.aliases):
                self._names[_fold(spelling)] = province.id

    # --- names -------------------------------------------------------------------
    def lookup(self, spelling: str) -> str | None:
        """The province id for an id, full name or alias in any case; None if unknown."""
        return self._names.get(_fold(spelling))

    def name_words(self, word: str) -> int:
        """The most words in any name of a province that begins with this word (folded,
        as `lookup` folds names); 0 if none does. A reader need try no longer run of
        words for a place name that begins there."""
        derived = self._derived
        if derived.name_words is None:
            longest: dict[str, int] = {}
            for spelling in self._names:
                words = spelling.split(" ")
                longest[words[0]] = max(longest.get(words[0], 0), len(words))
            derived.name_words = longest
        return derived.name_words.get(word, 0)

    def coast_named(self, province: str, coast: str) -> str | None:
        """The location a coast of the province names, by its id or another name the
        data gives it (a rulebook that calls one coast two ways); None if neither."""
        location = f"{province}/{coast}"
        if location in self.locations(province):
            return sys.intern(location)  # as the board's own ids are
        return self.coast_aliases.get(location)

    def name_of(self, location: str) -> str:
        if location == OFFBOARD:
            return OFFBOARD
        province = self.provinces[province_of(location)]
        _, _, coast = location.partition("/")
        return f"{province.name} ({coast})" if coast else province.name

    @property
    def centers(self) -> frozenset[str]:
        derived = self._derived
        if derived.centers is None:
            derived.centers = frozenset(p.id for p in self.provinces.values() if p.center)
        return derived.centers

    @property
    def unit_words(self) -> Mapping[str, UnitKind]:
        """Each kind of unit by its letter and its name, in lower case, as orders write
        them: ``a``, ``army``, ``f``, ``fleet``."""
        derived = self._derived
        if derived.unit_words is None:
            words: dict[str, UnitKind] = {}
            for kind in self.kinds.values():
                words[kind.letter.lower()] = words[kind.name.lower()] = kind
            derived.unit_words = words
        return derived.unit_words

    # --- tags ----------------------------------------------------------------------
    def tags_of(self, location: str) -> frozenset[str]:
        """A location's tags: its province's, and its coast's if it is a split coast."""
        tags = self.provinces[province_of(location)].tags
        return tags | self.coast_tags[location] if location in self.coast_tags else tags

    def tagged(self, tag: str) -> frozenset[str]:
        """The provinces carrying a tag, e.g. a variant's holy city."""
        return frozenset(p.id for p in self.provinces.values() if tag in p.tags)

    def edge_tags_between(self, a: str, b: str) -> frozenset[str]:
        """The tags of the border between two locations or provinces (e.g. ``river``)."""
        return self.edge_tags.get(frozenset((a, b)), frozenset())

    def edge_source(self, a: str, b: str) -> str:
        """Where the border between two places is known from: its own ``source`` in
        ``[[edges]]``, or else the map's."""
        return self.edge_sources.get(frozenset((a, b)), self.source)

    # --- movement ------------------------------------------------------------------
    def locations(self, province: str) -> tuple[str, ...]:
        """Every location in a province: its coasts if split, else the province itself."""
        coasts = self.provinces[province].coasts
        return tuple(f"{province}/{c}" for c in coasts) if coasts else (province,)

    def can_hold(self, kind: UnitKind, location: str) -> bool:
        """Whether a unit of this kind may stand at this location at all."""
        province = self.provinces.get(province_of(location))
        if province is None:
            return False
        if kind.by_land:
            return location == province.id and not province.is_sea
        if province.terrain is Terrain.LAND:
            return False
        return location in self.locations(province.id)

    def edges(self, kind: UnitKind) -> Mapping[str, frozenset[str]]:
        return self.army_edges if kind.by_land else self.fleet_edges

    def neighbours(self, kind: UnitKind, location: str) -> frozenset[str]:
        return self.edges(kind).get(location, frozenset())

    def adjacent(self, kind: UnitKind, origin: str, target: str) -> bool:
        return target in self.edges(kind).get(origin, ())

    def reaches_province(self, kind: UnitKind, origin: str, province: str) -> bool:
        """Whether the unit can move from origin into some location of the province."""
        reach = self._moves(kind.by_land).reach.get(origin)
        return reach is not None and province in reach

    def landing(self, kind: UnitKind, origin: str, written: str) -> str | None:
        """Where a unit at origin lands when ordered straight to `written`, if it can:
        units moving by land ignore coasts; a fleet's coast is filled in when only one is
        reachable."""
        landings = self._moves(kind.by_land).landings.get(origin)
        return None if landings is None else landings.get(written)

    def _moves(self, by_land: bool) -> Moves:
        """The moves by land, or not, built once so that checking an ordinary move is one
        lookup: from each location, the landing for every way of writing a destination it
        reaches, and the provinces it reaches."""
        derived = self._derived
        moves = derived.land_moves if by_land else derived.sea_moves
        if moves is None:
            edges = self.army_edges if by_land else self.fleet_edges
            moves = Moves(self._landings(edges, coasts=not by_land), self._reach(edges))
            if by_land:
                derived.land_moves = moves
            else:
                derived.sea_moves = moves
        return moves

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
                alone = sum(1 for t in targets if province_of(t) == province) == 1
                if alone and COAST_REQUIRED not in self.tags_of(target):
                    ways[province] = target  # the only coast it can reach (DATC 6.B.2)
        return table

    def is_coastal(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.COAST

    @property
    def province_graph(self) -> Mapping[str, frozenset[str]]:
        """Provinces joined by any edge, army or fleet: the map as civil disorder sees it."""
        derived = self._derived
        if derived.province_graph is None:
            graph: dict[str, set[str]] = {p: set() for p in self.provinces}
            for edges in (self.army_edges, self.fleet_edges):
                for origin, targets in edges.items():
                    graph[province_of(origin)].update(province_of(t) for t in targets)
            derived.province_graph = {p: frozenset(n) for p, n in graph.items()}
        return derived.province_graph

    def distance(self, location: str, provinces: frozenset[str], any_province: bool) -> int | None:
        """Fewest moves from a location to any of the provinces, counting through provinces
        of any kind, coasts not mattering (`any_province`), or only along fleet moves; None
        if out of reach. This is the distance civil disorder measures (DATC 6.J). Worked
        out once per set of provinces."""
        if province_of(location) in provinces:
            return 0  # even where no move leads out (a fleet on an unnavigable coast)
        key = (any_province, provinces)
        distances = self._derived.distances
        if key not in distances:
            distances[key] = self._spread(any_province, provinces)
        return distances[key].get(province_of(location) if any_province else location)

    def _spread(self, any_province: bool, provinces: frozenset[str]) -> dict[str, int]:
        edges = self.province_graph if any_province else self.fleet_edges
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
        return distance

    # --- convoys -----------------------------------------------------------------------
    @property
    def convoy_places(self) -> frozenset[str]:
        """The locations where a fleet may carry a convoy: every sea but those tagged
        ``no-convoy``, and the coasts tagged ``convoys`` (navigable rivers and lakes)."""
        derived = self._derived
        if derived.convoy_places is None:
            places = set()
            for province in self.provinces.values():
                for location in self.locations(province.id):
                    tags = self.tags_of(location)
                    if (province.is_sea and NO_CONVOY not in tags) or CONVOYS in tags:
                        places.add(location)
            derived.convoy_places = frozenset(places)
        return derived.convoy_places

    @property
    def convoy_legs(self) -> Mapping[str, frozenset[str]]:
        """For each convoy place, the convoy places a fleet there could move to."""
        derived = self._derived
        if derived.convoy_legs is None:
            places = self.convoy_places
            derived.convoy_legs = {
                place: self.fleet_edges.get(place, frozenset()) & places for place in places
            }
        return derived.convoy_legs

    @property
    def convoy_shores(self) -> Mapping[str, frozenset[str]]:
        """For each province, the convoy places from which a fleet could move into it:
        where a convoy may pick up an army standing there, or land one."""
        derived = self._derived
        if derived.convoy_shores is None:
            shores: dict[str, set[str]] = {p: set() for p in self.provinces}
            for place in self.convoy_places:
                for target in self.fleet_edges.get(place, ()):
                    shores[province_of(target)].add(place)
            derived.convoy_shores = {p: frozenset(places) for p, places in shores.items()}
        return derived.convoy_shores

    def convoy_chain(self, origin: str, target: str, fleets: Iterable[str]) -> bool:
        """Whether fleets standing at these locations chain from the province `origin`
        to the province `target`, every leg a move a fleet could make."""
        shores, legs = self.convoy_shores, self.convoy_legs
        unused = set(fleets) & self.convoy_places
        frontier = [f for f in unused if f in shores[origin]]
        unused.difference_update(frontier)
        while frontier:
            place = frontier.pop()
            if place in shores[target]:
                return True
            nearby = [f for f in unused if f in legs[place]]
            unused.difference_update(nearby)
            frontier.extend(nearby)
        return False

    @property
    def convoy_regions(self) -> Mapping[str, int]:
        """Each convoy place's connected body of water, numbered: convoys stay inside one."""
        derived = self._derived
        if derived.convoy_regions is None:
            region: dict[str, int] = {}
            legs = self.convoy_legs
            for number, start in enumerate(sorted(self.convoy_places)):
                if start in region:
                    continue
                frontier = [start]
                while frontier:
                    place = frontier.pop()
                    if place not in region:
                        region[place] = number
                        frontier.extend(p for p in legs[place] if p not in region)
            derived.convoy_regions = region
        return derived.convoy_regions

    def could_be_convoyed(self, origin: str, target: str) -> bool:
        """Whether some chain of convoy places could carry a unit from one province to
        another, were there fleets in all of them."""
        if origin == target:
            return False
        regions = self.convoy_regions
        starts = {regions[p] for p in self.convoy_shores[origin]}
        return any(regions[p] in starts for p in self.convoy_shores[target])

    def on_convoy_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some chain of distinct convoy places from `origin` to `target` passes
        `place`: a fleet on no such chain could never take part in the convoy (DATC
        6.G.7). Worked out once per question, as two paths from `place` that share no
        other place, one reaching the army and one its destination (Menger's theorem)."""
        key = (origin, target, place)
        known = self._derived.routes_through
        if key not in known:
            known[key] = place in self.convoy_places and _two_disjoint_paths(
                self._convoy_network(),
                place,
                self.convoy_shores[origin],
                self.convoy_shores[target],
            )
        return known[key]

    def _convoy_network(self) -> dict[str, dict[str, int]]:
        """The convoy places as a flow network, built once: each place split into an
        entry and an exit joined by a capacity of one, each leg from an exit to an entry
        (with its residual edge back), for `_two_disjoint_paths` to copy."""
        derived = self._derived
        if derived.convoy_network is None:
            capacity: dict[str, dict[str, int]] = {}
            for place, nearby in self.convoy_legs.items():
                _link(capacity, f"in {place}", f"out {place}")
                for other in nearby:
                    _link(capacity, f"out {place}", f"in {other}")
            derived.convoy_network = capacity
        return derived.convoy_network

    def needed_on_convoy_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some route from `origin` to `target` needs `place`: a chain of convoy
        places none of which could be left out (only its first touches the origin, only
        its last the target, and no two but neighbours in it are adjacent) that passes
        `place` (the 2023 rules: a convoy by a fleet no route needs is illegal, DATC 3.0
        6.G.19). Worked out once per question."""
        key = (origin, target, place)
        known = self._derived.routes_needing
        if key not in known:
            starts, ends = self.convoy_shores[origin], self.convoy_shores[target]
            known[key] = place in self.convoy_places and any(
                _needing_chain([start], place, starts, ends, self.convoy_legs)
                for start in sorted(starts)
            )
        return known[key]


def _needing_chain(
    chain: list[str],
    place: str,
    starts: frozenset[str],
    ends: frozenset[str],
    legs: Mapping[str, frozenset[str]],
) -> bool:
    """Whether `chain` grows into a route none of whose places could be left out, passing
    `place`: a depth-first search in which each place added touches the chain's last place
    and no earlier one, and is no start."""
    last = chain[-1]
    if last in ends:
        return place in chain
    earlier = set(chain[:-1])
    for following in sorted(legs[last]):
        if following in chain or following in starts:
            continue
        if any(p in earlier for p in legs[following]):
            continue  # it would touch an earlier place: that place's chain is shorter
        if _needing_chain([*chain, following], place, starts, ends, legs):
            return True
    return False


def _link(capacity: dict[str, dict[str, int]], a: str, b: str) -> None:
    """One more unit of capacity from `a` to `b`, and the residual edge back."""
    capacity.setdefault(a, {})[b] = capacity.get(a, {}).get(b, 0) + 1
    capacity.setdefault(b, {}).setdefault(a, 0)


def _two_disjoint_paths(
    network: Mapping[str, Mapping[str, int]],
    start: str,
    ends_a: frozenset[str],
    ends_b: frozenset[str],
) -> bool:
    """Whether, from `start`, one path reaches a place of `ends_a` and another a place of
    `ends_b`, the two sharing no place but `start`: a flow of two out of `start` through
    the convoy `network` (where every place carries one unit at most), each end set
    letting one unit out."""
    capacity = {node: dict(edges) for node, edges in network.items()}
    for end, side in [*((e, "army") for e in ends_a), *((e, "destination") for e in ends_b)]:
        _link(capacity, f"out {end}", side)
    _link(capacity, "army", "sink")
    _link(capacity, "destination", "sink")
    return _flow(capacity, f"out {start}", "sink", 2) == 2


def _flow(capacity: dict[str, dict[str, int]], source: str, sink: str, wanted: int) -> int:
    """Push units from source to sink along shortest augmenting paths, up to `wanted`."""
    flow = 0
    while flow < wanted:
        parent = {source: source}
        frontier = [source]
        while frontier and sink not in parent:
            following = []
            for node in frontier:
                for nxt, left in capacity.get(node, {}).items():
                    if left > 0 and nxt not in parent:
                        parent[nxt] = node
                        following.append(nxt)
            frontier = following
        if sink not in parent:
            return flow
        node = sink
        while node != source:
            capacity[parent[node]][node] -= 1
            capacity[node][parent[node]] += 1
            node = parent[node]
        flow += 1
    return flow


# Typographic apostrophes (the right and left single quotation marks that word processors and
# phones put in "N'djamena", the modifier letter, acute and grave accents) read as the plain one.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc\u00b4`", "'"))


def _fold(spelling: str) -> str:
    folded = spelling.lower()
    # Most spellings looked up are one plain word ("par", "stp"), which folds to itself:
    # replacing, splitting and joining it would make four new strings for nothing.
    if folded.isalpha() and folded.isascii():
        return folded
    # Translating goes character by character, slowly: only a spelling holding one of the
    # apostrophes (all but "`" outside ASCII) needs it, and every order read is folded.
    if "`" in folded or not folded.isascii():
        folded = folded.translate(_APOSTROPHES)
    folded = folded.replace(".", " ").replace("-", " ")
    return " ".join(folded.split())


# --- loading and validation ------------------------------------------------------------


def load_board(path: Path) -> Board:
    """Read and validate a map.toml; raise MapError listing every problem found."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [str(exc)]) from exc
    return board_from_data(data, str(path))


def board_from_data(data: Mapping[str, Any], source: str = "the map") -> Board:
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
    coast_tags: dict[str, frozenset[str]] = {}
    coast_aliases: dict[str, str] = {}
    for written, entry in raw.items():
        pid = sys.intern(written)
        province = _read_province(pid, entry, meta, problems)
        if province is None:
            continue
        provinces[pid] = province
        army[pid] = _ids(entry.get("army", ()))
        if province.coasts:
            for coast in province.coasts:
                spec = entry["coasts"][coast]
                fleet[sys.intern(f"{pid}/{coast}")] = _ids(spec.get("fleet", ()))
                coast_xy[f"{pid}/{coast}"] = _xy(spec.get("xy", province.xy))
                coast_tags[f"{pid}/{coast}"] = frozenset(spec.get("tags", ()))
                for alias in spec.get("aliases", ()):
                    _read_coast_alias(province, coast, alias, coast_aliases, problems)
            if "fleet" in entry:
                problems.append(f"{province.name}: has split coasts, so fleet edges go per coast")
        else:
            fleet[pid] = _ids(entry.get("fleet", ()))

    edge_tags, edge_sources = _read_edges(data.get("edges", []), problems)
    board = Board(
        name=str(meta.get("name", source)),
        provinces=provinces,
        army_edges={k: v for k, v in army.items() if v},
        fleet_edges={k: v for k, v in fleet.items() if v},
        size=size,
        source=str(meta.get("source", "")),
        coast_xy=coast_xy,
        kinds=_read_kinds(data.get("units"), problems),
        coast_tags=coast_tags,
        edge_tags=edge_tags,
        edge_sources=edge_sources,
        geo=_read_geo(meta.get("projection"), problems),
        coast_aliases=coast_aliases,
    )
    problems.extend(validate(board))
    if _label_case(meta) != meta.get("labels", "capitalized"):
        problems.append(f"[meta] labels: one of {', '.join(_LABEL_CASES)}, not {meta['labels']!r}")
    if problems:
        raise MapError(source, problems)
    return board


def _ids(written: Iterable[Any]) -> frozenset[str]:
    """Locations as a map names them, each the one string of its text (`sys.intern`): the
    judge looks them up in its tables many times a phase, and a lookup by the very string
    a table holds skips comparing the two."""
    return frozenset(sys.intern(w) if isinstance(w, str) else w for w in written)


def _read_coast_alias(
    province: Province, coast: str, alias: Any, aliases: dict[str, str], problems: list[str]
) -> None:
    """Another name of a coast (``aliases = ["ec"]``), which must name no other coast."""
    where = f"{province.name} ({coast})"
    if not isinstance(alias, str) or alias in province.coasts:
        problems.append(f"{where}: the alias {alias!r} is not another name for a coast")
        return
    other = aliases.setdefault(f"{province.id}/{alias}", f"{province.id}/{coast}")
    if other != f"{province.id}/{coast}":
        problems.append(f"{where}: the alias {alias!r} also names {other}")


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
        tags=frozenset(entry.get("tags", ())),
        label=str(entry["label"]) if "label" in entry else _LABEL_CASES[_label_case(meta)](pid),
    )


# How a map labels provinces that give no label of their own (``[meta] labels``): their
# id capitalised ("Lon", the default) or in capitals ("LON", as some rulebooks write them).
_LABEL_CASES = {"capitalized": str.capitalize, "upper": str.upper}


def _label_case(meta: Mapping[str, Any]) -> str:
    case = str(meta.get("labels", "capitalized"))
    return case if case in _LABEL_CASES else "capitalized"


def _read_geo(raw: Any, problems: list[str]) -> GeoFrame | None:
    """``[meta.projection]``: the longitudes and latitudes the canvas spans, if given."""
    if raw is None:
        return None
    try:
        frame = GeoFrame(*(float(raw[side]) for side in ("west", "east", "north", "south")))
    except (KeyError, TypeError, ValueError):
        problems.append("[meta.projection]: west, east, north and south, as numbers of degrees")
        return None
    if not (frame.west < frame.east and frame.south < frame.north):
        problems.append("[meta.projection]: west must lie west of east, and south south of north")
        return None
    return frame


_KIND_FIELDS = {"name", "moves", "supply", "captures", "convoyed", "convoys", "buildable", "glyph"}


def _read_kinds(raw: Any, problems: list[str]) -> dict[str, UnitKind]:
    """The ``[units.X]`` tables; a map without any has the standard army and fleet."""
    if raw is None:
        return dict(STANDARD_KINDS)
    kinds: dict[str, UnitKind] = {}
    for letter, spec in raw.items():
        where = f"[units.{letter}]"
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            problems.append(f"{where}: a unit kind is one capital letter")
            continue
        unknown = sorted(set(spec) - _KIND_FIELDS)
        if unknown:
            problems.append(f"{where}: unknown field {unknown[0]!r}")
        if spec.get("moves") not in ("army", "fleet"):
            problems.append(f"{where}: moves must be 'army' or 'fleet' (which edges it takes)")
            continue
        by_land = spec["moves"] == "army"
        kinds[letter] = UnitKind(
            letter=letter,
            name=str(spec.get("name", letter)),
            by_land=by_land,
            supply=bool(spec.get("supply", True)),
            captures=bool(spec.get("captures", True)),
            convoyed=bool(spec.get("convoyed", by_land)),
            convoys=bool(spec.get("convoys", not by_land)),
            buildable=bool(spec.get("buildable", True)),
            glyph=str(spec.get("glyph", "")),
        )
    names = [k.name.lower() for k in kinds.values()]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"[units]: two kinds are called {name!r}")
    return kinds


def _read_edges(
    raw: Any, problems: list[str]
) -> tuple[dict[frozenset[str], frozenset[str]], dict[frozenset[str], str]]:
    """``[[edges]] between = ["bam/nc", "sen"], tags = ["river"], source = "..."``: each
    border's tags, and the source of those that name one."""
    tags: dict[frozenset[str], frozenset[str]] = {}
    sources: dict[frozenset[str], str] = {}
    for entry in raw:
        ends = entry.get("between", [])
        if len(ends) != 2:
            problems.append(f"[[edges]] {ends!r}: between names two places")
            continue
        tags[frozenset(ends)] = frozenset(entry.get("tags", ()))
        if "source" in entry:
            sources[frozenset(ends)] = str(entry["source"])
    return tags, sources


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
        for spelling in {_fold(s) for s in (p.id, p.name, *p.aliases)}:
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
