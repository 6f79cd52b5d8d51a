"""Which fleets lie on some convoy route (DATC 6.G.7): worked out for every place at once,
per army and destination, from the blocks of the convoy places; the same answers as two
paths from the fleet that share no other place (Menger's theorem), asked place by place."""

from __future__ import annotations

import random

import pytest

from hegemon.convoys import ConvoyMap, _two_disjoint_paths
from hegemon.variants import available_variants, load_variant

VARIANTS = tuple(available_variants())  # every variant installed


def _map(legs: dict[str, str], shores: dict[str, str]) -> ConvoyMap:
    """A convoy map from legs written ``{"a": "bc"}`` (a leg from a to b and to c) and
    shores written ``{"Origin": "a"}``."""
    return ConvoyMap(
        frozenset(legs),
        {place: frozenset(near) for place, near in legs.items()},
        {province: frozenset(places) for province, places in shores.items()},
    )


def _by_flow(convoys: ConvoyMap, origin: str, target: str, place: str) -> bool:
    starts, ends = convoys.shores[origin], convoys.shores[target]
    return _two_disjoint_paths(convoys._flow_network(), place, starts, ends)


def test_a_fleet_in_a_dead_end_is_on_no_route_and_one_on_a_detour_is() -> None:
    # a - b - c, with a bay d off b alone, and a detour a - e - c.
    convoys = _map(
        {"a": "be", "b": "acd", "c": "be", "d": "b", "e": "ac"},
        {"Origin": "a", "Target": "c", "Bay": "d", "Island": ""},
    )
    on = {p for p in "abcde" if convoys.on_route("Origin", "Target", p)}
    assert on == {"a", "b", "c", "e"}
    # From the bay, the way round by a and e is a route too.
    assert {p for p in "abcde" if convoys.on_route("Bay", "Target", p)} == {"a", "b", "c", "d", "e"}
    assert not any(convoys.on_route("Island", "Target", p) for p in "abcde")
    assert not convoys.on_route("Origin", "Target", "nowhere")


def test_a_place_cut_off_by_a_narrow_is_on_no_route_beyond_it() -> None:
    # a - b - c - d in a line: from a shore at a to one at b, c and d are off the way.
    convoys = _map({"a": "b", "b": "ac", "c": "bd", "d": "c"}, {"West": "a", "Mid": "b"})
    assert {p for p in "abcd" if convoys.on_route("West", "Mid", p)} == {"a", "b"}


def test_one_way_legs_are_asked_place_by_place() -> None:
    # a leads to b, but b not back to a: the flow along the legs as they go.
    convoys = _map({"a": "b", "b": "c", "c": "b"}, {"West": "a", "East": "c"})
    for place in "abc":
        for origin, target in [("West", "East"), ("East", "West")]:
            assert convoys.on_route(origin, target, place) == _by_flow(
                convoys, origin, target, place
            )


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_map_gives_the_answers_of_two_disjoint_paths(variant: str) -> None:
    board = load_variant(variant).board.convoys
    convoys = ConvoyMap(board.places, board.legs, board.shores)  # nothing known yet
    provinces = sorted(board.shores)
    pairs = random.Random(26).sample([(a, b) for a in provinces for b in provinces], 120)
    for origin, target in pairs:
        for place in sorted(convoys.places):
            assert convoys.on_route(origin, target, place) == _by_flow(
                convoys, origin, target, place
            ), (origin, target, place)
