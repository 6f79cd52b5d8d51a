"""The notices the clock makes, at each pass of the sender: a deadline's reminder to each
player who asked and whose orders are missing, once a phase; and each account's press
digest, once its oldest message has waited `NotifySettings.digest_minutes`."""

from __future__ import annotations

from datetime import datetime, timedelta

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
from hegemon.server.schemas import MOST_HOURS
from hegemon.server.table import ACTIVE, PLAYER, Table
from hegemon.store import Store, models


def remind(store: Store, notifier: Notifier) -> int:
    """Queue the reminders due: how many."""
    if not notifier.settings.mail:
        return 0
    with store.reading() as session:  # a write, and SQLite's write lock, only if needed
        due = _due(session, notifier)
    queued = 0
    if due:
        with store.writing() as session:
            for game_id, users in due.items():
                queued += _remind_game(session, game_id, users, notifier)
    return queued


def _key(game_id: int, played: int, user_id: int) -> str:
    """A reminder's `Delivery.key`: once a phase for each player."""
    return f"deadline:{game_id}:{played}:{user_id}"


def _due(session: Session, notifier: Notifier) -> dict[int, set[int]]:
    """The players who asked for a reminder that is now due and not yet queued, by game:
    only their games are read further (whose orders are missing)."""
    week = notifier.now + timedelta(hours=MOST_HOURS)
    rows = session.execute(
        select(models.Game.id, models.Game.played, models.Game.deadline, models.NoticeSettings)
        .join(models.Member, models.Member.game_id == models.Game.id)
        .join(models.NoticeSettings, models.NoticeSettings.user_id == models.Member.user_id)
        .where(models.Game.status == ACTIVE, models.Game.deadline > notifier.now)
        .where(models.Game.deadline <= week, models.Member.role == PLAYER)
        .where(models.NoticeSettings.email.is_not(None))
    ).all()
    wanted = {
        _key(game_id, played, asked.user_id): (game_id, asked.user_id)
        for game_id, played, deadline, asked in rows
        if DEADLINE in asked.events and _within(deadline, notifier, asked.hours)
    }
    queued = set(
        session.scalars(select(models.Delivery.key).where(models.Delivery.key.in_(wanted)))
    )
    due: dict[int, set[int]] = {}
    for key, (game_id, user_id) in wanted.items():
        if key not in queued:
            due.setdefault(game_id, set()).add(user_id)
    return due


def _within(deadline: datetime | None, notifier: Notifier, hours: int) -> bool:
    return deadline is not None and deadline - notifier.now <= timedelta(hours=hours)


def _remind_game(session: Session, game_id: int, users: set[int], notifier: Notifier) -> int:
    """Queue the reminders of those `users` whose power is awaited and has no orders."""
    table = Table.open(session, game_id, None)
    game = table.game
    if game.status != ACTIVE or game.deadline is None:  # changed since it was found due
        return 0
    awaited = set(table.awaited)
    queued = 0
    for member in recipients(session, game_id):
        power = member.power
        if member.user_id not in users or power not in awaited or table.pending[power].orders:
            continue
        key = _key(game.id, game.played, member.user_id)
        if session.scalar(select(models.Delivery.id).where(models.Delivery.key == key)):
            continue  # queued meanwhile, by another sender
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
