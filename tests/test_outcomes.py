"""Every order's outcome carries its reason and the units that decided it."""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence

import pytest

from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board
from hegemon.rules import STANDARD
from tests.conftest import orders, spring


def _outcomes(
    board: Board,
    position_spec: Mapping[str, Sequence[str]],
    order_spec: Mapping[str, Sequence[str]],
) -> dict[str, Outcome]:
    result = adjudicate_movement(board, spring(position_spec), orders(board, order_spec), STANDARD)
    return {o.text: o for o in result.outcomes}


SPAIN_NC = "the fleet is in Spain (nc), not Spain (sc); "


@pytest.mark.parametrize(
    ("unit", "order", "reason"),
    [
        ("A lvp", "A lvp - iri", "armies cannot enter sea provinces"),
        ("F lvp", "F lvp - yor", "a fleet in Liverpool cannot reach Yorkshire"),
        ("F kie", "F kie - mun", "fleets cannot enter inland provinces such as Munich"),
        ("A par", "A par - par", "a unit cannot move to the province it is in"),
        ("F mid", "F mid - spa", "say which coast of Spain: spa/nc or spa/sc"),
        ("F gas", "F gas - spa/sc", "a fleet in Gascony cannot reach Spain (sc)"),
        ("F tri", "F tri S A vie", "a fleet in Trieste cannot reach Vienna"),
        ("A par", "A par - mos", "Paris does not border Moscow, and no convoy route joins them"),
        ("A lon", "A lon - bel", "no fleets stand between London and Belgium to convoy it"),
        ("A par", "F par H", "the unit in Paris is an army, not a fleet"),
        ("F lon", "F lon C A wal - bel", "a fleet in London cannot convoy"),
        # An order naming the other coast is read for the fleet where it is, and says so.
        (
            "F spa/nc",
            "F spa/sc - wes",
            f"{SPAIN_NC}a fleet in Spain (nc) cannot reach Western Mediterranean",
        ),
        (
            "F spa/nc",
            "F spa/sc S A vie - tyr",
            f"{SPAIN_NC}a fleet in Spain (nc) cannot reach Tyrolia",
        ),
    ],
)
def test_illegal_orders_are_void_with_a_reason(
    board: Board, unit: str, order: str, reason: str
) -> None:
    position = {"England": [unit, "A vie"] if "vie" in order else [unit]}
    outcome = _outcomes(board, position, {"England": [order]})
    first = next(iter(outcome.values()))
    assert first.verdict is Verdict.VOID
    assert first.note == f"Void: {reason}; holds"


def test_ordering_another_powers_unit_is_void(board: Board) -> None:
    outcome = _outcomes(board, {"England": ["F lon"]}, {"Germany": ["F lon - nth"]})
    assert outcome["F Lon - Nth"].note == "Void: the unit in London belongs to England"
    assert outcome["F Lon H"].note == "No order: holds"


def test_a_unit_whose_order_was_void_is_told_once(board: Board) -> None:
    # Its owner's void order carries what the unit did: it held, or held and was dislodged.
    result = adjudicate_movement(
        board,
        spring({"France": ["A par", "A bur"], "Germany": ["A mun", "A ruh"]}),
        orders(
            board,
            {
                "France": ["A par - mos", "A bur - lon"],
                "Germany": ["A mun - bur", "A ruh S A mun - bur"],
            },
        ),
        STANDARD,
    )
    told = [
        (o.text, o.verdict, o.note, o.dislodged_by) for o in result.outcomes if o.power == "France"
    ]
    assert told == [
        (
            "A Par - Mos",
            Verdict.VOID,
            "Void: Paris does not border Moscow, and no convoy route joins them; holds",
            None,
        ),
        (
            "A Bur - Lon",
            Verdict.VOID,
            "Void: Burgundy does not border London, and no convoy route joins them; "
            "Dislodged by A Mun (2v1)",
            "A Mun",
        ),
    ]


def test_bounce_names_strengths_and_the_unit_that_decided_it(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Germany": ["A mun", "A ruh"], "France": ["A bur", "A mar"]},
        {
            "Germany": ["A mun - bur", "A ruh S A mun - bur"],
            "France": ["A bur H", "A mar S A bur"],
        },
    )
    bounced = outcome["A Mun - Bur"]
    assert (bounced.verdict, bounced.note, bounced.decided_by) == (
        Verdict.FAILS,
        "Bounced 2v2",
        ("A Bur",),
    )


