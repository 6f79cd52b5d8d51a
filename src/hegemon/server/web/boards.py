"""The boards of game pages, drawn once for each position and viewer and kept, with their
compressed segment (`hegemon.server.web.gzipped`).

Drawing a board (placing some 75 to 200 labels clear of the pieces) and compressing it
cost 25 to 60 ms of the server's time, and every member of a game reads the same position
many times between two adjudications: the page of a position already drawn for that
viewer takes the board as it was drawn. Kept by the position's digest (everything it
holds, `jsonio.position_digest`), not by game: a board is the same whatever game it is
in, and a game's position changes only by adjudication. The most recently read boards are
kept, a bounded number; threads that serve pages share them under a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from hegemon.game import Variant
from hegemon.jsonio import position_digest
from hegemon.position import Position, Viewer
from hegemon.render import draw_board
from hegemon.server.web.gzipped import Deflated

KEPT = 64  # boards kept: some 450 to 650 KB each, the SVG and its compressed segment


class Boards:
    """Boards drawn, the most recently read last, at most `kept` of them."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._boards: OrderedDict[tuple[Variant, str, Viewer], Deflated] = OrderedDict()
        self._lock = threading.Lock()

    def board(self, variant: Variant, position: Position, viewer: Viewer) -> Deflated:
        """The board of the position as the viewer sees it (its SVG, and compressed),
        drawn now if not yet."""
        key = (variant, position_digest(position), viewer)
        with self._lock:
            if key in self._boards:
                self._boards.move_to_end(key)
                return self._boards[key]
        # Drawn outside the lock: two threads may draw the same board at once, and both
        # get the same; none waits on another's drawing.
        drawn = Deflated.of(draw_board(variant, position, viewer).encode())
        with self._lock:
            self._boards[key] = drawn
            while len(self._boards) > self._kept:
                self._boards.popitem(last=False)
        return drawn

    def forget(self) -> None:
        """Keep none (benchmarks/game_page.py measures pages whose board is drawn)."""
        with self._lock:
            self._boards.clear()


BOARDS = Boards()
