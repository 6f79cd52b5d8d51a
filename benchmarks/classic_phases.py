"""Adjudication speed and memory: Hegemon against the peer judge on the same classic phases.

Plays a fixed set of seeded random games with `hegemon.randomplay`, keeps every phase's
position and orders, then adjudicates exactly those phases again, one kind at a time,
with Hegemon's `play_phase` and with the peer judge (PyPI ``diplomacy`` 1.1.2). Each side
runs a few passes, the judges taking turns pass by pass, so that the machine's own drift
weighs on both alike; the median pass counts and the spread is shown.

What is timed, per phase:
- Hegemon: one `play_phase` call, from position and orders to the next position.
- peer: `Game.process()` alone. Building the peer's game for the position is not timed
  (Hegemon needs no such step: a position is its input). A second peer figure adds
  `set_orders`, which parses and checks the order strings, as a player's orders would be.

Memory: for each phase, the peak of Python allocations (tracemalloc) during the measured
call above the level just before it; the table gives the largest over all phases. It is
measured in separate, untimed passes, since tracing slows everything down. For the peer
it is given for process() alone and for the whole phase (setting up its game, orders
and process()), since the peer cannot adjudicate a position without building a game.

Usage: ``python benchmarks/classic_phases.py [--quick] [--games N] [--phases N] [--runs N]``
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.peer

from diplomacy import Game as DiplomacyGame
from tests import peer

from hegemon.game import Game, Variant, play_phase
from hegemon.orders import Order
from hegemon.position import STANDARD_PHASE_KINDS, PhaseKind, Position
from hegemon.randomplay import random_game
from hegemon.variants import load_variant


@dataclass(frozen=True)
class Sample:
    """One phase as played: where it started, everyone's orders, the retreats open."""

    position: Position
    orders: Mapping[str, Sequence[Order]]
    retreats: Mapping[str, list[str]] | None


def collect(variant: Variant, games: int, phases: int) -> dict[PhaseKind, list[Sample]]:
    """Every phase of `games` seeded random games of at most `phases` phases, by kind."""
    samples: dict[PhaseKind, list[Sample]] = {kind: [] for kind in STANDARD_PHASE_KINDS}
    for seed in range(games):
        for result in random_game(variant, random.Random(seed), phases):
            position = result.before
            retreats = peer.retreats_of(variant, position)
            samples[position.phase.kind].append(Sample(position, result.orders, retreats))
    return samples


# --- what each side does for one phase ---------------------------------------------------------

# Given a phase, a Step does the untimed preparation and returns the call to measure.
Step = Callable[[Sample], Callable[[], object]]


def hegemon_step(variant: Variant) -> Step:
    return lambda sample: lambda: play_phase(variant, sample.position, sample.orders)


def peer_process(sample: Sample) -> Callable[[], object]:
    game = peer.setup(sample.position, sample.retreats)
    peer.submit(game, sample.position, sample.orders)

    def processed() -> None:
        game.process()

    return processed


def peer_orders_and_process(sample: Sample) -> Callable[[], object]:
    game = peer.setup(sample.position, sample.retreats)

    def ordered_and_processed() -> None:
        peer.submit(game, sample.position, sample.orders)
        game.process()

    return ordered_and_processed


def peer_everything(sample: Sample) -> Callable[[], object]:
    return lambda: peer.play(sample.position, sample.orders, sample.retreats)


def seconds(samples: Sequence[Sample], step: Step) -> float:
    """Time spent in the measured calls over one pass, preparation left out."""
    counted = 0.0
    for sample in samples:
        call = step(sample)
        start = time.perf_counter()
        call()
        counted += time.perf_counter() - start
    return counted


def peak_bytes(samples: Sequence[Sample], step: Step) -> int:
    """The largest peak of allocations made during one measured call, over one pass."""
    largest = 0
    tracemalloc.start()
    try:
        for sample in samples:
            call = step(sample)
            tracemalloc.reset_peak()
            before, _ = tracemalloc.get_traced_memory()
            call()
            _, peak = tracemalloc.get_traced_memory()
            largest = max(largest, peak - before)
    finally:
        tracemalloc.stop()
    return largest


# --- the report -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    kind: PhaseKind
    count: int
    passes: tuple[tuple[float, float, float], ...]  # seconds per pass: ours, peer, peer+orders
    hegemon_peak: int  # bytes
    peer_peak: int
    peer_everything_peak: int

    def rate(self, side: int) -> float:
        """Phases per second in the median pass."""
        return rate(self.count, statistics.median(seconds[side] for seconds in self.passes))

    def ratios(self, side: int) -> list[float]:
        """Our rate over the peer's, pass by pass, smallest first."""
        return sorted(seconds[side] / seconds[0] for seconds in self.passes)


