"""Before Spring 1901 (rules A): lots draw the order of play, then the players place their
armies round by round in that order, every player's first army, then every second ...

Two ways of placing, a game option: in turn (`placement = "turns"`), one player and one army
at a time, each placement made knowing the ones before; or by ranked lists (`"lists"`, for
mail and forum play), every player sending at once a list of provinces, best first, which
the judge resolves in the same draft order. Armies a list cannot place (it runs out, or
none was sent) are then placed in turn. A player who lets its turn pass without a
placement (or waives it) places that army nowhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.board import Board
from hegemon.game import Chance, Procedure, Resolution, Turn, Variant
from hegemon.game.forms import Choice, Filled, Menu, OrderForm, listed
from hegemon.orders import Order, Waive, place
from hegemon.position import PhaseKind, Position, Unit, Viewer
from hegemon.reasons import Datum, Reason, VariantReason, Void, Why
from hegemon.variants.african_diplomacy_ii.orders import Place
from hegemon.variants.african_diplomacy_ii.state import AfricanState

LOTS = PhaseKind("L", "Lots")
DRAFT = PhaseKind("D", "Draft")
PLACEMENT = PhaseKind("P", "Placement")
ORDER_OF_PLAY = "order of play"
ARMY = "A"
BY_LISTS = "lists"


def site_problem(board: Board, units: Mapping[str, Unit], province: str) -> str | None:
    """Why an army may not be placed in a province: armies are placed on land, in an empty
    province an army could reach over land (St Helena is reached only by build or convoy,
    rules F)."""
    name = board.name_of(province)
    if board.provinces[province].is_sea:
        return f"{name} is water: armies are placed on land"
    if province not in board.army_edges:
        return f"an army comes to {name} only by a build or a convoy"
    if province in units:
        return f"{name} is occupied"
    return None


def _placed(variant: Variant, power: str, province: str) -> Unit:
    return Unit(power, variant.board.kinds[ARMY], province)


def _open_sites(variant: Variant, units: Mapping[str, Unit]) -> list[str]:
    board = variant.board
    return sorted(p for p in board.provinces if not site_problem(board, units, p))


def _site(board: Board, province: str) -> Choice:
    """A placement in a province, given by a click on it, listed with the province's name
    (82 abbreviations alone would say little)."""
    return listed(Place((province,)), at=(province,), note=board.name_of(province))


def _ranked(filled: Filled) -> Order:
    """The draft's list: the provinces picked, best first."""
    return Place(tuple(p for o in filled.picked if isinstance(o, Place) for p in o.provinces))


def _order_line(state: AfricanState) -> str:
    return f"Order of play: {', '.join(state.order)}"


@dataclass(frozen=True)
class Lots(Procedure):
    """Nobody orders anything: chance draws the order of play (rules A: "Sequence will be
    determined randomly"), which sets the placements to make, `armies` for each player."""

    kind = LOTS
    armies: int

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        return ()

    def chances(self, variant: Variant, position: Position) -> tuple[Chance, ...]:
        return (Chance(ORDER_OF_PLAY, items=tuple(variant.powers)),)

    def resolve(self, turn: Turn) -> Resolution:
        order = turn.draws[ORDER_OF_PLAY]
        assert isinstance(order, tuple)
        picks = tuple(power for _ in range(self.armies) for power in order)
        state = replace(AfricanState.of(turn.position), order=order, picks=picks)
        return Resolution(turn.position.evolve(state=state), lambda: ())

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        return ["The order of play is drawn by lot now"]


