"""Influence points (INFs), by Europe 1615's rules: pure functions of the INFs in a state.

Players deploy INFs into minor states, where they accumulate. Each phase, after the
deployments, the diplomatic attacks are resolved by mutual reduction, then every state's
status is decided: ALIGNED with the one power holding enough of its INFs, NEUTRAL on a
tie or without a majority, UNMARKED below the minimum. Religion is decided alike between
the Protestant and the Catholic powers' INFs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

Holdings = Mapping[str, Mapping[str, int]]  # state -> power -> INFs there


class Standing(StrEnum):
    ALIGNED = "ALIGNED"
    NEUTRAL = "NEUTRAL"
    UNMARKED = "UNMARKED"


# Writes its own `__init__` (init=False), as `hegemon.game.forms.Choice` does: compiled, the
# generated one is a Python call, and every state's status is judged every phase.
@dataclass(frozen=True, init=False)
class Status:
    standing: Standing
    patron: str | None = None  # the power a state is aligned with

    def __init__(self, standing: Standing, patron: str | None = None) -> None:
        object.__setattr__(self, "standing", standing)
        object.__setattr__(self, "patron", patron)


UNMARKED = Status(Standing.UNMARKED)
NEUTRAL = Status(Standing.NEUTRAL)


def deploy(
    holdings: dict[str, dict[str, int]], deployments: dict[str, dict[str, int]]
) -> dict[str, dict[str, int]]:
    """The INFs in each state once every power's deployments (power -> state -> INFs) are
    added to what was there. Dicts, each copied by its own `copy`, and a state's table
    made only where it has none: compiled, a Mapping's iteration and `dict()` of it are
    calls, and `setdefault` makes a table for every deployment."""
    result = {state: held.copy() for state, held in holdings.items()}
    for power, placed in deployments.items():
        for state, amount in placed.items():
            there = result.get(state)
            if there is None:
                there = result[state] = {}
            there[power] = there.get(power, 0) + amount
    return result


def attack_sequence(incomes: Mapping[str, int], previous: Sequence[str]) -> list[str]:
    """The order in which diplomatic attacks strike: least income first; ties as last year."""
    rank = {power: i for i, power in enumerate(previous)}
    return sorted(incomes, key=lambda p: (incomes[p], rank.get(p, len(rank)), p))


# Each writes its own `__init__` (init=False), as `Status` does: one of each is made for
# every diplomatic attack of every phase.
@dataclass(frozen=True, init=False)
class Attack:
    attacker: str
    state: str
    target: str

    def __init__(self, attacker: str, state: str, target: str) -> None:
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "target", target)


@dataclass(frozen=True, init=False)
class AttackResult:
    attack: Attack
    succeeded: bool
    removed: int  # INFs each side lost: the smaller holding, all of it
    before: Mapping[str, int]  # the state's INFs before this attack, revealed in the report

    def __init__(
        self, attack: Attack, succeeded: bool, removed: int, before: Mapping[str, int]
    ) -> None:
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "succeeded", succeeded)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "before", before)


def diplomatic_attacks(
    holdings: Holdings, attacks: Sequence[Attack], sequence: Sequence[str]
) -> tuple[dict[str, dict[str, int]], list[AttackResult]]:
    """Resolve the attacks in sequence by mutual reduction: the smaller holding is removed
    and the larger loses as much. An attacker or target with no INFs left there fails."""
    result = {state: dict(held) for state, held in holdings.items()}
    outcomes = []
    by_attacker = {a.attacker: a for a in attacks}
    for power in sequence:
        attack = by_attacker.get(power)
        if attack is None:
            continue
        there = result.setdefault(attack.state, {})
        before = dict(there)
        removed = min(there.get(attack.attacker, 0), there.get(attack.target, 0))
        if removed:
            there[attack.attacker] -= removed
            there[attack.target] -= removed
        outcomes.append(AttackResult(attack, removed > 0, removed, before))
    return result, outcomes


def political_status(
    held: dict[str, int], minimum: int, share: float, neutral_below_minimum: bool = False
) -> Status:
    """ALIGNED with the one power holding at least `share` percent of the state's INFs and
    at least `minimum` of them; UNMARKED (or NEUTRAL, for the Ottoman Empire and the
    Barbary States) with fewer than `minimum` INFs in all; NEUTRAL otherwise."""
    # One pass over a dict, not sum, max and a list of leaders over a Mapping: compiled,
    # each of those is a Python call, and every state is judged in every phase.
    total, top, leader, tied = 0, -1, "", False
    for power, amount in held.items():
        total += amount
        if amount > top:
            top, leader, tied = amount, power, False
        elif amount == top:
            tied = True
    if total < minimum:
        return NEUTRAL if neutral_below_minimum else UNMARKED
    if not tied and top >= minimum and 100 * top >= share * total:
        return Status(Standing.ALIGNED, leader)
    return NEUTRAL


def religious_control(
    held: dict[str, int], religion_of: dict[str, str], share: float, minimum: int = 10
) -> str | None:
    """The faction controlling the state: the one holding the majority of its INFs, at
    least `minimum` of them, and at least `share` percent; None if no faction does."""
    by_faction: dict[str, int] = {}
    total = 0
    for power, amount in held.items():
        faction = religion_of[power]
        by_faction[faction] = by_faction.get(faction, 0) + amount
        total += amount
    if not total:
        return None
    leader, amount = "", -1
    for faction, held_by in by_faction.items():  # the first of the largest, as `max` takes
        if held_by > amount:
            leader, amount = faction, held_by
    others = total - amount
    if amount > others and amount >= minimum and 100 * amount >= share * total:
        return leader
    return None


def shares(held: dict[str, int]) -> dict[str, int]:
    """Each power's percentage of the state's INFs, as the report publishes them: whole
    percents, rounded down as in the rules' example (two thirds of DUT is "66%")."""
    total = 0
    for amount in held.values():  # a loop: compiled, `sum` would be a Python call
        total += amount
    return {p: 100 * a // total for p, a in held.items() if a} if total else {}
