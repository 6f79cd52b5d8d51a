"""The deadline worker: finds the games whose deadline has passed and adjudicates them
(or grants their grace period), one game per transaction; and before that, at each pass,
has the bots give the orders they owe (`hegemon.server.bot_play`).

Several workers, and API processes adjudicating when every power is ready, may share one
PostgreSQL: a worker claims a due game with ``SELECT ... FOR UPDATE SKIP LOCKED``, so two
never take the same game, and an adjudication also holds the game's row exclusively, checks
its version and stores the phase under a unique (game, number), so that no phase is ever
adjudicated twice. On SQLite one writer at a time does the same.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError

from hegemon.server.adjudication import claim_due, run_deadline
from hegemon.server.backoff import Backoff, wait_for_database
from hegemon.server.bot_play import BotPlay
from hegemon.server.table import Table
from hegemon.store import Store
from hegemon.store.models import now

log = logging.getLogger("hegemon.worker")

POLL = 2.0  # seconds between looks when nothing is due
BACKOFF = Backoff()  # waits while the database does not answer


def run_due(store: Store, clock: Callable[[], datetime] = now, limit: int = 100) -> int:
    """Handle every game due now (at most `limit`), each at most once: one phase, a grace
    period or a pause, in a transaction of its own; how many phases were adjudicated. A
    game due again at once (its next phase awaits nobody) waits for the next pass, so that
    it cannot starve the others; a game that fails is logged and passed over until the
    next pass, so that it holds up no other."""
    played = 0
    handled: set[int] = set()
    for _ in range(limit):
        game_id = None
        try:
            with store.writing() as session:
                game_id = claim_due(session, clock(), handled)
                if game_id is None:
                    break
                handled.add(game_id)
                table = Table.open(session, game_id, None)
                played += len(run_deadline(table, clock()))
        except StaleDataError as exc:  # another process got there first
            log.info("deadline skipped, to be seen again: %s", exc)
        except DBAPIError as exc:
            if game_id is None:  # the database itself: all is tried again at the next look
                log.warning("deadlines stopped until the next look: %s", exc)
                break
            # This game's transaction (a statement timeout, a deadlock): the others go on,
            # and if the database itself is gone, the next claim says so.
            log.warning("game %s: its deadline failed in the database: %s", game_id, exc)
        except Exception:
            log.exception("game %s: its deadline failed", game_id)
    return played


def run_pass(store: Store, bots: BotPlay, clock: Callable[[], datetime] = now) -> int:
    """One pass: the bots give the orders they owe (`bot_play`), then the deadlines due
    are handled, so that a deadline passed while no worker ran is played with the bots'
    orders in. How many bots' powers and phases were played."""
    return bots.run(store, clock) + run_due(store, clock)


def work(
    store: Store,
    stop: threading.Event,
    poll: float = POLL,
    clock: Callable[[], datetime] = now,
    backoff: Backoff = BACKOFF,
) -> None:
    """Run the bots and the deadlines until `stop` is set, a database that does not answer
    waited out: a pass that played anything is followed by another at once (a phase may
    have become due by it, or have begun and await the bots), else the next after
    `poll`."""
    bots = BotPlay()
    while wait_for_database(store, stop, backoff):
        try:
            if not run_pass(store, bots, clock):
                stop.wait(poll)
        except Exception:  # a worker keeps going; the error is logged with its game
            log.exception("deadline worker")
            stop.wait(poll)
