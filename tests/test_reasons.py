"""Every outcome carries a typed reason with its data, and the fate of its unit: what a
program reads instead of the note, which is worded from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from hegemon import jsonio
from hegemon.adjudication.adjustment import adjudicate_adjustments
from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.adjudication.retreat import adjudicate_retreats
from hegemon.board import ARMY, Board
from hegemon.orders import Hold
from hegemon.position import Dislodgement, Phase, PhaseKind, Position, Season, Unit
from hegemon.reasons import (
    BUILD_WAIVED,
    BUILT,
    CIVIL_DISORDER,
    CONVOY_PARADOX,
    DISBANDED,
    HELD,
    NO_CONVOY_ROUTE,
    REPLACED,
    STATIONARY,
    SUCCEEDED,
    UNORDERED,
    Bounced,
    Disbanded,
    Dislodged,
    Mismatch,
    Named,
    NoCarrier,
    Reason,
    VariantReason,
    Void,
    Why,
)
from hegemon.rules import STANDARD, Rules
from hegemon.variants.african_diplomacy_ii.opening import Drafted
from tests.conftest import orders, spring, units


class SecretStrengths(Rules):
    """The strengths of attacks on Savoy's units are not told (as Europe 1615 hides those
    on the Ottoman Empire's, whose patron is secret)."""

    def shows_strengths(self, unit: Unit) -> bool:
        return unit.power != "Savoy"


def _told(
    board: Board,
    position: Mapping[str, Sequence[str]],
    given: Mapping[str, Sequence[str]],
    rules: Rules = STANDARD,
) -> dict[str, Outcome]:
    result = adjudicate_movement(board, spring(position), orders(board, given), rules)
    return {o.text: o for o in result.outcomes}


def _why(outcome: Outcome) -> tuple[Verdict, Why, Why | None, str]:
    return outcome.verdict, outcome.reason, outcome.fate, outcome.note


def test_a_bounce_gives_both_strengths_and_the_defender(board: Board) -> None:
    told = _told(
        board,
        {"Germany": ["A mun", "A ruh"], "France": ["A bur", "A mar"]},
        {"Germany": ["A mun - bur", "A ruh S A mun - bur"], "France": ["A mar S A bur"]},
    )
    assert _why(told["A Mun - Bur"]) == (
        Verdict.FAILS,
        Bounced("A Bur", 2, 2),
        None,
        "Bounced 2v2",
    )
    assert _why(told["A Bur H"]) == (Verdict.SUCCEEDS, UNORDERED, None, "No order: holds")


def test_a_bounce_off_a_rival_names_its_province(board: Board) -> None:
    told = _told(
        board,
        {"Germany": ["A mun"], "France": ["A par"]},
        {"Germany": ["A mun - bur"], "France": ["A par - bur"]},
    )
    bounced = told["A Mun - Bur"].reason
    assert isinstance(bounced, Bounced)
    assert (bounced.unit, bounced.attack, bounced.resisted, bounced.rival) == ("A Par", 1, 1, "par")
    assert bounced != Bounced("A Par", 1, 1)  # the rival is part of the data


def test_a_cut_support_and_a_dislodged_holder_name_the_units(board: Board) -> None:
    told = _told(
        board,
        {"Austria": ["A tyr"], "Germany": ["A mun", "A sil"], "Russia": ["A war"]},
        {"Austria": ["A tyr - mun"], "Germany": ["A mun S A sil - boh", "A sil - boh"]},
    )
    assert told["A Mun S A Sil - Boh"].reason == Named(Reason.CUT, "A Tyr")
    told = _told(
        board,
        {"Germany": ["A mun", "A ruh"], "France": ["A bur"]},
        {"Germany": ["A mun - bur", "A ruh S A mun - bur"], "France": ["A bur H"]},
    )
    hit = told["A Bur H"]
    assert _why(hit) == (
        Verdict.FAILS,
        SUCCEEDED,  # the hold itself: what went wrong is the unit's fate
        Dislodged("A Mun", 2, 1),
        "Dislodged by A Mun (2v1)",
    )
    assert hit.fate != Dislodged("A Mun", 2, 2)
    assert hit.dislodged_by == "A Mun"


def test_a_void_order_gives_legalitys_problem_and_its_units_fate(board: Board) -> None:
    told = _told(
        board,
        {"France": ["A par", "A bur"], "Germany": ["A mun", "A ruh"]},
        {
            "France": ["A par - mos", "A bur - lon"],
            "Germany": ["A mun - bur", "A ruh S A mun - bur"],
        },
    )
    moscow = told["A Par - Mos"]
    assert _why(moscow) == (
        Verdict.VOID,
        Void("Paris does not border Moscow, and no convoy route joins them"),
        HELD,
        "Void: Paris does not border Moscow, and no convoy route joins them; holds",
    )
    assert moscow.problem == "Paris does not border Moscow, and no convoy route joins them"
    london = told["A Bur - Lon"]
    assert (london.verdict, london.fate) == (Verdict.VOID, Dislodged("A Mun", 2, 1))


