"""The orders of the influence economies: points placed in a state (Europe 1615's INFs,
Africa II's IPs), diplomatic attacks, and bids of Diplomacy Points for the orders of units
no player owns (Sub-Saharan).

They are Python classes, apart from the economies' pure functions (`inf`, `dp`), which the
compiled core holds: each says at class level how long it stays secret (`Order.secrecy`),
which a dataclass compiled by mypyc would take for a field of its own.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Self

from hegemon.notation import POINTS, OrderSyntaxError, parse_order, read_points
from hegemon.orders import Convoy, Hold, Move, MovementOrder, Order, ReadContext, Secrecy, Support

_DEPLOY = re.compile(rf"^\s*({POINTS})\s*:\s*(.*?)\s*$")  # ``5:`` too, to say what it lacks
_ATTACK = re.compile(r"^\s*([A-Za-z][A-Za-z .']*?)\s*>\s*(.+?)\s*$")  # never "A par -> bur"
_BID = re.compile(rf"^\s*({POINTS})\s*:\s*(.*)$", re.DOTALL)


class Wording(NamedTuple):
    """How a rulebook words points placed in a state, for the reasons an order is refused:
    "a deployment is at least 1 INF", "deploy INFs to the state"."""

    order: str  # "deployment"
    point: str  # "INF"
    verb: str  # "deploy"
    to: str  # "to"


@dataclass(frozen=True, slots=True)
class Deploy(Order):
    """Influence points placed in a state, written ``16: WUR`` (or the state's name). How
    many a power deploys stays secret: only the shares are published."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
    wording: ClassVar[Wording] = Wording("deployment", "INF", "deploy", "to")
    points: int
    state: str

    def format(self) -> str:
        return f"{self.points}: {self.shown(self.state)}"

    @staticmethod
    def shown(state: str) -> str:
        """The state as orders write it: Europe 1615's ids are its labels, ``WUR``."""
        return state.upper()

    def slot(self) -> Hashable | None:
        """A new deployment to the same state replaces the earlier one."""
        return ("deploy", self.state)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _DEPLOY.match(text)
        if match is None:
            return None
        words = cls.wording
        written = match.group(2)
        if _DEPLOY.match(written):
            raise OrderSyntaxError(
                text, f"a {words.order} is to one state, not to another {words.order}"
            )
        how = f"{words.verb} {words.point}s {words.to}"
        if not written:
            raise OrderSyntaxError(text, f"no state after the colon ({how} one as 'N: STATE')")
        state = context.lookup("state", written)
        if state is None:
            host = context.lookup("state of", written)
            if host is not None:  # "5: WAR": Warsaw is a province of Poland
                raise OrderSyntaxError(
                    text, f"{written!r} is a province of {cls.shown(host)}: {how} the state"
                )
            raise OrderSyntaxError(
                text, f"{written!r} is not a state ({words.verb} {words.point}s as 'N: STATE')"
            )
        points = read_points(text, match.group(1), f"a {words.order}")
        if points < 1:
            raise OrderSyntaxError(text, f"a {words.order} is at least 1 {words.point}")
        return cls(points, state)


@dataclass(frozen=True, slots=True)
class DiplomaticAttack(Order):
    """An attack on another power's influence in a state, written ``LOR > France``."""

    state: str
    target: str

    def format(self) -> str:
        return f"{self.state.upper()} > {self.target}"

    def slot(self) -> Hashable | None:
        """One attack per state: a new one replaces the earlier one."""
        return ("attack", self.state)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _ATTACK.match(text)
        if match is None:
            return None
        state = context.lookup("state", match.group(1))
        if state is None:
            raise OrderSyntaxError(text, f"{match.group(1)!r} is not a state (write STATE > POWER)")
        target = context.lookup("power", match.group(2))
        if target is None:
            raise OrderSyntaxError(text, f"{match.group(2)!r} is not a power (write STATE > POWER)")
        return cls(state, target)


@dataclass(frozen=True, slots=True)
class Bid(Order):
    """Points offered for an order to a unit no player owns, written ``2: A Kas - Kam``.
    Kept secret until the game ends (Sub-Saharan 1.3)."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_END
    points: int
    order: MovementOrder

    def format(self) -> str:
        return f"{self.points}: {self.order.format()}"

    def slot(self) -> Hashable | None:
        """A new bid on the same unit replaces the earlier one."""
        return ("bid", self.order.province)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _BID.match(text)
        if match is None:
            return None
        points = read_points(text, match.group(1), "a bid")
        if points < 1:
            raise OrderSyntaxError(text, "a bid must offer at least 1 point")
        if _BID.match(match.group(2)):
            raise OrderSyntaxError(text, "a bid is for one order, not for another bid")
        order = parse_order(match.group(2), context.board, context.units)
        if not isinstance(order, Hold | Move | Support | Convoy):
            raise OrderSyntaxError(text, "a bid must be for a hold, move, support or convoy order")
        return cls(points, order)
