"""Europe 1615's state of a position: the ledger of influence, statuses and scores.

The game master's copy holds everything; a player sees the INFs and the spending of its
own power only, each state's shares instead of its numbers, and the Ottoman Empire's
patron only if it is that patron (rules: STATUS, "The GM keeps the aligned major power
for the Ottoman Empire secret"; DIPLOMATIC ATTACK: numbers are revealed only where an
attack takes place, which the report does). Victory points that hang on who the
Empire's patron is are kept apart, for their power's eyes, until the game ends.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields, replace
from typing import Final, NamedTuple, TypedDict, Unpack

from hegemon.influence.inf import Standing, shares
from hegemon.influence.saved import FieldChecker
from hegemon.position import StateView, VariantState, Viewer

# Final: compiled, a module's constant read in every phase is then no lookup in its dict.
OTTOMAN: Final = "ote"
PROTESTANT: Final = "Protestant"
CATHOLIC: Final = "Catholic"
ISLAMIC: Final = "Islamic"
_STANDINGS: Final[Mapping[str, Standing]] = {standing.value: standing for standing in Standing}
# As the ledger writes them: compiled, text against text is compared natively, where a
# member of the enumeration is first looked up on its class.
_NEUTRAL: Final[str] = Standing.NEUTRAL.value
_ALIGNED: Final[str] = Standing.ALIGNED.value


class Award(NamedTuple):
    """What one scoring gave a power for one thing: in JSON ``[year, what for, VPs]``, e.g.
    ``[1616, "Saxony aligned, Catholic", 295]``."""

    year: int
    what: str
    points: int


@dataclass(frozen=True)
class Ledger(VariantState):
    """The influence state of a position. Never changed in place: `replace` it."""

    inf: dict[str, dict[str, int]]  # state -> power -> INFs there
    spent: dict[str, int]  # INFs each power deployed this year
    income: dict[str, int]  # this year's INFs of each power
    attacked: list[str]  # powers that made their diplomatic attack this year
    sequence: list[str]  # this year's order of diplomatic attacks
    captured: list[str]  # states withdrawn from the list
    status: dict[str, list[str | None]]  # state -> [standing, patron]
    religion: dict[str, str]  # state -> faction controlling it
    vp: dict[str, int]  # each power's public total: the sum of its awards
    allies: list[list[str]]  # declared alliances (pairs)
    offers: dict[str, str]  # power -> the power it offered an alliance
    waived: dict[str, list[str]]  # power -> provinces whose capture it waives this winter
    eliminated: list[str]
    annexed: dict[str, str]  # province without a center -> the power that annexed it
    secret_annexed: dict[
        str, str
    ]  # the same, for the Empire's provinces while its patron is secret
    awards: dict[str, list[Award]]  # power -> what each scoring gave it, in public
    secret_awards: dict[str, list[Award]]  # power -> awards that name the Empire's patron
    year_end: list[str]  # what the last build phase did, for the reports that follow it

    def replace(self, **changes: Unpack[Changes]) -> Ledger:
        """A copy with `changes`, as `dataclasses.replace` makes it: without its work for
        each of the many fields, nor a call of the generated `__init__` (compiled, a
        Python call), where a ledger is replaced several times a phase. A viewer's
        ledger (`SeenLedger`) has more to copy: that one is replaced as any dataclass."""
        if type(self) is not Ledger:
            return replace(self, **changes)
        copy = Ledger.__new__(Ledger)
        _set(copy, "inf", changes.get("inf", self.inf))
        _set(copy, "spent", changes.get("spent", self.spent))
        _set(copy, "income", changes.get("income", self.income))
        _set(copy, "attacked", changes.get("attacked", self.attacked))
        _set(copy, "sequence", changes.get("sequence", self.sequence))
        _set(copy, "captured", changes.get("captured", self.captured))
        _set(copy, "status", changes.get("status", self.status))
        _set(copy, "religion", changes.get("religion", self.religion))
        _set(copy, "vp", changes.get("vp", self.vp))
        _set(copy, "allies", changes.get("allies", self.allies))
        _set(copy, "offers", changes.get("offers", self.offers))
        _set(copy, "waived", changes.get("waived", self.waived))
        _set(copy, "eliminated", changes.get("eliminated", self.eliminated))
        _set(copy, "annexed", changes.get("annexed", self.annexed))
        _set(copy, "secret_annexed", changes.get("secret_annexed", self.secret_annexed))
        _set(copy, "awards", changes.get("awards", self.awards))
        _set(copy, "secret_awards", changes.get("secret_awards", self.secret_awards))
        _set(copy, "year_end", changes.get("year_end", self.year_end))
        return copy

    def standing(self, state: str) -> Standing:
        entry = self.status.get(state)
        # A dict's lookup, not a call of Standing: asked many times in every phase, and
        # the enumeration's call costs several times as much.
        return _STANDINGS[entry[0] or "UNMARKED"] if entry else Standing.UNMARKED

    def neutral(self) -> frozenset[str]:
        """The states NEUTRAL and not captured, which only their own units may enter (the
        rules of a phase ask once: `EuropeRules`)."""
        captured = self.captured
        # Each entry's standing compared as text, not made a Standing for every state; a
        # set filled in a loop, where compiled a generator is a call for every state.
        neutral = set()
        for state, entry in self.status.items():
            if entry[0] == _NEUTRAL and state not in captured:
                neutral.add(state)
        return frozenset(neutral)

    def patron(self, state: str) -> str | None:
        entry = self.status.get(state)
        return entry[1] if entry and entry[0] == _ALIGNED else None

    def published(self) -> dict[str, dict[str, int]]:
        """Each state's shares of its INFs in percent, as every viewer sees them (the
        Empire's are never published)."""
        return {s: shares(h) for s, h in self.inf.items() if s != OTTOMAN}

    def held(self, state: str, power: str) -> int:
        return self.inf.get(state, {}).get(power, 0)

    def total_vp(self, power: str) -> int:
        """Everything a power scored, what is still secret included: what victory counts."""
        return self.vp.get(power, 0) + sum(a.points for a in self.secret_awards.get(power, []))

    # --- views and JSON ------------------------------------------------------------
    def view(self, viewer: Viewer) -> LedgerView:
        """Everything for the game master; for anyone else, what it may see."""
        whole = SeenLedger(**{f.name: getattr(self, f.name) for f in fields(self)})
        if viewer.master:
            return LedgerView(whole)
        mine = viewer.power or ""
        status = self.status
        if self.patron(OTTOMAN) not in (None, mine):
            status = {**status, OTTOMAN: [self.standing(OTTOMAN).value, None]}
        seen = replace(
            whole,
            inf=self._own(mine),
            spent={p: n for p, n in self.spent.items() if p == mine},
            offers={p: q for p, q in self.offers.items() if p == mine},
            waived={p: w for p, w in self.waived.items() if p == mine},
            secret_awards={p: a for p, a in self.secret_awards.items() if p == mine},
            secret_annexed={p: q for p, q in self.secret_annexed.items() if q == mine},
            status=status,
            shares=self.published(),
        )
        return LedgerView(seen)

    def seen(self, viewer: Viewer) -> Ledger:
        """The ledger `view` shows the viewer, to play on: another's INFs and spending, the
        Empire's secret patron and what would name it are not in it. Others' INFs are
        presumed from the shares published (`presumed`), so that a state the viewer leads
        by its share is not played as if it alone had INFs there."""
        shown = self.view(viewer).ledger
        if viewer.master or viewer.power is None or shown.shares is None:
            return shown
        return replace(shown, inf=self.presumed_by(viewer.power))

    def presumed_by(
        self, power: str, published: dict[str, dict[str, int]] | None = None
    ) -> dict[str, dict[str, int]]:
        """Every power's INFs in each state as `power` may presume them: the INFs of the
        ledger it is shown (`seen`), worked out without the rest of its view; from the
        shares `published`, when they are known already."""
        shown = self.published() if published is None else published
        return presumed(self._own(power), shown, power)

    def _own(self, power: str) -> dict[str, dict[str, int]]:
        """`power`'s INFs in each state where it holds some, and nobody else's."""
        return {s: {power: h[power]} for s, h in self.inf.items() if h.get(power)}

    @classmethod
    def from_json(
        cls, data: Mapping[str, object], powers: Collection[str], states: Collection[str]
    ) -> Ledger:
        """The ledger as saved; a ValueError names the first part that is wrong."""
        raw = data.get("ledger")
        if set(data) != {"ledger"} or not isinstance(raw, Mapping):
            raise ValueError("state: expected {'ledger': {...}}")
        check = _Checker(powers, states)
        check.fields(raw, [f.name for f in fields(cls)])
        return cls(
            inf=check.table("inf", raw["inf"], check.state, check.count_by_power),
            spent=check.table("spent", raw["spent"], check.power, check.count),
            income=check.table("income", raw["income"], check.power, check.count),
            attacked=check.names("attacked", raw["attacked"], check.power),
            sequence=check.names("sequence", raw["sequence"], check.power),
            captured=check.names("captured", raw["captured"], check.state),
            status=check.table("status", raw["status"], check.state, check.status),
            religion=check.table("religion", raw["religion"], check.state, check.faith),
            vp=check.table("vp", raw["vp"], check.power, check.count),
            allies=[
                check.names("allies", pair, check.power)
                for pair in check.list_("allies", raw["allies"])
            ],
            offers=check.table("offers", raw["offers"], check.power, check.power),
            waived=check.table("waived", raw["waived"], check.power, check.provinces),
            eliminated=check.names("eliminated", raw["eliminated"], check.power),
            annexed=check.table("annexed", raw["annexed"], check.text, check.power),
            secret_annexed=check.table(
                "secret_annexed", raw["secret_annexed"], check.text, check.power
            ),
            awards=check.table("awards", raw["awards"], check.power, check.awards),
            secret_awards=check.table(
                "secret_awards", raw["secret_awards"], check.power, check.awards
            ),
            year_end=check.names("year_end", raw["year_end"], check.text),
        )


