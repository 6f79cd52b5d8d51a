"""Orders: the protocol every kind of order follows, and the standard orders.

An order names its unit by kind and location, as players write it; it does not know the
position. Matching an order to the unit it commands is the job of `legality`.

Every kind of order formats itself (`Order.format`) and says how long it stays secret
(`Order.secrecy`). The standard orders are read by the parser of `hegemon.notation`; any
other kind (a bid, an influence deployment, a placement) also reads itself
(`Order.read`) and lives in the module that defines its economy or its variant, which
lists it among the kinds of order the variant accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Final, Self

from mypy_extensions import mypyc_attr

from hegemon.board import OFFBOARD, Board, UnitKind, province_of
from hegemon.position import Unit


class Secrecy(Enum):
    """How long an order stays between its power and the game master."""

    UNTIL_ADJUDICATED = "until adjudicated"  # hidden while pending, public in the report
    UNTIL_END = "until the game ends"  # e.g. Diplomacy Point bids, then revealed


@dataclass(frozen=True)
class ReadContext:
    """What reading an order may look up: the map, the units standing (for orders that
    leave out the unit's kind), and other names a variant's orders use, such as its powers
    or its states."""

    board: Board
    units: Mapping[str, Unit] | None = None
    names: Mapping[str, Callable[[str], str | None]] = field(default_factory=dict)

    def lookup(self, what: str, spelling: str) -> str | None:
        """The id of a named thing (``lookup("state", "Papal States")``), if known."""
        find = self.names.get(what)
        return find(spelling) if find else None


@mypyc_attr(allow_interpreted_subclasses=True)  # the variants' own kinds of order
class Order:
    """An order of any kind."""

    __slots__ = ()
    secrecy: ClassVar[Secrecy] = Secrecy.UNTIL_ADJUDICATED

    def format(self) -> str:
        """The order in its standard notation, e.g. ``F Nth C A Lon - Bel``."""
        raise NotImplementedError(type(self).__name__)

    @classmethod
    def read(cls, text: str, context: ReadContext) -> Self | None:
        """This kind of order as written, or None if the text is not one; raises
        `hegemon.notation.OrderSyntaxError` for a text that is one, but wrongly written.
        The standard orders share one parser instead."""
        return None

    def slot(self) -> Hashable | None:
        """What the order is given for: a power's later order for the same slot replaces
        the earlier one (a unit's new order, a new bid on the same unit), so that orders
        may be sent in several goes. None: the order stands beside any other."""
        return None


def place(location: str) -> str:
    """A location as reports write it: ``"spa/nc"`` -> ``"Spa/nc"``; OFFBOARD as it is."""
    placed = _PLACED.get(location)
    if placed is None:
        # Ids are lower case: "spa/nc" -> "Spa/nc".
        placed = location if location == OFFBOARD else location.capitalize()
        if len(_PLACED) < _PLACES_KEPT:
            _PLACED[location] = placed
    return placed


# Each location as written, kept: every outcome's report writes a few, and a map's
# locations are few, where capitalizing makes a new string each time.
_PLACED: Final[dict[str, str]] = {}
_PLACES_KEPT: Final = 10_000  # every location of every map, with room; not whatever is asked


@dataclass(frozen=True, slots=True)
class UnitOrder(Order):
    unit: UnitKind
    location: str
    # Kept rather than derived: adjudication reads it for every order, many times.
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    @property
    def head(self) -> str:
        """The unit as the order names it: ``A Par``."""
        return f"{self.unit.letter} {place(self.location)}"

    def slot(self) -> Hashable | None:
        """The unit's province and kind: one order per unit. The kind tells a carrier from
        the unit aboard it (``F Sao``, ``M Sao``) and a power's units off the board apart
        (``F OFFBOARD``, ``P OFFBOARD``)."""
        return ("unit", self.province, self.unit.letter)


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    def format(self) -> str:
        return f"{self.head} H"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    target: str
    via_convoy: bool = False
    destination: str = field(init=False, repr=False, compare=False)  # the target's province

    def __post_init__(self) -> None:
        UnitOrder.__post_init__(self)
        object.__setattr__(self, "destination", province_of(self.target))

    def format(self) -> str:
        return f"{self.head} - {place(self.target)}" + (" via Convoy" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class Embark(Move):
    """A move onto a carrier of one's own power, in the province `target` (``M Dca - F
    Gog``): it boards the carrier that ends the phase there, competing for nothing
    (docs/writing-a-variant.md, "Units aboard and off the board")."""

    carrier: UnitKind | None = None  # the carrier's kind; always given, in normal form

    def format(self) -> str:
        kind = f"{self.carrier.letter} " if self.carrier else ""
        return f"{self.head} - {kind}{place(self.target)}"


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

    def format(self) -> str:
        kind = f"{self.supported_unit.letter} " if self.supported_unit else ""
        tail = f" - {place(self.target)}" if self.target else " H"
        return f"{self.head} S {kind}{place(self.supported)}{tail}"


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    """A convoy of the unit at ``army`` (an army, in the standard game; any kind the map
    lets be convoyed) to ``target``."""

    army: str  # where the convoyed unit stands
    target: str
    convoyed_unit: UnitKind | None = None  # as written; None if the order omitted it

    def format(self) -> str:
        kind = f"{self.convoyed_unit.letter} " if self.convoyed_unit else ""
        return f"{self.head} C {kind}{place(self.army)} - {place(self.target)}"


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    target: str

    def format(self) -> str:
        return f"{self.head} R {place(self.target)}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    def format(self) -> str:
        return f"{self.head} D"


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    def format(self) -> str:
        return f"Build {self.head}"

    def slot(self) -> Hashable | None:
        """The build site: one build there, of whichever kind was ordered last."""
        return ("unit", self.province)


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """A power declines one of its builds."""

    def format(self) -> str:
        return "Waive"


MovementOrder = Hold | Move | Support | Convoy
STANDARD_ORDERS = (Hold, Move, Support, Convoy, Retreat, Disband, Build, Waive)


def format_order(order: Order) -> str:
    """The order in the standard notation, e.g. ``F Nth C A Lon - Bel``."""
    return order.format()
