"""Orders: the protocol every kind of order follows, and the standard orders.

An order names its unit by kind and location, as players write it; it does not know the
position. Matching an order to the unit it commands is the job of `legality`.

Every kind of order formats itself (`Order.format`) and says how long it stays secret
(`Order.secrecy`). The standard orders are read by the parser of `hegemon.notation`; any
other kind (a bid, an influence deployment, a placement) also reads itself
(`Order.read`) and lives in the module that defines its economy or its variant, which
lists it among the kinds of order the variant accepts.

A unit's order for a movement phase of a kind outside the standard four (Hold, Move,
Support, Convoy), which the resolver decides itself, is an `OwnOrder`: it checks and
decides itself through the protocol the resolver calls on it (as godip's `Adjudicator`;
docs/writing-a-variant.md, "Orders that adjudicate themselves").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Final, Self

from mypy_extensions import mypyc_attr

from hegemon.board import OFFBOARD, Board, UnitKind, province_of
from hegemon.position import Unit

if TYPE_CHECKING:  # the resolver's records and faces, which call on the kinds of their own
    from hegemon.adjudication.movement import Record, Resolver, Settling
    from hegemon.position import Position
    from hegemon.reasons import Why
    from hegemon.rules import Rules


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


def unit_name(letter: str, location: str) -> str:
    """A unit of the kind with `letter` at `location`, as orders, reports and menus name
    it: ``A Par``, ``F Stp/sc``."""
    # Kept by letter, then location (two lookups by a string cost less than one by a
    # tuple): reports and menus name most units many times, phase after phase.
    names = _NAMED.get(letter)
    if names is None:
        names = _NAMED[letter] = {}
    name = names.get(location)
    if name is None:
        name = f"{letter} {place(location)}"
        if len(names) < _PLACES_KEPT:
            names[location] = name
    return name


# The units' names made so far, bounded as the places are.
_NAMED: Final[dict[str, dict[str, str]]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # for the variants' `OwnOrder` kinds
@dataclass(frozen=True, slots=True)
class UnitOrder(Order):
    unit: UnitKind
    location: str
    # Kept rather than derived: adjudication reads it for every order, many times.
    province: str = field(init=False, repr=False, compare=False)

    # The standard kinds write their `__init__` out rather than have `@dataclass` write it:
    # that one stays a Python function setting each field by a call, even compiled, where
    # theirs set them in place through this, some eight times faster
    # (docs/compiled-core.md); every order read or offered is made so. Not an `__init__`
    # here: compiled, every subclass would inherit it in place of its generated one (the
    # own kinds, `Embark`), which calls `__post_init__`.
    def _stand(self, unit: UnitKind, location: str) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "province", province_of(location))

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    # The standard kinds compare and hash by these, rather than by what `@dataclass`
    # writes (`eq=False` on each): those stay Python functions even compiled, some ten
    # times slower, and orders are kept in sets and dicts all through adjudication (a
    # Diplomacy Point tally counts the points on each). The same as `@dataclass`'s: equal
    # when of the same class with equal fields (`_fields`), hashed as their tuple.
    # `OwnOrder`'s kinds compare all their fields likewise.
    def _fields(self) -> tuple[object, ...]:
        """The fields that tell orders of this kind apart (those `compare`d)."""
        return (self.unit, self.location)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self) or not isinstance(other, UnitOrder):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @property
    def head(self) -> str:
        """The unit as the order names it: ``A Par``."""
        return unit_name(self.unit.letter, self.location)

    def slot(self) -> Hashable | None:
        """The unit's province and kind: one order per unit. The kind tells a carrier from
        the unit aboard it (``F Sao``, ``M Sao``) and a power's units off the board apart
        (``F OFFBOARD``, ``P OFFBOARD``)."""
        return ("unit", self.province, self.unit.letter)


@dataclass(frozen=True, slots=True, eq=False)
class Hold(UnitOrder):
    def __init__(self, unit: UnitKind, location: str) -> None:
        self._stand(unit, location)

    def format(self) -> str:
        return f"{self.head} H"


@dataclass(frozen=True, slots=True, eq=False)
class Move(UnitOrder):
    target: str
    via_convoy: bool = False
    destination: str = field(init=False, repr=False, compare=False)  # the target's province

    def __init__(
        self, unit: UnitKind, location: str, target: str, via_convoy: bool = False
    ) -> None:
        self._stand(unit, location)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "via_convoy", via_convoy)
        object.__setattr__(self, "destination", province_of(target))

    def _fields(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.target, self.via_convoy)

    def format(self) -> str:
        return f"{self.head} - {place(self.target)}" + (" via Convoy" if self.via_convoy else "")


@dataclass(frozen=True, slots=True, eq=False)
class Support(UnitOrder):
    """Support to hold (``target`` is None) or to move from ``supported`` to ``target``."""

    supported: str
    target: str | None = None
    supported_unit: UnitKind | None = None  # as written; None if the order omitted it
    destination: str | None = field(init=False, repr=False, compare=False)  # target's province

    def __init__(
        self,
        unit: UnitKind,
        location: str,
        supported: str,
        target: str | None = None,
        supported_unit: UnitKind | None = None,
    ) -> None:
        self._stand(unit, location)
        object.__setattr__(self, "supported", supported)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "supported_unit", supported_unit)
        object.__setattr__(self, "destination", None if target is None else province_of(target))

    def _fields(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.supported, self.target, self.supported_unit)

    def format(self) -> str:
        kind = f"{self.supported_unit.letter} " if self.supported_unit else ""
        tail = f" - {place(self.target)}" if self.target else " H"
        return f"{self.head} S {kind}{place(self.supported)}{tail}"


@dataclass(frozen=True, slots=True, eq=False)
class Convoy(UnitOrder):
    """A convoy of the unit at ``army`` (an army, in the standard game; any kind the map
    lets be convoyed) to ``target``."""

    army: str  # where the convoyed unit stands
    target: str
    convoyed_unit: UnitKind | None = None  # as written; None if the order omitted it

    def __init__(
        self,
        unit: UnitKind,
        location: str,
        army: str,
        target: str,
        convoyed_unit: UnitKind | None = None,
    ) -> None:
        self._stand(unit, location)
        object.__setattr__(self, "army", army)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "convoyed_unit", convoyed_unit)

    def _fields(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.army, self.target, self.convoyed_unit)

    def format(self) -> str:
        kind = f"{self.convoyed_unit.letter} " if self.convoyed_unit else ""
        return f"{self.head} C {kind}{place(self.army)} - {place(self.target)}"


@dataclass(frozen=True, slots=True, eq=False)
class Retreat(UnitOrder):
    target: str

    def __init__(self, unit: UnitKind, location: str, target: str) -> None:
        self._stand(unit, location)
        object.__setattr__(self, "target", target)

    def _fields(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.target)

    def format(self) -> str:
        return f"{self.head} R {place(self.target)}"


@dataclass(frozen=True, slots=True, eq=False)
class Disband(UnitOrder):
    def __init__(self, unit: UnitKind, location: str) -> None:
        self._stand(unit, location)

    def format(self) -> str:
        return f"{self.head} D"


@dataclass(frozen=True, slots=True, eq=False)
class Build(UnitOrder):
    def __init__(self, unit: UnitKind, location: str) -> None:
        self._stand(unit, location)

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


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why an order may not be given, in words a player understands."""

    reason: str


