"""Africa II's state of a position: the Influence Points held in each state, the revenue to
spend, who controls each state, and what the special rules and random events leave behind.

All of it is public: the holdings and the revenue are published on the game report (rules
a.6, a.7), and so is who controls what. What is secret is a power's spending until it is
adjudicated (a.9), which stays in its orders. So the ledger is every viewer's view of
itself (`VariantState.view`), written as JSON by its fields' names.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import TypedDict, TypeVar, Unpack

from hegemon.influence.saved import Check, FieldChecker
from hegemon.position import VariantState

Holdings = Mapping[str, Mapping[str, int]]  # state -> power -> IPs held there
V = TypeVar("V")


@dataclass(frozen=True)
class Ledger(VariantState):
    """Never changed in place: `replace` it (`Ledger.replace`)."""

    holdings: Holdings  # rules a.7, a.8, a.10
    revenue: Mapping[str, int]  # power -> IPs to spend at the next IP phase (a.6)
    control: Mapping[str, str]  # state -> its controller until the next IP phase (a.11)
    independent: tuple[str, ...]  # states `within` another that are states now (c.2, c.4)
    rights: Mapping[str, str]  # state -> the ousted controller who may declare civil war (a.12)
    civil_wars: Mapping[str, str]  # state -> who declared it: its units stand (a.12)
    aid: Mapping[str, Mapping[str, int]]  # state -> power -> centers' worth of aid (c.3)
    events: tuple[int, ...]  # the random events rolled so far, in order (c.4)
    event: int  # this year's random event, 0 for none: it lasts until the next Spring
    doubled: tuple[str, ...]  # states where IPs spent at the next IP phase count double
    liberator: str  # the power that liberated Namibia, "" for none (c.2, d.ii)
    adjusted: int  # the year whose Autumn adjustments just ended; 0 once a phase is played
    reviewed: int  # the year whose Spring IP phase ("Spring Adjustments") just ended; likewise
    news: tuple[str, ...]  # what happened between phases, told by the reports that follow
    # The intervention units (part b):
    lost: Mapping[str, tuple[str, ...]]  # power -> the kinds it lost for good (b.9)
    raising: Mapping[str, tuple[str, ...]]  # province -> who raises a guerilla there (b.11)
    disbanding: Mapping[str, str]  # province -> whose guerilla there is disbanded (b.11)
    deployed: Mapping[str, tuple[str, ...]]  # power -> its kinds with upkeep this Spring (b.3)
    operating: Mapping[str, tuple[str, ...]]  # power -> states of its guerillas this Spring (b.10)
    doubled_for: Mapping[str, tuple[str, ...]]  # power -> states its next spending doubles (c.2)
    # state -> the powers holding IPs there as published, before this IP phase's halving:
    # a.12's "previously holding no IPs" is read from it; empty outside the IP phase
    held_before: Mapping[str, tuple[str, ...]]

    @classmethod
    def start(cls, revenue: Mapping[str, int]) -> Ledger:
        """A game's start: nothing held or controlled, the first Spring's revenue (a.6)."""
        return cls(
            holdings={}, revenue=revenue, control={}, independent=(), rights={},
            civil_wars={}, aid={}, events=(), event=0, doubled=(), liberator="", adjusted=0,
            reviewed=0, news=(), lost={}, raising={}, disbanding={}, deployed={}, operating={},
            doubled_for={}, held_before={},
        )  # fmt: skip

    def replace(self, **changes: Unpack[Changes]) -> Ledger:
        """A copy with `changes`, as `dataclasses.replace` makes it: without its work for
        each of the many fields (some ten times the cost), nor a call of the generated
        `__init__` (compiled, a Python call), where a ledger is replaced several times a
        phase. Every field is copied, then the few changed are set by name: compiled,
        each `object.__setattr__` with the field's name written out is a store in place,
        where looking every field up among the changes cost more than the copy."""
        copy = Ledger.__new__(Ledger)
        object.__setattr__(copy, "holdings", self.holdings)
        object.__setattr__(copy, "revenue", self.revenue)
        object.__setattr__(copy, "control", self.control)
        object.__setattr__(copy, "independent", self.independent)
        object.__setattr__(copy, "rights", self.rights)
        object.__setattr__(copy, "civil_wars", self.civil_wars)
        object.__setattr__(copy, "aid", self.aid)
        object.__setattr__(copy, "events", self.events)
        object.__setattr__(copy, "event", self.event)
        object.__setattr__(copy, "doubled", self.doubled)
        object.__setattr__(copy, "liberator", self.liberator)
        object.__setattr__(copy, "adjusted", self.adjusted)
        object.__setattr__(copy, "reviewed", self.reviewed)
        object.__setattr__(copy, "news", self.news)
        object.__setattr__(copy, "lost", self.lost)
        object.__setattr__(copy, "raising", self.raising)
        object.__setattr__(copy, "disbanding", self.disbanding)
        object.__setattr__(copy, "deployed", self.deployed)
        object.__setattr__(copy, "operating", self.operating)
        object.__setattr__(copy, "doubled_for", self.doubled_for)
        object.__setattr__(copy, "held_before", self.held_before)
        for name, value in changes.items():
            object.__setattr__(copy, name, value)
        return copy

    def held(self, state: str, power: str) -> int:
        return self.holdings.get(state, {}).get(power, 0)

    def controlled_by(self, power: str) -> list[str]:
        return sorted(s for s, p in self.control.items() if p == power)

    def aid_given(self, power: str) -> int:
        """The centers' worth of aid a power gives this year."""
        return sum(given.get(power, 0) for given in self.aid.values())

    def aid_to(self, state: str) -> int:
        return sum(self.aid.get(state, {}).values())

    # --- JSON -----------------------------------------------------------------------
    @classmethod
    def from_json(
        cls, data: Mapping[str, object], powers: Collection[str], states: Collection[str]
    ) -> Ledger:
        """The ledger as saved; a ValueError names the first part that is wrong."""
        check = _Checker(powers, states)
        check.fields(data, [f.name for f in fields(cls)], only=True)
        return cls(
            holdings=check.table("holdings", data["holdings"], check.state, check.count_by_power),
            revenue=check.table("revenue", data["revenue"], check.power, check.count),
            control=check.table("control", data["control"], check.state, check.power),
            independent=check.tuple_of("independent", data["independent"], check.state),
            rights=check.table("rights", data["rights"], check.state, check.power),
            civil_wars=check.table("civil_wars", data["civil_wars"], check.state, check.power),
            aid=check.table("aid", data["aid"], check.state, check.count_by_power),
            events=check.tuple_of("events", data["events"], check.count),
            event=check.count("event", data["event"]),
            doubled=check.tuple_of("doubled", data["doubled"], check.state),
            liberator=check.power_or_none("liberator", data["liberator"]),
            adjusted=check.count("adjusted", data["adjusted"]),
            reviewed=check.count("reviewed", data["reviewed"]),
            news=check.tuple_of("news", data["news"], check.text),
            lost=check.table("lost", data["lost"], check.power, check.letters),
            raising=check.table("raising", data["raising"], check.text, check.power_list),
            disbanding=check.table("disbanding", data["disbanding"], check.text, check.power),
            deployed=check.table("deployed", data["deployed"], check.power, check.letters),
            operating=check.table("operating", data["operating"], check.power, check.state_list),
            doubled_for=check.table(
                "doubled_for", data["doubled_for"], check.power, check.state_list
            ),
            held_before=check.table(
                "held_before", data["held_before"], check.state, check.power_list
            ),
        )


