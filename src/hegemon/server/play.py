"""Seats and orders: a game created, seats taken and observed, the game started; orders
given and withdrawn, readiness.

Orders are read by the variant's reader and checked by `hegemon.game.order_problems` (on
what that power may know) exactly as the CLI checks them, each later order replacing an
earlier one for the same slot (`Game.with_orders`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.game import Game, Variant, order_problems
from hegemon.game.forms import FormError, chosen
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order
from hegemon.position import MASTER
from hegemon.server import announce, seating
from hegemon.server.adjudication import adjudicate_if_all_ready, deadline_of
from hegemon.server.answers import Assignment
from hegemon.server.auth import bot_account
from hegemon.server.policy import Policy
from hegemon.server.schemas import FilledForm
from hegemon.server.table import (
    ACTIVE,
    ENDED,
    FORMING,
    MASTER_ROLE,
    OBSERVER_ROLE,
    PLAYER,
    Refusal,
    Table,
)
from hegemon.store import models
from hegemon.store.records import audit, configured, parse_orders, store_orders


@dataclass(frozen=True)
class Lobby:
    """How a new game meets its players: private (an invitation code), anonymous, how its
    seats are given (`seating`), and the power its creator plays, if any (then the game
    has no game master: `seating.ANY_POWER` for a seat whose power is dealt)."""

    private: bool = False
    anonymous: bool = False
    assignment: Assignment = "chosen"
    play_as: str | None = None


def create_game(
    session: Session,
    user: models.User,
    title: str,
    variant_name: str,
    options: Mapping[str, object] | None,
    seats: Sequence[str] | None,
    seed: int | None,
    policy: Policy,
    fill: bool = False,
    lobby: Lobby = Lobby(),
) -> models.Game:
    """A new game, forming, its creator its game master or the player of `lobby.play_as`
    (its free seats given to bots when it starts, if `fill`); untitled, it is named for
    its variant as players know it."""
    try:
        variant = configured(variant_name, options, seats)
    except jsonio.WireError as exc:
        raise Refusal(422, str(exc)) from None
    creator_seat = _creator_seat(variant, lobby)
    start = variant.initial_position()
    game = models.Game(
        title=title or f"{variant.title or variant.id} game",
        variant=variant.id,
        options=dict(options or {}),
        seats=None if variant.seated is None else list(variant.seated),
        seed=secrets.randbits(32) if seed is None else seed,
        status=FORMING,
        policy=policy.to_json(),
        fill_with_bots=fill,
        start=jsonio.position_to_json(start, MASTER),
        played=0,
        phase=start.phase.code,
        creator_id=user.id,
        invitation=seating.invitation_code() if lobby.private else None,
        anonymous=lobby.anonymous,
        assignment=lobby.assignment,
    )
    session.add(game)
    session.flush()
    if lobby.play_as is None:
        session.add(models.Member(game_id=game.id, user_id=user.id, role=MASTER_ROLE))
    else:
        session.add(
            models.Member(game_id=game.id, user_id=user.id, role=PLAYER, power=creator_seat)
        )
    for power in variant.powers:
        session.add(models.Pending(game_id=game.id, power=power, orders=[]))
    audit(
        session,
        game,
        user,
        "created",
        {
            "variant": variant.id,
            "options": game.options,
            "seats": game.seats,
            "policy": game.policy,
            "fill_with_bots": fill,
            "private": lobby.private,
            "anonymous": lobby.anonymous,
            "assignment": lobby.assignment,
            "play_as": lobby.play_as,
        },
    )
    session.flush()
    return game


def _creator_seat(variant: Variant, lobby: Lobby) -> str | None:
    """The power the creator plays (none yet where powers are dealt), checked against how
    the game's seats are given."""
    if lobby.play_as is None:
        return None
    if lobby.assignment == seating.BY_MASTER:
        raise Refusal(
            422, "play_as: a game whose game master assigns the powers has its creator as master"
        )
    if lobby.assignment == seating.RANDOM:
        if lobby.play_as != seating.ANY_POWER:
            raise Refusal(
                422, f"play_as: powers are dealt at random in this game: {seating.ANY_POWER!r}"
            )
        return None
    power = variant.power_named(lobby.play_as)
    if power is None:
        powers = ", ".join(variant.powers)
        raise Refusal(422, f"play_as: unknown power {lobby.play_as!r} (powers: {powers})")
    return power


