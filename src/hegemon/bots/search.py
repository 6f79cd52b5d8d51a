"""The bot's search: candidate order sets for its power, each played by the judge itself
against a few sampled replies of the other powers, and scored by the evaluation.

`Playouts` plays a candidate against the same replies every time (the same draws of
chance too), so that two candidates are compared on equal terms, and stops when the
budget is spent: CPU seconds, or a count of playouts, which alone bounds a search that
must give the same orders on any machine.

The other powers' replies are drawn from their units' moves on the map (a hold, or a move
to a neighbouring location, and now and then a support of a move of their own), mostly
the moves the heuristics rate best for them. Not from their menus: working out a
classic power's menu costs about as much as a hundred playouts, and the judge treats an
order it cannot follow as a hold, as the rules do, so a reply needs no menu to be played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hegemon.bots.evaluation import evaluate
from hegemon.bots.heuristics import Change, Outlook, Plan, attacks, backs, convoys, ranked
from hegemon.game import chances_for, play_phase, settle
from hegemon.game.chance import Draw
from hegemon.game.forms import OrderForm
from hegemon.orders import Hold, Move, Order, Support, UnitOrder
from hegemon.position import Unit

FLOOR = 12  # playouts a time budget always allows where no unit moves: a build is judged
REPLIES = 3  # reply samples each candidate is played against
ALTERNATIVES = 4  # a unit's orders tried in place of its current one: its best few
SUPPORTING = 0.5  # how often an idle enemy unit supports a move of its own power
GREEDY = 0.7  # how often an enemy unit makes the move rated best for it
JITTER = 0.4  # how far apart two moves' values may be and either be rated best


@dataclass(frozen=True)
class Budget:
    """How far the bot searches for one decision: CPU seconds (`time.thread_time`), or,
    if `playouts` is given, that many playouts whatever the time they take, so that a
    seeded bot gives the same orders on any machine."""

    seconds: float = 0.01
    playouts: int | None = None


@dataclass(frozen=True)
class Reply:
    """One sample of what the other powers do, with the draws of chance the phase needs."""

    orders: Mapping[str, Sequence[Order]]
    draws: Mapping[str, Draw]


class Playouts:
    """Plays the power's candidate orders against sampled replies, within a budget."""

    def __init__(
        self,
        outlook: Outlook,
        budget: Budget,
        rng: random.Random,
        moving: bool,
        started: float,  # when the decision began (`time.thread_time`)
    ) -> None:
        self.outlook = outlook
        self.moving = moving  # units move this phase: the others' replies matter
        self.budget = budget
        self.rng = rng
        self.deadline = started + budget.seconds
        self.played = 0
        self._playing = 0.0  # CPU seconds the playouts took: what the next ones may take
        self.replies: list[Reply] = []
        self._choices: dict[str, list[Rated]] | None = None  # the others' units' orders

    def left(self, needed: int) -> bool:
        """Whether `needed` more playouts fit in the budget: in a time budget, whether
        they would end before the deadline if they take what the ones before took. (A
        phase where units move has no floor: the heuristics' plan stands without them.)"""
        if self.budget.playouts is not None:
            return self.played + needed <= self.budget.playouts
        if not self.moving and self.played + needed <= FLOOR:
            return True
        each = self._playing / self.played if self.played else 0.0
        return time.thread_time() + needed * each < self.deadline

    def value(self, orders: Sequence[Order], against: int = REPLIES) -> float | None:
        """The mean evaluation of `orders` over `against` replies (drawn when first
        needed, then the same for every candidate), or None if the budget has not room."""
        if not self.left(against):
            return None
        if len(self.replies) < against:
            self.replies += [self._reply() for _ in range(against - len(self.replies))]
            if not self.left(against):  # drawing them took time too
                return None
        outlook = self.outlook
        variant, position, power = outlook.variant, outlook.position, outlook.power
        started = time.thread_time()
        total = 0.0
        for reply in self.replies[:against]:
            result = play_phase(variant, position, {**reply.orders, power: orders}, reply.draws)
            total += evaluate(variant, result.after, power)
        self.played += against
        self._playing += time.thread_time() - started
        return total / against

    def _reply(self) -> Reply:
        outlook = self.outlook
        variant, position = outlook.variant, outlook.position
        draws = settle(chances_for(variant, position), None, self.rng)
        if not self.moving:
            return Reply({}, draws)
        if self._choices is None:
            self._choices = self._reply_choices()
        orders = {power: replies_of(choices, self.rng) for power, choices in self._choices.items()}
        return Reply(orders, draws)

    def _reply_choices(self) -> dict[str, list[Rated]]:
        """Each other power's units' orders a reply is drawn from, rated by the power's
        own outlook, which counts on our units moving off (as they may, in the
        candidates searched): the threats the search must meet."""
        variant, position = self.outlook.variant, self.outlook.position
        choices = {}
        for power in variant.calendar.procedure(position.phase).actors(variant, position):
            if power != self.outlook.power:
                theirs = Outlook.of(variant, position, power, hopeful=True)
                units = variant.commanded_units(position, power)
                choices[power] = [_rated(theirs, unit) for unit in units]
        return choices


