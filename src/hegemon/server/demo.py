"""A demo to try the server with: a game of the variant asked for, whose seats are taken
by accounts made for it, with passwords printed for whoever starts the server
(`hegemon serve --demo`).

The demo's accounts are marked (`users.demo`), and only those are ever given new
passwords: pointed at a database where someone else holds one of its names, the demo
refuses (`NamesTaken`) rather than take over that account."""

from __future__ import annotations

import secrets
from datetime import datetime

from argon2 import PasswordHasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon.server import auth, play
from hegemon.server.policy import Policy
from hegemon.server.table import MASTER_ROLE, Lock, Table
from hegemon.store import Store, models
from hegemon.variants import load_variant

TITLE = "Demo"
MASTER_NAME = "gm"


class NamesTaken(Exception):
    """Names the demo needs are held by accounts it did not make."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(
            f"the demo's account names {', '.join(names)} are taken by accounts it did not "
            "make; it only ever touches accounts it made: start it on another database"
        )
        self.names = names


def seed(store: Store, hasher: PasswordHasher, now: datetime, variant: str) -> dict[str, str]:
    """The demo's accounts (made, or given new passwords) and its game (made once): each
    account's name and its new password, the game master's first. NamesTaken, and nothing
    changed, if any of the names is another's account."""
    powers = list(load_variant(variant).powers)
    names = [MASTER_NAME, *(p.lower() for p in powers)]
    passwords = {name: secrets.token_urlsafe(9) for name in names}
    with store.writing() as session:
        found = {name: auth.account_named(session, name) for name in names}
        taken = [name for name, user in found.items() if user is not None and not user.demo]
        if taken:
            raise NamesTaken(taken)
        users = {name: _account(session, hasher, name, passwords[name]) for name in names}
        master = users[MASTER_NAME]
        if _demo_game(session, master) is None:
            game = play.create_game(session, master, TITLE, variant, None, None, None, Policy())
            for power in powers:
                table = Table.open(session, game.id, users[power.lower()], Lock.UPDATE)
                play.join(table, power, now)
    return passwords


def _account(session: Session, hasher: PasswordHasher, name: str, password: str) -> models.User:
    """The demo's own account of that name, given `password` (made if missing)."""
    user = auth.account_named(session, name)
    if user is None:
        return auth.register(session, hasher, name, password, demo=True)
    assert user.demo, "only the demo's own accounts get new passwords"
    auth.set_password(hasher, user, password)
    return user


def _demo_game(session: Session, master: models.User) -> int | None:
    """The demo's game, run by the demo's game master."""
    return session.scalar(
        select(models.Game.id)
        .join(models.Member, models.Member.game_id == models.Game.id)
        .where(models.Game.title == TITLE, models.Member.user_id == master.id)
        .where(models.Member.role == MASTER_ROLE)
    )
