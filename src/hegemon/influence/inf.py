"""Influence points (INFs), by Europe 1615's rules: pure functions of the INFs in a state.

Players deploy INFs into minor states, where they accumulate. Each phase, after the
deployments, the diplomatic attacks are resolved by mutual reduction, then every state's
status is decided: ALIGNED with the one power holding enough of its INFs, NEUTRAL on a
tie or without a majority, UNMARKED below the minimum. Religion is decided alike between
the Protestant and the Catholic powers' INFs.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, NamedTuple, Self

from hegemon.notation import POINTS, OrderSyntaxError, read_points
from hegemon.orders import Order, ReadContext, Secrecy

_DEPLOY = re.compile(rf"^\s*({POINTS})\s*:\s*(.*?)\s*$")  # ``5:`` too, to say what it lacks
_ATTACK = re.compile(r"^\s*([A-Za-z][A-Za-z .']*?)\s*>\s*(.+?)\s*$")  # never "A par -> bur"


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


PointsKind = type[Deploy]  # a kind of points placed in states: INFs, or a variant's own


def points_kind(kinds: Iterable[type[Order]]) -> PointsKind | None:
    """The kind of points placed in states among these kinds of order (INFs, or a
    variant's own, such as Africa II's IPs), if any."""
    return next((k for k in kinds if issubclass(k, Deploy)), None)


def states_of(orders: Iterable[Order]) -> set[str]:
    """The states these orders place points in."""
    return {o.state for o in orders if isinstance(o, Deploy)}


def takes_attacks(kinds: Iterable[type[Order]]) -> bool:
    """Whether a phase taking these kinds of order takes diplomatic attacks."""
    return DiplomaticAttack in kinds


Holdings = Mapping[str, Mapping[str, int]]  # state -> power -> INFs there


class Standing(StrEnum):
    ALIGNED = "ALIGNED"
    NEUTRAL = "NEUTRAL"
    UNMARKED = "UNMARKED"


@dataclass(frozen=True)
class Status:
    standing: Standing
    patron: str | None = None  # the power a state is aligned with


UNMARKED = Status(Standing.UNMARKED)
NEUTRAL = Status(Standing.NEUTRAL)


def deploy(
    holdings: Holdings, deployments: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """The INFs in each state once every power's deployments (power -> state -> INFs) are
    added to what was there."""
    result = {state: dict(held) for state, held in holdings.items()}
    for power, placed in deployments.items():
        for state, amount in placed.items():
            there = result.setdefault(state, {})
            there[power] = there.get(power, 0) + amount
    return result


def attack_sequence(incomes: Mapping[str, int], previous: Sequence[str]) -> list[str]:
    """The order in which diplomatic attacks strike: least income first; ties as last year."""
    rank = {power: i for i, power in enumerate(previous)}
    return sorted(incomes, key=lambda p: (incomes[p], rank.get(p, len(rank)), p))


@dataclass(frozen=True)
class Attack:
    attacker: str
    state: str
    target: str


@dataclass(frozen=True)
class AttackResult:
    attack: Attack
    succeeded: bool
    removed: int  # INFs each side lost: the smaller holding, all of it
    before: Mapping[str, int]  # the state's INFs before this attack, revealed in the report


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
    held: Mapping[str, int], minimum: int, share: float, neutral_below_minimum: bool = False
) -> Status:
    """ALIGNED with the one power holding at least `share` percent of the state's INFs and
    at least `minimum` of them; UNMARKED (or NEUTRAL, for the Ottoman Empire and the
    Barbary States) with fewer than `minimum` INFs in all; NEUTRAL otherwise."""
    total = sum(held.values())
    if total < minimum:
        return NEUTRAL if neutral_below_minimum else UNMARKED
    top = max(held.values())
    leaders = [power for power, amount in held.items() if amount == top]
    if len(leaders) == 1 and top >= minimum and 100 * top >= share * total:
        return Status(Standing.ALIGNED, leaders[0])
    return NEUTRAL


def religious_control(
    held: Mapping[str, int], religion_of: Mapping[str, str], share: float, minimum: int = 10
) -> str | None:
    """The faction controlling the state: the one holding the majority of its INFs, at
    least `minimum` of them, and at least `share` percent; None if no faction does."""
    by_faction: dict[str, int] = {}
    for power, amount in held.items():
        faction = religion_of[power]
        by_faction[faction] = by_faction.get(faction, 0) + amount
    total = sum(by_faction.values())
    if not total:
        return None
    leader, amount = max(by_faction.items(), key=lambda item: item[1])
    others = total - amount
    if amount > others and amount >= minimum and 100 * amount >= share * total:
        return leader
    return None


def shares(held: Mapping[str, int]) -> dict[str, int]:
    """Each power's percentage of the state's INFs, as the report publishes them: whole
    percents, rounded down as in the rules' example (two thirds of DUT is "66%")."""
    total = sum(held.values())
    return {p: 100 * a // total for p, a in held.items() if a} if total else {}
