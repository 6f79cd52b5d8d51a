"""Press delivered live, under load, on loopback only: clients in games exchange messages
through two API processes sharing one PostgreSQL, each reading its game's live events
(Server-Sent Events) all along.

By default 50 clients in 10 classic games (5 players a game, started by its game master
with two seats free), each sending 20 messages, public or to another player of its game,
a few tenths of a second apart. Each client holds its stream on one process and sends
through the other, so that every message crosses between processes (PostgreSQL's NOTIFY)
to reach some of its readers. Then it checks that every message reached each player who
may read it (its sender and recipients; everyone in the game for public press) exactly
once, and nobody else; and it reports the delivery latency (from the moment the message
was sent to the moment a reader's stream had it), p50 and p99: the goal is a p99 under
250 ms.

The servers' press limit is raised for the run (it counts messages, which this
measures; tests/server/test_press.py tests the limit itself).

    .venv/bin/python benchmarks/press_live.py [--clients 50] [--games 10] [--messages 20]
        [--database URL] [--limit 300]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).parents[1]))  # run as a script: benchmarks.* importable

from benchmarks.server_load import (
    HEGEMON,
    _address,
    _free_port,
    _percentile,
    _wait_for,
    printed,
    processes,
)

PASSWORD = "press load password"
VARIANT = "classic"
PLAYERS = 5  # of a game's seven powers: the other two are left free


@dataclass
class Sent:
    """A message: who sent it, who may read it, when."""

    text: str
    game: int
    readers: frozenset[str]  # the powers whose players may read it
    at: float = 0.0
    answered: float = 0.0  # when its POST was answered (it was committed before)


@dataclass
class Tally:
    sent: dict[str, Sent] = field(default_factory=dict)
    received: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    posts: list[float] = field(default_factory=list)  # seconds each message's POST took
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """A player: an account, a seat in one game, a stream on one process, its messages
    sent through the other."""

    def __init__(self, number: int, sends: str, reads: str, tally: Tally, pause: float) -> None:
        self.name, self.tally, self.pause = f"writer{number}", tally, pause
        headers = {"X-Forwarded-For": _address(number)}
        self.sending = httpx.Client(base_url=sends, timeout=30, headers=headers)
        self.reading = httpx.Client(base_url=reads, timeout=None, headers=headers)
        self.rng = random.Random(number)
        self.game, self.power = 0, ""
        self.others: list[str] = []
        self.open = threading.Event()

    def sign_up(self) -> None:
        body = {"name": self.name, "password": PASSWORD}
        self.sending.post("/api/accounts", json=body).raise_for_status()
        token = self.sending.post("/api/sessions", json=body).json()["token"]
        for http in (self.sending, self.reading):
            http.headers["Authorization"] = f"Bearer {token}"

    def read(self, stop: threading.Event) -> None:
        """The stream of the game's events until `stop`: each message's arrival noted."""
        try:
            with self.reading.stream("GET", f"/api/games/{self.game}/events") as answer:
                answer.raise_for_status()
                self.open.set()
                data = ""
                for line in answer.iter_lines():
                    if line.startswith("data: "):
                        data = line[len("data: ") :]
                    elif not line and data:
                        self._arrived(json.loads(data))
                        data = ""
                    if stop.is_set():
                        return
        except Exception as exc:  # reported with the others
            if not stop.is_set():
                with self.tally.lock:
                    self.tally.failures.append(f"{self.name} reading: {exc!r}")

    def _arrived(self, data: dict[str, Any]) -> None:
        text = data.get("text")
        if isinstance(text, str):
            with self.tally.lock:
                self.tally.received[(text, self.power)].append(time.monotonic())

    def write(self, messages: int) -> None:
        """`messages` messages, public or to another player, a few tenths of a second
        apart."""
        try:
            for number in range(messages):
                time.sleep(self.pause * (0.5 + self.rng.random()))
                private = self.rng.random() < 0.6
                to = [self.rng.choice(self.others)] if private else []
                text = f"{self.name} {number}"
                readers = frozenset([self.power, *to]) if to else frozenset(self._everyone())
                sent = Sent(text, self.game, readers, time.monotonic())
                with self.tally.lock:
                    self.tally.sent[text] = sent
                answer = self.sending.post(
                    f"/api/games/{self.game}/messages", json={"to": to, "text": text}
                )
                sent.answered = time.monotonic()
                with self.tally.lock:
                    self.tally.posts.append(sent.answered - sent.at)
                if answer.status_code != 201:
                    raise RuntimeError(f"{answer.status_code} {answer.text}")
        except Exception as exc:
            with self.tally.lock:
                self.tally.failures.append(f"{self.name} writing: {exc!r}")

    def _everyone(self) -> list[str]:
        return [self.power, *self.others]


def _seat(bases: list[str], clients: int, games: int, tally: Tally, pause: float) -> list[Client]:
    """The accounts, the games (each started by its game master with its free seats), and
    every client seated."""
    players = [
        Client(n, bases[(n + 1) % len(bases)], bases[n % len(bases)], tally, pause)
        for n in range(clients)
    ]
    for player in players:
        player.sign_up()
    for number in range(games):
        master = Client(clients + number, bases[0], bases[0], tally, pause)
        master.sign_up()
        created = master.sending.post(
            "/api/games", json={"variant": VARIANT, "seed": number, "title": f"press {number}"}
        ).json()
        seated = players[number::games][:PLAYERS]
        for player, power in zip(seated, created["powers"], strict=False):
            answer = player.sending.post(f"/api/games/{created['id']}/join", json={"power": power})
            answer.raise_for_status()
            player.game, player.power = created["id"], power
        for player in seated:
            player.others = [p.power for p in seated if p is not player]
        master.sending.post(f"/api/games/{created['id']}/start").raise_for_status()
    return [p for p in players if p.game]


def run(database: str, clients: int = 50, games: int = 10, messages: int = 20,
        pause: float = 2.0, limit: float = 300) -> dict[str, Any]:  # fmt: skip
    """The whole benchmark on `database` (tables made here); its report."""
    import subprocess

    subprocess.run([HEGEMON, "db", "upgrade", "--database", database], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    ports = [_free_port(), _free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    serve = [
        [HEGEMON, "serve", "--database", database, "--port", str(port), "--no-deadlines"]
        for port in ports
    ]
    environment = {
        **os.environ,
        "HEGEMON_ARGON2": "1,1024,1",
        "HEGEMON_LIMIT_PRESS": "10000/minute",
    }
    with processes(serve, environment):
        for base in bases:
            _wait_for(base)
        tally = Tally()
        players = _seat(bases, clients, games, tally, pause)
        stop = threading.Event()
        readers = [threading.Thread(target=p.read, args=(stop,), daemon=True) for p in players]
        for thread in readers:
            thread.start()
        for player in players:
            if not player.open.wait(30):
                tally.failures.append(f"{player.name}: its stream did not open")
        started = time.monotonic()
        writers = [threading.Thread(target=p.write, args=(messages,)) for p in players]
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join(limit)
        _wait_for_deliveries(tally, started + limit)
        elapsed = time.monotonic() - started
        stop.set()
        for player in players:
            player.reading.close()  # ends its stream
    report = _report(tally, len(players), games, messages, elapsed)
    return {**report, "seconds between a client's messages (mean)": pause}


def _expected(tally: Tally) -> set[tuple[str, str]]:
    return {(text, reader) for text, sent in tally.sent.items() for reader in sent.readers}


def _wait_for_deliveries(tally: Tally, deadline: float) -> None:
    """Until every message has reached each of its readers, or a few seconds after the
    last was sent, or the deadline."""
    quiet = time.monotonic() + 10
    while time.monotonic() < min(deadline, quiet):
        with tally.lock:
            missing = [key for key in _expected(tally) if key not in tally.received]
        if not missing:
            return
        time.sleep(0.1)


def _report(
    tally: Tally, clients: int, games: int, messages: int, elapsed: float
) -> dict[str, Any]:
    expected = _expected(tally)
    missing = sorted(key for key in expected if key not in tally.received)
    twice = sorted(key for key, times in tally.received.items() if len(times) > 1)
    unexpected = sorted(key for key in tally.received if key not in expected)
    latencies = [
        times[0] - tally.sent[text].at
        for (text, _), times in tally.received.items()
        if text in tally.sent and times
    ]
    # From the sender's answer, which comes after the commit: the live delivery's own share
    # (at most; a reader often has the message before its sender has the answer).
    after_answer = [
        max(times[0] - tally.sent[text].answered, 0.0)
        for (text, _), times in tally.received.items()
        if text in tally.sent and times and tally.sent[text].answered
    ]
    return {
        "clients": clients,
        "games": games,
        "api processes": 2,
        "messages sent": len(tally.sent),
        "deliveries expected": len(expected),
        "deliveries received": sum(len(times) for times in tally.received.values()),
        "seconds": round(elapsed, 1),
        "latency p50 ms": _percentile(latencies, 0.5) if latencies else None,
        "latency p99 ms": _percentile(latencies, 0.99) if latencies else None,
        "latency max ms": round(1000 * max(latencies), 1) if latencies else None,
        "after the sender's answer p50 ms": _percentile(after_answer, 0.5)
        if after_answer
        else None,
        "after the sender's answer p99 ms": _percentile(after_answer, 0.99)
        if after_answer
        else None,
        "sending (POST) p50 ms": _percentile(tally.posts, 0.5) if tally.posts else None,
        "sending (POST) p99 ms": _percentile(tally.posts, 0.99) if tally.posts else None,
        "missing": [f"{text} to {reader}" for text, reader in missing[:20]],
        "delivered twice": [f"{text} to {reader}" for text, reader in twice[:20]],
        "delivered to a reader who may not read it": [
            f"{text} to {reader}" for text, reader in unexpected[:20]
        ],
        "failures": tally.failures[:20],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--messages", type=int, default=20, help="messages each client sends")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="mean seconds between a client's messages")  # fmt: skip
    parser.add_argument("--limit", type=float, default=300, help="seconds at most")
    parser.add_argument("--database", help="a database URL (default: a fresh PostgreSQL schema)")
    args = parser.parse_args()
    options = {k: getattr(args, k) for k in ("clients", "games", "messages", "pause", "limit")}
    report = printed(run, args.database, options)
    failed = report["missing"] or report["delivered twice"] or report["failures"]
    return 1 if failed or report["delivered to a reader who may not read it"] else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
