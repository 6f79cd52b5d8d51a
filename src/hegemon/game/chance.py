"""Chance as recorded input: the die rolls and shuffles a phase asks for.

A phase that needs chance (the order of play, a random event) names what it needs; the
game supplies a value from its seeded generator, or the game master's own roll, and keeps
it with that phase's orders. Adjudication is then a pure function of the position, the
orders and the draws, and a saved game replays exactly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Draw = int | tuple[str, ...]  # a die's face, or an order of items
_WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")  # a die's face as written


class ChanceError(ValueError):
    """A draw missing or impossible; the message names the draw and why."""


@dataclass(frozen=True)
class Chance:
    """A draw a phase needs: a die of `sides` faces (1 to sides), or a random order of
    `items` (a shuffle). A die may be `rerolled` on faces that count no more (a table
    whose every number is used once): it is rolled again until another face comes up,
    which is a face drawn evenly among the others."""

    name: str
    sides: int = 0
    items: tuple[str, ...] = ()
    rerolled: tuple[int, ...] = ()

    def draw(self, rng: random.Random) -> Draw:
        if self.items:
            return tuple(rng.sample(self.items, len(self.items)))
        if self.rerolled:
            return rng.choice(self.faces)
        return rng.randint(1, self.sides)

    @property
    def faces(self) -> list[int]:
        """The faces that count: every face of the die but those rerolled."""
        return [face for face in range(1, self.sides + 1) if face not in self.rerolled]

    def problem(self, value: object) -> str | None:
        """Why `value` cannot be this draw's result, if it cannot."""
        if self.items:
            listed = value if isinstance(value, (tuple, list)) else None
            if listed is None or sorted(map(str, listed)) != sorted(self.items):
                return f"{self.name}: expected an order of {', '.join(self.items)}"
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= self.sides:
            return f"{self.name}: expected a whole number from 1 to {self.sides}"
        if value in self.rerolled:
            left = ", ".join(map(str, self.faces))
            return f"{self.name}: {value} came up before and is rolled again (faces left: {left})"
        return None

    def read(self, text: str) -> Draw:
        """The draw as a game master writes it: a die's face (``7``) or an order of items
        separated by commas (``South,North,East``); a ChanceError says what is wrong."""
        if self.items:  # in any case, as names are typed (``south,north,east``)
            spelled = {item.casefold(): item for item in self.items}
            items = (item.strip() for item in text.split(","))
            return tuple(spelled.get(item.casefold(), item) for item in items)
        written = text.strip()
        if not _WHOLE_NUMBER.fullmatch(written):
            raise ChanceError(
                f"{self.name}: expected a whole number from 1 to {self.sides}, not {written!r}"
            )
        return int(written)

    def normal(self, value: object) -> Draw:
        """A value `problem` accepts, as a draw: an order of items written as a list (as
        JSON writes it) made a tuple."""
        if isinstance(value, (tuple, list)):  # a tuple of types: compiled code needs one
            return tuple(str(v) for v in value)
        assert isinstance(value, int)
        return value


def read_draws(chances: Sequence[Chance], written: Mapping[str, str]) -> dict[str, Draw]:
    """The draws a game master writes (``event=7``), each read as the draw of that name
    the phase asks for; a ChanceError names one it does not ask for or cannot be."""
    asked = {chance.name: chance for chance in chances}
    unasked = [name for name in written if name not in asked]
    if unasked:
        raise _unasked(unasked)
    return {name: asked[name].read(text) for name, text in written.items()}


def settle(
    chances: Sequence[Chance], given: Mapping[str, object] | None, rng: random.Random | None = None
) -> dict[str, Draw]:
    """The value of every draw: as given (checked, for it may come from a file), else from
    `rng`. Raises ChanceError for a draw that is missing with no generator to make it,
    impossible, or not asked for."""
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
        raise _unasked(given)
    return drawn


def _unasked(names: Iterable[str]) -> ChanceError:
    # Named as given, quoted: a name read from a file may be anything, a newline too.
    quoted = ", ".join(repr(name) for name in sorted(names))
    return ChanceError(f"{quoted}: this phase asks for no such draw")
