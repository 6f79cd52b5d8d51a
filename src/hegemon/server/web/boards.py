"""The boards of game pages, drawn once for each position and viewer and kept, compressed
in parts (`hegemon.server.web.gzipped`).

A board is drawn in layers (`hegemon.render.board.board_layers`), most of its text in
layers that are the same for every position of its map (the provinces' shapes, the
coasts, the labels): each of those is compressed once and kept, and a new position
compresses only what changed, its fills, pieces, orders and legend (some 15 to 25 KB of
its 250 to 480). Every member of a game reads the same position many times between two
adjudications: the page of a position already drawn for that viewer takes the board as it
was drawn. Kept by the position's digest (everything it holds, `jsonio.position_digest`),
not by game: a board is the same whatever game it is in, and a game's position changes
only by adjudication. The most recently read boards are kept, a bounded number; threads
that serve pages share them under a lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from hegemon.game import Variant
from hegemon.jsonio import position_digest
from hegemon.orders import Order
from hegemon.position import Position, Viewer
from hegemon.render.board import board_layers
from hegemon.server.kept import Kept
from hegemon.server.web.gzipped import Deflated

# A board's key: its variant, its position's digest, its viewer and the orders drawn on it.
BoardKey = tuple[Variant, str, Viewer, tuple[tuple[str, str], ...]]
KEPT = 64  # boards kept, some 40 to 60 KB each; and fixed layers, some 100 to 650 KB


class Boards:
    """Boards drawn, and the layers they share, at most `kept` of each."""

    def __init__(self, kept: int = KEPT) -> None:
        self._boards: Kept[BoardKey, tuple[Deflated, ...]] = Kept(kept)
        # By their own text, which the renderer keeps: so its hash is reckoned once.
        self._fixed: Kept[str, Deflated] = Kept(kept)

    def board(
        self,
        variant: Variant,
        position: Position,
        viewer: Viewer,
        pending: Sequence[tuple[str, Order]] = (),
        digest: str | None = None,
    ) -> tuple[Deflated, ...]:
        """The board of the position as the viewer sees it, with the orders `pending` the
        viewer has given (`draw_board`), in parts, each compressed (`gzipped.gzip_of`),
        drawn now if not yet. The orders are in the key: a board kept is never shown with
        orders since changed, nor to a viewer who did not give them. `digest`: the
        position's (`jsonio.position_digest`), if the caller has it already."""
        given = tuple((power, order.format()) for power, order in pending)
        key = (variant, digest or position_digest(position), viewer, given)
        return self._boards.get(key, lambda: self._draw(variant, position, viewer, pending))

    def _draw(
        self,
        variant: Variant,
        position: Position,
        viewer: Viewer,
        pending: Sequence[tuple[str, Order]],
    ) -> tuple[Deflated, ...]:
        return tuple(
            self._fixed.get(layer.text, partial(_deflated, layer.text))
            if layer.fixed
            else _deflated(layer.text)
            for layer in board_layers(variant, position, viewer, pending)
        )

    def forget(self, layers: bool = False) -> None:
        """Keep no board, and, if `layers`, no fixed layer compressed either
        (benchmarks/game_page.py measures pages whose board is drawn)."""
        self._boards.clear()
        if layers:
            self._fixed.clear()


def _deflated(text: str) -> Deflated:
    return Deflated.of(text.encode())


BOARDS = Boards()
