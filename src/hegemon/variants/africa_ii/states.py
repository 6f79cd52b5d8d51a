"""The African states of `setup.toml` (rules a.3, a.13, c.2, c.4), and the map of them as
it stands: which are states now, and each one's provinces and home centers.

A state `within` another (Namibia within the RSA, Biafra within Nigeria, Katanga within
Congo (Leopoldville)) is part of it, its provinces and centers the other's, until it
becomes independent: Namibia when declared (c.2) or re-established under the conquered
states rule (c.1, `conquerable`), a secession when the random event raises it (c.4).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from hegemon.board import Board


@dataclass(frozen=True)
class State:
    name: str
    label: str  # what its units carry on the board
    provinces: tuple[str, ...]  # its own territory
    centers: tuple[str, ...]  # its own home centers
    aliases: tuple[str, ...] = ()  # other names orders may give it
    within: str = ""  # the state it is part of until it is independent
    declared: bool = False  # c.2: the controller of `within` may declare it independent
    conquerable: bool = False  # c.2: a state of its own under c.1 even while within
    liberated: bool = False  # c.2: made a state by one power's guerillas on all its centers

    def called(self, spelling: str) -> bool:
        folded = spelling.strip().casefold()
        return folded in (n.casefold() for n in (self.name, *self.aliases))


def read_states(
    board: Board, setup: Mapping[str, Any], powers: Collection[str], problems: list[str]
) -> dict[str, State]:
    """Every state of the setup by name; each problem of the data is added to `problems`.
    (Untyped: the tables as TOML reads them.)"""
    states = {name: _state(board, name, spec, problems) for name, spec in setup.items()}
    spellings: dict[str, str] = {}
    for state in states.values():
        if state.within and state.within not in states:
            problems.append(f"state {state.name}: within {state.within!r}, not a state")
        for spelling in (state.name, *state.aliases):
            folded = spelling.casefold()
            if folded in spellings or any(folded == p.casefold() for p in powers):
                problems.append(f"state {state.name}: {spelling!r} names another already")
            spellings[folded] = state.name
    held = [p for s in states.values() for p in s.provinces]
    problems += [f"province {p!r} is in two states" for p in sorted(set(held)) if held.count(p) > 1]
    return states


# Untyped: the state's table as TOML reads it.
def _state(board: Board, name: str, spec: Mapping[str, Any], problems: list[str]) -> State:
    state = State(
        name=name,
        label=str(spec.get("label", name)),
        provinces=tuple(spec.get("provinces", ())),
        centers=tuple(spec.get("centers", ())),
        aliases=tuple(str(a) for a in spec.get("aliases", ())),
        within=str(spec.get("within", "")),
        declared=bool(spec.get("declared", False)),
        conquerable=bool(spec.get("conquerable", False)),
        liberated=bool(spec.get("liberated", False)),
    )
    for province in state.provinces:
        if province not in board.provinces or board.provinces[province].is_sea:
            problems.append(f"state {name}: {province!r} is not a land province")
    for center in state.centers:
        if center not in state.provinces or center not in board.centers:
            problems.append(f"state {name}: home {center!r} is not a center of its provinces")
    return state


@dataclass(frozen=True)
class Territory:
    """The states as they stand, given which of those `within` another are independent.
    What follows from that is worked out as it is made, all of it: a territory is made
    once for each set of independent states (`Book.territory`), and every part of it is
    asked of every Autumn."""

    states: Mapping[str, State]
    independent: frozenset[str]
    active: tuple[str, ...] = field(init=False, compare=False, repr=False)  # by name
    # The same as a set: whether a name is a state now is asked of every state every
    # Autumn, and of many orders.
    _active: frozenset[str] = field(init=False, compare=False, repr=False)
    # A dict, not a Mapping: compiled, `.get` on a Mapping is a method call by name, and
    # each unit's state is asked every Spring.
    province_state: dict[str, str] = field(init=False, compare=False, repr=False)
    # Each state's home centers now: its own and those of the states part of it.
    homes: Mapping[str, frozenset[str]] = field(init=False, compare=False, repr=False)
    _conquest_homes: Mapping[str, frozenset[str]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        states = self.states.values()
        active = frozenset(s.name for s in states if not s.within or s.name in self.independent)
        object.__setattr__(self, "_active", active)
        object.__setattr__(self, "active", tuple(sorted(active)))
        province_state = {p: self.sovereign(s.name) for s in states for p in s.provinces}
        object.__setattr__(self, "province_state", province_state)
        homes: dict[str, set[str]] = {name: set() for name in self.active}
        for state in states:
            homes[self.sovereign(state.name)].update(state.centers)
        object.__setattr__(self, "homes", {n: frozenset(c) for n, c in homes.items()})
        conquest = {name: self._conquest_homes_of(name) for name in self.states}
        object.__setattr__(self, "_conquest_homes", conquest)

    def is_active(self, name: str) -> bool:
        """Whether the name is a state's that is a state now: not part of another."""
        return name in self._active

    def sovereign(self, name: str) -> str:
        """The state a state's territory belongs to now: itself, or the one it is part of."""
        while not self.is_active(name):
            name = self.states[name].within
        return name

    def conquest_homes(self, name: str) -> frozenset[str]:
        """The centers whose loss conquers a state (c.1): its home centers but those of a
        state part of it that counts as a state of its own there (Namibia, c.2)."""
        return self._conquest_homes[name]

    def _conquest_homes_of(self, name: str) -> frozenset[str]:
        apart = {
            c
            for s in self.states.values()
            if s.conquerable and s.name != name and self.sovereign(s.name) == name
            for c in s.centers
        }
        home = self.homes[name] if self.is_active(name) else frozenset(self.states[name].centers)
        return home - apart