@dataclass(frozen=True)
class Draft(Procedure):
    """Every player at once sends a ranked list; the judge works through the placements in
    the order of play, round by round, giving each the first province on its player's list
    that is still open."""

    kind = DRAFT
    orders = (Place,)
    armies: int

    def due(self, variant: Variant, position: Position) -> bool:
        return variant.options.get("placement") == BY_LISTS and bool(
            AfricanState.of(position).picks
        )

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        picks = AfricanState.of(position).picks
        return tuple(p for p in AfricanState.of(position).order if p in picks)

    def resolve(self, turn: Turn) -> Resolution:
        variant, position = turn.variant, turn.position
        state = AfricanState.of(position)
        lists, outcomes = _lists(variant, position, turn.orders)
        units = dict(position.units)
        taken: dict[str, list[str]] = {}
        unplaced: list[str] = []
        for power in state.picks:
            choices = lists.get(power, [])
            while choices and site_problem(variant.board, units, choices[0]):
                choices.pop(0)
            if choices:
                province = choices.pop(0)
                units[province] = _placed(variant, power, province)
                taken.setdefault(power, []).append(province)
            else:
                unplaced.append(power)
        outcomes += [_draft_outcome(power, order, taken, unplaced) for power, order in _sent(turn)]
        after = position.evolve(units=units, state=replace(state, picks=tuple(unplaced)))
        return Resolution(after, lambda: tuple(outcomes))

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """A random list for each player, sometimes too short to place every army."""
        sites = _open_sites(variant, position.units)
        orders: dict[str, list[Order]] = {}
        for power in self.actors(variant, position):
            length = rng.randint(1, min(len(sites), 3 * self.armies))
            orders[power] = [Place(tuple(rng.sample(sites, length)))]
        return orders

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """Every province a list may name, each as a list of one: a player ranks them,
        and the form makes the list (rules A)."""
        if power not in self.actors(variant, position):
            return ()
        sites = tuple(_site(variant.board, p) for p in _open_sites(variant, position.units))
        most = len(self.actors(variant, position)) * self.armies  # every army of the draft
        return (OrderForm("draft", "Ranked list", sites, ranking=True, most=most, make=_ranked),)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        sent = any(isinstance(o, Place) for o in orders)
        return [] if sent or power not in self.actors(variant, position) else ["a ranked list"]

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        state = AfricanState.of(position)
        return [f"{_order_line(state)}; every player sends a ranked list of provinces now"]


def _sent(turn: Turn) -> list[tuple[str, Place]]:
    """Each power's first list, the only one the draft reads."""
    firsts: dict[str, Place] = {}
    for power, given in turn.orders.items():
        for order in given:
            if isinstance(order, Place) and power not in firsts:
                firsts[power] = order
    return sorted(firsts.items(), key=lambda item: list(turn.orders).index(item[0]))


def _lists(
    variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[str, list[str]], list[Outcome]]:
    """The lists the draft works through, and the fate of every order it cannot use: a
    second list, anything but a list, or a list naming a province no army is placed in."""
    state = AfricanState.of(position)
    lists: dict[str, list[str]] = {}
    void: list[Outcome] = []
    for power, given in orders.items():
        for order in given:
            problem = _list_problem(variant, position, power, order, lists, state)
            if problem:
                void.append(Outcome(power, order, Verdict.VOID, Void(problem)))
            elif isinstance(order, Place):
                lists[power] = list(order.provinces)
    return lists, void


def _list_problem(
    variant: Variant,
    position: Position,
    power: str,
    order: Order,
    lists: Mapping[str, list[str]],
    state: AfricanState,
) -> str | None:
    if not isinstance(order, Place):
        return "the draft takes one ranked list of provinces from each player"
    if power in lists:
        return "one ranked list for each player"
    if power not in state.picks:
        return f"{power} has no army to place"
    return _sites_problem(variant.board, position.units, order.provinces)


def _sites_problem(board: Board, units: Mapping[str, Unit], provinces: Sequence[str]) -> str | None:
    """Why a list may not name these provinces: one named twice, or one no army may be
    placed in now."""
    if len(set(provinces)) < len(provinces):
        return "a province is named twice"
    return next(filter(None, (site_problem(board, units, p) for p in provinces)), None)


def _draft_outcome(
    power: str, order: Place, taken: Mapping[str, list[str]], unplaced: Sequence[str]
) -> Outcome:
    """What a player's list gave: the armies it placed, and those left to place in turn."""
    placed = tuple(taken.get(power, ()))
    drafted = Drafted(placed, unplaced.count(power))
    return Outcome(power, order, Verdict.SUCCEEDS if placed else Verdict.FAILS, drafted)


