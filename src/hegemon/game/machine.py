"""The phase machine: from a position, everyone's orders and the draws of chance to the
next position.

`play_phase` is a pure function. `Game` wraps it with the pending orders of the current
phase and the history of every phase played, which is what save, load and replay keep.
Phases with nothing to do are skipped (a retreat phase when no dislodged unit can
retreat, an adjustment phase when nobody can build or must disband), and the end of the
game is asked after every phase.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, NamedTuple, Never, cast

from mypy_extensions import mypyc_attr

from hegemon.adjudication.outcome import Outcome
from hegemon.game.chance import Chance, Draw, settle
from hegemon.game.ending import PLAYING, GameEnd, Termination, solo_winner
from hegemon.game.phases import Calendar, Procedure, Turn
from hegemon.game.variant import Lines, Variant
from hegemon.orders import Order
from hegemon.position import Position, Unit
from hegemon.rules import Rules

# Empty, so a mapping of any values: the default of the private lines and of the draws.
_NONE: Mapping[str, Never] = MappingProxyType({})


class PhaseResult:
    """One adjudicated phase: the position it started from, the orders and draws, what
    happened, and the position of the next phase to play."""

    # A plain class, as the compiled core builds and reads one fastest (docs/compiled-core.md).
    def __init__(
        self,
        before: Position,
        orders: Mapping[str, tuple[Order, ...]],
        explain: Callable[[], tuple[Outcome, ...]],
        after: Position,
        destroyed: tuple[Unit, ...] = (),  # dislodged units that could not retreat
        end: GameEnd = PLAYING,  # set when this phase ended the game
        public: tuple[str, ...] = (),  # lines of the variant's own that everyone may read
        private: Mapping[str, tuple[str, ...]] = _NONE,  # by power
        draws: Mapping[str, Draw] = _NONE,
        told: Callable[[], Lines] | None = None,  # writes `public` and `private` instead
    ) -> None:
        self.before: Final = before
        self.orders: Final = orders
        self.explain: Final = explain
        self.after: Final = after
        self.destroyed: Final = destroyed
        self.end: Final = end
        self._public = public
        self._private = private
        self._told = told
        self.draws: Final = draws
        self._outcomes: tuple[Outcome, ...] | None = None

    def __repr__(self) -> str:
        return f"PhaseResult(before={self.before!r}, orders={self.orders!r}, after={self.after!r})"

    @property
    def winners(self) -> tuple[str, ...]:
        return self.end.winners

    @property
    def public(self) -> tuple[str, ...]:
        """The variant's own lines that everyone may read."""
        if self._told is not None:
            self._tell()
        return self._public

    @property
    def private(self) -> Mapping[str, tuple[str, ...]]:
        """The variant's own lines for one power (and the game master), by power."""
        if self._told is not None:
            self._tell()
        return self._private

    def _tell(self) -> None:
        """The variant's lines written, once. They are kept before `_told` is let go: a
        reader in another thread meanwhile writes them again, never finds none."""
        told = self._told
        if told is not None:
            self._public, self._private = told()
            self._told = None

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every order's fate and its reason, worked out when first asked for."""
        if self._outcomes is None:
            self._outcomes = self.explain()
        return self._outcomes


def chances_for(variant: Variant, position: Position) -> tuple[Chance, ...]:
    """The draws of chance playing this position's phase needs."""
    procedure = variant.calendar.procedure(position.phase)
    return _chances(variant, _Hooks.of(variant), procedure, position)


def _chances(
    variant: Variant, hooks: _Hooks, procedure: Procedure, position: Position
) -> tuple[Chance, ...]:
    asked = procedure.chances(variant, position)
    return (*asked, *variant.chances(position)) if hooks.chances else asked


