"""The rules object's hooks change adjudication without the resolver knowing the variant.

Each test plays the standard map with a small Rules subclass standing for what a variant
needs: stationary units (Sub-Saharan 6.0), units a power may not dislodge (Europe 1615's
aligned units), provinces nobody may enter (neutral states), units that disband instead of
retreating (minor powers), units that cannot be supported, and other build sites.
"""

from __future__ import annotations

from hegemon.adjudication.adjustment import adjudicate_adjustments
from hegemon.adjudication.movement import MovementResult, adjudicate_movement
from hegemon.board import ARMY, Board
from hegemon.orders import Build
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
from hegemon.rules import Rules
from tests.conftest import orders, spring


class MinorsAreStationary(Rules):
    def is_stationary(self, unit: Unit) -> bool:
        return unit.power == "Minor"

    def retreats(self, unit: Unit) -> bool:
        return unit.power != "Minor"


def _play(board: Board, rules: Rules, position: dict, given: dict) -> MovementResult:
    return adjudicate_movement(board, spring(position), orders(board, given), rules)


def _notes(result: MovementResult) -> dict[str, str]:
    return {o.text: o.note for o in result.outcomes}


def test_a_stationary_move_bounces_and_blocks_entry(board: Board) -> None:
    result = _play(
        board,
        MinorsAreStationary(),
        {"Minor": ["A bur"], "Germany": ["A ruh"]},
        {"Minor": ["A bur - bel"], "Germany": ["A ruh - bel"]},
    )
    notes = _notes(result)
    assert result.units["bur"].power == "Minor"
    assert notes["A Bur - Bel"] == "Bounced 1v1 (with Ruh)"
    assert notes["A Ruh - Bel"] == "Bounced 1v1 (with Bur)"  # kept out of empty Belgium
    assert "bel" in result.contested  # so no retreat there


def test_a_stationary_move_still_cuts_support(board: Board) -> None:
    result = _play(
        board,
        MinorsAreStationary(),
        {"Minor": ["A bur"], "Germany": ["A mun", "A kie"], "France": ["A ruh"]},
        {"Minor": ["A bur - mun"], "Germany": ["A mun S A kie - ruh", "A kie - ruh"]},
    )
    notes = _notes(result)
    assert notes["A Mun S A Kie - Ruh"] == "Cut by A Bur"
    assert notes["A Kie - Ruh"] == "Bounced 1v1"


def test_a_stationary_unit_never_dislodges(board: Board) -> None:
    result = _play(
        board,
        MinorsAreStationary(),
        {"Minor": ["A bur", "A gas"], "France": ["A par"]},
        {"Minor": ["A bur - par", "A gas S A bur - par"], "France": ["A par H"]},
    )
    assert result.units["par"].power == "France"
    assert _notes(result)["A Bur - Par"] == "Bounced (a stationary unit never moves)"


def test_a_unit_that_may_not_retreat_is_disbanded(board: Board) -> None:
    result = _play(
        board,
        MinorsAreStationary(),
        {"Minor": ["A bur"], "France": ["A par", "A pic"]},
        {"France": ["A par - bur", "A pic S A par - bur"]},
    )
    assert not result.dislodged
    assert result.disbanded == (Unit("Minor", ARMY, "bur"),)


class PatronsSpareTheirClients(Rules):
    def may_dislodge(self, power: str, unit: Unit) -> bool:
        return power != unit.power and not (power == "France" and unit.power == "Savoy")


def test_a_patron_may_neither_dislodge_nor_help_dislodge_its_client(board: Board) -> None:
    result = _play(
        board,
        PatronsSpareTheirClients(),
        {"Savoy": ["A pie"], "France": ["A mar"], "Italy": ["A ven"]},
        {"Italy": ["A ven - pie"], "France": ["A mar S A ven - pie"]},
    )
    assert result.units["pie"].power == "Savoy"
    assert _notes(result)["A Ven - Pie"] == "Bounced 1v1"


class NeutralBurgundy(Rules):
    def may_enter(self, unit: Unit, province: str) -> bool:
        return province != "bur"

    def may_be_supported(self, unit: Unit) -> bool:
        return unit.province != "bur"


def test_nobody_may_enter_a_forbidden_province(board: Board) -> None:
    result = _play(board, NeutralBurgundy(), {"France": ["A par"]}, {"France": ["A par - bur"]})
    assert _notes(result)["A Par - Bur"] == "Void: no unit may enter Burgundy"


def test_support_to_an_unsupportable_unit_has_no_effect(board: Board) -> None:
    result = _play(
        board,
        NeutralBurgundy(),
        {"Neutral": ["A bur"], "France": ["A mar"]},
        {"France": ["A mar S A bur"]},
    )
    assert _notes(result)["A Mar S A Bur H"] == "No effect: A Bur may not be supported"


class BuildAnywhereOwned(Rules):
    def build_sites(self, power: str, homes: frozenset[str], position: Position) -> frozenset[str]:
        return frozenset(c for c, owner in position.centers.items() if owner == power)


def test_build_sites_come_from_the_rules(board: Board) -> None:
    phase = Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT)
    position = Position.create(phase, {}, {"bel": "France"})
    build = {"France": [Build(ARMY, "bel")]}
    homes = {"France": frozenset({"par"})}
    standard = adjudicate_adjustments(board, position, build, homes, Rules())
    anywhere = adjudicate_adjustments(board, position, build, homes, BuildAnywhereOwned())
    assert "bel" not in standard.units
    assert anywhere.units["bel"].power == "France"
