"""The game operations behind the HTTP API and the deadline worker, each within one
transaction: who may do what in a game, orders given and withdrawn, readiness,
adjudication, deadlines and the game master's actions.

They reuse the judge's own pieces: orders are read by the variant's reader and checked by
`hegemon.game.order_problems` (on what that power may know) exactly as the CLI checks
them, each later order replacing an earlier one for the same slot (`Game.with_orders`);
a phase is played by `play_phase` with the draws the game's seed gives, as
`Game.adjudicate` does, so that an exported game replays in the CLI to the same digests.

Locks: an operation that only adds a power's orders takes a shared lock on the game's row
(PostgreSQL: ``FOR SHARE``), so that powers never wait for one another but all wait for an
adjudication, which takes it exclusively (``FOR UPDATE``); each power's orders are a row of
their own, with an optimistic version. On SQLite a change holds the database's single
write lock from its start.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from functools import cached_property
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.game import (
    ChanceError,
    Draw,
    Game,
    GameOver,
    Variant,
    chances_for,
    describe_end,
    order_problems,
    phase_rng,
    play_phase,
    settle,
)
from hegemon.game.phases import Procedure
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.server.policy import Policy
from hegemon.store import Store, models
from hegemon.store.exchange import end_from_json, end_json
from hegemon.store.records import (
    audit,
    configured,
    current_position,
    parse_orders,
    pending_rows,
    phase_record,
    variant_of,
)

FORMING, ACTIVE, PAUSED, ENDED = "forming", "active", "paused", "ended"
MASTER_ROLE, PLAYER, OBSERVER_ROLE = "master", "player", "observer"


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


def find_game(session: Session, game_id: int, lock: Lock = Lock.NONE) -> models.Game:
    query = select(models.Game).where(models.Game.id == game_id)
    if lock is Lock.SHARE:
        query = query.with_for_update(read=True)
    elif lock is Lock.UPDATE:
        query = query.with_for_update()
    game = session.scalar(query)
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
    user = session.scalar(select(models.User).where(models.User.name == name))
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
        game = find_game(session, game_id, lock)
        member = None
        if user is not None:
            member = session.scalar(
                select(models.Member).where(
                    models.Member.game_id == game.id, models.Member.user_id == user.id
                )
            )
        return cls(session, game, user, member)

    @cached_property
    def variant(self) -> Variant:
        return variant_of(self.game)

    @cached_property
    def position(self) -> Position:
        return current_position(self.session, self.game)

    @cached_property
    def pending(self) -> dict[str, models.Pending]:
        return pending_rows(self.session, self.game)

    def lock_pending(self, power: str) -> models.Pending:
        """A power's pending row, read again and locked until the transaction ends, so
        that the same power's orders sent twice at once are added one after the other
        (PostgreSQL ``FOR UPDATE``; on SQLite the transaction holds the write lock)."""
        row = self.session.scalar(
            select(models.Pending)
            .where(models.Pending.game_id == self.game.id, models.Pending.power == power)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        assert row is not None
        self.pending[power] = row
        return row

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
        """The actors not in civil disorder: those the game waits for."""
        return [p for p in self.actors if not self.pending[p].disorder]

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

    def log(self, action: str, **detail: Any) -> None:
        audit(self.session, self.game, self.user, action, detail)


# --- games and seats ----------------------------------------------------------------------


def create_game(
    session: Session,
    user: models.User,
    title: str,
    variant_name: str,
    options: Mapping[str, Any] | None,
    seats: Sequence[str] | None,
    seed: int | None,
    policy: Policy,
) -> models.Game:
    """A new game, forming, its creator its game master."""
    try:
        variant = configured(variant_name, options, seats)
    except jsonio.WireError as exc:
        raise Refusal(422, str(exc)) from None
    start = variant.initial_position()
    game = models.Game(
        title=title,
        variant=variant.id,
        options=dict(options or {}),
        seats=None if variant.seated is None else list(variant.seated),
        seed=secrets.randbits(32) if seed is None else seed,
        status=FORMING,
        policy=policy.to_json(),
        start=jsonio.position_to_json(start),
        played=0,
        phase=start.phase.code,
    )
    session.add(game)
    session.flush()
    session.add(models.Member(game_id=game.id, user_id=user.id, role=MASTER_ROLE))
    for power in variant.powers:
        session.add(models.Pending(game_id=game.id, power=power, orders=[]))
    audit(
        session,
        game,
        user,
        "created",
        {
            "variant": variant.id,
            "options": game.options,
            "seats": game.seats,
            "policy": game.policy,
        },
    )
    session.flush()
    return game


def join(table: Table, spelling: str, now: datetime) -> None:
    """Take a free seat; the game starts when the last seat is taken."""
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    power = table.power_named(spelling)
    taken = table.session.scalar(
        select(models.Member).where(
            models.Member.game_id == table.game.id, models.Member.power == power
        )
    )
    if taken is not None:
        raise Refusal(409, f"{power} is taken")
    assert table.user is not None
    if table.member is None:
        table.member = models.Member(game_id=table.game.id, user_id=table.user.id)
        table.session.add(table.member)
    elif table.member.role != OBSERVER_ROLE:
        held = table.member.power or "the game master's seat"
        raise Refusal(409, f"you hold {held} in this game already")
    table.member.role, table.member.power = PLAYER, power
    table.session.flush()
    table.log("joined", power=power)
    if table.game.status == FORMING and _seats_filled(table):
        start(table, now)


def _seats_filled(table: Table) -> bool:
    players = table.session.scalars(
        select(models.Member.power).where(
            models.Member.game_id == table.game.id, models.Member.role == PLAYER
        )
    )
    return set(table.variant.powers) <= set(players)


def observe(table: Table) -> None:
    if table.member is not None:
        raise Refusal(409, f"you are this game's {table.member.power or table.member.role}")
    assert table.user is not None
    table.member = models.Member(game_id=table.game.id, user_id=table.user.id, role=OBSERVER_ROLE)
    table.session.add(table.member)
    table.log("observes")


def start(table: Table, now: datetime) -> None:
    """The game begins: the first deadline runs (and a phase nobody acts in, such as a
    draw of lots, is played at once)."""
    if table.game.status != FORMING:
        raise Refusal(409, f"the game has started already ({table.game.status})")
    table.game.status = ACTIVE
    table.game.deadline = table.policy.deadline(table.position.phase.kind.name, now)
    table.log("started", phase=table.game.phase)
    if not table.actors:
        adjudicate(table, now)


# --- orders -------------------------------------------------------------------------------


def submit(
    table: Table,
    power: str,
    texts: Sequence[str],
    replace: bool = False,
    phase: str | None = None,
    version: int | None = None,
) -> models.Pending:
    """Store a power's orders: each replaces its earlier order for the same slot (all of
    them with `replace`). Every unreadable or illegal order is refused with its reason,
    and then nothing is stored."""
    table.require_playing()
    row = _expected(table, power, phase, version)
    orders, problems = _read(table, texts)
    if not problems:
        current = _stored(table, row)
        merged = orders if replace else _with_orders(table, power, current, orders)
        problems = order_problems(table.variant, table.position, power, merged)
    if problems:
        raise Refusal(422, f"nothing stored: {len(problems)} order(s) refused", problems)
    row.orders = [o.format() for o in merged]
    if row.disorder:  # its player is back
        row.disorder, row.missed = False, 0
    table.log("orders", power=power, given=list(texts), replace=replace)
    table.session.flush()
    return row


def withdraw(
    table: Table, power: str, text: str | None = None, phase: str | None = None
) -> tuple[models.Pending, int]:
    """Withdraw all the power's orders, or its order for the slot `text` names (``A Par``
    names a unit's); how many were withdrawn."""
    table.require_playing()
    row = _expected(table, power, phase, None)
    current = _stored(table, row)
    if text is None:
        kept: list[Order] = []
    else:
        named, problems = _read(table, [text])
        if problems:
            raise Refusal(422, problems[0], problems)
        slot = named[0].slot() or named[0]
        kept = [o for o in current if (o.slot() or o) != slot]
    withdrawn = len(current) - len(kept)
    row.orders = [o.format() for o in kept]
    table.log("withdrew", power=power, order=text, withdrawn=withdrawn)
    table.session.flush()
    return row, withdrawn


