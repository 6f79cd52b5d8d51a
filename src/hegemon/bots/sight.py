"""What a bot is given to decide with: its power's sight of the game, never the position.

A `Sight` holds the position as the power may know it (units, centers, retreats due and
the units off the board, which are public, and the variant's state with every secret of
another power left out: `VariantState.seen`), and the power's menu of legal orders. A bot
plays candidate orders against the judge on that position alone; whatever the rules keep
from the power is not there for it to reach.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hegemon.game import Variant
from hegemon.game.forms import Menu
from hegemon.game.menus import offered
from hegemon.position import Position, Viewer


@dataclass(frozen=True)
class Sight:
    """One power's sight of a game at the phase it is to order in."""

    variant: Variant
    power: str
    position: Position  # as the power may know it (`sight_of`)
    menu: Menu = field(compare=False)  # the power's legal orders this phase

    def menu_of(self, other: str) -> Menu:
        """Another power's legal orders as this power can work them out: from what it sees
        (a bot samples the others' replies from these)."""
        return offered(self.variant, self.position, other)


def sight_of(variant: Variant, position: Position, power: str) -> Sight:
    """`power`'s sight of `position`: the only way a bot is handed a game."""
    seen = position.evolve(state=position.state.seen(Viewer(power)))
    return Sight(variant, power, seen, offered(variant, seen, power))
