"""A demo to try the server with: a classic game whose seats are taken by accounts made
for it, with passwords printed for whoever starts the server (`hegemon serve --demo`)."""

from __future__ import annotations

import secrets
from datetime import datetime

from argon2 import PasswordHasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon.server import auth, play
from hegemon.server.policy import Policy
from hegemon.server.table import Lock, Table
from hegemon.store import Store, models
from hegemon.variants import load_variant

TITLE = "Demo: classic"
MASTER_NAME = "gm"


def seed(store: Store, hasher: PasswordHasher, now: datetime) -> dict[str, str]:
    """The demo's accounts (made, or given new passwords) and its game (made once): each
    account's name and its new password, the game master's first."""
    powers = list(load_variant("classic").powers)
    names = [MASTER_NAME, *(p.lower() for p in powers)]
    passwords = {name: secrets.token_urlsafe(9) for name in names}
    with store.writing() as session:
        users = {name: _account(session, hasher, name, passwords[name]) for name in names}
        if session.scalar(select(models.Game.id).where(models.Game.title == TITLE)) is None:
            game = play.create_game(
                session, users[MASTER_NAME], TITLE, "classic", None, None, None, Policy()
            )
            for power in powers:
                table = Table.open(session, game.id, users[power.lower()], Lock.UPDATE)
                play.join(table, power, now)
    return passwords


def _account(session: Session, hasher: PasswordHasher, name: str, password: str) -> models.User:
    user = session.scalar(select(models.User).where(models.User.name == name))
    if user is None:
        return auth.register(session, hasher, name, password)
    auth.set_password(hasher, user, password)
    return user
