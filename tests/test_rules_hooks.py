"""The rules object's hooks change adjudication without the resolver knowing the variant.

Each test plays the standard map with a small Rules subclass standing for what a variant
needs: stationary units (Sub-Saharan 6.0), units a power may not dislodge (Europe 1615's
aligned units, and a secret patron's, whose report must not tell), provinces nobody may
enter (neutral states), units that disband instead of retreating (minor powers), units
that cannot be supported, moves that go by convoy only when asked, and other build sites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.adjudication.adjustment import adjudicate_adjustments
from hegemon.adjudication.movement import MovementResult, adjudicate_movement
from hegemon.board import ARMY, Board
from hegemon.orders import Build, Move
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
from hegemon.rules import Rules
from tests.conftest import orders, spring, units


class MinorsAreStationary(Rules):
    def is_stationary(self, unit: Unit) -> bool:
        return unit.power == "Minor"

    def retreats(self, unit: Unit) -> bool:
        return unit.power != "Minor"


def _play(
    board: Board,
    rules: Rules,
    position: Mapping[str, Sequence[str]],
    given: Mapping[str, Sequence[str]],
) -> MovementResult:
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


def test_a_patron_that_may_not_dislodge_its_client_still_cuts_its_support(board: Board) -> None:
    # Sparing a unit from dislodgement (`may_dislodge`) does not spare its support from
    # being cut: France's attack on Piedmont fails, yet cuts Savoy's support.
    result = _play(
        board,
        PatronsSpareTheirClients(),
        {"Savoy": ["A pie"], "France": ["A mar"], "Italy": ["A ven"], "Austria": ["A tyr"]},
        {"Italy": ["A ven - tyr"], "Savoy": ["A pie S A ven - tyr"], "France": ["A mar - pie"]},
    )
    notes = _notes(result)
    assert notes["A Pie S A Ven - Tyr"] == "Cut by A Mar"
    assert notes["A Mar - Pie"] == "Bounced: may not dislodge A Pie"
    assert result.units["tyr"].power == "Austria"


def test_the_cutter_named_is_never_of_the_supporters_own_power(board: Board) -> None:
    # DATC 6.D.20: a power never cuts its own support, so the report names France's
    # attack, not Germany's own that came first.
    result = _play(
        board,
        Rules(),
        {"Germany": ["A mun", "A ruh", "A kie"], "France": ["A bur"]},
        {
            "Germany": ["A ruh - mun", "A mun S A kie - ber", "A kie - ber"],
            "France": ["A bur - mun"],
        },
    )
    assert _notes(result)["A Mun S A Kie - Ber"] == "Cut by A Bur"


class NeutralBurgundy(Rules):
    def may_enter(self, unit: Unit, province: str) -> bool:
        return province != "bur"

    def may_be_supported(self, unit: Unit) -> bool:
        return unit.province != "bur"


def test_nobody_may_enter_a_forbidden_province(board: Board) -> None:
    result = _play(board, NeutralBurgundy(), {"France": ["A par"]}, {"France": ["A par - bur"]})
    assert _notes(result)["A Par - Bur"] == "Void: armies may not enter Burgundy; holds"


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


class FleetsSupportNoArmies(Rules):
    def may_support(self, supporter: Unit, supported: Unit, into: str) -> bool:
        return supporter.type.by_land or not supported.type.by_land


def test_who_may_support_whom_comes_from_the_rules(board: Board) -> None:
    result = _play(
        board,
        FleetsSupportNoArmies(),
        {"France": ["A pic", "F eng"], "Germany": ["A bre"]},
        {"France": ["A pic - bre", "F eng S A pic - bre"]},
    )
    assert _notes(result)["F Eng S A Pic - Bre"] == (
        "Void: a fleet in English Channel may not support an army into Brest; holds"
    )
    assert result.units["bre"].power == "Germany"


class ConvoyOnlyWhenAsked(Rules):
    def goes_by_convoy(
        self, mover: Unit, move: Move, convoying: Sequence[Unit], route: bool
    ) -> bool:
        return move.via_convoy and route


def test_whether_a_move_goes_by_convoy_comes_from_the_rules(board: Board) -> None:
    # Standard (2000 rules, DATC 6.G.8): Germany's own fleet convoys the army, so the two
    # armies do not meet head to head and swap. With "only via convoy", they bounce.
    position = {"Germany": ["A hol", "F nth"], "France": ["A bel"]}
    given = {"Germany": ["A hol - bel", "F nth C A hol - bel"], "France": ["A bel - hol"]}
    swapped = _play(board, Rules(), position, given)
    assert swapped.units["bel"].power == "Germany" and swapped.units["hol"].power == "France"
    bounced = _play(board, ConvoyOnlyWhenAsked(), position, given)
    assert bounced.units["hol"].power == "Germany" and bounced.units["bel"].power == "France"


class MilitaryAid(Rules):
    def allowance(self, power: str, centers: int, position: Position) -> int:
        return centers + 1


def test_a_powers_unit_allowance_comes_from_the_rules(board: Board) -> None:
    winter = Position.create(
        Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT),
        units({"Russia": ["A mos", "A lvn", "A ukr"]}),
        {"mos": "Russia", "stp": "Russia"},
    )
    homes = {"Russia": frozenset({"mos", "sev", "stp", "war"})}
    assert len(adjudicate_adjustments(board, winter, {}, homes, Rules()).units) == 2
    assert len(adjudicate_adjustments(board, winter, {}, homes, MilitaryAid()).units) == 3


class DistanceToOwnedCenters(Rules):
    def disorder_sources(
        self, power: str, homes: frozenset[str], position: Position
    ) -> frozenset[str]:
        return frozenset(position.centers_of(power))


def test_where_civil_disorder_measures_from_comes_from_the_rules(board: Board) -> None:
    # Russia owns St Petersburg alone and must lose one of two armies. Measured to its
    # home centers both are one move away and Finland goes first by name; measured to
    # the centers it owns, Ukraine is the farther.
    winter = Position.create(
        Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT),
        units({"Russia": ["A fin", "A ukr"]}),
        {"stp": "Russia"},
    )
    homes = {"Russia": frozenset({"mos", "sev", "stp", "war"})}
    standard = adjudicate_adjustments(board, winter, {}, homes, Rules())
    owned = adjudicate_adjustments(board, winter, {}, homes, DistanceToOwnedCenters())
    assert [str(u) for u in standard.disbanded] == ["A fin"]
    assert [str(u) for u in owned.disbanded] == ["A ukr"]


class SecretPatron(PatronsSpareTheirClients):
    """France spares Savoy, and nobody may learn it from the report."""

    def shows_strengths(self, unit: Unit) -> bool:
        return unit.power != "Savoy"


def test_a_secret_patron_is_not_told_by_the_strengths_of_attacks_on_its_client(
    board: Board,
) -> None:
    # France's support does not count against Savoy; the report must not say why, nor
    # give the strengths, which would show a support counting for nothing.
    spared = {"Italy": ["A ven - pie"], "France": ["A mar S A ven - pie"]}
    position = {"Savoy": ["A pie"], "France": ["A mar"], "Italy": ["A ven", "A tyr"]}
    told = _notes(_play(board, PatronsSpareTheirClients(), position, spared))
    assert told["A Ven - Pie"] == "Bounced 1v1"
    secret = _play(board, SecretPatron(), position, spared)
    assert secret.units["pie"].power == "Savoy"  # the rule itself still holds
    assert _notes(secret)["A Ven - Pie"] == "Bounced"
    dislodged = _play(
        board, SecretPatron(), position, {**spared, "Italy": ["A ven - pie", "A tyr S A ven - pie"]}
    )
    assert _notes(dislodged)["A Pie H"] == "Dislodged by A Ven"
    attack = {"France": ["A mar - pie"]}
    assert _notes(_play(board, PatronsSpareTheirClients(), position, attack))["A Mar - Pie"] == (
        "Bounced: may not dislodge A Pie"
    )
    assert _notes(_play(board, SecretPatron(), position, attack))["A Mar - Pie"] == "Bounced"
