"""How a game ends (`GameEnd`): what ended it, a `Termination`, with the winners or the
draw it made, as the report says it and as JSON writes it (docs/json.md)."""

from __future__ import annotations

import pytest

from hegemon import jsonio
from hegemon.game import Game, GameEnd, Termination, describe_end, play_phase
from hegemon.position import MASTER, Phase, PhaseKind, Position, Season
from hegemon.store.exchange import end_from_json
from hegemon.variants import load_variant

T = Termination
ENDS = [
    (GameEnd(T.SOLO, winners=("France",)), "France won"),
    (GameEnd(T.SOLO, draw=("Kenya", "Egypt")), "a draw of Kenya, Egypt, tied for victory"),
    (GameEnd(T.POINTS, winners=("Spain",)), "Spain won on points"),
    (GameEnd(T.POINTS, draw=("France", "Spain")), "a draw of France, Spain, tied on points"),
    (GameEnd(T.LAST_YEAR, draw=("Yeke",)), "a draw of Yeke, after the last year"),
    (GameEnd(T.EMPTY_BOARD, draw=("Red",)), "a draw of Red, with nothing left on the board"),
    (GameEnd(T.DRAW_AGREED, draw=("Angola",)), "a draw of Angola, by agreement"),
    (GameEnd(T.CONCESSION, winners=("France",)), "France won by concession"),
]


@pytest.mark.parametrize(("end", "text"), ENDS)
def test_an_end_says_what_ended_the_game(end: GameEnd, text: str) -> None:
    assert describe_end(end) == text


@pytest.mark.parametrize(("end", "text"), ENDS)
def test_an_end_reads_back_as_json_writes_it(end: GameEnd, text: str) -> None:
    written = jsonio.end_to_json(end)
    assert written["termination"] == end.how
    assert jsonio.end_from_json(written) == end


def test_a_phase_that_ends_the_game_names_its_termination() -> None:
    classic = load_variant("classic")
    centers = dict.fromkeys(sorted(classic.board.centers)[:18], "France")
    winter = Position.create(Phase(1905, Season.WINTER, PhaseKind.ADJUSTMENT), {}, centers)
    answer = jsonio.phase_result_to_json(play_phase(classic, winter, {}), MASTER)
    assert (answer["termination"], answer["winners"]) == ("solo", ["France"])
    assert "draw" not in answer


@pytest.mark.parametrize(
    ("draw", "concede_to", "end"),
    [
        (["England", "France"], None, GameEnd(Termination.DRAW_AGREED, draw=("England", "France"))),
        ([], "France", GameEnd(Termination.CONCESSION, winners=("France",))),
    ],
)
def test_an_agreed_end_is_a_draw_agreed_or_a_concession(
    draw: list[str], concede_to: str | None, end: GameEnd
) -> None:
    game = Game.new(load_variant("classic"), seed=1)
    assert game.end_by_agreement(draw, concede_to) == end and end.agreed
    assert jsonio.game_from_json(jsonio.game_to_json(game)).end == end


def test_an_end_the_server_stored_before_its_termination_is_known_only_if_agreed() -> None:
    agreed = end_from_json({"winners": ["France"], "draw": [], "agreed": True})
    assert agreed == GameEnd(Termination.CONCESSION, winners=("France",))
    unknown = end_from_json({"winners": [], "draw": ["Italy"], "agreed": False})
    assert unknown == GameEnd(None, draw=("Italy",)) and unknown
    assert describe_end(unknown) == "a draw of Italy"


@pytest.mark.parametrize(
    "data",
    [{"termination": "won", "winners": ["France"]}, {"termination": "solo"}, ["solo"]],
)
def test_an_end_without_its_termination_or_powers_is_refused(data: object) -> None:
    with pytest.raises(jsonio.WireError, match="end: expected"):
        jsonio.end_from_json(data)
