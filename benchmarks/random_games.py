"""Complete random games of a variant: every player gives random legal orders and random
legal orders of the variant's own kinds (Sub-Saharan's DP bids, Europe 1615's INF
deployments and diplomatic attacks, African Diplomacy II's placements and declarations of
home centers, Africa II's IP spending, civil wars, aid and guerillas) from the first phase until the
game ends. Reports games per second and what
the games looked like; any game that fails is reported by its seed.

A variant whose games end only in a solo may be stopped at a year instead: by a game option
of its own where it has one (`--option last_year=1920` for African Diplomacy II), or else by
`--years`, which stops a game nobody has won after that many years without ending it by any
rule (African Riots, whose random players take from 25 to 200 years and more before one power
holds 38 centers, and now and then never do).

    .venv/bin/python benchmarks/random_games.py VARIANT [--games N] [--option NAME=VALUE]...
                                                [--years N]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter

from hegemon.game import PhaseResult, SetupError, Variant
from hegemon.orders import STANDARD_ORDERS
from hegemon.randomplay import random_game
from hegemon.variants import load_variant

MAX_PHASES = 300  # far more than games with an end year last: one that ran out is reported
PHASES_A_YEAR = 6  # more than any calendar plays, so that a year cap comes before MAX_PHASES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="e.g. sub_saharan or europe_1615")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. last_year=1920 for a variant whose games end only by a solo",
    )
    parser.add_argument(
        "--years", type=int, help="stop a game nobody has won after this many years"
    )
    args = parser.parse_args()
    try:
        variant = load_variant(args.variant).configure(dict(map(_option, args.option)))
    except SetupError as exc:
        parser.error(str(exc))
    last_year = None if args.years is None else variant.start_year + args.years - 1
    endings: Counter[str] = Counter()
    phases = influence = 0
    failures: list[str] = []
    started = time.perf_counter()
    for seed in range(args.games):
        try:
            history = _play(variant, seed, last_year)
        except Exception as exc:  # a benchmark reports every failure, then goes on
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            continue
        endings[_ending(history[-1], last_year)] += 1
        phases += len(history)
        influence += sum(
            not isinstance(o, STANDARD_ORDERS)
            for r in history
            for given in r.orders.values()
            for o in given
        )
        _progress(seed + 1, args.games)
    elapsed = time.perf_counter() - started
    played = args.games - len(failures)
    print(file=sys.stderr)
    print(
        f"{variant.board.name}: {played} of {args.games} seeded random games completed "
        f"in {elapsed:.1f} s"
    )
    print(f"  {played / elapsed:.1f} games per second, {phases / elapsed:.0f} phases per second")
    print(f"  endings: {dict(endings)}; {phases / max(played, 1):.1f} phases a game")
    print(f"  {influence} orders of the variant's own kinds (bids, deployments, placements ...)")
    for failure in failures:
        print(f"  FAILED {failure}")
    return 1 if failures else 0


def _option(text: str) -> tuple[str, object]:
    """``last_year=1920`` -> ("last_year", 1920): the value as JSON, else as text."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _play(variant: Variant, seed: int, last_year: int | None) -> list[PhaseResult]:
    """One seeded random game, to its end or to the end of `last_year`."""
    if last_year is None:
        return list(random_game(variant, random.Random(seed), MAX_PHASES))
    phases = PHASES_A_YEAR * (last_year - variant.start_year + 1)
    history = []
    for result in random_game(variant, random.Random(seed), phases):
        history.append(result)
        if result.after.phase.year > last_year:
            break
    return history


def _ending(last: PhaseResult, last_year: int | None) -> str:
    if last.end.winners:
        return f"won by {' and '.join(last.end.winners)}" if len(last.end.winners) < 3 else "won"
    if last.end.draw:
        return "drawn"
    if last_year is not None and last.after.phase.year > last_year:
        return f"no winner by the end of {last_year}"
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