@mypyc_attr(allow_interpreted_subclasses=True)  # the variants' own kinds, in Python
@dataclass(frozen=True, slots=True)
class OwnOrder(UnitOrder):
    """A unit's movement-phase order of a kind outside the standard four, which decides
    itself. Its record (`Record`) is the resolver's, like every unit's; the methods below
    are called in the resolver's steps, in this order. It never dislodges a unit, is never
    supported, never meets a unit head to head; in a cycle of decisions that has no single
    answer it fails (as a convoy paradox fails its convoyed army)."""

    def _fields(self) -> tuple[object, ...]:
        """Every compared field of its kind, whatever they are: a compiled kind inherits
        `UnitOrder`'s equality and hash where `@dataclass` writes none for it, and so must
        compare them all (a kind in Python has `@dataclass`'s own, to the same effect)."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.compare)

    def check(
        self, board: Board, position: Position, unit: Unit, rules: Rules
    ) -> OwnOrder | Illegal:
        """The order in its normal form for `unit`, the unit it commands (legality), or why
        it may not be given."""
        raise NotImplementedError(type(self).__name__)

    def index(self, record: Record, resolver: Resolver) -> None:
        """Link the record with what deciding it reads: set `record.target` where it goes
        (it then counts as moving away: a move into its province waits for its decision),
        and the records it depends on (`resolver.record_in`, `resolver.contest`); or settle
        it at once (`record.decided`)."""

    def decide(self, record: Record, resolver: Resolver) -> bool:
        """Whether it succeeds, asking the resolver for the decisions it depends on
        (`resolver.resolve`, `resolver.dislodged`)."""
        raise NotImplementedError(type(self).__name__)

    def settle(self, record: Record, unit: Unit, settling: Settling) -> None:
        """Where its unit (`unit`: as it ends the phase, without the units aboard that
        left it) ends the phase, once it succeeded. Failed, it stays, like a failed move."""
        raise NotImplementedError(type(self).__name__)

    def explain(self, record: Record, resolver: Resolver) -> tuple[bool, Why, tuple[str, ...]]:
        """Its fate for the report: whether it succeeded, why (a typed reason, its own as a
        `hegemon.reasons.VariantReason` if none of the core's fits), the units that decided
        it (as `resolver.label` names them). Called after every decision is settled."""
        raise NotImplementedError(type(self).__name__)


MovementOrder = Hold | Move | Support | Convoy | OwnOrder  # orders of a movement phase
STANDARD_ORDERS = (Hold, Move, Support, Convoy, Retreat, Disband, Build, Waive)


def format_order(order: Order) -> str:
    """The order in the standard notation, e.g. ``F Nth C A Lon - Bel``."""
    return order.format()
