"""Turning a game's events into notices, after they commit: the mail each member who
asked is sent, and the post each of the game's webhooks gets (`models.Delivery`), the
press each member may read kept for its digest (`models.DigestItem`); and, at each pass,
the deadline reminders due and the digests gathered.

The events are read after the last one turned (`models.NoticeCursor`, one row a game,
claimed with ``SKIP LOCKED`` so that two senders never turn the same events): the
adjudication, the press and the game master write their events in their own transactions
and nothing more, so that notifications never hold them up nor make them fail. What a
mail says comes through the views a member would read: a message is read through
`press.readable` for the reader it is sent to, and rendered by `press.render`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hegemon.position import MASTER, OBSERVER, Viewer
from hegemon.server import announce, events, press
from hegemon.server.notify import texts
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.notify.signing import Unsubscribe, unsubscribe_token
from hegemon.server.table import MASTER_ROLE, PLAYER, Table
from hegemon.store import Store, models

log = logging.getLogger("hegemon.notify")

STARTED, ADJUDICATED, DEADLINE = "started", "adjudicated", "deadline"
PRESS, ENDED = "press", "ended"
EVENT_NAMES = {
    STARTED: "the game started",
    ADJUDICATED: "a phase adjudicated",
    DEADLINE: "a deadline near and your orders missing",
    PRESS: "new press, gathered in a digest",
    ENDED: "the game ended",
}
MAIL, WEBHOOK = "mail", "webhook"


@dataclass(frozen=True)
class Notifier:
    """What making notices needs: the settings, the key that signs unsubscribe links and
    the time."""

    settings: NotifySettings
    key: bytes
    now: datetime

    def link(self, path: str) -> str:
        return f"{self.settings.public_url}{path}"

    def unsubscribe(self, user_id: int, event: str) -> str:
        token = unsubscribe_token(self.key, Unsubscribe(user_id, event))
        return self.link(f"/unsubscribe/{token}")


@dataclass(frozen=True)
class Recipient:
    """A member of a game who asked for mail: the account, its address, and how it sees
    the game."""

    user_id: int
    email: str
    events: Sequence[str]
    hours: int
    viewer: Viewer
    power: str | None


def recipients(session: Session, game_id: int) -> list[Recipient]:
    """The game's members who gave an address for mail."""
    rows = session.execute(
        select(models.Member, models.NoticeSettings)
        .join(models.NoticeSettings, models.NoticeSettings.user_id == models.Member.user_id)
        .where(models.Member.game_id == game_id, models.NoticeSettings.email.is_not(None))
        .order_by(models.Member.id)
    ).all()
    return [
        Recipient(s.user_id, s.email or "", s.events, s.hours, _viewer(m), m.power) for m, s in rows
    ]


def _viewer(member: models.Member) -> Viewer:
    if member.role == MASTER_ROLE:
        return MASTER
    if member.role != PLAYER:  # an observer
        return OBSERVER
    return Viewer(power=member.power)


# --- the events, turned --------------------------------------------------------------


def follow(store: Store, notifier: Notifier) -> int:
    """Turn every game's new events into notices, each game in a transaction of its own
    (one that fails is logged and tried again at the next pass, holding up no other);
    how many events were turned."""
    with store.reading() as session:
        behind = _games_behind(session)
    turned = 0
    for game_id in behind:
        try:
            with store.writing() as session:
                turned += _follow_game(session, game_id, notifier)
        except IntegrityError:  # another sender made the game's cursor meanwhile
            log.info("game %s: its events are another sender's", game_id)
        except Exception:
            log.exception("game %s: its events were not turned into notices", game_id)
    return turned


def _games_behind(session: Session) -> Sequence[int]:
    cursor = models.NoticeCursor
    return session.scalars(
        select(models.Counter.game_id)
        .outerjoin(cursor, cursor.game_id == models.Counter.game_id)
        .where(models.Counter.name == events.EVENTS)
        .where(models.Counter.last > func.coalesce(cursor.last, 0))
    ).all()


def _follow_game(session: Session, game_id: int, notifier: Notifier) -> int:
    cursor = session.scalar(
        select(models.NoticeCursor)
        .where(models.NoticeCursor.game_id == game_id)
        .with_for_update(skip_locked=True)
    )
    if cursor is None:
        if session.get(models.NoticeCursor, game_id) is not None:
            return 0  # locked by another sender
        cursor = models.NoticeCursor(game_id=game_id, last=0)
        session.add(cursor)
        session.flush()
    found = events.after(session, game_id, cursor.last)
    if not found:
        return 0
    table = Table.open(session, game_id, None)
    members = recipients(session, game_id)
    for event in found:
        _turn(table, members, event, notifier)
        cursor.last = event.seq
    return len(found)


def _turn(
    table: Table, members: Sequence[Recipient], event: models.Event, notifier: Notifier
) -> None:
    change = event.payload.get("change")
    if event.kind == announce.GAME and change in (STARTED, ENDED):
        _game_notice(table, members, event, notifier)
    elif event.kind == announce.PHASE:
        _phase_notice(table, members, event, notifier)
    elif event.kind == "message":
        _keep_for_digest(table, members, event, notifier)