def join(table: Table, spelling: str | None, now: datetime, code: str | None = None) -> None:
    """Take a seat: the free power named, or one to be dealt or assigned; a private game
    asks for its invitation code. The game starts once every seat has its power."""
    seating.admit(table, code)
    assert table.user is not None
    if table.member is not None and table.member.role != OBSERVER_ROLE:
        held = table.member.power or (
            "a seat" if table.member.role == PLAYER else "the game master's seat"
        )
        raise Refusal(409, f"you hold {held} in this game already")
    power = seating.seat_to_take(table, spelling)
    if table.member is None:
        table.member = models.Member(game_id=table.game.id, user_id=table.user.id)
        table.session.add(table.member)
    table.member.role, table.member.power = PLAYER, power
    table.session.flush()
    table.log("joined", power=power)
    announce.members_changed(table, "joined", power)
    if table.game.assignment == seating.RANDOM and (
        table.game.status != FORMING or seating.full(table)
    ):
        seating.deal(table)  # once full; a seat still free in a game under way, at once
    start_if_seated(table, now)


def assign(table: Table, name: str, spelling: str, now: datetime) -> None:
    """The game master gives a player who joined a power; the game starts once every
    seat has its power."""
    member = seating.assign(table, name, spelling)
    announce.members_changed(table, "assigned", member.power)
    start_if_seated(table, now)


def start_if_seated(table: Table, now: datetime) -> None:
    if table.game.status == FORMING and not seating.free_seats(table):
        start(table, now)


def _free_seat(table: Table, spelling: str) -> str:
    """The power named, whose seat nobody holds."""
    if table.game.status == ENDED:
        raise Refusal(409, "the game is over")
    power = table.power_named(spelling)
    if power not in seating.free_seats(table):
        raise Refusal(409, f"{power} is taken")
    return power


def seat_bots(table: Table, spellings: Sequence[str], now: datetime) -> list[str]:
    """Give the free seats named to bots, each played through its power's bot account
    (`auth.bot_account`); the game starts when the last seat is taken, as when a player
    joins. The powers seated. Refused, and nothing seated, if any is not a free seat."""
    powers: list[str] = []
    for spelling in spellings:
        try:
            power = _free_seat(table, spelling)
        except Refusal as exc:
            raise Refusal(exc.status, f"bots: {exc.detail}") from None
        if power in powers:
            raise Refusal(422, f"bots: {power} is named twice")
        powers.append(power)
    _seat(table, powers)
    start_if_seated(table, now)
    return powers


def fill_with_bots(table: Table, now: datetime) -> list[str]:
    """Give every free seat to a bot (the game master's "Fill the empty seats with
    bots"): the powers seated."""
    free = seating.free_seats(table)
    if not free:
        raise Refusal(409, "every seat is taken already")
    return seat_bots(table, free, now)


def _seat(table: Table, powers: Sequence[str]) -> None:
    for power in powers:
        bot = bot_account(table.session, power)
        table.session.add(
            models.Member(game_id=table.game.id, user_id=bot.id, role=PLAYER, power=power)
        )
        pending = table.pending[power]  # a bot plays it from now on, whatever it missed
        pending.disorder, pending.missed = False, 0
    table.session.flush()
    table.seats_changed()
    if powers:
        table.log("bots seated", powers=list(powers))
    for power in powers:
        announce.members_changed(table, "bot seated", power)


def observe(table: Table) -> None:
    if table.member is not None:
        raise Refusal(409, f"you are this game's {table.member.power or table.member.role}")
    assert table.user is not None
    table.member = models.Member(game_id=table.game.id, user_id=table.user.id, role=OBSERVER_ROLE)
    table.session.add(table.member)
    table.log("observes")
    announce.members_changed(table, "observes", None)


def start(table: Table, now: datetime) -> None:
    """The game begins, its free seats given to bots if its creator asked for that: the
    first deadline runs (a phase nobody acts in, such as a draw of lots, is due at once,
    for the deadline worker to play)."""
    if table.game.status != FORMING:
        raise Refusal(409, f"the game has started already ({table.game.status})")
    waiting = seating.unassigned(table)
    if waiting and table.game.assignment == seating.BY_MASTER:
        raise Refusal(409, f"assign a power to each player first ({len(waiting)} waiting)")
    seating.deal(table)
    if table.game.fill_with_bots:
        _seat(table, seating.free_seats(table))
    table.game.status = ACTIVE
    table.game.deadline = deadline_of(table, now)
    table.log("started", phase=table.game.phase)
    announce.game_changed(table, "started")


