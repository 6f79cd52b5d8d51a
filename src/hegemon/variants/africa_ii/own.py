"""Africa II's own kinds of order beside the standard ones: the declarations (civil war,
military aid, Namibia's independence: `declarations`) and the guerillas raised and
disbanded (`guerillas`). Each of its procedures takes them where the rules allow (some only
at some times, so `takes` asks the position) and checks them before its standard orders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hegemon.game import Variant
from hegemon.orders import Disband, Order
from hegemon.position import Position
from hegemon.variants.africa_ii import declarations, guerillas
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.orders import Aid, CivilWar, Independence, Raise

DECLARATIONS: tuple[type[Order], ...] = (CivilWar, Aid, Independence)
MUSTERING: tuple[type[Order], ...] = (Raise, Disband)


def takes(
    base: tuple[type[Order], ...], book: Book, variant: Variant, position: Position
) -> tuple[type[Order], ...]:
    """The kinds of order a phase takes: its `base` kinds, and those of Africa II's own
    the rules allow in this position."""
    autumn = position.phase.season is variant.calendar.year[-1].season
    return (
        *base,
        *declarations.kinds_in(book, position, autumn),
        *guerillas.kinds_in(book, position),
    )


def checked(
    standard: Callable[[Variant, Position, str, Sequence[Order]], list[str]],
    own_kinds: tuple[type[Order], ...],
    book: Book,
    variant: Variant,
    position: Position,
    power: str,
    orders: Sequence[Order],
) -> list[str]:
    """The problems of the orders of Africa II's `own_kinds` (declarations, guerillas),
    then those the `standard` check finds in the others."""
    own = [o for o in orders if isinstance(o, own_kinds)]
    rest = [o for o in orders if not isinstance(o, own_kinds)]
    mustered = [o for o in own if isinstance(o, MUSTERING)]
    declared = [o for o in own if not isinstance(o, MUSTERING)]
    return [
        *declarations.problems(book, position, power, declared),
        *guerillas.problems(book, variant.board, position, power, mustered),
        *standard(variant, position, power, rest),
    ]