class Drafted(Why):
    """The variant's reason ``drafted``: a ranked list placed armies in `placed` (province
    ids), and left `left` armies to place in turn."""

    def __init__(self, placed: tuple[str, ...], left: int) -> None:
        super().__init__(Reason.VARIANT, "drafted")
        self.placed = placed
        self.left = left

    def data(self) -> dict[str, Datum]:
        return {"placed": self.placed, "left": self.left}

    def words(self) -> str:
        notes = [f"Placed A {', A '.join(place(p) for p in self.placed)}"] if self.placed else []
        if self.left:
            armies = "army" if self.left == 1 else "armies"
            notes.append(f"{self.left} {armies} left to place in turn")
        return "; ".join(notes)


@dataclass(frozen=True)
class Placement(Procedure):
    """One army at a time, in the order of play, round by round. The player in turn places
    an army or waives; any player with armies to place may also send, in its turn or ahead
    of it, a ranked list (`Place A Bam, Gui, Sen`), as in the draft. Adjudicating plays the
    turn in hand, then every turn that follows while its player's list has a province
    still open, so that lists sent by all place every army at once. The run stops at the
    first turn whose player sent no list, or whose list ran out: that player is then in
    turn, and the lists lapse, as a turn's orders do."""

    kind = PLACEMENT
    orders = (Place, Waive)
    one_at_a_time = True
    armies: int

    def due(self, variant: Variant, position: Position) -> bool:
        return bool(AfricanState.of(position).picks)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        return AfricanState.of(position).picks[:1]

    def takes_ahead(self, variant: Variant, position: Position, power: str) -> bool:
        return power in AfricanState.of(position).picks

    def repeats(self, variant: Variant, position: Position) -> bool:
        return self.due(variant, position)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        problems = [
            f"{order.format()}: {problem}"
            for order in orders
            if (problem := _placement_problem(variant, position, power, order))
        ]
        if len(orders) > 1:
            problems.append("one order for the placements: a province, a ranked list or Waive")
        return problems

    def resolve(self, turn: Turn) -> Resolution:
        """The turn in hand, by its player's order (without one, its turn passes), then
        the turns that follow while their players' lists reach an open province."""
        variant, position = turn.variant, turn.position
        state = AfricanState.of(position)
        if not state.picks:  # only a position given by hand gets here with none
            return Resolution(position, lambda: _nothing_to_place(turn.orders))
        given, outcomes = _turn_orders(variant, position, turn.orders)
        lists = {p: list(o.provinces) for p, o in given.items() if isinstance(o, Place)}
        units = dict(position.units)
        picks = list(state.picks)
        placed = _run_of_turns(variant, units, picks, lists)
        stopped = picks[0] if picks else ""
        outcomes += [_turn_outcome(p, o, placed.get(p, []), stopped) for p, o in given.items()]
        if state.picks[0] not in given:
            outcomes.append(Outcome(state.picks[0], Waive(), Verdict.SUCCEEDS, _NO_PLACEMENT))
        after = position.evolve(units=units, state=replace(state, picks=tuple(picks)))
        return Resolution(after, lambda: tuple(outcomes))

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """A placement for the player in turn; now and then a list ahead from another."""
        sites = _open_sites(variant, position.units)
        (actor,) = self.actors(variant, position)
        orders: dict[str, list[Order]] = {actor: [Place((rng.choice(sites),))]}
        for power in dict.fromkeys(AfricanState.of(position).picks[1:]):
            if power != actor and rng.random() < 0.25:
                orders[power] = [Place(tuple(rng.sample(sites, rng.randint(1, 3))))]
        return orders

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """For the player whose turn it is, every open province, and waiving the turn;
        for every player with armies to place, a ranked list of them for its turns."""
        if not self.takes_ahead(variant, position, power):
            return ()
        sites = tuple(_site(variant.board, p) for p in _open_sites(variant, position.units))
        turns = len(AfricanState.of(position).picks)  # a place for each army still to place
        ranked = OrderForm(
            "ahead", "Ranked list for its turns", sites, ranking=True, most=turns, make=_ranked
        )
        if power not in self.actors(variant, position):
            return (ranked,)
        army = self._army(position, power)
        return (OrderForm("placement", army, (*sites, listed(Waive()))), ranked)

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        if orders or power not in self.actors(variant, position):
            return []
        return [self._army(position, power)]

    def _army(self, position: Position, power: str) -> str:
        """The army the player places now: ``Army 2 of 4``."""
        number = self.armies - AfricanState.of(position).picks.count(power) + 1
        return f"Army {number} of {self.armies}"

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        state = AfricanState.of(position)
        if not state.picks:
            return []
        actor = state.picks[0]
        army = self._army(position, actor).lower()
        return [f"{_order_line(state)}; {actor} places {army} now (lists may be sent ahead)"]


