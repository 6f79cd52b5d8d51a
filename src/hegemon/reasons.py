"""Why an order fared as it did: a typed reason with its data, from which the report's
words are made.

A program reads an outcome's `reason` (and its `fate`, what became of the unit after)
rather than its `note`: each reason is one of the kinds `Reason` names, with the data that
decided it as typed fields (docs/json.md has the table). The note, e.g. ``Bounced 2v2
(with Mom)``, is worded from them here, in one place, when it is read.

A variant's own kinds of reason (points spent, a draft's placements) subclass `Why` with
the kind `Reason.VARIANT`, a `code` of their own, their data and their words, without a
core edit (`VariantReason`). An order kind that adjudicates itself (`OwnOrder`) explains
itself with these too, which is why they stand below the resolver, beside the orders.

A reason never says more than its note: where the rules hide strengths
(`Rules.shows_strengths`), the note gives none and the data holds none either.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from mypy_extensions import mypyc_attr

from hegemon.orders import place

# What a reason's data may hold: ids, labels, counts, lists of them; None where the rules
# hide a value (a strength) or the reason lacks it.
Datum = str | int | bool | tuple[str, ...] | None


class Reason(StrEnum):
    """The kinds of reason an outcome gives, as JSON writes them."""

    SUCCEEDS = "succeeds"
    NO_ORDER = "no_order"  # a unit nobody ordered: it holds
    HOLDS = "holds"  # a fate: the unit of a void order held
    BOUNCED = "bounced"  # by the defender, or by a rival for the province
    MAY_NOT_DISLODGE = "may_not_dislodge"  # the rules forbid dislodging the defender
    STATIONARY = "stationary"  # a stationary unit's move always bounces (`Rules.is_stationary`)
    NO_CARRIER = "no_carrier"  # a boarding with no carrier ending the phase there
    NO_CONVOY_ROUTE = "no_convoy_route"
    CONVOY_PARADOX = "convoy_paradox"  # failed by the Szykman rule
    CUT = "cut"
    NOT_SUPPORTABLE = "not_supportable"  # a support of a unit the rules say none supports
    SUPPORT_MISMATCH = "support_mismatch"  # the supported unit did something else
    CONVOY_MISMATCH = "convoy_mismatch"  # the convoyed army did not go there by sea
    VOID = "void"  # illegal, with legality's words for why
    REPLACED = "replaced"  # void: a later order for the same unit replaced it
    DISLODGED = "dislodged"  # a fate
    DISLODGED_ABOARD = "dislodged_aboard"  # a fate: its carrier was dislodged
    RETREAT_BOUNCED = "retreat_bounced"  # two retreats to one province: both disbanded
    DISBANDED = "disbanded"
    NO_RETREAT = "no_retreat"  # a dislodged unit nobody ordered: disbanded
    CIVIL_DISORDER = "civil_disorder"  # disbanded for a power that disbanded too few
    BUILT = "built"
    BUILD_WAIVED = "build_waived"
    BUILT_AUTOMATICALLY = "built_automatically"  # by the variant's own rules
    VARIANT = "variant"  # a variant's own kind, told apart by its `code`


@mypyc_attr(allow_interpreted_subclasses=True)  # as a variant's own reasons subclass it
class Why:
    """A reason of some kind with its data. Subclasses hold the data as typed fields and
    word it; equal reasons have the same kind, code and data."""

    def __init__(self, reason: Reason, code: str = "") -> None:
        self.reason = reason
        self.code = code  # a variant's own name for its kind of reason; "" for the core's

    def data(self) -> dict[str, Datum]:
        """The reason's data by name, as JSON writes it beside its kind."""
        return {}

    def words(self) -> str:
        """The report's words for the reason: ``Bounced 2v2 (with Mom)``."""
        raise NotImplementedError

    def said(self) -> tuple[object, ...]:
        """Everything the reason says, as a tuple: what it is equal and hashed by."""
        return (self.reason, self.code, tuple(self.data().items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Why) and self.said() == other.said()

    def __hash__(self) -> int:
        return hash(self.said())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.said()!r}"


