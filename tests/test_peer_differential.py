"""Hegemon against the peer judge, PyPI ``diplomacy`` 1.1.2, on seeded random classic games.

Every phase of `GAMES` random games (movement, retreat and adjustment) is adjudicated by
both judges from the same position and orders, and their results must be identical:
units and their coasts after the phase, the dislodged units that may retreat and where to,
and the dislodged units destroyed for want of a retreat.

The peer is wrong by the DATC in a few situations. Each is a `KnownClass` below, with
the DATC case that decides it and the judge it finds wrong: the
test recognises the situation in the phase, checks that it accounts for the whole
disagreement, counts it and leaves that phase out of the assertion. Any other
disagreement fails the test. docs/differences.md describes each
class with a minimal position; `test_known_class_examples` replays those positions, so a
fix on either side shows up as a failure that asks for the class to be retired.

Run ``python -m tests.test_peer_differential`` for the tally.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import pytest
from diplomacy.engine.map import Map

from hegemon.adjudication.movement import adjudicate_movement
from hegemon.adjudication.retreat import retreat_options
from hegemon.board import ARMY, FLEET, province_of
from hegemon.game import PhaseResult, play_phase
from hegemon.notation import parse_order
from hegemon.orders import Convoy, Hold, Move, Order, Support
from hegemon.position import STANDARD_PHASE_KINDS, Phase, PhaseKind, Position, Season, Unit
from hegemon.randomplay import random_game
from hegemon.variants import load_variant
from tests import peer
from tests.conftest import units

CLASSIC = load_variant("classic")
GAMES = 60
PHASES_PER_GAME = 70
MIN_MOVEMENT_PHASES = 2000


# --- what each judge says happened ------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """A phase's result in terms both judges can state."""

    units: frozenset[Unit]
    dislodged: frozenset[tuple[Unit, frozenset[str]]]  # each with its retreat options
    destroyed: frozenset[Unit]

    def differences(self, peer_view: View) -> tuple[str, ...]:
        lines = []
        for name in ("units", "dislodged", "destroyed"):
            ours, theirs = getattr(self, name), getattr(peer_view, name)
            if ours != theirs:
                lines.append(
                    f"{name}: Hegemon only {sorted(map(str, ours - theirs))},"
                    f" peer only {sorted(map(str, theirs - ours))}"
                )
        return tuple(lines)


def hegemon_view(result: PhaseResult) -> View:
    after = result.after
    rules = CLASSIC.rules_for(after)
    dislodged = frozenset(
        (d.unit, frozenset(retreat_options(CLASSIC.board, after, d, rules)))
        for d in after.dislodged.values()
    )
    return View(frozenset(after.units.values()), dislodged, frozenset(result.destroyed))


def peer_view(theirs: peer.PeerResult) -> View:
    return View(
        frozenset(theirs.units.values()),
        frozenset(theirs.dislodged.values()),
        frozenset(theirs.destroyed),
    )


# --- the known classes of disagreement ----------------------------------------------------------


def _orders_of(result: PhaseResult) -> list[Order]:
    return [order for given in result.orders.values() for order in given]


def _moves(result: PhaseResult) -> dict[str, Move]:
    return {o.province: o for o in _orders_of(result) if isinstance(o, Move)}


def supports_naming_other_coast(result: PhaseResult) -> list[Support]:
    """Supports naming one coast of a province while the fleet supported moves to another."""
    moves = _moves(result)
    return [
        order
        for order in _orders_of(result)
        if isinstance(order, Support)
        and order.target is not None
        and "/" in order.target
        and (move := moves.get(order.supported)) is not None
        and province_of(move.target) == province_of(order.target)
        and move.target != order.target
    ]


