"""Notifications (docs/server.md, "Notifications"): what the caller asks to be told by
mail, and the webhooks of a game, which its game master adds and removes."""

from __future__ import annotations

from fastapi import APIRouter, Request

from hegemon.server import answers
from hegemon.server.deps import Caller, StoreDep
from hegemon.server.notify import preferences
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.schemas import NoticesIn, RowId, WebhookIn
from hegemon.server.table import Table, member_view

router = APIRouter(prefix="/api", tags=["notifications"], responses=answers.ALWAYS)


def _settings(request: Request) -> NotifySettings:
    found: NotifySettings = request.app.state.notify
    return found


@router.get("/me/notifications", responses=answers.refusals(401))
def notices(user: Caller, store: StoreDep, request: Request) -> answers.Notices:
    """What the caller is told by mail."""
    with store.reading() as session:
        return preferences.notices_view(session, user, _settings(request))


@router.put("/me/notifications", responses=answers.SIGNED_IN | answers.BODY)
def set_notices(
    body: NoticesIn, user: Caller, store: StoreDep, request: Request
) -> answers.Notices:
    """Set what the caller is told by mail: the address, the kinds of event, and how many
    hours before a deadline missing orders are recalled."""
    with store.writing() as session:
        preferences.save_notices(session, user, body)
    with store.reading() as session:
        return preferences.notices_view(session, user, _settings(request))


@router.get("/games/{game_id}/webhooks", responses=answers.IN_A_GAME)
def webhooks(game_id: RowId, user: Caller, store: StoreDep) -> answers.Webhooks:
    """The game's webhooks (its game master's only)."""
    with member_view(store, game_id, user) as table:
        return preferences.webhooks_view(table)


@router.post(
    "/games/{game_id}/webhooks", status_code=201, responses=answers.IN_A_GAME | answers.BODY
)
def add_webhook(
    game_id: RowId, body: WebhookIn, user: Caller, store: StoreDep, request: Request
) -> answers.Webhook:
    """Add a webhook: each public event of the game (started, a phase adjudicated, ended)
    is posted to it as JSON, signed with its secret."""
    with store.writing() as session:
        table = Table.open(session, game_id, user)
        return preferences.add_webhook(table, body.url, _settings(request))


@router.delete("/games/{game_id}/webhooks/{hook_id}", status_code=204, responses=answers.IN_A_GAME)
def remove_webhook(game_id: RowId, hook_id: RowId, user: Caller, store: StoreDep) -> None:
    """Remove a webhook: nothing more is posted to it."""
    with store.writing() as session:
        table = Table.open(session, game_id, user)
        preferences.remove_webhook(table, hook_id)
