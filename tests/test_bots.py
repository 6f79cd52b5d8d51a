"""The bot's play on positions made for it (the classic map, mostly), its budget, and its
orders' legality in short games of every variant."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from hegemon.bots import Bot, Budget, sight_of
from hegemon.bots.heuristics import Outlook, backs, convoys, unit_forms
from hegemon.game import Variant, chances_for, play_phase, settle
from hegemon.orders import Build, Convoy, Disband, Hold, Move, Order, Support
from hegemon.position import Phase, PhaseKind, Position, Season
from hegemon.variants import load_variant
from tests.conftest import units

# Playouts enough for the search to see what each position below asks of it, counted
# rather than timed: the same orders on any machine.
SEARCHING = Budget(seconds=60.0, playouts=400)
HOMES = {"par": "France", "bre": "France", "mar": "France"}


def _position(
    season: Season,
    spec: Mapping[str, Sequence[str]],
    centers: Mapping[str, str],
    kind: PhaseKind = PhaseKind.MOVEMENT,
) -> Position:
    return Position.create(Phase(1902, season, kind), units(spec), centers)


def _orders(variant: Variant, position: Position, power: str, seed: int = 1) -> list[Order]:
    return Bot(SEARCHING, seed=seed).orders(sight_of(variant, position, power))


def _order(variant: Variant, text: str) -> Order:
    return variant.parse_order(text)


def _moves(orders: Sequence[Order]) -> dict[str, str]:
    return {o.province: o.destination for o in orders if isinstance(o, Move)}


def test_takes_undefended_centers(classic: Variant) -> None:
    fall = _position(
        Season.FALL,
        {"France": ["A bur", "F mid"], "Russia": ["A mos"]},
        {**HOMES, "spa": "France", "mun": "France", "mos": "Russia"},
    )
    assert _moves(_orders(classic, fall, "France")) == {"bur": "bel", "mid": "por"}


def test_supports_a_move_into_a_contested_center_and_wins_it(classic: Variant) -> None:
    fall = _position(
        Season.FALL,
        {"France": ["A bur", "A pic"], "England": ["A bel", "F lon"]},
        {**HOMES, "mun": "France", "bel": "England", "lon": "England"},
    )
    orders = _orders(classic, fall, "France")
    supports = [o for o in orders if isinstance(o, Support) and o.destination == "bel"]
    assert len(supports) == 1
    assert _moves(orders) == {province_of_supported(supports[0]): "bel"}
    holding = [Hold(u.type, u.location) for u in fall.units_of("England")]
    played = play_phase(classic, fall, {"France": orders, "England": holding})
    assert played.after.units["bel"].power == "France"


def province_of_supported(support: Support) -> str:
    return support.supported.split("/")[0]


def test_covers_a_home_center_a_neighbour_could_take(classic: Variant) -> None:
    fall = _position(
        Season.FALL,
        {"France": ["A gas"], "England": ["F eng"]},
        {**HOMES, "spa": "France", "lon": "England", "bel": "England"},
    )
    assert _moves(_orders(classic, fall, "France")) == {"gas": "bre"}


def test_keeps_a_threatened_home_center_held(classic: Variant) -> None:
    fall = _position(
        Season.FALL,
        {"France": ["F bre", "A par"], "England": ["F eng"]},
        {**HOMES, "spa": "France", "por": "France", "lon": "England"},
    )
    orders = _orders(classic, fall, "France")
    for english in ("F eng - bre", "F eng H", "F eng - pic"):
        played = play_phase(
            classic, fall, {"France": orders, "England": [_order(classic, english)]}
        )
        assert played.after.centers["bre"] == "France", english


def _french_builds() -> Position:
    """A winter where France builds three units, one on each of its home centers."""
    return _position(
        Season.WINTER,
        {"France": ["A bel", "A spa"], "Germany": ["A mun"]},
        {**HOMES, "bel": "France", "spa": "France", "mun": "Germany"},
        PhaseKind.ADJUSTMENT,
    )


def test_builds_the_builds_due(classic: Variant) -> None:
    winter = _french_builds()
    orders = _orders(classic, winter, "France")
    built = [o for o in orders if isinstance(o, Build)]
    assert len(built) == 3
    assert {o.province for o in built} == {"par", "bre", "mar"}


def test_disbands_the_disbands_due_least_useful_first(classic: Variant) -> None:
    winter = _position(
        Season.WINTER,
        {"France": ["A bel", "A hol", "A gas", "A pic"], "Germany": ["A mun", "A kie"]},
        {"par": "France", "bre": "France", "mun": "Germany", "bel": "Germany", "hol": "Germany"},
        PhaseKind.ADJUSTMENT,
    )
    disbanded = [o for o in _orders(classic, winter, "France") if isinstance(o, Disband)]
    assert {o.province for o in disbanded} == {"gas", "pic"}  # not those on centers to take


def test_playout_cap_is_respected_and_a_seed_replays_the_same_orders(classic: Variant) -> None:
    position = classic.initial_position()
    sight = sight_of(classic, position, "Austria")
    capped = Budget(seconds=60.0, playouts=30)
    bot = Bot(capped, seed=7)
    orders = bot.orders(sight)
    assert 0 < bot.played <= 30
    assert Bot(capped, seed=7).orders(sight) == orders
    wider = Bot(Budget(seconds=60.0, playouts=300), seed=7)
    wider.orders(sight)
    assert wider.played > 30  # the cap, not the search's end, stopped the first


def test_a_spent_time_budget_plays_nothing_where_units_move(classic: Variant) -> None:
    position = classic.initial_position()
    bot = Bot(Budget(seconds=0.0), seed=1)
    orders = bot.orders(sight_of(classic, position, "Austria"))
    assert bot.played == 0  # no floor: the heuristics' plan stands as it is
    procedure = classic.calendar.procedure(position.phase)
    assert len(orders) == 3 and not procedure.check(classic, position, "Austria", orders)


def test_a_spent_time_budget_still_judges_builds(classic: Variant) -> None:
    winter = _french_builds()
    bot = Bot(Budget(seconds=0.0), seed=1)
    built = [o for o in bot.orders(sight_of(classic, winter, "France")) if isinstance(o, Build)]
    assert bot.played > 0 and len(built) == 3


def test_an_idle_fleet_carries_an_army_off_an_island(classic: Variant) -> None:
    ours = ("lon", "edi", "lvp", "nwy", "swe", "den", "kie", "hol", "bel")
    spring = _position(
        Season.SPRING,
        {"England": ["A lon", "F nth"], "Russia": ["A mos"]},
        {**dict.fromkeys(ours, "England"), "mos": "Russia"},
    )
    orders = Bot(Budget(playouts=0), seed=1).orders(sight_of(classic, spring, "England"))
    assert _moves(orders).get("lon") in {"nwy", "hol", "bel", "den"}  # across the sea
    assert any(isinstance(o, Convoy) and o.province == "nth" for o in orders)


def test_a_unit_far_from_every_center_moves_rather_than_support_nothing(classic: Variant) -> None:
    # every move of A lvp is worth less than a support, which alone backs nothing
    spring = _position(
        Season.SPRING,
        {"England": ["A lvp", "F lon", "F edi"], "Russia": ["A mos"]},
        {"lon": "England", "edi": "England", "lvp": "England", "mos": "Russia"},
    )
    orders = Bot(Budget(playouts=0), seed=1).orders(sight_of(classic, spring, "England"))
    assert "lvp" in _moves(orders)
    assert all(backs(o, orders) for o in orders if isinstance(o, Support))


def test_a_convoy_is_paired_only_with_a_fleet_that_carries_it_alone(classic: Variant) -> None:
    # F iri may convoy A edi - bel along with F nth, but touches neither shore itself
    spring = _position(
        Season.SPRING,
        {"England": ["A edi", "F nth", "F iri"], "Russia": ["A mos"]},
        {"lon": "England", "edi": "England", "lvp": "England", "mos": "Russia"},
    )
    forms = unit_forms(sight_of(classic, spring, "England").menu)
    pairs = convoys(Outlook.of(classic, spring, "England"), forms)
    fleets = {forms[m].unit for _, (m, j) in pairs}
    assert ("edi", "bel") in {_moves([forms[n].choices[i].order]).popitem() for (n, i), _ in pairs}
    assert fleets == {"nth"}


def test_units_make_room_on_the_home_centers_a_build_is_owed_on(classic: Variant) -> None:
    # 5 centers, 2 units: England is owed builds, which only an empty home center takes
    ours = ("lon", "edi", "lvp", "nwy", "swe")
    fall = _position(
        Season.FALL,
        {"England": ["A lon", "A edi"], "France": ["F eng"], "Russia": ["A mos"]},
        {**dict.fromkeys(ours, "England"), "bre": "France", "mos": "Russia"},
    )
    orders = Bot(Budget(playouts=0), seed=1).orders(sight_of(classic, fall, "England"))
    assert set(_moves(orders)) == {"lon", "edi"}  # even London, which F eng could enter


def test_no_more_fleets_built_where_few_coasts_are_left_to_take(classic: Variant) -> None:
    seas = ("nth", "nrg", "bar", "iri", "eng", "mid", "hel", "ska", "bal", "bot", "wes")
    homes = ("lon", "edi", "lvp")
    ours = (*homes, "nwy", "swe", "den", "hol", "bel", "kie", "ber", "bre", "spa", "por", "stp")
    # 14 centers, and 13 fleets for the 13 coasts left: more than enough
    winter = _position(
        Season.WINTER,
        {"England": [f"F {sea}" for sea in (*seas, "gol", "tys")]},
        dict.fromkeys(ours, "England"),
        PhaseKind.ADJUSTMENT,
    )
    built = [o for o in _orders(classic, winter, "England") if isinstance(o, Build)]
    assert len(built) == 1 and built[0].unit.by_land  # an army: only armies reach inland


@pytest.mark.parametrize(
    ("variant_id", "options", "phases"),
    [
        ("classic", {}, 12),
        ("sub_saharan", {}, 5),
        ("europe_1615", {}, 8),
        ("africa_ii", {}, 8),
        ("african_diplomacy_ii", {"placement": "lists"}, 8),
        ("african_riots", {}, 6),
    ],
)
def test_bots_give_only_legal_orders(
    variant_id: str, options: dict[str, object], phases: int
) -> None:
    variant = load_variant(variant_id).configure(options)
    rng = random.Random(3)
    bots = {p: Bot(Budget(playouts=6), seed=i) for i, p in enumerate(variant.powers)}
    position = variant.initial_position()
    kinds = set()
    for _ in range(phases):
        procedure = variant.calendar.procedure(position.phase)
        orders = {}
        for power in procedure.actors(variant, position):
            orders[power] = bots[power].orders(sight_of(variant, position, power))
            assert procedure.check(variant, position, power, orders[power]) == []
        kinds.add(position.phase.kind.name)
        result = play_phase(
            variant, position, orders, settle(chances_for(variant, position), None, rng)
        )
        if result.end:
            break
        position = result.after
    assert "Movement" in kinds


def test_the_example_in_the_docs_runs() -> None:
    guide = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
    blocks = re.findall(r"^```python\n(.*?)^```", guide.read_text("utf-8"), re.M | re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(guide), "exec", dont_inherit=True), {})
