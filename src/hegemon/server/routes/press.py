"""Press: messages sent and read, conversations and their unread counts, read marks, the
whole press as the caller reads it, and the game master's mute (docs/server.md, "Press").
Every answer is made by `hegemon.server.press` through the caller's own view."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response
from pydantic import TypeAdapter

from hegemon.server import answers, press
from hegemon.server.deps import Caller, Now, StoreDep
from hegemon.server.limits import limiter
from hegemon.server.schemas import Channel, MessageIn, MuteIn, ReadIn, RowId
from hegemon.server.table import Lock, Table, member_view

router = APIRouter(
    prefix="/api/games", tags=["press"], responses=answers.ALWAYS | answers.IN_A_GAME
)

MessageId = Annotated[int, Query(ge=0, le=2**31 - 1)]
NOT_MODIFIED: answers.Responses = {
    304: {"description": "what If-None-Match names is still what the caller would read"}
}
_ETAG: dict[str, Any] = {
    "ETag": {"description": "names this answer, for If-None-Match", "schema": {"type": "string"}}
}
TAGGED: answers.Responses = {200: {"headers": _ETAG}, **NOT_MODIFIED}
IfNoneMatch = Annotated[str | None, Header(max_length=2000)]


def _tagged(listed: list[Any], adapter: TypeAdapter[Any], if_none_match: str | None) -> Response:
    """The answer as JSON with an ETag (a digest of the very bytes, so that two readers
    who read differently never share one), or 304 if the caller already has it."""
    body = adapter.dump_json(listed)
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    given = {tag.strip().removeprefix("W/") for tag in (if_none_match or "").split(",")}
    if etag in given or "*" in given:
        return Response(status_code=304, headers={"ETag": etag})
    return Response(body, media_type="application/json", headers={"ETag": etag})


_MESSAGES = TypeAdapter(list[answers.Message])
_CONVERSATIONS = TypeAdapter(list[answers.Conversation])


@router.post(
    "/{game_id}/messages",
    status_code=201,
    responses=answers.BODY | answers.refusals(409),
)
def send(
    game_id: RowId, body: MessageIn, request: Request, user: Caller, store: StoreDep, moment: Now
) -> answers.Message:
    """Send a message: to powers and/or the game master, or to nobody for public press
    (grey if the game allows it); signed as a `voice` the variant lets the caller use.
    A refusal names the rule of the game's press policy that refuses it."""
    limiter(request).sending(request, user.id)
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.SHARE)
        draft = press.Draft(body.to, body.text, body.grey, body.voice)
        return press.render(table.viewer, press.send(table, draft, moment))


@router.get("/{game_id}/messages", response_model=list[answers.Message], responses=TAGGED)
def messages(
    game_id: RowId,
    user: Caller,
    store: StoreDep,
    channel: Annotated[Channel, Query(description="'public', or a conversation's channel")] = (
        press.PUBLIC
    ),
    after: Annotated[MessageId | None, Query(description="the messages after this id")] = None,
    before: Annotated[MessageId | None, Query(description="the messages before this id")] = None,
    limit: Annotated[int, Query(ge=1, le=press.MOST_LISTED)] = 50,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """A channel's messages the caller reads, oldest first: the first `limit` after
    `after`; else the latest `limit` (before `before`, for older pages)."""
    with member_view(store, game_id, user) as table:
        listed = press.messages(table, channel, after, before, limit)
    return _tagged(listed, _MESSAGES, if_none_match)


@router.get("/{game_id}/conversations", response_model=list[answers.Conversation], responses=TAGGED)
def conversations(
    game_id: RowId, user: Caller, store: StoreDep, if_none_match: IfNoneMatch = None
) -> Response:
    """The caller's conversations, the public channel first and always, each with its
    last message's id and the messages from others the caller has not marked read."""
    with member_view(store, game_id, user) as table:
        listed = press.conversations(table)
    return _tagged(listed, _CONVERSATIONS, if_none_match)


@router.post("/{game_id}/conversations/read", status_code=204, responses=answers.BODY)
def read(game_id: RowId, body: ReadIn, user: Caller, store: StoreDep) -> None:
    """The caller has read a channel up to message `up_to`."""
    with store.writing() as session:
        table = Table.open(session, game_id, user)
        table.require_member()
        press.mark_read(table, body.channel, body.up_to)


@router.get("/{game_id}/press")
def whole_press(game_id: RowId, user: Caller, store: StoreDep) -> answers.PressExport:
    """Every message of the game the caller reads, as it reads them: the caller's export
    of the press."""
    with member_view(store, game_id, user) as table:
        return press.export(table.session, press.Reader.of(table))


@router.post("/{game_id}/mute", responses=answers.BODY)
def mute(game_id: RowId, body: MuteIn, user: Caller, store: StoreDep) -> answers.Muted:
    """The game master mutes a power's player in this game (or lets it speak again)."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.SHARE)
        return press.mute(table, body.power, body.muted)
