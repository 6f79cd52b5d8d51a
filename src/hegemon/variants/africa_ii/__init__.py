"""Africa II (Richard Egan, Vienna 57, July 1989): five superpowers, not on the board,
control Africa's states through Influence Points (IPs). The rules text has a numbered list;
what differs from the standard game, by rule:
- a.2, a.3, a.13 (`states`, `procedures`): the players are the superpowers; the states own
  the units and centers, each starting with an army in each home center, building armies
  only; a state's units follow its controller's orders.
- a.4 (`scoring`): Spring 1961 to the Autumn of 1970 (option `last_year`: 1971, as d.ii
  says), or until one power controls more than half the units after an adjustment.
- a.5 to a.12 (`influence`): the Spring IP phase after the Spring retreats: holdings
  halved, spending in secret, control by the largest holding, civil war.
- a.6, c.1, c.3 (`autumn`): the revenue published after the Autumn adjustments; conquered
  states re-established; military aid.
- c.2: Namibia, part of the RSA, declared independent by the RSA's controller, or
  re-established as a conquered state.
- c.4 (`events`): the optional random events table, a die of ten each Spring.
- d.i, d.ii (`scoring`): 21 centers at any time; victory points at the end.
- b (`rules`, `landings`, `interventions`, `guerillas`, `revolutions`): the intervention
  units, the paratroops, marines and fleets off the board at the start, dropped, landed,
  entering and leaving it through the core's units aboard and off the board, paying their
  upkeep and lost for good; the guerillas raised and disbanded after the retreats,
  capturing centers, costing their power its IPs where they operate, making revolutions
  and liberating Namibia.
Decisions where the rules are silent: docs/variants/africa_ii.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Self

from hegemon.board import OFFBOARD, Board, MapError
from hegemon.game import Chance, Draw, GameEnd, Marks, Owner, Preparation, Step, Variant
from hegemon.game.phases import Calendar
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order, ReadContext
from hegemon.position import PhaseKind, Position, Season, Unit, Viewer
from hegemon.rules import Edition, Rules
from hegemon.variants.africa_ii import declarations, guerillas, preparation, scoring
from hegemon.variants.africa_ii.board import state_marks
from hegemon.variants.africa_ii.book import Book
from hegemon.variants.africa_ii.events import ARMY, RANDOM_EVENT, read_events
from hegemon.variants.africa_ii.guerillas import GUERILLA
from hegemon.variants.africa_ii.influence import INFLUENCE, InfluencePhase
from hegemon.variants.africa_ii.ledger import Ledger
from hegemon.variants.africa_ii.lines import own_lines, standing_lines
from hegemon.variants.africa_ii.orders import Aid, CivilWar, Independence, Raise, Spend
from hegemon.variants.africa_ii.own import in_autumn
from hegemon.variants.africa_ii.preparation import year_begins
from hegemon.variants.africa_ii.procedures import (
    AfricaAdjustments,
    AfricaMovement,
    AfricaRetreats,
)
from hegemon.variants.africa_ii.rules import FLEET, MARINE, AfricaRules
from hegemon.variants.africa_ii.states import read_states

# A unit in the rulebook's notation, its letter and its province in brackets: ``M.(SAO)``.
_RULEBOOK_UNIT = re.compile(r"\b([A-Za-z])\.\(\s*([^()\s]+)\s*\)")

__all__ = ["INFLUENCE", "AfricaII", "Aid", "CivilWar", "Independence", "Ledger", "Raise", "Spend"]


@dataclass(frozen=True, eq=False)
class AfricaII(Variant):
    book: Book = field(default_factory=Book)
    power_aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The rules last built, with the ledger they are of: they hang on the ledger alone, and
    # every power's menu and check of a phase asks for them. One entry, replaced whole, so
    # that games played side by side never mix; the ledger is public (`ledger`).
    _last_rules: list[tuple[Ledger, AfricaRules]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @classmethod
    # Untyped: the setup's nested tables as TOML reads them, each value narrowed where it is read
    # (the base's own part is read as Mapping[str, object], `hegemon.game.setup_table`).
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        variant = super().from_setup(id, board, setup, source)
        problems: list[str] = []
        powers = tuple(variant.powers)
        states = read_states(board, setup.get("states", {}), powers, problems)
        events = read_events(setup.get("events", {}), states, powers, problems)
        numbers = _ip_numbers(setup.get("ip", {}), problems)
        intervention = _intervention(setup.get("intervention", {}), board, powers, problems)
        if problems:
            raise MapError(source, problems)
        book = Book(powers, states, events, **numbers, intervention=intervention)
        aliases = {p: tuple(spec.get("aliases", ())) for p, spec in setup["powers"].items()}
        owners = {s.name: Owner(s.name, aliases=s.aliases) for s in states.values()}
        calendar = _calendar(variant.calendar, book)
        return replace(variant, book=book, power_aliases=aliases, calendar=calendar, owners=owners)

    # --- the start and the state ---------------------------------------------------------
    def initial_position(self) -> Position:
        """Each state with an army in each home center (a.13), the superpowers with their
        base income to spend at the first IP phase (a.6)."""
        ledger = Ledger.start({p: self.book.base_income for p in self.powers})
        homes = self.book.territory(ledger).homes
        army = self.board.kinds[ARMY]
        units = {c: Unit(state, army, c) for state, cs in homes.items() for c in sorted(cs)}
        centers = {c: state for state, cs in homes.items() for c in cs}
        offboard = self._intervention_units()
        return Position.create(
            self.calendar.first_phase(), units, centers, state=ledger, offboard=offboard
        )

    def _intervention_units(self) -> tuple[Unit, ...]:
        """The paratroops, marines and fleets, off the board at the start (b.6: "These
        units start the game off-board"), each marine aboard its power's fleet, which
        lands it (b.5)."""
        placed = []
        for power, letters in self.book.intervention.items():
            aboard = tuple(
                Unit(power, self.board.kinds[k], OFFBOARD) for k in letters if k == MARINE
            )
            for letter in letters:
                unit = Unit(power, self.board.kinds[letter], OFFBOARD)
                if letter == FLEET:
                    placed.append(unit.carrying(aboard))
                elif letter not in (MARINE, GUERILLA):
                    placed.append(unit)
        return tuple(placed)

    def read_state(self, data: Mapping[str, object]) -> Ledger:
        ledger = Ledger.from_json(data, self.powers, self.book.states)
        dependent = [s for s in ledger.independent if not self.book.states[s].within]
        if dependent:
            raise ValueError(f"state.independent: {dependent[0]} is part of no other state")
        unknown = [n for n in (*ledger.events, ledger.event) if n and n not in self.book.events]
        if unknown:
            raise ValueError(f"state.events: {unknown[0]} is no random event's number")
        for name in ("raising", "disbanding"):
            nowhere = [p for p in getattr(ledger, name) if p not in self.board.provinces]
            if nowhere:
                raise ValueError(f"state.{name}: {nowhere[0]!r} is no province")
        for name in ("lost", "deployed"):
            for power, letters in getattr(ledger, name).items():
                if not set(letters) <= set(self.book.intervention.get(power, ())):
                    raise ValueError(f"state.{name}.{power}: {list(letters)}: not its units")
        return ledger

    def home_centers(self, position: Position) -> Mapping[str, frozenset[str]]:
        return self.book.territory(Ledger.of(position)).homes

    def rules_for(self, position: Position) -> Rules:
        ledger = Ledger.of(position)
        last = self._last_rules
        if last and last[0][0] is ledger:
            return last[0][1]
        rules = AfricaRules(self.book, self.board, ledger, self._edition)
        self._last_rules[:] = [(ledger, rules)]
        return rules

    @cached_property
    def _edition(self) -> Edition:
        """The `edition` option, read once: the rules are built again for every ledger,
        some phases several times, and reading the option makes an enum member each time."""
        return self.edition

    # --- names ---------------------------------------------------------------------------
    def power_named(self, spelling: str) -> str | None:
        """A superpower by name, adjective or another name the rules give it (Russia)."""
        found = super().power_named(spelling)
        folded = spelling.strip().casefold()
        return found or next(
            (p for p, names in self.power_aliases.items() if folded in map(str.casefold, names)),
            None,
        )

    def _state_named(self, spelling: str) -> str | None:
        return next((s.name for s in self.book.states.values() if s.called(spelling)), None)

    def read_context(self, units: Mapping[str, Unit] | None = None) -> ReadContext:
        """Orders name states by name or alias (``5: Kenya``); a province names its state
        in the reason a spending on it is refused."""
        context = super().read_context(units)

        def state_of(spelling: str) -> str | None:
            province = self.board.lookup(spelling)
            return self.book.state_listing.get(province) if province else None

        names = {**context.names, "state": self._state_named, "state of": state_of}
        return replace(context, names=names)

    # --- orders --------------------------------------------------------------------------
    def parse_order(self, text: str, units: Mapping[str, Unit] | None = None) -> Order:
        """An order as written, the rulebook's own notation too: ``M.(SAO) - Lus`` (b.5),
        ``P.(Joh) - OFFBOARD``, ``M.(Dca) - F.(Gog)`` (b.8) read as ``M SAO - Lus`` ...; a
        refusal names the order as it was written."""
        plain = _RULEBOOK_UNIT.sub(r"\1 \2", text)
        try:
            return super().parse_order(plain, units)
        except OrderSyntaxError as refused:
            raise OrderSyntaxError(text, refused.reason) from None

    def eliminated(self, position: Position, power: str) -> bool:
        """Never by the standard test: the players are the superpowers, off the board,
        whose states own the units and centers (a.2, a.3)."""
        return False

    def commander_of(self, position: Position, unit: Unit) -> str | None:
        return self.book.commander(Ledger.of(position), unit.power)

    def commanded_units(self, position: Position, power: str) -> list[Unit]:
        """Those whose `commander_of` is `power`, their owners found once: every menu
        asks this of every unit on the board."""
        owners = self.book.commanded_owners(Ledger.of(position), power)
        return [u for u in position.units.values() if u.power in owners]

    def may_order(self, position: Position, power: str, unit: Unit) -> bool:
        return self.commander_of(position, unit) == power

    # --- each phase ----------------------------------------------------------------------
    def chances(self, position: Position) -> tuple[Chance, ...]:
        """The random event, with the option (c.4): each Spring's moves, a die of ten
        rolled again on the numbers that came up before, while any is left."""
        if not self.options.get("random_events") or not year_begins(self.calendar, position):
            return ()
        used = Ledger.of(position).events
        if len(used) >= len(self.book.events):
            return ()
        return (Chance(RANDOM_EVENT, sides=len(self.book.events), rerolled=tuple(sorted(used))),)

    def prepare(
        self, position: Position, orders: Mapping[str, Sequence[Order]], draws: Mapping[str, Draw]
    ) -> Preparation:
        return preparation.prepare(self, position, orders, draws)

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        autumn = in_autumn(self, position)
        declared = declarations.random_declarations(self.book, position, power, rng, autumn)
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return declared
        return declared + guerillas.random_orders(self.book, self.board, position, power, rng)

    # --- the end -------------------------------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        return self._ending.of(position)

    @cached_property
    def _ending(self) -> scoring.Ending:
        """The game's end, found by the compiled core from the options read once: the
        phase machine asks after every phase and every phase it enters."""
        return scoring.Ending(self.book, self.victory_centers, int(self.options["last_year"]))

    def points(self, position: Position) -> Mapping[str, int]:
        """Victory points as the game's end would count them now (d.ii)."""
        scores = scoring.victory_points(self.book, position)
        return {power: sum(parts.values()) for power, parts in scores.items()}

    # --- what each viewer reads ------------------------------------------------------------
    def standings(self, position: Position) -> list[str]:
        return standing_lines(self.book, position, int(self.options["last_year"]))

    def position_lines(self, position: Position, viewer: Viewer) -> list[str]:
        power = viewer.power
        if power is None or power not in self.powers:
            return []
        return own_lines(self.book, position, power)

    def report_lines(self, before: Position, after: Position, viewer: Viewer) -> list[str]:
        """A superpower reads its own summary in a report that changed its states or its
        revenue (the IP phase, the Autumn adjustments)."""
        power = viewer.power
        if power is None or power not in self.powers:
            return []
        was, now = Ledger.of(before), Ledger.of(after)
        if (was.controlled_by(power), was.revenue.get(power)) == (
            now.controlled_by(power),
            now.revenue.get(power),
        ):
            return []
        return own_lines(self.book, after, power)

    def board_marks(self, position: Position, viewer: Viewer) -> Marks:
        colors = {p.name: p.color for p in self.powers.values()}
        return state_marks(self.book, position, colors)


def _ip_numbers(ip: Mapping[str, object], problems: list[str]) -> dict[str, int]:
    """The numbers of the rules `[ip]` gives: the income, the aid's cost, the VPs."""
    numbers = {}
    names = ("base_income", "aid_cost", "state_vp", "liberation_vp", "upkeep_percent")
    for name in (*names, "guerilla_margin"):
        value = ip.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(f"[ip] {name}: a whole number from 0, not {value!r}")
            value = 0
        numbers[name] = value
    return numbers


def _intervention(
    setup: Mapping[str, object], board: Board, powers: Sequence[str], problems: list[str]
) -> dict[str, tuple[str, ...]]:
    """The kinds of intervention unit each superpower places, `[intervention]` (b.2, b.10)."""
    kinds = {}
    for power, letters in setup.items():
        if power not in powers:
            problems.append(f"[intervention] {power!r} is not a superpower")
        elif not isinstance(letters, list) or not set(letters) <= set(board.kinds) - {ARMY}:
            problems.append(f"[intervention] {power}: a list of the map's unit letters but A")
        elif MARINE in letters and FLEET not in letters:
            problems.append(f"[intervention] {power}: a marine lands from its fleet (rules b.5)")
        else:
            kinds[power] = tuple(letters)
    return kinds


def _calendar(standard: Calendar, book: Book) -> Calendar:
    """The year of the rules' seasons: each one's moves and retreats, the IP phase after
    the first's (a.7), the adjustments after the last's (a.6: "Autumn adjustments")."""
    seasons = tuple(dict.fromkeys(s.season for s in standard.year if s.season is not Season.WINTER))
    movement, retreats = AfricaMovement(book), AfricaRetreats(book)
    steps = [Step(season, p) for season in seasons for p in (movement, retreats)]
    steps.insert(2, Step(seasons[0], InfluencePhase(book)))
    steps.append(Step(seasons[-1], AfricaAdjustments(book)))
    return replace(standard, year=tuple(steps))


VARIANT = AfricaII
