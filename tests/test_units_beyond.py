"""Units aboard others and units off the board: the core's general mechanisms.

Played on the classic map with a small Rules subclass standing for what Africa II needs
(docs/writing-a-variant.md, "Units aboard and off the board"): a fleet carries an army
of its own power; fleets enter the board into an empty sea and leave it from any sea;
armies (standing for paratroops) leave it from anywhere. The standard rules allow none
of it, and every test here fails without the mechanism it names.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence

import pytest

from hegemon import jsonio
from hegemon.adjudication.movement import MovementResult, adjudicate_movement
from hegemon.adjudication.retreat import adjudicate_retreats
from hegemon.beyond import BeyondRules, Embark, Leave
from hegemon.board import OFFBOARD, STANDARD_KINDS, Board, province_of
from hegemon.game import Variant, play_phase
from hegemon.game.machine import latest_per_slot
from hegemon.game.menus import movement_menu
from hegemon.game.phases import Movement
from hegemon.legality import Illegal, check_movement_order
from hegemon.notation import parse_order
from hegemon.orders import Move
from hegemon.position import (
    MASTER,
    OBSERVER,
    Dislodgement,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
    read_offboard_unit,
    read_unit,
    unit_text,
)
from hegemon.randomplay import random_orders
from hegemon.render import draw_board
from hegemon.rules import Rules
from tests.conftest import orders
from tests.wire import at

ARMY, FLEET = STANDARD_KINDS["A"], STANDARD_KINDS["F"]


class Carrying(BeyondRules):
    def may_carry(self, carrier: Unit, unit: Unit) -> bool:
        return carrier.type is FLEET and unit.type is ARMY and not carrier.cargo

    def may_leave_board(self, board: Board, unit: Unit) -> bool:
        return unit.type is ARMY or board.provinces[unit.province].is_sea

    def may_enter_board(
        self, board: Board, unit: Unit, location: str, occupant: Unit | None
    ) -> bool:
        sea = board.provinces[province_of(location)].is_sea
        return unit.type is FLEET and sea and occupant is None


CARRYING = Carrying()


def _unit(board: Board, power: str, text: str) -> Unit:
    """``"F nth [A]"`` as a unit, its cargo aboard; ``"F OFFBOARD"`` off the board."""
    if OFFBOARD in text:
        return read_offboard_unit(board, power, text.replace(f" {OFFBOARD}", ""))
    return read_unit(board, power, text)


def _position(board: Board, spec: Mapping[str, Sequence[str]], kind: PhaseKind) -> Position:
    placed = [_unit(board, power, text) for power, texts in spec.items() for text in texts]
    on_board = {u.province: u for u in placed if u.location != OFFBOARD}
    offboard = tuple(u for u in placed if u.location == OFFBOARD)
    return Position.create(Phase(1901, Season.SPRING, kind), on_board, offboard=offboard)


def _play(
    board: Board,
    spec: Mapping[str, Sequence[str]],
    given: Mapping[str, Sequence[str]],
    rules: Rules = CARRYING,
) -> MovementResult:
    position = _position(board, spec, PhaseKind.MOVEMENT)
    return adjudicate_movement(board, position, orders(board, given), rules)


def _notes(result: MovementResult) -> dict[str, str]:
    return {o.text: o.note for o in result.outcomes}


def _shown(result: MovementResult) -> dict[str, str]:
    return {p: unit_text(u) for p, u in result.units.items()}


# --- aboard ---------------------------------------------------------------------------


def test_a_unit_aboard_holds_no_province_and_moves_with_its_carrier(board: Board) -> None:
    result = _play(board, {"England": ["F nth [A]"]}, {"England": ["F nth - nrg"]})
    assert _shown(result) == {"nrg": "F nrg [A]"}
    assert result.units["nrg"].cargo == (Unit("England", ARMY, "nrg"),)


def test_a_landing_succeeds_into_an_empty_province(board: Board) -> None:
    result = _play(board, {"England": ["F nth [A]"]}, {"England": ["A nth - yor"]})
    assert _shown(result) == {"nth": "F nth", "yor": "A yor"}
    assert _notes(result)["A Nth - Yor"] == "Succeeds"


def test_a_landing_that_bounces_stays_aboard_the_carrier_that_moved(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F nth [A]"], "Germany": ["A wal"]},
        {"England": ["A nth - yor", "F nth - nrg"], "Germany": ["A wal - yor"]},
    )
    assert _shown(result) == {"nrg": "F nrg [A]", "wal": "A wal"}
    assert _notes(result)["A Nth - Yor"] == "Bounced 1v1 (with Wal)"
    assert "yor" in result.contested  # a standoff like any other


def test_a_landing_supported_by_its_own_fleet_dislodges(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F nth [A]"], "Germany": ["A yor"]},
        {"England": ["A nth - yor", "F nth S A nth - yor"]},
    )
    assert _shown(result) == {"nth": "F nth", "yor": "A yor"}
    assert result.units["yor"].power == "England"
    # The dislodged army may not retreat to where the marine came from.
    assert result.dislodged["yor"] == Dislodgement(Unit("Germany", ARMY, "yor"), "nth")


def test_a_unit_aboard_blocks_nobody_and_falls_with_its_carrier(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F nth [A]"], "Germany": ["F hel", "F den"]},
        {"England": ["A nth H"], "Germany": ["F hel - nth", "F den S F hel - nth"]},
    )
    assert _shown(result) == {"nth": "F nth", "den": "F den"}
    assert result.dislodged["nth"].unit.cargo == (Unit("England", ARMY, "nth"),)
    assert _notes(result)["A Nth H"] == "Aboard F Nth, dislodged with it"


def test_a_dislodged_carrier_retreats_with_its_cargo(board: Board) -> None:
    carrier = read_unit(board, "England", "F nth [A]")
    position = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.RETREAT),
        {"nth": read_unit(board, "Germany", "F nth [A]")},  # its dislodger, carrying too
        dislodged={"nth": Dislodgement(carrier, "hel")},
    )
    given = orders(board, {"England": ["F nth R edi"]})
    result = adjudicate_retreats(board, position, given, CARRYING)
    assert unit_text(result.units["edi"]) == "F edi [A]"
    assert result.units["edi"].cargo[0].power == "England"
    assert unit_text(result.units["nth"]) == "F nth [A]"  # the dislodger's, untouched


def test_a_disbanded_carrier_loses_its_cargo(board: Board) -> None:
    carrier = read_unit(board, "England", "F nth [A]")
    position = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.RETREAT),
        {"nth": Unit("Germany", FLEET, "nth")},
        dislodged={"nth": Dislodgement(carrier, "hel")},
    )
    result = adjudicate_retreats(board, position, {}, CARRYING)
    assert result.disbanded == (carrier,)
    assert [o.note for o in result.outcomes] == ["No order: disbanded, with A aboard"]


# --- boarding ---------------------------------------------------------------------------


def test_boarding_a_carrier_that_stays(board: Board) -> None:
    result = _play(board, {"England": ["F nth", "A yor"]}, {"England": ["A yor - F nth"]})
    assert _shown(result) == {"nth": "F nth [A]"}


def test_boarding_written_as_a_move_is_a_boarding(board: Board) -> None:
    position = _position(board, {"England": ["F nth", "A yor"]}, PhaseKind.MOVEMENT)
    order = parse_order("A yor - nth", board)
    checked = check_movement_order(board, position, "England", order, CARRYING)
    assert checked == Embark(ARMY, "yor", "nth", FLEET)
    assert not isinstance(checked, Illegal)  # for mypy: `==` narrows no order's type
    assert checked.format() == "A Yor - F Nth"
    refused = check_movement_order(board, position, "England", order, Rules())
    assert refused == Illegal("armies cannot enter sea provinces")


def test_boarding_a_carrier_that_moves_in(board: Board) -> None:
    result = _play(
        board, {"England": ["F edi", "A yor"]}, {"England": ["A yor - F nth", "F edi - nth"]}
    )
    assert _shown(result) == {"nth": "F nth [A]"}


def test_boarding_fails_when_the_carrier_is_bounced(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F edi", "A yor"], "Germany": ["F hel", "A wal"]},
        {"England": ["A yor - F nth", "F edi - nth"], "Germany": ["F hel - nth", "A wal - yor"]},
    )
    assert _shown(result) == {"edi": "F edi", "yor": "A yor", "hel": "F hel", "wal": "A wal"}
    notes = _notes(result)
    assert notes["A Yor - F Nth"] == "Fails: no fleet of England to board in Nth"
    # A failed boarding holds as a failed move does, and contests nothing.
    assert notes["A Wal - Yor"] == "Bounced 1v1"
    assert result.contested == {"nth"}


def test_boarding_a_carrier_that_is_dislodged_fails(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F nth", "A yor"], "Germany": ["F hel", "F den"]},
        {"England": ["A yor - F nth"], "Germany": ["F hel - nth", "F den S F hel - nth"]},
    )
    assert _shown(result) == {"yor": "A yor", "nth": "F nth", "den": "F den"}
    assert result.dislodged["nth"].unit.cargo == ()


def test_boarding_a_carrier_that_moves_into_the_boarder_fails(board: Board) -> None:
    # The boarding would succeed only if the fleet stayed, which it does only if the army
    # stayed: a cycle broken by failing the boarding, and the fleet bounces.
    result = _play(
        board, {"England": ["F nth", "A yor"]}, {"England": ["A yor - F nth", "F nth - yor"]}
    )
    assert _shown(result) == {"nth": "F nth", "yor": "A yor"}


# --- off the board -------------------------------------------------------------------


def test_leaving_the_board_always_succeeds_and_vacates(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F nth [A]"], "Germany": ["F hel"]},
        {"England": ["F nth - OFFBOARD"], "Germany": ["F hel - nth"]},
    )
    assert _shown(result) == {"nth": "F nth"}
    assert result.units["nth"].power == "Germany"
    assert [unit_text(u) for u in result.offboard] == ["F [A]"]  # its cargo went too
    assert _notes(result)["F Nth - OFFBOARD"] == "Succeeds"


def test_an_entry_stands_off_with_another_move(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F OFFBOARD [A]"], "Germany": ["F hel"]},
        {"England": ["F OFFBOARD - nth"], "Germany": ["F hel - nth"]},
    )
    assert _shown(result) == {"hel": "F hel"}
    assert [unit_text(u) for u in result.offboard] == ["F [A]"]
    assert result.contested == {"nth"}
    assert _notes(result)["F OFFBOARD - Nth"] == "Bounced 1v1 (with Hel)"


def test_a_supported_entry_wins_and_brings_its_cargo(board: Board) -> None:
    result = _play(
        board,
        {"England": ["F OFFBOARD [A]", "F edi"], "Germany": ["F hel"]},
        {"England": ["F OFFBOARD - nth", "F edi S F OFFBOARD - nth"], "Germany": ["F hel - nth"]},
    )
    assert _shown(result) == {"nth": "F nth [A]", "edi": "F edi", "hel": "F hel"}
    assert result.offboard == ()


def test_units_off_the_board_may_only_enter_it(board: Board) -> None:
    position = _position(
        board, {"England": ["F OFFBOARD", "F edi"], "Germany": ["F nth"]}, PhaseKind.MOVEMENT
    )

    def check(text: str, power: str = "England", rules: Rules = CARRYING) -> object:
        return check_movement_order(board, position, power, parse_order(text, board), rules)

    assert check("F OFFBOARD H") == Illegal("units off the board may only enter it")
    assert check("F OFFBOARD - nth") == Illegal("a fleet off the board may not enter North Sea")
    assert check("F OFFBOARD - nrg") == Move(FLEET, OFFBOARD, "nrg")
    assert check("F OFFBOARD - nrg", rules=Rules()) == Illegal(
        "a fleet off the board may not enter Norwegian Sea"
    )
    assert check("F OFFBOARD - nrg", "Germany") == Illegal("Germany has no fleet off the board")
    assert check("F edi - OFFBOARD") == Illegal("a fleet in Edinburgh may not leave the board")
    assert check("A nth - yor", "Germany") == Illegal(
        "the unit in North Sea is a fleet, not an army"
    )


def test_orders_for_a_unit_aboard(board: Board) -> None:
    position = _position(board, {"England": ["F nth [A]"]}, PhaseKind.MOVEMENT)

    def check(text: str, power: str = "England") -> object:
        return check_movement_order(board, position, power, parse_order(text, board), CARRYING)

    assert check("A nth - yor") == Move(ARMY, "nth", "yor")
    assert check("A nth - OFFBOARD") == Leave(ARMY, "nth")
    assert check("A nth S F nth") == Illegal("a unit aboard a fleet may only land or stay aboard")
    assert check("A nth - mun") == Illegal("North Sea does not border Munich")
    assert check("A nth - yor", "France") == Illegal(
        "there is no army of France aboard in North Sea"
    )


# --- a whole phase, and what is written ------------------------------------------------


class CarryingClassic(Variant):
    rules_class = Carrying


def _carrying(classic: Variant) -> Variant:
    """The classic variant, played by rules that carry and leave the board."""
    fields = {f.name: getattr(classic, f.name) for f in dataclasses.fields(classic) if f.init}
    return CarryingClassic(**fields)


def test_a_phase_played_keeps_the_units_off_the_board(classic: Variant) -> None:
    variant = _carrying(classic)
    position = _position(
        classic.board, {"England": ["F OFFBOARD [A]", "A lon"]}, PhaseKind.MOVEMENT
    )
    given = orders(classic.board, {"England": ["A lon - OFFBOARD"]})
    after = play_phase(variant, position, given).after
    assert [unit_text(u) for u in after.offboard] == ["F [A]", "A"]
    assert after.units == {}
    entry = [parse_order("F OFFBOARD - nth", classic.board)]
    assert Movement().check(variant, position, "England", entry) == []
    assert Movement().check(classic, position, "England", entry) == [
        "F OFFBOARD - Nth: a fleet off the board may not enter North Sea"
    ]


def test_positions_round_trip_through_json(classic: Variant) -> None:
    board = classic.board
    position = Position.create(
        Phase(1901, Season.SPRING, PhaseKind.RETREAT),
        {"nth": read_unit(board, "Germany", "F nth [A]")},
        dislodged={"nth": Dislodgement(read_unit(board, "England", "F nth [A]"), "hel")},
        offboard=(Unit("England", FLEET, OFFBOARD).carrying((Unit("England", ARMY, ""),)),),
    )
    data = jsonio.position_to_json(position, MASTER)
    assert data["units"] == {"Germany": ["F nth [A]"]}
    assert at(data, "dislodged", 0, "unit") == "F nth [A]"
    assert data["offboard"] == {"England": ["F [A]"]}
    with pytest.raises(jsonio.WireError, match="a fleet may not carry an army"):
        jsonio.position_from_json(data, classic)  # the standard rules carry nothing
    assert jsonio.position_from_json(data, _carrying(classic)) == position  # rules that carry
    old = {"phase": "S1901M", "units": {"England": ["F nth"]}}
    assert jsonio.position_from_json(old, classic).offboard == ()


@pytest.mark.parametrize(
    "text",
    [
        "F OFFBOARD - Nth",
        "A Yor - OFFBOARD",
        "A Yor - F Nth",
        "A Nth - Yor",
        "F Edi S F OFFBOARD - Nth",
    ],
)
def test_orders_round_trip_through_the_notation(board: Board, text: str) -> None:
    assert parse_order(text, board).format() == text
    assert parse_order(text.lower(), board).format() == text


def test_a_later_order_replaces_only_the_same_units(board: Board) -> None:
    # The fleet and the army aboard it stand in one province, the fleet and the army off
    # the board in one place: each keeps its own order, and a later one for the same
    # unit replaces the earlier.
    given = [
        parse_order(t, board)
        for t in ("A nth - yor", "F nth S A nth - yor", "F OFFBOARD - hel", "A OFFBOARD - hol")
    ]
    assert latest_per_slot(given) == given
    again = parse_order("F OFFBOARD - ska", board)
    assert latest_per_slot([*given, again]) == [*given[:2], given[3], again]


def test_menus_offer_landings_boardings_entries_and_departures(classic: Variant) -> None:
    variant = _carrying(classic)
    position = _position(
        classic.board,
        {"England": ["F OFFBOARD", "F nth [A]", "A yor", "F edi"]},
        PhaseKind.MOVEMENT,
    )
    menu = {
        f.title: [c.text for c in f.choices] for f in movement_menu(variant, position, "England")
    }
    assert "F OFFBOARD - Nrg" in menu["F OFFBOARD"]
    assert "F OFFBOARD - Nth" not in menu["F OFFBOARD"]  # occupied: these rules refuse it
    assert {"A Nth H", "A Nth - Yor", "A Nth - Lon", "A Nth - OFFBOARD"} <= set(menu["A Nth"])
    assert "A Nth - Edi" in menu["A Nth"]  # occupied by its own fleet, yet a legal order
    assert "A Yor - F Nth" in menu["A Yor"]
    assert "F Nth - OFFBOARD" in menu["F Nth"]
    assert "F Edi - OFFBOARD" not in menu["F Edi"]  # not from a coast
    standard = {f.title: f.choices for f in movement_menu(classic, position, "England")}
    assert "A Nth" not in standard or not any("OFFBOARD" in c.text for c in standard["A Nth"])


def test_random_orders_and_drawing_take_units_aboard_and_off_the_board(
    classic: Variant,
) -> None:
    variant = _carrying(classic)
    position = _position(
        classic.board,
        {
            "England": ["F OFFBOARD [A]", "F nth [A]", "A yor", "F iri", "A lvp"],
            "France": ["F eng", "A bre"],
        },
        PhaseKind.MOVEMENT,
    )
    kinds: set[str] = set()
    for seed in range(40):
        given = random_orders(variant, position, random.Random(seed))
        play_phase(variant, position, given)
        kinds |= {_kind_of(order.format()) for order in given.get("England", [])}
    # Random play gives every order a unit may take beyond the standard ones.
    assert {"enters", "lands", "leaves", "boards"} <= kinds, kinds
    svg = draw_board(variant, position, OBSERVER)
    assert svg.count('class="unit aboard"') == 2
    assert "England: fleet off the board offboard" in svg


def _kind_of(order: str) -> str:
    """What an order of the test's position does, as the test names it."""
    if order.startswith("F OFFBOARD -"):
        return "enters"
    if order.endswith("- OFFBOARD"):
        return "leaves"
    if order.startswith("A Nth -"):
        return "lands"
    if order.startswith("A Lvp - F "):
        return "boards"
    return "other"
