"""Bots at play: the deadline worker's pass over the games where a bot owes orders.

A bot plays a power through the same calls as a player (`play.submit`, `play.set_ready`),
acting as its bot account, so that deadlines, ready flags and secrecy hold for it
unchanged: its orders are stored as a player's are, shown to nobody but the game master
before the phase is played, and the phase is adjudicated early once every power awaited
is ready, a player among them. It is handed its power's sight (`hegemon.bots.sight_of`),
never the position, and seeded by the game's seed, the phase's number and the power, so
that a bot given the same budget in playouts decides the same on any machine.

A game's bots decide first, on what a transaction that only reads found, holding no
lock: a decision takes its budget of CPU time for each power, and a lock held that long
would keep players' orders and the game's adjudication waiting. Their orders are then
stored in a transaction of the game's own, claimed with ``SELECT ... FOR UPDATE SKIP
LOCKED`` (as `adjudication.claim_due` claims a deadline), so that two workers never both
play a game's bots, and only if the game is still in the phase they decided on; a bot's
orders are stored, and the power said ready, or nothing is. Nothing is kept but in the
database, so that a worker started again finds what is owed as it was left; the one thing
a pass remembers is which games had nothing more for their bots to do (the phase awaits
none of them) or failed, so as not to open them again at every pass until something
changes there. A bot that fails is logged and its power
left to its deadline, as a player's would be; a pass plays at most `limit` games.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from hegemon.bots import Bot, Budget, Player, PlayerKind, RandomPlayer, sight_of
from hegemon.server import auth, play
from hegemon.server.policy import Policy
from hegemon.server.table import ACTIVE, PLAYER, Refusal, Table
from hegemon.store import Store, models
from hegemon.store.models import now

log = logging.getLogger("hegemon.bots")

LIMIT = 20  # games a pass plays at most: bounded work, however many games have bots


@dataclass(frozen=True)
class Owed:
    """A game where a power a bot may play is not ready: its number, the phases played,
    and those powers (whether the phase awaits them is the variant's to say, asked once
    the game is claimed)."""

    game: int
    played: int
    powers: frozenset[str]


def owed(session: Session) -> list[Owed]:
    """The active games where a bot's seat, or a power in civil disorder that the game's
    policy gives to a bot, is not ready; those whose deadline comes first first."""
    seat = and_(
        models.Member.game_id == models.Pending.game_id,
        models.Member.power == models.Pending.power,
        models.Member.role == PLAYER,
    )
    rows = session.execute(
        select(
            models.Game.id,
            models.Game.played,
            models.Game.policy,
            models.Pending.power,
            models.Pending.disorder,
            models.User.kind,
        )
        .join(models.Pending, models.Pending.game_id == models.Game.id)
        .outerjoin(models.Member, seat)
        .outerjoin(models.User, models.User.id == models.Member.user_id)
        .where(models.Game.status == ACTIVE, models.Pending.ready.is_(False))
        .where(or_(models.User.kind != models.HUMAN, models.Pending.disorder.is_(True)))
        .order_by(models.Game.deadline, models.Game.id)
    )
    found: dict[int, Owed] = {}
    for game_id, played, policy, power, disorder, kind in rows:
        seated = kind is not None and kind != models.HUMAN
        if seated or (disorder and Policy.from_json(policy).disorder_bot):
            before = found.get(game_id, Owed(game_id, played, frozenset()))
            found[game_id] = Owed(game_id, played, before.powers | {power})
    return list(found.values())


def _claim(session: Session, game_id: int) -> bool:
    """Lock the game for this transaction, unless another worker holds it (``SKIP
    LOCKED``) or it is no longer active."""
    claimed = session.scalar(
        select(models.Game.id)
        .where(models.Game.id == game_id, models.Game.status == ACTIVE)
        .with_for_update(skip_locked=True)
    )
    return claimed is not None


def seed_for(game: models.Game, power: str) -> int:
    """The bot's seed for this power in this phase of this game."""
    text = f"{game.seed}:{game.played}:{power}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


PLAYERS: dict[PlayerKind, Callable[[Budget, int], Player]] = {
    PlayerKind.BOT: lambda budget, seed: Bot(budget, seed),
    PlayerKind.RANDOM: lambda budget, seed: RandomPlayer(seed),
}


@dataclass(frozen=True)
class Decision:
    """The orders a bot decided on for a power, in the phase `played` of its game."""

    power: str
    played: int
    orders: tuple[str, ...]


