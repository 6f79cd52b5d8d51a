"""Africa II: the rules of ../shared/rules/africa_ii.txt that the judge applies, each test
named for the rule it checks (a.1 to a.13, b.1 to b.13, c.1 to c.4, d.i, d.ii), the worked
examples of a.6, a.8 and c.1 to the number. docs/variants/africa_ii.md says how each was
checked to fail without its rule."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Unpack

import pytest

from hegemon.game import Game, GameEnd, PhaseResult, Termination, order_problems, play_phase
from hegemon.game.menus import offered
from hegemon.jsonio import phase_from_json, view_to_json
from hegemon.orders import Order
from hegemon.position import (
    MASTER,
    OBSERVER,
    Dislodgement,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
    Viewer,
    read_offboard_unit,
    read_unit,
    unit_text,
)
from hegemon.report import phase_report, position_report
from hegemon.variants import load_variant
from hegemon.variants.africa_ii import INFLUENCE, AfricaII, Ledger
from hegemon.variants.africa_ii.events import RANDOM_EVENT
from hegemon.variants.africa_ii.ledger import Changes
from hegemon.variants.africa_ii.scoring import victory_points

RUSSIA, US = "Soviet Union", "United States"
SPRING, AUTUMN = Season.SPRING, Season.named("Autumn")  # Autumn: from the setup
MOVEMENT, RETREAT, ADJUSTMENT = PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT


@pytest.fixture(scope="module")
def africa() -> AfricaII:
    variant = load_variant("africa_ii")
    assert isinstance(variant, AfricaII)
    return variant


def _at(
    africa: AfricaII,
    code: str,
    start: Position | None = None,
    units: Mapping[str, str] | None = None,
    removed: Sequence[str] = (),
    forces: Mapping[str, str] | None = None,
    offboard: Sequence[str] | None = None,
    **ledger: Unpack[Changes],
) -> Position:
    """A position of the phase (``A1962M``): `start` (the game's start by default) with units placed
    (``{"kam": "Kenya"}``: an army of Kenya in Kampala), intervention units placed
    (``{"kal": "China G", "sao": "Britain F [M]"}``: a Chinese guerilla in the Kalahari, a
    British fleet with its marine aboard at sea), those left off the board (those of the
    start but those placed, or ``["France F [M]"]``), provinces emptied, and the
    ledger's fields replaced."""
    position = start or africa.initial_position()
    placed = {p: u for p, u in position.units.items() if p not in removed}
    army = africa.board.kinds["A"]
    placed.update((p, Unit(owner, army, p)) for p, owner in (units or {}).items())
    for province, written in (forces or {}).items():
        power, unit = _power_unit(written)
        head, _, cargo = unit.partition(" ")
        placed[province] = read_unit(africa.board, power, f"{head} {province} {cargo}")
    if offboard is None:
        on_board = {(u.power, u.type) for p in placed.values() for u in (p, *p.cargo)}
        left = tuple(
            u.carrying(tuple(c for c in u.cargo if (c.power, c.type) not in on_board))
            for u in position.offboard
            if (u.power, u.type) not in on_board
        )
    else:
        left = tuple(read_offboard_unit(africa.board, *_power_unit(t)) for t in offboard)
    state = replace(Ledger.of(position), **ledger)
    phase = phase_from_json(code, africa)
    return position.evolve(phase=phase, units=placed, state=state, offboard=left)


def _power_unit(written: str) -> tuple[str, str]:
    """``"United States F [M]"`` -> ``("United States", "F [M]")``."""
    match = re.fullmatch(r"(.+) ([A-Z]( \[.*\])?)", written)
    assert match is not None, written
    return match.group(1), match.group(2)


def _orders(
    africa: AfricaII, position: Position, spec: Mapping[str, Sequence[str]]
) -> dict[str, list[Order]]:
    return {p: [africa.parse_order(t, position.all_units) for t in ts] for p, ts in spec.items()}


def _play(
    africa: AfricaII,
    position: Position,
    spec: Mapping[str, Sequence[str]] | None = None,
    draws: Mapping[str, int] | None = None,
) -> PhaseResult:
    return play_phase(africa, position, _orders(africa, position, spec or {}), draws)


def _notes(result: PhaseResult) -> dict[str, str]:
    return {o.text: o.note for o in result.outcomes}


def _ledger(position: Position) -> Ledger:
    return Ledger.of(position)


def _influence(
    africa: AfricaII,
    year: int = 1961,
    start: Position | None = None,
    **ledger: Unpack[Changes],
) -> Position:
    """The Spring IP phase of `year`, entered from its retreats (holdings halved, a.8)."""
    retreats = _at(africa, f"S{year}R", start, **ledger)
    after = _play(africa, retreats).after
    assert after.phase == Phase(year, SPRING, INFLUENCE)
    return after


# --- a. Basic rules ---------------------------------------------------------------------


def test_a1_the_rules_of_diplomacy_apply_between_the_states(africa: AfricaII) -> None:
    # The states own the units: two states one power controls fight as any two powers, so
    # Kenya, supported, dislodges Uganda's army though the Soviet Union controls both.
    spring = _at(
        africa,
        "S1962M",
        removed=["mom"],
        units={"tab": "Tanganyika"},
        control={"Kenya": RUSSIA, "Uganda": RUSSIA, "Tanganyika": RUSSIA},
    )
    result = _play(africa, spring, {RUSSIA: ["A kis - kam", "A tab S A kis - kam", "A kam H"]})
    assert _notes(result)["A Kis - Kam"] == "Succeeds"
    assert result.after.dislodged["kam"].unit.power == "Uganda"
    assert result.after.units["kam"].power == "Kenya"


def test_a2_the_players_are_the_five_superpowers(africa: AfricaII) -> None:
    assert list(africa.powers) == ["Britain", "China", "France", RUSSIA, US]
    assert africa.power_named("Russia") == RUSSIA  # rules a.6's name for it
    assert africa.power_named("Soviet Russia") == RUSSIA  # a.2's
    assert africa.power_named("U.S.") == US  # c.1's
    assert africa.power_named("Kenya") is None  # a state plays no part as a player


def test_a3_the_superpowers_are_not_on_the_board_and_act_through_states(
    africa: AfricaII,
) -> None:
    start = africa.initial_position()
    assert not set(africa.powers) & {u.power for u in start.units.values()}
    assert not set(africa.powers) & set(start.centers.values())
    spring = _at(africa, "S1962M", control={"Kenya": RUSSIA})
    move = [africa.parse_order("A nai - aru")]
    assert order_problems(africa, spring, RUSSIA, move) == []
    assert order_problems(africa, spring, "France", move) == [
        "A Nai - Aru: France does not control Kenya"
    ]
    result = _play(africa, spring, {RUSSIA: ["A nai - aru"]})
    assert _notes(result)["A Nai - Aru"] == "Succeeds"  # adjudicated as Kenya's own
    assert result.after.units["aru"].power == "Kenya"


def test_a4_the_game_runs_from_spring_1961_to_the_autumn_of_1970(africa: AfricaII) -> None:
    assert africa.initial_position().phase == Phase(1961, SPRING, MOVEMENT)
    late = _at(africa, "A1970R")
    result = _play(africa, late)  # nothing to retreat or adjust: the year's end is reached
    assert result.end.draw == tuple(africa.powers)  # nobody holds anything: 12 VPs each
    assert result.end.how is Termination.POINTS
    assert not _play(africa, _at(africa, "A1969R")).end
    # d.ii's "by Autumn 1971", as the game's option
    longer = africa.configure({"last_year": 1971})
    result = play_phase(longer, late, {})
    assert not result.end and result.after.phase == Phase(1971, SPRING, MOVEMENT)


def test_a4_more_than_half_the_units_after_an_adjustment_ends_the_game(
    africa: AfricaII,
) -> None:
    # Kenya's three armies, and two others on the board: the Soviet Union controls more
    # than half the units, though nowhere near 21 centers.
    kept = {"kis", "nai", "mom", "kam", "dar"}
    gone = [p for p in africa.initial_position().units if p not in kept]
    retreats = _at(africa, "A1962R", removed=gone, control={"Kenya": RUSSIA})
    result = _play(africa, retreats)
    assert result.end == GameEnd(Termination.POINTS, winners=(RUSSIA,))  # 15 VPs, 12 each
    # Not after a movement phase: only at the end of an adjustment turn.
    spring = _at(africa, "S1963M", removed=gone, control={"Kenya": RUSSIA})
    assert not _play(africa, spring).end


def test_a4_the_unit_majority_ends_the_game_at_spring_adjustments_too_won_on_points(
    africa: AfricaII,
) -> None:
    """a.4, a.7, d.ii (issue 28, point 5): the game ends "if any power controls more than
    half the units on the board at the end of an adjustment turn", and the IP phase is
    "Spring Adjustments" (a.7). The text says the game ends, not that the holder wins: it
    is won on victory points (d.ii). The Soviet Union takes Kenya's 3 of the 5 units;
    France, with Uganda and Tanganyika and the most IPs in both, has more VPs and wins."""
    kept = {"kis", "nai", "mom", "kam", "dar"}
    gone = [p for p in africa.initial_position().units if p not in kept]
    retreats = _at(africa, "S1963R", removed=gone, revenue={RUSSIA: 12, "France": 12})
    influence = _play(africa, retreats)
    assert not influence.end and influence.after.phase == Phase(1963, SPRING, INFLUENCE)
    orders = {RUSSIA: ["12: Kenya"], "France": ["6: Uganda", "6: Tanganyika"]}
    result = _play(africa, influence.after, orders)
    assert africa.book.units_of(result.after, RUSSIA) == 3
    by_power = africa.book.units_by_power(result.after)  # all at once, as the end asks
    assert by_power == {p: africa.book.units_of(result.after, p) for p in africa.powers}
    assert by_power[RUSSIA] == 3 and by_power["France"] == 2
    points = victory_points(africa.book, result.after)
    assert sum(points[RUSSIA].values()) == 12 + 3 + 3 and sum(points["France"].values()) == 20
    assert result.end == GameEnd(Termination.POINTS, winners=("France",))
    assert "Victory points (rules d.ii):" in phase_report(africa, result, OBSERVER)


def test_a5_control_is_reviewed_each_spring_at_the_ip_phase(africa: AfricaII) -> None:
    kinds = [(s.season, s.procedure.kind) for s in africa.calendar.year]
    assert kinds == [
        (SPRING, MOVEMENT),
        (SPRING, RETREAT),
        (SPRING, INFLUENCE),
        (AUTUMN, MOVEMENT),
        (AUTUMN, RETREAT),
        (AUTUMN, ADJUSTMENT),
    ]
    # Holdings that change in the Autumn (a conquest, c.1) change no control until Spring.
    autumn = _at(
        africa,
        "A1962M",
        control={"Kenya": "France"},
        holdings={"Kenya": {"France": 1, RUSSIA: 9}},
    )
    after = _play(africa, autumn).after
    assert _ledger(after).control["Kenya"] == "France"
    spent = _play(africa, _influence(africa, 1963, **_fields(_ledger(after))))
    assert _ledger(spent.after).control["Kenya"] == RUSSIA


def test_a_ledger_replaced_is_as_dataclasses_replace_makes_it(africa: AfricaII) -> None:
    ledger = Ledger.of(africa.initial_position())
    changed = ledger.replace(news=("told",), control={"Kenya": RUSSIA}, event=3)
    assert changed == replace(ledger, news=("told",), control={"Kenya": RUSSIA}, event=3)
    assert type(changed) is Ledger
    assert ledger.news == () and ledger.control == {} and ledger.event == 0  # unchanged
    assert ledger.replace() == ledger and ledger.replace() is not ledger


def test_a_ledgers_changes_are_its_fields() -> None:
    assert list(Changes.__annotations__) == [f.name for f in fields(Ledger)]


def _fields(ledger: Ledger) -> Changes:
    return {"holdings": ledger.holdings, "control": ledger.control, "revenue": ledger.revenue}


def test_a6_income_is_12_and_a_center_a_state_published_after_the_autumn(
    africa: AfricaII,
) -> None:
    # The example: "Russia controls Kenya, Botswana and Angola. Kenya has 3 supply
    # centres, Botswana has 2 and Angola has 1 centre. Russia therefore has
    # (12 + 3 + 2 + 1 =) 18 IPs to spend the following Spring."
    start = africa.initial_position()
    assert [start.center_counts[s] for s in ("Kenya", "Botswana", "Angola")] == [3, 2, 1]
    control = {"Kenya": RUSSIA, "Botswana": RUSSIA, "Angola": RUSSIA}
    result = _play(africa, _at(africa, "A1961R", control=control, revenue={}))
    assert result.after.phase == Phase(1962, SPRING, MOVEMENT)
    assert _ledger(result.after).revenue == {
        "Britain": 12,
        "China": 12,
        "France": 12,
        RUSSIA: 18,
        US: 12,
    }
    report = phase_report(africa, result, OBSERVER)
    published = "IPs to spend in Spring 1962 (rules a.6): Britain 12, China 12, France 12, "
    assert published + "Soviet Union 18, United States 12" in report
    assert _ledger(_influence(africa, 1962, **_fields(_ledger(result.after)))).revenue[RUSSIA] == 18


def test_a6_income_leaves_out_the_centers_the_powers_guerillas_hold(africa: AfricaII) -> None:
    """a.6, b.12 (issue 28, point 6): the income is 12 and "one IP for each supply centre
    held by an African state under its influence": China's guerilla, capturing Gaberones
    for China, adds a center toward a claim (d.i) but no IP; Kenya's three do."""
    autumn = _at(
        africa,
        "A1962M",
        removed=["gab"],
        forces={"kal": "China G"},
        control={"Kenya": "China"},
        revenue={},
    )
    spring = _play(africa, autumn, {"China": ["G kal - gab"]}).after
    assert spring.phase == Phase(1963, SPRING, MOVEMENT)
    assert spring.centers["gab"] == "China"
    assert africa.book.centers_of(spring, "China") == 3 + 1
    assert _ledger(spring).revenue["China"] == 12 + 3


def test_a7_ips_are_spent_after_the_spring_moves_and_retreats_and_published(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", revenue={RUSSIA: 12})
    assert order_problems(africa, spring, RUSSIA, [africa.parse_order("5: Kenya")]) == [
        "5: Kenya: not an order for a movement phase"
    ]
    influence = _influence(africa, 1962, revenue={RUSSIA: 12})
    result = _play(africa, influence, {RUSSIA: ["5: Kenya", "7: Angola"]})
    assert _ledger(result.after).holdings == {"Kenya": {RUSSIA: 5}, "Angola": {RUSSIA: 7}}
    assert result.after.phase == Phase(1962, AUTUMN, MOVEMENT)
    published = phase_report(africa, result, OBSERVER)
    assert "   Kenya: Soviet Union; Soviet Union 5" in published
    assert "   Angola: Soviet Union; Soviet Union 7" in published


def test_a8_holdings_halve_each_year_rounded_down(africa: AfricaII) -> None:
    # The example: "Russia held 10 IPs in Kenya, 5 IPs in Botswana, and 4 IPs in Angola.
    # The following Spring, these holdings are halved (rounded down), leaving Russia with
    # 5 IPs in Kenya, 2 in Botswana and 2 in Angola. Russia decides to spend his 16 IPs as
    # follows: 5 on Kenya, 7 on Botswana, and the remaining 4 IPs on Rhodesia ... and
    # finishes the round with 10 in Kenya, 9 in Botswana, 2 in Angola and 4 in Rhodesia."
    held = {"Kenya": {RUSSIA: 10}, "Botswana": {RUSSIA: 5}, "Angola": {RUSSIA: 4}}
    influence = _influence(africa, 1962, holdings=held, revenue={RUSSIA: 16})
    assert _ledger(influence).holdings == {
        "Kenya": {RUSSIA: 5},
        "Botswana": {RUSSIA: 2},
        "Angola": {RUSSIA: 2},
    }
    result = _play(africa, influence, {RUSSIA: ["5: Kenya", "7: Botswana", "4: Rhodesia"]})
    assert _ledger(result.after).holdings == {
        "Kenya": {RUSSIA: 10},
        "Botswana": {RUSSIA: 9},
        "Angola": {RUSSIA: 2},
        "Rhodesia": {RUSSIA: 4},
    }


def test_a9_unspent_ips_are_lost_and_spending_is_secret_until_adjudicated(
    africa: AfricaII,
) -> None:
    influence = _influence(africa, 1962, revenue={RUSSIA: 16, "France": 12})
    assert order_problems(
        africa,
        influence,
        RUSSIA,
        _orders(africa, influence, {RUSSIA: ["10: Kenya", "7: Angola"]})[RUSSIA],
    ) == [
        "10: Kenya: Soviet Union spends 17 IPs in all, more than the 16 it has",
        "7: Angola: Soviet Union spends 17 IPs in all, more than the 16 it has",
    ]
    game = Game(africa, influence)
    game.set_orders(RUSSIA, [africa.parse_order("6: Kenya")])
    game.set_orders("France", [africa.parse_order("2: Kenya")])
    for viewer in (OBSERVER, Viewer(power="France")):
        assert "6: Kenya" not in position_report(africa, game.position, viewer)
    result = game.adjudicate()
    assert _ledger(result.after).revenue == {}  # the 10 left are lost
    assert _ledger(result.after).holdings["Kenya"] == {RUSSIA: 6, "France": 2}
    assert "6: Kenya" in phase_report(africa, result, Viewer(power="France"))
    own = "Soviet Union controls: Kenya"  # in its own report, not in France's
    assert own in phase_report(africa, result, Viewer(power=RUSSIA))
    assert own not in phase_report(africa, result, Viewer(power="France"))


def test_a10_any_number_of_superpowers_hold_ips_in_a_state(africa: AfricaII) -> None:
    revenue = {p: 12 for p in africa.powers}
    influence = _influence(africa, 1962, revenue=revenue)
    spend = {p: [f"{n}: Kenya"] for n, p in enumerate(africa.powers, start=1)}
    result = _play(africa, influence, spend)
    assert _ledger(result.after).holdings["Kenya"] == {
        "Britain": 1,
        "China": 2,
        "France": 3,
        RUSSIA: 4,
        US: 5,
    }


def test_a11_the_largest_holding_controls_a_tie_leaves_the_state_unordered(
    africa: AfricaII,
) -> None:
    revenue = {p: 12 for p in africa.powers}
    influence = _influence(africa, 1962, revenue=revenue)
    result = _play(
        africa,
        influence,
        {
            RUSSIA: ["9: Kenya"],
            "France": ["7: Kenya"],
            "Britain": ["3: Kenya"],  # no majority
            US: ["5: Uganda"],
            "China": ["5: Uganda"],  # a tie
        },
    )
    control = _ledger(result.after).control
    assert control["Kenya"] == RUSSIA and "Uganda" not in control
    # Control holds for the next two turns: Autumn, then Spring until its IP phase.
    autumn = result.after
    kampala = africa.parse_order("A kam - tab")
    assert order_problems(africa, autumn, US, [kampala]) == [
        "A Kam - Tab: nobody controls Uganda (rules a.11): its units stand unordered"
    ]
    moved = _play(africa, autumn, {RUSSIA: ["A nai - aru"]})
    assert _notes(moved)["A Kam H"] == "No order: holds"
    spring = moved.after  # the Autumn adjustments had nothing to do
    assert spring.phase == Phase(1963, SPRING, MOVEMENT)
    assert africa.commander_of(spring, spring.units["aru"]) == RUSSIA


def test_a12_an_ousted_controller_may_declare_civil_war_freezing_the_state(
    africa: AfricaII,
) -> None:
    # France controlled Kenya and keeps IPs there; the Soviet Union, holding none, takes
    # the largest holding.
    influence = _influence(
        africa,
        1962,
        control={"Kenya": "France"},
        holdings={"Kenya": {"France": 8}},
        revenue={RUSSIA: 12},
    )
    spent = _play(africa, influence, {RUSSIA: ["12: Kenya"]})
    autumn = spent.after
    assert _ledger(autumn).rights == {"Kenya": "France"}
    assert "France may declare civil war in Kenya" in phase_report(africa, spent, OBSERVER)
    assert order_problems(africa, autumn, "China", [africa.parse_order("Civil war Kenya")]) == [
        "Civil war Kenya: China was not ousted from Kenya at the last IP phase by a power that "
        "held no IPs there (rules a.12)"
    ]
    result = _play(africa, autumn, {"France": ["Civil war Kenya"], RUSSIA: ["A nai - aru"]})
    assert _notes(result)["A Nai H"] == "No order: holds"
    assert (
        "   Soviet Union: A Nai - Aru: Kenya is in civil war (rules a.12): its units take no "
        "orders" in result.public
    )
    assert _ledger(result.after).civil_wars == {"Kenya": "France"}
    assert _ledger(result.after).rights == {}  # declared with the next orders, or never
    # Until the following Spring adjustments: frozen in the Spring moves, free after them.
    spring = result.after
    assert spring.phase == Phase(1963, SPRING, MOVEMENT)
    assert africa.commander_of(spring, spring.units["nai"]) is None
    influence = _play(africa, spring).after
    assert influence.phase == Phase(1963, SPRING, INFLUENCE)
    assert _ledger(influence).civil_wars == {"Kenya": "France"}
    freed = _play(africa, influence).after
    assert _ledger(freed).civil_wars == {}
    assert africa.commander_of(freed, freed.units["nai"]) == RUSSIA


@pytest.mark.parametrize("held", [2, 1])
def test_a12_no_civil_war_where_the_new_controller_held_ips_before_the_halving(
    africa: AfricaII, held: int
) -> None:
    """a.12, a.8 (issue 28, point 2): "a superpower previously holding no IPs (0 IPs)" is
    read from the holdings as published, before the yearly halving: the Soviet Union's
    2 IPs in Kenya halve to 1, its 1 IP to nothing, but either way it held some, so
    France, ousted, may not declare civil war."""
    influence = _influence(
        africa,
        1962,
        control={"Kenya": "France"},
        holdings={"Kenya": {"France": 8, RUSSIA: held}},
        revenue={RUSSIA: 12},
    )
    assert _ledger(influence).holdings["Kenya"].get(RUSSIA, 0) == held // 2
    spent = _play(africa, influence, {RUSSIA: ["12: Kenya"]})
    assert _ledger(spent.after).control["Kenya"] == RUSSIA
    assert _ledger(spent.after).rights == {}
    assert "may declare civil war" not in phase_report(africa, spent, OBSERVER)


def test_a13_states_start_with_an_army_on_each_home_center_and_build_armies(
    africa: AfricaII,
) -> None:
    start = africa.initial_position()
    homes = africa.home_centers(start)
    assert {u.type.letter for u in start.units.values()} == {"A"}
    assert {p: u.power for p, u in start.units.items()} == {
        c: s for s, cs in homes.items() for c in cs
    }
    assert len(start.units) == len(africa.board.centers) == 41
    # Kenya lost Mombasa's army: its controller rebuilds, an army, never a fleet.
    adjust = _at(africa, "A1962R", removed=["mom"], control={"Kenya": RUSSIA})
    winter = _play(africa, adjust).after
    assert winter.phase == Phase(1962, AUTUMN, ADJUSTMENT)
    menu = africa.calendar.procedure(winter.phase).menu(africa, winter, RUSSIA)
    builds = {form.title: [c.text for c in form.choices] for form in menu}
    assert builds["Builds of Kenya"] == ["Build A Mom"]
    fleet = africa.parse_order("Build F mom")
    assert order_problems(africa, winter, RUSSIA, [fleet]) == [
        "Build F Mom: fleets are not built in adjustment phases"
    ]
    built = _play(africa, winter, {RUSSIA: ["Build A mom"]})
    assert _notes(built)["Build A Mom"] == "Built" and built.after.units["mom"].power == "Kenya"


# --- b. Intervention units ------------------------------------------------------------------


def test_b1_b2_b12_the_intervention_units_are_declared_needing_no_supply(
    africa: AfricaII,
) -> None:
    kinds = africa.board.kinds
    assert {k: kinds[k].name for k in "PMFG"} == {
        "P": "paratroop",
        "M": "marine",
        "F": "fleet",
        "G": "guerilla",
    }
    assert not any(kinds[k].supply for k in "PMFG")  # b.1
    assert not any(kinds[k].captures for k in "PMF") and kinds["G"].captures  # b.2, b.12
    assert not any(kinds[k].buildable for k in "PMFG")  # placed, never built
    assert "no-offboard" in africa.board.provinces["moz"].tags  # b.6
    assert africa.book.intervention == {  # b.2, b.10
        "Britain": ("P", "M", "F"),
        "China": ("G",),
        "France": ("P", "M", "F"),
        RUSSIA: ("G",),
        US: ("P", "M", "F"),
    }
    # b.6: "Fleets can convoy Armies, Marines, Paratroops and Guerillas"
    assert [k for k in "APMGF" if kinds[k].convoyed] == ["A", "P", "M", "G"]


def test_b2_b6_britain_france_and_the_us_start_with_p_m_f_off_the_board(africa: AfricaII) -> None:
    start = africa.initial_position()
    shown = sorted((u.power, unit_text(u)) for u in start.offboard)
    assert shown == [
        (p, t) for p in ("Britain", "France", US) for t in ("F [M]", "P")
    ]  # the marine aboard its fleet, which lands it (b.5); China and the Soviet Union none
    assert not [u for u in start.units.values() if u.power in africa.powers]


def test_b3_a_marine_or_paratroop_costs_10_percent_of_the_spring_revenue_both_20(
    africa: AfricaII,
) -> None:
    revenue = {"Britain": 15, "France": 15, US: 15}
    forces = {"kal": "Britain P", "ben": "Britain M", "ova": "France P", "sao": "United States F"}
    spring = _at(africa, "S1962M", forces=forces, revenue=revenue)
    result = _play(africa, spring)
    assert result.after.phase == Phase(1962, SPRING, INFLUENCE)
    # 20% of 15 is 3; 10% of 15 is 1.5, rounded up; fleets are free
    assert _ledger(result.after).revenue == {"Britain": 12, "France": 13, US: 15}
    report = phase_report(africa, result, OBSERVER)
    assert "Britain pays 3 IPs (20%) for its marines and paratroops (rules b.3)" in report
    # One on the board only in the Autumn costs nothing.
    autumn = _play(africa, _at(africa, "A1962M", forces=forces, revenue=revenue))
    assert _ledger(autumn.after).deployed == {}
    # A paratroop leaving the board that Spring pays (b.3: "or leaving the board").
    leaving = _at(africa, "S1962M", forces={"kal": "France P"}, revenue=revenue)
    withdrawn = _play(africa, leaving, {"France": ["P kal - OFFBOARD"]})
    assert _ledger(withdrawn.after).revenue == {"Britain": 15, "France": 13, US: 15}
    assert _ledger(_play(africa, _at(africa, "S1962M", revenue=revenue)).after).revenue == revenue


def test_b3_a_marine_aboard_its_fleet_pays_no_upkeep_landed_or_boarding_it_does(
    africa: AfricaII,
) -> None:
    """b.3, b.8 (issue 28, point 1): "Superpowers lose no IPs for having Fleets on the
    board", and a marine withdrawn boards its fleet (b.8: `M.(Dca) - F.(GXX)`), leaving the
    board: aboard, it is off the board and costs nothing. It pays in a Spring it is landed,
    or boards its fleet ("or leaving the board"); a landing stood off costs nothing."""
    revenue = {"Britain": 15}
    fleet = {"sao": "Britain F [M]"}
    at_sea = _at(africa, "S1962M", forces=fleet, revenue=revenue, control={"Angola": RUSSIA})
    assert _ledger(_play(africa, at_sea).after).revenue == {"Britain": 15}
    landed = _play(africa, at_sea, {"Britain": ["M sao - ben"]})
    assert _ledger(landed.after).revenue == {"Britain": 13}  # 10% of 15, rounded up
    stood_off = _play(africa, at_sea, {"Britain": ["M sao - ben"], RUSSIA: ["A lus - ben"]})
    assert unit_text(stood_off.after.units["sao"]) == "F sao [M]"
    assert _ledger(stood_off.after).revenue == {"Britain": 15}
    ashore = {"sao": "Britain F", "ben": "Britain M"}
    boarding = _at(africa, "S1962M", forces=ashore, revenue=revenue)
    boarded = _play(africa, boarding, {"Britain": ["M ben - F sao"]})
    assert unit_text(boarded.after.units["sao"]) == "F sao [M]"
    assert _ledger(boarded.after).revenue == {"Britain": 13}


def test_b4_paratroops_drop_into_empty_land_before_the_other_units_move(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", control={"Botswana": RUSSIA})
    assert _raised(africa, spring, "Britain", "P OFFBOARD - gab", "P OFFBOARD - sao") == [
        "P OFFBOARD - Gab: Gaberones is occupied: a paratroop drops into an unoccupied land "
        "province (rules b.4)",
        "P OFFBOARD - Sao: paratroops cannot stand in South Atlantic Ocean",
    ]
    # Dropped first, it holds in the Kalahari: Botswana's army moving in bounces.
    result = _play(africa, spring, {"Britain": ["P OFFBOARD - kal"], RUSSIA: ["A gab - kal"]})
    assert "   Britain: P OFFBOARD - Kal: dropped; it holds this turn" in result.public
    assert _notes(result)["A Gab - Kal"].startswith("Bounced")
    assert _notes(result)["P Kal H"] == "No order: holds"
    assert result.after.units["kal"].power == "Britain"
    # Two drops into one province stand each other off: both stay off the board.
    both = _play(africa, spring, {"Britain": ["P OFFBOARD - kal"], "France": ["P OFFBOARD - kal"]})
    assert "kal" not in both.after.units
    assert {u.power for u in both.after.offboard if u.type.letter == "P"} == {
        "Britain",
        "France",
        US,
    }


def test_b5_b7_marines_land_from_their_fleets_sea_and_fall_back_aboard_where_it_went(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", forces={"sao": "Britain F [M]"}, control={"Angola": RUSSIA})
    assert _raised(africa, spring, "Britain", "M sao - lus") == [
        "M Sao - Lus: Luanda is occupied: a marine lands in an unoccupied coastal province "
        "(rules b.5)"
    ]
    landed = _play(africa, spring, {"Britain": ["M sao - ben"]})
    assert unit_text(landed.after.units["ben"]) == "M ben"
    assert unit_text(landed.after.units["sao"]) == "F sao"
    # Stood off like any unit; aboard its fleet again, wherever the fleet went (b.7).
    bounced = _play(
        africa, spring, {"Britain": ["M sao - ben", "F sao - agu"], RUSSIA: ["A lus - ben"]}
    )
    assert _notes(bounced)["M Sao - Ben"].startswith("Bounced")
    assert unit_text(bounced.after.units["agu"]) == "F agu [M]"
    assert "Britain: F Agu [M]" in position_report(africa, bounced.after, OBSERVER)
    # Its fleet supports its landing (b.7).
    supported = _play(
        africa, spring, {"Britain": ["M sao - ben", "F sao S M sao - ben"], RUSSIA: ["A lus - ben"]}
    )
    assert supported.after.units["ben"].type.letter == "M"


def test_b8_paratroops_withdraw_from_anywhere_marines_onto_their_fleet(africa: AfricaII) -> None:
    forces = {"kal": "Britain P", "ben": "Britain M", "sao": "Britain F", "hui": "France M"}
    spring = _at(africa, "S1962M", forces=forces)
    assert _raised(africa, spring, "Britain", "M ben - OFFBOARD") == [
        "M Ben - OFFBOARD: a marine in Benguela may not leave the board"
    ]
    assert _raised(africa, spring, "France", "M hui - F sao") == [
        "M Hui - F Sao: a marine in Huila cannot board a fleet of France in South Atlantic Ocean"
    ]
    result = _play(africa, spring, {"Britain": ["P kal - OFFBOARD", "M ben - F sao"]})
    assert "kal" not in result.after.units and "ben" not in result.after.units
    assert unit_text(result.after.units["sao"]) == "F sao [M]"
    assert ("Britain", "P") in {(u.power, unit_text(u)) for u in result.after.offboard}
    # The fleet must stay in, or enter, the sea the marine boards in.
    away = _play(africa, spring, {"Britain": ["M ben - F sao", "F sao - agu"]})
    assert unit_text(away.after.units["ben"]) == "M ben"


def test_b6_fleets_enter_and_leave_the_board_but_by_the_mozambique_channel(
    africa: AfricaII,
) -> None:
    spring = _at(
        africa, "S1962M", forces={"ind": "Britain F"}, offboard=["France F [M]", "United States F"]
    )
    assert _raised(africa, spring, "France", "F OFFBOARD - moz", "F OFFBOARD - gog") == [
        "F OFFBOARD - Moz: no fleet enters the board by the Mozambique Channel (rules b.6)"
    ]
    assert _raised(africa, spring, US, "F OFFBOARD - ind") == [
        "F OFFBOARD - Ind: Indian Ocean is occupied: a fleet enters an unoccupied sea (rules b.6)"
    ]
    channel = _at(africa, "S1962M", forces={"moz": "Britain F"})
    assert _raised(africa, channel, "Britain", "F moz - OFFBOARD") == [
        "F Moz - OFFBOARD: a fleet in Mozambique Channel may not leave the board"
    ]
    result = _play(africa, spring, {"France": ["F OFFBOARD - gog"], US: ["F OFFBOARD - sao"]})
    assert unit_text(result.after.units["gog"]) == "F gog [M]"  # its marine with it
    # Two fleets entering one sea stand each other off; one leaving always succeeds.
    both = _play(africa, spring, {"France": ["F OFFBOARD - sao"], US: ["F OFFBOARD - sao"]})
    assert "sao" not in both.after.units
    autumn = _at(africa, "A1962M", start=result.after)
    gone = _play(africa, autumn, {"France": ["F gog - OFFBOARD"], US: ["F sao - gog"]})
    assert "gog" in gone.after.units and gone.after.units["gog"].power == US
    assert ("France", "F [M]") in {(u.power, unit_text(u)) for u in gone.after.offboard}


def test_b6_fleets_never_enter_a_coast_and_support_only_their_own_marines_there(
    africa: AfricaII,
) -> None:
    forces = {"sao": "Britain F", "ben": "Britain M", "agu": "France F", "kal": "France P"}
    spring = _at(africa, "S1962M", forces=forces, control={"Angola": "Britain"})
    problems = order_problems(
        africa,
        spring,
        "Britain",
        _orders(
            africa,
            spring,
            {"Britain": ["F sao - lus", "F sao S A lus", "F sao S M ben - lus"]},
        )["Britain"],
    )
    assert problems == [
        "F Sao - Lus: fleets may not enter Luanda",
        "F Sao S A Lus H: a fleet in South Atlantic Ocean may not support an army into Luanda",
    ]
    # Other powers' fleets at sea, as usual; nobody else's units into a coast.
    assert order_problems(africa, spring, "France", [africa.parse_order("F agu S F sao")]) == []
    assert order_problems(
        africa, spring, "France", [africa.parse_order("F agu S M ben - cap")]
    ) == ["F Agu S M Ben - Cap: a fleet in Agulhas Sea may not support a marine into Cape Town"]


def test_b6_no_unwanted_convoys_a_move_over_land_is_convoyed_only_when_ordered_so(
    africa: AfricaII,
) -> None:
    # Angola's army and a British marine swap Luanda and Benguela. Over land they meet
    # head to head and bounce; the British fleet's convoy carries the marine only if its
    # order says so (the standard rules take the power's own fleet as asking).
    forces = {"sao": "Britain F", "ben": "Britain M"}
    spring = _at(africa, "S1962M", forces=forces, control={"Angola": "Britain"})
    swap = ["A lus - ben", "F sao C M ben - lus"]
    overland = _play(africa, spring, {"Britain": [*swap, "M ben - lus"]})
    assert _notes(overland)["M Ben - Lus"].startswith("Bounced")
    convoyed = _play(africa, spring, {"Britain": [*swap, "M ben - lus via convoy"]})
    assert _notes(convoyed)["M Ben - Lus via Convoy"] == "Succeeds"
    assert convoyed.after.units["lus"].type.letter == "M"


def _dislodged(
    africa: AfricaII, code: str, forces: Mapping[str, str], **ledger: Unpack[Changes]
) -> Position:
    """A retreat phase with the intervention units `forces` dislodged from where they stand
    (by an attacker from Ovamboland, say)."""
    position = _at(africa, code, forces=forces, **ledger)
    dislodged = {p: Dislodgement(position.units[p], "ova") for p in forces}
    units = {p: u for p, u in position.units.items() if p not in forces}
    return position.evolve(units=units, dislodged=dislodged)


def test_b9_a_marine_paratroop_or_fleet_disbanded_after_a_dislodgement_is_lost_for_good(
    africa: AfricaII,
) -> None:
    forces = {"kal": "Britain P", "ben": "France M", "hui": "China G"}
    retreats = _dislodged(africa, "S1962R", forces)
    result = _play(africa, retreats, {"Britain": ["P kal D"], "France": ["M ben - mox"]})
    assert _ledger(result.after).lost == {"Britain": ("P",)}  # the guerilla is no P, M or F
    assert (
        "Britain's paratroop (P Kal) is lost for good: no other may be raised (rules b.9)"
        in phase_report(africa, result, OBSERVER)
    )
    assert "Lost for good, never raised again: P" in position_report(
        africa, result.after, Viewer(power="Britain")
    )
    # One given no order is disbanded too; one with no retreat open is, at once.
    unordered = _play(africa, retreats, {"France": ["M ben - mox"]})
    assert _ledger(unordered.after).lost == {"Britain": ("P",)}
    spring = _at(
        africa,
        "S1962M",
        units={"hui": "Angola", "mox": "Angola", "kas": "Congo (Leopoldville)"},
        forces={"ben": "France M", "sao": "Britain F"},
        control={"Angola": RUSSIA, "Congo (Leopoldville)": RUSSIA},
    )
    crushed = _play(africa, spring, {RUSSIA: ["A lus - ben", "A hui S A lus - ben"]})
    assert crushed.destroyed == (Unit("France", africa.board.kinds["M"], "ben"),)
    assert _ledger(crushed.after).lost == {"France": ("M",)}
    # A fleet disbanded takes the marine aboard with it.
    sunk = _play(africa, _dislodged(africa, "S1962R", {"sao": "Britain F [M]"}))
    assert _ledger(sunk.after).lost == {"Britain": ("F", "M")}


# --- b.10 to b.13: guerillas ----------------------------------------------------------------


def _raised(africa: AfricaII, position: Position, power: str, *orders: str) -> list[str]:
    return order_problems(africa, position, power, [africa.parse_order(o) for o in orders])


def test_b10_no_ips_where_the_powers_guerillas_operate_in_the_spring(africa: AfricaII) -> None:
    held = {"Botswana": {"China": 6, RUSSIA: 4}, "Kenya": {RUSSIA: 4, "China": 4}}
    revenue = {"China": 12, RUSSIA: 12}
    spring = _at(africa, "S1962M", forces={"kal": "China G"}, holdings=held, revenue=revenue)
    # Raised during the Spring turn, after its retreats: operating at its end.
    influence = _play(africa, spring, {RUSSIA: ["Raise G nfd"]}).after
    assert influence.phase.kind is INFLUENCE
    assert _ledger(influence).holdings == {"Botswana": {RUSSIA: 2}, "Kenya": {"China": 2}}
    assert "China loses its 3 IPs in Botswana" in position_report(africa, influence, OBSERVER)
    result = _play(africa, influence, {"China": ["5: Kenya", "7: Botswana"]})
    notes = {(o.power, o.text): o.note for o in result.outcomes}
    assert notes["China", "7: Botswana"].startswith("Spent, and lost: guerillas of the spender")
    assert _ledger(result.after).holdings == {"Botswana": {RUSSIA: 2}, "Kenya": {"China": 7}}
    # In the Autumn, nothing is noted.
    autumn = _play(africa, _at(africa, "A1962M", forces={"kal": "China G"})).after
    assert _ledger(autumn).operating == {}


def test_b11_guerillas_are_raised_in_an_empty_province_without_a_center_after_the_retreats(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", units={"nfd": "Kenya"}, control={"Botswana": RUSSIA})
    assert _raised(africa, spring, "China", "Raise G gab") == [
        "Raise G Gab: Gaberones is a supply center (rules b.11: raised in a province that is none)"
    ]
    assert _raised(africa, spring, "China", "Raise G nfd") == [
        "Raise G Nfd: Northern Frontier is occupied (rules b.11: raised in an unoccupied province)"
    ]
    assert _raised(africa, spring, "China", "Raise G sao") == [
        "Raise G Sao: South Atlantic Ocean is a sea: guerillas are raised on land"
    ]
    assert _raised(africa, spring, "Britain", "Raise G kal") == [
        "Raise G Kal: Britain raises no guerillas (rules b.10: China and the Soviet Union do)"
    ]
    assert _raised(africa, spring, "China", "Raise G kal") == []
    result = _play(africa, spring, {"China": ["Raise G kal", "Raise G ova"]})
    refused = "   China: Raise G Ova: void, China may have 1 guerilla at most"
    assert refused in "\n".join(result.public)
    assert result.after.units["kal"] == Unit("China", africa.board.kinds["G"], "kal")
    assert "ova" not in result.after.units
    assert "China raises G Kal (rules b.11)" in phase_report(africa, result, OBSERVER)
    # A province taken during the turn is no longer empty after its retreats; two raised in
    # one province stand each other off.
    taken = _play(africa, spring, {"China": ["Raise G kal"], RUSSIA: ["A gab - kal"]})
    assert taken.after.units["kal"].power == "Botswana"
    assert "China's G Kal is not raised: Kal is occupied" in phase_report(africa, taken, OBSERVER)
    both = _play(africa, spring, {"China": ["Raise G kal"], RUSSIA: ["Raise G kal"]})
    assert "kal" not in both.after.units


def test_b11_a_guerilla_disbanded_holds_through_the_turn_and_goes_after_its_retreats(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", forces={"kal": "China G"}, control={"Botswana": RUSSIA})
    assert _raised(africa, spring, RUSSIA, "Disband G kal") == [
        "G Kal D: only one's own guerillas are disbanded with the movement orders (rules b.11)"
    ]
    # Ordered to move, then disbanded: the later order stands; it holds and bounces Gab.
    result = _play(
        africa, spring, {"China": ["G kal - ova", "Disband G kal"], RUSSIA: ["A gab - kal"]}
    )
    assert _notes(result)["A Gab - Kal"].startswith("Bounced")
    assert "kal" not in result.after.units and "ova" not in result.after.units
    assert "China disbands G Kal (rules b.11)" in phase_report(africa, result, OBSERVER)
    # Dislodged meanwhile, it is disbanded at once: no retreat waits for it.
    attacked = _play(
        africa, spring, {"China": ["Disband G kal"], RUSSIA: ["A gab - kal", "A frt S A gab - kal"]}
    )
    assert attacked.after.phase.kind is INFLUENCE
    assert attacked.after.units["kal"].power == "Botswana"


def test_b12_guerillas_capture_centers_and_raise_the_limit_by_one_each(
    africa: AfricaII,
) -> None:
    autumn = _at(africa, "A1962M", removed=["gab"], forces={"kal": "China G"})
    assert _raised(africa, autumn, "China", "Raise G ova") == [
        "Raise G Ova: China may have 1 guerilla at most: one more than the centers its "
        "guerillas hold (rules b.12)"
    ]
    result = _play(africa, autumn, {"China": ["G kal - gab"]})  # it moves as an army
    spring = result.after
    assert spring.centers["gab"] == "China"
    assert "Guerillas: 1, 2 at most (rules b.12)" in position_report(
        africa, spring, Viewer(power="China")
    )
    assert _raised(africa, spring, "China", "Raise G ova") == []
    assert africa.book.centers_of(spring, "China") == 1  # toward a claim of d.i


def test_b12_a_raise_may_use_the_place_a_disband_frees_in_the_same_orders(
    africa: AfricaII,
) -> None:
    """b.11, b.12 (issue 28, point 6): at its limit of one guerilla, China may disband it
    and raise another with the same orders: the disbands are counted first (decision 22).
    Both are done after the retreats."""
    spring = _at(africa, "S1962M", forces={"kal": "China G"})
    assert _raised(africa, spring, "China", "Raise G ova") == [
        "Raise G Ova: China may have 1 guerilla at most: one more than the centers its "
        "guerillas hold (rules b.12)"
    ]
    assert _raised(africa, spring, "China", "Disband G kal", "Raise G ova") == []
    assert _raised(africa, spring, "China", "Raise G ova", "Disband G kal") == []
    after = _play(africa, spring, {"China": ["Raise G ova", "Disband G kal"]}).after
    chinese = sorted(p for p, u in after.units.items() if u.power == "China")
    assert chinese == ["ova"]


def test_b12_guerillas_beyond_the_limit_are_disbanded_at_the_autumn_adjustments(
    africa: AfricaII,
) -> None:
    # Two guerillas, no center: one too many.
    retreats = _at(africa, "A1962R", forces={"kal": "China G", "ova": "China G"})
    winter = _play(africa, retreats).after
    assert winter.phase == Phase(1962, AUTUMN, ADJUSTMENT)
    assert "Disbands: China 1 (China)" in position_report(africa, winter, OBSERVER)
    chosen = _play(africa, winter, {"China": ["Disband G ova"]}).after
    assert "ova" not in chosen.units and "kal" in chosen.units
    disorder = _play(africa, winter).after  # not ordered: civil disorder chooses
    assert len([u for u in disorder.units.values() if u.power == "China"]) == 1


def test_b13_one_powers_guerillas_owning_a_states_centers_make_a_revolution(
    africa: AfricaII,
) -> None:
    held = {"Botswana": {RUSSIA: 6, "France": 3}}
    forces = {"gab": "China G", "frt": "China G", "kal": "China G", "ova": "Soviet Union G"}
    retreats = _at(africa, "A1962R", forces=forces, holdings=held, control={"Botswana": RUSSIA})
    result = _play(africa, retreats)
    after = result.after
    assert after.phase == Phase(1963, SPRING, MOVEMENT)
    ledger = _ledger(after)
    assert ledger.holdings["Botswana"] == {"China": 5}  # half of 9, rounded up
    assert ledger.control["Botswana"] == "China"
    army = africa.board.kinds["A"]
    assert {p: after.units.get(p) for p in ("gab", "frt", "kal")} == {
        "gab": Unit("Botswana", army, "gab"),
        "frt": Unit("Botswana", army, "frt"),
        "kal": None,
    }
    assert after.units["ova"].power == RUSSIA  # another power's
    assert {after.centers["gab"], after.centers["frt"]} == {"Botswana"}
    assert "Revolution in Botswana: China's guerillas hold its centers (rules b.13)" in (
        phase_report(africa, result, OBSERVER)
    )
    # Guerillas of two powers together make none.
    shared = {"gab": "China G", "frt": "Soviet Union G"}
    after = _play(africa, _at(africa, "A1962R", forces=shared, holdings=held)).after
    assert after.centers["gab"] == "China" and _ledger(after).holdings == held


# --- c. Special rules ---------------------------------------------------------------------


def test_c1_a_conquered_state_is_re_established_with_the_conquerors_ips(
    africa: AfricaII,
) -> None:
    # The example: "Russia controls Kenya, with 10 IPs. France has 7 IPs in Kenya, and
    # Britain 3 IPs. The United States controls Uganda with 4 IPs, and Britain has 1 IP
    # in Uganda. In the following Autumn adjustments Kenya occupies all the home centres
    # of Uganda. The U.S. and British IPs invested in Uganda are lost, and Russia now
    # gains 10 IPs in Uganda, France 7 IPs in Uganda, and Britain 3 IPs."
    holdings = {"Kenya": {RUSSIA: 10, "France": 7, "Britain": 3}, "Uganda": {US: 4, "Britain": 1}}
    autumn = _at(
        africa,
        "A1962M",
        removed=["kam"],
        units={"tab": "Uganda"},
        holdings=holdings,
        control={"Kenya": RUSSIA, "Uganda": US},
    )
    result = _play(africa, autumn, {RUSSIA: ["A kis - kam"]})
    winter = result.after
    assert winter.phase == Phase(1962, AUTUMN, ADJUSTMENT)
    ledger = _ledger(winter)
    assert ledger.holdings["Uganda"] == {RUSSIA: 10, "France": 7, "Britain": 3}
    assert ledger.holdings["Kenya"] == {RUSSIA: 10, "France": 7, "Britain": 3}
    # "re-established, with its original units on its home centres": Kenya's army there
    # gone, and "the conquering state forfeits any builds gained from those centres".
    assert winter.centers["kam"] == "Uganda" and winter.units["kam"].power == "Uganda"
    assert [u.power for u in winter.units.values()].count("Kenya") == 2
    assert "Builds: Kenya 1 (Soviet Union)" in position_report(africa, winter, OBSERVER)
    assert (
        "Uganda is conquered by Kenya and re-established (rules c.1): IPs as in Kenya: "
        "Britain 3, France 7, Soviet Union 10; Kenya's units disbanded: Kam; its units "
        "elsewhere disbanded: Tab"
    ) in phase_report(africa, result, OBSERVER)


def test_c1_a_conquered_state_keeps_only_its_home_armies_and_changes_hands_in_the_spring(
    africa: AfricaII,
) -> None:
    """c.1, a.5 (issue 28, point 3): the conquered state is "re-established, with its
    original units on its home centres": its army elsewhere (Tabora) is disbanded, one
    unit for its one center. Control "is reviewed each Spring turn": the United States
    keeps Uganda, holding nothing, until the Spring review gives it to the Soviet Union,
    whose copied IPs are the largest."""
    autumn = _at(
        africa,
        "A1962M",
        removed=["kam"],
        units={"tab": "Uganda"},
        holdings={"Kenya": {RUSSIA: 10, "France": 7}, "Uganda": {US: 4}},
        control={"Kenya": RUSSIA, "Uganda": US},
    )
    winter = _play(africa, autumn, {RUSSIA: ["A kis - kam"]}).after
    assert winter.phase == Phase(1962, AUTUMN, ADJUSTMENT)
    uganda = sorted(p for p, u in winter.units.items() if u.power == "Uganda")
    assert uganda == ["kam"]
    assert _ledger(winter).control["Uganda"] == US
    assert "Uganda" not in _ledger(winter).holdings.get(US, {})
    spring = _play(africa, winter, {RUSSIA: ["Build A kis"]}).after
    assert _ledger(spring).control["Uganda"] == US
    influence = _play(africa, spring).after
    assert influence.phase == Phase(1963, SPRING, INFLUENCE)
    assert _ledger(influence).control["Uganda"] == US
    reviewed = _play(africa, influence).after
    assert _ledger(reviewed).control["Uganda"] == RUSSIA


def test_c2_namibia_is_part_of_the_rsa_at_the_start(africa: AfricaII) -> None:
    start = africa.initial_position()
    assert {start.units[p].power for p in ("win", "wal")} == {"RSA"}
    assert {start.centers[p] for p in ("win", "wal")} == {"RSA"}
    assert {"win", "wal", "joh"} <= africa.home_centers(start)["RSA"]
    influence = _influence(africa, 1961)
    assert order_problems(africa, influence, RUSSIA, [africa.parse_order("5: Namibia")]) == [
        "5: Namibia: Namibia is part of RSA (spend IPs on a state)"
    ]


def test_c2_the_rsas_controller_may_declare_namibia_independent(africa: AfricaII) -> None:
    spring = _at(africa, "S1962M", control={"RSA": RUSSIA})
    declare = [africa.parse_order("Declare Namibia independent")]
    assert order_problems(africa, spring, "France", declare) == [
        "Declare Namibia independent: only the power controlling RSA declares it (rules c.2)"
    ]
    assert order_problems(africa, spring, RUSSIA, declare) == []
    result = _play(africa, spring, {RUSSIA: ["Declare Namibia independent"]})
    after = result.after
    assert "   Soviet Union declares Namibia independent (rules c.2)" in result.public
    assert africa.home_centers(after)["Namibia"] == {"win", "wal"}
    assert {"win", "wal"}.isdisjoint(africa.home_centers(after)["RSA"])
    assert {after.centers[p] for p in ("win", "wal")} == {"Namibia"}
    assert {after.units[p].power for p in ("win", "wal")} == {"Namibia"}
    assert order_problems(africa, after, RUSSIA, declare) == [
        "Declare Namibia independent: Namibia is independent already"
    ]
    influence = _influence(africa, 1962, start=after, revenue={US: 12})
    spent = _play(africa, influence, {US: ["3: Namibia"]})
    assert _ledger(spent.after).control["Namibia"] == US


def test_c2_namibia_taken_from_the_rsa_is_re_established_as_a_state(africa: AfricaII) -> None:
    held = {"Botswana": {"China": 6}, "RSA": {RUSSIA: 9}}
    autumn = _at(
        africa,
        "A1962R",
        units={"win": "Botswana", "wal": "Botswana"},
        holdings=held,
        control={"Botswana": "China", "RSA": RUSSIA},
    )
    winter = _play(africa, autumn).after
    assert {winter.centers[p] for p in ("win", "wal")} == {"Namibia"}
    assert {winter.units[p].power for p in ("win", "wal")} == {"Namibia"}
    assert _ledger(winter).independent == ("Namibia",)
    assert _ledger(winter).holdings["Namibia"] == {"China": 6}
    assert "Namibia" not in _ledger(winter).control  # until the Spring review (c.1, a.5)
    # The RSA holding them, as it does from the start, conquers nothing.
    quiet = _play(africa, _at(africa, "A1962R")).after
    assert _ledger(quiet).independent == ()


def test_c2_namibia_liberated_by_one_powers_guerillas_on_win_and_wal(africa: AfricaII) -> None:
    forces = {"win": "China G", "wal": "China G"}
    result = _play(africa, _at(africa, "A1962R", forces=forces, revenue={"China": 12}))
    after = result.after
    ledger = _ledger(after)
    assert ledger.independent == ("Namibia",) and ledger.liberator == "China"
    assert {after.units[p].power for p in ("win", "wal")} == {"Namibia"}
    assert {after.centers[p] for p in ("win", "wal")} == {"Namibia"}
    assert "China's guerillas liberate Namibia (rules c.2)" in phase_report(
        africa, result, OBSERVER
    )
    influence = _play(africa, after).after
    spent = _play(africa, influence, {"China": ["3: Namibia", "2: Kenya"]})
    assert _ledger(spent.after).holdings == {"Namibia": {"China": 6}, "Kenya": {"China": 2}}
    assert victory_points(africa.book, spent.after)["China"]["liberation"] == 3
    # Two powers' guerillas liberate nothing.
    shared = {"win": "China G", "wal": "Soviet Union G"}
    assert _ledger(_play(africa, _at(africa, "A1962R", forces=shared)).after).independent == ()


def test_c3_military_aid_keeps_or_raises_a_unit_for_five_ips(africa: AfricaII) -> None:
    autumn = _at(africa, "A1962M", control={"Kenya": RUSSIA})
    assert order_problems(africa, autumn, "France", [africa.parse_order("Aid Kenya")]) == [
        "Aid Kenya: France does not control Kenya (rules c.3)"
    ]
    spring = _at(africa, "S1963M", control={"Kenya": RUSSIA})
    assert order_problems(africa, spring, RUSSIA, [africa.parse_order("Aid Kenya")]) == [
        "Aid Kenya: not an order for a movement phase"
    ]
    result = _play(africa, autumn, {RUSSIA: ["Aid Kenya", "A nai - aru"]})
    winter = result.after
    assert "Builds: Kenya 1 (Soviet Union)" in position_report(africa, winter, OBSERVER)  # the aid
    built = _play(africa, winter, {RUSSIA: ["Build A nai"]})
    assert len([u for u in built.after.units.values() if u.power == "Kenya"]) == 4
    assert _ledger(built.after).revenue[RUSSIA] == 12 + 3 - 5
    assert _ledger(built.after).aid == {}  # the aid lasts for one game year
    # Without it, no build.
    plain = _play(africa, autumn, {RUSSIA: ["A nai - aru"]}).after
    assert plain.phase == Phase(1963, SPRING, MOVEMENT)
    assert _ledger(plain).revenue[RUSSIA] == 15


def test_c3_aid_has_no_limit_and_aid_beyond_the_states_units_is_warned_and_charged(
    africa: AfricaII,
) -> None:
    """c.3 (issue 28, point 4): "There is no limit to the amount of aid that may be
    given": aid beyond the giver's income is accepted. Aid beyond the state's units can
    have no effect (each center's worth keeps or raises one unit, and a state builds only
    on its own home centers): the giver is warned, and charged all the same."""
    autumn = _at(africa, "A1962M", control={"Kenya": RUSSIA})
    procedure = africa.calendar.procedure(autumn.phase)
    within = [africa.parse_order("Aid 3 Kenya")]
    assert order_problems(africa, autumn, RUSSIA, within) == []
    assert procedure.cautions(africa, autumn, RUSSIA, within) == []
    beyond = [africa.parse_order("Aid 4 Kenya")]  # 20 IPs, more than its 15
    assert order_problems(africa, autumn, RUSSIA, beyond) == []
    assert procedure.cautions(africa, autumn, RUSSIA, beyond) == [
        "Aid 4 Kenya: aid of 4 in all to Kenya, which has 3 units: aid beyond them can "
        "have no effect, and is charged 5 IPs each all the same (rules c.3)"
    ]
    assert procedure.cautions(africa, autumn, "France", beyond) == []  # not France's to give
    spring = _play(africa, autumn, {RUSSIA: ["Aid 4 Kenya"]}).after  # nothing to adjust
    assert spring.phase == Phase(1963, SPRING, MOVEMENT)
    assert _ledger(spring).revenue[RUSSIA] == 0  # 15 less 20, never below nothing
    # Aid given in the movement counts with more given in the retreats.
    retreats = _at(africa, "A1962R", control={"Kenya": RUSSIA}, removed=["mom"])
    given = replace(_ledger(retreats), aid={"Kenya": {RUSSIA: 1}})
    retreats = retreats.evolve(state=given)
    assert africa.calendar.procedure(retreats.phase).cautions(
        africa, retreats, RUSSIA, [africa.parse_order("Aid 2 Kenya")]
    ) == [
        "Aid 2 Kenya: aid of 3 in all to Kenya, which has 2 units: aid beyond them can "
        "have no effect, and is charged 5 IPs each all the same (rules c.3)"
    ]


def test_c4_the_random_events_are_an_option_rolled_each_spring_once_each(
    africa: AfricaII,
) -> None:
    spring = _at(africa, "S1962M", events=(2, 5))
    assert africa.chances(spring) == ()
    events = africa.configure({"random_events": True})
    (die,) = events.chances(spring)
    assert (die.name, die.sides, die.rerolled) == (RANDOM_EVENT, 10, (2, 5))
    assert events.chances(_at(africa, "A1962M")) == ()
    assert events.chances(_at(africa, "S1962M", events=tuple(range(1, 11)))) == ()
    result = play_phase(events, spring, {}, {RANDOM_EVENT: 7})
    assert _ledger(result.after).events == (2, 5, 7) and _ledger(result.after).event == 7
    assert "Random event 7: Coup in Uganda" in result.public
    # Once all ten came up, none: last year's is over, and applies no more.
    spent = _at(africa, "S1971M", events=tuple(range(1, 11)), event=3)
    assert _ledger(play_phase(events, spent, {}).after).event == 0


@pytest.fixture(scope="module")
def events(africa: AfricaII) -> AfricaII:
    configured = africa.configure({"random_events": True})
    assert isinstance(configured, AfricaII)
    return configured


def _rolled(variant: AfricaII, number: int, **ledger: Unpack[Changes]) -> PhaseResult:
    return _play(variant, _at(variant, "S1962M", **ledger), draws={RANDOM_EVENT: number})


def test_c4_event_1_biafra_secedes_and_ends_when_port_harcourt_is_captured(
    events: AfricaII,
) -> None:
    result = _rolled(events, 1, revenue={"China": 12})
    after = result.after
    assert "   Nigeria's A Phc is disbanded" in result.public
    assert after.units["phc"].power == "Biafra" and after.centers["phc"] == "Biafra"
    assert events.home_centers(after)["Biafra"] == {"phc"}
    assert events.home_centers(after)["Nigeria"] == {"lag", "kan"}
    spent = _play(events, after, {"China": ["5: Biafra", "2: Nigeria"]})  # counts double
    assert _ledger(spent.after).holdings == {"Biafra": {"China": 10}, "Nigeria": {"China": 2}}
    # Nigeria retakes Port Harcourt: Biafra is over, its center Nigeria's home again.
    autumn = _at(
        events,
        "A1962M",
        start=spent.after,
        units={"kad": "Nigeria"},
        control={"Nigeria": "China"},
    )
    taken = _play(events, autumn, {"China": ["A kad S A lag - phc", "A lag - phc"]})
    winter = taken.after
    assert winter.centers["phc"] == "Nigeria"
    assert _ledger(winter).independent == ()
    assert "phc" in events.home_centers(winter)["Nigeria"]
    assert "Biafra" not in _ledger(winter).holdings
    assert "Biafra is captured: its center is its old state's home again (rules c.4)" in (
        phase_report(events, taken, OBSERVER)
    )


def test_c4_event_10_katanga_secedes_at_elisabethville(events: AfricaII) -> None:
    after = _rolled(events, 10).after
    assert after.units["eli"].power == "Katanga" and after.centers["eli"] == "Katanga"
    assert events.home_centers(after)["Congo (Leopoldville)"] == {"leo", "sta"}
    assert "Katanga" in _ledger(after).doubled


def test_c4_revenue_events_change_this_springs_ips(events: AfricaII) -> None:
    revenue = {p: 12 for p in events.powers}
    expected = {
        2: {"Britain": 13, "China": 13, "France": 8, RUSSIA: 13, US: 13},
        4: {"Britain": 13, "China": 13, "France": 13, RUSSIA: 13, US: 8},
        6: {"Britain": 10, "China": 10, "France": 10, RUSSIA: 10, US: 10},
        8: {"Britain": 13, "China": 8, "France": 13, RUSSIA: 8, US: 13},
        9: {"Britain": 8, "China": 13, "France": 13, RUSSIA: 13, US: 13},
    }
    for number, changed in expected.items():
        after = _rolled(events, number, revenue=revenue).after
        assert _ledger(after).revenue == changed, number


def test_c4_event_3_riots_double_ips_in_the_rsa_and_halve_them_elsewhere(
    events: AfricaII,
) -> None:
    influence = _rolled(events, 3, revenue={RUSSIA: 12, US: 12}).after
    result = _play(
        events,
        influence,
        {
            RUSSIA: ["3: RSA", "5: Kenya", "4: Rhodesia"],  # spends in the RSA
            US: ["5: Kenya"],  # does not: its IPs count as spent
        },
    )
    assert _ledger(result.after).holdings == {
        "RSA": {RUSSIA: 6},
        "Kenya": {RUSSIA: 3, US: 5},
        "Rhodesia": {RUSSIA: 4},
    }
    notes = {(o.power, o.text): o.note for o in result.outcomes}
    assert notes[RUSSIA, "5: Kenya"] == "Spent: counts 3"
    assert notes[RUSSIA, "4: Rhodesia"] == "Spent"  # the riots spare Rhodesia
    assert notes[RUSSIA, "3: RSA"] == "Spent: counts 6"
    assert notes[US, "5: Kenya"] == "Spent"


def test_c4_event_5_the_east_african_union_is_controlled_by_the_most_ips_in_all(
    events: AfricaII,
) -> None:
    influence = _rolled(events, 5, revenue={RUSSIA: 12, US: 12}).after
    result = _play(
        events,
        influence,
        {
            RUSSIA: ["6: Kenya"],
            US: ["5: Uganda", "4: Tanganyika"],
        },
    )
    control = _ledger(result.after).control
    assert [control[s] for s in ("Kenya", "Uganda", "Tanganyika")] == [US, US, US]
    # Without the union, each state its own.
    plain = _play(
        events,
        _influence(events, 1962, revenue={RUSSIA: 12, US: 12}),
        {RUSSIA: ["6: Kenya"], US: ["5: Uganda", "4: Tanganyika"]},
    )
    assert _ledger(plain.after).control["Kenya"] == RUSSIA


def test_c4_event_7_the_uganda_coup_takes_the_ips_of_those_who_spend_nothing_there(
    events: AfricaII,
) -> None:
    held = {"Uganda": {RUSSIA: 8, US: 8, "France": 8}}
    influence = _rolled(events, 7, holdings=held, revenue={RUSSIA: 12, US: 12}).after
    result = _play(events, influence, {RUSSIA: ["1: Uganda"], US: ["3: Kenya"]})
    assert _ledger(result.after).holdings["Uganda"] == {RUSSIA: 5}
    assert "IPs lost in Uganda's coup: France 4, United States 4" in phase_report(
        events, result, OBSERVER
    )


# --- d. Victory conditions ----------------------------------------------------------------


def test_di_21_centers_win_at_any_time_a_spring_ip_phase_included(africa: AfricaII) -> None:
    ours = ["RSA", "Congo (Leopoldville)", "Kenya", "Nigeria", "Egypt", "Ethiopia", "Rhodesia"]
    control = dict.fromkeys(ours, RUSSIA)  # 20 centers
    held = {s: {RUSSIA: 2} for s in ours}
    influence = _influence(africa, 1962, control=control, holdings=held, revenue={RUSSIA: 12})
    assert not _play(africa, influence, {RUSSIA: ["2: Kenya"]}).end
    result = _play(africa, influence, {RUSSIA: ["1: Uganda"]})
    assert result.before.phase.kind is INFLUENCE
    assert result.end == GameEnd(Termination.SOLO, winners=(RUSSIA,))
    assert "Victory: Soviet Union wins the game." in phase_report(africa, result, OBSERVER)


def test_dii_victory_points_after_the_last_autumn(africa: AfricaII) -> None:
    # Each power: 1 VP an IP it would gain next Spring, 3 a state where it holds the most
    # IPs alone (Togo, with no center, counts; Uganda, a tie, does not), 3 for Namibia.
    held = {
        "Kenya": {RUSSIA: 5, "France": 2},
        "Togo": {RUSSIA: 1},
        "Uganda": {US: 3, "China": 3},
        "Angola": {US: 4},
    }
    control = {"Kenya": RUSSIA, "Togo": RUSSIA, "Angola": US}
    last = _at(africa, "A1970R", holdings=held, control=control, liberator="France")
    result = _play(africa, last)
    points = victory_points(africa.book, result.after)
    assert points[RUSSIA] == {"income": 15, "states": 6, "liberation": 0}
    assert points[US] == {"income": 13, "states": 3, "liberation": 0}
    assert points["France"] == {"income": 12, "states": 0, "liberation": 3}
    assert points["China"] == {"income": 12, "states": 0, "liberation": 0}
    assert result.end == GameEnd(Termination.POINTS, winners=(RUSSIA,))
    assert "   Soviet Union: 21 (income 15, states 6)" in phase_report(africa, result, OBSERVER)
    # A tie in points is a draw.
    even = _at(africa, "A1970R", holdings={"Togo": {US: 1}, "Dahomey": {RUSSIA: 1}})
    assert _play(africa, even).end == GameEnd(Termination.POINTS, draw=(RUSSIA, US))


# --- the saved state --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("event", 42, "state.events: 42 is no random event's number"),
        ("independent", ["Kenya"], "state.independent: Kenya is part of no other state"),
        ("control", {"Kenya": "Russia"}, "state.control.Kenya: 'Russia' is not a power"),
        ("holdings", {"Atlantis": {}}, "state.holdings: 'Atlantis' is not a state"),
        ("revenue", {"France": -1}, "state.revenue.France: expected a whole number from 0"),
    ],
)
def test_a_saved_ledger_is_read_back_with_every_field_checked(
    africa: AfricaII, field: str, value: object, reason: str
) -> None:
    data = view_to_json(Ledger.of(africa.initial_position()).view(MASTER))
    assert africa.read_state(data) == Ledger.of(africa.initial_position())
    with pytest.raises(ValueError, match=re.escape(reason)):
        africa.read_state({**data, field: value})
    with pytest.raises(ValueError, match="state: field 'news' missing"):
        africa.read_state({k: v for k, v in data.items() if k != "news"})


# --- issue 28, point 7: what players read ---------------------------------------------------


def test_civil_war_refused_with_a12s_reason_where_no_one_may_declare_it(
    africa: AfricaII,
) -> None:
    """a.12 (issue 28, point 7): "Civil war Kenya" sent in a movement phase where nobody
    was ousted is refused with the rule's reason, not as an order of another phase."""
    spring = _at(africa, "S1962M", control={"Kenya": RUSSIA})
    assert _raised(africa, spring, "France", "Civil war Kenya") == [
        "Civil war Kenya: France was not ousted from Kenya at the last IP phase by a power "
        "that held no IPs there (rules a.12)"
    ]


def test_a_drop_or_an_entry_into_an_occupied_province_is_refused_with_the_rules_reason(
    africa: AfricaII,
) -> None:
    """b.4, b.6 (issue 28, point 7): a paratroop drops, a fleet enters, only into an
    unoccupied province; the refusal says so (it gave no reason)."""
    spring = _at(africa, "S1962M", forces={"sao": "Britain F"})
    assert _raised(africa, spring, "France", "P OFFBOARD - kis", "F OFFBOARD - sao") == [
        "P OFFBOARD - Kis: Kisumu is occupied: a paratroop drops into an unoccupied land "
        "province (rules b.4)",
        "F OFFBOARD - Sao: South Atlantic Ocean is occupied: a fleet enters an unoccupied sea "
        "(rules b.6)",
    ]


def test_unordered_units_disbanded_with_a_retreat_open_are_told_why(africa: AfricaII) -> None:
    """a.11 (issue 28, point 7): uncontrolled Kenya's army in Nairobi, dislodged with
    Kisumu open to it, is disbanded because nobody may order its retreat: the report says
    so, and does not list it as having no retreat possible."""
    spring = _at(
        africa,
        "S1962M",
        removed=["kis"],
        units={"aru": "Tanganyika", "nfd": "Tanganyika"},
        control={"Tanganyika": RUSSIA},
    )
    result = _play(africa, spring, {RUSSIA: ["A aru - nai", "A nfd S A aru - nai"]})
    assert "nai" not in result.after.dislodged and result.after.units["nai"].power == "Tanganyika"
    report = phase_report(africa, result, OBSERVER)
    assert "Destroyed (no retreat possible)" not in report
    assert (
        "Kenya: A Nai disbanded: nobody controls Kenya, its units stand unordered (rules a.11)"
    ) in report


def test_the_rulebooks_own_notation_is_read(africa: AfricaII) -> None:
    """b.5, b.8 (issue 28, point 7): the rulebook writes `M.(SAO) - Lus`,
    `P.(Joh) - OFFBOARD`, `M.(Dca) - F.(GXX)`: read as the judge's own notation; a
    refusal names the order as written."""
    assert africa.parse_order("M.(SAO) - Lus").format() == "M Sao - Lus"
    assert africa.parse_order("P.(Joh) - OFFBOARD").format() == "P Joh - OFFBOARD"
    assert africa.parse_order("M.(Dca) - F.(Gog)").format() == "M Dca - F Gog"
    with pytest.raises(ValueError, match=re.escape("'M.(Xyz) - Lus': 'xyz' is not a province")):
        africa.parse_order("M.(Xyz) - Lus")


def test_namibias_independence_is_offered_only_until_it_is_independent(
    africa: AfricaII,
) -> None:
    """c.2 (issue 28, point 7): the RSA's controller is offered "Declare Namibia
    independent" while Namibia is part of the RSA, and no longer once it is independent."""
    spring = _at(africa, "S1962M", control={"RSA": RUSSIA})

    def declarations(position: Position) -> list[str]:
        return [
            c.text
            for f in offered(africa, position, RUSSIA)
            for c in f.choices
            if "Declare" in c.text
        ]

    assert declarations(spring) == ["Declare Namibia independent"]
    declared = _play(africa, spring, {RUSSIA: ["Declare Namibia independent"]}).after
    assert _ledger(declared).independent == ("Namibia",)
    assert declarations(declared) == []
