"""Complete random Sub-Saharan games: every player gives random legal orders and random legal
Diplomacy Point bids, from Spring 1881 until the game ends (a solo, or the ten-year cap's
draw after 1890). Reports games per second and what the games looked like.

    .venv/bin/python benchmarks/sub_saharan_games.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from hegemon.game import PhaseResult
from hegemon.orders import Bid
from hegemon.randomplay import random_game
from hegemon.variants import load_variant

MAX_PHASES = 200  # far more than ten years need: a game that ran out would be reported


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    args = parser.parse_args()
    variant = load_variant("sub_saharan")
    endings: Counter[str] = Counter()
    phases = bids = neutral_moves = neutral_orders = 0
    failures: list[str] = []
    started = time.perf_counter()
    for seed in range(args.games):
        try:
            history = list(random_game(variant, random.Random(seed), MAX_PHASES))
        except Exception as exc:  # a benchmark reports every failure, then goes on
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            continue
        endings[_ending(history[-1])] += 1
        phases += len(history)
        for result in history:
            bids += sum(isinstance(o, Bid) for given in result.orders.values() for o in given)
            neutral = [line for line in result.public if line.startswith("   ")]
            neutral_orders += len(neutral)
            neutral_moves += sum(not line.rstrip().endswith(" H") for line in neutral)
        _progress(seed + 1, args.games)
    elapsed = time.perf_counter() - started
    print(file=sys.stderr)
    played = args.games - len(failures)
    print(f"Sub-Saharan: {played} of {args.games} seeded random games completed in {elapsed:.1f} s")
    print(f"  {played / elapsed:.1f} games per second, {phases / elapsed:.0f} phases per second")
    print(f"  endings: {dict(endings)}; {phases / max(played, 1):.1f} phases a game")
    print(
        f"  {bids} bids; minor units given an order other than hold: "
        f"{neutral_moves} of {neutral_orders}"
    )
    for failure in failures:
        print(f"  FAILED {failure}")
    return 1 if failures else 0


def _ending(last: PhaseResult) -> str:
    if last.end.winners:
        return "solo"
    if last.end.draw:
        return "draw at the year cap"
    return f"unfinished after {MAX_PHASES} phases"


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        width = 30
        filled = width * done // total
        print(
            f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    raise SystemExit(main())
