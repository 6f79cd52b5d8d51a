"""The server under load, on loopback only: many clients play whole games through the API
while API processes and deadline workers share one database.

By default 50 clients play 20 games of Sub-Saharan (year_cap 3: the game ends by its rules
after the Fall of its third year) with two API processes (uvicorn) and two deadline
workers on one PostgreSQL (a fresh schema of the local server, dropped after). Each client
holds seats in several games; for each phase it reads the game, picks a random legal order
for each of its units from the menu, sends them, and usually marks itself ready (sometimes
not, so that the deadline passes and a worker adjudicates). Then it checks that:

- no order is lost: the orders of every phase as adjudicated (the game file) are the last
  orders the server accepted from that power for that phase;
- no phase is adjudicated twice: each game's phases are numbered 1, 2, 3 ... once each, and
  the audit logs one adjudication per phase;
- every game's log replays to its stored snapshots (the verify endpoint).

It reports requests per second and the latency of requests (p50, p99), with the server's
limits on as a public site has them (docs/server.md, "Limits"): each client comes from an
address of its own (X-Forwarded-For). Bounded: every client stops at its request budget or
at the time limit, whichever comes first.

    .venv/bin/python benchmarks/server_load.py [--clients 50] [--games 20] [--api 2]
        [--workers 2] [--database URL] [--years 3] [--limit 600]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg

POSTGRES = "host=127.0.0.1 port=5432 user=postgres dbname=test connect_timeout=3"
POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
HEGEMON = str(Path(sys.executable).with_name("hegemon"))
PASSWORD = "load test password"
VARIANT = "sub_saharan"


@dataclass
class Seat:
    game: int
    power: str
    seen: str = ""  # the phase it last gave orders for
    done: bool = False


@dataclass
class Tally:
    """What every client measured and was answered."""

    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    accepted: dict[tuple[int, str, str], list[str]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)  # orders from the menu, refused
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.by_kind[kind].append(seconds)
            self.statuses[status] += 1


class Client:
    """One person at the keyboard: an account, and the seats it holds."""

    def __init__(
        self, base: str, name: str, tally: Tally, budget: int, ready: float, address: str
    ) -> None:
        # Each client comes from an address of its own, as the server's rate limits see it
        # (the served processes trust 127.0.0.1, the default of --forwarded-allow-ips, to
        # say whose request it passes on).
        self.http = httpx.Client(base_url=base, timeout=60, headers={"X-Forwarded-For": address})
        self.name, self.tally, self.budget, self.ready = name, tally, budget, ready
        self.seats: list[Seat] = []
        self.rng = random.Random(name)

    def call(self, method: str, path: str, body: Any = None, **options: Any) -> httpx.Response:
        if self.budget <= 0:
            raise TimeoutError(f"{self.name}: request budget spent")
        self.budget -= 1
        started = time.perf_counter()
        answer = self.http.request(method, path, json=body, **options)
        last = path.rstrip("/").rsplit("/", 1)[-1]
        kind = f"{method} {'game' if last.isdigit() else last}"
        self.tally.record(kind, time.perf_counter() - started, answer.status_code)
        if answer.status_code >= 500:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        """The answer of a request that must succeed."""
        answer = self.call(method, path, body)
        if answer.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json()

    def sign_up(self) -> None:
        self.call("POST", "/api/accounts", {"name": self.name, "password": PASSWORD})
        token = self.call("POST", "/api/sessions", {"name": self.name, "password": PASSWORD})
        self.http.headers["Authorization"] = f"Bearer {token.json()['token']}"

    def play(self, deadline: float) -> None:
        """Play every seat until its game is over (or the time is up)."""
        while not all(seat.done for seat in self.seats):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: the games did not end in time")
            acted = False
            for seat in self.seats:
                if not seat.done:
                    acted |= self.turn(seat)
            if not acted:
                time.sleep(0.2 + self.rng.random() * 0.3)

    def choose(self, forms: list[dict[str, Any]], unordered: list[str]) -> list[str]:
        """A random legal order for each unit its power commands (each a form that lists
        orders and asks nothing more, so no bid); in a winter where units must go, as many
        disbands as are due."""
        entries = [
            [c["text"] for c in form["choices"]]
            for form in forms
            if form["choices"] and not form["fields"]
        ]
        due = _disbands_due(unordered)
        if due is not None:
            entries = self.rng.sample(entries, min(due, len(entries)))
        return [self.rng.choice(choices) for choices in entries]

    def turn(self, seat: Seat) -> bool:
        """Orders for the seat's power, if its game awaits them; whether it acted."""
        view = self.ok("GET", f"/api/games/{seat.game}")
        if view["status"] == "ended":
            seat.done = True
            return False
        mine = view["orders"].get(seat.power)
        if view["phase"] == seat.seen or not mine or not mine["unordered"]:
            return False
        answer = self.call("GET", f"/api/games/{seat.game}/options")
        if answer.status_code == 409:  # adjudicated meanwhile, and the game is over
            return True
        orders = self.choose(answer.json()["forms"], mine["unordered"])
        body = {"orders": orders, "replace": True, "phase": view["phase"]}
        answer = self.call("POST", f"/api/games/{seat.game}/orders", body)
        seat.seen = view["phase"]
        if answer.status_code == 422:
            with self.tally.lock:
                self.tally.refused.append(f"game {seat.game} {view['phase']}: {answer.text}")
        if answer.status_code == 200:
            with self.tally.lock:
                self.tally.accepted[(seat.game, view["phase"], seat.power)] = answer.json()[
                    "orders"
                ]
            if self.rng.random() < self.ready:  # now and then a player waits for the deadline
                self.call("POST", f"/api/games/{seat.game}/ready", {})
        return True


