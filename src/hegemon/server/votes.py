"""Players' votes (docs/server.md, "Votes"): a draw among the powers still in, a
concession to one power, a pause and a resume of the clock.

The voters are the powers still in (`Variant.eliminated`) that a person plays; a power a
bot plays, or one in civil disorder, neither votes nor blocks a vote, but shares a draw.
A draw, a pause and a resume pass once every voter has voted for them; a concession once
every other voter concedes to the same power. Votes are counted as one is cast: the vote
that makes them all passes. A vote stands until its voter withdraws it or the game ends;
pause and resume votes are cleared once the game is paused or resumed, by whoever.

A passed draw or concession ends the game by the game master's own path
(`mastering.end_game`), and a passed pause or resume is the game master's pause or resume
(`mastering.pause`, `mastering.resume`): whatever follows those follows a vote.

Where the game's policy keeps votes secret (its default), a vote is seen by its voter
alone until it passes: nobody else reads it, counts it or is told of it (no event), the
game master included, and its voter's answer is the same whatever the others voted. A
vote that passes is published (an event, and the game ended, paused or resumed) and
logged.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast as typed

from sqlalchemy import bindparam, select

from hegemon.server import announce, answers, ballots, mastering
from hegemon.server.ballots import CONCEDE, DRAW, PAUSE, RESUME
from hegemon.server.table import ACTIVE, MASTER_ROLE, OBSERVER_ROLE, PAUSED, PLAYER, Refusal, Table
from hegemon.store import models


def powers_in(table: Table) -> list[str]:
    """The powers not eliminated, in the variant's order: those a draw is shared by."""
    variant, position = table.variant, table.position
    return [p for p in variant.powers if not variant.eliminated(position, p)]


# The powers people play in a game, built once: every page of a game counts its voters.
PEOPLE = (
    select(models.Member.power)
    .join(models.User, models.User.id == models.Member.user_id)
    .where(models.Member.game_id == bindparam("game_id"), models.Member.role == PLAYER)
    .where(models.User.kind == models.HUMAN)
)


def voters(table: Table) -> list[str]:
    """The powers still in whose players vote: played by a person, not in civil disorder."""
    people = set(table.session.scalars(PEOPLE, {"game_id": table.game.id}))
    pending = table.pending
    return [p for p in powers_in(table) if p in people and not pending[p].disorder]


def why_not_voting(table: Table) -> Refusal | None:
    """Why the caller may not vote now (None if it may): the game master, an observer, a
    bot; a game not started or over; a power out of the game or in civil disorder."""
    if table.member is None:
        return Refusal(403, f"you take no part in game {table.game.id}: join or observe it")
    if table.role == MASTER_ROLE:
        return Refusal(403, "the game master does not vote: the players do")
    if table.role == OBSERVER_ROLE:
        return Refusal(403, "an observer does not vote")
    if table.user is not None and table.user.bot:
        return Refusal(403, "a bot does not vote")
    try:
        table.require_playing()
    except Refusal as refused:
        return refused
    power = table.member.power or ""
    if table.variant.eliminated(table.position, power):
        return Refusal(409, f"{power} is out of the game: it votes no more")
    if table.pending[power].disorder:
        return Refusal(409, f"{power} is in civil disorder: send orders to come back, then vote")
    return None


def vote(
    table: Table, kind: answers.VoteKind, to: str | None, cast: bool, now: datetime
) -> answers.Votes:
    """Cast the caller's vote (or withdraw it: a concession is withdrawn without naming
    its power), count the votes of its kind if cast, and carry out the vote if it passes:
    the votes as the caller then sees them."""
    refused = why_not_voting(table)
    if refused is not None:
        raise refused
    assert table.member is not None and table.member.power is not None
    power = table.member.power
    if kind != CONCEDE and to is not None:
        raise Refusal(422, f"to: only a concession names a power, not a {kind} vote")
    if cast:
        target = _conceded_to(table, power, to) if kind == CONCEDE else None
        _require_clock(table, kind)
        ballots.cast(table, power, kind, target)
        _told(table, answers.VoteEvent(change="cast", kind=kind, to=target, power=power))
        if _passes(table, kind, target):
            _carry_out(table, kind, target, now)
    elif ballots.withdraw(table, power, kind):
        _told(table, answers.VoteEvent(change="withdrawn", kind=kind, to=None, power=power))
    return votes_view(table)


def _conceded_to(table: Table, power: str, to: str | None) -> str:
    if to is None:
        raise Refusal(422, "to: name the power you concede to")
    target = table.variant.power_named(to)
    if target is None or target not in powers_in(table):
        raise Refusal(422, f"to: {to!r} is not a power still in (powers: "
                           f"{', '.join(powers_in(table))})")  # fmt: skip
    if target == power:
        raise Refusal(422, "to: a power concedes to another, not to itself")
    return target


def _require_clock(table: Table, kind: str) -> None:
    """A pause is voted while the clock runs, a resume while the game is paused."""
    status = table.game.status
    if kind == PAUSE and status != ACTIVE:
        raise Refusal(409, f"the game is not running ({status}): there is nothing to pause")
    if kind == RESUME and status != PAUSED:
        raise Refusal(409, f"the game is not paused ({status}): there is nothing to resume")


def _told(table: Table, said: answers.VoteEvent) -> None:
    """A vote cast or withdrawn is published where votes are public, never where secret."""
    if table.policy.votes == "public":
        announce.vote_changed(table, said)


def _passes(table: Table, kind: str, target: str | None) -> bool:
    """Whether every voter has voted so (for a concession, every voter but the power
    conceded to has conceded to it), at least one of them a person who voted. The same
    rows are read whatever they hold."""
    given = {row.power: row.to for row in ballots.standing(table) if row.kind == kind}
    needed = [p for p in voters(table) if p != target]
    return bool(needed) and all(p in given and given[p] == target for p in needed)


def _carry_out(table: Table, kind: answers.VoteKind, target: str | None, now: datetime) -> None:
    """The vote passed: published and logged, then carried out as the game master would."""
    table.log("vote passed", kind=kind, to=target, voters=voters(table))
    passed = answers.VoteEvent(change="passed", kind=kind, to=target, power=None)
    announce.vote_changed(table, passed)
    if kind == DRAW:
        mastering.end_game(table, powers_in(table), None)
    elif kind == CONCEDE:
        mastering.end_game(table, [], target)
    elif kind == PAUSE:
        mastering.pause(table, now)
    else:
        mastering.resume(table, now)


def votes_view(table: Table) -> answers.Votes:
    """The votes as the caller may see them: its own; the others' where votes are public."""
    public = table.policy.votes == "public"
    refused = why_not_voting(table)
    own = table.member.power if table.member and table.role == PLAYER else None
    shown = [
        answers.VoteLine(power=row.power, kind=typed(answers.VoteKind, row.kind), to=row.to)
        for row in ballots.standing(table)
        if public or (own is not None and row.power == own)
    ]
    playing = table.game.status in (ACTIVE, PAUSED)
    return answers.Votes(
        secrecy=table.policy.votes,
        status=table.game.status,
        powers_in=powers_in(table) if playing else [],
        voters=voters(table) if playing else [],
        power=own if refused is None else None,
        reason=None if refused is None else refused.detail,
        votes=shown,
    )
