"""Waiting out a database that does not answer: asked again after a delay that doubles
each time, up to a cap, each failure logged, so that a worker started before its database,
or one whose database goes away for a while, carries on when it is back."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from hegemon.store import Store
from hegemon.store.database import first_line

log = logging.getLogger("hegemon.worker")

CAP_VARIABLE = "HEGEMON_WORKER_RETRY_MAX"


@dataclass(frozen=True)
class Backoff:
    """Seconds to wait before each new try: `first`, then doubled, never more than `cap`."""

    first: float = 0.5
    cap: float = 30.0

    @classmethod
    def from_environment(cls) -> Backoff:
        """The cap from $HEGEMON_WORKER_RETRY_MAX (seconds) where set."""
        text = os.environ.get(CAP_VARIABLE)
        if not text:
            return cls()
        try:
            cap = float(text)
        except ValueError:
            cap = 0
        if cap <= 0:
            raise ValueError(f"${CAP_VARIABLE} {text!r}: expected a positive number of seconds")
        return cls(min(cls.first, cap), cap)

    def delay(self, failures: int) -> float:
        """The wait after that many failures in a row (1 or more)."""
        return min(self.cap, self.first * 2.0 ** min(failures - 1, 32))


def wait_for_database(store: Store, stop: threading.Event, backoff: Backoff) -> bool:
    """Return once the database answers (True), or when `stop` is set (False); until then
    ask it again and again, further and further apart."""
    failures = 0
    while not stop.is_set():
        try:
            store.ping()
        except SQLAlchemyError as exc:
            failures += 1
            wait = backoff.delay(failures)
            log.warning(
                "database unavailable",
                extra={"attempt": failures, "retry_in": wait, "error": first_line(exc)},
            )
            stop.wait(wait)
            continue
        if failures:
            log.info("database available", extra={"after_attempts": failures})
        return True
    return False
