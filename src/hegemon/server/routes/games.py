"""Games: create, list (the lobby), join (a private game by its invitation code), observe,
read; the game master's assignment of powers; the legal orders of a power; orders given,
withdrawn, readiness."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool

from hegemon.server import answers, play, seating, views
from hegemon.server.deps import Caller, Now, StoreDep
from hegemon.server.schemas import (
    AssignIn,
    InvitationCode,
    NewGame,
    OrdersIn,
    PowerName,
    ReadyIn,
    RowId,
    Seat,
)
from hegemon.server.table import Lock, Table, member_view
from hegemon.store import Store, models
from hegemon.variants import available_variants, load_variant

router = APIRouter(prefix="/api", tags=["games"], responses=answers.ALWAYS)

PowerQuery = Annotated[PowerName | None, Query(description="the game master names the power")]
InvitationQuery = Annotated[
    str | None, Query(max_length=32, description="a private game's invitation code")
]


@router.get("/variants")
def variants() -> list[answers.Variant]:
    """The variants a game may be played with: powers, seats and options."""
    listed = []
    for name in available_variants():
        variant = load_variant(name)
        listed.append(
            answers.Variant(
                id=name,
                title=variant.title,
                summary=variant.summary,
                map_name=variant.board.name,
                powers=list(variant.powers),
                seats=list(variant.seats) if variant.seats[1] else None,
                options={o.name: o.describe() for o in variant.declared.values()},
            )
        )
    return listed


@router.post(
    "/games", status_code=201, responses=answers.SIGNED_IN | answers.BODY | answers.refusals(409)
)
def create(body: NewGame, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """A new game, its creator its game master (or the player of `play_as`, and then it
    has none), the seats of the powers named in `bots` given to bots; public or private
    (an invitation code), its players anonymous or not, its powers chosen, dealt at random
    or assigned by the game master. It starts when every seat has its power (or when its
    game master starts it, the seats still free then given to bots if `fill_with_bots`)."""
    with store.writing() as session:
        game = play.create_game(
            session,
            user,
            body.title,
            body.variant,
            body.options,
            body.seats,
            body.seed,
            body.policy.policy(),
            body.fill_with_bots,
            play.Lobby(body.private, body.anonymous, body.assignment, body.play_as),
        )
        table = Table.open(session, game.id, user)
        play.seat_bots(table, body.bots, moment)
        return views.game_view(table)


@router.get("/games", responses=answers.refusals(401, 422))
def games(
    user: Caller, store: StoreDep, which: Literal["mine", "open"] = "mine"
) -> list[answers.GameLine]:
    """The caller's games, or those with a free seat."""
    with store.reading() as session:
        return views.games_list(session, user, which)


@router.get("/games/{game_id}", responses=answers.IN_A_GAME)
def game(game_id: RowId, user: Caller, store: StoreDep) -> answers.Game:
    """The game as the caller may see it: the position through the caller's view, whose
    orders are in and awaited, the caller's own pending orders (all of them for the game
    master), the deadline."""
    with member_view(store, game_id, user) as table:
        return views.game_view(table)


@router.get("/games/{game_id}/progress", responses=answers.IN_A_GAME)
def progress(game_id: RowId, user: Caller, store: StoreDep) -> answers.Progress:
    """Where the game stands, in a few words: what a web page asks every few seconds, to
    read the game again once it has moved on."""
    with member_view(store, game_id, user) as table:
        return views.progress_view(table)


@router.get("/invitations/{code}", responses=answers.refusals(401, 404, 422))
def invitation(code: InvitationCode, user: Caller, store: StoreDep) -> answers.GameLine:
    """The private game this invitation code opens, as the lobby lists a game."""
    with store.reading() as session:
        return views.invited(session, user, code)