class Changes(TypedDict, total=False):
    """The fields of a `Ledger`, any of them, for `Ledger.replace`."""

    inf: dict[str, dict[str, int]]
    spent: dict[str, int]
    income: dict[str, int]
    attacked: list[str]
    sequence: list[str]
    captured: list[str]
    status: dict[str, list[str | None]]
    religion: dict[str, str]
    vp: dict[str, int]
    allies: list[list[str]]
    offers: dict[str, str]
    waived: dict[str, list[str]]
    eliminated: list[str]
    annexed: dict[str, str]
    secret_annexed: dict[str, str]
    awards: dict[str, list[Award]]
    secret_awards: dict[str, list[Award]]
    year_end: list[str]


# How a frozen dataclass's own `__init__` sets a field (`Ledger.replace`).
_set: Final = object.__setattr__

GUESSED_TOTAL = 10  # INFs presumed in a state whose total nothing shows: twice a minimum


def presumed(
    own: dict[str, dict[str, int]], published: dict[str, dict[str, int]], power: str
) -> dict[str, dict[str, int]]:
    """Every power's INFs in each state as `power` can work them out from its own and the
    shares published (whole percents, rounded down: each taken at the middle of its
    percent): where it holds some, its share gives the state's total; elsewhere the total
    is presumed the mean of those it knows (GUESSED_TOTAL if none), shared out by the
    published percents."""
    # Dicts, not Mappings, in loops rather than comprehensions: compiled, a Mapping's `get`
    # is a method call, for every state and power of every menu.
    totals: dict[str, float] = {}
    for state, percents in published.items():
        mine = own.get(state)
        held_there = mine.get(power, 0) if mine is not None else 0
        share = percents.get(power, 0)
        if held_there and share:
            totals[state] = held_there * 100 / (share + 0.5)
    guess = sum(totals.values()) / len(totals) if totals else GUESSED_TOTAL
    inf = {state: dict(held) for state, held in own.items()}
    # Compiled, `setdefault` and `max` would be Python calls, for every state and power.
    for state, percents in published.items():
        total = totals.get(state, guess)
        held = inf.get(state)
        for other, percent in percents.items():
            if other != power:
                if held is None:
                    held = inf[state] = {}
                presumed_inf = _rounded(total * (percent + 0.5) / 100)
                held[other] = presumed_inf if presumed_inf > 1 else 1
    return inf


