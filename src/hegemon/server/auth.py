"""Accounts and sessions: passwords hashed with argon2, session tokens kept only as their
SHA-256, and the caller of a request found from a bearer token or the session cookie."""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ColumnElement, CursorResult, bindparam, delete, select, update
from sqlalchemy.orm import Session

from hegemon.bots import PlayerKind
from hegemon.server import passwords
from hegemon.store import Store, models
from hegemon.store.prepared import PreparedFor, Rows

COOKIE = "hegemon_session"
NAME_LENGTH = 40  # the longest name an account has (`models.User.name`)
SESSION_DAYS = 30


class AuthError(Exception):
    """The caller is not signed in, or not any more; says why."""


class WrongPassword(AuthError):
    """A signed-in caller gave a password that is not the account's: a failed sign-in for
    the rate limits, as it is as good a way to guess."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The token a web page sends with each change it asks for (the ``X-CSRF-Token``
    header) when the session cookie signs it in: derived from the session's own secret,
    so that a page of another site, which the browser may send the cookie for, cannot
    know it."""
    return hashlib.sha256(b"csrf\0" + token.encode()).hexdigest()


def name_key(name: str) -> str:
    """What makes two names one: "Alice" and "alice" are the same account."""
    return name.lower()


def account_named(session: Session, name: str) -> models.User | None:
    """The account of that name in any case: its exact spelling first, as two accounts
    whose names differ by case alone, made before names were compared so, are both kept
    (the later one's key marked with its number, migration 0002)."""
    exact = session.scalar(select(models.User).where(models.User.name == name))
    if exact is not None:
        return exact
    return session.scalar(select(models.User).where(models.User.name_key == name_key(name)))


def register(
    session: Session, hasher: PasswordHasher, name: str, password: str, demo: bool = False
) -> models.User:
    """A new account (made by the demo, if `demo`); a ValueError if the name is taken, in
    any case."""
    # Hashed first, before the session's first statement begins its transaction: argon2
    # then holds no connection and no lock (on SQLite, the write lock of every writer).
    password_hash = hasher.hash(password)
    if account_named(session, name) is not None:
        raise ValueError(f"the name {name!r} is taken")
    user = models.User(name=name, name_key=name_key(name), password_hash=password_hash, demo=demo)
    session.add(user)
    session.flush()
    return user


# What a bot account keeps for its password: no argon2 hash, so that no password opens it.
NO_PASSWORD = "!"


def bot_account(session: Session, power: str, kind: PlayerKind = PlayerKind.BOT) -> models.User:
    """The account through which a bot of that kind plays `power`, in any game (made on
    first use). Its name, "France bot", holds a space, which no name a person registers
    may (`schemas.Name`), so that it is never one a person holds; it has no password."""
    name = _bot_name(power, kind)
    user = account_named(session, name)
    if user is None:
        user = models.User(
            name=name, name_key=name_key(name), password_hash=NO_PASSWORD, kind=kind.value
        )
        session.add(user)
        session.flush()
    assert user.kind == kind.value, f"{name!r} is an account of kind {user.kind}"
    return user


def _bot_name(power: str, kind: PlayerKind) -> str:
    """The power and the kind, as long as a name may be: a power's name too long for it
    is cut, and marked with a digest of it, so that two powers never share one."""
    name = f"{power} {kind.value}"
    if len(name) <= NAME_LENGTH:
        return name
    mark = hashlib.sha256(power.encode()).hexdigest()[:6]
    return f"{power[: NAME_LENGTH - len(kind.value) - 8]}~{mark} {kind.value}"


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
        user = account_named(session, name)
    if user is not None and user.bot:  # nobody signs in as a bot: no password opens it
        user = None
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


# The account and session a token signs in, read by every request that signs in: built once,
# as building it costs more than running it.
SIGNED_IN = (
    select(models.User, models.Session)
    .join(models.Session, models.Session.user_id == models.User.id)
    .where(models.Session.token_hash == bindparam("token_hash"))
)


def caller(
    session: Session, token: str | None, now: datetime
) -> tuple[models.User, models.Session]:
    """The signed-in user a token belongs to; AuthError if none, unknown or expired."""
    found = session.execute(SIGNED_IN, {"token_hash": _token_hash(token)}).first()
    if found is None:
        raise AuthError(UNKNOWN_SESSION)
    user, signed_in = found[0], found[1]
    _unexpired(signed_in.expires, now)
    return user, signed_in


# The caller's account and when its session ends, compiled once for the driver and run on
# its cursor (`PreparedFor`): read through the ORM, in a session's transaction, it cost a
# tenth of an order given, and every request of the API signed in reads it.
USERS = Rows(models.User)
_CALLER = PreparedFor(
    select(*USERS.columns, models.Session.expires)
    .join(models.Session, models.Session.user_id == models.User.id)
    .where(models.Session.token_hash == bindparam("token_hash"))
)


def signed_in_user(store: Store, token: str | None, now: datetime) -> models.User:
    """`caller`'s user alone, read in one statement on a connection of its own (a single
    statement needs no transaction around it), as the ORM would have read it: an
    account as it is stored, detached (no session holds it)."""
    hashed = _token_hash(token)
    with store.engine.connect() as connection:
        found = _CALLER.on(connection).row(connection, {"token_hash": hashed})
    if found is None:
        raise AuthError(UNKNOWN_SESSION)
    *account, expires = found
    _unexpired(expires, now)
    return USERS.detached(account)


UNKNOWN_SESSION = "unknown session: sign in again"


def _token_hash(token: str | None) -> str:
    """The hash a session's token is kept by; AuthError if there is no token."""
    if not token:
        raise AuthError("sign in first: send 'Authorization: Bearer TOKEN' or the session cookie")
    return token_hash(token)


def _unexpired(expires: datetime, now: datetime) -> None:
    if expires <= now:
        raise AuthError("the session has expired: sign in again")


def change_password(
    session: Session,
    hasher: PasswordHasher,
    signed_in: tuple[models.User, models.Session],
    current: str,
    new: str,
) -> int:
    """Give the caller's account (`signed_in`, as `caller` found it) the password `new`
    (its length and commonness checked already, `passwords.check`) if `current` is its
    password, else WrongPassword; every other session of the account is signed out, so
    that whoever knew the old password holds none, and the caller's is kept: how many were
    signed out."""
    user, kept = signed_in
    try:
        hasher.verify(user.password_hash, current)
    except (VerificationError, InvalidHashError):
        raise WrongPassword("current: not the account's password") from None
    passwords.check_not_named(new, user.name)
    set_password(hasher, user, new)
    others = models.Session.user_id == user.id, models.Session.id != kept.id
    return _delete_sessions(session, *others)


def sign_out_everywhere(session: Session, user: models.User) -> int:
    """Sign out every session of the account, the caller's own too: how many there were."""
    return _delete_sessions(session, models.Session.user_id == user.id)


def _delete_sessions(session: Session, *where: ColumnElement[bool]) -> int:
    """Delete the sessions `where` says: how many there were."""
    deleted = session.execute(delete(models.Session).where(*where))
    return int(cast(CursorResult[Any], deleted).rowcount)  # Any: a DELETE returns no rows