def peer_agrees_when_they_hold(result: PhaseResult, supports: Sequence[Support]) -> bool:
    """Whether the peer agrees once these supports are given as holds.

    By DATC 6.B.9 such a support has no effect, which is exactly what a hold does.
    """
    orders = {
        power: [
            Hold(o.unit, o.location) if isinstance(o, Support) and o in supports else o
            for o in given
        ]
        for power, given in result.orders.items()
    }
    retried = peer.play(result.before, orders)
    return not hegemon_view(result).differences(peer_view(retried))


def self_dislodging_support_of_via_move(result: PhaseResult) -> bool:
    """A move the peer receives with ``VIA`` that a unit of the defender's power supports."""
    units, moves = result.before.units, _moves(result)
    return any(
        isinstance(order, Support)
        and order.target is not None
        and (move := moves.get(order.supported)) is not None
        and peer.writes_via(move)
        and province_of(move.target) == province_of(order.target)
        and (defender := units.get(province_of(order.target))) is not None
        and defender.power == units[order.province].power
        for order in _orders_of(result)
    )


def head_to_head_with_support_from_defender(result: PhaseResult) -> bool:
    """Two units swapping over land, one of them supported by the other's own power."""
    units, moves = result.before.units, _moves(result)
    swapping = {
        origin
        for origin, move in moves.items()
        if not move.via_convoy
        and (back := moves.get(province_of(move.target))) is not None
        and province_of(back.target) == origin
        and not back.via_convoy
    }
    return any(
        isinstance(order, Support)
        and order.supported in swapping
        and order.target is not None
        and province_of(order.target) == province_of(moves[order.supported].target)
        and units[province_of(order.target)].power == units[order.province].power
        for order in _orders_of(result)
    )


def support_against_own_convoying_fleet(result: PhaseResult) -> bool:
    """A support for an attack on a convoying fleet, given by the fleet's own power."""
    units = result.before.units
    convoying = {o.province for o in _orders_of(result) if isinstance(o, Convoy)}
    return any(
        isinstance(order, Support)
        and order.target is not None
        and province_of(order.target) in convoying
        and units[province_of(order.target)].power == units[order.province].power
        for order in _orders_of(result)
    )


def convoys_off_every_route(result: PhaseResult) -> list[Convoy]:
    return [
        o
        for o in _orders_of(result)
        if isinstance(o, Convoy)
        and not CLASSIC.board.on_convoy_route(o.army, province_of(o.target), o.province)
    ]


def convoy_dislodged_retreats_into_standoff(
    result: PhaseResult, theirs: peer.PeerResult
) -> peer.PeerResult | None:
    """The peer's result with the standoff retreats of convoy-dislodged units removed.

    None if no unit dislodged by a convoyed army was offered a standoff province.
    """
    board, before = CLASSIC.board, result.before
    rules = CLASSIC.rules_for(before)
    moved = adjudicate_movement(board, before, result.orders, rules)
    after = before.evolve(
        units=dict(moved.units), dislodged=dict(moved.dislodged), contested=moved.contested
    )
    dislodged = dict(theirs.dislodged)
    destroyed = set(theirs.destroyed)
    for province, dislodgement in moved.dislodged.items():
        if dislodgement.attacker_from is not None or province not in dislodged:
            continue
        unit, offered = dislodged[province]
        ours = set(retreat_options(board, after, dislodgement, rules))
        extra = {province_of(o) for o in offered - ours}
        if not extra or not extra <= moved.contested:
            continue
        kept = frozenset(offered & ours)
        if kept:
            dislodged[province] = (unit, kept)
        else:
            del dislodged[province]
            destroyed.add(unit)
    if dislodged == dict(theirs.dislodged):
        return None
    return replace(theirs, dislodged=dislodged, destroyed=frozenset(destroyed))


