"""Africa II played from the start of a game to the rules issue 28 asked to be seen whole:
Namibia's liberation by China's guerillas (c.2), a civil war after a year's halving (a.8,
a.12), a conquest and its Spring review (c.1, a.5). Every order is checked as a player's
would be (`order_problems`) before it is stored, and every phase is adjudicated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from hegemon.game import Game, PhaseResult, order_problems
from hegemon.position import OBSERVER, Position
from hegemon.report import phase_report
from hegemon.variants import load_variant
from hegemon.variants.africa_ii import AfricaII, Ledger

RUSSIA, US = "Soviet Union", "United States"


@pytest.fixture
def game() -> Game:
    variant = load_variant("africa_ii")
    assert isinstance(variant, AfricaII)
    return Game.new(variant, seed=28)


def _turn(game: Game, phase: str, orders: Mapping[str, Sequence[str]] | None = None) -> str:
    """The phase's orders, each legal when given, adjudicated; the report an observer reads."""
    assert game.position.phase.code == phase
    for power, written in (orders or {}).items():
        given = [game.variant.parse_order(t, game.position.all_units) for t in written]
        assert order_problems(game.variant, game.position, power, given) == []
        game.set_orders(power, given)
    result: PhaseResult = game.adjudicate()
    return phase_report(game.variant, result, OBSERVER)


def _ledger(game: Game) -> Ledger:
    return Ledger.of(game.position)


def _owners(position: Position, *provinces: str) -> list[str]:
    return [position.units[p].power for p in provinces]


def test_namibia_is_liberated_by_chinas_guerillas_on_win_and_wal(game: Game) -> None:
    """c.2, b.11, b.12 (issue 28, point 6): China raises a guerilla, takes Windhoek as the
    Soviet Union's RSA makes way, raises a second for the center it gained, and takes
    Walvis Bay: Namibia is liberated, China's IPs there count double and earn 3 VPs."""
    _turn(game, "S1961M", {"China": ["Raise G kal"]})
    _turn(game, "S1961I", {RUSSIA: ["12: RSA"]})
    _turn(game, "A1961M", {RUSSIA: ["A win - kim"], "China": ["G kal - win"]})
    assert game.position.centers["win"] == "China"
    _turn(game, "A1961A", {RUSSIA: ["Disband A kim"]})  # the RSA's four centers, five units
    _turn(game, "S1962M", {"China": ["Raise G ova"], RUSSIA: ["A wal - kim"]})
    _turn(game, "S1962I", {RUSSIA: ["12: RSA"]})
    _turn(game, "A1962M", {"China": ["G ova - wal"]})
    assert game.position.phase.code == "A1962A"
    report = _turn(game, "A1962A", {RUSSIA: ["Disband A kim"]})
    assert "China's guerillas liberate Namibia (rules c.2)" in report
    ledger = _ledger(game)
    assert ledger.independent == ("Namibia",) and ledger.liberator == "China"
    assert _owners(game.position, "win", "wal") == ["Namibia", "Namibia"]
    assert {game.position.centers[c] for c in ("win", "wal")} == {"Namibia"}
    _turn(game, "S1963M")
    _turn(game, "S1963I", {"China": ["4: Namibia"]})
    assert _ledger(game).holdings["Namibia"] == {"China": 8}
    assert _ledger(game).control["Namibia"] == "China"
    # 12, Namibia's 2 centers, 3 for the state, 3 for its liberation (d.ii)
    assert game.variant.points(game.position)["China"] == 12 + 2 + 3 + 3


def test_a_civil_war_is_declared_after_the_halving_and_lasts_a_year(game: Game) -> None:
    """a.8, a.12 (issue 28, point 2): France's 8 IPs in Kenya halve to 4 and the Soviet
    Union, holding none, takes Kenya with 5: France may declare civil war, and Kenya's
    units stand until the next IP phase. In Uganda, Britain's 1 IP halves to nothing,
    but it held one: its taking Uganda from the United States gives no civil war."""
    _turn(game, "S1961M")
    _turn(game, "S1961I", {"France": ["8: Kenya"], US: ["6: Uganda"], "Britain": ["1: Uganda"]})
    _turn(game, "A1961M")
    assert _ledger(game).holdings["Uganda"] == {US: 6, "Britain": 1}
    _turn(game, "S1962M")
    assert _ledger(game).holdings["Uganda"] == {US: 3}  # halved: Britain's 1 is gone
    report = _turn(game, "S1962I", {RUSSIA: ["5: Kenya"], "Britain": ["4: Uganda"]})
    assert _ledger(game).control == {"Kenya": RUSSIA, "Uganda": "Britain"}
    assert "France may declare civil war in Kenya with its next orders" in report
    assert _ledger(game).rights == {"Kenya": "France"}
    refused = [game.variant.parse_order("Civil war Uganda")]
    assert order_problems(game.variant, game.position, US, refused) == [
        "Civil war Uganda: United States was not ousted from Uganda at the last IP phase by a "
        "power that held no IPs there (rules a.12)"
    ]
    _turn(game, "A1962M", {"France": ["Civil war Kenya"]})
    assert _ledger(game).civil_wars == {"Kenya": "France"}
    assert game.position.phase.code == "S1963M"  # Kenya, frozen, built nothing
    frozen = [game.variant.parse_order("A nai - aru")]
    assert order_problems(game.variant, game.position, RUSSIA, frozen) == [
        "A Nai - Aru: Kenya is in civil war (rules a.12): its units take no orders"
    ]
    _turn(game, "S1963M")
    _turn(game, "S1963I", {RUSSIA: ["1: Kenya"]})  # 3 to France's 2, both halved
    assert _ledger(game).civil_wars == {}
    assert game.variant.commander_of(game.position, game.position.units["nai"]) == RUSSIA


def test_a_conquered_state_is_re_established_and_changes_hands_at_the_spring_review(
    game: Game,
) -> None:
    """c.1, a.5 (issue 28, point 3): Uganda's army leaves Kampala and Kenya walks in:
    Uganda is conquered, re-established with an army on Kampala alone (its army in Tabora
    disbanded), Kenya's IPs copied; the United States keeps it until the Spring review
    gives it to the Soviet Union."""
    _turn(game, "S1961M")
    _turn(game, "S1961I", {RUSSIA: ["12: Kenya"], US: ["4: Uganda"], "France": ["3: Kenya"]})
    report = _turn(game, "A1961M", {US: ["A kam - tab"], RUSSIA: ["A kis - kam"]})
    assert (
        "Uganda is conquered by Kenya and re-established (rules c.1): IPs as in Kenya: France "
        "3, Soviet Union 12; Kenya's units disbanded: Kam; its units elsewhere disbanded: Tab"
    ) in report
    position = game.position
    assert sorted(p for p, u in position.units.items() if u.power == "Uganda") == ["kam"]
    assert _ledger(game).holdings["Uganda"] == {"France": 3, RUSSIA: 12}
    assert _ledger(game).control["Uganda"] == US
    _turn(game, "A1961A", {RUSSIA: ["Build A kis"]})  # Kenya's own three centers
    _turn(game, "S1962M", {US: ["A kam H"]})  # still the United States' to order
    report = _turn(game, "S1962I")
    assert "Uganda: controlled by Soviet Union (was United States)" in report
    assert _ledger(game).control["Uganda"] == RUSSIA
