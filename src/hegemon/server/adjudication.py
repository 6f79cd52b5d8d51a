"""Adjudication: a phase played with the pending orders, as soon as every power awaited is
ready, when its deadline has passed (with a grace period once) or when the game master
says so; the powers that sent nothing counted, and put in civil disorder; a game nobody
plays paused.

One phase at a time, whoever asks, in a transaction bounded by a statement timeout: a
phase that awaits nobody by the rules (a draw of lots, a year where nobody has a unit) is
due at once, its deadline set to now, and the deadline worker plays it next in a
transaction of its own. A game with nobody to order thus advances a phase per pass of the
worker and ends by its rules, or pauses, without holding up any other.

A phase is played by `play_phase` with the draws the game's seed gives, as
`Game.adjudicate` does, so that an exported game replays in the CLI to the same digests.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from hegemon.game import ChanceError, Draw, chances_for, phase_rng, play_phase, settle
from hegemon.server import announce, ballots, metrics
from hegemon.server.table import ACTIVE, ENDED, FORMING, PAUSED, Refusal, Table
from hegemon.store import models
from hegemon.store.exchange import end_json
from hegemon.store.records import parse_orders, phase_record

log = logging.getLogger("hegemon.adjudication")

TIMEOUT_VARIABLE = "HEGEMON_ADJUDICATION_TIMEOUT"


def statement_timeout() -> float:
    """Seconds any one statement of an adjudication may take on PostgreSQL: 30, or
    $HEGEMON_ADJUDICATION_TIMEOUT (0 for no limit); a ValueError naming the variable if it
    holds no such number (`hegemon serve` and `worker` ask before they start)."""
    setting = os.environ.get(TIMEOUT_VARIABLE, "30")
    try:
        seconds = float(setting)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 10**6:
        raise ValueError(f"${TIMEOUT_VARIABLE} {setting!r}: expected seconds, 0 for no limit")
    return seconds


def adjudicate_if_all_ready(table: Table, now: datetime) -> list[models.Phase]:
    """Adjudicate at once if the policy says so and every power awaited is ready, as long
    as a player plays in the game (a power neither a bot's nor in civil disorder): bots
    alone never hurry a game, so that one whose players are all away moves at the pace of
    its deadlines, not of its bots."""
    awaited, bots = table.awaited, table.bot_powers
    everyone = bool(awaited) and all(table.pending[p].ready for p in awaited)
    someone = any(p not in bots and not row.disorder for p, row in table.pending.items())
    if table.game.status == ACTIVE and table.policy.early and someone and everyone:
        return adjudicate(table, now)
    return []


def adjudicate(
    table: Table, now: datetime, draws: Mapping[str, Draw] | None = None
) -> list[models.Phase]:
    """Play the current phase with the pending orders: one phase, the row of it in a list
    (the routes answer with the phases played). A phase after it that awaits nobody is
    due at once (`deadline_of`), for the deadline worker to play on its own."""
    if table.game.status in (FORMING, ENDED):
        table.require_playing()
    _bound_statements(table.session)
    return [_play(table, now, draws)]


def deadline_of(table: Table, now: datetime) -> datetime | None:
    """The current phase's deadline, its clock starting `now`: as the policy sets it, or
    now itself for a phase that awaits nobody by the rules, whatever the policy, so that
    the deadline worker plays it at its next look."""
    if not table.actors:
        return now
    return table.policy.deadline(table.position.phase.kind.name, now)


def _bound_statements(session: Session) -> None:
    """On PostgreSQL, no statement of this transaction runs longer than `statement_timeout`:
    a game whose adjudication is stuck on the database fails (and is logged and passed
    over by the worker) rather than holding a connection and the game's lock for ever."""
    if session.get_bind().dialect.name == "postgresql":
        milliseconds = round(statement_timeout() * 1000)
        session.execute(text(f"SET LOCAL statement_timeout = {milliseconds}"))


def _play(table: Table, now: datetime, draws: Mapping[str, Draw] | None) -> models.Phase:
    started = time.perf_counter()
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
    if _anyone_played(table):
        game.idle_deadlines = 0
    for pending in table.pending.values():
        pending.orders, pending.ready = [], False
    game.played, game.phase, game.grace_used = number, result.after.phase.code, False
    table.__dict__["position"] = result.after
    if result.end:
        game.status, game.ended, game.deadline = ENDED, end_json(result.end), None
    elif game.status == ACTIVE:
        game.deadline = deadline_of(table, now)
    else:  # paused: the next phase's clock starts when the game resumes
        game.paused_left = _clock_left(table, now)
    table.log("adjudicated", number=number, phase=row.phase, digest=row.digest)
    table.session.flush()  # a phase adjudicated twice stops here: (game, number) is unique
    announce.phase_played(table, row)
    if result.end:
        announce.game_changed(table, "ended")
    seconds = round(time.perf_counter() - started, 6)
    metrics.observe_adjudication(seconds)
    log.info(
        "adjudicated",
        extra={"game": game.id, "phase": row.phase, "number": number, "seconds": seconds},
    )
    return row


def _clock_left(table: Table, now: datetime) -> float | None:
    """The seconds a paused game's current phase will last once it resumes (None: no
    deadline; 0: due at once, as it awaits nobody)."""
    deadline = deadline_of(table, now)
    return None if deadline is None else (deadline - now).total_seconds()


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


def claim_due(session: Session, now: datetime, passed: Collection[int] = ()) -> int | None:
    """A game whose deadline has passed, but those `passed` over, locked for this
    transaction (one no other worker holds: ``FOR UPDATE SKIP LOCKED``), or None."""
    return session.scalar(
        select(models.Game.id)
        .where(models.Game.status == ACTIVE, models.Game.deadline <= now)
        .where(models.Game.id.not_in(passed))
        .order_by(models.Game.deadline)
        .limit(1)
        .with_for_update(skip_locked=True)
    )


def run_deadline(table: Table, now: datetime) -> list[models.Phase]:
    """The deadline has passed: a grace period once, if a power awaited sent nothing and
    the policy grants one; else the phase is adjudicated, unless nobody has played in so
    many deadlines in a row that the game is paused (`_pause_idle`)."""
    game = table.game
    if game.status != ACTIVE or game.deadline is None or game.deadline > now:
        return []  # changed since it was found due
    silent = [p for p in table.awaited if not table.pending[p].orders]
    grace = table.policy.grace
    if grace and silent and not game.grace_used:
        game.deadline = game.deadline + timedelta(seconds=grace)
        game.grace_used = True
        table.log("grace", powers=silent, until=game.deadline.isoformat())
        announce.game_changed(table, "grace")
        return []
    if _idle(table):
        game.idle_deadlines += 1
        after = table.policy.pause_after
        if after and game.idle_deadlines >= after:
            _pause_idle(table, now)
            return []
    return adjudicate(table, now)


def _idle(table: Table) -> bool:
    """Whether the phase awaited someone and nobody played it: a deadline nobody played.
    A phase that awaits nobody is no sign of an abandoned game."""
    return bool(table.actors) and not _anyone_played(table)


def _anyone_played(table: Table) -> bool:
    """Whether any player sent orders for the phase or said ready (a bot's orders keep no
    game from being paused as abandoned). Asked when the phase is played, not counted as
    orders come, so that sending orders never writes to the game's row, which every
    power's orders share."""
    bots = table.bot_powers
    return any(row.orders or row.ready for p, row in table.pending.items() if p not in bots)


def _pause_idle(table: Table, now: datetime) -> None:
    """Pause a game nobody plays, saying why to its members (the game master's notice):
    its current phase, not played, gets its whole length again when the game resumes."""
    game = table.game
    count = game.idle_deadlines
    deadlines = "the last deadline" if count == 1 else f"{count} deadlines in a row"
    reason = f"paused by the server: no orders by {deadlines}; its game master may resume it"
    game.paused_left = _clock_left(table, now)
    game.status, game.deadline, game.pause_reason = PAUSED, None, reason
    ballots.clear(table, ballots.CLOCK)  # the players' votes to pause it are answered
    table.log("paused", reason=reason)
    announce.game_changed(table, "paused")
    log.info("paused", extra={"game": game.id, "phase": game.phase, "idle_deadlines": count})
