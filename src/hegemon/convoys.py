"""Convoy routes: which chains of fleets may carry a unit from one province to another.

The board works out its convoy tables from its data (`Board.convoys`): the *places* where a
fleet may carry a convoy, the *legs* between them (each a move a fleet there could make),
and each province's *shores* (the places from which a fleet could move into it, where a
convoy picks up or lands). This module answers the route questions over those tables, the
adjudicator's (does a chain of fleets reach?) and the rules' (could a fleet ever take part
in this convoy? does some route need it?), each worked out once per question. It knows
nothing of provinces, coasts or tags: only of places and the legs between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final


class ConvoyMap:
    """The places where fleets may convoy on one map, the legs between them and the
    shores of each province, with the answers to route questions, memoised."""

    # A plain class with final fields, as the compiled core reads them directly: the
    # resolver asks `chain` for every convoyed move.
    def __init__(
        self,
        places: frozenset[str],
        legs: Mapping[str, frozenset[str]],
        shores: Mapping[str, frozenset[str]],
    ) -> None:
        self.places: Final = places
        self.legs: Final = legs  # place -> the places a fleet there could move to
        self.shores: Final = shores  # province -> the places a fleet could enter it from
        self._regions: Mapping[str, int] | None = None
        self._network: dict[str, dict[str, int]] | None = None
        self._routes_through: dict[tuple[str, str], frozenset[str]] = {}
        self._two_way: bool | None = None  # whether every leg goes both ways
        self._routes_needing: dict[tuple[str, str, str], bool] = {}
        self._touched: Mapping[str, frozenset[str]] | None = None

    def chain(self, origin: str, target: str, fleets: Iterable[str]) -> bool:
        """Whether fleets standing at these locations chain from the province `origin`
        to the province `target`, every leg a move a fleet could make."""
        legs, ends, starts = self.legs, self.shores[target], self.shores[origin]
        # Set operations throughout: the fleets are few, but each step of the search
        # looked at every one of them in turn. Written as operators, which compiled code
        # calls directly, where it looks a method such as `intersection` up by its name.
        # Fleets away from the convoy places never join: the starts and legs are places.
        unused = set(fleets)
        frontier = list(unused & starts)
        unused -= starts
        while frontier:
            place = frontier.pop()
            if place in ends:
                return True
            nearby = unused & legs[place]
            if nearby:
                unused -= nearby
                frontier.extend(nearby)
        return False

    def carried_from(self, origin: str, fleets: Iterable[str]) -> frozenset[str]:
        """Every province fleets standing at these locations could carry a unit to from
        the province `origin`: each one `chain` answers True for, found in one search."""
        return self.entered(self.chained_from(origin, fleets))

    def chained_from(self, origin: str, fleets: Iterable[str]) -> frozenset[str]:
        """The places of the fleets standing at these locations that chain from the
        province `origin`: a unit is carried to any province on the shores of one."""
        unused = set(fleets)  # as in `chain`, fleets away from the places never join
        return self.reached(list(unused & self.shores[origin]), unused)

    def reached(self, frontier: list[str], unused: set[str]) -> frozenset[str]:
        """The places chained to from `frontier` through the `unused` ones (used up).
        Operators, as in `chain`."""
        unused -= set(frontier)
        reached: set[str] = set()
        legs = self.legs
        while frontier:
            place = frontier.pop()
            reached.add(place)
            nearby = unused & legs[place]
            if nearby:
                unused -= nearby
                frontier.extend(nearby)
        return frozenset(reached)

    def entered(self, places: frozenset[str]) -> frozenset[str]:
        """The provinces a fleet at any of these places could enter."""
        touched = self.touched
        return frozenset([p for place in places for p in touched[place]])

    def carriers(self, fleets: Iterable[str]) -> Carriers:
        """The fleets standing at these locations, for the provinces they could carry a
        unit to from each province (`Carriers.carried_from`)."""
        return Carriers(self, set(fleets) & self.places)

    @property
    def two_way(self) -> bool:
        """Whether every leg goes both ways (on every map so far)."""
        if self._two_way is None:
            legs = self.legs
            self._two_way = all(p in legs.get(q, ()) for p, near in legs.items() for q in near)
        return self._two_way

    @property
    def touched(self) -> Mapping[str, frozenset[str]]:
        """Each convoy place's provinces: those whose shores it is on."""
        if self._touched is None:
            touched: dict[str, set[str]] = {place: set() for place in self.places}
            for province, places in self.shores.items():
                for place in places:
                    touched[place].add(province)
            self._touched = {place: frozenset(near) for place, near in touched.items()}
        return self._touched

    @property
    def regions(self) -> Mapping[str, int]:
        """Each convoy place's connected body of water, numbered: convoys stay inside one."""
        if self._regions is None:
            region: dict[str, int] = {}
            legs = self.legs
            for number, start in enumerate(sorted(self.places)):
                if start in region:
                    continue
                frontier = [start]
                while frontier:
                    place = frontier.pop()
                    if place not in region:
                        region[place] = number
                        frontier.extend(p for p in legs[place] if p not in region)
            self._regions = region
        return self._regions

    def could_carry(self, origin: str, target: str) -> bool:
        """Whether some chain of convoy places could carry a unit from one province to
        another, were there fleets in all of them."""
        if origin == target:
            return False
        regions = self.regions
        starts = {regions[p] for p in self.shores[origin]}
        return any(regions[p] in starts for p in self.shores[target])

    def on_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some chain of distinct convoy places from `origin` to `target` passes
        `place`: a fleet on no such chain could never take part in the convoy (DATC
        6.G.7). Worked out once per origin and target, for every place at once: a menu
        asks it of every fleet, for every army and landing."""
        key = (origin, target)
        known = self._routes_through
        if key not in known:
            known[key] = self._places_on_routes(self.shores[origin], self.shores[target])
        return place in known[key]

    def _places_on_routes(self, starts: frozenset[str], ends: frozenset[str]) -> frozenset[str]:
        """Every place on some chain of distinct places from a start to an end. Where the
        legs go both ways (on every map so far), those of the blocks (biconnected
        components) met on the way from a source beside every start to a sink beside every
        end; else, place by place, two paths from it that share no other place, one
        reaching a start and one an end (Menger's theorem)."""
        if self.two_way:
            return _on_the_way(self.legs, starts, ends)
        network = self._flow_network()
        return frozenset(p for p in self.places if _two_disjoint_paths(network, p, starts, ends))

    def needed_on_route(self, origin: str, target: str, place: str) -> bool:
        """Whether some route from `origin` to `target` needs `place`: a chain of convoy
        places none of which could be left out (only its first touches the origin, only
        its last the target, and no two but neighbours in it are adjacent) that passes
        `place` (the 2023 rules: a convoy by a fleet no route needs is illegal, DATC 3.0
        6.G.19). Worked out once per question."""
        key = (origin, target, place)
        known = self._routes_needing
        if key not in known:
            starts, ends = self.shores[origin], self.shores[target]
            known[key] = place in self.places and any(
                _needing_chain([start], place, starts, ends, self.legs) for start in sorted(starts)
            )
        return known[key]

    def _flow_network(self) -> dict[str, dict[str, int]]:
        """The convoy places as a flow network, built once: each place split into an
        entry and an exit joined by a capacity of one, each leg from an exit to an entry
        (with its residual edge back), for `_two_disjoint_paths` to copy."""
        if self._network is None:
            capacity: dict[str, dict[str, int]] = {}
            for place, nearby in self.legs.items():
                _link(capacity, f"in {place}", f"out {place}")
                for other in nearby:
                    _link(capacity, f"out {place}", f"in {other}")
            self._network = capacity
        return self._network


class Carriers:
    """Fleets standing now, and where they could carry a unit from each province: a
    menu asks it of every unit that may be convoyed. Where the legs go both ways, the
    fleets fall into bodies that chain together, each carrying a unit from any province
    it could enter to any other; else each province's chains are followed from it."""

    def __init__(self, convoys: ConvoyMap, fleets: set[str]) -> None:
        self.convoys = convoys
        self.fleets = fleets
        # Each body: its places, and the provinces a fleet of it could enter.
        self.bodies: list[tuple[frozenset[str], frozenset[str]]] = []
        if convoys.two_way:
            unused = set(fleets)
            while unused:
                body = convoys.reached([unused.pop()], unused)
                self.bodies.append((body, convoys.entered(body)))

    def carried_from(self, origin: str) -> frozenset[str]:
        """Every province the fleets could carry a unit to from the province `origin`:
        each province `ConvoyMap.chain` answers True for with these fleets."""
        if not self.convoys.two_way:
            return self.convoys.carried_from(origin, self.fleets)
        starts = self.convoys.shores[origin]
        found = [entered for places, entered in self.bodies if not places.isdisjoint(starts)]
        if len(found) == 1:
            return found[0]
        return frozenset().union(*found)


_SOURCE = "\0source"  # beside every start, in `_on_the_way`: no place's name
_SINK = "\0sink"  # beside every end


def _on_the_way(
    legs: Mapping[str, frozenset[str]], starts: frozenset[str], ends: frozenset[str]
) -> frozenset[str]:
    """The places on some simple path from the source (joined to every start) to the sink
    (joined to every end), the legs taken as going both ways: those of the blocks on the
    path between them in the block-cut tree."""
    graph = {place: set(near) for place, near in legs.items()}
    graph[_SOURCE], graph[_SINK] = set(starts), set(ends)
    for place in starts:
        graph[place].add(_SOURCE)
    for place in ends:
        graph[place].add(_SINK)
    blocks = _blocks(graph, _SOURCE)
    member: dict[str, list[int]] = {}
    for number, block in enumerate(blocks):
        for place in block:
            member.setdefault(place, []).append(number)
    if _SINK not in member:
        return frozenset()
    # Breadth first through the tree of blocks and the places in them, from source to sink.
    block_from: dict[int, str] = {}  # each block reached: the place it was reached from
    place_from: dict[str, int] = {_SOURCE: -1}  # each place reached: the block it came by
    frontier = [_SOURCE]
    while _SINK not in place_from:
        following = []
        for place in frontier:
            for number in member[place]:
                if number not in block_from:
                    block_from[number] = place
                    for reached in blocks[number] - place_from.keys():
                        place_from[reached] = number
                        following.append(reached)
        frontier = following
    on: set[str] = set()
    place = _SINK
    while place != _SOURCE:
        number = place_from[place]
        on |= blocks[number]
        place = block_from[number]
    return frozenset(on - {_SOURCE, _SINK})


def _blocks(graph: Mapping[str, set[str]], root: str) -> list[set[str]]:
    """The blocks (biconnected components) of the part of the graph reached from `root`,
    each as its places: Tarjan's depth-first search, without recursion."""
    depth = {root: 0}
    low = {root: 0}
    blocks: list[set[str]] = []
    edges: list[tuple[str, str]] = []
    stack = [(root, "", iter(sorted(graph[root])))]
    while stack:
        node, parent, rest = stack[-1]
        child = next(rest, None)
        if child is None:
            stack.pop()
            if parent:
                low[parent] = min(low[parent], low[node])
                if low[node] >= depth[parent]:  # the parent cuts off the node's block
                    block: set[str] = set()
                    while True:
                        edge = edges.pop()
                        block.update(edge)
                        if edge == (parent, node):
                            break
                    blocks.append(block)
        elif child != parent:
            if child not in depth:
                depth[child] = low[child] = depth[node] + 1
                edges.append((node, child))
                stack.append((child, node, iter(sorted(graph[child]))))
            elif depth[child] < depth[node]:
                low[node] = min(low[node], depth[child])
                edges.append((node, child))
    return blocks


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
