"""The phase machine, center ownership, victory, and saving and replaying games."""

from __future__ import annotations

import json
import random

import pytest

from hegemon import jsonio
from hegemon.board import Board
from hegemon.game import Game, GameOver, Variant, play_phase
from hegemon.notation import parse_order
from hegemon.position import Phase, PhaseKind, Position, Season
from hegemon.randomplay import random_game
from hegemon.variants import load_variant
from tests.conftest import units


def _give(game: Game, spec: dict[str, list[str]]) -> None:
    for power, texts in spec.items():
        game.set_orders(power, [parse_order(t, game.variant.board) for t in texts])


def test_a_quiet_year_skips_retreats_and_adjustments(classic: Variant) -> None:
    game = Game.new(classic)
    game.adjudicate()
    assert game.position.phase == Phase(1901, Season.FALL, PhaseKind.MOVEMENT)
    game.adjudicate()
    assert game.position.phase == Phase(1902, Season.SPRING, PhaseKind.MOVEMENT)


def test_centers_change_hands_only_after_fall(classic: Variant) -> None:
    game = Game.new(classic)
    _give(game, {"France": ["A par - bur", "A mar - spa"]})
    game.adjudicate()
    assert "spa" not in game.position.centers  # Spring: Spain still neutral
    game.adjudicate()
    assert game.position.centers["spa"] == "France"
    assert game.position.phase == Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT)


def test_a_dislodgement_opens_a_retreat_phase_and_no_order_disbands(classic: Variant) -> None:
    game = Game.new(classic)
    _give(game, {"Germany": ["A mun - bur"]})
    game.adjudicate()
    _give(game, {"France": ["A par - bur", "A mar S A par - bur"]})
    result = game.adjudicate()
    assert [d.unit.location for d in result.after.dislodged.values()] == ["bur"]
    assert result.after.phase == Phase(1901, Season.FALL, PhaseKind.RETREAT)
    retreat = game.adjudicate()  # Germany gives no retreat order
    assert "Germany" in {o.power for o in retreat.outcomes}
    assert not game.position.dislodged
    assert game.position.units["bur"].power == "France"


def test_a_unit_with_no_retreat_is_destroyed_at_once(board: Board, classic: Variant) -> None:
    start = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.MOVEMENT),
        units({"Germany": ["A kie", "A ber", "A mun"], "Russia": ["A pru", "A sil"]}),
    )
    orders = {
        "Russia": [parse_order(t, board) for t in ["A pru - ber", "A sil S A pru - ber"]],
    }
    result = play_phase(classic, start, {**orders, "Germany": []})
    assert [str(u) for u in result.destroyed] == ["A ber"]
    assert result.after.phase.kind is PhaseKind.MOVEMENT


def test_civil_disorder_disbands_when_orders_are_missing(classic: Variant) -> None:
    winter = Position.create(
        Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT),
        units({"Russia": ["A mos", "A lvn", "A swe"]}),
        {"mos": "Russia", "stp": "Russia"},
    )
    result = play_phase(classic, winter, {})
    assert sorted(result.after.units) == ["lvn", "mos"]  # Sweden is farthest from home
    assert result.outcomes[0].note == "Civil disorder: disbanded"


def test_eighteen_centers_win(classic: Variant) -> None:
    centers = sorted(classic.board.centers)
    owners = {c: "France" for c in centers[:18]} | {c: "England" for c in centers[18:]}
    fall = Position.create(Phase(1905, Season.FALL, PhaseKind.MOVEMENT), {}, owners)
    result = play_phase(classic, fall, {})
    assert result.winners == ("France",)
    game = Game(classic, fall, [result])
    with pytest.raises(GameOver):
        game.adjudicate()


def test_seventeen_centers_do_not_win(classic: Variant) -> None:
    centers = sorted(classic.board.centers)
    owners = {c: "France" for c in centers[:17]}
    fall = Position.create(Phase(1905, Season.FALL, PhaseKind.MOVEMENT), {}, owners)
    assert play_phase(classic, fall, {}).winners == ()


def test_history_is_made_of_untouched_snapshots(classic: Variant) -> None:
    game = Game.new(classic)
    start = game.position
    _give(game, {"France": ["A par - bur"]})
    game.adjudicate()
    assert "par" in start.units and "bur" not in start.units
    with pytest.raises(TypeError):
        start.units["bur"] = start.units["par"]  # type: ignore[index]


def test_save_and_load_replays_to_the_same_position(classic: Variant) -> None:
    game = Game.new(classic)
    _give(game, {"France": ["A par - bur", "F bre - mid"], "Germany": ["A mun - ruh"]})
    game.adjudicate()
    _give(game, {"France": ["F mid - spa/nc", "A mar - pie"]})
    game.adjudicate()
    _give(game, {"England": ["F lon - nth"]})
    text = json.dumps(jsonio.game_to_json(game))
    loaded = jsonio.game_from_json(json.loads(text))
    assert jsonio.position_digest(loaded.position) == jsonio.position_digest(game.position)
    assert loaded.pending == game.pending
    assert len(loaded.history) == len(game.history)


def test_a_tampered_save_is_detected(classic: Variant) -> None:
    game = Game.new(classic)
    _give(game, {"France": ["A par - bur"]})
    game.adjudicate()
    data = jsonio.game_to_json(game)
    data["phases"][0]["orders"] = {"France": ["A par - pic"]}
    with pytest.raises(jsonio.WireError, match="replay gives a different position"):
        jsonio.game_from_json(data)


@pytest.mark.parametrize("name", ["classic", "sub_saharan", "europe_1615"])
def test_random_games_save_and_replay_exactly(name: str) -> None:
    # Every variant's state travels in the position, so a saved game replays to the same
    # positions, digest for digest (the digests are checked phase by phase on load).
    variant = load_variant(name)
    game = Game.new(variant)
    for result in random_game(variant, random.Random(7), 24):
        game.history.append(result)
    loaded = jsonio.game_from_json(json.loads(json.dumps(jsonio.game_to_json(game))))
    assert jsonio.position_digest(loaded.position) == jsonio.position_digest(game.position)
    assert [r.before.phase for r in loaded.history] == [r.before.phase for r in game.history]
