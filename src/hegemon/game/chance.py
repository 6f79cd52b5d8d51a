"""Chance as recorded input: the die rolls and shuffles a phase asks for.

A phase that needs chance (the order of play, a random event) names what it needs; the
game supplies a value from its seeded generator, or the game master's own roll, and keeps
it with that phase's orders. Adjudication is then a pure function of the position, the
orders and the draws, and a saved game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Draw = int | tuple[str, ...]  # a die's face, or an order of items


class ChanceError(ValueError):
    """A draw missing or impossible; the message names the draw and why."""


@dataclass(frozen=True)
class Chance:
    """A draw a phase needs: a die of `sides` faces (1 to sides), or a random order of
    `items` (a shuffle)."""

    name: str
    sides: int = 0
    items: tuple[str, ...] = ()

    def draw(self, rng: random.Random) -> Draw:
        if self.items:
            return tuple(rng.sample(self.items, len(self.items)))
        return rng.randint(1, self.sides)

    def problem(self, value: object) -> str | None:
        """Why `value` cannot be this draw's result, if it cannot."""
        if self.items:
            if not isinstance(value, tuple | list) or sorted(map(str, value)) != sorted(self.items):
                return f"{self.name}: expected an order of {', '.join(self.items)}"
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= self.sides:
            return f"{self.name}: expected a whole number from 1 to {self.sides}"
        return None

    def normal(self, value: Draw) -> Draw:
        return tuple(str(v) for v in value) if isinstance(value, tuple | list) else value


def settle(
    chances: Sequence[Chance], given: Mapping[str, Draw] | None, rng: random.Random | None = None
) -> dict[str, Draw]:
    """The value of every draw: as given, else from `rng`. Raises ChanceError for a draw
    that is missing with no generator to make it, impossible, or not asked for."""
    if not chances and not given:  # most phases: no chance at all
        return {}
    given = dict(given or {})
    drawn: dict[str, Draw] = {}
    for chance in chances:
        if chance.name in given:
            value = given.pop(chance.name)
            problem = chance.problem(value)
            if problem:
                raise ChanceError(problem)
            drawn[chance.name] = chance.normal(value)
        elif rng is not None:
            drawn[chance.name] = chance.draw(rng)
        else:
            raise ChanceError(f"{chance.name}: this phase needs a draw and none was given")
    if given:
        # Named as given, quoted: a name read from a file may be anything, a newline too.
        names = ", ".join(repr(name) for name in sorted(given))
        raise ChanceError(f"{names}: this phase asks for no such draw")
    return drawn
