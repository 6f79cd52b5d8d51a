"""Africa II's own kinds of order beside the standard ones: the declarations (civil war,
military aid, Namibia's independence: `declarations`) and the guerillas raised and
disbanded (`guerillas`). Each of its procedures takes them where the rules allow (some only
at some times, so `takes` asks the position), checks them before its standard orders and
offers their forms after its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hegemon.game import Variant
from hegemon.game.forms import Menu
from hegemon.orders import Disband, Order
from hegemon.position import Position
from hegemon.variants.africa_ii import declarations, forms, guerillas
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.orders import Aid, CivilWar, Independence, Raise

DECLARATIONS: tuple[type[Order], ...] = (CivilWar, Aid, Independence)
MUSTERING: tuple[type[Order], ...] = (Raise, Disband)


def takes(
    base: tuple[type[Order], ...], book: Book, variant: Variant, position: Position
) -> tuple[type[Order], ...]:
    """The kinds of order a phase takes: its `base` kinds, and those of Africa II's own
    the rules allow in this position."""
    autumn = in_autumn(variant, position)
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


def forms_in(book: Book, variant: Variant, position: Position, power: str) -> Menu:
    """The forms of the declarations and raises `power` may make this phase."""
    return forms.declaration_forms(
        book, variant.board, position, power, in_autumn(variant, position)
    )


def in_autumn(variant: Variant, position: Position) -> bool:
    """Whether the phase is of the season that ends with the adjustments (c.3)."""
    return position.phase.season is variant.calendar.year[-1].season