@dataclass(frozen=True)
class KnownClass:
    """A situation in which one judge is wrong by the DATC, and how to recognise it.

    `explains` is given a phase whose results differ; it answers whether this situation
    accounts for the whole difference. Without it, the situation arising is taken to
    account for it, for classes that can change any outcome.
    """

    name: str
    datc: str  # the deciding case first
    wrong: str  # "peer" or "Hegemon"
    kind: PhaseKind
    arises: Callable[[PhaseResult], bool]
    explains: Callable[[PhaseResult, peer.PeerResult], bool] | None = None

    def accounts_for(self, result: PhaseResult, theirs: peer.PeerResult) -> bool:
        if self.kind is not result.before.phase.kind or not self.arises(result):
            return False
        return self.explains is None or self.explains(result, theirs)


def _explained_by_correction(result: PhaseResult, theirs: peer.PeerResult) -> bool:
    corrected = convoy_dislodged_retreats_into_standoff(result, theirs)
    return corrected is not None and not hegemon_view(result).differences(peer_view(corrected))


def _convoyed_dislodgement(result: PhaseResult) -> bool:
    dislodged = adjudicate_movement(
        CLASSIC.board, result.before, result.orders, CLASSIC.rules_for(result.before)
    ).dislodged
    return any(d.attacker_from is None for d in dislodged.values())


KNOWN_CLASSES = (
    KnownClass(
        "support names the other coast",
        "6.B.9",
        "peer",
        PhaseKind.MOVEMENT,
        lambda result: bool(supports_naming_other_coast(result)),
        lambda result, _: peer_agrees_when_they_hold(result, supports_naming_other_coast(result)),
    ),
    KnownClass(
        "support by the defender's power for a VIA move",
        "6.D.12",
        "peer",
        PhaseKind.MOVEMENT,
        self_dislodging_support_of_via_move,
    ),
    KnownClass(
        "head-to-head defence discounts the defender's own supports",
        "6.E.3 (defend strength, DATC 5; 6.E.12)",
        "peer",
        PhaseKind.MOVEMENT,
        head_to_head_with_support_from_defender,
    ),
    KnownClass(
        "convoy paradox seen where the fleet's own power supports the attack on it",
        "6.F.4 (with 6.D.12; the Szykman rule of 6.F.14 needs a real paradox)",
        "peer",
        PhaseKind.MOVEMENT,
        support_against_own_convoying_fleet,
    ),
    KnownClass(
        "retreat into a standoff after a convoyed attack",
        "6.H.6 (with 6.H.11)",
        "peer",
        PhaseKind.MOVEMENT,
        _convoyed_dislodgement,
        _explained_by_correction,
    ),
)


# --- running the games --------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    result: PhaseResult
    theirs: peer.PeerResult
    differences: tuple[str, ...]
    explained_by: KnownClass | None = None

    @property
    def phase(self) -> str:
        return self.result.before.phase.code

    @property
    def kind(self) -> PhaseKind:
        return self.result.before.phase.kind


def compare(result: PhaseResult) -> Comparison:
    """Adjudicate the phase in the peer too and say how the results differ, and why."""
    before = result.before
    theirs = peer.play(before, result.orders, peer.retreats_of(CLASSIC, before))
    differences = hegemon_view(result).differences(peer_view(theirs))
    if not differences:
        return Comparison(result, theirs, ())
    known = next((k for k in KNOWN_CLASSES if k.accounts_for(result, theirs)), None)
    return Comparison(result, theirs, differences, known)


