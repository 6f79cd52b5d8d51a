"""The core's extension points, exercised by a variant of the tests' own that touches no
core module (tests/variants/outposts): an opening of two phase kinds of its own, one
played by chance and one by the players in turn, orders of its own, a unit kind that needs
no supply center, a draw of chance, and a secret per power."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from hegemon import jsonio
from hegemon.game import ChanceError, Game, SetupError, order_problems, play_phase
from hegemon.position import MASTER, OBSERVER, Phase, PhaseKind, Season, Viewer
from hegemon.randomplay import random_game
from hegemon.report import phase_report, position_report
from hegemon.variants import load_variant_from
from tests.variants.outposts import ORDER_OF_PLAY, Objective, Outposts, OutpostsState, Place
from tests.wire import at

FOLDER = Path(__file__).parent / "variants" / "outposts"


@pytest.fixture(scope="module")
def outposts() -> Outposts:
    variant = load_variant_from(FOLDER)
    assert isinstance(variant, Outposts)
    return variant


def _loader(outposts: Outposts) -> jsonio.VariantLoader:
    return lambda name: outposts


def _placed_game(outposts: Outposts) -> Game:
    """Three players, lots drawn by the game master's own roll, every scout placed."""
    game = Game.new(outposts, seed=1)
    game.adjudicate({ORDER_OF_PLAY: ("South", "North", "East")})
    for power, site, objective in PLACEMENTS:
        game.set_orders(power, [Place(site), Objective(objective)])
        game.adjudicate()
    return game


PLACEMENTS = (("South", "for", "mid"), ("North", "hil", "cov"), ("East", "mar", "sth"))


def test_the_opening_draws_lots_then_places_one_player_at_a_time(outposts: Outposts) -> None:
    game = Game.new(outposts, seed=1)
    assert str(game.position.phase) == "Winter 2000 Lots"
    assert game.actors() == ()  # chance acts, not the players
    lots = game.adjudicate({ORDER_OF_PLAY: ("South", "North", "East")})
    assert lots.draws == {ORDER_OF_PLAY: ("South", "North", "East")}
    assert str(game.position.phase) == "Winter 2000 Placement"
    assert game.actors() == ("South",)
    refused = order_problems(outposts, game.position, "North", [Place("hil")])
    assert refused == ["it is not North's turn in Winter 2000 Placement (South acts now)"]
    assert order_problems(outposts, game.position, "South", [Place("mid")]) == [
        "Place S Mid: Midland is not land without a supply center"
    ]
    game.set_orders("South", [Place("for")])
    game.adjudicate()
    assert game.position.units["for"].type.name == "scout"
    assert game.actors() == ("North",)
    assert order_problems(outposts, game.position, "North", [Place("for")]) == [
        "Place S For: Forest is occupied"
    ]


def test_after_the_placements_the_first_year_begins(outposts: Outposts) -> None:
    game = _placed_game(outposts)
    assert str(game.position.phase) == "Spring 2001 Movement"
    scouts = sorted(p for p, u in game.position.units.items() if u.type.letter == "S")
    assert scouts == ["for", "hil", "mar"]


def test_orders_of_its_own_are_read_and_written(outposts: Outposts) -> None:
    assert outposts.parse_order("place scout Hills") == Place("hil")
    assert outposts.parse_order("Objective Midland") == Objective("mid")
    assert Place("hil").format() == "Place S Hil"
    assert outposts.parse_order("S hil - mar").format() == "S Hil - Mar"  # the scout's letter


def test_a_scout_needs_no_supply_center(outposts: Outposts) -> None:
    # North has lost Northport: its army, standing in Midland, is one unit too many; its
    # scout in the Hills is not counted, and civil disorder disbands the army alone.
    game = _placed_game(outposts)
    army = game.position.units["nor"]
    units = {p: u for p, u in game.position.units.items() if p != "nor"}
    units["mid"] = army.moved_to("mid")
    winter = game.position.evolve(
        phase=Phase(2001, Season.WINTER, PhaseKind.ADJUSTMENT),
        units=units,
        centers={**game.position.centers, "nor": "East"},
    )
    result = play_phase(outposts, winter, {})
    assert result.after.units["hil"].type.letter == "S"  # the scout stays
    assert "mid" not in result.after.units  # the army goes
    assert [o.note for o in result.outcomes] == ["Civil disorder: disbanded"]