def play_phase(
    variant: Variant,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    draws: Mapping[str, object] | None = None,  # as given, checked by `settle`
) -> PhaseResult:
    """Adjudicate the phase of `position` with `orders` and `draws` (the values of the
    chance it needs, see `chances_for`) and move on to the next phase to play."""
    hooks = _Hooks.of(variant)
    calendar = variant.calendar  # read once: a variant's attribute is read through Python
    procedure = calendar.procedure(position.phase)
    frozen = _frozen(orders)
    drawn = settle(_chances(variant, hooks, procedure, position), draws)
    prepared = variant.prepare(position, frozen, drawn) if hooks.prepare else None
    turn = (
        Turn(variant, position, frozen, hooks.rules_for(variant, position), drawn)
        if prepared is None
        else Turn(
            variant,
            prepared.position,
            prepared.orders,
            prepared.rules or variant.rules_for(prepared.position),
            drawn,
        )
    )
    resolution = procedure.resolve(turn)
    after = procedure.leave(variant, resolution.after)
    after, end = _advance(variant, hooks, after, procedure, calendar)
    return PhaseResult(
        position,
        frozen,
        resolution.explain,
        after,
        resolution.destroyed,
        end,
        () if prepared is None else prepared.public,
        _NONE if prepared is None else prepared.private,
        drawn,
        None if prepared is None else prepared.told,
    )


def _frozen(orders: Mapping[str, Sequence[Order]]) -> dict[str, tuple[Order, ...]]:
    """The orders kept with the phase: a dict of the caller's own, each power's a tuple.
    Copied in one go, each power's orders replaced only where they are not a tuple
    already (a game's history and a replay give tuples): compiled, filling a new dict
    power by power from a mapping's items cost three times as much."""
    frozen = dict(orders)
    for power, given in frozen.items():
        if type(given) is not tuple:  # as `tuple` hands a tuple back, not a subclass
            frozen[power] = tuple(given)  # a value replaced: the dict keeps its size
    return cast(dict[str, tuple[Order, ...]], frozen)


def advance(
    variant: Variant, position: Position, procedure: Procedure | None = None
) -> tuple[Position, GameEnd]:
    """From a phase just played (by `procedure`, if the caller has it at hand) to the next
    one with something to do, asking after each phase whether the game has ended."""
    return _advance(variant, _Hooks.of(variant), position, procedure, variant.calendar)


def _advance(
    variant: Variant,
    hooks: _Hooks,
    position: Position,
    procedure: Procedure | None,
    calendar: Calendar,  # the variant's
) -> tuple[Position, GameEnd]:
    end = hooks.game_end(variant, position)
    played = procedure or calendar.procedure(position.phase)
    if end or played.repeats(variant, position):
        return position, end
    phase = position.phase
    while True:
        phase, procedure = calendar.following(phase)
        position = procedure.enter(variant, position.evolve(phase=phase))
        end = hooks.game_end(variant, position)
        if end or procedure.due(variant, position):
            return position, end
        position = procedure.leave(variant, position)


class _Hooks:
    """Which of the variant's hooks around every phase its class overrides, found once per
    class. Those it leaves as the standard game has them are not called: the standard
    ones do nothing, or ask `solo_winner`, and a call from compiled code into a method
    written in Python costs more than many of a phase's own steps."""

    def __init__(self, overridden: Callable[[str], bool]) -> None:
        self.chances: Final = overridden("chances")
        self.prepare: Final = overridden("prepare")
        self._game_end: Final = overridden("game_end")
        self._rules_for: Final = overridden("rules_for")
        self._last_rules: _LastRules | None = None  # as `_last_end`
        # The standard game's end as last found: the phase machine asks it after every
        # phase and every phase it enters, and the counts stay the same object until
        # centers change hands. Replaced whole, so that games played side by side never
        # read a mix.
        self._last_end: _LastEnd | None = None

    @staticmethod
    def of(variant: Variant) -> _Hooks:
        kind = type(variant)
        hooks = _HOOKS_OF.get(kind)
        if hooks is None:
            hooks = _Hooks(lambda name: getattr(kind, name) is not getattr(Variant, name))
            _HOOKS_OF[kind] = hooks
        return hooks

    def rules_for(self, variant: Variant, position: Position) -> Rules:
        """The rules adjudicating the position (`Variant.rules_for`). The standard answer
        is the variant's one rules object, whatever the position: kept for the variant
        last asked about, as asking a variant, an object of Python, costs compiled code
        more than most of a phase's steps."""
        if self._rules_for:
            return variant.rules_for(position)
        last = self._last_rules
        if last is not None and last.variant is variant:
            return last.rules
        rules = variant.rules_for(position)
        self._last_rules = _LastRules(variant, rules)
        return rules

    def game_end(self, variant: Variant, position: Position) -> GameEnd:
        if self._game_end:
            return variant.game_end(position)
        counts = position.center_counts
        last = self._last_end
        if last is not None and last.counts is counts and last.variant is variant:
            return last.end
        end = solo_winner(counts, variant.victory_centers)
        self._last_end = _LastEnd(counts, variant, end)
        return end


