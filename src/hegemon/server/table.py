"""A game as one caller finds it within one transaction (`Table`): the caller's role in it
and what that role may do, the variant, position and pending orders; and the refusals
(`Refusal`) that every operation raises with an HTTP status and a reason.

Locks: an operation that only adds a power's orders takes a shared lock on the game's row
(PostgreSQL: ``FOR SHARE``), so that powers never wait for one another but all wait for an
adjudication, which takes it exclusively (``FOR UPDATE``) as every change to the game
itself does; each power's orders are a row of their own, with an optimistic version. On
SQLite a change holds the database's single write lock from its start.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, TypeVarTuple

from sqlalchemy import Select, and_, bindparam, select
from sqlalchemy.orm import Session

from hegemon.game import Game, OrderStatus, Variant, describe_end
from hegemon.game.forms import Menu
from hegemon.game.menus import offered
from hegemon.game.phases import Procedure
from hegemon.jsonio import position_digest
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.server.auth import account_named
from hegemon.server.kept import Kept
from hegemon.server.policy import Policy
from hegemon.store import Store, models
from hegemon.store.exchange import end_from_json
from hegemon.store.prepared import PreparedFor, Rows
from hegemon.store.records import (
    audit,
    current_position,
    parse_orders,
    pending_rows,
    variant_of,
)

FORMING, ACTIVE, PAUSED, ENDED = "forming", "active", "paused", "ended"
# The menus of the positions read last, by variant, position digest and power: whoever
# asks for one gives that power's orders (`Table.acting_power`).
MENUS: Kept[tuple[Variant, str, str], Menu] = Kept(256)
MASTER_ROLE, PLAYER, OBSERVER_ROLE = "master", "player", "observer"
Ts = TypeVarTuple("Ts")


class Refusal(Exception):
    """A request the game refuses: the HTTP status, the reason in one line, and each
    problem (each refused order with its reason)."""

    def __init__(self, status: int, detail: str, problems: Sequence[str] = ()) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.problems = list(problems)


class Lock(Enum):
    NONE = "none"
    SHARE = "share"  # adds a power's orders: may run beside others, never beside a change
    UPDATE = "update"  # changes the game itself


def _locked(query: Select[*Ts], lock: Lock) -> Select[*Ts]:
    """The query taking the lock on its game's row (only that row: a member's row read
    beside it stays free)."""
    if lock is Lock.SHARE:
        return query.with_for_update(read=True, of=models.Game)
    if lock is Lock.UPDATE:
        return query.with_for_update(of=models.Game)
    return query


# The statements every request runs, built once: building one (SQLAlchemy's operators)
# costs more than running it.
_GAME = select(models.Game).where(models.Game.id == bindparam("game_id"))
GAME = {lock: _locked(_GAME, lock) for lock in Lock}


def _game_and_member(*selected: Any) -> Select[Any]:
    """A game and the caller's part in it (None if none), in one statement. (Any: the
    classes or columns selected.)"""
    return (
        select(*selected)
        .outerjoin(
            models.Member,
            and_(
                models.Member.game_id == models.Game.id,
                models.Member.user_id == bindparam("user_id"),
            ),
        )
        .where(models.Game.id == bindparam("game_id"))
    )


def _pending_locked(*selected: Any) -> Select[Any]:
    """A power's pending row, locked (`Table.lock_pending`)."""
    return (
        select(*selected)
        .where(
            models.Pending.game_id == bindparam("game_id"),
            models.Pending.power == bindparam("power"),
        )
        .with_for_update()
    )


GAME_AND_MEMBER = {
    lock: _locked(_game_and_member(models.Game, models.Member), lock) for lock in Lock
}
PENDING_LOCKED = _pending_locked(models.Pending).execution_options(populate_existing=True)
# The same, compiled once for each driver and run on its cursor (`PreparedFor`), their rows
# made the session's objects as the ORM makes them (`Rows`): through the ORM they cost
# more than a tenth of an order given, whose transaction reads them first.
GAMES, MEMBERS, PENDINGS = Rows(models.Game), Rows(models.Member), Rows(models.Pending)
GAME_AND_MEMBER_ROW = {
    lock: PreparedFor(_locked(_game_and_member(*GAMES.columns, *MEMBERS.columns), lock))
    for lock in Lock
}
PENDING_LOCKED_ROW = PreparedFor(_pending_locked(*PENDINGS.columns))
SEATED_BOTS = (
    select(models.Member.power)
    .join(models.User, models.User.id == models.Member.user_id)
    .where(models.Member.game_id == bindparam("game_id"), models.Member.role == PLAYER)
    .where(models.User.kind != models.HUMAN)
)


