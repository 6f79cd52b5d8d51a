"""What an account asks to be told, and a game's webhooks: read, changed, and turned off
by an unsubscribe link."""

from __future__ import annotations

import secrets

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from hegemon.server import answers
from hegemon.server.notify import hooks
from hegemon.server.notify.mail import SendFailed
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.notify.signing import Unsubscribe
from hegemon.server.schemas import NoticesIn
from hegemon.server.table import Refusal, Table
from hegemon.store import models

DEFAULT_HOURS = 12
MOST_WEBHOOKS = 5  # a game's


def notices_view(session: Session, user: models.User, settings: NotifySettings) -> answers.Notices:
    found = session.get(models.NoticeSettings, user.id)
    if found is None:
        return answers.Notices(email=None, events=[], hours=DEFAULT_HOURS, mail=settings.mail)
    events = [e for e in answers.NOTICE_EVENTS if e in found.events]
    return answers.Notices(email=found.email, events=events, hours=found.hours, mail=settings.mail)


def save_notices(session: Session, user: models.User, wanted: NoticesIn) -> None:
    found = session.get(models.NoticeSettings, user.id)
    if found is None:
        found = models.NoticeSettings(user_id=user.id)
        session.add(found)
    found.email = wanted.email
    found.events = sorted(set(wanted.events))
    found.hours = wanted.hours


def unsubscribe(session: Session, wanted: Unsubscribe) -> bool:
    """Turn the event's mail off for the account: whether it was on."""
    found = session.get(models.NoticeSettings, wanted.user_id, with_for_update=True)
    if found is None or wanted.event not in found.events:
        return False
    found.events = [e for e in found.events if e != wanted.event]
    return True


def webhooks_view(table: Table) -> answers.Webhooks:
    table.require_master()
    rows = table.session.scalars(
        select(models.Webhook)
        .where(models.Webhook.game_id == table.game.id)
        .order_by(models.Webhook.id)
    )
    return answers.Webhooks(webhooks=[_webhook(row) for row in rows])


def _webhook(row: models.Webhook) -> answers.Webhook:
    return answers.Webhook(
        id=row.id, url=row.url, secret=row.secret, created=row.created.isoformat()
    )


def add_webhook(table: Table, url: str, settings: NotifySettings) -> answers.Webhook:
    """A new webhook of the game, with a secret of its own; refused (422) if its URL is
    not one to post to, or leads to a private address the server may not reach."""
    table.require_master()
    why = hooks.check_url(url)
    if why is None:
        try:
            hooks.resolve(hooks.host_of(url), 443, settings.webhooks_private, settings.timeout)
        except SendFailed as exc:
            why = str(exc)
    if why is not None:
        raise Refusal(422, f"url {url!r}: {why}")
    session, game_id = table.session, table.game.id
    count = session.scalar(select(func.count()).where(models.Webhook.game_id == game_id))
    if (count or 0) >= MOST_WEBHOOKS:
        raise Refusal(409, f"game {game_id} has {MOST_WEBHOOKS} webhooks already: remove one")
    same = models.Webhook.game_id == game_id, models.Webhook.url == url
    if session.scalar(select(models.Webhook.id).where(*same)):
        raise Refusal(409, f"url {url!r}: already a webhook of game {game_id}")
    row = models.Webhook(game_id=game_id, url=url, secret=secrets.token_hex(32))
    session.add(row)
    session.flush()
    table.log("webhook added", url=url)
    return _webhook(row)


def remove_webhook(table: Table, hook_id: int) -> None:
    table.require_master()
    row = table.session.get(models.Webhook, hook_id)
    if row is None or row.game_id != table.game.id:
        raise Refusal(404, f"game {table.game.id} has no webhook {hook_id}")
    table.session.delete(row)
    table.log("webhook removed", url=row.url)
