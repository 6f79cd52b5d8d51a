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
navigable rivers, legs along the river as its fleets sail it (the routes: hegemon.convoys).

A map is read from its data by hegemon.mapfile and checked by hegemon.mapcheck.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from hegemon.convoys import ConvoyMap

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

    # Kinds are compared and hashed wherever orders and units are (each holds one): the
    # dataclass's own methods would run as Python, some 2,000 instructions a call, where
    # the same object nearly always stands on both sides.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, UnitKind):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self.letter)  # equal kinds share their letter

    def _fields(self) -> tuple[object, ...]:
        """Every field, for equality: the dataclass's own comparison."""
        return (
            self.letter, self.name, self.by_land, self.supply, self.captures, self.convoyed,
            self.convoys, self.buildable, self.glyph,
        )  # fmt: skip


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
        self.convoys: ConvoyMap | None = None
        self.name_words: dict[str, int] | None = None
        self.places_written: dict[str, str] | None = None
        self.lettered: dict[str, UnitKind] | None = None
        self.units_written: dict[str, tuple[UnitKind, str]] | None = None
        # Answers worked out once per question.
        self.distances: dict[tuple[bool, frozenset[str]], dict[str, int]] = {}


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
                self._names[fold_spelling(spelling)] = province.id

    # --- names -------------------------------------------------------------------
    def lookup(self, spelling: str) -> str | None:
        """The province id for an id, full name or alias in any case; None if unknown."""
        return self._names.get(fold_spelling(spelling))

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

    def place_written(self, word: str) -> str | None:
        """The location one word names as programs write one: a province's id or one-word
        alias, with its coast if split, in lower case, capitalized or upper case (``par``,
        ``Spa/nc``, ``MAO``), where no longer name of a province begins with it; None for
        any other word (which may still name a place, read the long way). One dict
        lookup, made for reading orders: most name their places so."""
        derived = self._derived
        if derived.places_written is None:
            derived.places_written = self._places_written()
        return derived.places_written.get(word)

    def kind_lettered(self, letter: str) -> UnitKind | None:
        """The kind of unit of this letter (``A``), if any: `kinds` as a dict, which
        compiled code reads directly, where a Mapping's `get` is a method call."""
        derived = self._derived
        if derived.lettered is None:
            derived.lettered = dict(self.kinds)
        return derived.lettered.get(letter)

    def unit_written(self, text: str) -> tuple[UnitKind, str] | None:
        """The kind and location of a unit written as positions write one (``A par``,
        ``F spa/nc``: `hegemon.position.unit_text`), where a unit of its kind may stand;
        None for any other text. One dict lookup, for reading positions: a position's
        every unit is written so."""
        derived = self._derived
        if derived.units_written is None:
            derived.units_written = {
                f"{kind.letter} {location}": (kind, sys.intern(location))
                for kind in self.kinds.values()
                for province in self.provinces
                for location in {province, *self.locations(province)}
                if self.can_hold(kind, location)
            }
        return derived.units_written.get(text)

    def _places_written(self) -> dict[str, str]:
        written: dict[str, str] = {}
        for spelling, province in self._names.items():
            if not (spelling.isascii() and spelling.isalpha()) or self.name_words(spelling) != 1:
                continue
            # The province (an army's place), and each of its coasts if split.
            for coast in ("", *self.provinces[province].coasts):
                word, location = (
                    (f"{spelling}/{coast}", f"{province}/{coast}")
                    if coast
                    else (spelling, province)
                )
                for case in (word, word.capitalize(), word.upper()):
                    written[case] = sys.intern(location)  # as the board's own ids are
        return written

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

    def provinces_reached(self, kind: UnitKind, origin: str) -> frozenset[str]:
        """Every province the unit can move into from origin (`reaches_province` of each)."""
        return self._moves(kind.by_land).reach.get(origin, frozenset())

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
    def convoys(self) -> ConvoyMap:
        """Where fleets may carry convoys on this map, and the routes through those
        places (hegemon.convoys), worked out when first asked for."""
        derived = self._derived
        if derived.convoys is None:
            places = self._convoy_places()
            legs = {place: self.fleet_edges.get(place, frozenset()) & places for place in places}
            shores: dict[str, set[str]] = {p: set() for p in self.provinces}
            for place in places:
                for target in self.fleet_edges.get(place, ()):
                    shores[province_of(target)].add(place)
            frozen = {p: frozenset(nearby) for p, nearby in shores.items()}
            derived.convoys = ConvoyMap(places, legs, frozen)
        return derived.convoys

    def _convoy_places(self) -> frozenset[str]:
        places = set()
        for province in self.provinces.values():
            for location in self.locations(province.id):
                tags = self.tags_of(location)
                if (province.is_sea and NO_CONVOY not in tags) or CONVOYS in tags:
                    places.add(location)
        return frozenset(places)

    # The convoy questions the rules and the adjudicators ask of the map, answered by its
    # `ConvoyMap` (whose docstrings say more).
    @property
    def convoy_places(self) -> frozenset[str]:
        """The locations where a fleet may carry a convoy: every sea but those tagged
        ``no-convoy``, and the coasts tagged ``convoys`` (navigable rivers and lakes)."""
        return self.convoys.places

    @property
    def convoy_legs(self) -> Mapping[str, frozenset[str]]:
        """For each convoy place, the convoy places a fleet there could move to."""
        return self.convoys.legs

    @property
    def convoy_shores(self) -> Mapping[str, frozenset[str]]:
        """For each province, the convoy places from which a fleet could move into it:
        where a convoy may pick up an army standing there, or land one."""
        return self.convoys.shores

    def convoy_chain(self, origin: str, target: str, fleets: Iterable[str]) -> bool:
        """Whether fleets standing at these locations chain from `origin` to `target`."""
        return self.convoys.chain(origin, target, fleets)

    def could_be_convoyed(self, origin: str, target: str) -> bool:
        """Whether some chain of convoy places joins the two provinces."""
        return self.convoys.could_carry(origin, target)

    def on_convoy_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some chain of convoy places from `origin` to `target` passes `place`."""
        return self.convoys.on_route(origin, target, place)

    def needed_on_convoy_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some route from `origin` to `target` needs `place` (the 2023 rules)."""
        return self.convoys.needed_on_route(origin, target, place)


# Typographic apostrophes (the right and left single quotation marks that word processors and
# phones put in "N'djamena", the modifier letter, acute and grave accents) read as the plain one.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc\u00b4`", "'"))


def fold_spelling(spelling: str) -> str:
    """A name as lookups compare it: lower case, plain apostrophes, words split by single
    spaces, hyphens and full stops read as spaces (``"St. Petersburg"``, ``"st petersburg"``)."""
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
