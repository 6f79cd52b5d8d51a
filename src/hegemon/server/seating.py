"""Who may sit at a game and how the seats are given (docs/server.md, "Creating a game"):
a private game admits only those with its invitation code; seats are chosen by each
player, dealt at random once every seat is taken, or assigned by the game master
(`models.Game.assignment`). A player who joined a game whose powers are dealt or assigned
holds a seat without a power until then.
"""

from __future__ import annotations

import random
import secrets

from sqlalchemy import select

from hegemon.server.table import ENDED, FORMING, PLAYER, Refusal, Table, find_user
from hegemon.store import models

CHOSEN, RANDOM, BY_MASTER = "chosen", "random", "master"
ANY_POWER = "random"  # the creator's `play_as` where powers are dealt: a seat, its power dealt
_DEALER = random.SystemRandom()  # nobody may foretell which power the deal gives them


def invitation_code() -> str:
    """A private game's invitation code: unguessable, short enough for a link."""
    return secrets.token_urlsafe(12)


def admit(table: Table, code: str | None) -> None:
    """A private game is joined only with its invitation code (by anyone who holds it)."""
    wanted = table.game.invitation
    if wanted is None or table.member is not None:
        return
    if code is None or not secrets.compare_digest(code.encode(), wanted.encode()):
        raise Refusal(403, f"code: game {table.game.id} is private: join it by its invitation link")


def players(table: Table) -> list[models.Member]:
    """The game's players, bots too, with or without a power yet, in the order they came."""
    return list(
        table.session.scalars(
            select(models.Member)
            .where(models.Member.game_id == table.game.id, models.Member.role == PLAYER)
            .order_by(models.Member.id)
        )
    )


def free_seats(table: Table) -> list[str]:
    """The powers nobody plays yet, in the variant's order."""
    taken = {member.power for member in players(table)}
    return [p for p in table.variant.powers if p not in taken]


def seat_to_take(table: Table, spelling: str | None) -> str | None:
    """The power a player joining takes: the free one named where players choose; none
    (dealt or assigned later) otherwise, while a seat is left."""
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    if table.game.assignment == CHOSEN:
        if spelling is None:
            raise Refusal(422, "power: name the power you take")
        power = table.power_named(spelling)
        if power not in free_seats(table):
            raise Refusal(409, f"{power} is taken")
        return power
    if spelling is not None:
        given = "dealt at random" if table.game.assignment == RANDOM else "assigned by its master"
        raise Refusal(422, f"power: this game's powers are {given}: name none")
    if len(players(table)) >= len(table.variant.powers):
        raise Refusal(409, "the game is full")
    return None


def full(table: Table) -> bool:
    """Every seat has a player (whose power may still be to deal or assign)."""
    return len(players(table)) >= len(table.variant.powers)


def deal(table: Table) -> list[str]:
    """Give the players without a power the free powers, at random: the powers dealt."""
    waiting = [m for m in players(table) if m.power is None]
    free = free_seats(table)
    _DEALER.shuffle(free)
    for member, power in zip(waiting, free, strict=False):
        member.power = power
    table.session.flush()
    dealt = free[: len(waiting)]
    if dealt:
        table.log("powers dealt", powers=sorted(dealt))
    return dealt


def assign(table: Table, name: str, spelling: str) -> models.Member:
    """The game master gives a player who joined a free power: any player before the game
    starts, afterwards one who joined a seat still free and waits for its power."""
    table.require_master()
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    power = table.power_named(spelling)
    user = find_user(table.session, name)
    member = next((m for m in players(table) if m.user_id == user.id), None)
    if member is None:
        raise Refusal(422, f"user: {user.name} has not joined game {table.game.id}")
    if member.power is not None and table.game.status != FORMING:
        raise Refusal(409, f"the game has started: {user.name} plays {member.power}")
    if power not in free_seats(table) and member.power != power:
        raise Refusal(409, f"{power} is taken")
    member.power = power
    table.session.flush()
    table.log("assigned", power=power, user=user.name)
    return member


def unassigned(table: Table) -> list[models.Member]:
    return [m for m in players(table) if m.power is None]