def test_a_replaced_order_is_void_with_a_kind_of_its_own(board: Board) -> None:
    told = _told(board, {"France": ["A par"]}, {"France": ["A par - bur", "A par - pic"]})
    replaced = told["A Par - Bur"]
    assert (replaced.verdict, replaced.reason) == (Verdict.VOID, REPLACED)
    assert replaced.reason.reason is Reason.REPLACED
    assert replaced.note == "Void: replaced by a later order"


def test_a_support_or_convoy_that_matches_nothing_says_what_the_unit_did(board: Board) -> None:
    told = _told(
        board,
        {"Austria": ["A bud", "A ser", "A gal", "A vie"]},
        {"Austria": ["A bud S A ser - rum", "A ser - bul", "A gal S A vie", "A vie - boh"]},
    )
    assert told["A Bud S A Ser - Rum"].reason == Mismatch(
        Reason.SUPPORT_MISMATCH, "A Ser", "rum", "bul"
    )
    assert told["A Bud S A Ser - Rum"].note == "No effect: A Ser moves to Bul, not Rum"
    assert told["A Gal S A Vie H"].reason == Mismatch(Reason.SUPPORT_MISMATCH, "A Vie", None)
    assert told["A Gal S A Vie H"].note == "No effect: A Vie is not holding"
    told = _told(
        board,
        {"England": ["F nth", "A lon"]},
        {"England": ["F nth C A lon - bel", "A lon - yor"]},
    )
    convoy = told["F Nth C A Lon - Bel"]
    assert convoy.reason == Mismatch(Reason.CONVOY_MISMATCH, "A Lon", "bel")
    assert convoy.note == "No effect: A Lon does not go to Bel by sea"


def test_a_move_without_a_convoy_fails_for_want_of_a_route(board: Board) -> None:
    told = _told(board, {"England": ["F nth", "A lon"]}, {"England": ["A lon - bel"]})
    assert _why(told["A Lon - Bel"]) == (
        Verdict.FAILS,
        NO_CONVOY_ROUTE,
        None,
        "Fails: no convoy route",
    )


def test_hidden_strengths_are_not_in_the_data_either(board: Board) -> None:
    # The note says "Bounced" and "Dislodged by A Ven": the data holds no strengths.
    position = {"Savoy": ["A pie"], "Italy": ["A ven", "A tyr"]}
    bounced = _told(board, position, {"Italy": ["A ven - pie"]}, SecretStrengths())
    assert _why(bounced["A Ven - Pie"]) == (
        Verdict.FAILS,
        Bounced("A Pie", None, None),
        None,
        "Bounced",
    )
    given = {"Italy": ["A ven - pie", "A tyr S A ven - pie"]}
    hit = _told(board, position, given, SecretStrengths())["A Pie H"]
    assert (hit.reason, hit.fate, hit.note) == (
        UNORDERED,
        Dislodged("A Ven", None, None),
        "Dislodged by A Ven",
    )
    written = jsonio.outcome_to_json(hit)
    assert written["fate"] == {"kind": "dislodged", "by": "A Ven"}
    assert "2" not in str(written)


def test_retreats_that_bounce_name_the_rivals_and_disband(board: Board) -> None:
    position = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.RETREAT),
        units({"Germany": ["A bur"]}),
        dislodged={
            "bel": Dislodgement(Unit("France", ARMY, "bel"), "hol"),
            "par": Dislodgement(Unit("England", ARMY, "par"), "gas"),
        },
    )
    given = orders(board, {"France": ["A bel R pic"], "England": ["A par R pic"]})
    told = {o.text: o for o in adjudicate_retreats(board, position, given, STANDARD).outcomes}
    bounced = told["A Bel R Pic"]
    assert bounced.reason == Disbanded(Reason.RETREAT_BOUNCED, (), ("par",))
    assert (bounced.note, bounced.decided_by) == ("Bounced (with Par): disbanded", ("Par",))
    assert told["A Par R Pic"].reason == Disbanded(Reason.RETREAT_BOUNCED, (), ("bel",))
    given = orders(board, {"France": ["A bel R pic"]})
    told = {o.text: o for o in adjudicate_retreats(board, position, given, STANDARD).outcomes}
    assert told == {
        "A Bel R Pic": Outcome("France", told["A Bel R Pic"].order, Verdict.SUCCEEDS, SUCCEEDED),
        "A Par D": Outcome(
            "England", told["A Par D"].order, Verdict.SUCCEEDS, Disbanded(Reason.NO_RETREAT)
        ),
    }