Rated = list[tuple[float, UnitOrder]]  # a unit's orders, each with its heuristic value


def _rated(outlook: Outlook, unit: Unit) -> Rated:
    """A unit's hold and moves to each neighbouring location, rated. The neighbours are a
    set: sorted, so that a seeded draw among them is the same in every process."""
    board = outlook.variant.board
    options: list[UnitOrder] = [Hold(unit.type, unit.location)]
    if not unit.cargo:
        neighbours = sorted(board.neighbours(unit.type, unit.location))
        options += [Move(unit.type, unit.location, t) for t in neighbours]
    return [(outlook.value(o), o) for o in options]


def replies_of(units: Sequence[Rated], rng: random.Random) -> list[Order]:
    """A likely set of orders for a power's units: each mostly its best rated order,
    else any; then some idle units support a move of their power."""
    orders: list[UnitOrder] = []
    for rated in units:
        if rng.random() < GREEDY:  # ties (and near ties) broken at random
            orders.append(max(rated, key=lambda r: r[0] + rng.uniform(0, JITTER))[1])
        else:
            orders.append(rng.choice(rated)[1])
    moves = [o for o in orders if isinstance(o, Move)]
    for i, order in enumerate(orders):
        if isinstance(order, Hold) and moves and rng.random() < SUPPORTING:
            move = rng.choice(moves)
            if move.destination in _reach(units[i]):
                orders[i] = Support(order.unit, order.location, move.location, move.target)
    return list(orders)


def _reach(rated: Rated) -> set[str]:
    """The provinces a unit's rated moves reach: where it may support a move to."""
    return {o.destination for _, o in rated if isinstance(o, Move)}


def improve(
    playouts: Playouts, forms: Sequence[OrderForm], picked: Plan, fixed: Sequence[Order]
) -> Plan:
    """Local search from the units' planned choices: change one unit's order at a time
    (to one of its best few, or a support of a move of ours), keep the change if the
    mean over the same replies improves, until a pass changes nothing or the budget is
    spent. `fixed` are the power's other orders, played alongside."""
    outlook = playouts.outlook

    def orders_of(plan: Plan) -> list[Order]:
        return [*fixed, *(form.choices[i].order for form, i in zip(forms, plan, strict=True))]

    pairs = [*attacks(outlook, forms), *convoys(outlook, forms)]
    shortlists = [ranked(outlook, form)[:ALTERNATIVES] for form in forms]
    best = list(picked)
    best_value = playouts.value(orders_of(best))
    if best_value is None:
        return best
    changed = True
    while changed:
        changed = False
        turns = list(range(len(forms)))
        playouts.rng.shuffle(turns)
        for n in turns:
            for changes in _alternatives(forms, best, n, shortlists[n], pairs):
                trial = list(best)
                for m, i in changes:
                    trial[m] = i
                value = playouts.value(orders_of(trial))
                if value is None:
                    return best
                if value > best_value + 1e-9:
                    best, best_value, changed = trial, value, True
    return best


def _alternatives(
    forms: Sequence[OrderForm],
    plan: Plan,
    n: int,
    shortlist: Sequence[int],
    pairs: Sequence[tuple[Change, Change]],
) -> list[list[Change]]:
    """The changes worth trying for the `n`th unit: to one of its best few orders by the
    heuristics (`shortlist`), to a support of a move (or hold) its fellow units make now, or to a
    supported attack or a move overseas, with the support or the convoy."""
    form, current = forms[n], plan[n]
    tries = [[(n, i)] for i in shortlist if i != current]
    tries += [[move, support] for move, support in pairs if move[0] == n and move[1] != current]
    others = [
        f.choices[i].order for m, (f, i) in enumerate(zip(forms, plan, strict=True)) if m != n
    ]
    for i, choice in enumerate(form.choices):
        if i != current and isinstance(choice.order, Support) and backs(choice.order, others):
            tries.append([(n, i)])
    return tries