@dataclass
class Tally:
    """Everything the run found, for the assertions and the summary."""

    compared: Counter[PhaseKind] = field(default_factory=Counter)
    arose: Counter[str] = field(default_factory=Counter)  # phases where a class's situation arose
    excluded: dict[str, list[Comparison]] = field(default_factory=dict)
    unexplained: list[Comparison] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)  # peer's complaint, by kind
    stranded: int = 0  # dislodged units the peer keeps with only occupied options

    def add(self, comparison: Comparison) -> None:
        self.compared[comparison.kind] += 1
        for known in KNOWN_CLASSES:
            if known.kind is comparison.kind:
                self.arose[known.name] += known.arises(comparison.result)
        self.refusals.update(classify_refusals(comparison))
        self.stranded += len(comparison.theirs.stranded)
        if comparison.explained_by is not None:
            self.excluded.setdefault(comparison.explained_by.name, []).append(comparison)
        elif comparison.differences:
            self.unexplained.append(comparison)

    def summary(self) -> str:
        lines = [f"{kind.name}: {count} phases" for kind, count in self.compared.items()]
        for known in KNOWN_CLASSES:
            arose = self.arose[known.name]
            lines.append(
                f"{known.name} (DATC {known.datc}, {known.wrong} wrong): arose in {arose},"
                f" disagreed in {len(self.excluded.get(known.name, []))} phases (excluded)"
            )
        lines += [f"peer refused: {kind}: {count}" for kind, count in self.refusals.items()]
        lines.append(f"dislodged units the peer keeps with only occupied options: {self.stranded}")
        lines.append(f"unexplained disagreements: {len(self.unexplained)}")
        return "\n".join(lines)


IMPOSSIBLE_CONVOY = "IMPOSSIBLE CONVOY ORDER"
OFF_EVERY_ROUTE = "convoy by a fleet on no possible route (void in both judges, 6.G.7)"
OFF_PEER_ROUTES = "convoy by a fleet on a possible route, none of the peer's (DATC silent)"


def classify_refusals(comparison: Comparison) -> Counter[str]:
    """The peer's refusals by kind; its refused convoy orders split by who is right.

    The peer accepts a convoy order only from a fleet on a route through fleets now at
    sea that has no shorter such route inside it. By DATC 6.G.7 an order is void when the
    fleet could never be part of a route, and Hegemon voids those too. The rest lie on
    some chain of seas from the army to its target; the DATC does not call them void.
    """
    kinds = Counter(complaint.partition(":")[0] for complaint in comparison.theirs.refused)
    impossible = kinds.pop(IMPOSSIBLE_CONVOY, 0)
    if impossible:
        off = len(convoys_off_every_route(comparison.result))
        kinds[OFF_EVERY_ROUTE] += off
        kinds[OFF_PEER_ROUTES] += impossible - off
    return kinds


@cache
def run() -> Tally:
    tally = Tally()
    for seed in range(GAMES):
        for result in random_game(CLASSIC, random.Random(seed), PHASES_PER_GAME):
            tally.add(compare(result))
    return tally


def _describe(comparisons: Sequence[Comparison]) -> str:
    return "\n".join(f"{c.phase}: {'; '.join(c.differences)}" for c in comparisons[:5])


# --- the tests -----------------------------------------------------------------------------------


def test_province_table_covers_the_peer_map() -> None:
    peer_map = Map("standard")
    provinces = {loc.upper() for loc in peer_map.locs if "/" not in loc}
    assert set(peer.PROVINCES) == set(CLASSIC.board.provinces)
    assert set(peer.PROVINCES.values()) == provinces - {"SWI"}  # Switzerland is impassable


def test_province_table_gives_the_same_map() -> None:
    """Every army and fleet edge translates to an edge of the peer's map, and back."""
    peer_map = Map("standard")
    board = CLASSIC.board
    for unit_type, edges in (
        (ARMY, board.army_edges),
        (FLEET, board.fleet_edges),
    ):
        places = [
            loc
            for province in board.provinces
            for loc in board.locations(province)
            if board.can_hold(unit_type, loc)
        ] + [p for p in board.provinces if board.can_hold(unit_type, p)]
        ours = {(o, t) for o, targets in edges.items() for t in targets}
        theirs = {
            (o, t)
            for o in set(places)
            for t in set(places)
            if peer_map.abuts(unit_type.letter, peer.to_peer(o), "-", peer.to_peer(t))
        }
        assert ours == theirs, unit_type


def test_enough_movement_phases_compared() -> None:
    assert run().compared[PhaseKind.MOVEMENT] >= MIN_MOVEMENT_PHASES, run().summary()


