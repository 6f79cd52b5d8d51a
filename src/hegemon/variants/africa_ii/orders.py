"""Africa II's orders of its own: spending Influence Points in the Spring IP phase (rules
a.7), declaring civil war (a.12), military aid (c.3) and Namibia's independence (c.2), each
naming a state by its name or an alias, in any case (``5: Kenya``, ``Aid 2 RSA``); raising a
guerilla (b.11), naming a province (``Raise G Kal``). All are secret until adjudicated, as
any order: spending "not upon other powers' IP expenditure" (a.9), published with the
holdings it makes (a.7). A guerilla is disbanded (b.11) by the standard order,
``Disband G Kal``, given with the movement orders."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Self

from hegemon.influence.orders import Deploy, Wording
from hegemon.notation import OrderSyntaxError, province_named
from hegemon.orders import Order, ReadContext, Secrecy, place

_CIVIL_WAR = re.compile(r"^\s*civil\s+war\s+(?:in\s+)?(.+?)\s*$", re.IGNORECASE)
_AID = re.compile(r"^\s*aid\s+(?:([+-]?[0-9][\w.,+-]*)\s+)?(?:to\s+)?(.+?)\s*$", re.IGNORECASE)
_CENTERS = re.compile(r"[0-9]{1,3}")
_INDEPENDENT = re.compile(r"^\s*(?:declare\s+)?(.+?)\s+independent\s*$", re.IGNORECASE)
_RAISE = re.compile(r"^\s*raise\s+(?:(?:g|guerilla)\s+)?(.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Spend(Deploy):
    """``5: Kenya``: five IPs spent in Kenya at the Spring IP phase (rules a.7); a later
    spending in the same state replaces it."""

    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_ADJUDICATED
    wording: ClassVar[Wording] = Wording("spending", "IP", "spend", "on")

    @staticmethod
    def shown(state: str) -> str:
        return state


def _state(text: str, written: str, context: ReadContext) -> str:
    state = context.lookup("state", written)
    if state is None:
        raise OrderSyntaxError(text, f"{written!r} is not a state")
    return state


@dataclass(frozen=True, slots=True)
class CivilWar(Order):
    """``Civil war Kenya``: the state's former controller, ousted by a power that held no
    IPs there, immobilises its units until the next Spring IP phase (rules a.12)."""

    state: str

    def format(self) -> str:
        return f"Civil war {self.state}"

    def slot(self) -> Hashable | None:
        return ("civil war", self.state)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _CIVIL_WAR.match(text)
        return None if match is None else cls(_state(text, match.group(1), context))


@dataclass(frozen=True, slots=True)
class Aid(Order):
    """``Aid Kenya``, ``Aid 2 Kenya``: military aid to a state the power controls, one
    center's worth for every 5 IPs of the coming Spring's revenue (rules c.3)."""

    state: str
    centers: int = 1

    def format(self) -> str:
        return f"Aid {self.centers} {self.state}" if self.centers != 1 else f"Aid {self.state}"

    def slot(self) -> Hashable | None:
        return ("aid", self.state)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _AID.match(text)
        if match is None:
            return None
        state = _state(text, match.group(2), context)
        written = match.group(1) or "1"
        if not _CENTERS.fullmatch(written) or int(written) < 1:
            raise OrderSyntaxError(text, f"aid is a whole number of centers, not {written!r}")
        return cls(state, int(written))


@dataclass(frozen=True, slots=True)
class Independence(Order):
    """``Declare Namibia independent``: the power controlling the state Namibia is part of
    makes it a state of its own, at any time (rules c.2)."""

    state: str

    def format(self) -> str:
        return f"Declare {self.state} independent"

    def slot(self) -> Hashable | None:
        return ("independence", self.state)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _INDEPENDENT.match(text)
        return None if match is None else cls(_state(text, match.group(1), context))


@dataclass(frozen=True, slots=True)
class Raise(Order):
    """``Raise G Kal``: a guerilla raised in an unoccupied province that is no supply center,
    after the retreats of the turn it is given in (rules b.11)."""

    province: str

    def format(self) -> str:
        return f"Raise G {place(self.province)}"

    def slot(self) -> Hashable | None:
        return ("raise", self.province)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        match = _RAISE.match(text)
        if match is None:
            return None
        return cls(province_named(context.board, text, match.group(1)))