def test_adjustments_give_their_reasons(board: Board) -> None:
    winter = Position.create(
        Phase(1901, Season.WINTER, PhaseKind.ADJUSTMENT),
        units({"France": ["A bur", "A pic", "A gas"]}),
        centers={"par": "France", "bre": "France", "mar": "France", "spa": "England"},
    )
    homes = {"France": frozenset({"par", "bre", "mar"}), "England": frozenset({"lon"})}
    given = orders(board, {"England": ["A lon B"]})
    told = adjudicate_adjustments(board, winter, given, homes, STANDARD).outcomes
    assert [(o.verdict, o.reason.reason) for o in told] == [(Verdict.VOID, Reason.VOID)]
    assert told[0].reason == Void("London is not a supply center where England may build")
    fewer = winter.evolve(centers={"par": "France"})
    told = adjudicate_adjustments(board, fewer, {}, homes, STANDARD).outcomes
    assert [o.reason for o in told] == [CIVIL_DISORDER, CIVIL_DISORDER]
    given = orders(board, {"France": ["A bur D"]})
    told = adjudicate_adjustments(board, fewer, given, homes, STANDARD).outcomes
    assert [o.reason for o in told] == [DISBANDED, CIVIL_DISORDER]
    more = winter.evolve(units=units({"France": ["A bur"]}))
    given = orders(board, {"France": ["A par B", "WAIVE"]})
    told = adjudicate_adjustments(board, more, given, homes, STANDARD).outcomes
    assert [o.reason for o in told] == [BUILT, BUILD_WAIVED]


@pytest.mark.parametrize(
    ("reason", "kind", "note"),
    [
        (SUCCEEDED, Reason.SUCCEEDS, "Succeeds"),
        (UNORDERED, Reason.NO_ORDER, "No order: holds"),
        (STATIONARY, Reason.STATIONARY, "Bounced (a stationary unit never moves)"),
        (CONVOY_PARADOX, Reason.CONVOY_PARADOX, "Fails: convoy paradox (Szykman rule)"),
        (
            Named(Reason.MAY_NOT_DISLODGE, "A Pie"),
            Reason.MAY_NOT_DISLODGE,
            "Bounced: may not dislodge A Pie",
        ),
        (
            Named(Reason.NOT_SUPPORTABLE, "A Pie"),
            Reason.NOT_SUPPORTABLE,
            "No effect: A Pie may not be supported",
        ),
        (Named(Reason.CUT, None), Reason.CUT, "Cut"),
        (
            Named(Reason.DISLODGED_ABOARD, "F Nth"),
            Reason.DISLODGED_ABOARD,
            "Aboard F Nth, dislodged with it",
        ),
        (
            NoCarrier("fleet", "England", "nth"),
            Reason.NO_CARRIER,
            "Fails: no fleet of England to board in Nth",
        ),
        (
            Disbanded(Reason.NO_RETREAT, ("A",)),
            Reason.NO_RETREAT,
            "No order: disbanded, with A aboard",
        ),
        (
            Mismatch(Reason.SUPPORT_MISMATCH, "A Ser", "rum"),
            Reason.SUPPORT_MISMATCH,
            "No effect: A Ser does not move to Rum",
        ),
    ],
)
def test_each_reason_is_worded_as_the_report_words_it(reason: Why, kind: Reason, note: str) -> None:
    assert reason.reason is kind
    assert Outcome("France", Hold(ARMY, "par"), Verdict.FAILS, reason).note == note


def test_json_writes_the_reason_and_its_data_beside_the_note(board: Board) -> None:
    told = _told(
        board,
        {"Germany": ["A mun"], "France": ["A par"]},
        {"Germany": ["A mun - bur"], "France": ["A par - bur"]},
    )
    assert jsonio.outcome_to_json(told["A Mun - Bur"]) == {
        "power": "Germany",
        "order": "A Mun - Bur",
        "result": "fails",
        "note": "Bounced 1v1 (with Par)",
        "reason": {"kind": "bounced", "unit": "A Par", "attack": 1, "resisted": 1, "rival": "par"},
        "decided_by": ["A Par"],
    }


def test_json_leaves_out_a_plain_success_and_data_a_reason_lacks(board: Board) -> None:
    told = _told(
        board,
        {"Germany": ["A mun", "A ruh"], "France": ["A bur", "A mar"]},
        {"Germany": ["A mun - bur", "A ruh S A mun - bur"], "France": ["A mar S A bur"]},
    )
    assert "reason" not in jsonio.outcome_to_json(told["A Ruh S A Mun - Bur"])
    assert jsonio.outcome_to_json(told["A Mun - Bur"])["reason"] == {
        "kind": "bounced",
        "unit": "A Bur",
        "attack": 2,
        "resisted": 2,
    }
    assert jsonio.outcome_to_json(told["A Bur H"])["reason"] == {"kind": "no_order"}


def test_a_variants_reasons_have_a_code_and_data_of_their_own() -> None:
    drafted = Drafted(("egy", "cyr"), 2)
    assert drafted.reason is Reason.VARIANT
    assert drafted.words() == "Placed A Egy, A Cyr; 2 armies left to place in turn"
    assert jsonio.reason_to_json(drafted) == {
        "kind": "variant",
        "code": "drafted",
        "placed": ["egy", "cyr"],
        "left": 2,
    }
    spent = VariantReason("spent", "Spent: counts {counts}", counts=4)
    assert (spent.words(), spent.data()) == ("Spent: counts 4", {"counts": 4})
    assert spent != VariantReason("spent", "Spent: counts {counts}", counts=2)
    assert jsonio.reason_to_json(spent) == {"kind": "variant", "code": "spent", "counts": 4}
