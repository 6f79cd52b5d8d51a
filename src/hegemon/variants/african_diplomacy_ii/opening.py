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


def _site(province: str) -> Choice:
    """A placement in a province, given by a click on it."""
    return listed(Place((province,)), at=(province,))


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
        sites = tuple(_site(p) for p in _open_sites(variant, position.units))
        return (OrderForm("draft", "Ranked list", sites, ranking=True, make=_ranked),)

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
    if len(set(order.provinces)) < len(order.provinces):
        return "a province is named twice"
    for province in order.provinces:
        problem = site_problem(variant.board, position.units, province)
        if problem:
            return problem
    return None


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
    """One player, one army at a time, in the order of play, round by round."""

    kind = PLACEMENT
    orders = (Place, Waive)
    one_at_a_time = True
    armies: int

    def due(self, variant: Variant, position: Position) -> bool:
        return bool(AfricanState.of(position).picks)

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        return AfricanState.of(position).picks[:1]

    def repeats(self, variant: Variant, position: Position) -> bool:
        return self.due(variant, position)

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        problems = [
            f"{order.format()}: {problem}"
            for order in orders
            if (problem := _placement_problem(variant, position, order))
        ]
        if len(orders) > 1:
            problems.append("one army is placed in each turn: give one order")
        return problems

    def resolve(self, turn: Turn) -> Resolution:
        """The acting player's first placement or waiver; without one, its turn passes."""
        variant, position = turn.variant, turn.position
        state = AfricanState.of(position)
        if not state.picks:  # only a position given by hand gets here with none
            return Resolution(position, lambda: _nothing_to_place(turn.orders))
        actor = state.picks[0]
        units = dict(position.units)
        outcomes: list[Outcome] = []
        used = False
        for power, given in turn.orders.items():
            for order in given:
                problem = (
                    f"it is {actor}'s turn"
                    if power != actor
                    else "one army is placed in each turn"
                    if used
                    else _placement_problem(variant, position, order)
                )
                if problem:
                    outcomes.append(Outcome(power, order, Verdict.VOID, Void(problem)))
                    continue
                used = True
                if isinstance(order, Place):
                    (province,) = order.provinces
                    units[province] = _placed(variant, power, province)
                outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, _placement_reason(order)))
        if not used:
            outcomes.append(Outcome(actor, Waive(), Verdict.SUCCEEDS, _NO_PLACEMENT))
        after = position.evolve(units=units, state=replace(state, picks=state.picks[1:]))
        return Resolution(after, lambda: tuple(outcomes))

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        (actor,) = self.actors(variant, position)
        return {actor: [Place((rng.choice(_open_sites(variant, position.units)),))]}

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """For the player whose turn it is, every open province, and waiving the turn."""
        if power not in self.actors(variant, position):
            return ()
        places = [_site(p) for p in _open_sites(variant, position.units)]
        army = self._army(position, power)
        return (OrderForm("placement", army, (*places, listed(Waive()))),)

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
        return [f"{_order_line(state)}; {actor} places {army} now"]


def _nothing_to_place(orders: Mapping[str, Sequence[Order]]) -> tuple[Outcome, ...]:
    void = Void("every army is placed already")
    return tuple(Outcome(p, o, Verdict.VOID, void) for p, given in orders.items() for o in given)


# The variant's reasons for a turn of the placement: an army placed, the turn waived by
# its player, or passed for want of an order.
_PLACED = VariantReason("placed", "Placed")
_WAIVED = VariantReason("waived", "Waived: no army placed")
_NO_PLACEMENT = VariantReason("no_placement", "No placement: waived")


def _placement_reason(order: Order) -> Why:
    return _PLACED if isinstance(order, Place) else _WAIVED


def _placement_problem(variant: Variant, position: Position, order: Order) -> str | None:
    if not isinstance(order, Place):
        return None
    if len(order.provinces) != 1:
        return "one province in each turn (ranked lists are for the draft)"
    return site_problem(variant.board, position.units, order.provinces[0])
