"""Order types and their standard text form.

An order names its unit by type and location, as players write it; it does not know the
position. Matching an order to the unit it commands is the job of `legality`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hegemon.board import UnitKind, province_of


@dataclass(frozen=True, slots=True)
class UnitOrder:
    unit: UnitKind
    location: str
    # Kept rather than derived: adjudication reads it for every order, many times.
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    pass


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    target: str
    via_convoy: bool = False
    destination: str = field(init=False, repr=False, compare=False)  # the target's province

    def __post_init__(self) -> None:
        UnitOrder.__post_init__(self)
        object.__setattr__(self, "destination", province_of(self.target))


@dataclass(frozen=True, slots=True)
class Support(UnitOrder):
    """Support to hold (``target`` is None) or to move from ``supported`` to ``target``."""

    supported: str
    target: str | None = None
    supported_unit: UnitKind | None = None  # as written; None if the order omitted it
    destination: str | None = field(init=False, repr=False, compare=False)  # target's province

    def __post_init__(self) -> None:
        UnitOrder.__post_init__(self)
        destination = None if self.target is None else province_of(self.target)
        object.__setattr__(self, "destination", destination)


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    army: str  # where the convoyed army stands
    target: str


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    target: str


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    pass


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    pass


@dataclass(frozen=True, slots=True)
class Waive:
    """A power declines one of its builds."""


MovementOrder = Hold | Move | Support | Convoy


@dataclass(frozen=True, slots=True)
class Bid:
    """Points offered for an order to a unit no player owns (Diplomacy Points)."""

    points: int
    order: MovementOrder


@dataclass(frozen=True, slots=True)
class Deploy:
    """Influence points (INFs) placed in a state, written ``16: WUR``."""

    points: int
    state: str


@dataclass(frozen=True, slots=True)
class DiplomaticAttack:
    """An attack on another power's influence in a state, written ``LOR > France``."""

    state: str
    target: str


@dataclass(frozen=True, slots=True)
class Declaration:
    """A standing declaration to the game master: ``Ally England`` or ``Waive Nor``
    (give up capturing a province at the next build phase)."""

    kind: str  # "ally" or "waive"
    subject: str  # the power allied with, or the province not captured


InfluenceOrder = Bid | Deploy | DiplomaticAttack | Declaration
Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive | InfluenceOrder


def place(location: str) -> str:
    """A location as reports write it: ``"spa/nc"`` -> ``"Spa/nc"``."""
    return location[:1].upper() + location[1:]


def format_order(order: Order) -> str:
    """The order in the standard notation, e.g. ``F Nth C A Lon - Bel``."""
    if isinstance(order, Waive):
        return "Waive"
    if isinstance(order, Bid):
        return f"{order.points}: {format_order(order.order)}"
    if isinstance(order, Deploy):
        return f"{order.points}: {order.state.upper()}"
    if isinstance(order, DiplomaticAttack):
        return f"{order.state.upper()} > {order.target}"
    if isinstance(order, Declaration):
        return f"{order.kind.capitalize()} {order.subject}"
    head = f"{order.unit.letter} {place(order.location)}"
    match order:
        case Hold():
            return f"{head} H"
        case Move(target=target, via_convoy=via):
            return f"{head} - {place(target)}" + (" via Convoy" if via else "")
        case Support(supported=supported, target=target, supported_unit=kind):
            prefix = f"{kind.letter} " if kind else ""
            tail = f" - {place(target)}" if target else " H"
            return f"{head} S {prefix}{place(supported)}{tail}"
        case Convoy(army=army, target=target):
            return f"{head} C A {place(army)} - {place(target)}"
        case Retreat(target=target):
            return f"{head} R {place(target)}"
        case Disband():
            return f"{head} D"
        case Build():
            return f"Build {head}"
    raise TypeError(f"not an order: {order!r}")
