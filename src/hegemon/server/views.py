"""What a caller reads of a game, each through the judge's own views for that caller's
viewer: the position (`jsonio.position_to_json`), the board as text (`position_report`),
a phase's report and results (`phase_report`, `phase_result_to_json`), its board
(`render.draw_phase`). A power's pending orders are shown to that power and the game
master only; whose orders are in, and who is ready, is public, as the CLI's status is.
Each view is one of the API's answers (`hegemon.server.answers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.game import Variant
from hegemon.game.forms import Amount, Field, OrderForm, purses
from hegemon.orders import Order, Secrecy
from hegemon.render import draw_board, draw_phase
from hegemon.report import phase_report, position_report
from hegemon.server import answers, press
from hegemon.server.kept import Kept
from hegemon.server.policy import Policy
from hegemon.server.seating import CHOSEN
from hegemon.server.table import ACTIVE, ENDED, MASTER_ROLE, PLAYER, Refusal, Table
from hegemon.store import models
from hegemon.store.exchange import end_from_json
from hegemon.store.records import (
    parse_orders,
    phase_row,
    phase_rows,
    position_after,
    replay,
    variant_of,
)


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


# The game's members and their accounts, built once: every page of a game reads them, and
# building a statement costs more than running it.
MEMBERS = (
    select(models.User, models.Member.role, models.Member.power)
    .join(models.Member, models.Member.user_id == models.User.id)
    .where(models.Member.game_id == bindparam("game_id"))
    .order_by(models.Member.id)
)


def members(table: Table) -> list[answers.Member]:
    """Who takes part in the game, each bot marked as one; in an anonymous game, until it
    ends, the names of the others are the game master's alone to read."""
    rows = table.session.execute(MEMBERS, {"game_id": table.game.id})
    hidden = _names_hidden(table)
    caller = None if table.user is None else table.user.id
    return [
        answers.Member(
            name=None if hidden and user.id != caller and role != MASTER_ROLE else user.name,
            role=role,
            power=power,
            bot=user.bot,
        )
        for user, role, power in rows
    ]


def _names_hidden(table: Table) -> bool:
    """The members' names are hidden from this caller: an anonymous game not yet over,
    read by anyone but its game master."""
    game = table.game
    return game.anonymous and game.status != ENDED and table.role != MASTER_ROLE


def summary(game: models.Game, member: models.Member | None, seated: Seated) -> answers.GameLine:
    """A line of a list of games: what the lobby shows of it (the powers taken, the phase
    lengths, the press, the options), and the caller's part in it."""
    variant = variant_of(game)
    players = seated.players
    taken = set(players)
    free = [p for p in variant.powers if p not in taken]
    policy = Policy.from_json(game.policy)
    return answers.GameLine(
        id=game.id,
        title=game.title,
        variant=game.variant,
        status=game.status,
        phase=game.phase,
        deadline=_when(game.deadline),
        role=None if member is None else member.role,
        power=None if member is None else member.power,
        open_seats=free if game.status != ENDED and game.assignment == CHOSEN else [],
        variant_title=variant.title or variant.id,
        seats=len(variant.powers),
        seats_taken=min(len(players), len(variant.powers)),
        deadlines=dict(policy.deadlines),
        press=policy.press.mode,
        options=dict(variant.options),
        private=game.invitation is not None,
        anonymous=game.anonymous,
        assignment=_assignment(game.assignment),
        master=seated.master,
    )


@dataclass
class Seated:
    """Who sits at a game, as its line in a list shows it: its players' powers (None for
    a seat whose power is still to deal or assign), and whether it has a game master."""

    players: list[str | None] = field(default_factory=list)
    master: bool = False


def seated_at(session: Session, games: Sequence[int]) -> dict[int, Seated]:
    """Who sits at each of these games, in one query."""
    seated = {game_id: Seated() for game_id in games}
    for game_id, role, power in session.execute(
        select(models.Member.game_id, models.Member.role, models.Member.power).where(
            models.Member.game_id.in_(games), models.Member.role.in_((PLAYER, MASTER_ROLE))
        )
    ):
        if role == PLAYER:
            seated[game_id].players.append(power)
        else:
            seated[game_id].master = True
    return seated


