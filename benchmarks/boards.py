"""Drawing boards: for each variant, the one-off derivation of its territories (a map
never changes: they are kept on disk, see hegemon.render.stored), reading them back
with a first board, then drawing a board of a mid-game position (SVG),
the same with a phase's orders, and rendering it as PNG (the map's first PNG in this
process, then later boards: issue 27 asks under 100 ms each; and once a board of a
phase whose orders were never drawn, which the PNG cannot draw once for all its viewers:
`hegemon.render.png`); each timed by this
thread's CPU (`time.thread_time`: a busy machine's other work left out) over several
passes, reported as the median and the slowest.

    .venv/bin/python benchmarks/boards.py [--passes N] [VARIANT...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks.targets

from benchmarks.targets import at_most
from hegemon.game import PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.position import OBSERVER
from hegemon.randomplay import random_orders
from hegemon.render import board_scene, draw_board, draw_phase, phase_scene, png_of
from hegemon.render.territories import derive, territories
from hegemon.variants import available_variants, load_variant

BUDGET_MS = 100.0  # the bound for drawing a board of the largest map
PNG = at_most(100, "ms")  # issue 27: a board as PNG, once its map's first is drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="default: every installed variant")
    parser.add_argument("--passes", type=int, default=20, help="timed passes (default 20)")
    args = parser.parse_args()
    for name in args.variants or available_variants():
        _measure(load_variant(name), args.passes)
    return 0


def _measure(variant: Variant, passes: int) -> None:
    started = time.thread_time()
    land = derive(variant.board)
    derived = time.thread_time() - started
    territories(variant.board)  # stored, if it was not yet
    territories.cache_clear()
    started = time.thread_time()
    territories(variant.board)
    first = board_scene(variant, variant.initial_position(), OBSERVER)
    first.layers()  # paths written once
    read = time.thread_time() - started
    started = time.thread_time()
    png_of(first)
    first_png = (time.thread_time() - started) * 1000
    result = _mid_game(variant)
    board = _timed(lambda: draw_board(variant, result.after, OBSERVER), passes)
    phase = _timed(lambda: draw_phase(variant, result, OBSERVER), passes)
    svg = draw_phase(variant, result, OBSERVER)
    png = _timed(lambda: png_of(phase_scene(variant, result, OBSERVER)), max(3, passes // 5))
    started = time.thread_time()
    png_of(phase_scene(variant, _mid_game(variant, years=3), OBSERVER))
    new_phase = (time.thread_time() - started) * 1000
    print(
        f"{variant.board.name}: {len(variant.board.provinces)} provinces, "
        f"{len(land.crossings)} crossings, {len(land.barriers)} barriers"
    )
    print(
        f"  territories: derived in {derived * 1000:.0f} ms, or read from the store with "
        f"a first board in {read * 1000:.0f} ms"
    )
    for what, (median, slowest) in (("board", board), ("board with orders", phase)):
        note = "" if slowest <= BUDGET_MS else "  (over budget)"
        print(f"  {what}: median {median:.1f} ms, slowest {slowest:.1f} ms{note}")
    print(
        f"  PNG: the map's first {first_png:.0f} ms; "
        f"SVG of the board with orders {len(svg) / 1024:.0f} KiB"
    )
    print(
        f"  PNG of a later board: median {png[0]:.0f} ms, slowest {png[1]:.0f} ms  "
        f"{PNG.verdict(png[0])}"
    )
    print(f"  PNG of a new phase's board (its orders drawn for the first time): {new_phase:.0f} ms")


def _timed(work: Callable[[], object], passes: int) -> tuple[float, float]:
    times = []
    for _ in range(passes):
        started = time.thread_time()
        work()
        times.append((time.thread_time() - started) * 1000)
    return statistics.median(times), max(times)


def _mid_game(variant: Variant, years: int = 2) -> PhaseResult:
    """A movement phase `years` after the first year of a seeded random game."""
    rng = random.Random(7)
    position = variant.initial_position()
    while True:
        orders = random_orders(variant, position, rng)
        result = play_phase(
            variant, position, orders, settle(chances_for(variant, position), None, rng)
        )
        if position.phase.year >= variant.start_year + years and result.outcomes:
            return result
        position = result.after


if __name__ == "__main__":
    raise SystemExit(main())
