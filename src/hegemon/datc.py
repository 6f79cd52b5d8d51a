"""Running DATC test files in the jDip/godip text format against the judge.

A case sets a phase and a position, gives orders, and states the position expected after
adjudication. Retreat cases describe the movement that caused the dislodgements with
PRESTATE_RESULTS lines; the attacker's origin and the standoffs are rebuilt from them.
Dislodged units with nowhere to go are destroyed at once, as in the file's convention.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from hegemon.adjudication.adjustment import adjudicate_adjustments
from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.retreat import adjudicate_retreats, retreat_options
from hegemon.board import province_of
from hegemon.game import Variant
from hegemon.notation import OrderSyntaxError, parse_order, split_power
from hegemon.orders import Move, Order
from hegemon.position import (
    STANDARD_PHASE_KINDS,
    Dislodgement,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
)
from hegemon.variants import load_variant

_SECTIONS = {
    "PRESTATE_SUPPLYCENTER_OWNERS": "owners",
    "PRESTATE": "units",
    "PRESTATE_DISLODGED": "dislodged",
    "PRESTATE_RESULTS": "results",
    "ORDERS": "orders",
    "POSTSTATE": "post",
    "POSTSTATE_DISLODGED": "post_dislodged",
}
_PHASE = re.compile(r"(Spring|Fall)\s+(\d+)\s*,\s*(Movement|Retreat|Adjustment)", re.IGNORECASE)


class DatcFormatError(ValueError):
    pass


@dataclass
class DatcCase:
    name: str
    line: int
    # Cases that set no phase are Spring 1901 movement, as in the file's convention.
    phase: Phase = field(default_factory=lambda: Phase(1901, Season.SPRING, PhaseKind.MOVEMENT))
    sections: dict[str, list[str]] = field(default_factory=dict)
    same: bool = False

    def lines(self, section: str) -> list[str]:
        return self.sections.get(section, [])


@dataclass(frozen=True)
class CaseResult:
    case: DatcCase
    passed: bool
    difference: str = ""


def read_cases(text: str) -> Iterator[DatcCase]:
    case: DatcCase | None = None
    section = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        keyword = line.split()[0]
        if keyword == "CASE":
            case, section = DatcCase(line[4:].strip(), number), ""
        elif case is None:
            continue  # VARIANT_ALL and other file-level lines
        elif keyword == "END":
            yield case
            case = None
        elif keyword == "PRESTATE_SETPHASE":
            case.phase = _read_phase(line, number)
        elif keyword == "POSTSTATE_SAME":
            case.same = True
        elif keyword in _SECTIONS:
            section = _SECTIONS[keyword]
            case.sections.setdefault(section, [])
        elif section:
            case.sections[section].append(line)
        else:
            raise DatcFormatError(f"line {number}: {line!r} outside any section")


def cases_of_file(text: str, source: str) -> list[DatcCase]:
    """Every case of one DATC file; a DatcFormatError if it holds none (a game file given
    by mistake, say), which would otherwise pass as a file whose every case passed."""
    cases = list(read_cases(text))
    if not cases:
        raise DatcFormatError(f"{source}: holds no DATC case (no CASE ... END)")
    return cases


def merged(*files: list[DatcCase]) -> list[DatcCase]:
    """The cases of several files, a later file's case replacing the earlier files' cases
    of its name: DATC 3.0's full set is 2.4's with 3.0's new and changed cases. Within one
    file every case is kept, even under a name it repeats (DATC 2.4 as published names
    6.F.15 "6.F.14" a second time)."""
    cases: dict[str, list[DatcCase]] = {}
    for file in files:
        named: dict[str, list[DatcCase]] = {}
        for case in file:
            named.setdefault(case.name, []).append(case)
        cases.update(named)
    return [case for same_name in cases.values() for case in same_name]


def _read_phase(line: str, number: int) -> Phase:
    match = _PHASE.search(line)
    if match is None:
        raise DatcFormatError(f"line {number}: cannot read the phase in {line!r}")
    season, year, kind = match.groups()
    kind_ = {k.name: k for k in STANDARD_PHASE_KINDS}[kind.capitalize()]
    season_ = Season.WINTER if kind_ is PhaseKind.ADJUSTMENT else Season.named(season.capitalize())
    return Phase(int(year), season_, kind_)


class _CaseRunner:
    def __init__(self, variant: Variant, case: DatcCase) -> None:
        self.variant = variant
        self.board = variant.board
        self.case = case

    def power(self, spelling: str) -> str:
        # Tolerates the file's typos ("Germnay" in 6.A.5) by the closest power name.
        exact = self.variant.power_named(spelling)
        if exact:
            return exact
        close = difflib.get_close_matches(spelling, list(self.variant.powers), n=1, cutoff=0.7)
        if not close:
            raise DatcFormatError(f"case {self.case.name}: unknown power {spelling!r}")
        return close[0]

    def unit_line(self, line: str) -> Unit:
        power, rest = split_power(line)
        if power is None:  # "Italy F gol": the colon forgotten
            power, _, rest = line.partition(" ")
        kind, _, location = rest.strip().partition(" ")
        return Unit(self.power(power), self.board.kinds[kind.upper()], location.strip().lower())

    def units(self, section: str) -> dict[str, Unit]:
        return {u.province: u for u in map(self.unit_line, self.case.lines(section))}

    def orders(self) -> dict[str, list[Order]]:
        standing = self.units("units") | self.units("dislodged")
        orders: dict[str, list[Order]] = {}
        for line in self.case.lines("orders"):
            power, text = split_power(line)
            if power is None:
                raise DatcFormatError(f"case {self.case.name}: order without power: {line!r}")
            try:
                order = parse_order(text, self.board, standing)
            except OrderSyntaxError:
                continue  # an unreadable order is no order at all
            orders.setdefault(self.power(power), []).append(order)
        return orders

    def run(self) -> CaseResult:
        before = self.units("units")
        kind = self.case.phase.kind
        if kind is PhaseKind.MOVEMENT:
            got, dislodged = self.movement(before)
        elif kind is PhaseKind.RETREAT:
            got, dislodged = self.retreat(before), {}
        else:
            got, dislodged = self.adjustment(before), {}
        expected = before if self.case.same else self.units("post")
        expected_dislodged = {} if self.case.same else self.units("post_dislodged")
        difference = _compare("units", expected, got) + _compare(
            "dislodged", expected_dislodged, dislodged
        )
        return CaseResult(self.case, not difference, difference)

    def movement(self, before: dict[str, Unit]) -> tuple[dict[str, Unit], dict[str, Unit]]:
        position = Position.create(self.case.phase, before)
        rules = self.variant.rules_for(position)
        result = adjudicate_movement(self.board, position, self.orders(), rules)
        after = position.evolve(
            units=dict(result.units), dislodged=dict(result.dislodged), contested=result.contested
        )
        dislodged = {
            p: d.unit
            for p, d in result.dislodged.items()
            if retreat_options(self.board, after, d, rules)
        }
        return dict(result.units), dislodged

    def retreat(self, before: dict[str, Unit]) -> dict[str, Unit]:
        dislodged_units = self.units("dislodged")
        moves = [self._result_move(line) for line in self.case.lines("results")]
        succeeded = {m.target: (m, ok) for m, ok in moves if m is not None and ok}
        dislodged: dict[str, Dislodgement] = {}
        for province, unit in dislodged_units.items():
            winner = succeeded.get(province)
            came_from = None
            if winner is not None and not winner[0].via_convoy:
                came_from = winner[0].province
            dislodged[province] = Dislodgement(unit, came_from)
        # A standoff needs two failed moves: a lone failure into an empty province was a
        # broken convoy or a lost head-to-head battle (DATC 6.H.9, 6.H.12).
        failures = Counter(
            province_of(m.target)
            for m, ok in moves
            if m is not None
            and not ok
            and province_of(m.target) not in before
            and not (m.province in dislodged and dislodged[m.province].attacker_from == m.target)
        )
        contested = frozenset(p for p, n in failures.items() if n > 1)
        position = Position.create(
            self.case.phase, before, dislodged=dislodged, contested=contested
        )
        rules = self.variant.rules_for(position)
        result = adjudicate_retreats(self.board, position, self.orders(), rules)
        return dict(result.units)

    def _result_move(self, line: str) -> tuple[Move | None, bool]:
        verdict, _, rest = line.partition(":")
        _power, text = split_power(rest)
        try:
            order = parse_order(text, self.board)
        except OrderSyntaxError as exc:
            raise DatcFormatError(f"case {self.case.name}: {exc}") from exc
        ok = verdict.strip().upper() == "SUCCESS"
        return (order if isinstance(order, Move) else None), ok

    def adjustment(self, before: dict[str, Unit]) -> dict[str, Unit]:
        owners = {u.province: u.power for u in map(self.unit_line, self.case.lines("owners"))}
        position = Position.create(self.case.phase, before, owners)
        homes = {p.name: frozenset(p.home_centers) for p in self.variant.powers.values()}
        result = adjudicate_adjustments(
            self.board, position, self.orders(), homes, self.variant.rules_for(position)
        )
        return dict(result.units)


def _compare(what: str, expected: dict[str, Unit], got: dict[str, Unit]) -> str:
    want = {f"{u.power}: {u}" for u in expected.values()}
    have = {f"{u.power}: {u}" for u in got.values()}
    lines = [f"  {what} expected but missing: {x}" for x in sorted(want - have)]
    lines += [f"  {what} not expected: {x}" for x in sorted(have - want)]
    return "\n".join(lines) + ("\n" if lines else "")


def run_case(case: DatcCase, variant: Variant | None = None) -> CaseResult:
    return _CaseRunner(variant or load_variant("classic"), case).run()
