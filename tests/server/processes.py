"""Real `hegemon serve` processes for the tests that must cross a process boundary: this
checkout's package, run on a port of its own."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from benchmarks.server_load import HEGEMON, _free_port, _wait_for

import hegemon

# The served processes run this checkout's package, and let one address make the
# accounts and messages a test needs.
ENVIRONMENT = {
    **os.environ,
    "PYTHONPATH": str(Path(hegemon.__file__).parents[1]),
    "HEGEMON_ARGON2": "1,1024,1",
    "HEGEMON_LIMIT_SIGNUP": "1000/minute",
    "HEGEMON_LIMIT_SIGNIN": "1000/minute",
    "HEGEMON_LIMIT_PRESS": "1000/minute",
}


@contextmanager
def served(
    url: str, log: Path, environment: Mapping[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`hegemon serve` on the database, on a port of its own (no deadline worker), with
    `environment` added to `ENVIRONMENT`: its address and process; stopped at the end
    unless killed before."""
    port = _free_port()
    command = [HEGEMON, "serve", "--database", url, "--port", str(port), "--no-deadlines"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, env={**ENVIRONMENT, **(environment or {})}, stdout=sink, stderr=sink
        )
        try:
            _wait_for(f"http://127.0.0.1:{port}")
            yield f"http://127.0.0.1:{port}", process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
