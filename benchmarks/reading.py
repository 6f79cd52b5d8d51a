"""Reading orders: the instructions it takes to read one, in our notation and the peer's.

Every order of a few seeded random classic games (`hegemon.randomplay.random_game`) is
written twice: in normal form, as `Order.format` writes it (``A Par - Bur``, ``F Lon S A
Wal - Yor``), and as the peer, the ``diplomacy`` package, writes it (``A PAR - BUR``, ``F
LON S A WAL - YOR``, ``A PAR H``; tests/peer.py). Each is read with `Variant.parse_order`,
the units standing given, as the server and the ``strings`` line of
benchmarks/classic_phases.py read them.

Counted by valgrind (cachegrind, no cache simulation) where it is installed: a child
Python process reads the prepared orders `--repeat` times over, and another does the same
set-up (importing the judge, loading the map and every phase's units, reading the first
phase's orders once, so that what a board works out when first asked is in both) without
reading them; the difference in instructions over the orders read is the cost of one. No
load on the machine moves that count. Without valgrind, the time per order by this
thread's CPU clock (`time.thread_time`), the fastest of three passes, is printed instead.

Issue 27's targets: at most 5,000 instructions per order in normal form, 8,000 in the
peer's notation. Which build runs is whichever Python imports (HEGEMON_BUILD, printed
first): `make bench` runs this on both.

Usage: ``python benchmarks/reading.py [--games N] [--phases N] [--repeat N]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for benchmarks, tests.peer

from benchmarks.targets import Target, at_most
from hegemon import jsonio
from hegemon.game import Variant
from hegemon.position import MASTER, Unit
from hegemon.randomplay import random_game
from hegemon.variants import load_variant

NOTATIONS: Mapping[str, Target] = {
    "normal form": at_most(5000, "instructions"),
    "peer's notation": at_most(8000, "instructions"),
}


@dataclass(frozen=True)
class Phase:
    """One phase's units standing (as JSON, for the child to read) and everyone's orders
    in each notation."""

    position: jsonio.JsonObject
    texts: Mapping[str, list[str]]  # by notation


def prepare(games: int, phases: int) -> list[Phase]:
    """Every phase of the seeded random classic games, its orders in both notations."""
    from tests import peer  # the peer's notation: imports the peer, so only here

    variant = load_variant("classic")
    prepared = []
    for seed in range(games):
        for result in random_game(variant, random.Random(seed), phases):
            orders = [order for given in result.orders.values() for order in given]
            texts = {
                "normal form": [order.format() for order in orders],
                "peer's notation": [peer.order_text(order, result.before) for order in orders],
            }
            prepared.append(Phase(jsonio.position_to_json(result.before, MASTER), texts))
    return prepared


# --- what is counted: the child's side ----------------------------------------------------


def read_all(variant: Variant, phases: Sequence[tuple[Mapping[str, Unit], list[str]]]) -> int:
    """Read every order of every phase once; the number read."""
    read = 0
    for units, texts in phases:
        for text in texts:
            variant.parse_order(text, units)
        read += len(texts)
    return read


def child(data: Path, notation: str, repeat: int) -> None:
    """The process valgrind counts: the set-up, then the orders read `repeat` times."""
    variant = load_variant("classic")
    prepared = json.loads(data.read_text())
    phases = [
        (jsonio.position_from_json(phase["position"], variant).all_units, phase[notation])
        for phase in prepared
    ]
    read_all(variant, phases[:1])  # what the board works out once, in both runs
    for _ in range(repeat):
        read_all(variant, phases)


# --- the parent: counting or timing ---------------------------------------------------------


def instructions(data: Path, notation: str, repeat: int) -> int:
    """The instructions the child executes, counted by valgrind's cachegrind."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "cachegrind.out"
        command = [
            "valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
            sys.executable, __file__, "--child", str(data), "--notation", notation,
            "--repeat", str(repeat),
        ]  # fmt: skip
        # The same hashes in every child, so that the runs differ in the reading alone.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(command, check=True, env=env, capture_output=True)
        return _total(out.read_text())


def _total(report: str) -> int:
    """The total of instructions (Ir) in a cachegrind output file: its ``summary:`` line."""
    for line in report.splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise ValueError("cachegrind wrote no summary")


def per_order_counted(data: Path, notation: str, repeat: int, orders: int) -> float:
    """Instructions per order: the child reading, less the child that does not."""
    return (instructions(data, notation, repeat) - instructions(data, notation, 0)) / (
        repeat * orders
    )


def per_order_timed(phases: Sequence[Phase], notation: str, repeat: int) -> float:
    """Microseconds per order by this thread's CPU clock, the fastest of three passes."""
    variant = load_variant("classic")
    prepared = [
        (jsonio.position_from_json(p.position, variant).all_units, p.texts[notation])
        for p in phases
    ]
    read_all(variant, prepared[:1])

    def passes() -> None:
        for _ in range(repeat):
            read_all(variant, prepared)

    fastest = min(_seconds(passes) for _ in range(3))
    orders = sum(len(texts) for _, texts in prepared)
    return fastest / (repeat * orders) * 1e6


def _seconds(action: Callable[[], object]) -> float:
    started = time.thread_time()
    action()
    return time.thread_time() - started


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--phases", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3, help="times each order is read")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--notation", choices=NOTATIONS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child(args.child, args.notation, args.repeat)
        return
    phases = prepare(args.games, args.phases)
    orders = sum(len(p.texts["normal form"]) for p in phases)
    print(f"Hegemon build: {os.environ.get('HEGEMON_BUILD', 'as imported')}. Reading orders:")
    print(f"the {orders} orders of {args.games} seeded random classic games (at most")
    print(f"{args.phases} phases each), each read {args.repeat} times with Variant.parse_order.")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts; this thread's CPU time instead.")
        for notation in NOTATIONS:
            micros = per_order_timed(phases, notation, args.repeat)
            print(f"  {notation:<16} {micros:6.2f} us per order")
        return
    print("Instructions per order (valgrind's cachegrind): the run reading them, less the run")
    print("that does not.")
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "orders.json"
        data.write_text(json.dumps([{"position": p.position, **p.texts} for p in phases]))
        for notation, target in NOTATIONS.items():
            count = per_order_counted(data, notation, args.repeat, orders)
            print(f"  {notation:<16} {count:8,.0f} instructions per order  {target.verdict(count)}")


if __name__ == "__main__":
    main()