@pytest.mark.parametrize("kind", STANDARD_PHASE_KINDS, ids=lambda k: k.name)
def test_judges_agree(kind: PhaseKind) -> None:
    unexplained = [c for c in run().unexplained if c.kind is kind]
    assert not unexplained, f"{len(unexplained)} disagreements:\n{_describe(unexplained)}"


@pytest.mark.parametrize("kind", STANDARD_PHASE_KINDS, ids=lambda k: k.name)
def test_few_phases_left_out(kind: PhaseKind) -> None:
    """A known class leaves its phases out; if one grew common, it could hide a new bug."""
    tally = run()
    left_out = sum(1 for cs in tally.excluded.values() for c in cs if c.kind is kind)
    assert left_out <= 0.05 * tally.compared[kind], tally.summary()


def test_peer_refuses_only_convoy_orders() -> None:
    """Every order the peer refuses is a convoy order (see `classify_refusals`); where the
    refusal changes the outcome, the phase falls under a known class or fails above."""
    assert set(run().refusals) <= {OFF_EVERY_ROUTE, OFF_PEER_ROUTES}, run().summary()


# --- the minimal example of each known class -------------------------------------------------


def _position(spec: Mapping[str, Sequence[str]]) -> Position:
    return Position.create(Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), units(spec))


EXAMPLES = {
    "support names the other coast": (  # DATC 6.B.9 itself
        _position({"France": ["F por", "F mid"], "Italy": ["F gol", "F wes"]}),
        {
            "France": ["F por S F mid - spa/nc", "F mid - spa/sc"],
            "Italy": ["F gol - spa/sc", "F wes S F gol - spa/sc"],
        },
    ),
    "support by the defender's power for a VIA move": (
        _position({"Italy": ["A apu", "F adr"], "Austria": ["F ven", "A tri"]}),
        {
            "Italy": ["A apu - ven via convoy", "F adr C A apu - ven"],
            "Austria": ["F ven H", "A tri S A apu - ven"],
        },
    ),
    "head-to-head defence discounts the defender's own supports": (
        _position(
            {"Austria": ["A gal", "A vie", "A bud"], "Russia": ["A sil"], "Germany": ["A boh"]}
        ),
        {
            "Austria": ["A gal - boh", "A vie S A boh - gal", "A bud S A boh - gal"],
            "Russia": ["A sil S A gal - boh"],
            "Germany": ["A boh - gal"],
        },
    ),
    "convoy paradox seen where the fleet's own power supports the attack on it": (
        _position(
            {"England": ["F eng", "F lon"], "Germany": ["F wal"], "France": ["A bre", "F nth"]}
        ),
        {
            "England": ["F eng C A bre - lon", "F lon S F wal - eng"],
            "Germany": ["F wal - eng"],
            "France": ["A bre - lon", "F nth S A bre - lon"],
        },
    ),
    "retreat into a standoff after a convoyed attack": (
        _position({"England": ["A lon", "F nth", "A hol"], "France": ["A bel", "A par", "A bur"]}),
        {
            "England": ["A lon - bel", "F nth C A lon - bel", "A hol S A lon - bel"],
            "France": ["A bel H", "A par - pic", "A bur - pic"],
        },
    ),
}


@pytest.mark.parametrize("known", KNOWN_CLASSES, ids=lambda k: k.datc.split()[0])
def test_known_class_examples(known: KnownClass) -> None:
    """Each class's example still disagrees, and is recognised as that class only."""
    position, texts = EXAMPLES[known.name]
    orders = {
        power: [parse_order(t, CLASSIC.board, position.units) for t in given]
        for power, given in texts.items()
    }
    comparison = compare(play_phase(CLASSIC, position, orders))
    assert comparison.differences, f"{known.name}: the judges now agree; retire the class"
    assert comparison.explained_by is known


if __name__ == "__main__":
    print(run().summary())
    for comparison in run().unexplained:
        print(comparison.phase, comparison.differences)
