"""Adjudication speed and memory: Hegemon against the peer judge on the same classic phases.

Plays seeded random games with `hegemon.randomplay` (seeds 0, 1, ...) until it holds
`--samples` phases of each kind (1,000: retreats are the rarest, some ten a game), keeps
each one's position and orders, then adjudicates exactly those phases again, one kind at a
time, with Hegemon and with the peer judge (PyPI ``diplomacy`` 1.1.2). Each line runs a few
passes, the judges taking turns pass by pass, so that the machine's own drift weighs on
both alike; the median pass counts and the spread is shown.

The lines compare equal work, per phase:
- parsed:  Hegemon's `play_phase` from position and parsed orders to the next position,
  every order's outcome built (`PhaseResult.outcomes`); the peer's `Game.process()`,
  which builds its results. Setting up the peer's game for the position is not timed
  (Hegemon needs no such step: a position is its input), nor are its orders given.
- strings: both from the orders as text: Hegemon reads them (`Variant.parse_order`) and
  plays as above; the peer's `Game.set_orders()` and `Game.process()`.
- json:    the JSON round trip, text in and text out: Hegemon's `adjudicate --json` path
  (`jsonio.adjudicate_request` between `jsonio.parse` and `json.dumps`); the peer's own,
  its game's state read from JSON (`Game.set_state`), its orders, process(), and its
  state written back (`get_state`, `json.dumps`).

Issue 27's targets stand beside the movement lines: parsed and strings at least 40 times
the peer, json at least 25 times.

Each call is timed by this thread's CPU (`time.thread_time`), so that other work on a busy
machine does not count: both judges run in this one thread.

The samples are kept out of the garbage collector's sight (`gc.freeze`): a full
collection set off in a timed call would otherwise scan every sample the benchmark
holds, a cost of the benchmark's, not of either judge's.

Memory: for each phase, the peak of Python allocations (tracemalloc) during the measured
call above the level just before it; the table gives the largest over all phases. It is
measured in separate, untimed passes, since tracing slows everything down. For the peer
it is given for process() alone and for the whole phase (setting up its game, orders
and process()), since the peer cannot adjudicate a position without building a game.

Which build of Hegemon runs is whichever Python imports: `make bench` runs this on the
pure package and on the compiled core (HEGEMON_BUILD, printed first).

Usage: ``python benchmarks/classic_phases.py [--quick] [--samples N] [--phases N] [--runs N]``
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
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

from benchmarks.targets import Target, at_least
from hegemon import jsonio
from hegemon.game import Game, Variant, play_phase
from hegemon.orders import Order
from hegemon.position import MASTER, STANDARD_PHASE_KINDS, PhaseKind, Position
from hegemon.randomplay import random_game, random_orders
from hegemon.variants import load_variant


@dataclass(frozen=True)
class Sample:
    """One phase as played: where it started, everyone's orders (parsed, as text, and as a
    request to `adjudicate --json`), the retreats open, and the peer's game standing there
    as its JSON state."""

    position: Position
    orders: Mapping[str, Sequence[Order]]
    texts: Mapping[str, list[str]]
    request: str
    retreats: Mapping[str, list[str]] | None
    peer_state: str


def collect(variant: Variant, wanted: int, phases: int) -> dict[PhaseKind, list[Sample]]:
    """`wanted` phases of each kind from seeded random games of at most `phases` phases
    (seeds 0, 1, ... until the rarest kind has enough)."""
    found: dict[PhaseKind, list[tuple[Position, Mapping[str, Sequence[Order]]]]] = {
        kind: [] for kind in STANDARD_PHASE_KINDS
    }
    seed = 0
    while any(len(held) < wanted for held in found.values()):
        for result in random_game(variant, random.Random(seed), phases):
            found[result.before.phase.kind].append((result.before, result.orders))
        seed += 1
    return {
        kind: [_sample(variant, *phase) for phase in held[:wanted]] for kind, held in found.items()
    }


def _sample(variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]) -> Sample:
    texts = {power: [o.format() for o in given] for power, given in orders.items()}
    request = {"position": jsonio.position_to_json(position, MASTER), "orders": texts}
    retreats = peer.retreats_of(variant, position)
    state = json.dumps(peer.setup(position, retreats).get_state())
    return Sample(position, orders, texts, json.dumps(request), retreats, state)


# --- what each side does for one phase ---------------------------------------------------------

# Given a phase, a Step does the untimed preparation and returns the call to measure.
Step = Callable[[Sample], Callable[[], object]]


def hegemon_parsed(variant: Variant) -> Step:
    return lambda sample: lambda: play_phase(variant, sample.position, sample.orders).outcomes


def hegemon_strings(variant: Variant) -> Step:
    def step(sample: Sample) -> Callable[[], object]:
        def read_and_played() -> object:
            units = sample.position.all_units
            orders = {
                power: [variant.parse_order(text, units) for text in texts]
                for power, texts in sample.texts.items()
            }
            return play_phase(variant, sample.position, orders).outcomes

        return read_and_played

    return step


def hegemon_json(variant: Variant) -> Step:
    def step(sample: Sample) -> Callable[[], object]:
        def text_in_text_out() -> str:
            request = jsonio.parse(sample.request, "the request")
            answer = jsonio.adjudicate_request(request, lambda _: variant, "master")
            return jsonio.dumps(answer, indent=True)

        return text_in_text_out

    return step


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


def peer_json(sample: Sample) -> Callable[[], object]:
    texts = {
        power.upper(): [peer.order_text(order, sample.position) for order in given]
        for power, given in sample.orders.items()
    }

    def json_in_json_out() -> str:
        game = DiplomacyGame()
        game.set_state(json.loads(sample.peer_state))
        for power, given in texts.items():
            game.set_orders(power, given)
        game.process()
        return json.dumps(game.get_state())

    return json_in_json_out


def seconds(samples: Sequence[Sample], step: Step) -> float:
    """Time spent in the measured calls over one pass, preparation left out."""
    counted = 0.0
    for sample in samples:
        call = step(sample)
        start = time.thread_time()
        call()
        counted += time.thread_time() - start
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

LINES = ("parsed", "strings", "json")
# Issue 27's targets, for movement phases: Hegemon's rate over the peer's.
TARGETS: Mapping[str, Target] = {
    "parsed": at_least(40),
    "strings": at_least(40),
    "json": at_least(25),
}


@dataclass(frozen=True)
class Line:
    """One way of adjudicating a kind of phase, measured on both judges."""

    name: str
    count: int
    passes: tuple[tuple[float, float], ...]  # seconds per pass: ours, the peer's

    def rate(self, side: int) -> float:
        """Phases per second in the median pass."""
        return rate(self.count, statistics.median(seconds[side] for seconds in self.passes))

    def rates(self, side: int) -> list[float]:
        """Phases per second, pass by pass, lowest first."""
        return sorted(rate(self.count, seconds[side]) for seconds in self.passes)

    def ratios(self) -> list[float]:
        """Our rate over the peer's, pass by pass, smallest first."""
        return sorted(peer / ours for ours, peer in self.passes)


