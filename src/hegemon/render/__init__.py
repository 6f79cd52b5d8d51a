"""The board as players read it: territories, centers, units, a phase's orders and the
variant's own marks, with a legend, as SVG (each province an element with its id, for a
page to make clickable) and as PNG.

`draw_board(variant, position, viewer, pending)` draws a position as `viewer` may see it
(the empty map where the position is None), with `pending` orders given and not yet
adjudicated drawn on it (a player's own, while ordering);
`draw_phase(variant, result, viewer)` draws the position a phase started from with that
phase's orders and their results; `board_scene` and `phase_scene` take the same and give
the board to draw either way, `png_of(scene)` as PNG;
`draw_thumbnail(variant)` draws the board small, as a game begins, for a gallery. The
territories come from the map's data alone
(`hegemon.render.territories`), so any variant draws without code of its own; what a
variant adds (a state's status, a unit that never moves) comes from its
`Variant.board_marks`, made from what the viewer may see.
"""

from __future__ import annotations

from hegemon.render.board import board_scene, draw_board, draw_phase, phase_scene
from hegemon.render.png import PngError, png_of
from hegemon.render.thumbnail import draw_thumbnail

__all__ = [
    "PngError",
    "board_scene",
    "draw_board",
    "draw_phase",
    "draw_thumbnail",
    "phase_scene",
    "png_of",
]
