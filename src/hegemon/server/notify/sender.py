"""The sender: a loop in a thread beside the deadline worker (`hegemon serve`) that turns
the games' events into notices and sends the queue.

The rows of the queue are claimed a few at a time in a short transaction of their own
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite's single writer alike) by counting each
one's try and moving its `next_attempt` past the time the batch's tries may take; each is
sent outside any transaction; and
its outcome is written only if the row is still at that try. So two `hegemon serve`
processes on one database never send a row twice, and a sender that dies mid-try has the
row tried again once its claim lapses. A failed try is tried again with back-off
(`Backoff`: 30 seconds, doubling, at most an hour), up to `MOST_ATTEMPTS` tries (about a
day); a mail server that is down for a while thus delays mail and loses none.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from hegemon.server.backoff import Backoff, wait_for_database
from hegemon.server.notify import hooks, mail, notices, timed
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.notify.signing import server_key
from hegemon.store import Store, models
from hegemon.store.models import now

log = logging.getLogger("hegemon.notify")

POLL = 5.0  # seconds between passes when nothing was done
RETRY = Backoff(first=30.0, cap=3600.0)
MOST_ATTEMPTS = 30
CLAIMED_AT_ONCE = 10
KEPT_DAYS = 30  # a row sent or given up is kept this long (to see what went out, and why not)
DATABASE_BACKOFF = Backoff()  # waits while the database does not answer


@dataclass(frozen=True)
class Claimed:
    """A row claimed for one try: what to send, and which try it is."""

    id: int
    attempts: int
    kind: str
    target: str
    subject: str | None
    body: str
    secret: str | None  # the webhook's


def claim(store: Store, moment: datetime, lease: float) -> list[Claimed]:
    """Claim the rows due, oldest first, at most `CLAIMED_AT_ONCE`."""
    due = models.Delivery.next_attempt <= moment
    with store.reading() as session:  # a write, and SQLite's write lock, only if needed
        if session.scalar(select(models.Delivery.id).where(due).limit(1)) is None:
            return []
    with store.writing() as session:
        rows = session.execute(
            select(models.Delivery, models.Webhook.secret)
            .outerjoin(models.Webhook, models.Webhook.id == models.Delivery.webhook_id)
            .where(due)
            .order_by(models.Delivery.next_attempt, models.Delivery.id)
            .limit(CLAIMED_AT_ONCE)
            .with_for_update(of=models.Delivery, skip_locked=True)
        ).all()
        claimed = []
        for row, secret in rows:
            row.attempts += 1
            row.next_attempt = moment + timedelta(seconds=lease)
            claimed.append(
                Claimed(row.id, row.attempts, row.kind, row.target, row.subject, row.body, secret)
            )
        return claimed


def send(settings: NotifySettings, claimed: Claimed) -> None:
    """One try; `mail.SendFailed` if it fails."""
    if claimed.kind == notices.MAIL:
        if not settings.mail:
            raise mail.SendFailed("no mail server set ($HEGEMON_SMTP_HOST)")
        message = mail.compose(settings, claimed.target, claimed.subject or "", claimed.body)
        mail.send_mail(settings, message)
    else:
        body = claimed.body.encode()
        private = settings.webhooks_private
        hooks.post(claimed.target, claimed.secret or "", body, private, settings.timeout)


def record(
    store: Store, claimed: Claimed, moment: datetime, failure: mail.SendFailed | None
) -> None:
    """The try's outcome, unless the row has been claimed again since (its claim lapsed)."""
    with store.writing() as session:
        row = session.get(models.Delivery, claimed.id, with_for_update=True)
        if row is None or row.attempts != claimed.attempts or row.sent_at is not None:
            return
        if failure is None:
            row.sent_at, row.next_attempt, row.last_error = moment, None, None
            return
        row.last_error = str(failure)[:300]
        if failure.final or row.attempts >= MOST_ATTEMPTS:
            row.next_attempt = None
            log.warning("notice given up", extra={"delivery": row.id, "error": row.last_error})
        else:
            row.next_attempt = moment + timedelta(seconds=RETRY.delay(row.attempts))


def send_due(store: Store, settings: NotifySettings, clock: Callable[[], datetime]) -> int:
    """Try every row due once: how many were sent. A claim lasts as long as the whole
    batch's tries may take, each of which waits up to the timeout on a few operations."""
    lease = CLAIMED_AT_ONCE * 3 * settings.timeout + 30
    sent = 0
    for claimed in claim(store, clock(), lease):
        failure = None
        try:
            send(settings, claimed)
            sent += 1
        except mail.SendFailed as exc:
            failure = exc
            log.info("notice not sent", extra={"delivery": claimed.id, "error": str(exc)})
        except Exception as exc:  # a bug, not the far end's: logged, and tried again later
            failure = mail.SendFailed(f"{type(exc).__name__}: {exc}")
            log.exception("notice not sent", extra={"delivery": claimed.id})
        record(store, claimed, clock(), failure)
    return sent


def prune(store: Store, moment: datetime) -> None:
    """Forget the rows sent, or given up, more than `KEPT_DAYS` ago."""
    old = (
        models.Delivery.next_attempt.is_(None),
        models.Delivery.created < moment - timedelta(days=KEPT_DAYS),
    )
    with store.reading() as session:  # a write, and SQLite's write lock, only if needed
        if session.scalar(select(models.Delivery.id).where(*old).limit(1)) is None:
            return
    with store.writing() as session:
        session.execute(delete(models.Delivery).where(*old))


def run_pass(store: Store, settings: NotifySettings, clock: Callable[[], datetime] = now) -> int:
    """One pass: the new events turned into notices, the reminders and digests due
    queued, the queue sent. How many things were done (0: nothing to do)."""
    notifier = notices.Notifier(settings, server_key(store, settings.secret_key), clock())
    done = notices.follow(store, notifier)
    done += timed.remind(store, notifier) + timed.gather(store, notifier)
    done += send_due(store, settings, clock)
    prune(store, clock())
    return done


def work(
    store: Store,
    stop: threading.Event,
    settings: NotifySettings,
    poll: float = POLL,
    clock: Callable[[], datetime] = now,
    backoff: Backoff = DATABASE_BACKOFF,
) -> None:
    """Pass after pass until `stop` is set, a database that does not answer waited out."""
    while wait_for_database(store, stop, backoff):
        try:
            if not run_pass(store, settings, clock):
                stop.wait(poll)
        except Exception:  # the sender keeps going; the error is logged
            log.exception("notifications")
            stop.wait(poll)