@dataclass
class BotPlay:
    """The bots' pass of a deadline worker, and the games it found with nothing more for
    their bots to do, each as it then stood (`Owed`)."""

    budget: Budget = field(default_factory=Budget)
    limit: int = LIMIT
    settled: dict[int, Owed] = field(default_factory=dict)

    def run(self, store: Store, clock: Callable[[], datetime] = now) -> int:
        """Play the powers bots owe orders for, a game at a time: how many were played."""
        with store.reading() as session:
            found = owed(session)
        self.settled = {o.game: o for o in found if self.settled.get(o.game) == o}
        played = 0
        for owing in [o for o in found if o.game not in self.settled][: self.limit]:
            try:
                decisions = self._decide(store, owing.game)
                if decisions:
                    with store.writing() as session:
                        if not _claim(session, owing.game):
                            continue  # another worker plays it, or it has stopped
                        table = Table.open(session, owing.game, None)
                        played += _give(table, decisions, clock())
            except (StaleDataError, DBAPIError) as exc:  # seen again at the next pass
                log.warning("game %s: its bots' orders failed in the database: %s", owing.game, exc)
                continue
            except Exception:
                log.exception("game %s: its bots failed", owing.game)
            self.settled[owing.game] = owing
        return played

    def _decide(self, store: Store, game_id: int) -> list[Decision]:
        """The orders of each power a bot plays that the phase awaits and that is not
        ready, decided on the game as a reading transaction finds it, no lock held."""
        with store.reading() as session:
            table = Table.open(session, game_id, None)
            game, variant, position = table.game, table.variant, table.position
            owing = _owing(table)
            players = {p: self._player(table, p) for p in owing}
        decisions = []
        for power, player in players.items():
            try:
                orders = player.orders(sight_of(variant, position, power))
            except Exception:
                log.exception("game %s: the bot for %s failed", game_id, power)
                continue
            decisions.append(Decision(power, game.played, tuple(o.format() for o in orders)))
        return decisions

    def _player(self, table: Table, power: str) -> Player:
        """The player of the seat's bot account's kind; a bot for a power in disorder."""
        seated = _seated(table, power)
        kind = PlayerKind(seated.kind) if seated is not None else PlayerKind.BOT
        return PLAYERS[kind](self.budget, seed_for(table.game, power))


def _give(table: Table, decisions: list[Decision], moment: datetime) -> int:
    """The decided orders stored as the bots' accounts, then each power said ready (the
    last may have the phase adjudicated); none if the game has moved on from the phase
    they were decided on, or for a power the phase no longer awaits from a bot."""
    played = table.game.played
    if any(d.played != played for d in decisions):
        return 0  # the next pass decides on the phase the game is in now
    still = _owing(table)
    given = [d.power for d in decisions if d.power in still and _submit(table, d)]
    for power in given:
        if table.game.played != played:
            break  # adjudicated: the next phase is another pass's
        table.user = _account(table, power)
        play.set_ready(table, power, True, moment)
    return len(given)


def _owing(table: Table) -> list[str]:
    """The powers a bot plays that the phase awaits and that are not ready."""
    return [p for p in table.awaited if p in table.bot_powers and not table.pending[p].ready]


def _submit(table: Table, decision: Decision) -> bool:
    """The bot's orders stored as its account's; False, logged, if they are refused."""
    table.user = _account(table, decision.power)
    try:
        play.submit(table, decision.power, list(decision.orders), replace=True)
    except Refusal as exc:
        log.error("game %s: the bot's orders for %s were refused: %s %s",
                  table.game.id, decision.power, exc.detail, exc.problems)  # fmt: skip
        return False
    return True


def _account(table: Table, power: str) -> models.User:
    """The bot account that plays `power`: its seat's, or, for a power in civil disorder
    given to a bot, the power's bot account (made on first use)."""
    return _seated(table, power) or auth.bot_account(table.session, power)


def _seated(table: Table, power: str) -> models.User | None:
    """The bot account seated as `power`, if a bot holds the seat."""
    seated = table.session.scalar(
        select(models.User)
        .join(models.Member, models.Member.user_id == models.User.id)
        .where(models.Member.game_id == table.game.id, models.Member.power == power)
        .where(models.Member.role == PLAYER)
    )
    return seated if seated is not None and seated.bot else None
