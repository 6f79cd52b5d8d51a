"""The step before an Africa II phase is resolved (`AfricaII.prepare`): the random event,
the declarations, the paratroops dropped, the landings void, the guerillas mustered, then
the orders under the states they are for.

Apart from the variant, so that the compiled core holds it: every phase runs through it,
and written in Python its steps cost as much as the compiled ones they call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hegemon.game.chance import Draw
from hegemon.game.machine import latest_per_slot
from hegemon.game.phases import Calendar
from hegemon.game.variant import Preparation
from hegemon.orders import Order
from hegemon.position import PhaseKind, Position
from hegemon.variants.africa_ii import declarations, guerillas, landings
from hegemon.variants.africa_ii.events import RANDOM_EVENT, happen
from hegemon.variants.africa_ii.given import Given
from hegemon.variants.africa_ii.influence import INFLUENCE
from hegemon.variants.africa_ii.ledger import Ledger

if TYPE_CHECKING:
    from hegemon.variants.africa_ii import AfricaII


def prepare(
    variant: AfricaII,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    draws: Mapping[str, Draw],
) -> Preparation:
    """The random event, the declarations, then the orders under the states they are
    for; what happened is told to everyone."""
    book = variant.book
    ledger = Ledger.of(position)
    # A ledger's fields are many: replaced only where a field changes.
    if ledger.adjusted or ledger.reviewed or ledger.news:
        ledger = ledger.replace(adjusted=0, reviewed=0, news=())
    if ledger.event and year_begins(variant.calendar, position):
        ledger = ledger.replace(event=0)  # last year's is over, rolled again or not
    position = position.evolve(state=ledger)
    public: list[str] = []
    roll = draws.get(RANDOM_EVENT)
    if isinstance(roll, int):
        event = book.events[roll]
        position, public = happen(event, variant.board, book.territory(ledger), position)
    position, declared = declarations.declare(book, position, orders)
    public += declared
    kind = position.phase.kind
    if kind is INFLUENCE:
        return Preparation(position, orders, tuple(public))
    if kind is PhaseKind.MOVEMENT:
        position, orders, arrived = _arrivals(variant, position, orders)
        public += arrived
    given = Given(book, position, orders)
    refused = [f"   {p}: {o.format()}: {why}" for p, o, why in given.refused]
    if refused:
        public += ["Orders not followed", *refused]
    return Preparation(position, given.owners, tuple(public))


def _arrivals(
    variant: AfricaII, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[Position, dict[str, list[Order]], list[str]]:
    """Before a movement phase's moves, from the latest order for each unit: the
    paratroops dropped (b.4), the landings into occupied provinces void (b.5), the
    guerillas' raises and disbands kept for after the retreats (b.11)."""
    board = variant.board
    latest = {power: latest_per_slot(given) for power, given in orders.items()}
    rules = variant.rules_for(position)
    position, moving, dropped = landings.drop(board, rules, position, latest)
    moving, void = landings.void_landings(board, position, moving)
    position, moving, mustered = guerillas.take(variant.book, board, position, moving)
    return position, moving, [*dropped, *void, *mustered]


def year_begins(calendar: Calendar, position: Position) -> bool:
    """Whether the phase is the year's first, the Spring moves: when the event is rolled."""
    first = calendar.year[0]
    phase = position.phase
    return phase.season == first.season and phase.kind == first.procedure.kind
