"""Variants: each a folder of data (map.toml, setup.toml) beside this module.

`load_variant("classic")` reads and validates a variant once and caches it. A variant whose
game differs from the standard one has an ``__init__.py`` in its folder defining
``VARIANT``, a subclass of `Variant` that overrides the hooks below. This package and those
folders are the only places where a variant's name appears; the rest of the judge only
ever sees the `Variant` object and its `Rules`.
"""

from __future__ import annotations

import importlib
import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar, Self

from hegemon.board import Board, MapError, load_board
from hegemon.notation import read_order
from hegemon.orders import Order, ReadContext
from hegemon.position import Phase, PhaseKind, Position, Season, Unit, read_unit
from hegemon.rules import STANDARD, Rules

VARIANTS_DIR = Path(__file__).parent


class UnknownVariant(LookupError):
    def __init__(self, name: str) -> None:
        known = ", ".join(available_variants())
        super().__init__(f"unknown variant {name!r} (known: {known})")


@dataclass(frozen=True)
class Power:
    name: str
    adjective: str
    color: str
    home_centers: tuple[str, ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: a solo winner, or a draw shared by the powers named."""

    winners: tuple[str, ...] = ()
    draw: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.winners or self.draw)


PLAYING = GameEnd()  # the game goes on


@dataclass(frozen=True)
class Influence:
    """What a variant's influence economy makes of a phase's orders.

    `orders` are what the adjudicator sees (players' orders, plus orders for units nobody
    owns, under their owners' names); `public` are lines everyone may read, e.g. the
    neutral units' winning orders. A variant whose influence changes the state returns
    its new `extras`, and the `rules` that follow from it for this very phase.
    """

    orders: Mapping[str, Sequence[Order]]
    public: tuple[str, ...] = ()
    extras: Mapping[str, Any] | None = None
    rules: Rules | None = None


@dataclass(frozen=True, eq=False)
class Variant:
    """A variant's board and setup, and the hooks through which its game differs.

    The defaults below are the standard game; a variant's subclass overrides what it needs.
    """

    id: str
    board: Board
    powers: Mapping[str, Power]
    start_year: int
    victory_centers: int
    options: Mapping[str, Any] = field(default_factory=dict)
    rules: Rules = field(default=STANDARD)
    seasons: tuple[Season, ...] = (Season.SPRING, Season.FALL)  # the movement seasons

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, Any], source: str) -> Self:
        problems: list[str] = []
        powers = _powers(board, setup, problems)
        if problems:
            raise MapError(source, problems)
        game = setup.get("game", {})
        try:
            seasons = tuple(Season(s) for s in game.get("seasons", ("Spring", "Fall")))
        except ValueError as exc:
            raise MapError(source, [f"[game] seasons: {exc}"]) from None
        return cls(
            id=id,
            board=board,
            powers=powers,
            start_year=int(game.get("start_year", 1901)),
            victory_centers=int(game.get("victory_centers", len(board.centers) // 2 + 1)),
            options=dict(setup.get("options", {})),
            seasons=seasons,
        )

    # --- the start ----------------------------------------------------------------------
    def initial_position(self, options: Mapping[str, Any] | None = None) -> Position:
        """The starting position; `options` override the variant's default game options."""
        units = {u.province: u for p in self.powers.values() for u in p.units}
        centers = {c: p.name for p in self.powers.values() for c in p.home_centers}
        phase = Phase(self.start_year, self.seasons[0], PhaseKind.MOVEMENT)
        chosen = self.game_options(options or {})
        return Position.create(phase, units, centers, extras={"options": chosen} if chosen else {})

    def game_options(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The variant's options with `overrides` applied; unknown names are refused."""
        unknown = sorted(set(overrides) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise ValueError(f"{self.id} has no option {unknown[0]!r} (options: {known})")
        return {**self.options, **overrides}

    # --- orders -------------------------------------------------------------------------
    order_types: ClassVar[tuple[type[Order], ...]] = ()  # the kinds of order it adds

    def read_context(self, units: Mapping[str, Unit] | None = None) -> ReadContext:
        """What its orders may name: the map, the units standing, the powers (variants
        add their own names, such as states)."""
        return ReadContext(self.board, units, {"power": self.power_named})

    def parse_order(self, text: str, units: Mapping[str, Unit] | None = None) -> Order:
        """One order as written (without the power): one of the variant's own kinds or a
        standard one. Raises OrderSyntaxError naming the text and the reason."""
        return read_order(text, self.read_context(units), self.order_types)

    # --- hooks a variant may override ---------------------------------------------------
    def rules_for(self, position: Position) -> Rules:
        """The rules object adjudicating this position."""
        return self.rules

    def home_centers(self, position: Position) -> Mapping[str, frozenset[str]]:
        """Each power's home centers now (some variants let powers name more)."""
        return self._setup_homes

    @cached_property
    def _setup_homes(self) -> Mapping[str, frozenset[str]]:
        return {p.name: frozenset(p.home_centers) for p in self.powers.values()}

    def order_problems(self, position: Position, power: str, orders: Sequence[Order]) -> list[str]:
        """Why orders the variant adds (bids, deployments) may not be submitted as given."""
        return []

    def influence(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> Influence:
        """Turn a phase's orders into the orders the adjudicator sees."""
        return Influence(orders)

    def enter_winter(self, position: Position) -> Position:
        """The year's end, once centers have changed hands and before any builds (e.g.
        interned units, scoring, next year's income); done even if nobody adjusts."""
        return position

    def automatic_builds(self, position: Position) -> list[Unit]:
        """Units the variant builds by itself this winter, where their site is vacant."""
        return []

    def after_adjustments(self, position: Position, built: Sequence[Unit]) -> Position:
        """The position once a winter's builds are done (e.g. recording new home centers)."""
        return position

    def allotment(self, position: Position, power: str) -> int:
        """Points `power` may spend this phase on units nobody owns (none by default)."""
        return 0

    def biddable_units(self, position: Position) -> list[Unit]:
        """The units whose orders are decided by the players' points, not by an owner."""
        return []

    def commanded_units(self, position: Position, power: str) -> list[Unit]:
        """The units whose orders `power` gives this phase: its own by default."""
        return [u for u in position.units.values() if u.power == power]

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        """What a random player adds to its orders in this variant's influence economy,
        given an order `planned` for every unit: nothing by default."""
        return []

    def game_end(self, position: Position) -> GameEnd:
        """Checked after the Fall retreats: a solo victory needs the victory threshold and
        strictly more centers than anyone else."""
        counts: dict[str, int] = {}
        for owner in position.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        ranked = sorted(counts.items(), key=lambda item: -item[1])
        if not ranked or ranked[0][1] < self.victory_centers:
            return PLAYING
        if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
            return PLAYING
        return GameEnd(winners=(ranked[0][0],))

    def report_group(self, power: str) -> str:
        """The heading a power's orders appear under in the report."""
        return power

    def public_extras(self, position: Position) -> Mapping[str, Any]:
        """The variant's state as the players may see it (secret allocations left out)."""
        return position.extras

    def standings(self, position: Position) -> list[str]:
        """Lines the report adds after the centers, such as victory points."""
        return []

    # --- names ------------------------------------------------------------------------
    def power_named(self, spelling: str) -> str | None:
        """The player's power for a name or adjective in any case ("england", "English")."""
        folded = spelling.strip().lower()
        for power in self.powers.values():
            if folded in (power.name.lower(), power.adjective.lower()):
                return power.name
        return None

    def owner_named(self, spelling: str) -> str | None:
        """Whoever may own units and centers: the players' powers and any the variant adds
        (such as minor powers nobody plays)."""
        return self.power_named(spelling)


def available_variants() -> list[str]:
    return sorted(p.parent.name for p in VARIANTS_DIR.glob("*/map.toml"))


@cache
def load_variant(name: str) -> Variant:
    folder = VARIANTS_DIR / name
    if not (folder / "map.toml").is_file():
        raise UnknownVariant(name)
    board = load_board(folder / "map.toml")
    setup_path = folder / "setup.toml"
    try:
        setup = tomllib.loads(setup_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(setup_path), [str(exc)]) from exc
    return _variant_class(name).from_setup(name, board, setup, str(setup_path))


def _variant_class(name: str) -> type[Variant]:
    if not (VARIANTS_DIR / name / "__init__.py").is_file():
        return Variant
    module = importlib.import_module(f"{__name__}.{name}")
    variant_class: type[Variant] = module.VARIANT
    return variant_class


def _powers(board: Board, setup: Mapping[str, Any], problems: list[str]) -> dict[str, Power]:
    powers: dict[str, Power] = {}
    for power_name, spec in setup.get("powers", {}).items():
        homes = tuple(spec.get("home", ()))
        for center in homes:
            if center not in board.provinces or not board.provinces[center].center:
                problems.append(f"{power_name}: home {center!r} is not a supply center")
        units = [starting_unit(board, power_name, text, problems) for text in spec.get("units", ())]
        powers[power_name] = Power(
            name=power_name,
            adjective=str(spec.get("adjective", power_name)),
            color=str(spec.get("color", "#888888")),
            home_centers=homes,
            units=tuple(u for u in units if u is not None),
        )
    if not powers:
        problems.append("no [powers] defined")
    return powers


def starting_unit(board: Board, power: str, text: str, problems: list[str]) -> Unit | None:
    try:
        return read_unit(board, power, text)
    except ValueError as exc:
        problems.append(f"{power}: starting {exc}")
        return None
