"""The game master's actions: start, adjudicate now, extend, pause and resume, replace a
player, civil disorder, end by agreement; the audit log, the game file, the check of the
log."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import IO

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from hegemon import jsonio
from hegemon.server import adjudication, answers, bodies, mastering, play, views
from hegemon.server.deps import Caller, Now, StoreDep
from hegemon.server.schemas import (
    AdjudicateIn,
    DisorderIn,
    EndIn,
    ExtendIn,
    ImportIn,
    ReplaceIn,
    RowId,
)
from hegemon.server.table import Lock, Refusal, Table
from hegemon.store import Store, exchange
from hegemon.store.models import User

router = APIRouter(
    prefix="/api/games", tags=["game master"], responses=answers.ALWAYS | answers.IN_A_GAME
)


def _inlined(schema: dict[str, object]) -> dict[str, object]:
    """A model's JSON schema with the models it names written out where it names them
    (the import route's body is described, not declared: see `import_game`)."""
    definitions = schema.pop("$defs", {})
    assert isinstance(definitions, dict)

    def written_out(node: object) -> object:
        if isinstance(node, dict):
            if "$ref" in node:
                return written_out(definitions[node["$ref"].rsplit("/", 1)[-1]])
            return {key: written_out(value) for key, value in node.items()}
        if isinstance(node, list):
            return [written_out(value) for value in node]
        return node

    return {key: written_out(value) for key, value in schema.items()}


# Each phase of a game file is replayed, and kept, when it is imported: some 1 to 3 ms and
# 11 KiB a phase of the standard game. 2,000 phases (400 years) bound an import to seconds
# and tens of MiB, where a file of 16 MiB could hold 250,000 phases.
MAX_IMPORT_PHASES = 2000

IMPORT_BODY = {
    "required": True,
    "content": {"application/json": {"schema": _inlined(ImportIn.model_json_schema())}},
}


def _master(table: Table) -> Table:
    table.require_master()
    return table


def _act(store: Store, game_id: int, user: User, action: Callable[[Table], object]) -> answers.Game:
    """One action of the game's master, in one transaction: the game as it then stands."""
    with store.writing() as session:
        table = _master(Table.open(session, game_id, user, Lock.UPDATE))
        action(table)
        return views.game_view(table)


@router.post("/{game_id}/start")
def start(game_id: RowId, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """Start the game with the seats taken so far (a free seat's power is awaited until
    civil disorder takes it)."""
    return _act(store, game_id, user, lambda table: play.start(table, moment))


@router.post("/{game_id}/fill-with-bots")
def fill_with_bots(game_id: RowId, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """Give every free seat to a bot: a game still forming starts, as its last seat is
    taken."""
    return _act(store, game_id, user, lambda table: play.fill_with_bots(table, moment))


@router.post("/{game_id}/adjudicate", responses=answers.BODY)
def adjudicate(
    game_id: RowId, body: AdjudicateIn, user: Caller, store: StoreDep, moment: Now
) -> answers.Adjudication:
    """Adjudicate the current phase now, with the orders given so far (and the game
    master's own roll for a draw of chance, if given; else the game's seed draws)."""
    with store.writing() as session:
        table = _master(Table.open(session, game_id, user, Lock.UPDATE))
        draws = {k: tuple(v) if isinstance(v, list) else v for k, v in (body.draws or {}).items()}
        played = adjudication.adjudicate(table, moment, draws)
        return answers.Adjudication(
            adjudicated=[row.phase for row in played], phase=table.game.phase
        )


@router.post("/{game_id}/extend", responses=answers.BODY)
def extend(
    game_id: RowId, body: ExtendIn, user: Caller, store: StoreDep, moment: Now
) -> answers.Game:
    """Move the deadline on by so many seconds."""
    return _act(store, game_id, user, lambda table: mastering.extend(table, body.seconds, moment))


@router.post("/{game_id}/pause")
def pause(game_id: RowId, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """Stop the clock."""
    return _act(store, game_id, user, lambda table: mastering.pause(table, moment))


@router.post("/{game_id}/resume")
def resume(game_id: RowId, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """Start the clock again, with the time that was left."""
    return _act(store, game_id, user, lambda table: mastering.resume(table, moment))


@router.post("/{game_id}/replace", responses=answers.BODY)
def replace(game_id: RowId, body: ReplaceIn, user: Caller, store: StoreDep) -> answers.Game:
    """Give a power's seat to another user."""
    return _act(
        store, game_id, user, lambda table: mastering.replace_player(table, body.power, body.user)
    )


@router.post("/{game_id}/disorder", responses=answers.BODY)
def disorder(
    game_id: RowId, body: DisorderIn, user: Caller, store: StoreDep, moment: Now
) -> answers.Game:
    """Put a power in civil disorder (or take it out): it is no longer awaited."""
    return _act(
        store,
        game_id,
        user,
        lambda table: mastering.set_disorder(table, body.power, body.disorder, moment),
    )


@router.post("/{game_id}/end", responses=answers.BODY)
def end(game_id: RowId, body: EndIn, user: Caller, store: StoreDep) -> answers.Game:
    """End the game as its players agreed: a draw of the powers named, or a concession."""
    return _act(
        store, game_id, user, lambda table: mastering.end_game(table, body.draw, body.concede_to)
    )


@router.get("/{game_id}/audit")
def audit(game_id: RowId, user: Caller, store: StoreDep) -> list[answers.AuditEntry]:
    """Every action on the game: who, when, what."""
    with store.reading() as session:
        table = _master(Table.open(session, game_id, user))
        return views.audit_view(session, table.game)


@router.get("/{game_id}/export")
def export(game_id: RowId, user: Caller, store: StoreDep) -> answers.GameFile:
    """The game as a CLI game file (every power's pending orders included)."""
    with store.reading() as session:
        table = _master(Table.open(session, game_id, user))
        return answers.GameFile.model_validate(exchange.export_game(session, table.game))


@router.get("/{game_id}/verify")
def verify(game_id: RowId, user: Caller, store: StoreDep) -> answers.Verification:
    """Replay every stored phase from the start and compare each with its stored
    snapshot and digest."""
    with store.reading() as session:
        table = _master(Table.open(session, game_id, user))
        problems = exchange.verify(session, table.game)
        return answers.Verification(phases=table.game.played, sound=not problems, problems=problems)


@router.post(
    "/import",
    status_code=201,
    responses=answers.BODY,
    openapi_extra={"requestBody": IMPORT_BODY},
)
async def import_game(request: Request, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """A CLI game file as a new game, the caller its game master: `ImportIn`. The body is
    read only once the caller's session is known (a large body needs one), into a
    temporary file; then it is parsed, checked and replayed in a worker thread, at most
    $HEGEMON_IMPORTS at once."""
    with await bodies.spool(request.stream(), bodies.IMPORT_BODY) as body:
        async with request.app.state.imports.taken():
            answer: answers.Game = await run_in_threadpool(_import, body, user, store, moment)
            return answer


def _import(body: IO[bytes], user: User, store: Store, moment: datetime) -> answers.Game:
    """The import's work, in a worker thread: the body parsed as the CLI reads a game file
    (`jsonio.parse`: its size, its depth), checked as `ImportIn`, replayed and stored."""
    try:
        given = ImportIn.model_validate(jsonio.parse(body.read().decode(), "the request's body"))
    except (jsonio.WireError, UnicodeDecodeError) as exc:
        raise Refusal(422, str(exc)) from None
    except ValidationError as exc:
        errors = [{**error, "loc": ("body", *error["loc"])} for error in exc.errors()]
        raise RequestValidationError(errors) from None
    phases = given.game.get("phases")
    if isinstance(phases, list) and len(phases) > MAX_IMPORT_PHASES:
        raise Refusal(422, f"game.phases: {len(phases)} phases, more than the "
                           f"{MAX_IMPORT_PHASES} a game imported here may have")  # fmt: skip
    with store.writing() as session:
        try:
            game = exchange.import_game(
                session, given.game, given.title or "imported game", given.policy.policy().to_json()
            )
        except jsonio.WireError as exc:
            raise Refusal(422, f"game: {exc}") from None
        table = Table.open(session, game.id, user)
        mastering.seat_master(table, moment)
        return views.game_view(table)
