"""What the notifications sign: the unsubscribe link in each mail, which turns one kind of
mail off for one account without signing in, and each webhook's post (HMAC SHA-256, with
the webhook's own secret, in the ``X-Hegemon-Signature`` header)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hegemon.store import Store, models

SIGNATURE_HEADER = "X-Hegemon-Signature"
UNSUBSCRIBE_KEY = "unsubscribe"  # the `ServerSecret` that signs links when none is set


def server_key(store: Store, configured: str) -> bytes:
    """The key that signs unsubscribe links: $HEGEMON_SECRET_KEY where set, else one made
    at random the first time it is needed and kept in the database, so that every process
    of the server, and every restart, signs alike."""
    if configured:
        return configured.encode()
    with store.reading() as session:
        kept = session.get(models.ServerSecret, UNSUBSCRIBE_KEY)
        if kept is not None:
            return kept.value.encode()
    try:
        with store.writing() as session:
            return _made(session).encode()
    except IntegrityError:  # another process made it first: its key it is
        with store.reading() as session:
            found = session.get(models.ServerSecret, UNSUBSCRIBE_KEY)
            assert found is not None
            return found.value.encode()


def _made(session: Session) -> str:
    kept = session.get(models.ServerSecret, UNSUBSCRIBE_KEY)
    if kept is None:
        kept = models.ServerSecret(name=UNSUBSCRIBE_KEY, value=secrets.token_urlsafe(32))
        session.add(kept)
        session.flush()
    return kept.value


@dataclass(frozen=True)
class Unsubscribe:
    """What an unsubscribe link turns off: one kind of event, for one account."""

    user_id: int
    event: str


def _mac(key: bytes, text: str) -> str:
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def unsubscribe_token(key: bytes, wanted: Unsubscribe) -> str:
    """``<account>.<event>.<signature>``: nothing secret in it, nothing forged."""
    text = f"{wanted.user_id}.{wanted.event}"
    return f"{text}.{_mac(key, text)}"


def read_unsubscribe(key: bytes, token: str) -> Unsubscribe | None:
    """What the token turns off, or None if it is not one this server signed."""
    text, _, signature = token.rpartition(".")
    user, _, event = text.partition(".")
    if not (user.isdigit() and event) or not hmac.compare_digest(signature, _mac(key, text)):
        return None
    return Unsubscribe(int(user), event)


def webhook_signature(secret: str, body: bytes) -> str:
    """The value of the ``X-Hegemon-Signature`` header: ``sha256=`` and the hex HMAC
    SHA-256 of the body's bytes, keyed with the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
