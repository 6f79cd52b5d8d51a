"""The menus of legal orders (`Procedure.menu`): what a player is offered to pick from
agrees with what the judge accepts, in every phase of every variant."""

from __future__ import annotations

from hegemon.game import Variant, order_problems
from hegemon.orders import Convoy
from hegemon.position import Position
from tests.conftest import spring


def _menu(variant: Variant, position: Position, power: str) -> list[str]:
    procedure = variant.calendar.procedure(position.phase)
    return [o.format() for given in procedure.menu(variant, position, power).values() for o in given]


def test_a_convoy_lands_its_army_only_where_the_army_may_go(classic: Variant) -> None:
    position = spring({"England": ["F nth", "A yor", "F edi"]})
    board = classic.board
    offered = [o for o in _menu(classic, position, "England") if o.startswith("F Nth C A Yor")]
    landings = {o.rsplit(" - ", 1)[1].lower() for o in offered}
    assert "nwy" in landings and "bel" in landings
    assert not any(board.provinces[p].is_sea for p in landings)
    for sea in ("nth", "nwg", "eng"):
        convoy = Convoy(board.kinds["F"], "nth", "yor", sea)
        assert order_problems(classic, position, "England", [convoy]) == [
            f"F Nth C A Yor - {sea.capitalize()}: armies cannot be convoyed into sea provinces"
        ]
