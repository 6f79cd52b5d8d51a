"""The votes a game's players have cast, as stored (`models.Vote`): those that stand, one
cast or withdrawn, and the pause and resume votes cleared once the game is paused or
resumed. What a vote means, who votes and when one passes are `hegemon.server.votes`'s."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import and_, bindparam, delete, select

from hegemon.server.table import ENDED, PLAYER, Table
from hegemon.store import models

DRAW, CONCEDE, PAUSE, RESUME = "draw", "concede", "pause", "resume"
CLOCK = (PAUSE, RESUME)  # the votes a pause or a resume answers, by whoever it is made


def standing(table: Table) -> Sequence[models.Vote]:
    """The game's votes that stand: each cast by the account that still plays its power
    (a seat given to another carries no vote); none once the game is over."""
    if table.game.status == ENDED:
        return []
    return table.session.scalars(STANDING, {"game_id": table.game.id}).all()


# Built once: every page of a game shows its votes.
STANDING = (
    select(models.Vote)
    .join(
        models.Member,
        and_(
            models.Member.game_id == models.Vote.game_id,
            models.Member.power == models.Vote.power,
            models.Member.user_id == models.Vote.user_id,
            models.Member.role == PLAYER,
        ),
    )
    .where(models.Vote.game_id == bindparam("game_id"))
    .order_by(models.Vote.id)
)


def cast(table: Table, power: str, kind: str, to: str | None) -> None:
    """The caller's vote of this kind for its power, in place of any it cast before (a
    concession to another power, or one its seat's earlier player cast)."""
    assert table.user is not None
    row = _row(table, power, kind)
    if row is None:
        table.session.add(
            models.Vote(game_id=table.game.id, user_id=table.user.id, power=power, kind=kind, to=to)
        )
    else:
        row.user_id, row.to = table.user.id, to
    table.session.flush()


def withdraw(table: Table, power: str, kind: str) -> bool:
    """The power's vote of this kind withdrawn: whether there was one."""
    row = _row(table, power, kind)
    if row is not None:
        table.session.delete(row)
        table.session.flush()
    return row is not None


def clear(table: Table, kinds: Collection[str]) -> None:
    """Every vote of these kinds withdrawn: those a change of the game has answered."""
    table.session.execute(
        delete(models.Vote).where(
            models.Vote.game_id == table.game.id, models.Vote.kind.in_(list(kinds))
        )
    )


def _row(table: Table, power: str, kind: str) -> models.Vote | None:
    return table.session.scalar(
        select(models.Vote).where(
            models.Vote.game_id == table.game.id,
            models.Vote.power == power,
            models.Vote.kind == kind,
        )
    )
