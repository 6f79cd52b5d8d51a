"""How well the bot plays and what a decision costs, per variant: seeded games of (a) one
bot against random players and (b) bots in every seat.

In (a) the other powers give the orders of the project's random player
(`hegemon.randomplay.random_orders`), and the bot's seat goes round the powers by seed.
The report gives the bot's mean share of the points at the end (supply centers, or
victory points where the variant scores by them: `Variant.points`), a random player's,
their ratio and the bot's outright wins; for (b) how the games ended, the orders the
phase's check refused and the errors; for both, the CPU time of a decision by phase
kind: the power's sight made (`sight_of`, its menu above all) and the bot's orders. It
exits non-zero on any error or refused order.

A game ends by the variant's rules, at its own last year where it has one (Europe 1615,
Africa II, Sub-Saharan's year cap), or else at the benchmark's year cap (`CAP_YEARS`), which
counts as its end.

The whole benchmark takes some 45 minutes on two cores, so each game is recorded as it
ends, one JSON line in `--record FILE`, and a run given the same file goes on from where
the last one stopped: it plays only the games the file lacks and reports on all of them.
A line holds a digest of the package's sources it was played on and the budget, so that
games of another bot or another budget are never mixed in.

    .venv/bin/python benchmarks/bots.py [--games N] [--variants ID ...] [--jobs N]
                                        [--budget-ms MS] [--playouts N] [--modes ...]
                                        [--record FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from hegemon.bots import Bot, Budget, sight_of
from hegemon.game import GameEnd, Variant, chances_for, play_phase, settle
from hegemon.orders import Order
from hegemon.position import Position
from hegemon.randomplay import random_orders
from hegemon.variants import available_variants, load_variant

SOURCES = Path(__file__).resolve().parent.parent / "src" / "hegemon"

VARIANTS = tuple(available_variants())  # every variant installed
# Years played in a variant with no last year of its own, counted from its first: long
# enough for a bot to win against random players (classic bots do so by their twelfth year
# or so), and to end games of bots against bots that stall, as equals do, in a bounded time.
CAP_YEARS = 30
# The variants whose games stop at a last year of their own rules or options, by default.
OWN_END = frozenset({"sub_saharan", "europe_1615", "africa_ii"})
# The option that caps a variant's games at a year where it has one that is off by default.
YEAR_OPTIONS = {"african_diplomacy_ii": "last_year"}
MAX_PHASES = 1000  # a game still going after so many phases counts as not ended


class Mode(StrEnum):
    ONE_BOT = "one bot against random players"
    ALL_BOTS = "bots in every seat"


@dataclass(frozen=True)
class Cost:
    """One decision's CPU time: the power's sight made (its menu), and the bot's orders."""

    kind: str  # the phase kind
    sight_ms: float
    orders_ms: float


@dataclass
class Record:
    """One game's outcome as the report needs it."""

    variant: str
    mode: Mode
    seed: int
    seat: str  # the bot's power in (a); empty in (b)
    shares: dict[str, float] = field(default_factory=dict)  # each power's share at the end
    winners: tuple[str, ...] = ()  # an outright win: one power
    ending: str = ""  # "solo", "draw", "year cap", ... or "not ended"
    costs: list[Cost] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0  # the game's CPU time, judge and players alike


def configured(variant_id: str) -> tuple[Variant, int | None]:
    """The variant as the benchmark plays it, and the last year it plays to, if the
    variant's own rules stop it at none."""
    variant = load_variant(variant_id)
    if variant_id in YEAR_OPTIONS:
        last = variant.start_year + CAP_YEARS - 1
        return variant.configure({YEAR_OPTIONS[variant_id]: last}), None
    if variant_id in OWN_END:
        return variant, None
    return variant, variant.start_year + CAP_YEARS - 1


def play(variant_id: str, mode: Mode, seed: int, budget: Budget) -> Record:
    """One seeded game; an error is recorded, not raised."""
    variant, last_year = configured(variant_id)
    powers = list(variant.powers)
    seat = powers[seed % len(powers)] if mode is Mode.ONE_BOT else ""
    record = Record(variant_id, mode, seed, seat)
    started = time.thread_time()
    try:
        _play(variant, last_year, record, budget)
    except Exception:  # a benchmark reports every failure, then goes on
        record.error = f"{variant_id} {mode.name} seed {seed}: {traceback.format_exc(limit=-3)}"
    record.seconds = time.thread_time() - started
    return record