def _expected(table: Table, power: str, phase: str | None, version: int | None) -> models.Pending:
    """The power's pending row, if the caller's idea of the game is still true."""
    if phase is not None and phase.upper() != table.game.phase:
        raise Refusal(409, f"the game is at {table.game.phase} now, not {phase}")
    row = table.lock_pending(power)
    if version is not None and version != row.version:
        raise Refusal(
            409, f"{power}'s orders changed meanwhile (version {row.version}, not {version})"
        )
    return row


def _read(table: Table, texts: Sequence[str]) -> tuple[list[Order], list[str]]:
    """The orders as the variant reads them, and every text it cannot read, with why."""
    units = table.position.all_units
    orders: list[Order] = []
    problems: list[str] = []
    for text in texts:
        try:
            orders.append(table.variant.parse_order(text, units))
        except OrderSyntaxError as exc:
            problems.append(str(exc))
    return orders, problems


def _stored(table: Table, row: models.Pending) -> list[Order]:
    return parse_orders(table.variant, table.position, {row.power: row.orders}).get(row.power, [])


def _with_orders(
    table: Table, power: str, current: list[Order], orders: list[Order]
) -> list[Order]:
    """The core's rule: each new order replaces the earlier one for its slot."""
    return Game(table.variant, table.position, pending={power: current}).with_orders(power, orders)


