"""A game position: an immutable snapshot of units, centers and the phase.

Every phase produces a new Position and leaves the old one untouched, so history is a
list of snapshots and a what-if is one function call away.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, NamedTuple, Never, TypeVar

from mypy_extensions import mypyc_attr

from hegemon.board import OFFBOARD, Board, UnitKind, province_of


class Season:
    """A season of a variant's year: its name and its letter in phase codes. The standard
    game's are made here; a variant's setup names any other (`[game] seasons`, such as
    an Autumn), made once by `Season.named`: each name is one season, itself
    alone, compared by identity like `PhaseKind`, and hashed as an object (fast, compiled:
    every phase's lookup on the calendar hashes its season)."""

    # A plain class, not an enumeration: a variant's data adds seasons, and none of them
    # needs a core edit.
    SPRING: ClassVar[Season]
    SUMMER: ClassVar[Season]
    FALL: ClassVar[Season]
    WINTER: ClassVar[Season]

    def __init__(self, name: str, letter: str) -> None:
        self.name: Final = name
        self.letter: Final = letter  # in phase codes: S1901M

    @staticmethod
    def named(name: str, letter: str = "") -> Season:
        """The season of this name, made the first time it is named: its letter is the
        one given, or its name's first. A ValueError if the name is no word, or was made
        with another letter."""
        if not name.isalpha() or not (letter == "" or (len(letter) == 1 and letter.isalpha())):
            raise ValueError(f"a season is a name and a letter, not {name!r}, {letter!r}")
        wanted = (letter or name[0]).upper()
        # One step, so that two threads loading variants never make a season twice.
        season = _SEASONS.setdefault(name, Season(name, wanted))
        if letter and season.letter != wanted:
            raise ValueError(f"season {name} has the letter {season.letter}, not {letter}")
        return season

    def __repr__(self) -> str:
        return f"Season({self.name!r}, {self.letter!r})"

    def __str__(self) -> str:
        return self.name


_SEASONS: Final[dict[str, Season]] = {}  # every season made, by its name
Season.SPRING = Season.named("Spring")
Season.SUMMER = Season.named("Summer", "U")  # sUmmer, as S is taken
Season.FALL = Season.named("Fall")
Season.WINTER = Season.named("Winter")


class PhaseKind:
    """What a phase is called: its letter in phase codes and its name. How it is played
    is the business of the procedure a variant's calendar gives it (`hegemon.game`).
    Each kind is made once, like an enumeration's member, and is itself alone."""

    # A plain class, not a dataclass: compiled, a dataclass takes these for fields.
    MOVEMENT: ClassVar[PhaseKind]
    RETREAT: ClassVar[PhaseKind]
    ADJUSTMENT: ClassVar[PhaseKind]

    def __init__(self, code: str, name: str) -> None:
        self.code: Final = code
        self.name: Final = name

    def __repr__(self) -> str:
        return f"PhaseKind({self.code!r}, {self.name!r})"

    def __str__(self) -> str:
        return self.name


PhaseKind.MOVEMENT = PhaseKind("M", "Movement")
PhaseKind.RETREAT = PhaseKind("R", "Retreat")
PhaseKind.ADJUSTMENT = PhaseKind("A", "Adjustment")
STANDARD_PHASE_KINDS = (PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT)


# Its own `__init__`, as the standard orders have (hegemon.orders): compiled, a frozen
# dataclass's is a call into Python, and a phase is made by every calendar question.
@dataclass(frozen=True, slots=True, init=False)
class Phase:
    year: int
    season: Season
    kind: PhaseKind
    # Where the calendar that last asked found the phase (`Calendar._place`), kept with
    # the phase by that calendar: the phase machine asks after every phase, and the
    # calendar's own table is three lookups by objects Python hashes.
    placed: Any = field(default=None, init=False, repr=False, compare=False)

    def __init__(self, year: int, season: Season, kind: PhaseKind) -> None:
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "placed", None)

    def keep_placed(self, placed: Any) -> None:
        """Keep where a calendar found the phase (`placed`), replacing what was kept."""
        object.__setattr__(self, "placed", placed)

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.kind}"

    @property
    def code(self) -> str:
        """The compact name used in files and URLs, e.g. ``S1901M``."""
        return f"{self.season.letter}{self.year}{self.kind.code}"