def _nothing_to_place(orders: Mapping[str, Sequence[Order]]) -> tuple[Outcome, ...]:
    void = Void("every army is placed already")
    return tuple(Outcome(p, o, Verdict.VOID, void) for p, given in orders.items() for o in given)


def _turn_orders(
    variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[str, Order], list[Outcome]]:
    """Each player's one order for the placements, and the fate of those void."""
    given: dict[str, Order] = {}
    void: list[Outcome] = []
    for power, sent in orders.items():
        for order in sent:
            problem = (
                "one order for the placements"
                if power in given
                else _placement_problem(variant, position, power, order)
            )
            if problem:
                void.append(Outcome(power, order, Verdict.VOID, Void(problem)))
            else:
                given[power] = order
    return given, void


def _run_of_turns(
    variant: Variant, units: dict[str, Unit], picks: list[str], lists: Mapping[str, list[str]]
) -> dict[str, list[str]]:
    """The turn in hand and those that follow while their players' lists reach an open
    province: the armies placed into `units`, the turns played off `picks`, and the
    provinces each player's list gave."""
    placed: dict[str, list[str]] = {}
    first = True
    while picks:
        site = _first_open(variant.board, units, lists.get(picks[0], []))
        if site is None and not first:
            break  # a later turn without a list: its player orders it
        first = False
        power = picks.pop(0)
        if site is not None:
            units[site] = _placed(variant, power, site)
            placed.setdefault(power, []).append(site)
    return placed


def _first_open(board: Board, units: Mapping[str, Unit], ranked: list[str]) -> str | None:
    """The first province on a list still open, taken off it with those closed before."""
    while ranked:
        province = ranked.pop(0)
        if not site_problem(board, units, province):
            return province
    return None


# The variant's reasons for a turn of the placement: an army placed, the turn waived by
# its player, or passed for want of an order.
_PLACED = VariantReason("placed", "Placed")
_WAIVED = VariantReason("waived", "Waived: no army placed")
_NO_PLACEMENT = VariantReason("no_placement", "No placement: waived")


def _turn_outcome(power: str, order: Order, placed: list[str], stopped: str) -> Outcome:
    """What a player's order did: its turn waived, the one army it placed, the armies its
    list placed; or nothing, the turns having stopped at another's before its own."""
    if isinstance(order, Waive):
        return Outcome(power, order, Verdict.SUCCEEDS, _WAIVED)
    assert isinstance(order, Place)
    if len(order.provinces) == 1 and placed:
        return Outcome(power, order, Verdict.SUCCEEDS, _PLACED)
    if placed:
        armies = ", ".join(f"A {place(p)}" for p in placed)
        why = VariantReason("placed_from_list", "Placed {armies}", armies=armies)
        return Outcome(power, order, Verdict.SUCCEEDS, why)
    lapsed = VariantReason("lapsed", "Lapsed: the turns stopped at {player}'s", player=stopped)
    return Outcome(power, order, Verdict.FAILS, lapsed)


def _placement_problem(
    variant: Variant, position: Position, power: str, order: Order
) -> str | None:
    """Why `power` may not give `order` for the placements: it has no army left to
    place; only the player in turn waives; a list (or a single placement) names open
    land, each province once."""
    picks = AfricanState.of(position).picks
    if power not in picks:
        return f"{power} has no army left to place"
    if isinstance(order, Waive):
        return None if picks[0] == power else f"only the player in turn waives ({picks[0]} now)"
    if not isinstance(order, Place):
        return None
    return _sites_problem(variant.board, position.units, order.provinces)