def measure(variant: Variant, kind: PhaseKind, samples: Sequence[Sample], runs: int) -> Row:
    ours = hegemon_step(variant)
    steps = (ours, peer_process, peer_orders_and_process)
    # The judges take turns pass by pass, so that the machine's drift weighs on each
    # pass's ratio as little as it can; within a pass, each judge runs alone.
    passes = tuple(_three([seconds(samples, step) for step in steps]) for _ in range(runs))
    return Row(
        kind,
        len(samples),
        passes,
        peak_bytes(samples, ours),
        peak_bytes(samples, peer_process),
        peak_bytes(samples, peer_everything),
    )


def _three(values: Sequence[float]) -> tuple[float, float, float]:
    ours, peer, peer_orders = values
    return ours, peer, peer_orders


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def print_report(rows: Sequence[Row], games: int, phases: int, runs: int) -> None:
    print(f"Classic: {games} seeded random games (seeds 0-{games - 1}), at most {phases} phases")
    print(f"each; {runs} passes, the judges taking turns pass by pass. Rates are phases")
    print("adjudicated per second in the median pass; ratios are the median pass's, with the")
    print("lowest and highest pass's in brackets.")
    print("  hegemon      play_phase(): position and orders to the next position")
    print("  peer         Game.process() only; setting up the peer's game is not counted")
    print("  peer+orders  Game.set_orders() and Game.process()")
    print()
    header = ("phase", "phases", "hegemon", "peer", "peer+orders", "heg/peer", "heg/(p+o)")
    print("{:<11}{:>7}{:>9}{:>7}{:>13}{:>22}{:>22}".format(*header))
    for row in rows:
        print(
            f"{row.kind.name.lower():<11}{row.count:>7}{row.rate(0):>9.0f}{row.rate(1):>7.0f}"
            f"{row.rate(2):>13.0f}{_spread(row.ratios(1)):>22}{_spread(row.ratios(2)):>22}"
        )
    print()
    print("Peak memory (tracemalloc, untimed pass): the largest peak of Python allocations made")
    print("during one measured call, above the level just before it, over all phases.")
    print("  peer: process() alone; peer, whole phase: setting up, orders and process()")
    print("{:<11}{:>10}{:>10}{:>19}".format("phase", "hegemon", "peer", "peer, whole phase"))
    for row in rows:
        print(
            f"{row.kind.name.lower():<11}{_kib(row.hegemon_peak):>10}{_kib(row.peer_peak):>10}"
            f"{_kib(row.peer_everything_peak):>19}"
        )


def _spread(ratios: Sequence[float]) -> str:
    """``12.1x [11.4-12.9]``: the median and the extremes."""
    return f"{statistics.median(ratios):.1f}x [{ratios[0]:.1f}-{ratios[-1]:.1f}]"


def _kib(size: int) -> str:
    return f"{size / 1024:.0f} KiB"


def keeping_history(variant: Variant, phases: int) -> tuple[float, float, float]:
    """Seconds to keep a game's state after `phases` random phases, so that a what-if can
    be tried on it: Hegemon copies its list of immutable snapshots; the peer, whose game
    is one mutable object, must be deep-copied. Also Hegemon's time for the what-if phase."""
    game = Game.new(variant)
    for result in random_game(variant, random.Random(0), phases):
        game.history.append(result)
    ours = _timed(lambda: Game(game.variant, game.start, list(game.history)))
    what_if = _timed(lambda: play_phase(variant, game.position, {}))
    theirs = DiplomacyGame()
    rng = random.Random(0)
    for _ in range(phases):
        possible = theirs.get_all_possible_orders()
        for power, places in theirs.get_orderable_locations().items():
            theirs.set_orders(power, [rng.choice(possible[p]) for p in places if possible[p]])
        theirs.process()
    return ours, what_if, _timed(lambda: copy.deepcopy(theirs))


def _timed(action: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 games x 20 phases, 1 run")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--phases", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.phases, args.runs = 4, 20, 1
    variant = load_variant("classic")
    samples = collect(variant, args.games, args.phases)
    rows = [measure(variant, kind, samples[kind], args.runs) for kind in STANDARD_PHASE_KINDS]
    print_report(rows, args.games, args.phases, args.runs)
    history = 60 if args.quick else 200
    ours, what_if, theirs = keeping_history(variant, history)
    print()
    print(f"Keeping a game after {history} random phases, to try a what-if on it:")
    print(
        f"  hegemon: copy the history list {ours * 1e6:.0f} us, then play the what-if "
        f"phase {what_if * 1e6:.0f} us"
    )
    print(f"  peer:    copy.deepcopy(game) {theirs * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