class Changes(TypedDict, total=False):
    """The fields of a `Ledger`, any of them, for `Ledger.replace`."""

    holdings: Holdings
    revenue: Mapping[str, int]
    control: Mapping[str, str]
    independent: tuple[str, ...]
    rights: Mapping[str, str]
    civil_wars: Mapping[str, str]
    aid: Mapping[str, Mapping[str, int]]
    events: tuple[int, ...]
    event: int
    doubled: tuple[str, ...]
    liberator: str
    adjusted: int
    reviewed: int
    news: tuple[str, ...]
    lost: Mapping[str, tuple[str, ...]]
    raising: Mapping[str, tuple[str, ...]]
    disbanding: Mapping[str, str]
    deployed: Mapping[str, tuple[str, ...]]
    operating: Mapping[str, tuple[str, ...]]
    doubled_for: Mapping[str, tuple[str, ...]]
    held_before: Mapping[str, tuple[str, ...]]


def without(table: Mapping[str, V], key: str) -> dict[str, V]:
    """A copy of the table without the key (a state's entry, once it is gone or new)."""
    return {k: value for k, value in table.items() if k != key}


class _Checker(FieldChecker):
    def __init__(self, powers: Collection[str], states: Collection[str]) -> None:
        super().__init__("state", powers, states)

    def power_or_none(self, where: str, value: object) -> str:
        return "" if value == "" else self.power(where, value)

    def tuple_of(self, where: str, value: object, item: Check[V]) -> tuple[V, ...]:
        return tuple(self.names(where, value, item))

    def letters(self, where: str, value: object) -> tuple[str, ...]:
        return self.tuple_of(where, value, self.text)

    def power_list(self, where: str, value: object) -> tuple[str, ...]:
        return self.tuple_of(where, value, self.power)

    def state_list(self, where: str, value: object) -> tuple[str, ...]:
        return self.tuple_of(where, value, self.state)