def set_ready(table: Table, power: str, ready: bool, now: datetime) -> list[models.Phase]:
    """Mark a power ready (or not); when every power awaited is ready and the game
    adjudicates early, the phase is adjudicated at once. The phases played, if any."""
    table.require_playing()
    table.pending[power].ready = ready
    table.log("ready" if ready else "not ready", power=power)
    return adjudicate_if_all_ready(table, now)


def adjudicate_if_all_ready(table: Table, now: datetime) -> list[models.Phase]:
    awaited = table.awaited
    everyone = bool(awaited) and all(table.pending[p].ready for p in awaited)
    if table.game.status == ACTIVE and table.policy.early and everyone:
        return adjudicate(table, now)
    return []


# --- adjudication -------------------------------------------------------------------------


def adjudicate(
    table: Table, now: datetime, draws: Mapping[str, Draw] | None = None
) -> list[models.Phase]:
    """Play the current phase with the pending orders, and any phase after it that awaits
    nobody (a draw of lots); the rows of the phases played."""
    if table.game.status in (FORMING, ENDED):
        table.require_playing()
    played = [_play_one(table, now, draws)]
    while table.game.status != ENDED and not table.actors:
        played.append(_play_one(table, now, None))
    return played


def _play_one(table: Table, now: datetime, draws: Mapping[str, Draw] | None) -> models.Phase:
    game, variant, position = table.game, table.variant, table.position
    given = {p: row.orders for p, row in table.pending.items() if row.orders}
    orders = parse_orders(variant, position, given)
    try:
        drawn = settle(chances_for(variant, position), draws, phase_rng(game.seed, game.played))
    except ChanceError as exc:
        raise Refusal(422, f"draws: {exc}") from None
    actors = table.actors
    result = play_phase(variant, position, orders, drawn)
    number = game.played + 1
    row = phase_record(game, number, result)
    table.session.add(row)
    _count_missed(table, actors)
    for pending in table.pending.values():
        pending.orders, pending.ready = [], False
    game.played, game.phase, game.grace_used = number, result.after.phase.code, False
    if result.end:
        game.status, game.ended, game.deadline = ENDED, end_json(result.end), None
    elif game.status == ACTIVE:
        game.deadline = table.policy.deadline(result.after.phase.kind.name, now)
    else:  # paused: the next phase's clock starts when the game resumes
        game.paused_left = float(table.policy.length(result.after.phase.kind.name)) or None
    table.__dict__["position"] = result.after
    table.log("adjudicated", number=number, phase=row.phase, digest=row.digest)
    table.session.flush()  # a phase adjudicated twice stops here: (game, number) is unique
    return row


def _count_missed(table: Table, actors: Sequence[str]) -> None:
    """A power that had something to order and sent nothing has missed a phase; so many
    in a row and it goes into civil disorder."""
    after = table.policy.disorder_after
    for power in actors:
        row = table.pending[power]
        if row.orders:
            row.missed = 0
            continue
        row.missed += 1
        if after and row.missed >= after and not row.disorder:
            row.disorder = True
            table.log("civil disorder", power=power, missed=row.missed)


def claim_due(session: Session, now: datetime) -> int | None:
    """A game whose deadline has passed, locked for this transaction (one no other worker
    holds: ``FOR UPDATE SKIP LOCKED``), or None."""
    return session.scalar(
        select(models.Game.id)
        .where(models.Game.status == ACTIVE, models.Game.deadline <= now)
        .order_by(models.Game.deadline)
        .limit(1)
        .with_for_update(skip_locked=True)
    )