def _assignment(kind: str) -> answers.Assignment:
    """The games table's text (`models.Game.assignment`) as the answer's type."""
    match kind:
        case "random":
            return "random"
        case "master":
            return "master"
        case _:
            return "chosen"


def game_view(table: Table) -> answers.Game:
    """The game as the caller may see it."""
    game, variant, position, viewer = table.game, table.variant, table.position, table.viewer
    pending = table.pending
    status = table.order_status
    bots = table.bot_powers  # worked out once, not for each power
    policy = table.policy
    end = None
    if game.ended:
        ended = end_from_json(game.ended)
        end = answers.End(
            termination=ended.how,
            winners=list(ended.winners),
            draw=list(ended.draw),
            agreed=ended.agreed,
            text=table.end_text(),
        )
    return answers.Game(
        id=game.id,
        title=game.title,
        variant=variant.id,
        map_name=variant.board.name,
        options=dict(variant.options),
        powers=list(variant.powers),
        status=game.status,
        phase=game.phase,
        phase_name=str(position.phase),
        played=game.played,
        deadline=_when(game.deadline),
        pause_reason=game.pause_reason,  # why the server paused it, for every member
        policy=policy,
        press=policy.press,
        version=game.version,
        you=answers.You(
            role=table.role, power=None if table.member is None else table.member.power
        ),
        members=members(table),
        position=jsonio.position_to_json(position, viewer),
        board=position_report(variant, position, viewer, over=game.status == ENDED),
        received=list(status.received),
        awaiting=[
            p for p in status.awaited if p not in pending or not pending[p].disorder or p in bots
        ],
        ready=[p for p in variant.powers if pending[p].ready],
        disorder=[p for p in variant.powers if pending[p].disorder],
        bots=[p for p in variant.powers if p in bots],
        fill_with_bots=game.fill_with_bots,
        anonymous=game.anonymous,
        assignment=_assignment(game.assignment),
        invitation=game.invitation if table.member is not None else None,
        orders={}
        if end
        else {
            p: pending_view(table, pending[p])
            for p in variant.powers
            if viewer.sees(p) and p in pending
        },
        end=end,
    )


def progress_view(table: Table) -> answers.Progress:
    """The game's status, phase, phases played, version and deadline; whose orders are in
    and who is ready (public, as in `game_view`)."""
    game = table.game
    return answers.Progress(
        status=game.status,
        phase=game.phase,
        played=game.played,
        version=game.version,
        deadline=_when(game.deadline),
        received=list(table.order_status.received),
        ready=[p for p in table.variant.powers if table.pending[p].ready],
    )


def pending_view(table: Table, row: models.Pending) -> answers.PendingOrders:
    """A power's orders for the current phase (its pending row): for that power and the
    game master."""
    power = row.power
    orders = _orders_in(table, row)
    procedure, variant, position = table.procedure, table.variant, table.position
    unordered = procedure.unordered(variant, position, power, orders)
    return answers.PendingOrders(
        power=power,
        phase=table.game.phase,
        orders=list(row.orders),
        unordered=unordered if power in table.actors else [],
        warnings=procedure.cautions(variant, position, power, orders),
        ready=row.ready,
        disorder=row.disorder,
        missed=row.missed,
        version=row.version,
    )


def withdrawal_view(table: Table, row: models.Pending, withdrawn: int) -> answers.Withdrawal:
    """A power's orders (its pending row) after some were withdrawn, and how many were."""
    return answers.Withdrawal(**dict(pending_view(table, row)), withdrawn=withdrawn)


def options_view(table: Table, power: str) -> answers.OrderForms:
    """Everything the power may order this phase, as forms to fill in (every legal order
    of its units listed), and its points left to spend: what `hegemon options` prints.
    Made from the power's own orders and what it may know, never another's."""
    table.require_playing()
    given = pending_orders(table, power)
    menu = table.offered(power)
    key = (table.variant, table.digest, power)
    lines = FORM_LINES.get(key, lambda: [_form_line(form) for form in menu])
    return answers.OrderForms(
        power=power,
        phase=table.game.phase,
        forms=[_given(line, form, given) for line, form in zip(lines, menu, strict=True)],
        purses=[
            answers.PurseLine(name=p.name, total=p.total, left=p.left(given)) for p in purses(menu)
        ],
    )