def _game_url(table: Table, notifier: Notifier) -> str:
    return notifier.link(f"/games/{table.game.id}")


def _game_notice(
    table: Table, members: Sequence[Recipient], event: models.Event, notifier: Notifier
) -> None:
    """The game started or ended, as the event says (the game may have moved on since:
    the sender may follow some way behind)."""
    game, url = table.game, _game_url(table, notifier)
    change = str(event.payload["change"])
    if change == STARTED:
        deadline = event.payload.get("deadline")
        first = f"its first deadline {texts.when(datetime.fromisoformat(str(deadline)))}"
        line = f"{game.title} has started, {first if deadline else 'with no deadlines'}."
        subject = f"{game.title}: the game has started"
    else:
        line = f"{game.title} has ended: {table.end_text()}."
        subject = f"{game.title}: the game has ended"
    body = f"{line}\n\nThe game: {url}"
    _mail_each(table, members, change, texts.Mail(subject, body), notifier)
    _post_each(table, _payload(table, change, line, notifier), notifier)


def _phase_notice(
    table: Table, members: Sequence[Recipient], event: models.Event, notifier: Notifier
) -> None:
    game, url = table.game, _game_url(table, notifier)
    code, number = str(event.payload["phase"]), int(str(event.payload["number"]))
    words = texts.phase_words(table.variant, code)
    next_code = str(event.payload["next"])
    report = notifier.link(f"/games/{game.id}/phases/{number}")
    line = f"{game.title}: {words} has been adjudicated."
    now = f"Now: {texts.phase_words(table.variant, next_code)}"
    if game.played == number and game.deadline is not None:  # still the phase after it
        now += f", deadline {texts.when(game.deadline)}"
    body = f"{line}\n\nWhat happened: {report}\n{now}.\nThe game: {url}"
    mail = texts.Mail(f"{game.title}: {words} adjudicated", body)
    _mail_each(table, members, ADJUDICATED, mail, notifier)
    payload = _payload(table, ADJUDICATED, line, notifier)
    adjudicated = {"phase": code, "phase_name": words, "report": report}
    _post_each(table, payload.model_copy(update=adjudicated), notifier)


def _mail_each(
    table: Table,
    members: Sequence[Recipient],
    event: str,
    mail: texts.Mail,
    notifier: Notifier,
    key: str | None = None,
) -> None:
    if not notifier.settings.mail:
        return
    for member in members:
        if event in member.events:
            enqueue_mail(table.session, table.game.id, member, event, mail, notifier, key)


def enqueue_mail(
    session: Session,
    game_id: int,
    member: Recipient,
    event: str,
    mail: texts.Mail,
    notifier: Notifier,
    key: str | None = None,
) -> None:
    body = texts.signed_off(mail.body, event, notifier.unsubscribe(member.user_id, event))
    session.add(
        models.Delivery(
            kind=MAIL,
            game_id=game_id,
            user_id=member.user_id,
            target=member.email,
            subject=mail.subject[:300],
            body=body,
            key=key,
            attempts=0,
            next_attempt=notifier.now,
            created=notifier.now,
        )
    )


def _payload(table: Table, event: str, line: str, notifier: Notifier) -> texts.WebhookPayload:
    game = table.game
    return texts.WebhookPayload(
        event=event,
        game=game.id,
        title=game.title,
        url=_game_url(table, notifier),
        text=line,
        now=game.phase,
        now_name=texts.phase_words(table.variant, game.phase),
        status=game.status,
        deadline=None if game.deadline is None else game.deadline.isoformat(),
    )


def _post_each(table: Table, payload: texts.WebhookPayload, notifier: Notifier) -> None:
    hooks = table.session.scalars(
        select(models.Webhook).where(models.Webhook.game_id == table.game.id)
    )
    body = payload.model_dump_json(exclude_none=True)
    for hook in hooks:
        table.session.add(
            models.Delivery(
                kind=WEBHOOK,
                game_id=table.game.id,
                webhook_id=hook.id,
                target=hook.url,
                body=body,
                attempts=0,
                next_attempt=notifier.now,
                created=notifier.now,
            )
        )


def _keep_for_digest(
    table: Table, members: Sequence[Recipient], event: models.Event, notifier: Notifier
) -> None:
    if not notifier.settings.mail:
        return
    message_id = int(str(event.payload["id"]))
    for member in members:
        if PRESS not in member.events or not events.visible(event, member.viewer):
            continue
        reader = press.Reader(table.game, member.viewer)
        found = table.session.scalar(press.readable(reader).where(models.Message.id == message_id))
        if found is None or found.sender == reader.name:
            continue  # not theirs to read, or their own
        table.session.add(
            models.DigestItem(
                user_id=member.user_id,
                game_id=table.game.id,
                message_id=message_id,
                added=notifier.now,
            )
        )
