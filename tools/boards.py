"""Write the boards a player looks at, for every playable variant, into one folder
(``make boards``: build/boards/): the starting position; a movement phase in the third
year of a seeded random game, with its orders and results, chosen where a unit is
dislodged; the retreat phase that follows; and, for variants with secrets, the same
retreat board as one power sees it. Each as SVG and PNG.

    python tools/boards.py [FOLDER]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hegemon.game import PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.position import OBSERVER, PhaseKind, Viewer
from hegemon.randomplay import random_orders
from hegemon.render import board_scene, phase_scene, png_of
from hegemon.variants import available_variants, load_variant

SEED = 1615
YEARS = 2  # played before the phase drawn


def main(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    for name in available_variants():
        variant = load_variant(name)
        result = _phase_with_a_retreat(variant)
        boards = {
            "start": board_scene(variant, variant.initial_position(), OBSERVER),
            f"{result.before.phase.code}-orders": phase_scene(variant, result, OBSERVER),
            f"{result.after.phase.code}-retreat": board_scene(variant, result.after, OBSERVER),
        }
        player = Viewer(power=next(iter(variant.powers)))
        if variant.board_marks(result.after, OBSERVER) != variant.board_marks(result.after, player):
            seen_by = str(player).lower().replace(" ", "-")
            boards[f"{result.after.phase.code}-as-{seen_by}"] = board_scene(
                variant, result.after, player
            )
        for title, board in boards.items():
            (folder / f"{name}-{title}.svg").write_text(board.svg, encoding="utf-8")
            (folder / f"{name}-{title}.png").write_bytes(png_of(board))
            print(f"{folder / name}-{title}.png")
    return 0


def _phase_with_a_retreat(variant: Variant) -> PhaseResult:
    """The first movement phase after `YEARS` years of a seeded random game in which a
    unit is dislodged and may retreat."""
    rng = random.Random(SEED)
    position = variant.initial_position()
    while True:
        orders = random_orders(variant, position, rng)
        draws = settle(chances_for(variant, position), None, rng)
        result = play_phase(variant, position, orders, draws)
        late = position.phase.year >= variant.start_year + YEARS
        if late and position.phase.kind is PhaseKind.MOVEMENT and result.after.dislodged:
            return result
        if result.end:
            raise SystemExit(f"{variant.id}: the game ended before a retreat")
        position = result.after


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "build/boards")))
