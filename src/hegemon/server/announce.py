"""What a game's live readers are told of its progress: each kind of event the play, the
adjudication and the game master publish (`events.publish`), with its payload. Each is
public to the game's members, as the game's page shows it (`views.game_view`): whose
orders are in (by the names `Table.order_status` gives, which never tell who sent orders
for another), who is ready, the phase, the game's status and deadline, who plays which
power. None carries an order or anything else a view hides: a reader who wants more
reads the game again through its own view. Messages are the press's to publish.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from hegemon.game import Game
from hegemon.orders import Order
from hegemon.server import answers, events
from hegemon.server.table import Table
from hegemon.store import models

ORDERS, READY, PHASE, GAME, MEMBERS = "orders", "ready", "phase", "game", "members"
VOTE = "vote"


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def orders_changed(
    table: Table, power: str, before: Sequence[Order], after: Sequence[Order]
) -> None:
    """`power`'s orders changed from `before` to `after`: for each name whose orders are
    now in, or no longer in, by the public count (`Table.order_status`),
    ``{power, phase, received}``. A change that the count does not show (an order
    replaced, a declaration) is told to nobody, not even by an event's number."""
    table.orders_changed()
    was, now = _counted(table, power, before), _counted(table, power, after)
    for name in table.variant.powers:
        if (name in was) != (name in now):
            said = answers.OrdersEvent(power=name, phase=table.game.phase, received=name in now)
            _publish(table, ORDERS, said)


def _counted(table: Table, power: str, orders: Sequence[Order]) -> tuple[str, ...]:
    """The names the public count has in by `power`'s orders alone, were they `orders`
    (`Game.order_status` with no other power's): the count of a name stands on the
    orders of one power (a player's own; an owner's that is no player, its secret
    commander's: `Variant.secret_commanders`), so a change to `power`'s orders changes
    only what this finds, and the others' orders need not be read."""
    alone = Game(table.variant, table.position, pending={power: list(orders)})
    return alone.order_status().received


def ready_changed(table: Table, power: str, ready: bool) -> None:
    """``{power, ready}``: the power said it is ready (or no longer is)."""
    _publish(table, READY, answers.ReadyEvent(power=power, ready=ready))


def phase_played(table: Table, row: models.Phase) -> None:
    """``{phase, number, next}``: phase `number` was adjudicated; the game is now at
    `next` (a reader reads the game again)."""
    _publish(
        table, PHASE, answers.PhaseEvent(phase=row.phase, number=row.number, next=table.game.phase)
    )


def game_changed(table: Table, change: answers.GameChange) -> None:
    """``{status, change, deadline}``: the game was started, paused, resumed or ended,
    or its deadline moved (extended, a grace period): its status and deadline now."""
    game = table.game
    _publish(
        table,
        GAME,
        answers.GameEvent(status=game.status, change=change, deadline=_when(game.deadline)),
    )


def members_changed(table: Table, change: answers.MembersChange, power: str | None) -> None:
    """``{change, power}``: who takes part changed (joined, observes, replaced, bots
    seated, civil disorder): a reader reads the game's members again."""
    _publish(table, MEMBERS, answers.MembersEvent(change=change, power=power))


def vote_changed(table: Table, said: answers.VoteEvent) -> None:
    """``{change, kind, to, power}``: a vote cast or withdrawn where the game's votes are
    public, or a vote that passed (a secret vote is told to nobody until it passes)."""
    _publish(table, VOTE, said)


def _publish(table: Table, kind: str, said: answers.Answer) -> None:
    events.publish(table.session, table.game.id, kind, said.model_dump())
