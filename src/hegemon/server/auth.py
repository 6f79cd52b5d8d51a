"""Accounts and sessions: passwords hashed with argon2, session tokens kept only as their
SHA-256, and the caller of a request found from a bearer token or the session cookie."""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from hegemon.store import Store, models

COOKIE = "hegemon_session"
SESSION_DAYS = 30


class AuthError(Exception):
    """The caller is not signed in, or not any more; says why."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The token a web page sends with each change it asks for (the ``X-CSRF-Token``
    header) when the session cookie signs it in: derived from the session's own secret,
    so that a page of another site, which the browser may send the cookie for, cannot
    know it."""
    return hashlib.sha256(b"csrf\0" + token.encode()).hexdigest()


def register(session: Session, hasher: PasswordHasher, name: str, password: str) -> models.User:
    """A new account; a ValueError if the name is taken."""
    # Hashed first, before the session's first statement begins its transaction: argon2
    # then holds no connection and no lock (on SQLite, the write lock of every writer).
    password_hash = hasher.hash(password)
    if session.scalar(select(models.User.id).where(models.User.name == name)) is not None:
        raise ValueError(f"the name {name!r} is taken")
    user = models.User(name=name, name_key=name.lower(), password_hash=password_hash)
    session.add(user)
    session.flush()
    return user


def set_password(hasher: PasswordHasher, user: models.User, password: str) -> None:
    user.password_hash = hasher.hash(password)


def sign_in(
    store: Store, hasher: PasswordHasher, name: str, password: str, now: datetime
) -> tuple[models.User, str, datetime]:
    """The user, a new session token and when it expires; AuthError for a wrong name or
    password (the same answer for both, so that names cannot be probed). The password is
    checked with no transaction open: argon2 takes its time and memory holding no
    connection and no lock (SQLite's write lock would stop every other writer)."""
    with store.reading() as session:
        user = session.scalar(select(models.User).where(models.User.name == name))
    try:
        # An unknown name costs a hash all the same, so that the time taken tells nothing.
        hasher.verify(user.password_hash if user else _unknown_name(hasher), password)
        if user is None:
            raise VerificationError
    except (VerificationError, InvalidHashError):
        raise AuthError("wrong name or password") from None
    rehashed = hasher.hash(password) if hasher.check_needs_rehash(user.password_hash) else None
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=SESSION_DAYS)
    with store.writing() as session:
        if rehashed:
            session.execute(
                update(models.User).where(models.User.id == user.id).values(password_hash=rehashed)
            )
        session.add(models.Session(user_id=user.id, token_hash=token_hash(token), expires=expires))
        # Sessions long expired go as new ones are made, so that the table does not grow.
        session.execute(
            delete(models.Session).where(models.Session.expires < now - timedelta(days=1))
        )
    return user, token, expires


@functools.cache
def _unknown_name(hasher: PasswordHasher) -> str:
    return hasher.hash(secrets.token_urlsafe(16))


def caller(
    session: Session, token: str | None, now: datetime
) -> tuple[models.User, models.Session]:
    """The signed-in user a token belongs to; AuthError if none, unknown or expired."""
    if not token:
        raise AuthError("sign in first: send 'Authorization: Bearer TOKEN' or the session cookie")
    found = session.execute(
        select(models.User, models.Session)
        .join(models.Session, models.Session.user_id == models.User.id)
        .where(models.Session.token_hash == token_hash(token))
    ).first()
    if found is None:
        raise AuthError("unknown session: sign in again")
    user, signed_in = found[0], found[1]
    if signed_in.expires <= now:
        raise AuthError("the session has expired: sign in again")
    return user, signed_in
