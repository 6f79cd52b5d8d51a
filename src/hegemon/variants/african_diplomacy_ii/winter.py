"""Winter in African Diplomacy II (rules B): besides the builds and disbands, each player may
declare home centers, up to four in all, among the supply centers it owns; a declaration
is final, and takes effect at once, so that the player may build on it that same Winter.
Builds go only on declared home centers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from hegemon.adjudication.outcome import Outcome, Verdict
from hegemon.game import ADJUSTMENTS, Procedure, Resolution, Turn, Variant
from hegemon.game.forms import Menu, OrderForm, listed
from hegemon.game.menus import adjustment_menu
from hegemon.orders import Build, Disband, Order, Waive
from hegemon.position import PhaseKind, Position, Viewer
from hegemon.reasons import VariantReason, Void
from hegemon.rules import Edition, Rules
from hegemon.variants.african_diplomacy_ii.orders import Declare
from hegemon.variants.african_diplomacy_ii.state import AfricanState


class AfricanRules(Rules):
    """Civil disorder measures to the power's home centers, or, while it has declared none,
    to the centers it owns (decided: the rules are silent); under the 2023 rules, to the
    centers it owns, as always."""

    def disorder_sources(
        self, power: str, homes: frozenset[str], position: Position
    ) -> frozenset[str]:
        if homes and self.edition is Edition.RULES_2000:
            return homes
        return frozenset(position.centers_of(power))


@dataclass(frozen=True)
class Winter(Procedure):
    """The standard adjustment phase, with declarations of home centers before the builds;
    played whenever a player may declare one, even with no build or disband due."""

    kind = PhaseKind.ADJUSTMENT
    orders = (Build, Disband, Waive, Declare)
    most_homes: int

    def enter(self, variant: Variant, position: Position) -> Position:
        return ADJUSTMENTS.enter(variant, position)

    def declarers(self, variant: Variant, position: Position) -> dict[str, int]:
        """Each player that may declare home centers now, with how many it may declare
        this Winter: no more than its four less those declared, nor than the centers it
        owns that are nobody's home."""
        homes = AfricanState.of(position).homes
        may = {}
        for power in variant.powers:
            room = self.most_homes - len(homes.get(power, ()))
            more = min(room, len(_undeclared(position, power)))
            if more > 0:
                may[power] = more
        return may

    def due(self, variant: Variant, position: Position) -> bool:
        return ADJUSTMENTS.due(variant, position) or bool(self.declarers(variant, position))

    def actors(self, variant: Variant, position: Position) -> tuple[str, ...]:
        acting = set(ADJUSTMENTS.actors(variant, position)) | set(self.declarers(variant, position))
        return tuple(p for p in variant.powers if p in acting)

    def waits_for(self, variant: Variant, position: Position, power: str) -> bool:
        """Only for builds or disbands due, the builds on centers it may still declare
        counted: a declaration alone is optional."""
        declaring = power in self.declarers(variant, position)
        after = _as_if_declared(position, power) if declaring else position
        return ADJUSTMENTS.awaits(variant, after, power)

    def resolve(self, turn: Turn) -> Resolution:
        """The declarations first, then the builds and disbands on the homes as declared."""
        declared, outcomes = self._declare(turn.variant, turn.position, turn.orders)
        others = {
            power: [o for o in given if not isinstance(o, Declare)]
            for power, given in turn.orders.items()
        }
        adjusted = ADJUSTMENTS.resolve(turn.replace(position=declared, orders=others))
        return Resolution(
            adjusted.after, lambda: (*outcomes, *adjusted.explain()), adjusted.destroyed
        )

    def _declare(
        self, variant: Variant, position: Position, orders: Mapping[str, Sequence[Order]]
    ) -> tuple[Position, list[Outcome]]:
        state = AfricanState.of(position)
        homes = {p: list(cs) for p, cs in state.homes.items()}
        outcomes = []
        for power, given in orders.items():
            for order in given:
                if not isinstance(order, Declare):
                    continue
                problem = self._declaration_problem(variant, position, homes, power, order.center)
                if problem:
                    outcomes.append(Outcome(power, order, Verdict.VOID, Void(problem)))
                    continue
                homes.setdefault(power, []).append(order.center)
                declared = VariantReason(
                    "declared_home", "Declared a home center", center=order.center
                )
                outcomes.append(Outcome(power, order, Verdict.SUCCEEDS, declared))
        if not outcomes:
            return position, outcomes
        state = replace(state, homes={p: tuple(cs) for p, cs in homes.items()})
        return position.evolve(state=state), outcomes

    def _declaration_problem(
        self,
        variant: Variant,
        position: Position,
        homes: Mapping[str, list[str]],
        power: str,
        center: str,
    ) -> str | None:
        name = variant.board.name_of(center)
        owner = next((p for p, cs in homes.items() if center in cs), None)
        if owner is not None:
            return f"{name} is already a home center of {owner}, for good"
        if position.centers.get(center) != power:
            return f"{power} does not own {name}"
        if len(homes.get(power, ())) >= self.most_homes:
            return f"{power} has declared its {self.most_homes} home centers already"
        return None

    def random_orders(
        self, variant: Variant, position: Position, rng: random.Random
    ) -> dict[str, list[Order]]:
        """Random declarations among the centers each player owns, then random builds and
        disbands as though they were made."""
        declarations: dict[str, list[Order]] = {}
        for power, more in self.declarers(variant, position).items():
            owned = _undeclared(position, power)
            chosen = rng.sample(owned, rng.randint(0, min(more, len(owned))))
            if chosen:
                declarations[power] = [Declare(c) for c in chosen]
        after, _ = self._declare(variant, position, declarations)
        orders = ADJUSTMENTS.random_orders(variant, after, rng)
        for power, given in declarations.items():
            orders[power] = [*given, *orders.get(power, [])]
        return orders

    def check(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """The orders tried as the phase would resolve them, a build on a center the player
        may still declare taken with its declaration: orders come in several goes, and the
        declaration may follow (`unordered` says it is missing; without it the build is
        void)."""
        implied = self._declarations_wanted(position, power, orders)
        return super().check(variant, position, power, [*implied, *orders])

    def _declarations_wanted(
        self, position: Position, power: str, orders: Sequence[Order]
    ) -> dict[Declare, Build]:
        """The declarations the builds among `orders` need and that they do not make, as
        many as the player may still make, each with the first build needing it."""
        declared = {o.center for o in orders if isinstance(o, Declare)}
        homes = AfricanState.of(position).homes.get(power, ())
        room = self.most_homes - len(homes) - len(declared)
        undeclared = set(_undeclared(position, power)) - declared
        wanted: dict[Declare, Build] = {}
        for order in orders:
            if isinstance(order, Build) and order.province in undeclared:
                wanted.setdefault(Declare(order.province), order)
        return dict(list(wanted.items())[: max(room, 0)])

    def menu(self, variant: Variant, position: Position, power: str) -> Menu:
        """The centers `power` may declare, then the builds or disbands of the standard
        phase, the builds on every center it may still declare included (a declaration
        takes effect at once)."""
        if power not in self.declarers(variant, position):
            return adjustment_menu(variant, position, power)
        declarations = tuple(listed(Declare(c), at=(c,)) for c in _undeclared(position, power))
        homes_form = OrderForm("home centers", "Home centers", declarations)
        return (homes_form, *adjustment_menu(variant, _as_if_declared(position, power), power))

    def unordered(
        self, variant: Variant, position: Position, power: str, orders: Sequence[Order]
    ) -> list[str]:
        """The builds or disbands still due once the declarations given take effect, and
        the declarations the builds given still need."""
        declared, _ = self._declare(variant, position, {power: orders})
        missing = ADJUSTMENTS.unordered(variant, declared, power, orders)
        wanted = self._declarations_wanted(position, power, orders)
        return [*missing, *(_warning(d, b) for d, b in wanted.items())]

    def status_lines(self, variant: Variant, position: Position, viewer: Viewer) -> list[str]:
        may = self.declarers(variant, position)
        lines = ADJUSTMENTS.status_lines(variant, position, viewer)
        if may:
            listed = ", ".join(f"{p} {n}" for p, n in may.items())
            lines.append(f"Home centers that may be declared: {listed}")
        return lines


def _warning(declaration: Declare, build: Build) -> str:
    """What a build on a center still to declare lacks, said as its sender reads it when
    the build is sent: without the declaration, the build is void at adjudication."""
    return f"{declaration.format()} ({build.format()} is void without it)"


def _as_if_declared(position: Position, power: str) -> Position:
    """The position as though `power` declared every center it owns that is nobody's home
    (the limit of four aside): what it may build on this Winter."""
    state = AfricanState.of(position)
    homes = {**state.homes, power: (*state.homes.get(power, ()), *_undeclared(position, power))}
    return position.evolve(state=replace(state, homes=homes))


def _undeclared(position: Position, power: str) -> list[str]:
    """The centers `power` owns that are nobody's home center, in order."""
    homes = AfricanState.of(position).homes
    declared = {c for centers in homes.values() for c in centers}
    return sorted(
        c for c, owner in position.centers.items() if owner == power and c not in declared
    )