def _play(variant: Variant, last_year: int | None, record: Record, budget: Budget) -> None:
    rng = random.Random(record.seed)
    bots = {p: Bot(budget, seed=record.seed * 100 + i) for i, p in enumerate(variant.powers)}
    seated = [record.seat] if record.seat else list(variant.powers)
    position = variant.initial_position()
    record.ending = "not ended"
    for _ in range(MAX_PHASES):
        if last_year is not None and position.phase.year > last_year:
            record.ending = "year cap"
            break
        orders = _orders(variant, position, rng, bots, seated, record)
        result = play_phase(
            variant, position, orders, settle(chances_for(variant, position), None, rng)
        )
        position = result.after
        if result.end:
            record.ending = _ending(result.end)
            record.winners = result.end.winners if len(result.end.winners) == 1 else ()
            break
    points = variant.points(position)
    total = sum(points.values()) or 1
    record.shares = {p: points.get(p, 0) / total for p in variant.powers}


def _orders(
    variant: Variant,
    position: Position,
    rng: random.Random,
    bots: dict[str, Bot],
    seated: Sequence[str],
    record: Record,
) -> dict[str, list[Order]]:
    """Everyone's orders: the random player's, then the bots' in their seats, each
    checked by the phase's check and timed."""
    procedure = variant.calendar.procedure(position.phase)
    orders = random_orders(variant, position, rng) if record.seat else {}
    for power in seated:
        orders.pop(power, None)
        if power not in procedure.actors(variant, position):
            continue
        started = time.thread_time()
        sight = sight_of(variant, position, power)
        seen = time.thread_time()
        given = bots[power].orders(sight)
        done = time.thread_time()
        record.costs.append(
            Cost(position.phase.kind.name, 1000 * (seen - started), 1000 * (done - seen))
        )
        problems = procedure.check(variant, position, power, given)
        record.illegal += [f"{position.phase} {power}: {p}" for p in problems]
        orders[power] = given
    return orders


def _ending(end: GameEnd) -> str:
    return str(end.how) if end.how is not None else ("solo" if end.winners else "draw")


def _task(args: tuple[str, Mode, int, Budget]) -> Record:
    return play(*args)


@dataclass(frozen=True)
class Run:
    """What a recorded game must have been played with to count in this run."""

    code: str  # the digest of the package's sources (`fingerprint`)
    seconds: float  # the budget's
    playouts: int | None


Key = tuple[str, str, int]  # a game: its variant, mode's name and seed


