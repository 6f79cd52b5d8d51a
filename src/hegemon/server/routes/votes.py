"""Players' votes: a draw, a concession, a pause, a resume (docs/server.md, "Votes").
Every answer is the caller's own view of the votes (`hegemon.server.votes`)."""

from __future__ import annotations

from fastapi import APIRouter

from hegemon.server import answers, votes
from hegemon.server.deps import Caller, Now, StoreDep
from hegemon.server.schemas import RowId, VoteIn
from hegemon.server.table import Lock, Table, member_view

router = APIRouter(
    prefix="/api/games", tags=["votes"], responses=answers.ALWAYS | answers.IN_A_GAME
)


@router.get("/{game_id}/votes")
def standing(game_id: RowId, user: Caller, store: StoreDep) -> answers.Votes:
    """Who votes, the caller's own standing votes, and the others' where the game's votes
    are public (a secret vote is seen by its voter alone until it passes)."""
    with member_view(store, game_id, user) as table:
        return votes.votes_view(table)


@router.post("/{game_id}/votes", responses=answers.BODY)
def vote(game_id: RowId, body: VoteIn, user: Caller, store: StoreDep, moment: Now) -> answers.Votes:
    """Cast a vote (`vote`: true) or withdraw it (false): a draw, a concession `to` a
    power, a pause or a resume. The vote that makes it unanimous carries it out: the game
    ends, or is paused or resumed, as by its game master."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.UPDATE)
        return votes.vote(table, body.kind, body.to, body.vote, moment)
