"""The game master's actions: the clock (extend, pause, resume), the seats (replace a
player, civil disorder), the end by agreement, and a game imported."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select

from hegemon.game import Game, GameOver
from hegemon.server import announce, ballots
from hegemon.server.adjudication import adjudicate_if_all_ready, deadline_of
from hegemon.server.auth import name_key
from hegemon.server.table import (
    ACTIVE,
    ENDED,
    MASTER_ROLE,
    OBSERVER_ROLE,
    PAUSED,
    PLAYER,
    Refusal,
    Table,
)
from hegemon.store import models
from hegemon.store.exchange import end_json

# The furthest a deadline may be set, from now: extensions add up, and a moment past the
# year 9999 cannot be told at all.
LONGEST_WAIT = timedelta(days=10 * 366)


def extend(table: Table, seconds: int, now: datetime) -> None:
    """Move the deadline on (or, while paused, the time left), up to `LONGEST_WAIT`."""
    table.require_playing()
    game = table.game
    left = _time_left(game, now) + timedelta(seconds=seconds)
    if left > LONGEST_WAIT:
        raise Refusal(
            422,
            f"seconds: the deadline would be {left.days} days away; "
            f"it may be {LONGEST_WAIT.days} days away at most",
        )
    if game.status == PAUSED:
        game.paused_left = left.total_seconds()
    else:
        game.deadline = now + left
    table.log("extended", seconds=seconds)
    announce.game_changed(table, "extended")


def _time_left(game: models.Game, now: datetime) -> timedelta:
    """Until the deadline (none if it has passed), or what was left when paused."""
    if game.status == PAUSED:
        return timedelta(seconds=max(game.paused_left or 0.0, 0.0))
    return max((game.deadline or now) - now, timedelta(0))


def pause(table: Table, now: datetime) -> None:
    table.require_playing()
    game = table.game
    if game.status == PAUSED:
        raise Refusal(409, "the game is paused already")
    game.paused_left = None if game.deadline is None else (game.deadline - now).total_seconds()
    game.status, game.deadline = PAUSED, None
    ballots.clear(table, ballots.CLOCK)  # the players' votes to pause it are answered
    table.log("paused")
    announce.game_changed(table, "paused")


def resume(table: Table, now: datetime) -> None:
    game = table.game
    if game.status != PAUSED:
        raise Refusal(409, f"the game is not paused ({game.status})")
    left = game.paused_left
    game.status, game.paused_left = ACTIVE, None
    game.deadline = None if left is None else now + timedelta(seconds=max(left, 0.0))
    game.pause_reason, game.idle_deadlines = None, 0  # its game master is back
    ballots.clear(table, ballots.CLOCK)  # the players' votes to resume it are answered
    table.log("resumed")
    announce.game_changed(table, "resumed")


def replace_player(table: Table, spelling: str, name: str) -> None:
    """Give a power's seat to a user who observes the game (and neither plays nor runs it):
    a player's seat, a bot's, or one nobody holds; the power leaves civil disorder. Only a
    user who has chosen to observe the game may be seated, so that nobody is put in a game
    unasked, and a game master learns nothing of the accounts outside the game: an unknown
    name and one that does not observe the game get the same answer."""
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    power = table.power_named(spelling)
    found = _member_named(table, name)
    if found is None:
        raise Refusal(
            422, f"nobody named {name!r} observes this game: a seat goes to one who observes it"
        )
    theirs, user = found
    if theirs.role != OBSERVER_ROLE:
        raise Refusal(409, f"{user.name} is this game's {theirs.power or theirs.role} already")
    session, game_id = table.session, table.game.id
    seat = session.scalar(
        select(models.Member).where(models.Member.game_id == game_id, models.Member.power == power)
    )
    session.delete(theirs)
    session.flush()
    before = None
    if seat is None:
        session.add(models.Member(game_id=game_id, user_id=user.id, role=PLAYER, power=power))
    else:
        before = session.get(models.User, seat.user_id)
        seat.user_id = user.id
    # The new player has said nothing yet: not ready (a bot that held the seat may have
    # been), and out of civil disorder, which a bot stops playing.
    pending = table.pending[power]
    pending.disorder, pending.missed, pending.ready = False, 0, False
    table.seats_changed()
    table.log(
        "replaced", power=power, player=user.name, before=None if before is None else before.name
    )
    announce.members_changed(table, "replaced", power)


def _member_named(table: Table, name: str) -> tuple[models.Member, models.User] | None:
    """The member of the game of that name, in any case (its exact spelling first, as
    `auth.account_named`), and their account."""
    members = table.session.execute(
        select(models.Member, models.User)
        .join(models.User, models.User.id == models.Member.user_id)
        .where(models.Member.game_id == table.game.id)
    ).all()
    exact = (found for found in members if found[1].name == name)
    alike = (found for found in members if found[1].name_key == name_key(name))
    found = next(exact, None) or next(alike, None)
    return None if found is None else (found[0], found[1])


def set_disorder(table: Table, spelling: str, disorder: bool, now: datetime) -> list[models.Phase]:
    table.require_playing()
    power = table.power_named(spelling)
    pending = table.pending[power]
    pending.disorder = disorder
    if not disorder:
        pending.missed = 0
    table.log("civil disorder" if disorder else "out of civil disorder", power=power)
    announce.members_changed(
        table, "civil disorder" if disorder else "out of civil disorder", power
    )
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
    announce.game_changed(table, "ended")


def seat_master(table: Table, now: datetime) -> None:
    """The caller becomes the game master of a game just imported; its clock starts."""
    assert table.user is not None
    table.member = models.Member(game_id=table.game.id, user_id=table.user.id, role=MASTER_ROLE)
    table.session.add(table.member)
    if table.game.status == ACTIVE:
        table.game.deadline = deadline_of(table, now)
    table.log("imported", phases=table.game.played, phase=table.game.phase)
