"""What Africa II's data says beyond the map (its states, the numbers of its rules, the
intervention units each superpower places and the random events table), and what follows
from it for a position: the states as they stand, who commands whose units, and what each
superpower controls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hegemon.position import Position
from hegemon.variants.africa_ii.events import Event
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.states import State, Territory


@dataclass(frozen=True)
class Book:
    powers: tuple[str, ...] = ()  # the superpowers (rules a.2)
    states: Mapping[str, State] = field(default_factory=dict)  # by name
    events: Mapping[int, Event] = field(default_factory=dict)  # by number (c.4)
    base_income: int = 0  # a.6
    aid_cost: int = 0  # c.3
    state_vp: int = 0  # d.ii
    liberation_vp: int = 0  # d.ii
    upkeep_percent: int = 0  # b.3: of the revenue, for each of a marine and a paratroop
    guerilla_margin: int = 0  # b.12: the guerillas a power may have beyond their centers
    intervention: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # b.2, b.10
    _territories: dict[frozenset[str], Territory] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    # `centers_by_power` as last found, with the centers' counts and the control it was
    # found from: asked after every phase and every phase entered, while those two stay
    # the same objects for phases on end (a ledger replaced keeps its control). One entry,
    # replaced whole, so that games played side by side never mix; all of it public.
    _last_centers: list[tuple[Mapping[str, int], Mapping[str, str], Mapping[str, int]]] = field(
        default_factory=list, init=False, compare=False, repr=False
    )
    # Each province's state in the data: the one whose territory lists it.
    state_listing: Mapping[str, str] = field(init=False, compare=False, repr=False)
    # The states a superpower declares independent (c.2): asked every phase.
    declared: tuple[State, ...] = field(init=False, compare=False, repr=False)
    # The superpowers as a set: whether an owner is one is asked of every order and unit
    # of a phase (in the tuple, a comparison with each).
    superpowers: frozenset[str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        states = self.states.values()
        listing = {p: s.name for s in states for p in s.provinces}
        object.__setattr__(self, "state_listing", listing)
        object.__setattr__(self, "declared", tuple(s for s in states if s.declared))
        object.__setattr__(self, "superpowers", frozenset(self.powers))

    def territory(self, ledger: Ledger) -> Territory:
        """The states as the ledger has them: asked for every unit ordered, so kept."""
        independent = frozenset(ledger.independent)
        found = self._territories.get(independent)
        if found is None:
            found = self._territories[independent] = Territory(self.states, independent)
        return found

    def commander(self, ledger: Ledger, owner: str) -> str | None:
        """Whose orders an owner's units follow: a superpower its own (its intervention
        units); a state's, its controller's (a.5), none while it is uncontrolled or in
        civil war (a.11, a.12): its units stand unordered."""
        if owner in self.superpowers:
            return owner
        if owner in ledger.civil_wars:
            return None
        # Not `.get`: compiled, on a Mapping that is a method call by name, asked of every
        # owner ordered.
        control = ledger.control
        return control[owner] if owner in control else None  # noqa: SIM401

    def commanded_owners(self, ledger: Ledger, power: str) -> set[str]:
        """The owners whose units follow `power`'s orders (those it is the `commander` of):
        found from the states it controls, not by asking of every owner on the board."""
        owners = {s for s, c in ledger.control.items() if c == power and s not in self.superpowers}
        owners.difference_update(ledger.civil_wars)
        if power in self.superpowers:
            owners.add(power)
        return owners

    def centers_of(self, position: Position, power: str) -> int:
        """The supply centers a superpower controls: those of the states it controls, and
        any its own units hold (guerillas, b.12), for a claim of victory (d.i)."""
        ledger = Ledger.of(position)
        counts = position.center_counts
        return counts.get(power, 0) + sum(counts.get(s, 0) for s in ledger.controlled_by(power))

    def centers_by_power(self, position: Position) -> Mapping[str, int]:
        """`centers_of` every superpower, in one pass over the states controlled: asked
        after every phase, whether the game has ended."""
        counts, control = position.center_counts, Ledger.of(position).control
        last = self._last_centers
        if last and last[0][0] is counts and last[0][1] is control:
            return last[0][2]
        # Not `counts.get`: compiled, on a Mapping that is a method call by name.
        centers = {power: counts[power] if power in counts else 0 for power in self.powers}  # noqa: SIM401
        for state, controller in control.items():
            if controller in centers and state in counts:
                centers[controller] += counts[state]
        self._last_centers[:] = [(counts, control, centers)]
        return centers

    def income(self, position: Position, power: str) -> int:
        """The IPs a superpower gains in a year: 12, and one for each center held by a
        state under its influence (a.6), as its centers stand."""
        ledger = Ledger.of(position)
        counts = position.center_counts
        return self.base_income + sum(counts.get(s, 0) for s in ledger.controlled_by(power))

    def units_by_power(self, position: Position) -> dict[str, int]:
        """`units_of` every superpower, in one pass over the units: asked after every
        adjustment turn, whether the game has ended."""
        control = Ledger.of(position).control
        counts = dict.fromkeys(self.powers, 0)
        for unit in position.units.values():
            owner = unit.power
            controller = owner if owner in counts else control.get(owner)
            if controller is not None and controller in counts:
                counts[controller] += 1
        return counts

    def units_of(self, position: Position, power: str) -> int:
        """The units a superpower controls: its own and those of the states it controls
        (a.4: the game ends when one controls more than half the units on the board)."""
        controlled = {power, *Ledger.of(position).controlled_by(power)}
        return sum(1 for u in position.units.values() if u.power in controlled)

    def places(self, power: str, letter: str) -> bool:
        """Whether the superpower places intervention units of this kind (b.2, b.10)."""
        return letter in self.intervention.get(power, ())

    def guerilla_limit(self, position: Position, power: str) -> int:
        """The most guerillas a superpower may have: one more than the centers its
        guerillas hold (b.12), which are its own."""
        return self.guerilla_margin + position.center_counts.get(power, 0)
