"""Adjudication: a phase played with the pending orders, as soon as every power awaited is
ready, when its deadline has passed (with a grace period once) or when the game master
says so; the powers that sent nothing counted, and put in civil disorder.

A phase is played by `play_phase` with the draws the game's seed gives, as
`Game.adjudicate` does, so that an exported game replays in the CLI to the same digests.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from hegemon.game import ChanceError, Draw, chances_for, phase_rng, play_phase, settle
from hegemon.server.table import ACTIVE, ENDED, FORMING, Refusal, Table
from hegemon.store import models
from hegemon.store.exchange import end_json
from hegemon.store.records import parse_orders, phase_record


def adjudicate_if_all_ready(table: Table, now: datetime) -> list[models.Phase]:
    awaited = table.awaited
    everyone = bool(awaited) and all(table.pending[p].ready for p in awaited)
    if table.game.status == ACTIVE and table.policy.early and everyone:
        return adjudicate(table, now)
    return []


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
    the policy grants one; else the phase is adjudicated."""
    game = table.game
    if game.status != ACTIVE or game.deadline is None or game.deadline > now:
        return []  # changed since it was found due
    silent = [p for p in table.awaited if not table.pending[p].orders]
    grace = table.policy.grace
    if grace and silent and not game.grace_used:
        game.deadline = game.deadline + timedelta(seconds=grace)
        game.grace_used = True
        table.log("grace", powers=silent, until=game.deadline.isoformat())
        return []
    return adjudicate(table, now)