class Unit:
    """A unit: whose it is, its kind and where it stands, with the units it carries. Made
    by `Unit(power, kind, location)` (or read from text: `read_unit`), changed into
    another by `moved_to` and `carrying`; immutable, and equal to any unit of the same
    parts."""

    # A plain class with final fields, not a NamedTuple: the compiled core makes one for
    # every unit that moves, and builds a compiled class several times faster than a
    # NamedTuple, whose constructor is a function written in Python.
    __slots__ = ("cargo", "location", "power", "province", "type")

    def __init__(
        self, power: str, type: UnitKind, location: str, cargo: tuple[Unit, ...] = ()
    ) -> None:
        self.power: Final = power
        self.type: Final = type
        self.location: Final = location  # a province id, "prov/coast", or OFFBOARD
        # Its province (OFFBOARD off the board), kept: menus ask it a thousand times a phase.
        self.province: Final = province_of(location)
        # Units of the same power aboard this one (a marine aboard its fleet), where a
        # variant's rules let one unit carry another (`BeyondRules.may_carry`). They stand
        # where their carrier stands (its province, or OFFBOARD) and go where it goes;
        # they hold no province (docs/writing-a-variant.md, "Units aboard and off the
        # board").
        self.cargo: Final = cargo

    def _parts(self) -> tuple[str, UnitKind, str, tuple[Unit, ...]]:
        return (self.power, self.type, self.location, self.cargo)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unit) and self._parts() == other._parts()

    def __hash__(self) -> int:
        # From the parts that tell units apart in any one position, whose hashes strings
        # keep: hashing every part (its kind's all its fields) cost thousands of steps.
        return hash(self.location) ^ hash(self.power)

    def __repr__(self) -> str:
        cargo = f", {self.cargo!r}" if self.cargo else ""
        return f"Unit({self.power!r}, {self.type.letter!r}, {self.location!r}{cargo})"

    def __str__(self) -> str:
        return f"{self.type.letter} {self.location}"

    def moved_to(self, location: str) -> Unit:
        """The same unit standing at `location`, with its cargo."""
        cargo = self.cargo
        if cargo:
            aboard = province_of(location)
            cargo = tuple([carried.moved_to(aboard) for carried in cargo])
        return Unit(self.power, self.type, location, cargo)

    def carrying(self, cargo: tuple[Unit, ...]) -> Unit:
        """The same unit with this cargo aboard, each placed where the unit stands."""
        aboard = self.province
        return Unit(
            self.power, self.type, self.location, tuple([u.moved_to(aboard) for u in cargo])
        )

    def aboard(self, kind: UnitKind) -> Unit | None:
        """The first unit of this kind aboard, if any: the one orders name ``M sao``."""
        for unit in self.cargo:
            if unit.type is kind or unit.type == kind:
                return unit
        return None


def read_unit(board: Board, power: str, text: str) -> Unit:
    """``"A par"`` or ``"F spa/nc"`` as a unit of `power`, with its cargo if written after
    it in brackets (``"F sao [M]"``); a ValueError says what is wrong."""
    written = board.unit_written(text)
    if written is not None:  # as `unit_text` writes it, without cargo: most units
        return Unit(power, written[0], written[1])
    text = str(text).strip()
    head, bracket, rest = text.partition("[")
    letter, _, location = head.strip().partition(" ")
    kind = _kind(board, letter, text)
    location = sys.intern(location.strip().lower())  # as the board's own ids are
    if not board.can_hold(kind, location):
        raise ValueError(f"unit {text!r}: {kind.plural} cannot stand in {location!r}")
    unit = Unit(power, kind, location)
    return unit.carrying(_cargo(board, power, rest, text)) if bracket else unit


def read_offboard_unit(board: Board, power: str, text: str) -> Unit:
    """``"F"`` or ``"F [M]"``: a unit of `power` off the board, with its cargo."""
    text = str(text).strip()
    head, bracket, rest = text.partition("[")
    unit = Unit(power, _kind(board, head.strip(), text), OFFBOARD)
    return unit.carrying(_cargo(board, power, rest, text)) if bracket else unit