def _holds_nothing(session: Session) -> bool:
    """Whether the session holds no object yet (as at a transaction's first read)."""
    return not session.identity_map and not session.new


def _game_and_member_read(
    session: Session, lock: Lock, given: dict[str, int]
) -> tuple[models.Game, models.Member | None] | None:
    """`GAME_AND_MEMBER`'s objects, made of the row as the ORM makes them, held by the
    session (which holds nothing else: the ORM would give what it held, not the row)."""
    connection = session.connection()
    row = GAME_AND_MEMBER_ROW[lock].on(connection).row(connection, given)
    if row is None:
        return None
    game, member = row[: len(GAMES.keys)], row[len(GAMES.keys) :]
    return GAMES.attached(session, game), MEMBERS.joined(session, member)


def find_game(session: Session, game_id: int, lock: Lock = Lock.NONE) -> models.Game:
    game = session.scalar(GAME[lock], {"game_id": game_id})
    if game is None:
        raise Refusal(404, f"no game {game_id}")
    return game


@contextlib.contextmanager
def member_view(store: Store, game_id: int, user: models.User) -> Iterator[Table]:
    """A game read by one of its members (anyone else is refused), in one transaction."""
    with store.reading() as session:
        table = Table.open(session, game_id, user)
        table.require_member()
        yield table


def find_user(session: Session, name: str) -> models.User:
    """The account of that name, in any case (`auth.account_named`)."""
    user = account_named(session, name)
    if user is None:
        raise Refusal(404, f"no user named {name!r}")
    return user


