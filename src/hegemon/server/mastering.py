"""The game master's actions: the clock (extend, pause, resume), the seats (replace a
player, civil disorder), the end by agreement, and a game imported."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select

from hegemon.game import Game, GameOver
from hegemon.server.adjudication import adjudicate_if_all_ready, deadline_of
from hegemon.server.table import (
    ACTIVE,
    ENDED,
    MASTER_ROLE,
    OBSERVER_ROLE,
    PAUSED,
    PLAYER,
    Refusal,
    Table,
    find_user,
)
from hegemon.store import models
from hegemon.store.exchange import end_json


def extend(table: Table, seconds: int, now: datetime) -> None:
    table.require_playing()
    game = table.game
    if game.status == PAUSED:
        game.paused_left = (game.paused_left or 0.0) + seconds
    else:
        game.deadline = max(game.deadline or now, now) + timedelta(seconds=seconds)
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
    game.deadline = None if left is None else now + timedelta(seconds=max(left, 0.0))
    game.pause_reason, game.idle_deadlines = None, 0  # its game master is back
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
        table.game.deadline = deadline_of(table, now)
    table.log("imported", phases=table.game.played, phase=table.game.phase)