def submit(
    table: Table,
    power: str,
    texts: Sequence[str],
    replace: bool = False,
    phase: str | None = None,
    version: int | None = None,
) -> models.Pending:
    """Store a power's orders: each replaces its earlier order for the same slot (all of
    them with `replace`). Every unreadable or illegal order is refused with its reason,
    and then nothing is stored."""
    table.require_playing()
    row = _expected(table, power, phase, version)
    current = _stored(table, row)
    orders, problems = _read(table, texts)
    if not problems:
        merged = orders if replace else _with_orders(table, power, current, orders)
        problems = order_problems(table.variant, table.position, power, merged)
    if problems:
        # Counted as reasons: one order may have two, and a rule may refuse the whole set.
        reasons = "1 reason" if len(problems) == 1 else f"{len(problems)} reasons"
        raise Refusal(422, f"nothing stored: orders refused for {reasons}", problems)
    store_orders(table.session, row, [o.format() for o in merged])
    if row.disorder and not _by_bot(table):  # its player is back (a bot stops playing it)
        row.disorder, row.missed, row.ready = False, 0, False
        announce.members_changed(table, "out of civil disorder", power)
    table.log("orders", power=power, given=list(texts), replace=replace)
    table.session.flush()
    announce.orders_changed(table, power, current, merged)
    return row


def _by_bot(table: Table) -> bool:
    return table.user is not None and table.user.bot


def withdraw(
    table: Table, power: str, text: str | None = None, phase: str | None = None
) -> tuple[models.Pending, int]:
    """Withdraw all the power's orders, or its order for the slot `text` names (a unit
    named as orders name it, or an order for that slot); how many were withdrawn."""
    table.require_playing()
    row = _expected(table, power, phase, None)
    current = _stored(table, row)
    if text is None:
        kept: list[Order] = []
    else:
        named, problems = _read(table, [text])
        if problems:
            raise Refusal(422, problems[0], problems)
        slot = named[0].slot() or named[0]
        kept = [o for o in current if (o.slot() or o) != slot]
    withdrawn = len(current) - len(kept)
    store_orders(table.session, row, [o.format() for o in kept])
    table.log("withdrew", power=power, order=text, withdrawn=withdrawn)
    table.session.flush()
    announce.orders_changed(table, power, current, kept)
    return row, withdrawn


def _expected(table: Table, power: str, phase: str | None, version: int | None) -> models.Pending:
    """The power's pending row, if the caller's idea of the game is still true."""
    if phase is not None and phase.upper() != table.game.phase:
        raise Refusal(409, f"the game is at {table.game.phase} now, not {phase}")
    row = table.lock_pending(power)
    if version is not None and version != row.version:
        raise Refusal(
            409, f"{power}'s orders changed meanwhile (version {row.version}, not {version})"
        )
    return row


def filled_orders(table: Table, power: str, filled: Sequence[FilledForm]) -> list[str]:
    """The orders the forms filled in give, as the judge writes them; a Refusal lists
    each form that does not fit the power's menu, with why."""
    if not filled:
        return []
    menu = table.offered(power)
    texts: list[str] = []
    problems: list[str] = []
    for form in filled:
        try:
            texts.append(chosen(menu, form.form).fill(form.picks, form.values).format())
        except FormError as exc:
            problems.append(str(exc))
    if problems:
        raise Refusal(422, f"nothing stored: {len(problems)} form(s) refused", problems)
    return texts


def _read(table: Table, texts: Sequence[str]) -> tuple[list[Order], list[str]]:
    """The orders as the variant reads them, and every text it cannot read, with why."""
    units = table.position.all_units
    orders: list[Order] = []
    problems: list[str] = []
    for text in texts:
        try:
            orders.append(table.variant.parse_order(text, units))
        except OrderSyntaxError as exc:
            problems.append(str(exc))
    return orders, problems


def _stored(table: Table, row: models.Pending) -> list[Order]:
    return parse_orders(table.variant, table.position, {row.power: row.orders}).get(row.power, [])


def _with_orders(
    table: Table, power: str, current: list[Order], orders: list[Order]
) -> list[Order]:
    """The core's rule: each new order replaces the earlier one for its slot."""
    return Game(table.variant, table.position, pending={power: current}).with_orders(power, orders)


def set_ready(table: Table, power: str, ready: bool, now: datetime) -> list[models.Phase]:
    """Mark a power ready (or not); when every power awaited is ready and the game
    adjudicates early, the phase is adjudicated at once. The phases played, if any."""
    table.require_playing()
    if table.pending[power].ready != ready:
        announce.ready_changed(table, power, ready)
    table.pending[power].ready = ready
    table.log("ready" if ready else "not ready", power=power)
    return adjudicate_if_all_ready(table, now)