@dataclass
class Table:
    """A game as one caller finds it within one transaction: the caller's part in it (None
    for the deadline worker, who acts for nobody), the variant, position and pending
    orders, read when first needed."""

    session: Session
    game: models.Game
    user: models.User | None
    member: models.Member | None

    @classmethod
    def open(
        cls, session: Session, game_id: int, user: models.User | None, lock: Lock = Lock.NONE
    ) -> Table:
        if user is None:
            return cls(session, find_game(session, game_id, lock), None, None)
        given = {"game_id": game_id, "user_id": user.id}
        if _holds_nothing(session):
            found = _game_and_member_read(session, lock, given)
        else:  # the ORM gives the objects the session holds, not the row's values
            found = session.execute(GAME_AND_MEMBER[lock], given).first()
        if found is None:
            raise Refusal(404, f"no game {game_id}")
        return cls(session, found[0], user, found[1])

    @cached_property
    def variant(self) -> Variant:
        return variant_of(self.game)

    @cached_property
    def position(self) -> Position:
        return current_position(self.session, self.game)

    @cached_property
    def digest(self) -> str:
        """The position's digest: what is kept of it is kept by that."""
        return position_digest(self.position)

    def offered(self, power: str) -> Menu:
        """Everything `power` may order this phase (`menus.offered`), kept for the
        positions read most recently: every page and every order given asks for it."""
        key = (self.variant, self.digest, power)
        return MENUS.get(key, lambda: offered(self.variant, self.position, power))

    @cached_property
    def pending(self) -> dict[str, models.Pending]:
        return pending_rows(self.session, self.game)

    def lock_pending(self, power: str) -> models.Pending:
        """A power's pending row, locked until the transaction ends, so that the same
        power's orders sent twice at once are added one after the other: read alone
        (not the other powers' rows: an order given needs none of them), ``FOR UPDATE`` on
        PostgreSQL; on SQLite the transaction holds the write lock from its start, and the
        statement asks for no lock. The row as now stored, in the object `pending` holds
        if it was read (the session keeps one object a row)."""
        given = {"game_id": self.game.id, "power": power}
        self.session.flush()  # what the session has changed, written first (as the ORM does)
        connection = self.session.connection()
        values = PENDING_LOCKED_ROW.on(connection).row(connection, given)
        assert values is not None
        if PENDINGS.held(self.session, values):
            # Read again through the ORM, whose object the row's values replace.
            held: models.Pending | None = self.session.scalar(PENDING_LOCKED, given)
            assert held is not None
            return held
        return PENDINGS.attached(self.session, values)

    @cached_property
    def order_status(self) -> OrderStatus:
        """Whose orders are in and whose are awaited, by the names anyone may read
        (`Game.order_status`: never a name that would tell who sent orders for another).
        A game that is over awaits nobody, as it has no `actors`."""
        if self.game.status == ENDED:
            return OrderStatus((), ())
        given = {p: row.orders for p, row in self.pending.items() if row.orders}
        pending = parse_orders(self.variant, self.position, given)
        return Game(self.variant, self.position, pending=pending).order_status()

    @property
    def policy(self) -> Policy:
        return Policy.from_json(self.game.policy)

    @property
    def procedure(self) -> Procedure:
        return self.variant.calendar.procedure(self.position.phase)

    @property
    def actors(self) -> tuple[str, ...]:
        """The powers the current phase awaits orders from, by the rules."""
        if self.game.status == ENDED:
            return ()
        return self.procedure.actors(self.variant, self.position)

    @property
    def awaited(self) -> list[str]:
        """The actors the game waits for: those not in civil disorder, and those in civil
        disorder that a bot plays."""
        return [p for p in self.actors if not self.pending[p].disorder or p in self.bot_powers]

    @property
    def bot_powers(self) -> frozenset[str]:
        """The powers a bot plays: the seats of bot accounts, and, where the game's policy
        gives them to a bot (`Policy.disorder_bot`), the powers in civil disorder."""
        if not self.policy.disorder_bot:
            return self.seated_bots
        return self.seated_bots | {p for p, row in self.pending.items() if row.disorder}

    @cached_property
    def seated_bots(self) -> frozenset[str]:
        """The powers whose seats bot accounts hold (read again once a seat changes hands:
        `seats_changed`)."""
        seated = self.session.scalars(SEATED_BOTS, {"game_id": self.game.id})
        return frozenset(p for p in seated if p is not None)

    def seats_changed(self) -> None:
        self.__dict__.pop("seated_bots", None)

    def orders_changed(self) -> None:
        """The pending orders were written: whose are in is worked out again when asked."""
        self.__dict__.pop("order_status", None)

    @property
    def role(self) -> str | None:
        return None if self.member is None else self.member.role

    @property
    def viewer(self) -> Viewer:
        """What the caller may see: everything for the game master, a player's own secrets,
        an observer what is public."""
        if self.member is None or self.member.role == OBSERVER_ROLE:
            return OBSERVER
        if self.member.role == MASTER_ROLE:
            return MASTER
        return Viewer(power=self.member.power)

    # --- who may do what ---------------------------------------------------------------
    def require_member(self) -> None:
        if self.member is None:
            raise Refusal(403, f"you take no part in game {self.game.id}: join or observe it")

    def require_master(self) -> None:
        if self.role != MASTER_ROLE:
            raise Refusal(403, f"only the game master of game {self.game.id} may do this")

    def acting_power(self, spelling: str | None) -> str:
        """The power whose orders the caller gives: a player's own, or any power named by
        the game master."""
        self.require_member()
        assert self.member is not None
        if self.member.role == OBSERVER_ROLE:
            raise Refusal(403, "an observer gives no orders")
        if self.member.role == MASTER_ROLE:
            if spelling is None:
                raise Refusal(422, "name the power whose orders these are ('power')")
            return self.power_named(spelling)
        own = self.member.power or ""
        if spelling is not None and self.variant.power_named(spelling) != own:
            raise Refusal(403, f"you play {own}, not {spelling}")
        return own

    def power_named(self, spelling: str) -> str:
        power = self.variant.power_named(spelling)
        if power is None:
            powers = ", ".join(self.variant.powers)
            raise Refusal(422, f"unknown power {spelling!r} (powers: {powers})")
        return power

    def require_playing(self) -> None:
        """The game has started and is not over."""
        if self.game.status == FORMING:
            raise Refusal(409, "the game has not started yet")
        if self.game.status == ENDED:
            raise Refusal(409, f"the game is over: {self.end_text()}")

    def end_text(self) -> str:
        return describe_end(end_from_json(self.game.ended or {}))

    def log(self, action: str, **detail: object) -> None:
        audit(self.session, self.game, self.user, action, detail)