_HOOKS_OF: Final[dict[type, _Hooks]] = {}  # by the variant's class


class _LastEnd:
    """The standard game's end as `_Hooks.game_end` last found it, with the counts of
    centers and the variant it was found from (a frozen variant keeps its threshold).
    A plain class, whose fields compiled code reads directly: a tuple's items are each
    checked for their type as they are read, which cost more than the rest of the
    question, asked twice or more a phase."""

    def __init__(self, counts: Mapping[str, int], variant: Variant, end: GameEnd) -> None:
        self.counts: Final = counts
        self.variant: Final = variant
        self.end: Final = end


class _LastRules:
    """A variant's standard rules object, as `_Hooks.rules_for` last found it."""

    def __init__(self, variant: Variant, rules: Rules) -> None:
        self.variant: Final = variant
        self.rules: Final = rules


def describe_end(end: GameEnd) -> str:
    """``France won``, ``France won on points``, ``France won by concession``, ``a draw of
    Austria, Italy, after the last year``, ``a draw of Austria, Italy, by agreement`` ...:
    the winners or the draw, and what ended the game."""
    if end.winners:
        return f"{' and '.join(end.winners)} won{_WON.get(end.how, '')}"
    return f"a draw of {', '.join(end.draw)}{_DRAWN.get(end.how, '')}"


# How each termination reads after the winners, and after a draw's powers.
_WON: Final[dict[Termination | None, str]] = {
    Termination.POINTS: " on points",
    Termination.CONCESSION: " by concession",
}
_DRAWN: Final[dict[Termination | None, str]] = {
    Termination.SOLO: ", tied for victory",
    Termination.POINTS: ", tied on points",
    Termination.LAST_YEAR: ", after the last year",
    Termination.EMPTY_BOARD: ", with nothing left on the board",
    Termination.DRAW_AGREED: ", by agreement",
}


class OrderStatus(NamedTuple):
    """Whose orders a phase has and whose it awaits: powers, and owners whose commander is
    secret, by the names anyone may read."""

    received: tuple[str, ...]
    awaited: tuple[str, ...]