def run_deadline(table: Table, now: datetime) -> list[models.Phase]:
    """The deadline has passed: a grace period once, if a power awaited sent nothing and
    the policy grants one; else the phase is adjudicated."""
    game = table.game
    if game.status != ACTIVE or game.deadline is None or game.deadline > now:
        return []  # changed since it was found due
    silent = [p for p in table.awaited if not table.pending[p].orders]
    grace = table.policy.grace
    if grace and silent and not game.grace_used:
        game.deadline = game.deadline + _seconds(grace)
        game.grace_used = True
        table.log("grace", powers=silent, until=game.deadline.isoformat())
        return []
    return adjudicate(table, now)


def _seconds(count: float) -> timedelta:
    return timedelta(seconds=count)


# --- the game master's actions ------------------------------------------------------------


def extend(table: Table, seconds: int, now: datetime) -> None:
    table.require_playing()
    game = table.game
    if game.status == PAUSED:
        game.paused_left = (game.paused_left or 0.0) + seconds
    else:
        game.deadline = max(game.deadline or now, now) + _seconds(seconds)
    table.log("extended", seconds=seconds)


def pause(table: Table, now: datetime) -> None:
    table.require_playing()
    game = table.game
    if game.status == PAUSED:
        raise Refusal(409, "the game is paused already")
    game.paused_left = None if game.deadline is None else (game.deadline - now).total_seconds()
    game.status, game.deadline = PAUSED, None
    table.log("paused")


def resume(table: Table, now: datetime) -> None:
    game = table.game
    if game.status != PAUSED:
        raise Refusal(409, f"the game is not paused ({game.status})")
    left = game.paused_left
    game.status, game.paused_left = ACTIVE, None
    game.deadline = None if left is None else now + _seconds(max(left, 0.0))
    table.log("resumed")


def replace_player(table: Table, spelling: str, name: str) -> None:
    """Give a power's seat to another user (who may be observing, but not play or run this
    game already); the power leaves civil disorder."""
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    power = table.power_named(spelling)
    user = find_user(table.session, name)
    session, game_id = table.session, table.game.id
    theirs = session.scalar(
        select(models.Member).where(
            models.Member.game_id == game_id, models.Member.user_id == user.id
        )
    )
    if theirs is not None and theirs.role != OBSERVER_ROLE:
        raise Refusal(409, f"{name} is this game's {theirs.power or theirs.role} already")
    seat = session.scalar(
        select(models.Member).where(models.Member.game_id == game_id, models.Member.power == power)
    )
    if theirs is not None:
        session.delete(theirs)
        session.flush()
    before = None
    if seat is None:
        session.add(models.Member(game_id=game_id, user_id=user.id, role=PLAYER, power=power))
    else:
        before = session.get(models.User, seat.user_id)
        seat.user_id = user.id
    pending = table.pending[power]
    pending.disorder, pending.missed = False, 0
    table.log("replaced", power=power, player=name, before=None if before is None else before.name)


def set_disorder(table: Table, spelling: str, disorder: bool, now: datetime) -> list[models.Phase]:
    table.require_playing()
    power = table.power_named(spelling)
    pending = table.pending[power]
    pending.disorder = disorder
    if not disorder:
        pending.missed = 0
    table.log("civil disorder" if disorder else "out of civil disorder", power=power)
    return adjudicate_if_all_ready(table, now)


def end_game(table: Table, draw: Sequence[str], concede_to: str | None) -> None:
    """End the game as its players agreed: a draw of the powers named, or a concession."""
    table.require_playing()
    powers = [table.power_named(p) for p in draw]
    winner = None if concede_to is None else table.power_named(concede_to)
    try:
        end = Game(table.variant, table.position).end_by_agreement(powers, winner)
    except (GameOver, ValueError) as exc:
        raise Refusal(422, str(exc)) from None
    game = table.game
    game.agreed = {"concede_to": winner} if winner else {"draw": list(end.draw)}
    game.status, game.ended, game.deadline = ENDED, end_json(end), None
    for pending in table.pending.values():
        pending.orders, pending.ready = [], False
    table.log("ended", **game.agreed)


def seat_master(table: Table, now: datetime) -> None:
    """The caller becomes the game master of a game just imported; its clock starts."""
    assert table.user is not None
    table.member = models.Member(game_id=table.game.id, user_id=table.user.id, role=MASTER_ROLE)
    table.session.add(table.member)
    if table.game.status == ACTIVE:
        table.game.deadline = table.policy.deadline(table.position.phase.kind.name, now)
    table.log("imported", phases=table.game.played, phase=table.game.phase)
