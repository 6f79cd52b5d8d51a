"""Convoys of any unit kind the map lets be convoyed (``convoyed`` in ``[units.X]``): the
order names the convoyed unit's kind as it is written, the judge checks it against the
unit standing there, and writes it with that kind's letter. Played on the standard map
with two kinds of its own: a marine, which may be convoyed, and a scout, which may not."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hegemon import jsonio, variants
from hegemon.adjudication.movement import adjudicate_movement
from hegemon.board import ARMY, FLEET, Board
from hegemon.mapfile import board_from_data
from hegemon.notation import parse_order
from hegemon.orders import Convoy, format_order
from hegemon.position import Phase, PhaseKind, Position, Season, Unit, read_unit
from hegemon.rules import Rules
from tests.wire import at

CLASSIC_MAP = Path(variants.__file__).parent / "classic" / "map.toml"


@pytest.fixture(scope="module")
def marines() -> Board:
    data = tomllib.loads(CLASSIC_MAP.read_text(encoding="utf-8"))
    data["units"] = {
        "A": {"name": "army", "moves": "army", "glyph": "army"},
        "F": {"name": "fleet", "moves": "fleet", "glyph": "fleet"},
        "M": {"name": "marine", "moves": "army"},  # convoyed, as anything moving like an army
        "S": {"name": "scout", "moves": "army", "convoyed": False},
    }
    return board_from_data(data)


def _notes(
    board: Board, units: dict[str, list[str]], given: dict[str, list[str]]
) -> dict[str, str]:
    placed: dict[str, Unit] = {}
    for power, texts in units.items():
        for text in texts:
            unit = read_unit(board, power, text)
            placed[unit.province] = unit
    position = Position.create(Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), placed)
    orders = {p: [parse_order(t, board) for t in texts] for p, texts in given.items()}
    return {o.text: o.note for o in adjudicate_movement(board, position, orders, Rules()).outcomes}


def test_a_convoy_order_reads_and_writes_the_convoyed_units_kind(marines: Board) -> None:
    marine = marines.kinds["M"]
    order = parse_order("F Nth C M Lon - Bel", marines)
    assert order == Convoy(FLEET, "nth", "lon", "bel", marine)
    assert format_order(order) == "F Nth C M Lon - Bel"
    assert parse_order("Fleet North Sea convoys Marine London to Belgium", marines) == order
    kindless = parse_order("F Nth C Lon - Bel", marines)
    assert kindless == Convoy(FLEET, "nth", "lon", "bel", None)
    assert format_order(kindless) == "F Nth C Lon - Bel"


def test_a_marine_is_convoyed_and_its_convoy_written_with_its_letter(marines: Board) -> None:
    notes = _notes(
        marines,
        {"England": ["M lon", "F nth"]},
        {"England": ["M lon - bel", "F nth C lon - bel"]},  # the kind left out
    )
    assert notes == {"M Lon - Bel": "Succeeds", "F Nth C M Lon - Bel": "Succeeds"}


def test_the_kind_a_convoy_names_must_be_the_units(marines: Board) -> None:
    notes = _notes(
        marines,
        {"England": ["M lon", "F nth"]},
        {"England": ["M lon - bel", "F nth C A lon - bel"]},
    )
    assert (
        notes["F Nth C A Lon - Bel"] == "Void: the unit in London is a marine, not an army; holds"
    )
    assert notes["M Lon - Bel"] == "Fails: no convoy route"


def test_a_kind_that_is_not_convoyed_is_not(marines: Board) -> None:
    notes = _notes(
        marines,
        {"England": ["S lon", "F nth"]},
        {"England": ["S lon - bel", "F nth C S lon - bel"]},
    )
    assert notes["F Nth C S Lon - Bel"] == "Void: scouts cannot be convoyed; holds"
    assert notes["S Lon - Bel"] == "Void: London does not border Belgium; holds"


def test_a_convoy_of_nobody_or_of_a_fleet_is_void(board: Board) -> None:
    # DATC 6.A.7 on the standard map: only armies are convoyed.
    fleet = _notes(
        board, {"England": ["F lon", "F nth"]}, {"England": ["F lon - bel", "F nth C A lon - bel"]}
    )
    assert fleet["F Nth C A Lon - Bel"] == "Void: fleets cannot be convoyed; holds"
    nobody = _notes(board, {"England": ["F nth"]}, {"England": ["F nth C A lon - bel"]})
    assert nobody["F Nth C A Lon - Bel"] == "Void: there is no unit in London to convoy; holds"


def test_the_standard_game_still_writes_convoys_of_armies(board: Board) -> None:
    notes = _notes(
        board, {"England": ["A lon", "F nth"]}, {"England": ["A lon - bel", "F nth C lon - bel"]}
    )
    assert notes == {"A Lon - Bel": "Succeeds", "F Nth C A Lon - Bel": "Succeeds"}
    assert parse_order("F nth C A lon - bel", board) == Convoy(FLEET, "nth", "lon", "bel", ARMY)


def test_json_keeps_convoy_orders_as_given_and_their_outcomes_in_the_notation() -> None:
    request = {
        "variant": "classic",
        "position": {"phase": "S1901M", "units": {"England": ["A lon", "F nth", "F eng"]}},
        "orders": {"England": ["A lon - bel", "F nth C A lon - bel", "F eng C lon - bel"]},
    }
    answer = jsonio.adjudicate_request(request, variants.load_variant, "observer")
    assert at(answer, "orders") == {
        "England": ["A Lon - Bel", "F Nth C A Lon - Bel", "F Eng C Lon - Bel"]
    }
    outcomes = at(answer, "outcomes")
    assert isinstance(outcomes, list)
    assert [at(o, "order") for o in outcomes] == [
        "A Lon - Bel",
        "F Nth C A Lon - Bel",
        "F Eng C A Lon - Bel",
    ]
