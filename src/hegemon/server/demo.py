"""A demo to try the server with (`hegemon serve --demo`): a game of the variant asked
for, in which one account made for a newcomer plays one power against bots
(`seed_against_bots`), or whose every seat is taken by an account made for it
(`seed`, `--demo=humans`); the passwords are printed for whoever starts the server.

The demo's accounts are marked (`users.demo`), and only those are ever given new
passwords: pointed at a database where someone else holds one of its names, the demo
refuses (`NamesTaken`) rather than take over that account."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from argon2 import PasswordHasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon.server import auth, play
from hegemon.server.policy import Policy
from hegemon.server.table import ENDED, MASTER_ROLE, Lock, Table
from hegemon.store import Store, models
from hegemon.variants import load_variant

TITLE = "Demo"
MASTER_NAME = "gm"
MINUTE = 60
# Against bots: ten minutes for a movement phase, long enough for a newcomer to read the
# board and give a first phase's orders by clicking, five for the others; the bots are
# ready at once, so each phase is played as soon as the newcomer says ready. A newcomer
# who goes away is played by a bot after two phases missed (`disorder_bot`), at the
# deadlines' pace, and the game is never paused: the newcomer, who is not its game
# master, could not resume it.
AGAINST_BOTS = Policy(
    deadlines={"movement": 10 * MINUTE, "other": 5 * MINUTE}, pause_after=0, disorder_bot=True
)

Seating = Callable[[Session, int, dict[str, models.User], datetime], None]


class NamesTaken(Exception):
    """Names the demo needs are held by accounts it did not make."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(
            f"the demo's account names {', '.join(names)} are taken by accounts it did not "
            "make; it only ever touches accounts it made: start it on another database"
        )
        self.names = names


def seed(store: Store, hasher: PasswordHasher, now: datetime, variant: str) -> dict[str, str]:
    """The demo of players only: an account for each power and one for the game master
    (made, or given new passwords) and its game (made once): each account's name and its
    new password, the game master's first. NamesTaken, and nothing changed, if any of the
    names is another's account."""
    powers = list(load_variant(variant).powers)

    def everyone(session: Session, game: int, users: dict[str, models.User], now: datetime) -> None:
        for power in powers:
            play.join(Table.open(session, game, users[power.lower()], Lock.UPDATE), power, now)

    names = [MASTER_NAME, *(p.lower() for p in powers)]
    return _seed(store, hasher, now, variant, names, TITLE, Policy(), everyone)


def seed_against_bots(
    store: Store, hasher: PasswordHasher, now: datetime, variant: str, power: str
) -> dict[str, str]:
    """The demo of one newcomer against bots: an account that plays `power`, the other
    powers' seats given to bots, and the game started (made once, as long as it lasts; an
    unprinted game master runs it). The newcomer's name and new password; NamesTaken as
    `seed`."""
    title = f"{TITLE}: {power} against bots"
    name = power.lower()

    def against_bots(
        session: Session, game: int, users: dict[str, models.User], now: datetime
    ) -> None:
        play.join(Table.open(session, game, users[name], Lock.UPDATE), power, now)
        play.fill_with_bots(Table.open(session, game, users[MASTER_NAME], Lock.UPDATE), now)

    passwords = _seed(store, hasher, now, variant, [MASTER_NAME, name], title, AGAINST_BOTS,
                      against_bots)  # fmt: skip
    return {name: passwords[name]}


def _seed(
    store: Store,
    hasher: PasswordHasher,
    now: datetime,
    variant: str,
    names: list[str],
    title: str,
    policy: Policy,
    seating: Seating,
) -> dict[str, str]:
    """The demo's accounts `names` (the game master's first), each given a new password,
    and, unless it is there still, its game: created by the game master, seated by
    `seating`."""
    passwords = {name: secrets.token_urlsafe(9) for name in names}
    with store.writing() as session:
        found = {name: auth.account_named(session, name) for name in names}
        taken = [name for name, user in found.items() if user is not None and not user.demo]
        if taken:
            raise NamesTaken(taken)
        users = {name: _account(session, hasher, name, passwords[name]) for name in names}
        master = users[MASTER_NAME]
        if _demo_game(session, master, title) is None:
            game = play.create_game(session, master, title, variant, None, None, None, policy)
            seating(session, game.id, users, now)
    return passwords


def _account(session: Session, hasher: PasswordHasher, name: str, password: str) -> models.User:
    """The demo's own account of that name, given `password` (made if missing)."""
    user = auth.account_named(session, name)
    if user is None:
        return auth.register(session, hasher, name, password, demo=True)
    assert user.demo, "only the demo's own accounts get new passwords"
    auth.set_password(hasher, user, password)
    return user


def _demo_game(session: Session, master: models.User, title: str) -> int | None:
    """The demo's game of that title, run by the demo's game master, unless it is over."""
    return session.scalar(
        select(models.Game.id)
        .join(models.Member, models.Member.game_id == models.Game.id)
        .where(models.Game.title == title, models.Member.user_id == master.id)
        .where(models.Member.role == MASTER_ROLE, models.Game.status != ENDED)
    )