@router.post("/games/{game_id}/join", responses=answers.IN_A_GAME | answers.BODY)
def join(game_id: RowId, body: Seat, user: Caller, store: StoreDep, moment: Now) -> answers.Game:
    """Take a seat: the free power named where players choose theirs, else a seat whose
    power is dealt when the game fills or assigned by the game master; a private game
    asks for its invitation `code`."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.UPDATE)
        play.join(table, body.power, moment, body.code)
        return views.game_view(table)


@router.post("/games/{game_id}/assign", responses=answers.IN_A_GAME | answers.BODY)
def assign(
    game_id: RowId, body: AssignIn, user: Caller, store: StoreDep, moment: Now
) -> answers.Game:
    """The game master gives a player who joined a power (where the game master assigns
    them); the game starts once every seat has its power."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.UPDATE)
        play.assign(table, body.user, body.power, moment)
        return views.game_view(table)


@router.post("/games/{game_id}/observe", responses=answers.IN_A_GAME)
def observe(
    game_id: RowId, user: Caller, store: StoreDep, code: InvitationQuery = None
) -> answers.Game:
    """Follow the game as an observer: what is public (a private game's by its `code`)."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.SHARE)
        seating.admit(table, code)
        play.observe(table)
        return views.game_view(table)


@router.get("/games/{game_id}/options", responses=answers.IN_A_GAME)
def options(
    game_id: RowId, user: Caller, store: StoreDep, power: PowerQuery = None
) -> answers.OrderForms:
    """The power's order forms this phase, every legal order of its units listed, and the
    points it has left to spend (what `hegemon options` lists)."""
    with store.reading() as session:
        table = Table.open(session, game_id, user)
        return views.options_view(table, table.acting_power(power))


@router.post("/games/{game_id}/orders", responses=answers.IN_A_GAME | answers.BODY)
async def submit(
    game_id: RowId, body: OrdersIn, user: Caller, store: StoreDep
) -> answers.PendingOrders:
    """Give orders, as text or as order forms filled in (`options`): each replaces the
    power's earlier order for the same unit (or slot), or all of them with `replace`. Every
    order is checked at once; if any is refused, each refusal is listed with its reason
    and nothing is stored."""
    # In a worker thread, as a route that is not async runs, but with its answer checked
    # here: FastAPI checks a plain route's answer in a second worker thread, and a hop to
    # one costs more than the check (some 4% of an order given, the players' most
    # frequent request).
    return await run_in_threadpool(_submit, game_id, body, user, store)


def _submit(game_id: int, body: OrdersIn, user: models.User, store: Store) -> answers.PendingOrders:
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.SHARE)
        power = table.acting_power(body.power)
        texts = [*body.orders, *play.filled_orders(table, power, body.forms)]
        row = play.submit(table, power, texts, body.replace, body.phase, body.version)
        return views.pending_view(table, row)


@router.delete("/games/{game_id}/orders", responses=answers.IN_A_GAME)
def withdraw(
    game_id: RowId,
    user: Caller,
    store: StoreDep,
    power: PowerQuery = None,
    order: Annotated[
        str | None, Query(max_length=300, description="withdraw only the order for this slot")
    ] = None,
    phase: Annotated[str | None, Query(max_length=12)] = None,
) -> answers.Withdrawal:
    """Withdraw the power's orders: all, or the one for the unit (or slot) `order` names."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.SHARE)
        acting = table.acting_power(power)
        row, withdrawn = play.withdraw(table, acting, order, phase)
        return views.withdrawal_view(table, row, withdrawn)


@router.post("/games/{game_id}/ready", responses=answers.IN_A_GAME | answers.BODY)
def ready(
    game_id: RowId, body: ReadyIn, user: Caller, store: StoreDep, moment: Now
) -> answers.Readiness:
    """Mark the power ready (or not): once every power awaited is, the phase is
    adjudicated at once if the game's policy says so."""
    with store.writing() as session:
        table = Table.open(session, game_id, user, Lock.UPDATE)
        power = table.acting_power(body.power)
        played = play.set_ready(table, power, body.ready, moment)
        return answers.Readiness(
            power=power,
            ready=body.ready and not played,
            adjudicated=[row.phase for row in played],
            phase=table.game.phase,
        )


# The routes players ask for most: a game read, its progress asked every few seconds by
# its page, an order given. The app's router tries them first (`app._hot_routes`).
HOT = (game, progress, submit)
