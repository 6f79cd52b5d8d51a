"""Page weight (issue 31): pages are sent gzip-compressed to a client that takes it, the
game page under 160 KB so on every variant; the game page's board is drawn once for a
position and viewer and kept, its compressed part with it.

The server's time for the game page is measured by benchmarks/game_page.py, not here."""

from __future__ import annotations

import gzip
import random

import pytest
from fastapi.testclient import TestClient

from hegemon.game import play_phase
from hegemon.position import MASTER, OBSERVER, Viewer
from hegemon.randomplay import random_orders
from hegemon.render import draw_board
from hegemon.render.board import board_layers
from hegemon.server.web.boards import Boards
from hegemon.server.web.gzipped import Deflated, accepts_gzip, gzip_of
from hegemon.variants import load_variant
from tests.server.conftest import seated_game
from tests.web.test_pages import browser_of

GAME_PAGE_MOST = 160_000  # bytes, compressed
VARIANTS = [
    "classic", "sub_saharan", "africa_ii", "african_diplomacy_ii", "african_riots", "europe_1615",
]  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_game_page_is_sent_compressed_under_160_kb(client: TestClient, variant: str) -> None:
    game = seated_game(client, variant, seed=1)
    power, player = next(iter(game.players.items()))
    browser = browser_of(client, player)
    plain = browser.get(f"/games/{game.id}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    answer = browser.get(f"/games/{game.id}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["vary"]
    sent = answer.num_bytes_downloaded
    assert sent == int(answer.headers["content-length"])
    assert sent < GAME_PAGE_MOST, f"{variant}: {sent} bytes compressed"
    assert answer.content == plain.content  # the same page, whole
    assert f"You play <strong>{power}</strong>" in answer.text
    assert answer.text.count("<svg") == answer.text.count("</svg>") >= 1
    assert answer.headers["content-security-policy"] == plain.headers["content-security-policy"]
    assert len(plain.content) > 3 * sent  # so much gained


def test_other_answers_are_compressed_too_but_not_the_small_ones(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=1)
    player = game.players["France"]
    board = player.get(f"{game.path}/board.svg")
    assert board.headers["content-encoding"] == "gzip" and board.text.startswith("<svg")
    assert board.num_bytes_downloaded < len(board.content) / 2
    small = player.get(f"{game.path}/progress")
    assert small.status_code == 200 and "content-encoding" not in small.headers


def test_a_gzip_member_spliced_from_segments_compressed_apart_reads_back_whole() -> None:
    board = Deflated.of(b"<svg>" + b"<path d='M1,2L3,4Z'/>" * 2000 + b"</svg>")
    page = gzip_of([b"<html><body>", board, b"</body></html>", b""])
    assert gzip.decompress(page) == b"<html><body>" + board.text + b"</body></html>"
    assert len(page) < len(board.text) / 20


@pytest.mark.parametrize(
    ("header", "takes"),
    [("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.5", True), ("*", True),
     ("gzip;q=0", False), ("identity", False), ("", False), ("deflate", False)],
)  # fmt: skip
def test_gzip_is_sent_only_to_a_client_that_takes_it(header: str, takes: bool) -> None:
    from starlette.requests import Request

    scope = {"type": "http", "headers": [(b"accept-encoding", header.encode())]}
    assert accepts_gzip(Request(scope)) is takes


def test_a_board_is_drawn_once_for_a_position_and_a_viewer() -> None:
    variant = load_variant("classic")
    position = variant.initial_position()
    boards = Boards(kept=2)
    first = boards.board(variant, position, OBSERVER)
    svg = draw_board(variant, position, OBSERVER).encode()
    assert b"".join(part.text for part in first) == svg
    assert gzip.decompress(gzip_of(first)) == svg
    assert boards.board(variant, position, OBSERVER) is first  # kept
    assert boards.board(variant, variant.initial_position(), OBSERVER) is first  # the same
    own = boards.board(variant, position, Viewer("France"))  # each viewer's board its own
    assert (
        b"".join(part.text for part in own)
        == draw_board(variant, position, Viewer("France")).encode()
    )
    boards.board(variant, position, Viewer("Italy"))  # a third: the least read goes
    assert boards.board(variant, position, OBSERVER) is not first


def test_the_layers_every_position_of_a_map_shares_are_compressed_once() -> None:
    """The provinces' shapes, the coasts and the labels are most of a board: a board of
    another position, or for another viewer, takes them as they were compressed, and
    compresses only its own fills, pieces and legend."""
    variant = load_variant("classic")
    boards = Boards()
    start = variant.initial_position()
    layers = board_layers(variant, start, OBSERVER)
    fixed = [i for i, layer in enumerate(layers) if layer.fixed]
    assert len(fixed) >= 3
    assert sum(len(layers[i].text) for i in fixed) > 0.8 * sum(len(x.text) for x in layers)
    later = play_phase(variant, start, random_orders(variant, start, random.Random(3))).after
    one = boards.board(variant, start, OBSERVER)
    for other in (boards.board(variant, later, OBSERVER), boards.board(variant, start, MASTER)):
        assert all(other[i] is one[i] for i in fixed)  # the same objects: compressed once
        assert other != one
    assert (
        gzip.decompress(gzip_of(boards.board(variant, later, OBSERVER)))
        == draw_board(variant, later, OBSERVER).encode()
    )
