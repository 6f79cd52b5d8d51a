"""The DATC, one test per case, under each rules edition: v2.4 section 6 and the
real-game case files under the 2000 rules; DATC 3.0's full set (2.4's cases, with 3.0's
new and changed ones in their place) under the 2023 rules."""

from __future__ import annotations

import pytest

from hegemon.adjudication.movement import adjudicate_movement
from hegemon.datc import DatcCase, merged, read_cases, run_case
from hegemon.game import Variant
from hegemon.notation import parse_order
from hegemon.position import Phase, PhaseKind, Position, Season
from hegemon.variants import load_variant
from tests.conftest import DATC_DIR, units

CHANGES_IN_3_0 = "datc_v3.0_changes.txt"


def _read(name: str) -> list[DatcCase]:
    return list(read_cases((DATC_DIR / name).read_text(encoding="utf-8")))


RULES_2000 = [
    case
    for path in sorted(DATC_DIR.glob("*.txt"))
    if path.name != CHANGES_IN_3_0
    for case in _read(path.name)
]
RULES_2023 = merged(_read("datc_v2.4_06.txt"), _read(CHANGES_IN_3_0))
CLASSIC_2000 = load_variant("classic")
CLASSIC_2023 = CLASSIC_2000.configure({"edition": "2023"})


def test_the_datc_files_are_all_read() -> None:
    names = [c.name for c in RULES_2000]
    assert sum(1 for n in names if n.startswith("6.")) == 167
    assert len(set(names)) == len(names) == 185
    assert len(RULES_2023) == 173  # six new in 3.0; twelve more changed


def test_a_name_a_file_repeats_keeps_both_cases_and_a_later_file_replaces_them() -> None:
    first, second, changed = (DatcCase(name="6.F.14", line=n) for n in (1, 2, 3))
    other = DatcCase(name="6.F.13", line=4)
    assert merged([other, first, second]) == [other, first, second]
    assert merged([other, first, second], [changed]) == [other, changed]


@pytest.mark.parametrize("case", RULES_2000, ids=[c.name for c in RULES_2000])
def test_datc_2_4_under_the_2000_rules(case: DatcCase) -> None:
    result = run_case(case, CLASSIC_2000)
    assert result.passed, f"{case.name}:\n{result.difference}"


@pytest.mark.parametrize("case", RULES_2023, ids=[c.name for c in RULES_2023])
def test_datc_3_0_under_the_2023_rules(case: DatcCase) -> None:
    result = run_case(case, CLASSIC_2023)
    assert result.passed, f"{case.name}:\n{result.difference}"


@pytest.mark.parametrize("case", _read(CHANGES_IN_3_0), ids=lambda c: c.name)
def test_the_editions_differ_exactly_where_the_datc_does(case: DatcCase) -> None:
    # Under the 2000 rules, 3.0's changed cases fail exactly where 3.0 changed the answer.
    differing = {"6.G.8", "6.G.19", "6.J.6", "6.J.10", "6.J.11"}
    assert run_case(case, CLASSIC_2000).passed == (case.name not in differing)


@pytest.mark.parametrize("variant", [CLASSIC_2000, CLASSIC_2023], ids=["2000", "2023"])
def test_6_d_31_an_impossible_support_gives_way_to_the_units_other_order(
    variant: Variant,
) -> None:
    # DATC 6.D.31 (3.0 makes the preference explicit): A Rum - Arm can only go by way of
    # the Black Sea, so F Bla's support of it can never be valid and is ignored; given a
    # second order as well, the fleet carries that one out.
    board = variant.board
    position = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.MOVEMENT),
        units({"Austria": ["A rum"], "Turkey": ["F bla"]}),
    )
    orders = {
        "Austria": [parse_order("A rum - arm", board)],
        "Turkey": [parse_order(t, board) for t in ("F bla - arm", "F bla S A rum - arm")],
    }
    result = adjudicate_movement(board, position, orders, variant.rules_for(position))
    assert result.units["arm"].power == "Turkey" and "rum" in result.units
    notes = {o.text: o.note for o in result.outcomes}
    assert notes["F Bla S A Rum - Arm"] == (
        "Void: an army in Rumania could reach Armenia only through Black Sea, which "
        "supports instead of convoying"
    )
