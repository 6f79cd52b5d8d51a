"""The boards of game pages, drawn once for each position and viewer and kept, compressed
in parts (`hegemon.server.web.gzipped`).

Drawing a board (placing some 75 to 200 labels clear of the pieces) and compressing it
cost 25 to 60 ms of the server's time, and every member of a game reads the same position
many times between two adjudications: the page of a position already drawn for that
viewer takes the board as it was drawn. Kept by the position's digest (everything it
holds, `jsonio.position_digest`), not by game: a board is the same whatever game it is
in, and a game's position changes only by adjudication. The most recently read boards are
kept, a bounded number; threads that serve pages share them under a lock.

A board is kept as two parts: its map, and its legend, whose heading names its viewer.
The map is most of it, and most often the same for every viewer of a position (but where
a variant marks it for one): a map already compressed for one viewer is not compressed
again for the next.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeVar

from hegemon.game import Variant
from hegemon.jsonio import position_digest
from hegemon.orders import Order
from hegemon.position import Position, Viewer
from hegemon.render import draw_board
from hegemon.server.web.gzipped import Deflated

# A board's key: its variant, its position's digest, its viewer and the orders drawn on it.
BoardKey = tuple[Variant, str, Viewer, tuple[tuple[str, str], ...]]
KEPT = 64  # boards kept, and maps: some 450 to 650 KB each, its text and compressed
LEGEND = b'<g id="legend">'  # where a board's legend begins, after its map


class Boards:
    """Boards drawn, the most recently read last, at most `kept` of them."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._boards: OrderedDict[BoardKey, tuple[Deflated, ...]] = OrderedDict()
        self._maps: OrderedDict[bytes, Deflated] = OrderedDict()  # by their own text
        self._lock = threading.Lock()

    def board(
        self,
        variant: Variant,
        position: Position,
        viewer: Viewer,
        pending: Sequence[tuple[str, Order]] = (),
    ) -> tuple[Deflated, ...]:
        """The board of the position as the viewer sees it, with the orders `pending` the
        viewer has given (`draw_board`), in parts, each compressed (`gzipped.gzip_of`),
        drawn now if not yet. The orders are in the key: a board kept is never shown with
        orders since changed, nor to a viewer who did not give them."""
        given = tuple((power, order.format()) for power, order in pending)
        key = (variant, position_digest(position), viewer, given)
        with self._lock:
            if key in self._boards:
                self._boards.move_to_end(key)
                return self._boards[key]
        # Drawn outside the lock: two threads may draw the same board at once, and both
        # get the same; none waits on another's drawing.
        svg = draw_board(variant, position, viewer, pending).encode()
        drawing, legend, rest = svg.partition(LEGEND)
        parts = (self._map(drawing), Deflated.of(legend + rest)) if legend else (self._map(svg),)
        with self._lock:
            _keep(self._boards, key, parts, self._kept)
        return parts

    def _map(self, text: bytes) -> Deflated:
        """The map compressed: as it was for another viewer, if it was."""
        with self._lock:
            if text in self._maps:
                self._maps.move_to_end(text)
                return self._maps[text]
        compressed = Deflated.of(text)
        with self._lock:
            _keep(self._maps, text, compressed, self._kept)
        return compressed

    def forget(self) -> None:
        """Keep none (benchmarks/game_page.py measures pages whose board is drawn)."""
        with self._lock:
            self._boards.clear()
            self._maps.clear()


K = TypeVar("K")
V = TypeVar("V")


def _keep(kept: OrderedDict[K, V], key: K, value: V, most: int) -> None:
    """Keep the value, and at most `most`: the least recently read go."""
    kept[key] = value
    while len(kept) > most:
        kept.popitem(last=False)


BOARDS = Boards()