def test_seats_are_chosen_per_game(outposts: Outposts) -> None:
    two = outposts.configure(seats=["north", "East"])
    assert list(two.powers) == ["North", "East"]
    start = two.initial_position()
    assert "sth" not in start.units and "sth" not in start.centers  # South is not playing
    with pytest.raises(SetupError, match="seats 2 to 3 players, not 1"):
        outposts.configure(seats=["North"])
    game = Game.new(two, seed=3)
    drawn = game.adjudicate().draws[ORDER_OF_PLAY]
    assert isinstance(drawn, tuple) and sorted(drawn) == ["East", "North"]


def test_a_draw_that_is_not_possible_is_refused(outposts: Outposts) -> None:
    game = Game.new(outposts, seed=1)
    with pytest.raises(ChanceError, match="expected an order of North, South, East"):
        game.adjudicate({ORDER_OF_PLAY: ("South", "South", "East")})
    assert not game.history  # nothing happened


def test_a_draw_the_phase_does_not_ask_for_is_named_on_one_line(outposts: Outposts) -> None:
    # A saved game's draws may be named anything: the refusal quotes the name.
    game = Game.new(outposts, seed=1)
    with pytest.raises(ChanceError) as refused:
        game.adjudicate({ORDER_OF_PLAY: ("South", "North", "East"), "weather\n": 3})
    assert str(refused.value) == "'weather\\n': this phase asks for no such draw"


def test_the_draws_come_from_the_seed_and_are_kept(outposts: Outposts) -> None:
    first = Game.new(outposts, seed=42).adjudicate().draws
    again = Game.new(outposts, seed=42).adjudicate().draws
    assert first == again


def test_adjudicate_json_answers_with_the_draws_the_phase_used(outposts: Outposts) -> None:
    drawn = ["East", "South", "North"]
    request = {
        "variant": "outposts",
        "position": jsonio.position_to_json(outposts.initial_position(), MASTER),
        "draws": {ORDER_OF_PLAY: drawn},
    }
    answer = jsonio.adjudicate_request(request, _loader(outposts), "observer")
    assert at(answer, "draws") == {ORDER_OF_PLAY: drawn}
    assert at(answer, "position", "state", "order") == drawn


def test_a_saved_game_replays_to_identical_positions(outposts: Outposts) -> None:
    game = Game.new(outposts, seed=5)
    for result in random_game(outposts, random.Random(5), 40):
        game.history.append(result)
    text = json.dumps(jsonio.game_to_json(game))
    loaded = jsonio.game_from_json(json.loads(text), _loader(outposts))
    assert [jsonio.position_to_json(r.after, MASTER) for r in loaded.history] == [
        jsonio.position_to_json(r.after, MASTER) for r in game.history
    ]
    assert [r.draws for r in loaded.history] == [r.draws for r in game.history]
    assert game.history[-1].end  # the random game ran to its end


VIEWERS = [MASTER, OBSERVER, Viewer(power="North"), Viewer(power="South"), Viewer(power="East")]


@pytest.mark.parametrize("viewer", VIEWERS, ids=str)
def test_each_viewer_sees_only_its_own_objective(outposts: Outposts, viewer: Viewer) -> None:
    game = _placed_game(outposts)
    state = OutpostsState.of(game.position)
    assert state.objectives == {"South": "mid", "North": "cov", "East": "sth"}
    seen = at(jsonio.position_to_json(game.position, viewer), "state", "objectives")
    assert seen == {p: c for p, c in state.objectives.items() if viewer.sees(p)}
    for result, (power, _, center) in zip(game.history[1:], PLACEMENTS, strict=True):
        secret = Objective(center).format()
        assert (secret in json.dumps(jsonio.phase_result_to_json(result, viewer))) == (
            viewer.sees(power)
        )
        assert (secret in phase_report(outposts, result, viewer)) == viewer.sees(power)
        assert Place("for").format() in phase_report(outposts, game.history[1], viewer)


def test_the_board_as_text_says_who_places_now(outposts: Outposts) -> None:
    game = _placed_game(outposts)
    assert "Order of play: South, North, East; North places a scout now" in position_report(
        outposts, game.history[1].after, OBSERVER
    )


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("abc", "expected a whole number from 2001 to 2100, not 'abc'"),
        (True, "expected a whole number from 2001 to 2100, not True"),
        (1999, "expected a whole number from 2001 to 2100, not 1999"),
        (2001.5, "expected a whole number from 2001 to 2100, not 2001.5"),
    ],
)
def test_an_option_takes_only_the_values_it_declares(
    outposts: Outposts, value: object, problem: str
) -> None:
    with pytest.raises(SetupError, match=f"option last_year: {re.escape(problem)}"):
        outposts.configure({"last_year": value})
    assert outposts.configure({"last_year": 2003}).options["last_year"] == 2003
    with pytest.raises(SetupError, match="outposts has no option 'year_cap'"):
        outposts.configure({"year_cap": 3})