# The forms' lines of the menus read last, as `MENUS` keeps the menus: a page lists every
# legal order of every unit, thousands in some phases, each a line.
FORM_LINES: Kept[tuple[Variant, str, str], list[answers.OrderFormLine]] = Kept(64)


def _given(
    line: answers.OrderFormLine, form: OrderForm, given: list[Order]
) -> answers.OrderFormLine:
    """The form's line with the order given on it, if one is."""
    order = next((o.format() for o in given if form.gave(o)), None)
    return line if order is None else line.model_copy(update={"given": order})


def pending_orders(table: Table, power: str) -> list[Order]:
    """The power's orders stored for this phase, as orders."""
    return _orders_in(table, table.pending[power])


def _orders_in(table: Table, row: models.Pending) -> list[Order]:
    """The orders stored in a power's pending row, as orders."""
    return parse_orders(table.variant, table.position, {row.power: row.orders}).get(row.power, [])


def _form_line(form: OrderForm) -> answers.OrderFormLine:
    return answers.OrderFormLine(
        given=None,
        id=form.id,
        title=form.title,
        unit=form.unit,
        sites=list(form.sites),
        # Made from the menu's own typed values: not validated again, thousands a page.
        choices=[
            answers.ListedOrder.model_construct(text=c.text, kind=c.kind, clicks=list(c.clicks))
            for c in form.choices
        ],
        ranking=form.ranking,
        most=form.most,
        fields=[_field_line(f) for f in form.fields],
        action=form.action,
        spends=form.spends.name if form.spends else None,
        fill=form.make is not None,
    )


def _field_line(field: Field) -> answers.FormField:
    if isinstance(field, Amount):
        return answers.FormField(
            name=field.name, label=field.label, type="amount", least=field.least, most=field.most
        )
    return answers.FormField(
        name=field.name, label=field.label, type="one of", values=list(field.values)
    )


def phases_view(table: Table) -> list[answers.PhaseLine]:
    return [
        answers.PhaseLine(
            number=row.number,
            phase=row.phase,
            name=str(jsonio.phase_from_json(row.phase, table.variant)),
            adjudicated=_when(row.adjudicated),
        )
        for row in phase_rows(table.session, table.game)
    ]


def _phase(table: Table, number: int) -> models.Phase:
    row = phase_row(table.session, table.game, number)
    if row is None:
        raise Refusal(
            404, f"game {table.game.id} has no phase {number} (played: {table.game.played})"
        )
    return row


def phase_view(table: Table, number: int) -> answers.PhaseReport:
    """A phase's report and results as the caller may read them, rebuilt by playing that
    one phase again from the snapshot before it."""
    row = _phase(table, number)
    result = replay(table.session, table.game, row)
    return answers.PhaseReport(
        number=number,
        phase=row.phase,
        report=phase_report(table.variant, result, table.viewer),
        result=answers.PhaseResultAnswer.model_validate(
            jsonio.phase_result_to_json(result, table.viewer)
        ),
    )


def board_svg(table: Table, number: int | None, orders: bool) -> str:
    """The board as the caller sees it: now, or as phase `number` began (with its orders
    and results if asked)."""
    if number is None:
        return draw_board(table.variant, table.position, table.viewer)
    row = _phase(table, number)
    if orders:
        return draw_phase(table.variant, replay(table.session, table.game, row), table.viewer)
    before = position_after(table.session, table.game, number - 1)
    return draw_board(table.variant, before, table.viewer)


def tally_view(table: Table) -> list[answers.PowerTally]:
    """Each power's centres and units now, as the board's legend counts them (the marks
    the variant draws for the caller), for the line beside the board."""
    position, variant = table.position, table.variant
    counts = variant.board_marks(position, table.viewer).centers
    centres = position.center_counts if counts is None else counts
    units: dict[str, int] = {}
    for unit in (*position.units.values(), *position.offboard):
        for one in (unit, *unit.cargo):
            units[one.power] = units.get(one.power, 0) + 1
    return [
        answers.PowerTally(
            power=name, colour=power.color, centres=centres.get(name, 0), units=units.get(name, 0)
        )
        for name, power in variant.powers.items()
    ]


