"""A rule like Africa II's in one folder and no core file (tests/variants/leapers): a
scout that boards its power's army, and an order kind of its own, the leap, that the
resolver asks for its decision, its effect and its explanation. Played through the real
game machine, phase by phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.game import Game
from hegemon.position import unit_text
from hegemon.variants import load_variant_from
from tests.variants.leapers import Leap, Leapers

FOLDER = Path(__file__).parent / "variants" / "leapers"


@pytest.fixture(scope="module")
def leapers() -> Leapers:
    variant = load_variant_from(FOLDER)
    assert isinstance(variant, Leapers)
    return variant


def _play(game: Game, orders: Mapping[str, Sequence[str]]) -> dict[str, Outcome]:
    """One phase with these orders, written as players write them; each order's outcome,
    by the order as written."""
    units = game.position.units
    for power, texts in orders.items():
        game.set_orders(power, [game.variant.parse_order(text, units) for text in texts])
    result = game.adjudicate()
    return {outcome.order.format(): outcome for outcome in result.outcomes}


def _units(game: Game) -> dict[str, str]:
    return {p: unit_text(u) for p, u in game.position.units.items()}


def test_the_leap_reads_and_checks_itself(leapers: Leapers) -> None:
    game = Game.new(leapers)
    leap = leapers.parse_order("Leap A nor - eas", game.position.units)
    assert leap == Leap(leapers.board.kinds["A"], "nor", "eas")
    assert leap.format() == "Leap A Nor - Eas"
    outcomes = _play(game, {"North": ["Leap A nor - hil"]})
    assert outcomes["Leap A Nor - Hil"].verdict is Verdict.VOID
    assert outcomes["Leap A Nor - Hil"].note == (
        "Void: Hills is not two provinces away from Northport; holds"
    )


def test_a_scout_boards_its_army_and_leaps_with_it_into_a_province_left_empty(
    leapers: Leapers,
) -> None:
    game = Game.new(leapers)
    boarded = _play(game, {"North": ["S hil - A nor"]})
    assert boarded["S Hil - A Nor"].verdict is Verdict.SUCCEEDS
    assert _units(game)["nor"] == "A nor [S]"
    assert "hil" not in game.position.units
    _play(game, {})  # the Fall, nobody moving
    assert str(game.position.phase).startswith("Spring 2002")
    outcomes = _play(game, {"North": ["Leap A nor - eas"], "East": ["A eas - mar"]})
    assert outcomes["Leap A Nor - Eas"].verdict is Verdict.SUCCEEDS
    assert outcomes["A Eas - Mar"].verdict is Verdict.SUCCEEDS
    assert _units(game) == {"eas": "A eas [S]", "mar": "A mar", "sth": "F sth"}
    landed = _play(game, {"North": ["S eas - hil"]})
    assert landed["S Eas - Hil"].verdict is Verdict.SUCCEEDS
    assert _units(game)["hil"] == "S hil"
    assert _units(game)["eas"] == "A eas"


def test_a_leap_fails_where_a_unit_stays(leapers: Leapers) -> None:
    game = Game.new(leapers)
    outcomes = _play(game, {"North": ["Leap A nor - eas"], "East": ["A eas H"]})
    leap = outcomes["Leap A Nor - Eas"]
    assert (leap.verdict, leap.note, leap.decided_by) == (
        Verdict.FAILS,
        "Fails: A Eas ends the phase in Eas",
        ("A Eas",),
    )
    assert _units(game)["nor"] == "A nor"


def test_a_leap_competes_for_nothing_a_move_into_its_target_wins(leapers: Leapers) -> None:
    game = Game.new(leapers)
    outcomes = _play(game, {"North": ["Leap A nor - mar"], "East": ["A eas - mar"]})
    assert outcomes["A Eas - Mar"].verdict is Verdict.SUCCEEDS  # not stood off by the leap
    assert outcomes["Leap A Nor - Mar"].note == "Fails: A Eas ends the phase in Mar"
    assert _units(game) == {"nor": "A nor", "hil": "S hil", "mar": "A mar", "sth": "F sth"}


def test_a_move_into_the_province_a_leap_left_succeeds(leapers: Leapers) -> None:
    game = Game.new(leapers)
    outcomes = _play(game, {"North": ["Leap A nor - for"], "East": ["A eas - mid"]})
    assert outcomes["Leap A Nor - For"].verdict is Verdict.SUCCEEDS
    _play(game, {"East": ["A mid - nor"], "North": ["A for H"]})
    assert _units(game)["nor"] == "A nor"
    assert game.position.units["nor"].power == "East"
    assert game.position.units["for"].power == "North"
