"""The Influence Points held in the states through the Spring IP phase (rules a.8, a.11,
b.3, b.10): every holding halved as the phase opens, the upkeep of the Spring's
intervention units paid and the IPs where a power's guerillas operated lost; control
going to the largest holding.

Apart from the IP phase (`influence`), so that the compiled core holds it: the phase
machine opens the IP phase after every Spring's retreats, and halving every holding in
Python cost more than the rest of the phase's opening.
"""

from __future__ import annotations

from collections.abc import Mapping

from hegemon.position import Position
from hegemon.variants.africa_ii import interventions
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.ledger import Holdings, Ledger


def opening(book: Book, position: Position) -> Position:
    """The position as the IP phase opens: every holding halved (a.8), before anyone
    spends, who held IPs where kept for a.12; the upkeep of the Spring's marines and
    paratroops paid (b.3), the IPs where a power's guerillas operated this Spring lost
    (b.10)."""
    ledger = Ledger.of(position)
    revenue, paid = interventions.upkeep(book, ledger)
    ledger = ledger.replace(
        holdings=halved(ledger.holdings),
        held_before={s: tuple(sorted(held)) for s, held in ledger.holdings.items()},
        revenue=revenue,
        deployed={},
    )
    holdings, lost = interventions.forfeit(ledger)
    news = (*ledger.news, *paid, *lost)
    return position.evolve(state=ledger.replace(holdings=holdings, news=news))


def halved(holdings: Holdings) -> dict[str, dict[str, int]]:
    """Each holding halved, rounded down (a.8); those left at nothing dropped."""
    kept = {s: {p: n // 2 for p, n in held.items() if n // 2} for s, held in holdings.items()}
    return {s: held for s, held in kept.items() if held}


def leader(held: Mapping[str, int]) -> str | None:
    """The superpower with the largest holding, alone (a.11): "it does not have to be an
    overall majority"; two tying for it leave the state uncontrolled."""
    top = max(held.values(), default=0)
    leaders = [p for p, n in held.items() if n == top]
    return leaders[0] if top > 0 and len(leaders) == 1 else None