def _rounded(x: float) -> int:
    """`round(x)` of a number not negative, a half to the even whole number as `round`
    takes it: compiled, `round` is a Python call. (`x - whole` is exact: a float's
    fraction is a float.)"""
    whole = int(x)
    fraction = x - whole
    if fraction > 0.5 or (fraction == 0.5 and whole % 2 == 1):
        return whole + 1
    return whole


@dataclass(frozen=True)
class SeenLedger(Ledger):
    """The ledger as one viewer may see it (`Ledger.view`): the game master's whole; a
    player's with its own INFs, spending, offers, waivers, secret awards and secret
    annexations and nobody else's, the Ottoman Empire's patron only if it is the patron,
    and each state's `shares` of its INFs in percent."""

    shares: Mapping[str, Mapping[str, int]] | None = None  # None for the game master


@dataclass(frozen=True)
class LedgerView(StateView):
    """Europe 1615's state as one viewer may see it: JSON ``{"ledger": {...}}``."""

    ledger: SeenLedger


class _Checker(FieldChecker):
    """Type checks for a saved ledger, each failing with the path and the reason."""

    def __init__(self, powers: Collection[str], states: Collection[str]) -> None:
        super().__init__("state.ledger", powers, states)

    def status(self, where: str, value: object) -> list[str | None]:
        standings = {s.value for s in Standing}
        if not (
            isinstance(value, list)
            and len(value) == 2
            and isinstance(value[0], str)
            and value[0] in standings
        ):
            raise self.fail(where, "expected [standing, patron]")
        patron = None if value[1] is None else self.power(where, value[1])
        return [value[0], patron]

    def faith(self, where: str, value: object) -> str:
        if not isinstance(value, str) or value not in (PROTESTANT, CATHOLIC, ISLAMIC):
            raise self.fail(where, f"{value!r} is not a religion")
        return str(value)

    def provinces(self, where: str, value: object) -> list[str]:
        return [self.text(where, v) for v in self.list_(where, value)]

    def awards(self, where: str, value: object) -> list[Award]:
        awards: list[Award] = []
        for award in self.list_(where, value):
            if not (isinstance(award, list) and len(award) == 3):
                raise self.fail(where, "expected [year, what for, VPs]")
            year, what, points = award
            awards.append(
                Award(self.count(where, year), self.text(where, what), self.count(where, points))
            )
        return awards
