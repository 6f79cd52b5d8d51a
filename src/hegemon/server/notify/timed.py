"""The notices the clock makes, at each pass of the sender: a deadline's reminder to each
player who asked and whose orders are missing, once a phase; and each account's press
digest, once its oldest message has waited `NotifySettings.digest_minutes`."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from hegemon.server import press
from hegemon.server.notify import texts
from hegemon.server.notify.notices import (
    DEADLINE,
    PRESS,
    Notifier,
    Recipient,
    enqueue_mail,
    recipients,
)
from hegemon.server.table import ACTIVE, Table
from hegemon.store import Store, models


def remind(store: Store, notifier: Notifier) -> int:
    """Queue the reminders due: how many."""
    if not notifier.settings.mail:
        return 0
    with store.reading() as session:  # a write, and SQLite's write lock, only if needed
        near = _games_near_deadline(session, notifier)
    if not near:
        return 0
    queued = 0
    with store.writing() as session:
        for game_id in near:
            queued += _remind_game(session, game_id, notifier)
    return queued


def _games_near_deadline(session: Session, notifier: Notifier) -> list[int]:
    """The active games whose deadline is yet to come, and within the most hours anyone
    asked (no more than a week)."""
    longest = session.scalar(select(func.max(models.NoticeSettings.hours))) or 0
    until = notifier.now + timedelta(hours=longest)
    return list(
        session.scalars(
            select(models.Game.id).where(
                models.Game.status == ACTIVE,
                models.Game.deadline > notifier.now,
                models.Game.deadline <= until,
            )
        )
    )


def _remind_game(session: Session, game_id: int, notifier: Notifier) -> int:
    table = Table.open(session, game_id, None)
    game, deadline = table.game, table.game.deadline
    if game.status != ACTIVE or deadline is None:  # changed since it was found near
        return 0
    awaited = set(table.awaited)
    queued = 0
    for member in recipients(session, game_id):
        power = member.power
        near = deadline - notifier.now <= timedelta(hours=member.hours)
        if DEADLINE not in member.events or not near or power not in awaited:
            continue
        if table.pending[power].orders:
            continue
        key = f"deadline:{game.id}:{game.played}:{member.user_id}"
        if session.scalar(select(models.Delivery.id).where(models.Delivery.key == key)):
            continue
        reminder = _reminder(table, power, notifier)
        enqueue_mail(session, game.id, member, DEADLINE, reminder, notifier, key)
        queued += 1
    return queued


def _reminder(table: Table, power: str, notifier: Notifier) -> texts.Mail:
    game = table.game
    words = texts.phase_words(table.variant, game.phase)
    body = (
        f"{game.title}: the deadline of {words} is {texts.when(game.deadline)}, and no orders "
        f"for {power} are in yet.\n\nGive them: {notifier.link(f'/games/{game.id}')}"
    )
    return texts.Mail(f"{game.title}: {words}, your orders for {power} are missing", body)


def gather(store: Store, notifier: Notifier) -> int:
    """Send each account's digest whose oldest message has waited long enough: one mail
    for each account and game, of every message waiting. How many mails."""
    waited = notifier.now - timedelta(minutes=notifier.settings.digest_minutes)
    with store.reading() as session:
        due = session.execute(
            select(models.DigestItem.user_id, models.DigestItem.game_id)
            .group_by(models.DigestItem.user_id, models.DigestItem.game_id)
            .having(func.min(models.DigestItem.added) <= waited)
        ).all()
    sent = 0
    for user_id, game_id in due:
        with store.writing() as session:
            sent += _digest(session, user_id, game_id, notifier)
    return sent


def _digest(session: Session, user_id: int, game_id: int, notifier: Notifier) -> int:
    """One account's digest of one game: the messages waiting, read again as the account
    now reads the game (a seat given to another since reads no more of its press). The
    items are claimed (``SKIP LOCKED``) and only those deleted, so that two senders never
    mail one twice, and one kept meanwhile waits for the next digest."""
    items = models.DigestItem
    claimed = session.execute(
        select(items.id, items.message_id)
        .where(items.user_id == user_id, items.game_id == game_id)
        .with_for_update(skip_locked=True)
    ).all()
    if not claimed:
        return 0
    session.execute(delete(items).where(items.id.in_([row.id for row in claimed])))
    member = next((m for m in recipients(session, game_id) if m.user_id == user_id), None)
    if member is None or PRESS not in member.events:
        return 0
    table = Table.open(session, game_id, None)
    reader = press.Reader(table.game, member.viewer)
    found = list(
        session.scalars(
            press.readable(reader)
            .where(models.Message.id.in_([row.message_id for row in claimed]))
            .order_by(models.Message.sent, models.Message.id)
        )
    )
    if not found:
        return 0
    _queue_digest(session, table, member, found, notifier)
    return 1


def _queue_digest(
    session: Session,
    table: Table,
    member: Recipient,
    found: list[models.Message],
    notifier: Notifier,
) -> None:
    shown = [press.render(member.viewer, message) for message in found]
    words = texts.phase_words(table.variant, table.game.phase)
    url = notifier.link(f"/games/{table.game.id}")
    mail = texts.digest(table.game.title, url, shown, words)
    enqueue_mail(session, table.game.id, member, PRESS, mail, notifier)
