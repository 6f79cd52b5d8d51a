"""What happened: the phases played with their reports and results, the boards, the
secrets revealed once the game is over."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from hegemon.server import answers, views
from hegemon.server.deps import Caller, StoreDep
from hegemon.server.schemas import PhaseNumber, PowerName, RowId
from hegemon.server.table import member_view

router = APIRouter(
    prefix="/api/games/{game_id}", tags=["history"], responses=answers.ALWAYS | answers.IN_A_GAME
)

SVG = {
    "content": {"image/svg+xml": {"schema": {"type": "string"}}},
    "description": "the board as SVG",
}


@router.get("/phases")
def phases(game_id: RowId, user: Caller, store: StoreDep) -> list[answers.PhaseLine]:
    """Every phase played, in order."""
    with member_view(store, game_id, user) as table:
        return views.phases_view(table)


@router.get("/phases/{number}")
def phase(
    game_id: RowId, number: PhaseNumber, user: Caller, store: StoreDep
) -> answers.PhaseReport:
    """A phase's report and results (as JSON) as the caller may read them."""
    with member_view(store, game_id, user) as table:
        return views.phase_view(table, number)


@router.get("/board.svg", response_class=Response, responses={200: SVG})
def board(
    game_id: RowId,
    user: Caller,
    store: StoreDep,
    orders: Annotated[
        bool, Query(description="with the caller's own orders given so far (not adjudicated)")
    ] = False,
    power: Annotated[
        PowerName | None, Query(description="whose orders: the game master names one")
    ] = None,
) -> Response:
    """The board now, as the caller sees it; with `orders`, the orders the caller has
    given this phase drawn on it (a player's own; the game master's for `power`)."""
    with member_view(store, game_id, user) as table:
        if not orders:
            return Response(views.board_svg(table, None, False), media_type="image/svg+xml")
        table.require_playing()
        svg = views.ordering_board_svg(table, table.acting_power(power))
        return Response(svg, media_type="image/svg+xml")


@router.get("/phases/{number}/board.svg", response_class=Response, responses={200: SVG})
def phase_board(
    game_id: RowId,
    number: PhaseNumber,
    user: Caller,
    store: StoreDep,
    orders: Annotated[bool, Query(description="with the phase's orders and results")] = True,
) -> Response:
    """The board as the phase began, as the caller sees it."""
    with member_view(store, game_id, user) as table:
        return Response(views.board_svg(table, number, orders), media_type="image/svg+xml")


@router.get("/reveal")
def reveal(game_id: RowId, user: Caller, store: StoreDep) -> list[answers.Revealed]:
    """Once the game is over: every order kept secret while it lasted."""
    with member_view(store, game_id, user) as table:
        return views.reveal_view(table)