@dataclass(frozen=True)
class Row:
    kind: PhaseKind
    lines: tuple[Line, ...]
    hegemon_peak: int  # bytes
    peer_peak: int
    peer_everything_peak: int


def measure(variant: Variant, kind: PhaseKind, samples: Sequence[Sample], runs: int) -> Row:
    pairs = {
        "parsed": (hegemon_parsed(variant), peer_process),
        "strings": (hegemon_strings(variant), peer_orders_and_process),
        "json": (hegemon_json(variant), peer_json),
    }
    lines = tuple(
        # The judges take turns pass by pass, so that the machine's drift weighs on each
        # pass's ratio as little as it can; within a pass, each judge runs alone.
        Line(name, len(samples), tuple(_pair(samples, *pairs[name]) for _ in range(runs)))
        for name in LINES
    )
    return Row(
        kind,
        lines,
        peak_bytes(samples, pairs["parsed"][0]),
        peak_bytes(samples, peer_process),
        peak_bytes(samples, peer_everything),
    )


def _pair(samples: Sequence[Sample], ours: Step, theirs: Step) -> tuple[float, float]:
    return seconds(samples, ours), seconds(samples, theirs)


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def print_report(rows: Sequence[Row], phases: int, runs: int) -> None:
    build = os.environ.get("HEGEMON_BUILD", "as imported")
    counts = ", ".join(f"{row.lines[0].count} {row.kind.name.lower()}" for row in rows)
    print(f"Hegemon build: {build}. Classic: {counts} phases of seeded random games of at")
    print(f"most {phases} phases; {runs} passes, the judges taking turns pass by pass.")
    print("Rates are phases per second, the median pass's with the lowest and highest pass's;")
    print("ratios are Hegemon's rate over the peer's, likewise.")
    print("  parsed   hegemon: play_phase() with outcomes built;  peer: Game.process()")
    print("  strings  hegemon: parse_order() of each order, then as above;")
    print("           peer: set_orders(), process()")
    print("  json     hegemon: adjudicate --json's function, text in and out;")
    print("           peer: set_state() from JSON, set_orders(), process(), get_state() to JSON")
    print()
    header = ("phase", "line", "phases", "hegemon", "peer", "hegemon/peer")
    print("{:<11}{:<9}{:>7}{:>22}{:>16}{:>22}".format(*header))
    for row in rows:
        for line in row.lines:
            target = TARGETS.get(line.name) if row.kind is PhaseKind.MOVEMENT else None
            verdict = f"  {target.verdict(statistics.median(line.ratios()))}" if target else ""
            print(
                f"{row.kind.name.lower():<11}{line.name:<9}{line.count:>7}"
                f"{_spread(line.rates(0), '.0f', ''):>22}{_spread(line.rates(1), '.0f', ''):>16}"
                f"{_spread(line.ratios(), '.1f', 'x'):>22}{verdict}"
            )
    print()
    print("Peak memory (tracemalloc, untimed pass): the largest peak of Python allocations made")
    print("during one measured call, above the level just before it, over all phases.")
    print("  hegemon: parsed; peer: process() alone; peer, whole phase: setting up, orders and")
    print("  process()")
    print("{:<11}{:>10}{:>10}{:>19}".format("phase", "hegemon", "peer", "peer, whole phase"))
    for row in rows:
        print(
            f"{row.kind.name.lower():<11}{_kib(row.hegemon_peak):>10}{_kib(row.peer_peak):>10}"
            f"{_kib(row.peer_everything_peak):>19}"
        )


