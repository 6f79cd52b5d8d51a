"""Movement phases of every variant: the cost of adjudicating one, per phase and per unit,
against classic's.

Plays seeded random games of each variant with `hegemon.randomplay` until it holds enough
movement phases, keeps each one's position, orders and draws, then adjudicates exactly
those phases again with `play_phase`, every order's outcome built, timing each call with
`time.thread_time` (the CPU time of this thread: another process on the machine does not
count). Each phase is played `--runs` times and its fastest run counts.

Each call starts from a fresh copy of its position (`Position.evolve`, untimed), as a game
does: a position is made by the phase before it, so what a variant works out once on a
position and keeps there is worked out afresh in every phase, and must be timed so.

The target (issue 27): every variant's movement phase costs at most 3 times classic's per
unit. Per unit is the time of all phases over all their units; per phase, the median.

Which build runs is whichever Python imports: `make bench` runs this on the pure package
and on the compiled core (HEGEMON_BUILD, printed first).

Usage: ``python benchmarks/variant_phases.py [--phases N] [--runs N] [VARIANT ...]``
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hegemon.game import Draw, Variant, play_phase
from hegemon.orders import Order
from hegemon.position import PhaseKind, Position
from hegemon.randomplay import random_game
from hegemon.variants import load_variant

sys.path.insert(0, str(Path(__file__).parents[1]))  # run as a script: benchmarks.* importable

from benchmarks.targets import at_most

VARIANTS = (
    "classic",
    "sub_saharan",
    "africa_ii",
    "african_diplomacy_ii",
    "african_riots",
    "europe_1615",
)
TARGET = at_most(3, "x")  # classic's cost per unit, times (issue 27)
GAME_PHASES = 60  # at most, a game: some 20 movement phases, from the opening to the middle


@dataclass(frozen=True)
class Sample:
    """One movement phase as played: where it started, everyone's orders, the draws."""

    position: Position
    orders: Mapping[str, tuple[Order, ...]]
    draws: Mapping[str, Draw]


def collect(variant: Variant, wanted: int) -> list[Sample]:
    """The movement phases of seeded random games (seeds 0, 1, ...) until there are
    `wanted` of them."""
    samples: list[Sample] = []
    seed = 0
    while len(samples) < wanted:
        for result in random_game(variant, random.Random(seed), GAME_PHASES):
            if result.before.phase.kind is PhaseKind.MOVEMENT:
                samples.append(Sample(result.before, result.orders, result.draws))
        seed += 1
    return samples[:wanted]


def fastest(variant: Variant, sample: Sample, runs: int) -> float:
    """Seconds of CPU time to adjudicate the phase, outcomes built: the fastest of `runs`."""
    best = float("inf")
    for _ in range(runs):
        position = sample.position.evolve()  # fresh: nothing kept from an earlier run
        start = time.thread_time()
        _ = play_phase(variant, position, sample.orders, sample.draws).outcomes
        best = min(best, time.thread_time() - start)
    return best


@dataclass(frozen=True)
class Row:
    name: str
    phases: int
    per_phase: float  # median, seconds
    per_unit: float  # seconds: all phases' time over all their units


def measure(name: str, wanted: int, runs: int) -> Row:
    variant = load_variant(name)
    samples = collect(variant, wanted)
    # Out of the garbage collector's sight, as in classic_phases.py: a full collection in
    # a timed call would otherwise scan every sample held.
    gc.collect()
    gc.freeze()
    times = [fastest(variant, sample, runs) for sample in samples]
    units = sum(len(sample.position.units) for sample in samples)
    gc.unfreeze()
    return Row(name, len(samples), statistics.median(times), sum(times) / units)


def print_report(rows: Sequence[Row], runs: int) -> None:
    build = os.environ.get("HEGEMON_BUILD", "as imported")
    print(f"Hegemon build: {build}. Movement phases of seeded random games (at most")
    print(f"{GAME_PHASES} phases a game), each adjudicated {runs} times from a fresh position,")
    print("its fastest run counted (time.thread_time); per phase the median, per unit all")
    print("phases' time over all their units.")
    print()
    header = ("variant", "phases", "us/phase", "us/unit", "x classic")
    print("{:<22}{:>7}{:>10}{:>9}{:>11}".format(*header))
    classic = next(row.per_unit for row in rows if row.name == "classic")
    for row in rows:
        ratio = row.per_unit / classic
        print(
            f"{row.name:<22}{row.phases:>7}{row.per_phase * 1e6:>10.0f}"
            f"{row.per_unit * 1e6:>9.1f}{ratio:>11.1f}   {TARGET.verdict(ratio)}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=VARIANTS, help="default: all six")
    parser.add_argument("--phases", type=int, default=1000, help="movement phases a variant")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    names = list(args.variants)
    if "classic" not in names:
        names.insert(0, "classic")  # the ratio's measure
    print_report([measure(name, args.phases, args.runs) for name in names], args.runs)


if __name__ == "__main__":
    main()
