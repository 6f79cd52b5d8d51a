"""What the server counts, for Prometheus (served by GET /metrics, `routes.operations`).

- ``hegemon_http_requests_total{method, route, status}``: requests answered, by the route's
  template (``/api/games/{game_id}``, never the path as sent); the 429s among them are the
  refusals of the rate limits;
- ``hegemon_http_request_duration_seconds{route}``: how long they took;
- ``hegemon_adjudications_total`` and ``hegemon_adjudication_duration_seconds``: phases
  adjudicated (`observe_adjudication`), by whichever process did it;
- ``hegemon_queue_lag_seconds``: how long the most overdue deadline of an active game has
  been waiting for a worker (0 if none is overdue), read from the database at each scrape
  (left out while the database does not answer).

With ``hegemon serve --workers N`` each process keeps its counts in files of
$PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode) and a scrape adds them up.
That mode is chosen as prometheus-client is first imported, so it is imported here only
when first needed, after ``serve`` has set the variable.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from hegemon.server.table import ACTIVE
from hegemon.store import Store, models
from hegemon.store.database import first_line

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry, Counter, Histogram
    from prometheus_client.core import Metric

log = logging.getLogger("hegemon.metrics")

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
UNMATCHED = "(unmatched)"  # the route of a request no route matched (a 404)


@dataclass(frozen=True)
class Instruments:
    """This process's counters and histograms."""

    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    adjudications: Counter
    adjudication_seconds: Histogram


@functools.cache
def _instruments() -> Instruments:
    from prometheus_client import CollectorRegistry, Counter, Histogram

    registry = CollectorRegistry()
    return Instruments(
        registry,
        Counter(
            "hegemon_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=registry,
        ),
        Histogram(
            "hegemon_http_request_duration_seconds",
            "Time to answer an HTTP request, by route template",
            ["route"],
            registry=registry,
        ),
        Counter("hegemon_adjudications", "Phases adjudicated", registry=registry),
        Histogram(
            "hegemon_adjudication_duration_seconds",
            "Time to adjudicate a phase",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
            registry=registry,
        ),
    )


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """One request answered."""
    instruments = _instruments()
    instruments.requests.labels(method, route, str(status)).inc()
    instruments.latency.labels(route).observe(seconds)


def observe_adjudication(seconds: float) -> None:
    """One phase adjudicated, in `seconds`."""
    instruments = _instruments()
    instruments.adjudications.inc()
    instruments.adjudication_seconds.observe(seconds)


def queue_lag(store: Store, moment: datetime) -> float:
    """Seconds since the oldest passed deadline of an active game; 0 if none has passed."""
    with store.reading() as session:
        oldest = session.scalar(
            select(func.min(models.Game.deadline)).where(
                models.Game.status == ACTIVE, models.Game.deadline <= moment
            )
        )
    return max(0.0, (moment - oldest).total_seconds()) if oldest is not None else 0.0


class _QueueLag:
    """A gauge computed as it is scraped; left out of a scrape while the database does
    not answer, so that the process's own counts are still served."""

    def __init__(self, lag: Callable[[], float]) -> None:
        self.lag = lag

    def collect(self) -> Iterator[Metric]:
        from prometheus_client.core import GaugeMetricFamily

        try:
            seconds = self.lag()
        except SQLAlchemyError as exc:
            log.warning("queue lag not measured", extra={"error": first_line(exc)})
            return
        yield GaugeMetricFamily(
            "hegemon_queue_lag_seconds",
            "Seconds the most overdue deadline of an active game has waited for a worker",
            value=seconds,
        )


class _Own:
    """This process's instruments, as one collector of a scrape's registry."""

    def collect(self) -> Iterator[Metric]:
        yield from _instruments().registry.collect()


def render(store: Store, moment: datetime) -> bytes:
    """Every metric in Prometheus's text format: this process's counts, or those of every
    process in multiprocess mode, and the queue lag now."""
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    if os.environ.get(MULTIPROCESS_VARIABLE):
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_Own())
    registry.register(_QueueLag(lambda: queue_lag(store, moment)))
    return generate_latest(registry)