def ordering_board_svg(table: Table, power: str) -> str:
    """The board now with `power`'s orders given so far drawn on it, before adjudication:
    for its own player or the game master alone (`Table.acting_power` has said the caller
    gives `power`'s orders), never another player."""
    return draw_board(table.variant, table.position, table.viewer, given_orders(table, power))


def given_orders(table: Table, power: str) -> list[tuple[str, Order]]:
    """`power`'s orders given so far, as the board draws them (`draw_board`'s pending):
    for its own player or the game master alone, as `ordering_board_svg`."""
    return [(power, order) for order in pending_orders(table, power)]


def reveal_view(table: Table) -> list[answers.Revealed]:
    """Every order kept secret while the game lasted, phase by phase (`hegemon reveal`)."""
    if table.game.status != ENDED:
        raise Refusal(409, "secret orders stay secret until the game is over")
    revealed = []
    for row in phase_rows(table.session, table.game):
        before = position_after(table.session, table.game, row.number - 1)
        given = parse_orders(table.variant, before, row.orders)
        secret = {
            power: [o.format() for o in orders if o.secrecy is Secrecy.UNTIL_END]
            for power, orders in given.items()
        }
        secret = {power: texts for power, texts in secret.items() if texts}
        if secret:
            revealed.append(answers.Revealed(number=row.number, phase=row.phase, orders=secret))
    return revealed


def audit_view(session: Session, game: models.Game) -> list[answers.AuditEntry]:
    rows = session.execute(
        select(models.Audit, models.User.name)
        .outerjoin(models.User, models.User.id == models.Audit.user_id)
        .where(models.Audit.game_id == game.id)
        .order_by(models.Audit.id)
    )
    return [
        answers.AuditEntry(
            at=entry.at.isoformat(), user=name, action=entry.action, detail=entry.detail
        )
        for entry, name in rows
    ]


def games_list(session: Session, user: models.User, which: str) -> list[answers.GameLine]:
    """The caller's games (`mine`), or the games with a free seat (`open`: the lobby,
    where a private game is listed to its members alone)."""
    mine = {
        m.game_id: m
        for m in session.scalars(select(models.Member).where(models.Member.user_id == user.id))
    }
    query = select(models.Game).order_by(models.Game.id.desc()).limit(200)
    if which == "mine":
        query = query.where(models.Game.id.in_(mine))
    else:
        query = query.where(
            models.Game.status != ENDED,
            or_(models.Game.invitation.is_(None), models.Game.id.in_(mine)),
        )
    games = list(session.scalars(query))
    seated = seated_at(session, [g.id for g in games])
    listed = [summary(g, mine.get(g.id), seated[g.id]) for g in games]
    if which == "open":
        return [g for g in listed if g.seats_taken < g.seats]
    for game, line in zip(games, listed, strict=True):
        table = Table(session, game, user, mine[game.id])
        line.owes_orders = _owes_orders(table)
        line.unread = press.unread(table)
    return listed


def invited(session: Session, user: models.User, code: str) -> answers.GameLine:
    """The game an invitation code opens, as the lobby lists it."""
    game = session.scalar(select(models.Game).where(models.Game.invitation == code))
    if game is None:
        raise Refusal(404, "code: no game has this invitation code")
    member = session.scalar(
        select(models.Member).where(
            models.Member.game_id == game.id, models.Member.user_id == user.id
        )
    )
    return summary(game, member, seated_at(session, [game.id])[game.id])


def _owes_orders(table: Table) -> bool:
    """Whether the caller's power is awaited this phase and has sent no orders yet: only
    in a game under way (a forming game's first phase is not due, nor a paused one's)."""
    member = table.member
    if member is None or member.power is None or table.game.status != ACTIVE:
        return False
    return member.power in table.order_status.awaited and member.power in table.awaited
