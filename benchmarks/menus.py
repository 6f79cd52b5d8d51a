"""Legal orders: the cost of every power's menus in a movement phase, against the peer's
`get_all_possible_orders()`, and each variant's menus against classic's per unit.

Plays seeded random games with `hegemon.randomplay` until it holds `--phases` movement
phases of each variant, then times, phase by phase, the menus of every power with units
(`hegemon.game.menus.offered`: its order forms, every legal order listed), each phase's
position fresh (`Position.evolve`, untimed) and nothing kept from the phase before (the
reach a position's menus share is worked out again: `forget_reach`), as when a player
or a bot first asks after an adjudication. The orders each map's units are given are
made once per map and kept (`hegemon.game.reach`): a process pays for them once.

The peer (PyPI ``diplomacy`` 1.1.2) is set up standing in the same classic positions
(untimed) and asked for `get_all_possible_orders()`, every location's orders.

Each phase is timed by this thread's CPU (`time.thread_time`); the figures are the median
phase, and per unit all phases' time over all their units. Issue 27's targets: classic's
menus under 60 µs a phase and at least 50 times the peer's speed; each variant's within 3
times classic's per unit.

Usage: ``python benchmarks/menus.py [--phases N] [VARIANT ...]``
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks.*, tests.peer

from tests import peer

from benchmarks import variant_phases
from benchmarks.targets import at_least, at_most
from hegemon.game import Variant
from hegemon.game.menus import offered
from hegemon.game.reach import forget_reach
from hegemon.position import Position
from hegemon.variants import load_variant

VARIANTS = ("classic", "sub_saharan", "africa_ii", "african_diplomacy_ii", "african_riots",
            "europe_1615")  # fmt: skip
PHASE = at_most(60, "us")  # classic, every power's menus of a movement phase
PEER = at_least(50)  # classic, against get_all_possible_orders()
PER_UNIT = at_most(3, "x")  # a variant's menus per unit, against classic's


def movements(variant: Variant, wanted: int) -> list[Position]:
    """The positions of the movement phases `benchmarks/variant_phases.py` adjudicates."""
    return [sample.position for sample in variant_phases.collect(variant, wanted)]


def menus_seconds(variant: Variant, position: Position) -> float:
    """CPU seconds for every power's menus of the phase, from a fresh position."""
    fresh = position.evolve()
    powers = sorted({unit.power for unit in fresh.units.values()})
    forget_reach()
    start = time.thread_time()
    for power in powers:
        offered(variant, fresh, power)
    return time.thread_time() - start


def peer_seconds(position: Position) -> float:
    game = peer.setup(position)
    start = time.thread_time()
    game.get_all_possible_orders()
    return time.thread_time() - start


@dataclass(frozen=True)
class Row:
    name: str
    phases: int
    per_phase: float  # the median, seconds
    per_unit: float  # all phases' seconds over all their units


def measure(name: str, positions: Sequence[Position], timed: Callable[[Position], float]) -> Row:
    gc.collect()
    gc.freeze()  # the samples out of the collector's sight, as in classic_phases.py
    times = [timed(position) for position in positions]
    gc.unfreeze()
    units = sum(len(position.units) for position in positions)
    return Row(name, len(positions), statistics.median(times), sum(times) / units)


def menus_row(name: str, positions: Sequence[Position]) -> Row:
    """The variant's menus of these phases, once untimed first, so that the orders each
    map's units are given are made (a process makes them once), and every per-map table."""
    timed = partial(menus_seconds, load_variant(name))
    for position in positions:
        timed(position)
    return measure(name, positions, timed)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=VARIANTS, help="default: all six")
    parser.add_argument("--phases", type=int, default=1000, help="movement phases a variant")
    args = parser.parse_args(argv)
    names = [n for n in args.variants if n != "classic"]
    positions = movements(load_variant("classic"), args.phases)
    ours = menus_row("classic", positions)
    theirs = measure("peer", positions, peer_seconds)
    build = os.environ.get("HEGEMON_BUILD", "as imported")
    print(f"Hegemon build: {build}. Every power's menus of a movement phase (order forms,")
    print(f"every legal order listed), {args.phases} phases a variant from seeded random games,")
    print("each from a fresh position (time.thread_time); per phase the median, per unit all")
    print("phases' time over all their units.")
    print()
    us = ours.per_phase * 1e6
    print(f"classic, all menus of a movement phase: {us:.0f} us  {PHASE.verdict(us)}")
    ratio = theirs.per_phase / ours.per_phase
    print(
        f"classic, against the peer's get_all_possible_orders() ({theirs.per_phase * 1e3:.2f} ms):"
        f" {ratio:.1f}x  {PEER.verdict(ratio)}"
    )
    print()
    print(
        "{:<22}{:>7}{:>10}{:>9}{:>11}".format(
            "variant", "phases", "us/phase", "us/unit", "x classic"
        )
    )
    print(f"{'classic':<22}{ours.phases:>7}{us:>10.0f}{ours.per_unit * 1e6:>9.2f}{1:>11.1f}")
    for name in names:
        row = menus_row(name, movements(load_variant(name), args.phases))
        times = row.per_unit / ours.per_unit
        print(
            f"{name:<22}{row.phases:>7}{row.per_phase * 1e6:>10.0f}{row.per_unit * 1e6:>9.2f}"
            f"{times:>11.1f}  {PER_UNIT.verdict(times)}"
        )


if __name__ == "__main__":
    main()