def _kind(board: Board, letter: str, text: str) -> UnitKind:
    kind = board.kinds.get(letter.upper())
    if kind is None:
        raise ValueError(f"unit {text!r}: must start with {' or '.join(board.kinds)}")
    return kind


def _cargo(board: Board, power: str, inside: str, text: str) -> tuple[Unit, ...]:
    """The units written inside a unit's brackets, by their letters: ``M]`` or ``M A]``."""
    letters, closed, after = inside.partition("]")
    if not closed or after.strip() or not letters.split():
        raise ValueError(f"unit {text!r}: write its cargo as letters in brackets, e.g. [M]")
    return tuple(Unit(power, _kind(board, letter, text), "") for letter in letters.split())


def unit_text(unit: Unit) -> str:
    """A unit as positions write it, its cargo in brackets: ``F sao [M]``; off the board,
    its kind alone: ``F [M]`` (`read_unit`, `read_offboard_unit`)."""
    head = unit.type.letter if unit.location == OFFBOARD else str(unit)
    if not unit.cargo:
        return head
    return f"{head} [{' '.join(u.type.letter for u in unit.cargo)}]"


class Dislodgement(NamedTuple):
    """A unit dislodged in a movement phase, waiting to retreat or disband."""

    unit: Unit
    attacker_from: str | None  # province the dislodger came from; None if it was convoyed


K = TypeVar("K")
V = TypeVar("V")
S = TypeVar("S", bound="VariantState")


def _frozen(mapping: Mapping[K, V] | None = None) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping or {}))


def _view(mapping: dict[str, V]) -> Mapping[str, V]:
    """A read-only view of a copy of `mapping`; the one empty view if it is empty (most
    movement phases dislodge nobody): making a view is a call into Python's own type,
    which costs compiled code more than copying the dict."""
    return MappingProxyType(mapping.copy()) if mapping else _NOTHING


def editable(mapping: Mapping[K, V]) -> dict[K, V]:
    """A new dict of a position's mapping, to change and make the next position of. A
    position's mappings are read-only views of dicts, and a view's `copy` copies the dict
    beneath in one go, where `dict(view)` reads it key by key, several times slower."""
    if isinstance(mapping, MappingProxyType):
        return mapping.copy()
    return dict(mapping)


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a game: its game master, who sees everything, an observer, who
    sees what is public, or the player of one power."""

    power: str | None = None
    master: bool = False

    def sees(self, power: str) -> bool:
        """Whether this viewer may see what the rules keep between `power` and the GM."""
        return self.master or self.power == power

    def __str__(self) -> str:
        return "the game master" if self.master else self.power or "an observer"


MASTER = Viewer(master=True)
OBSERVER = Viewer()


@mypyc_attr(allow_interpreted_subclasses=True)  # variants make their own, in Python
class StateView:
    """What one viewer may see of a variant's state: a frozen dataclass deriving from this
    class, whose fields `hegemon.jsonio` writes as JSON by their names (mappings as
    objects, tuples and lists as lists, dataclasses as objects; a field that is None is
    left out). The board and the report read it by its attributes. One without fields
    shows nothing: the standard game's."""


@mypyc_attr(allow_interpreted_subclasses=True)  # variants keep their own, in Python
class VariantState(StateView):
    """What a variant keeps in a position beyond units and centers (the homes its powers
    have named, its influence ledger ...). A variant's state is a frozen dataclass
    deriving from this class; it says what each viewer may see of it (`view`). The game
    master's view holds everything, and is what a saved game keeps (the variant reads it
    back: `Variant.read_state`). A state is a view itself: its own, where nothing in it is
    secret and its fields are what its JSON says."""

    @classmethod
    def of(cls: type[S], position: Position) -> S:
        """The position's state, which must be of this class: a TypeError if the position
        is another variant's."""
        state = position.state
        if not isinstance(state, cls):
            raise TypeError(f"a position of another variant: {type(state).__name__}")
        return state

    def view(self, viewer: Viewer) -> StateView:
        """What `viewer` may see. Nothing is secret unless a variant says so."""
        return self

    def seen(self, viewer: Viewer) -> VariantState:
        """What `viewer` may know of the state, as a state the judge can play on: what a
        bot is given to think with (`hegemon.bots.Sight`). The view itself where it is a
        state; else the state, if the view hides nothing from this viewer. A state whose
        view of another shape hides something says what may be known here, or is refused:
        a secret is never handed on by default."""
        shown = self.view(viewer)
        if isinstance(shown, VariantState):
            return shown
        if shown != self.view(MASTER):
            raise TypeError(f"{type(self).__name__} has secrets and does not say what is seen")
        return self