def test_bounce_against_a_rival_move_says_with_whom(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Germany": ["A mun"], "France": ["A par"]},
        {"Germany": ["A mun - bur"], "France": ["A par - bur"]},
    )
    assert outcome["A Mun - Bur"].note == "Bounced 1v1 (with Par)"
    assert outcome["A Mun - Bur"].decided_by == ("A Par",)


def test_cut_support_names_the_cutter(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Austria": ["A tyr"], "Germany": ["A mun", "A sil"], "Russia": ["A war"]},
        {
            "Austria": ["A tyr - mun"],
            "Germany": ["A mun S A sil - boh", "A sil - boh"],
            "Russia": ["A war H"],
        },
    )
    cut = outcome["A Mun S A Sil - Boh"]
    assert (cut.verdict, cut.note, cut.decided_by) == (Verdict.FAILS, "Cut by A Tyr", ("A Tyr",))


def test_dislodgement_names_the_dislodger_and_strengths(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Germany": ["A mun", "A ruh"], "France": ["A bur"]},
        {"Germany": ["A mun - bur", "A ruh S A mun - bur"], "France": ["A bur H"]},
    )
    hit = outcome["A Bur H"]
    assert (hit.verdict, hit.note, hit.dislodged_by) == (
        Verdict.FAILS,
        "Dislodged by A Mun (2v1)",
        "A Mun",
    )


def test_support_that_does_not_match_has_no_effect(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Austria": ["A bud", "A ser"]},
        {"Austria": ["A bud S A ser - rum", "A ser - bul"]},
    )
    assert outcome["A Bud S A Ser - Rum"].note == "No effect: A Ser moves to Bul, not Rum"


def test_a_later_order_replaces_an_earlier_one(board: Board) -> None:
    outcome = _outcomes(board, {"France": ["A par"]}, {"France": ["A par - bur", "A par - pic"]})
    assert outcome["A Par - Bur"].note == "Void: replaced by a later order"
    assert outcome["A Par - Pic"].note == "Succeeds"


def test_circular_movement_succeeds(board: Board) -> None:
    outcome = _outcomes(
        board,
        {"Turkey": ["F ank", "A con", "A smy"]},
        {"Turkey": ["F ank - con", "A con - smy", "A smy - ank"]},
    )
    assert all(o.succeeded for o in outcome.values())


def test_convoy_paradox_fails_the_convoyed_army_by_szykman(board: Board) -> None:
    # DATC 6.F.14 (simple convoy paradox): the convoyed army neither moves nor cuts support.
    outcome = _outcomes(
        board,
        {"England": ["F lon", "F wal"], "France": ["A bre", "F eng"]},
        {
            "England": ["F lon S F wal - eng", "F wal - eng"],
            "France": ["A bre - lon", "F eng C A bre - lon"],
        },
    )
    assert outcome["A Bre - Lon"].note == "Fails: convoy paradox (Szykman rule)"
    assert outcome["F Wal - Eng"].succeeded


@pytest.mark.parametrize("told", [True, False])
def test_a_phase_leaves_nothing_to_the_garbage_collector(board: Board, told: bool) -> None:
    """The resolver's records link each other both ways: a move and its defender, units
    supporting each other, a convoyed army and its fleet. They are unlinked once the
    outcomes are told, or as the result goes if they never are (a bot searching ahead), so
    that a phase goes with its result, not at the collector's next pass."""
    position = spring(
        {
            "England": ["F lon", "F nth", "A wal", "F eng"],
            "France": ["A pic", "F bel"],
            "Germany": ["A hol", "A ruh"],
        }
    )
    given = orders(
        board,
        {
            "England": ["F lon S F nth", "F nth S F lon", "A wal - pic", "F eng C A wal - pic"],
            "France": ["A pic - bel", "F bel - pic"],
            "Germany": ["A hol - bel", "A ruh S A hol - bel"],
        },
    )
    gc.collect()
    gc.disable()
    try:
        result = adjudicate_movement(board, position, given, STANDARD)
        assert result.dislodged["bel"].unit.power == "France"
        if told:
            assert any(o.note.endswith("Dislodged by A Hol (2v1)") for o in result.outcomes)
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()