def _disbands_due(unordered: list[str]) -> int | None:
    """``["2 disbands"]``: how many units the power must choose to disband, if any."""
    match = re.match(r"^(\d+) disband", unordered[0]) if unordered else None
    return int(match.group(1)) if match else None


def printed(
    run: Callable[..., dict[str, Any]], database: str | None, options: dict[str, Any]
) -> dict[str, Any]:
    """A benchmark's report, run on `database` (else on a fresh PostgreSQL schema) and
    printed as JSON."""
    if database:
        report = run(database, **options)
    else:
        with postgres_schema() as url:
            report = run(url, **options)
    print(json.dumps(report, indent=1))
    return report


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema of the local PostgreSQL, dropped after."""
    schema = f"hegemon_load_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def processes(
    commands: list[list[str]], environment: dict[str, str]
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Start the commands; stop them, each by its own id, at the end."""
    started = [
        subprocess.Popen(
            command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for command in commands
    ]
    try:
        yield started
    finally:
        for process in started:
            process.send_signal(signal.SIGINT)
        for process in started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_for(base: str, seconds: float = 60) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            if httpx.get(f"{base}/api/variants", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server at {base} did not answer")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(
    database: str,
    clients: int = 50,
    games: int = 20,
    api: int = 2,
    workers: int = 2,
    years: int = 3,
    limit: float = 600,
    deadline: int = 10,
    ready: float = 0.97,
    argon2: str | None = None,
) -> dict[str, Any]:
    """The whole load test on `database` (tables made here); its report. Phases last
    `deadline` seconds; a player marks itself ready with the probability `ready` (a phase
    some player is not ready for is adjudicated by a deadline worker). `argon2` sets the
    server's password hashing ($HEGEMON_ARGON2), for a test that signs many in quickly."""
    subprocess.run([HEGEMON, "db", "upgrade", "--database", database], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    serve = [HEGEMON, "serve", "--database", database, "--port", str(port),
             "--workers", str(api), "--no-deadlines"]  # fmt: skip
    work = [HEGEMON, "worker", "--database", database, "--poll", "0.2"]
    environment = {**os.environ, **({"HEGEMON_ARGON2": argon2} if argon2 else {})}
    with processes([serve, *([work] * workers)], environment):
        _wait_for(base)
        tally = Tally()
        players, masters = _seat(base, tally, clients, games, years, deadline, ready)
        tally.latencies.clear()  # the figures are those of the play, not of the setting up
        tally.by_kind.clear()
        tally.statuses.clear()
        started = time.monotonic()
        failures: list[str] = []

        def play(client: Client) -> None:
            try:
                client.play(started + limit)
            except Exception as exc:  # reported with the others, after every thread ends
                failures.append(f"{client.name}: {exc}")

        threads = [threading.Thread(target=play, args=(client,)) for client in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        checks = _check(masters, tally)
    requests = len(tally.latencies)
    return {
        "clients": clients,
        "games": games,
        "api processes": api,
        "deadline workers": workers,
        "seconds": round(elapsed, 1),
        "requests": requests,
        "requests per second": round(requests / elapsed, 1),
        "p50 ms": _percentile(tally.latencies, 0.5),
        "p99 ms": _percentile(tally.latencies, 0.99),
        "by request (count, p50 ms, p99 ms)": {
            kind: [len(seen), _percentile(seen, 0.5), _percentile(seen, 0.99)]
            for kind, seen in sorted(tally.by_kind.items())
        },
        "statuses": dict(sorted(tally.statuses.items())),
        "failures": failures,
        "menu orders refused": tally.refused,
        **checks,
    }


def _percentile(latencies: list[float], share: float) -> float:
    ordered = sorted(latencies)
    return round(1000 * ordered[int(share * (len(ordered) - 1))], 1)


def _seat(
    base: str, tally: Tally, clients: int, games: int, years: int, deadline: int, ready: float
) -> tuple[list[Client], list[tuple[Client, int]]]:
    """Accounts for everyone, the games, and every seat taken (which starts each game):
    seats dealt in turn, so that a client holds one seat of a game at most (a game's powers
    being fewer than the clients)."""
    budget = 20_000
    players = [
        Client(base, f"player{n}", tally, budget, ready, _address(n)) for n in range(clients)
    ]
    for player in players:
        player.sign_up()
    masters = []
    seat_number = 0
    for number in range(games):
        master = Client(base, f"master{number}", tally, budget, ready, _address(clients + number))
        master.sign_up()
        policy = {"deadlines": {"other": deadline}, "early": True, "disorder_after": 0}
        created = master.ok("POST", "/api/games", {"variant": VARIANT, "seed": number,
                                                   "options": {"year_cap": years},
                                                   "policy": policy})  # fmt: skip
        masters.append((master, created["id"]))
        for power in created["powers"]:
            player = players[seat_number % clients]
            seat_number += 1
            player.ok("POST", f"/api/games/{created['id']}/join", {"power": power})
            player.seats.append(Seat(created["id"], power))
    return players, masters


def _address(number: int) -> str:
    """The client's own address, in the block 10.0.0.0/8."""
    return f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"


def _check(masters: list[tuple[Client, int]], tally: Tally) -> dict[str, Any]:
    """No order lost, no phase adjudicated twice, every log replays."""
    lost: list[str] = []
    twice: list[str] = []
    unsound: list[str] = []
    phases = by_worker = 0
    for master, game in masters:
        exported = master.ok("GET", f"/api/games/{game}/export")
        adjudicated = {p["phase"]: p["orders"] for p in exported["phases"]}
        for (played_in, code, power), accepted in tally.accepted.items():
            if played_in == game and adjudicated.get(code, {}).get(power, []) != accepted:
                lost.append(f"game {game} {code} {power}")
        log = master.ok("GET", f"/api/games/{game}/audit")
        runs = [e for e in log if e["action"] == "adjudicated"]
        numbers = [e["detail"]["number"] for e in runs]
        if numbers != list(range(1, len(exported["phases"]) + 1)):
            twice.append(f"game {game}: {numbers}")
        by_worker += sum(1 for e in runs if e["user"] is None)
        phases += len(exported["phases"])
        if not master.ok("GET", f"/api/games/{game}/verify")["sound"]:
            unsound.append(f"game {game}")
    return {
        "phases": phases,
        "phases adjudicated by a deadline worker": by_worker,
        "orders lost": lost,
        "phases adjudicated twice": twice,
        "logs that do not replay": unsound,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--api", type=int, default=2, help="API processes")
    parser.add_argument("--workers", type=int, default=2, help="deadline workers")
    parser.add_argument("--years", type=int, default=3, help="Sub-Saharan's year_cap")
    parser.add_argument("--limit", type=float, default=600, help="seconds at most")
    parser.add_argument("--database", help="a database URL (default: a fresh PostgreSQL schema)")
    args = parser.parse_args()
    options = {
        k: getattr(args, k) for k in ("clients", "games", "api", "workers", "years", "limit")
    }
    report = printed(run, args.database, options)
    failed = report["failures"] or report["orders lost"] or report["phases adjudicated twice"]
    failed = failed or report["menu orders refused"]
    return 1 if failed or report["logs that do not replay"] else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