def fingerprint() -> str:
    """A digest of the package's sources and data, as this checkout holds them: the
    compiled build that `make bench-bots` plays on is rebuilt from them when they change."""
    digest = hashlib.sha256()
    for path in sorted(SOURCES.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(SOURCES)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def record_line(run: Run, record: Record) -> str:
    """The record's line in the file: the run, then the game."""
    game = dataclasses.asdict(record)
    game["mode"] = record.mode.name
    return json.dumps({"run": dataclasses.asdict(run), "game": game}, ensure_ascii=False)


def recorded(path: Path, run: Run) -> dict[Key, Record]:
    """The games of this run the file holds. A line of another run is passed over; a
    line that cannot be read (the last one, if a run was killed while writing it) is
    passed over with a warning, and its game played again."""
    games: dict[Key, Record] = {}
    if not path.exists():
        return games
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            data = json.loads(line)
            if Run(**data["run"]) == run:
                record = _record(data["game"])
                games[_key(record)] = record
        except (ValueError, KeyError, TypeError) as problem:
            print(f"{path}:{number}: passed over, not a game's record ({problem})", file=sys.stderr)
    return games


# Any: a line of the benchmark's own file as `record_line` wrote it; a line of another
# shape raises in here, and `recorded` passes it over.
def _record(game: dict[str, Any]) -> Record:
    return Record(
        **{
            **game,
            "mode": Mode[game["mode"]],
            "winners": tuple(game["winners"]),
            "costs": [Cost(**cost) for cost in game["costs"]],
        }
    )


def _key(record: Record) -> Key:
    return (record.variant, record.mode.name, record.seed)


def report(variant_id: str, records: Sequence[Record]) -> list[str]:
    """The variant's lines of the table."""
    lines = [f"{variant_id}"]
    one = [r for r in records if r.mode is Mode.ONE_BOT and r.error is None]
    if one:
        bot = statistics.mean(r.shares[r.seat] for r in one)
        others = [s for r in one for p, s in r.shares.items() if p != r.seat]
        random_share = statistics.mean(others) if others else 0.0
        ratio = bot / random_share if random_share else float("inf")
        wins = sum(r.winners == (r.seat,) for r in one)
        lines.append(
            f"  (a) {len(one)} games: bot share {bot:.3f}, random player's {random_share:.3f}, "
            f"ratio {ratio:.1f}; bot won {wins} ({100 * wins / len(one):.0f}%)"
        )
    every = [r for r in records if r.mode is Mode.ALL_BOTS]
    if every:
        endings = Counter(r.ending for r in every if r.error is None)
        ended = sum(n for ending, n in endings.items() if ending != "not ended")
        shown = ", ".join(f"{n} {ending}" for ending, n in endings.most_common())
        lines.append(f"  (b) {len(every)} games: {ended} ended ({shown})")
        seconds = sorted(r.seconds for r in every)
        lines.append(
            f"      a game's CPU time: mean {statistics.mean(seconds):.1f} s, "
            f"longest {seconds[-1]:.1f} s"
        )
    illegal = sum(len(r.illegal) for r in records)
    errors = sum(r.error is not None for r in records)
    lines.append(f"  illegal orders {illegal}, errors {errors}")
    costs: dict[str, list[Cost]] = {}
    for r in records:
        for cost in r.costs:
            costs.setdefault(cost.kind, []).append(cost)
    for kind, found in sorted(costs.items()):
        whole = sorted(c.sight_ms + c.orders_ms for c in found)
        p95 = whole[min(len(whole) - 1, int(0.95 * len(whole)))]
        sight = statistics.mean(c.sight_ms for c in found)
        orders = statistics.mean(c.orders_ms for c in found)
        lines.append(
            f"  {kind:<11} decision: mean {statistics.mean(whole):6.1f} ms "
            f"(sight {sight:5.1f} + bot {orders:5.1f}), p95 {p95:6.1f} ms ({len(found)} decisions)"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per variant and mode")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games")
    parser.add_argument(
        "--budget-ms", type=float, default=1000 * Budget().seconds, help="CPU ms a decision"
    )
    parser.add_argument("--playouts", type=int, help="playouts a decision, instead of time")
    parser.add_argument(
        "--modes", nargs="+", default=[m.name for m in Mode], choices=[m.name for m in Mode]
    )
    parser.add_argument(
        "--record", type=Path, help="JSON lines: each game as it ends; a run goes on from it"
    )
    args = parser.parse_args()
    budget = Budget(args.budget_ms / 1000, args.playouts)
    run = Run(fingerprint(), budget.seconds, budget.playouts)
    done = recorded(args.record, run) if args.record else {}
    modes = [Mode[m] for m in args.modes]
    failed = False
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for variant_id in args.variants:
            games = [(variant_id, m.name, seed) for m in modes for seed in range(args.games)]
            records = [done[game] for game in games if game in done]
            tasks = [(v, Mode[m], seed, budget) for v, m, seed in games if (v, m, seed) not in done]
            progress = Progress(variant_id, len(games), len(records))
            for record in pool.imap_unordered(_task, tasks):
                records.append(record)
                if args.record:
                    with args.record.open("a", encoding="utf-8") as file:
                        print(record_line(run, record), file=file)
                progress.played()
            progress.close()
            for line in report(variant_id, records):
                print(line, flush=True)
            for record in records:
                for line in [*record.illegal[:3], *([record.error] if record.error else [])]:
                    print(f"    {line}")
            failed |= any(r.illegal or r.error for r in records)
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 1 if failed else 0


class Progress:
    """A variant's games played so far, with the time the rest should take, on one line
    of the standard error."""

    def __init__(self, variant_id: str, games: int, recorded: int) -> None:
        self.variant_id, self.games, self.recorded = variant_id, games, recorded
        self.done = recorded
        self.started = time.perf_counter()
        self._show()

    def played(self) -> None:
        self.done += 1
        self._show()

    def close(self) -> None:
        print(file=sys.stderr)

    def _show(self) -> None:
        elapsed = time.perf_counter() - self.started
        line = f"\r{self.variant_id}: {self.done}/{self.games} games"
        if self.recorded:
            line += f" ({self.recorded} from the record)"
        played = self.done - self.recorded
        if played and self.done < self.games:
            line += f", about {elapsed / played * (self.games - self.done) / 60:.0f} min to go"
        print(line, end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
