"""Europe 1615: the rules of ../shared/rules/europe_1615.txt that the judge applies, each
test naming the rules' heading it checks."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from hegemon.cli import main
from hegemon.game import PhaseResult, play_phase
from hegemon.influence.inf import Deploy
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order
from hegemon.position import OBSERVER, Phase, PhaseKind, Position, Season, Unit, Viewer
from hegemon.randomplay import random_game
from hegemon.report import phase_report
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import Europe1615, Ledger


@pytest.fixture(scope="module")
def eu() -> Europe1615:
    variant = load_variant("europe_1615")
    assert isinstance(variant, Europe1615)
    return variant


def _orders(
    eu: Europe1615, spec: Mapping[str, Sequence[str]], at: Position
) -> dict[str, list[Order]]:
    return {p: [eu.parse_order(t, at.all_units) for t in texts] for p, texts in spec.items()}


def _play(eu: Europe1615, at: Position, spec: Mapping[str, Sequence[str]]) -> PhaseResult:
    return play_phase(eu, at, _orders(eu, spec, at))


def _with_ledger(at: Position, **changes: object) -> Position:
    ledger = replace(Ledger.of(at), **changes)  # type: ignore[arg-type]
    return at.evolve(state=ledger)


def _notes(result: PhaseResult) -> dict[str, str]:
    return {o.text: o.note for o in result.outcomes}


def _summer(eu: Europe1615) -> Position:
    start = eu.initial_position()
    return start.evolve(phase=Phase(1615, Season.SUMMER, PhaseKind.MOVEMENT))


# --- the Spring 1615 example ---------------------------------------------------------------

SPRING_1615 = {
    "Scandinavia": ["10: DUT", "5: MEC", "5: BRU", "F nwy - nth", "F dut S F nwy - nth",
                    "A den - mec", "A bru S A den - mec"],
    "England": ["5: DUT", "16: HUN", "A hun - pre"],
    "Austria": ["14: HUN", "8: POL", "A slo - pre"],
    "Spain": ["5: MEC", "5: WES", "A net - dut", "A wes S A net - dut"],
}  # fmt: skip


@pytest.fixture(scope="module")
def spring(eu: Europe1615) -> PhaseResult:
    return _play(eu, eu.initial_position(), SPRING_1615)


def test_example_dut_protestant_controlled_and_scandinavias_orders_followed(
    spring: PhaseResult,
) -> None:
    # EXAMPLE OF PLAY: "DUT is Protestant-controlled ... Scandinavia holds ... 66% ...
    # Scandinavia's order for DUT S NWY-NTH is followed, but fails since Spain supports
    # NET-DUT, dislodging the fleet (it is also disbanded as no retreats are allowed)".
    assert (
        "   Dutch Provinces: ALIGNED with Scandinavia; Protestant (England 33%, Scandinavia 66%)"
        in spring.public
    )
    notes = _notes(spring)
    assert notes["F Dut S F Nwy - Nth"].startswith("Cut by A Net")
    assert "Dislodged by A Net" in notes["F Dut S F Nwy - Nth"]
    assert [u.location for u in spring.destroyed] == ["dut"]
    assert spring.after.units["dut"].power == "Spain"


def test_example_neutral_mecklenburg_stops_den_mec(spring: PhaseResult) -> None:
    # "Scandinavia's DEN-MEC fails, even with support, due to the established neutral MEC".
    assert "   Mecklenburg: NEUTRAL (Scandinavia 50%, Spain 50%)" in spring.public
    assert _notes(spring)["A Den - Mec"] == "Void: no unit may enter Mecklenburg"
    assert spring.after.units["den"].power == "Scandinavia"


def test_example_poland_aligned_with_austria_but_not_catholic(spring: PhaseResult) -> None:
    # "Poland is aligned with Austria ... not Catholic-controlled ... did not meet the
    # required 10 INFs".
    assert "   Poland: ALIGNED with Austria (Austria 100%)" in spring.public


def test_example_hungary_aligned_with_england_and_protestant(spring: PhaseResult) -> None:
    # "England gains the alignment and the state is Protestant-controlled ... 53% ...
    # England's order HUN-PRE is followed, but causes a standoff with SLO-PRE".
    assert (
        "   Hungary: ALIGNED with England; Protestant (Austria 46%, England 53%)" in spring.public
    )
    notes = _notes(spring)
    assert notes["A Hun - Pre"] == "Bounced 1v1 (with Slo)"
    assert notes["A Slo - Pre"] == "Bounced 1v1 (with Hun)"


def test_example_the_ottoman_empire_and_barbary_states_are_neutral(spring: PhaseResult) -> None:
    # "Ottoman Empire and the Barbary States are also neutral, by default".
    assert "   Ottoman Empire: NEUTRAL" in spring.public
    assert "   Morocco: NEUTRAL; Islamic" in spring.public


def test_example_report_gives_percentages_never_numbers(
    eu: Europe1615, spring: PhaseResult
) -> None:
    # STATUS: "does not reveal the actual number of INFs deployed by each power".
    report = phase_report(eu, spring)
    assert "16: HUN" not in report and "INFs" not in report.split("States")[1]


# --- the diplomatic attack example ------------------------------------------------------


def test_diplomatic_attack_example(eu: Europe1615) -> None:
    # THE DIPLOMATIC ATTACK ORDER, "Example of play": England 5, France 10, Spain 5 in LOR.
    summer = _with_ledger(_summer(eu), inf={"lor": {"England": 5, "France": 10, "Spain": 5}})
    result = _play(
        eu,
        summer,
        {
            "England": ["LOR > France", "A lor - cha"],
            "France": ["LOR > Spain", "A lor - als"],
            "Spain": ["LOR > England", "A lor - lux"],
        },
    )
    lines = result.public
    attacks = list(lines[lines.index("Diplomatic attacks") + 1 : lines.index("States")])
    assert attacks == [
        "   England attacks France in Lorraine (England 5, France 10, Spain 5): each loses 5 INFs",
        "   France attacks Spain in Lorraine (France 5, Spain 5): each loses 5 INFs",
        "   Spain attacks England in Lorraine (): FAILED",
    ]
    assert Ledger.of(result.after).inf.get("lor", {}) == {}
    assert Ledger.of(result.after).standing("lor").value == "UNMARKED"
    assert result.after.units["lor"].power == "Lorraine"  # the orders to LOR were ignored
    assert "A Lor - Cha" not in _notes(result)
    assert "   England: A Lor - Cha (Lorraine is UNMARKED)" in lines


def test_diplomatic_attacks_once_a_year_not_first_phase_not_ottoman(eu: Europe1615) -> None:
    start = eu.initial_position()
    first = eu.parse_order("LOR > France")
    assert eu.order_problems(start, "England", [first]) == [
        "LOR > France: no diplomatic attacks in the first movement phase"
    ]
    summer = _summer(eu)
    assert eu.order_problems(summer, "England", [eu.parse_order("OTE > France")]) == [
        "OTE > France: no diplomatic attacks in the Ottoman Empire"
    ]
    used = _with_ledger(summer, attacked=["England"])
    assert eu.order_problems(used, "England", [first]) == [
        "England may make only one diplomatic attack a year"
    ]


# --- deployments --------------------------------------------------------------------------


def test_deployments_never_exceed_the_years_income(eu: Europe1615) -> None:
    # DEPLOYMENT: "players cannot deploy more than the available INFs for the year".
    start = eu.initial_position()
    income = Ledger.of(start).income["France"]
    assert income == 68  # the example's "all INFs": 16 + 16 + 5 + 25 + 6
    assert eu.order_problems(start, "France", [eu.parse_order(f"{income + 1}: LOR")]) == [
        f"deployments total {income + 1} INFs, but France has {income} left this year"
    ]
    spent = _with_ledger(start, spent={"France": 60})
    assert eu.order_problems(spent, "France", [eu.parse_order("9: LOR")]) == [
        "deployments total 9 INFs, but France has 8 left this year"
    ]


def test_the_french_example_deployment(eu: Europe1615) -> None:
    # DEPLOYMENT: France deploys 16 WUR, 16 RHI, 5 BRU, 25 LOR, 6 SAV and FRA may take INFs.
    start = eu.initial_position()
    orders = [eu.parse_order(t) for t in ("16: WUR", "16: RHI", "5: BRU", "25: LOR", "6: SAV")]
    assert eu.order_problems(start, "France", orders) == []
    result = play_phase(eu, start, {"France": orders})
    assert Ledger.of(result.after).spent == {"France": 68}
    assert eu.order_problems(start, "Spain", [eu.parse_order("5: FRA")]) == []


def test_papal_states_take_catholic_infs_only(eu: Europe1615) -> None:
    start = eu.initial_position()
    assert eu.order_problems(start, "England", [eu.parse_order("5: PAP")]) == [
        "5: PAP: only Catholic powers may deploy to Papal States"
    ]
    assert eu.order_problems(start, "Spain", [eu.parse_order("5: PAP")]) == []


def test_unused_infs_are_lost_at_the_years_end(eu: Europe1615) -> None:
    fall = _with_ledger(eu.initial_position(), spent={"France": 10}).evolve(
        phase=Phase(1615, Season.FALL, PhaseKind.RETREAT)
    )
    winter = play_phase(eu, fall.evolve(dislodged={}), {}).after
    assert Ledger.of(winter).spent == {}


# --- statuses and what they do ------------------------------------------------------------


def test_aligned_unit_obeys_its_patron_wherever_it_is(eu: Europe1615) -> None:
    # STATUS (3): "the unit ... will follow the ... order submitted by the major power".
    summer = _with_ledger(_summer(eu), inf={"sax": {"Austria": 10}})
    result = _play(eu, summer, {"Austria": ["A sax - sil"]})
    assert result.after.units["sil"].power == "Saxony"
    assert _notes(result)["A Sax - Sil"] == "Succeeds"


def test_orders_to_an_unaligned_state_are_ignored(eu: Europe1615) -> None:
    summer = _with_ledger(_summer(eu), inf={"sax": {"Austria": 4}})
    result = _play(eu, summer, {"Austria": ["A sax - bra"]})
    assert result.after.units["sax"].power == "Saxony"


def test_patron_may_not_dislodge_its_aligned_unit(eu: Europe1615) -> None:
    # STATUS (3): "The major power cannot dislodge or support the dislodgment of the
    # aligned minor state's unit, even if that dislodgment is unexpected."
    summer = _with_ledger(_summer(eu), inf={"sav": {"France": 10}})
    result = _play(eu, summer, {"France": ["A pro - sav", "A lyo S A pro - sav"]})
    assert result.after.units["sav"].power == "Savoy"


def test_nobody_enters_a_neutral_state(eu: Europe1615) -> None:
    # STATUS (2): "no major power can enter the minor state".
    summer = _with_ledger(_summer(eu), inf={"sav": {"France": 5, "Spain": 5}})
    units = {p: u for p, u in summer.units.items() if p != "sav"}
    result = _play(eu, summer.evolve(units=units), {"France": ["A pro - sav"]})
    assert "sav" not in result.after.units


def test_neutral_unit_in_its_own_state_cannot_be_supported(eu: Europe1615) -> None:
    # STATUS (2): "Neutral units within neutral states cannot receive support."
    summer = _with_ledger(_summer(eu), inf={"sav": {"France": 5, "Spain": 5}})
    result = _play(eu, summer, {"Spain": ["A mil S A sav"]})
    assert _notes(result)["A Mil S A Sav H"] == "No effect: A Sav may not be supported"


def test_minor_units_never_retreat_ottoman_units_do(eu: Europe1615) -> None:
    # Other rules, Disbanding: "no retreats allowed ... units of the Ottoman Empire are
    # allowed to retreat".
    rules = eu.rules_for(eu.initial_position())
    assert not rules.retreats(Unit("Saxony", eu.states["sax"].units[0].type, "sax"))
    assert rules.retreats(eu.ottoman.units[0])
    assert not rules.captures_centers(Unit("Saxony", eu.states["sax"].units[0].type, "vie"))
    assert rules.captures_centers(eu.ottoman.units[0])


# --- the year's end -----------------------------------------------------------------------


def _winter_from(eu: Europe1615, position: Position, year: int = 1615) -> PhaseResult:
    fall = position.evolve(phase=Phase(year, Season.FALL, PhaseKind.RETREAT), dislodged={})
    return play_phase(eu, fall, {})


def test_capture_withdraws_the_state_for_good(eu: Europe1615) -> None:
    # CAPTURE OF THE MINOR STATE: no more INFs, alignment lost, religion kept.
    start = _with_ledger(
        eu.initial_position(),
        inf={"sax": {"Scandinavia": 12}, "bru": {"Spain": 6}},
        religion={"sax": "Protestant"},
        status={"sax": ["ALIGNED", "Scandinavia"]},
    )
    units = {**start.units, "sax": Unit("Austria", start.units["vie"].type, "sax")}
    after = _winter_from(eu, start.evolve(units=units)).after
    ledger = Ledger.of(after)
    assert after.centers["sax"] == "Austria"
    assert "sax" in ledger.captured and "sax" not in ledger.inf
    assert ledger.religion["sax"] == "Protestant"
    assert ledger.patron("sax") is None
    spring = after.evolve(phase=Phase(1616, Season.SPRING, PhaseKind.MOVEMENT))
    assert eu.order_problems(spring, "Spain", [eu.parse_order("5: SAX")]) == [
        "5: SAX: Saxony was captured and takes no INFs"
    ]


def test_foreign_unit_in_a_neutral_state_is_interned(eu: Europe1615) -> None:
    # Concerning neutrality: "if the army maintains its position into a build phase, it is
    # then interned and disbanded".
    start = _with_ledger(eu.initial_position(), status={"fra": ["NEUTRAL", None]},
                         inf={"fra": {"Spain": 5, "France": 5}})  # fmt: skip
    units = {**start.units, "fra": Unit("Spain", start.units["lux"].type, "fra")}
    after = _winter_from(eu, start.evolve(units=units)).after
    assert "fra" not in after.units


def test_minor_unit_rebuilt_when_its_center_is_free(eu: Europe1615) -> None:
    # BUILD PHASE, Re-building a minor state's army.
    start = eu.initial_position()
    units = {p: u for p, u in start.units.items() if p != "sax"}
    winter = _winter_from(eu, start.evolve(units=units)).after
    assert winter.phase.kind is PhaseKind.ADJUSTMENT  # played for the rebuild alone
    after = play_phase(eu, winter, {}).after
    assert after.units["sax"].power == "Saxony"


def test_scoring_saxony_148_295_and_75(eu: Europe1615) -> None:
    # SCORING PHASE: Saxony aligned with Austria 148 VPs, also Catholic 295; captured 75.
    aligned = _with_ledger(eu.initial_position(), inf={"sax": {"Austria": 6}})
    catholic = _with_ledger(eu.initial_position(), inf={"sax": {"Austria": 12}})
    scores = [
        Ledger.of(_winter_from(eu, p, 1616).after).vp.get("Austria", 0) for p in (aligned, catholic)
    ]
    assert scores == [148, 295]
    start = eu.initial_position()
    units = {**start.units, "sax": Unit("Scandinavia", start.units["den"].type, "sax")}
    captured = _winter_from(eu, start.evolve(units=units), 1616).after
    assert Ledger.of(captured).vp["Scandinavia"] == 75


def test_no_scoring_outside_scoring_years(eu: Europe1615) -> None:
    aligned = _with_ledger(eu.initial_position(), inf={"sax": {"Austria": 6}})
    assert Ledger.of(_winter_from(eu, aligned, 1615).after).vp == {}


def test_income_changes_with_captures_and_losses(eu: Europe1615) -> None:
    # GAIN AND LOSS OF INFLUENCE: a captured center's INFs are gained, a lost home
    # center's are lost.
    start = eu.initial_position()
    units = {p: u for p, u in start.units.items() if p not in ("sax", "vie")}
    units["sax"] = Unit("Austria", start.units["boh"].type, "sax")
    units["vie"] = Unit("Spain", start.units["mil"].type, "vie")
    after = _winter_from(eu, start.evolve(units=units)).after
    income = Ledger.of(after).income
    base = eu.income_table["Austria"][1616]
    assert income["Austria"] == base + eu.states["sax"].inf - eu.home_values["vie"][0]
    assert income["Spain"] == eu.income_table["Spain"][1616] + eu.home_values["vie"][0]


def test_no_infs_from_a_center_of_the_opposite_religion(eu: Europe1615) -> None:
    # GAIN AND LOSS (1): "If the captured supply center of a minor state is controlled by
    # the opposition religion ... no gain of INFs is possible".
    start = _with_ledger(eu.initial_position(), religion={"sax": "Catholic"},
                         inf={"sax": {"Austria": 12}})  # fmt: skip
    units = {**start.units, "sax": Unit("Scandinavia", start.units["den"].type, "sax")}
    after = _winter_from(eu, start.evolve(units=units)).after
    assert Ledger.of(after).income["Scandinavia"] == eu.income_table["Scandinavia"][1616]


def test_builds_in_ports_only_for_fleets(eu: Europe1615) -> None:
    # BUILD PHASE: "home ports and captured ports ... may be used as a build site for fleets".
    start = eu.initial_position()
    units = {p: u for p, u in start.units.items() if p not in ("slo", "bri")}
    winter = start.evolve(units=units, phase=Phase(1615, Season.WINTER, PhaseKind.ADJUSTMENT))
    assert eu.board.is_coastal("slo") and not eu.board.provinces["slo"].port
    result = _play(eu, winter, {"Austria": ["Build F slo"], "France": ["Build F bri"]})
    notes = _notes(result)
    assert notes["Build F Slo"] == "Void: Slovenia is not a port"
    assert notes["Build F Bri"] == "Built"


# --- victory --------------------------------------------------------------------------------


def _final(eu: Europe1615, vp: dict[str, int], **changes: object) -> PhaseResult:
    position = _with_ledger(eu.initial_position(), vp=vp, **changes)
    return _winter_from(eu, position, 1620)


def test_most_vps_win_after_1620(eu: Europe1615) -> None:
    result = _final(eu, {"France": 900, "Spain": 800})
    assert result.end.winners == ("France",)


def test_vp_tie_goes_to_more_centers(eu: Europe1615) -> None:
    # VICTORY CONDITIONS: "tie in VPs ... the player with the most supply centers".
    result = _final(eu, {"Austria": 500, "Spain": 500})
    assert result.end.winners == ("Spain",)  # six home centers to Austria's four


def test_automatic_protestant_victory_by_rome(eu: Europe1615) -> None:
    start = eu.initial_position()
    units = {**start.units, "rom": Unit("England", start.units["brs"].type, "rom")}
    result = _winter_from(eu, start.evolve(units=units), 1616)
    assert result.end.winners == ("England",)


def test_alliance_wins_on_combined_vps(eu: Europe1615) -> None:
    # Optional Alliances: "an alliance wins if the combined VPs of the two allies exceed
    # the total VPs of the other three players".
    result = _final(
        eu,
        {"England": 400, "Scandinavia": 400, "France": 300, "Spain": 200, "Austria": 200},
        allies=[["England", "Scandinavia"]],
    )
    assert result.end.winners == ("England", "Scandinavia")


def test_alliances_are_declared_by_both_before_1618(eu: Europe1615) -> None:
    summer = _summer(eu)
    result = _play(eu, summer, {"England": ["Ally Scandinavia"], "Scandinavia": ["ally england"]})
    assert Ledger.of(result.after).allies == [["England", "Scandinavia"]]


# --- the map, and whole games ------------------------------------------------------------


def test_setup_matches_the_rules(eu: Europe1615) -> None:
    # STARTING POSITION OF UNITS and "Total Supply Centers: 24 + 25 + 4 = 53".
    assert len(eu.board.centers) == 53
    homes = sum(len(p.home_centers) for p in eu.powers.values())
    assert homes == 24
    minors = sum(len(s.centers) for s in eu.states.values() if s.kind != "ottoman")
    assert minors == 25
    assert sorted(eu.ottoman.centers) == ["bul", "gre", "sal", "ser"]
    for power in eu.powers.values():
        assert len(power.home_centers) == len(power.units) + 1  # Starting Deficit


def test_random_games_run_to_1620(eu: Europe1615) -> None:
    history = list(random_game(eu, random.Random(1), 200))
    assert history[-1].end
    assert history[-1].after.phase.year <= 1620


# --- more rules, one test each -----------------------------------------------------------


def test_the_year_has_three_movement_seasons(eu: Europe1615) -> None:
    # PHASES OF THE GAME YEAR: Spring, Summer, Fall, then Winter.
    seasons = []
    position = eu.initial_position()
    while position.phase.year == 1615:
        seasons.append(position.phase.code)
        position = play_phase(eu, position, {}).after
    assert seasons[:3] == ["S1615M", "U1615M", "F1615M"]
    assert position.phase.code == "S1616M"


def test_patron_may_not_help_dislodge_its_client(eu: Europe1615) -> None:
    # STATUS (3): "cannot ... support the dislodgment of the aligned minor state's unit".
    summer = _with_ledger(_summer(eu), inf={"sav": {"France": 10}})
    result = _play(eu, summer, {"Spain": ["A mil - sav"], "France": ["A pro S A mil - sav"]})
    assert result.after.units["sav"].power == "Savoy"
    assert _notes(result)["A Mil - Sav"] == "Bounced 1v1"


def test_ottoman_patron_stays_anonymous(eu: Europe1615) -> None:
    # OTTOMAN EMPIRE: "The GM keeps the aligned major power for the Ottoman Empire secret".
    summer = _with_ledger(_summer(eu), inf={"ote": {"Spain": 20}})
    unit = eu.ottoman.units[0]
    result = _play(eu, summer, {"Spain": [f"{unit} H"]})
    assert "   Ottoman Empire: ALIGNED" in result.public
    assert not any("Spain" in line for line in result.public)
    outcome = next(o for o in result.outcomes if o.order.province == unit.province)
    assert outcome.power == "Ottoman Empire"


def test_papal_states_are_always_catholic(eu: Europe1615) -> None:
    assert "   Papal States: UNMARKED; Catholic" in _play(eu, _summer(eu), {}).public


def test_income_blocked_by_an_aligned_minor_army_on_a_center(eu: Europe1615) -> None:
    # GAIN AND LOSS (3): Saxony aligned with Scandinavia sits in Vienna at the build phase.
    start = _with_ledger(eu.initial_position(), inf={"sax": {"Scandinavia": 10}})
    units = {p: u for p, u in start.units.items() if p not in ("sax", "vie")}
    units["vie"] = Unit("Saxony", start.units["boh"].type, "vie")
    after = _winter_from(eu, start.evolve(units=units)).after
    assert after.centers["vie"] == "Austria"  # minor armies capture nothing
    income = Ledger.of(after).income["Austria"]
    assert income == eu.income_table["Austria"][1616] - eu.home_values["vie"][0]


def test_no_builds_in_captured_ottoman_or_barbary_centers(eu: Europe1615) -> None:
    # BUILD PHASE: "Builds are not allowed in captured home SCs of the Ottoman Empire or
    # the Barbary States".
    start = eu.initial_position()
    centers = {**start.centers, "tun": "Spain", "sal": "Spain"}
    units = {p: u for p, u in start.units.items() if p not in ("tun", "sal")}
    rules = eu.rules_for(start.evolve(centers=centers, units=units))
    sites = rules.build_sites("Spain", frozenset(eu.powers["Spain"].home_centers),
                              start.evolve(centers=centers, units=units))  # fmt: skip
    assert "tun" not in sites and "sal" not in sites


def test_no_builds_in_the_opposite_religions_captured_centers(eu: Europe1615) -> None:
    # BUILD PHASE: no builds in a captured minor center controlled by the opposite religion,
    # nor in a captured home center of a power of the other faith.
    start = _with_ledger(eu.initial_position(), religion={"sax": "Catholic"}, captured=["sax"])
    centers = {**start.centers, "sax": "England", "nor": "England", "sca": "England"}
    position = start.evolve(centers=centers)
    sites = eu.rules_for(position).build_sites(
        "England", frozenset(eu.powers["England"].home_centers), position
    )
    assert "sax" not in sites  # Catholic-controlled
    assert "nor" not in sites  # a Catholic power's home center
    assert "sca" in sites  # a Protestant power's home center


def test_waived_capture_is_not_taken(eu: Europe1615) -> None:
    # BUILD/ADJUSTMENT PHASE: "may waive the capture of the supply center".
    summer = _summer(eu)
    ordered = _play(eu, summer, {"Spain": ["Waive Vie"]}).after
    units = {**ordered.units, "vie": Unit("Spain", ordered.units["mil"].type, "vie")}
    del units["mil"]
    after = _winter_from(eu, ordered.evolve(units=units)).after
    assert after.centers["vie"] == "Austria"


def test_provinces_without_centers_are_annexed(eu: Europe1615) -> None:
    # BUILD/ADJUSTMENT PHASE: "Provinces without SCs held by a major power at the build
    # phase are annexed ... unless it is an ALIGNED state to the power that occupies it".
    start = eu.initial_position()
    units = {**start.units, "fra": Unit("Austria", start.units["boh"].type, "fra")}
    after = _winter_from(eu, start.evolve(units=units)).after
    ledger = Ledger.of(after)
    assert ledger.annexed["fra"] == "Austria"
    assert "fra" in ledger.captured  # Franconia, all of it annexed, leaves the list


def test_no_points_for_a_state_occupied_by_another_minors_army(eu: Europe1615) -> None:
    # SCORING PHASE, checklist (4).
    start = _with_ledger(eu.initial_position(), inf={"sax": {"Austria": 6}})
    units = {p: u for p, u in start.units.items() if p != "sax"}
    units["sax"] = Unit("Brandenburg", start.units["boh"].type, "sax")
    after = _winter_from(eu, start.evolve(units=units), 1616).after
    assert Ledger.of(after).vp.get("Austria", 0) == 0


def test_elimination_removes_infs_and_scores(eu: Europe1615) -> None:
    # ELIMINATION AND EFFECTS OF.
    start = _with_ledger(eu.initial_position(), inf={"sax": {"England": 9, "Austria": 6}},
                         vp={"England": 300})  # fmt: skip
    units = {p: u for p, u in start.units.items() if u.power != "England"}
    centers = {c: ("France" if o == "England" else o) for c, o in start.centers.items()}
    after = _winter_from(eu, start.evolve(units=units, centers=centers)).after
    ledger = Ledger.of(after)
    assert "England" in ledger.eliminated
    assert ledger.vp["England"] == 0 and ledger.inf["sax"] == {"Austria": 6}
    assert ledger.patron("sax") == "Austria"  # statuses reassessed without England


def test_ottoman_capture_of_rome_gives_the_best_protestant_victory(eu: Europe1615) -> None:
    start = _with_ledger(eu.initial_position(), vp={"England": 100, "Scandinavia": 200})
    units = {**start.units, "rom": Unit(eu.ottoman.name, start.units["brs"].type, "rom")}
    result = _winter_from(eu, start.evolve(units=units), 1616)
    assert result.end.winners == ("Scandinavia",)


def test_map_check_reports_no_problem(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check", "europe_1615"]) == 0
    out = capsys.readouterr().out
    assert "53 supply centers, 5 powers" in out and out.strip().endswith("no problems found")


def test_public_view_keeps_inf_numbers_and_the_ottoman_patron_secret(
    eu: Europe1615, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # STATUS: "does not reveal the actual number of INFs"; the Empire's patron is secret.
    position = _with_ledger(
        _summer(eu),
        inf={"sax": {"Austria": 12, "England": 6}, "ote": {"Spain": 20}},
        status={"ote": ["ALIGNED", "Spain"]},
    )
    ledger = Ledger.of(position).view(OBSERVER)["ledger"]
    assert ledger["inf"] == {} and ledger["spent"] == {}
    assert ledger["shares"]["sax"] == {"Austria": 66, "England": 33}
    assert "ote" not in ledger["shares"]
    assert ledger["status"]["ote"] == ["ALIGNED", None]
    austria = Ledger.of(position).view(Viewer(power="Austria"))["ledger"]
    assert austria["inf"] == {"sax": {"Austria": 12}}  # its own, and nobody else's
    assert austria["status"]["ote"] == ["ALIGNED", None]
    spain = Ledger.of(position).view(Viewer(power="Spain"))["ledger"]
    assert spain["status"]["ote"] == ["ALIGNED", "Spain"]  # the patron knows itself
    game_file = str(tmp_path / "game.json")
    assert main(["new", "europe_1615", game_file]) == 0
    capsys.readouterr()
    assert main(["show", game_file, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["state"]["ledger"]["inf"] == {}


def test_a_power_does_not_capture_its_aligned_state(eu: Europe1615) -> None:
    # Other rules, Movement: "A major power may move into its ALIGNED state if the army is
    # not present, but cannot capture the supply center as long as it is aligned."
    start = _with_ledger(
        eu.initial_position(),
        inf={"sax": {"Austria": 10}},
        status={"sax": ["ALIGNED", "Austria"]},  # as the Fall's judging left it
    )
    units = {p: u for p, u in start.units.items() if p != "sax"}
    units["sax"] = Unit("Austria", start.units["boh"].type, "sax")
    after = _winter_from(eu, start.evolve(units=units)).after
    assert after.centers["sax"] == "Saxony"
    assert "sax" not in Ledger.of(after).captured


def test_a_deployment_is_at_least_one_inf(eu: Europe1615) -> None:
    start = eu.initial_position()
    with pytest.raises(OrderSyntaxError, match="a deployment is at least 1 INF"):
        eu.parse_order("0: LOR")
    # A program may build the order itself: it is refused all the same.
    assert eu.order_problems(start, "France", [Deploy(0, "lor")]) == [
        "0: LOR: a deployment is at least 1 INF"
    ]
