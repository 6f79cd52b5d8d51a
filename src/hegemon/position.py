"""A game position: an immutable snapshot of units, centers and the phase.

Every phase produces a new Position and leaves the old one untouched, so history is a
list of snapshots and a what-if is one function call away.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple, TypeVar

from hegemon.board import Board, UnitKind, province_of


class Season(StrEnum):
    SPRING = "Spring"
    SUMMER = "Summer"
    FALL = "Fall"
    WINTER = "Winter"
    AUTUMN = "Autumn"  # the Fall, in a rulebook that calls it so (its phase codes: A...M)

    # Hashed as the string it equals (an Enum's own hash is a Python call): every
    # phase's lookup on the calendar hashes its season.
    __hash__ = str.__hash__

    @property
    def letter(self) -> str:
        """The season in a phase code: S, U (sUmmer, as S is taken), F, W, A."""
        return "U" if self is Season.SUMMER else self.value[0]


@dataclass(frozen=True, slots=True, eq=False)
class PhaseKind:
    """What a phase is called: its letter in phase codes and its name. How it is played
    is the business of the procedure a variant's calendar gives it (`hegemon.game`).
    Each kind is made once, like an enumeration's member, and is itself alone."""

    code: str
    name: str

    MOVEMENT: ClassVar[PhaseKind]
    RETREAT: ClassVar[PhaseKind]
    ADJUSTMENT: ClassVar[PhaseKind]

    def __str__(self) -> str:
        return self.name


PhaseKind.MOVEMENT = PhaseKind("M", "Movement")
PhaseKind.RETREAT = PhaseKind("R", "Retreat")
PhaseKind.ADJUSTMENT = PhaseKind("A", "Adjustment")
STANDARD_PHASE_KINDS = (PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT)


@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: Season
    kind: PhaseKind

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.kind}"

    @property
    def code(self) -> str:
        """The compact name used in files and URLs, e.g. ``S1901M``."""
        return f"{self.season.letter}{self.year}{self.kind.code}"


class Unit(NamedTuple):
    # NamedTuples, not frozen dataclasses, for units and dislodgements: just as immutable,
    # and about twice as fast to create, which the resolver does for every unit that moves.
    power: str
    type: UnitKind
    location: str  # a province id, or "prov/coast" for a fleet on a split coast

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.type.letter} {self.location}"


def read_unit(board: Board, power: str, text: str) -> Unit:
    """``"A par"`` or ``"F spa/nc"`` as a unit of `power`; a ValueError says what is wrong."""
    letter, _, location = str(text).strip().partition(" ")
    kind = board.kinds.get(letter.upper())
    if kind is None:
        raise ValueError(f"unit {text!r}: must start with {' or '.join(board.kinds)}")
    location = location.strip().lower()
    if not board.can_hold(kind, location):
        raise ValueError(f"unit {text!r}: {kind.plural} cannot stand in {location!r}")
    return Unit(power, kind, location)


class Dislodgement(NamedTuple):
    """A unit dislodged in a movement phase, waiting to retreat or disband."""

    unit: Unit
    attacker_from: str | None  # province the dislodger came from; None if it was convoyed


K = TypeVar("K")
V = TypeVar("V")


def _frozen(mapping: Mapping[K, V] | None = None) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping or {}))


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


class VariantState:
    """What a variant keeps in a position beyond units and centers (the homes its powers
    have named, its influence ledger ...). A variant's state is a frozen dataclass
    deriving from this class; it writes itself as JSON for the game master (`to_json`;
    the variant reads it back) and says what each viewer may see of it (`view`)."""

    def to_json(self) -> dict[str, Any]:
        """Everything, as JSON: what a saved game keeps."""
        return {}

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What `viewer` may see, as JSON. Nothing is secret unless a variant says so."""
        return self.to_json()


NO_STATE = VariantState()  # the standard game keeps nothing more


@dataclass(frozen=True)
class Position:
    """Units by province, center owners by province, the phase, pending retreats, and
    the variant's own state."""

    phase: Phase
    units: Mapping[str, Unit] = field(default_factory=_frozen)
    centers: Mapping[str, str] = field(default_factory=_frozen)
    dislodged: Mapping[str, Dislodgement] = field(default_factory=_frozen)
    contested: frozenset[str] = frozenset()  # standoffs: no retreat there
    state: VariantState = NO_STATE

    @staticmethod
    def create(
        phase: Phase,
        units: Mapping[str, Unit] | None = None,
        centers: Mapping[str, str] | None = None,
        dislodged: Mapping[str, Dislodgement] | None = None,
        contested: frozenset[str] = frozenset(),
        state: VariantState = NO_STATE,
    ) -> Position:
        return Position(
            phase, _frozen(units), _frozen(centers), _frozen(dislodged), contested, state
        )

    def evolve(
        self,
        phase: Phase | None = None,
        units: dict[str, Unit] | None = None,
        centers: dict[str, str] | None = None,
        dislodged: dict[str, Dislodgement] | None = None,
        contested: frozenset[str] | None = None,
        state: VariantState | None = None,
    ) -> Position:
        """A new position with some fields replaced. Dicts given are taken over, not copied:
        the caller must not change them afterwards."""
        # Filled in directly rather than through the frozen dataclass's __init__, which
        # sets each field by a call: every phase evolves a few positions.
        was = self.__dict__
        evolved = object.__new__(Position)
        evolved.__dict__.update(
            phase=was["phase"] if phase is None else phase,
            units=was["units"] if units is None else MappingProxyType(units),
            centers=was["centers"] if centers is None else MappingProxyType(centers),
            dislodged=was["dislodged"] if dislodged is None else MappingProxyType(dislodged),
            contested=was["contested"] if contested is None else contested,
            state=was["state"] if state is None else state,
        )
        if centers is None and "center_counts" in was:  # the same centers, the same counts
            evolved.__dict__["center_counts"] = was["center_counts"]
        return evolved

    @cached_property
    def center_counts(self) -> Mapping[str, int]:
        """How many supply centers each owner holds: asked after every phase, and the
        same from phase to phase until centers change hands."""
        return Counter(self.centers.values())

    @cached_property
    def convoying_fleets(self) -> frozenset[str]:
        """Where the units stand that could carry a convoy, whatever their orders."""
        return frozenset(u.location for u in self.units.values() if u.type.convoys)

    @property
    def all_units(self) -> dict[str, Unit]:
        """Units on the board and units waiting to retreat, by province: whom orders name."""
        return {**self.units, **{p: d.unit for p, d in self.dislodged.items()}}

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        return [c for c, owner in self.centers.items() if owner == power]