NO_STATE = VariantState()  # the standard game keeps nothing more


_NOTHING: Mapping[str, Never] = MappingProxyType({})  # an empty mapping of any values


class Position:
    """Units by province, center owners by province, the phase, pending retreats, the
    units off the board, and the variant's own state."""

    # A plain class with final fields rather than a frozen dataclass: every phase makes a
    # few positions, and the compiled core builds and reads a plain class several times
    # faster. Immutable all the same: nothing assigns its fields once it is made.
    def __init__(
        self,
        phase: Phase,
        units: Mapping[str, Unit] = _NOTHING,
        centers: Mapping[str, str] = _NOTHING,
        dislodged: Mapping[str, Dislodgement] = _NOTHING,
        contested: frozenset[str] = frozenset(),  # standoffs: no retreat there
        state: VariantState = NO_STATE,
        center_counts: Mapping[str, int] | None = None,  # if known: those of `centers`
        offboard: tuple[Unit, ...] = (),  # units off the board, each at OFFBOARD
        unit_at: dict[str, Unit] | None = None,  # if known: the dict `units` is a view of
    ) -> None:
        self.phase: Final = phase
        self.units: Final = units
        self.centers: Final = centers
        self.dislodged: Final = dislodged
        self.contested: Final = contested
        self.state: Final = state
        self.offboard: Final = offboard
        self._center_counts = center_counts
        self._unit_at = unit_at  # read by `unit_in`; copied from `units` if not known
        self._beyond: bool | None = None  # memo of `beyond_the_board`
        self._convoying_fleets: frozenset[str] | None = None

    def _fields(self) -> tuple[object, ...]:
        return (
            self.phase,
            self.units,
            self.centers,
            self.dislodged,
            self.contested,
            self.state,
            self.offboard,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # equal by its mappings, which change not

    def __repr__(self) -> str:
        names = ("phase", "units", "centers", "dislodged", "contested", "state", "offboard")
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"Position({shown})"

    @staticmethod
    def create(
        phase: Phase,
        units: Mapping[str, Unit] | None = None,
        centers: Mapping[str, str] | None = None,
        dislodged: Mapping[str, Dislodgement] | None = None,
        contested: frozenset[str] = frozenset(),
        state: VariantState = NO_STATE,
        offboard: tuple[Unit, ...] = (),
    ) -> Position:
        unit_at = dict(units or {})
        frozen = (MappingProxyType(unit_at), _frozen(centers), _frozen(dislodged))
        return Position(phase, *frozen, contested, state, None, offboard, unit_at)

    def evolve(
        self,
        phase: Phase | None = None,
        units: dict[str, Unit] | None = None,
        centers: dict[str, str] | None = None,
        dislodged: dict[str, Dislodgement] | None = None,
        contested: frozenset[str] | None = None,
        state: VariantState | None = None,
        offboard: tuple[Unit, ...] | None = None,
        center_counts: dict[str, int] | None = None,  # with new centers: their counts, if known
    ) -> Position:
        """A new position with some fields replaced. Dicts given are copied (in one go, as
        `dict.copy` does, cheap beside the phase that built them): the caller may go on
        changing its own, and the position stays as it was made. `center_counts`, given
        with `centers`, are taken as they are: the caller's own, not to be changed."""
        shown, unit_at = self.units, self._unit_at
        if units is not None:
            unit_at = units.copy()
            shown = MappingProxyType(unit_at)
        return Position(
            self.phase if phase is None else phase,
            shown,
            self.centers if centers is None else _view(centers),
            self.dislodged if dislodged is None else _view(dislodged),
            self.contested if contested is None else contested,
            self.state if state is None else state,
            self._center_counts if centers is None else center_counts,  # the same centers, counts
            self.offboard if offboard is None else offboard,
            unit_at,
        )

    def after_moves(
        self,
        units: dict[str, Unit],
        dislodged: dict[str, Dislodgement],
        contested: frozenset[str],
        offboard: tuple[Unit, ...],
    ) -> Position:
        """The position after its movement phase is resolved: these units, dislodged units,
        standoffs and units off the board. The dicts are taken as they are, not copied as
        `evolve` copies them: the caller made them for it and changes them no more (a
        movement's result), and a copy of every unit's entry, made and freed again every
        phase, is work for nothing."""
        return Position(
            self.phase,
            MappingProxyType(units),
            self.centers,
            MappingProxyType(dislodged) if dislodged else _NOTHING,
            contested,
            self.state,
            self._center_counts,
            offboard,
            units,
        )

    @property
    def beyond_the_board(self) -> bool:
        """Whether any unit is off the board or aboard another: asked once a phase, so
        that the standard game, where none ever is, keeps its quicker paths."""
        beyond = self._beyond
        if beyond is None:
            beyond = self._beyond = bool(self.offboard) or any(
                unit.cargo for unit in self.units.values()
            )
        return beyond

    def offboard_unit(self, power: str, kind: UnitKind) -> Unit | None:
        """`power`'s first unit of this kind off the board, if any: the one orders name
        ``F OFFBOARD``."""
        for unit in self.offboard:
            if unit.power == power and (unit.type is kind or unit.type == kind):
                return unit
        return None

    def placed(self, unit: Unit) -> Position:
        """The position with `unit` put where it stands (OFFBOARD: off the board), in place
        of whatever stood in its province. With `removed`, how a variant moves units
        before the moves are resolved (a paratroop dropped onto the board)."""
        if unit.location == OFFBOARD:
            return self.evolve(offboard=(*self.offboard, unit))
        return self.evolve(units={**self.units, unit.province: unit})

    def removed(self, unit: Unit) -> Position:
        """The position without `unit` (a unit on the board, or off it)."""
        if unit.location == OFFBOARD:
            offboard = list(self.offboard)
            offboard.remove(unit)
            return self.evolve(offboard=tuple(offboard))
        units = dict(self.units)
        if units.get(unit.province) != unit:
            raise ValueError(f"{unit} is not on the board")
        del units[unit.province]
        return self.evolve(units=units)

    def editable_units(self) -> dict[str, Unit]:
        """A new dict of the units by province, to change (`editable`): copied from the
        dict beneath the view `units` where the position has it, which compiled code
        copies directly, where copying the view is a call into Python."""
        unit_at = self._unit_at
        return editable(self.units) if unit_at is None else unit_at.copy()

    def unit_in(self, province: str) -> Unit | None:
        """The unit standing in `province`, if any. Looked up in the dict beneath the
        read-only view `units`, which compiled code reads directly, where it reads a view
        through two calls: the legality of every order asks this."""
        unit_at = self._unit_at
        if unit_at is None:
            unit_at = self._unit_at = editable(self.units)
        return unit_at.get(province)

    @property
    def center_counts(self) -> Mapping[str, int]:
        """How many supply centers each owner holds: asked after every phase, and the
        same from phase to phase until centers change hands."""
        counts = self._center_counts
        if counts is None:
            # Counted in a loop, not by a Counter: its constructor is written in Python.
            counted: dict[str, int] = {}
            for owner in self.centers.values():
                counted[owner] = counted.get(owner, 0) + 1
            counts = self._center_counts = counted
        return counts

    @property
    def convoying_fleets(self) -> frozenset[str]:
        """Where the units stand that could carry a convoy, whatever their orders: worked
        out once, when first asked for."""
        fleets = self._convoying_fleets
        if fleets is None:
            fleets = self._convoying_fleets = frozenset(
                u.location for u in self.units.values() if u.type.convoys
            )
        return fleets

    @property
    def all_units(self) -> dict[str, Unit]:
        """Units on the board and units waiting to retreat, by province: whom orders name."""
        units = editable(self.units)  # not {**self.units}, which reads the view key by key
        for province, dislodgement in self.dislodged.items():
            units[province] = dislodgement.unit
        return units

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        return [c for c, owner in self.centers.items() if owner == power]