@dataclass
class Game:
    """A game in progress: its variant (as configured for it), every phase played, the
    orders now pending, and the seed its draws of chance come from."""

    variant: Variant
    start: Position
    history: list[PhaseResult] = field(default_factory=list)
    pending: dict[str, list[Order]] = field(default_factory=dict)
    seed: int = 0
    agreed: GameEnd = PLAYING  # an end the players agreed before the judge reached one

    @classmethod
    def new(cls, variant: Variant, seed: int | None = None) -> Game:
        chosen = secrets.randbits(32) if seed is None else seed
        return cls(variant, variant.initial_position(), seed=chosen)

    @property
    def position(self) -> Position:
        return self.history[-1].after if self.history else self.start

    @property
    def end(self) -> GameEnd:
        if self.agreed:
            return self.agreed
        return self.history[-1].end if self.history else PLAYING

    @property
    def winners(self) -> tuple[str, ...]:
        return self.end.winners

    @property
    def over(self) -> bool:
        return bool(self.end)

    def actors(self) -> tuple[str, ...]:
        """The powers the current phase awaits orders from."""
        position = self.position
        return self.variant.calendar.procedure(position.phase).actors(self.variant, position)

    def order_status(self) -> OrderStatus:
        """Whose orders the current phase has and whose it still awaits, as anyone may
        read it: each power it awaits, by the orders it gave of its own; then each owner
        whose commander is secret (`Variant.secret_commanders`) with something to order,
        by the orders its commander gave for it. Orders from a power the phase does not
        await (a declaration, orders for such an owner) are not counted: a name listed
        for them would tell who sent them. An actor whose every order is optional is
        awaited by nobody (`Procedure.waits_for`)."""
        variant, position = self.variant, self.position
        procedure = variant.calendar.procedure(position.phase)
        received: list[str] = []
        awaited: list[str] = []
        for power in procedure.actors(variant, position):
            own = any(variant.given_for(o) is None for o in self.pending.get(power, ()))
            if own:
                received.append(power)
            elif procedure.waits_for(variant, position, power):
                awaited.append(power)
        for owner, commander in variant.secret_commanders(position).items():
            if procedure.awaits(variant, position, owner):
                given = any(variant.given_for(o) == owner for o in self.pending.get(commander, ()))
                (received if given else awaited).append(owner)
        return OrderStatus(tuple(received), tuple(awaited))

    def set_orders(self, power: str, orders: Sequence[Order]) -> None:
        """Replace all of `power`'s pending orders for the current phase."""
        self.pending[power] = list(orders)

    def with_orders(self, power: str, orders: Sequence[Order]) -> list[Order]:
        """`power`'s pending orders once these are added: each replaces an earlier order
        for the same slot (the same unit, the same minor's unit bid on ...)."""
        return latest_per_slot([*self.pending.get(power, ()), *orders])

    def end_by_agreement(self, draw: Sequence[str] = (), concede_to: str | None = None) -> GameEnd:
        """End the game as its players agreed: a draw of the powers named, or a concession
        to one power. Its secrets may then be revealed, as at any end."""
        if self.over:
            raise GameOver(f"the game is over already: {describe_end(self.end)}")
        unknown = [
            p
            for p in (*draw, *([concede_to] if concede_to else []))
            if p not in self.variant.powers
        ]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a power of this game")
        if (concede_to is None) == (not draw):
            raise ValueError("end a game by a draw of some powers or by a concession to one")
        ordered = tuple(p for p in self.variant.powers if p in draw)
        if concede_to:
            self.agreed = GameEnd(Termination.CONCESSION, winners=(concede_to,))
        else:
            self.agreed = GameEnd(Termination.DRAW_AGREED, draw=ordered)
        self.pending = {}
        return self.agreed

    def adjudicate(self, draws: Mapping[str, Draw] | None = None) -> PhaseResult:
        """Play the current phase with the pending orders. Draws not given come from the
        game's seed, the same for this phase however often the game is loaded."""
        if self.over:
            raise GameOver(f"the game is over: {describe_end(self.end)}")
        rng = phase_rng(self.seed, len(self.history))
        drawn = settle(chances_for(self.variant, self.position), draws, rng)
        result = play_phase(self.variant, self.position, self.pending, drawn)
        self.history.append(result)
        self.pending = {}
        return result


def latest_per_slot(orders: Iterable[Order]) -> list[Order]:
    """The orders with each one that a later order for the same slot replaces left out
    (two orders for one unit: the later one), in the order they were given."""
    latest: dict[Hashable, Order] = {}
    for order in orders:
        slot = order.slot()
        key = object() if slot is None else slot  # an order with no slot stands alone
        given = len(latest)
        latest[key] = order
        if len(latest) == given:  # it replaced an earlier one: moved to the end, as given
            del latest[key]
            latest[key] = order
    return list(latest.values())


def phase_rng(seed: int, played: int) -> random.Random:
    """Where the draws of chance of a game's next phase come from, once `played` phases
    have been: the same for that phase whoever adjudicates it, and however often."""
    return random.Random(f"{seed}:{played}")


# Not a native class when compiled: mypyc compiles subclasses of few builtin exceptions.
@mypyc_attr(native_class=False)
class GameOver(RuntimeError):
    pass