def _spread(values: Sequence[float], digits: str, unit: str) -> str:
    """``12.1x [11.4-12.9]``: the median and the extremes of values sorted lowest first."""
    median = statistics.median(values)
    return f"{median:{digits}}{unit} [{values[0]:{digits}}-{values[-1]:{digits}}]"


def _kib(size: int) -> str:
    return f"{size / 1024:.0f} KiB"


def what_if(variant: Variant, phases: int) -> tuple[float, float, float, float]:
    """Seconds to try a what-if on a game after `phases` random phases: keep the game as it
    stands, then play its next phase with random orders. Hegemon copies its list of
    immutable snapshots and plays the phase, its outcomes built; the peer, whose game is
    one mutable object, must be deep-copied, then given the orders and processed."""
    game = Game.new(variant)
    for result in random_game(variant, random.Random(0), phases):
        game.history.append(result)
    position = game.position
    orders = random_orders(variant, position, random.Random(1))
    ours = _timed(lambda: Game(game.variant, game.start, list(game.history)))
    our_phase = _timed(lambda: play_phase(variant, position, orders).outcomes)
    theirs = DiplomacyGame()
    rng = random.Random(0)
    for _ in range(phases):
        possible = theirs.get_all_possible_orders()
        for power, places in theirs.get_orderable_locations().items():
            theirs.set_orders(power, [rng.choice(possible[p]) for p in places if possible[p]])
        theirs.process()
    their_copy = _timed(lambda: copy.deepcopy(theirs))
    possible = theirs.get_all_possible_orders()
    chosen = {
        power: [rng.choice(possible[p]) for p in places if possible[p]]
        for power, places in theirs.get_orderable_locations().items()
    }

    copies = [copy.deepcopy(theirs) for _ in range(3)]  # a fresh game for each try

    def their_phase() -> None:
        tried = copies.pop()
        for power, given in chosen.items():
            tried.set_orders(power, given)
        tried.process()

    return ours, our_phase, their_copy, _timed(their_phase)


def _timed(action: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.thread_time()
        action()
        best = min(best, time.thread_time() - started)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 of each kind, 1 run")
    parser.add_argument("--samples", type=int, default=1000, help="phases of each kind")
    parser.add_argument("--phases", type=int, default=40, help="at most, a game")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.phases, args.runs = 20, 20, 1
    variant = load_variant("classic")
    samples = collect(variant, args.samples, args.phases)
    # The samples live as long as the run: out of the garbage collector's sight, so that a
    # full collection, which either judge's garbage may set off in a timed call, does not
    # scan them. Else its cost grows with the number of samples held, falls on one pass
    # at random, and swings a line's passes by a factor of three.
    gc.collect()
    gc.freeze()
    rows = [measure(variant, kind, samples[kind], args.runs) for kind in STANDARD_PHASE_KINDS]
    print_report(rows, args.phases, args.runs)
    history = 60 if args.quick else 200
    ours, our_phase, theirs, their_phase = what_if(variant, history)
    print()
    print(f"A what-if on a game after {history} random phases: keep the game, play one phase")
    print(
        f"  hegemon: copy the history list {ours * 1e6:.0f} us, "
        f"play the phase {our_phase * 1e6:.0f} us"
    )
    print(
        f"  peer:    copy.deepcopy(game) {theirs * 1e3:.0f} ms, "
        f"set_orders() and process() {their_phase * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