_PLAIN_WORDS: Final[dict[Reason, str]] = {
    Reason.SUCCEEDS: "Succeeds",
    Reason.NO_ORDER: "No order: holds",
    Reason.HOLDS: "holds",
    Reason.STATIONARY: "Bounced (a stationary unit never moves)",
    Reason.NO_CONVOY_ROUTE: "Fails: no convoy route",
    Reason.CONVOY_PARADOX: "Fails: convoy paradox (Szykman rule)",
    Reason.CIVIL_DISORDER: "Civil disorder: disbanded",
    Reason.BUILT: "Built",
    Reason.BUILD_WAIVED: "Build waived",
    Reason.BUILT_AUTOMATICALLY: "Built automatically",
}


class Plain(Why):
    """A reason with no data: its kind says everything. Its words are looked up once, as
    it is made: the few there are are made once (below), and most outcomes give one."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.text: Final = _PLAIN_WORDS[reason]

    def words(self) -> str:
        return self.text


# The reasons without data, made once: most outcomes give one of these.
SUCCEEDED: Final = Plain(Reason.SUCCEEDS)


UNORDERED: Final = Plain(Reason.NO_ORDER)


HELD: Final = Plain(Reason.HOLDS)


STATIONARY: Final = Plain(Reason.STATIONARY)


NO_CONVOY_ROUTE: Final = Plain(Reason.NO_CONVOY_ROUTE)


CONVOY_PARADOX: Final = Plain(Reason.CONVOY_PARADOX)


CIVIL_DISORDER: Final = Plain(Reason.CIVIL_DISORDER)


BUILT: Final = Plain(Reason.BUILT)


BUILD_WAIVED: Final = Plain(Reason.BUILD_WAIVED)


BUILT_AUTOMATICALLY: Final = Plain(Reason.BUILT_AUTOMATICALLY)


class Bounced(Why):
    """A move that bounced off `unit` (``A Mun``): the defender, or a rival for the
    province, standing in `rival` (a province id) when it is one. `attack` is the move's
    strength and `resisted` what held it off: both None where the rules hide them, and
    then no rival is named either."""

    def __init__(
        self, unit: str, attack: int | None, resisted: int | None, rival: str | None = None
    ) -> None:
        super().__init__(Reason.BOUNCED)
        self.unit: Final = unit
        self.attack: Final = attack
        self.resisted: Final = resisted
        self.rival: Final = rival

    def data(self) -> dict[str, Datum]:
        return {
            "unit": self.unit,
            "attack": self.attack,
            "resisted": self.resisted,
            "rival": self.rival,
        }

    def words(self) -> str:
        strengths = "" if self.attack is None else f" {self.attack}v{self.resisted}"
        rival = f" (with {place(self.rival)})" if self.rival is not None else ""
        return f"Bounced{strengths}{rival}"


class Dislodged(Why):
    """A unit's fate: dislodged by `by` (``A Mun``) with an attack of `attack` against the
    `resisted` it held with, both None where the rules hide them."""

    def __init__(self, by: str, attack: int | None, resisted: int | None) -> None:
        super().__init__(Reason.DISLODGED)
        self.by: Final = by
        self.attack: Final = attack
        self.resisted: Final = resisted

    def data(self) -> dict[str, Datum]:
        return {"by": self.by, "attack": self.attack, "resisted": self.resisted}

    def words(self) -> str:
        strengths = "" if self.attack is None else f" ({self.attack}v{self.resisted})"
        return f"Dislodged by {self.by}{strengths}"


class Named(Why):
    """A reason naming one unit (``A Tyr``): the unit that cut a support (None if the report
    cannot say which), the defender the rules forbid dislodging, the unit a support may not
    support, or the carrier a unit aboard was dislodged with."""

    def __init__(self, reason: Reason, unit: str | None) -> None:
        super().__init__(reason)
        self.unit: Final = unit

    def data(self) -> dict[str, Datum]:
        return {"unit": self.unit}

    def words(self) -> str:
        reason, unit = self.reason, self.unit
        if reason is Reason.CUT:
            return "Cut" if unit is None else f"Cut by {unit}"
        if reason is Reason.MAY_NOT_DISLODGE:
            return f"Bounced: may not dislodge {unit}"
        if reason is Reason.NOT_SUPPORTABLE:
            return f"No effect: {unit} may not be supported"
        return f"Aboard {unit}, dislodged with it"


class Mismatch(Why):
    """A support or convoy with no effect: `unit` (``A Par``, ``F OFFBOARD``) did not do
    what it was given for. `target` is the province the support or convoy named (None for
    a support to hold); `moves_to` where the supported unit moved instead, if it did."""

    def __init__(
        self, reason: Reason, unit: str, target: str | None, moves_to: str | None = None
    ) -> None:
        super().__init__(reason)
        self.unit: Final = unit
        self.target: Final = target
        self.moves_to: Final = moves_to

    def data(self) -> dict[str, Datum]:
        return {"unit": self.unit, "target": self.target, "moves_to": self.moves_to}

    def words(self) -> str:
        unit, target = self.unit, place(self.target or "")
        if self.reason is Reason.CONVOY_MISMATCH:
            return f"No effect: {unit} does not go to {target} by sea"
        if self.target is None:
            return f"No effect: {unit} is not holding"
        if self.moves_to is not None:
            return f"No effect: {unit} moves to {place(self.moves_to)}, not {target}"
        return f"No effect: {unit} does not move to {target}"


class NoCarrier(Why):
    """A boarding that failed: no `carrier` (a unit kind's name) of `power` ended the phase
    in `province`."""

    def __init__(self, carrier: str, power: str, province: str) -> None:
        super().__init__(Reason.NO_CARRIER)
        self.carrier: Final = carrier
        self.power: Final = power
        self.province: Final = province

    def data(self) -> dict[str, Datum]:
        return {"carrier": self.carrier, "power": self.power, "province": self.province}

    def words(self) -> str:
        return f"Fails: no {self.carrier} of {self.power} to board in {place(self.province)}"


class Void(Why):
    """An illegal order: `problem` says why, in legality's words (``there is no unit in
    Paris``). The kinds of problem are not enumerated: the words are what legality gives.
    Of the kind `Reason.REPLACED`, a legal order that a later one for its unit replaced."""

    def __init__(self, problem: str, reason: Reason = Reason.VOID) -> None:
        super().__init__(reason)
        self.problem: Final = problem

    def data(self) -> dict[str, Datum]:
        return {"problem": self.problem}

    def words(self) -> str:
        return f"Void: {self.problem}"


class Disbanded(Why):
    """A unit disbanded: as ordered (`Reason.DISBANDED`), for want of a retreat order
    (`Reason.NO_RETREAT`), or as its retreat bounced off those from `rivals` (province
    ids, `Reason.RETREAT_BOUNCED`); `lost` gives the letters of the units lost aboard it."""

    def __init__(
        self, reason: Reason, lost: tuple[str, ...] = (), rivals: tuple[str, ...] = ()
    ) -> None:
        super().__init__(reason)
        self.lost: Final = lost
        self.rivals: Final = rivals

    def data(self) -> dict[str, Datum]:
        if self.reason is Reason.RETREAT_BOUNCED:
            return {"rivals": self.rivals, "lost": self.lost}
        return {"lost": self.lost}

    def words(self) -> str:
        lost = f", with {' '.join(self.lost)} aboard" if self.lost else ""
        if self.reason is Reason.NO_RETREAT:
            return f"No order: disbanded{lost}"
        if self.reason is Reason.RETREAT_BOUNCED:
            return f"Bounced (with {', '.join(place(r) for r in self.rivals)}): disbanded{lost}"
        return f"Disbanded{lost}"


DISBANDED: Final = Disbanded(Reason.DISBANDED)


REPLACED: Final = Void("replaced by a later order", Reason.REPLACED)


class VariantReason(Why):
    """A variant's own kind of reason: `code` names it (``spent``), `values` hold its data,
    and `template` words it from them with `str.format` (``Spent: counts {counts}``). A
    variant needing more than a template subclasses `Why` itself, keeping the kind
    `Reason.VARIANT` and a code of its own."""

    def __init__(self, code: str, template: str, **values: Datum) -> None:
        super().__init__(Reason.VARIANT, code)
        self.template: Final = template
        self.values: Final = values

    def data(self) -> dict[str, Datum]:
        return dict(self.values)

    def words(self) -> str:
        return self.template.format(**self.values)
