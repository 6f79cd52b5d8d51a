"""Variants: each a folder of data (map.toml, setup.toml) beside this module.

`load_variant("classic")` reads and validates a variant once and caches it. A variant whose
rules differ from the standard game registers its `Rules` subclass here; the rest of the
judge only ever sees the `Variant` object.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from hegemon.board import Board, MapError, UnitType, load_board, province_of
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
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


@dataclass(frozen=True, eq=False)
class Variant:
    id: str
    board: Board
    powers: Mapping[str, Power]
    start_year: int
    victory_centers: int
    rules: Rules = field(default=STANDARD)

    def home_power(self, province: str) -> str | None:
        """The power whose home center this is, if any."""
        return self._home_owner.get(province)

    @property
    def _home_owner(self) -> dict[str, str]:
        return {c: p.name for p in self.powers.values() for c in p.home_centers}

    def initial_position(self) -> Position:
        units = {u.province: u for p in self.powers.values() for u in p.units}
        centers = {c: p.name for p in self.powers.values() for c in p.home_centers}
        phase = Phase(self.start_year, Season.SPRING, PhaseKind.MOVEMENT)
        return Position.create(phase, units, centers)

    def power_named(self, spelling: str) -> str | None:
        """The power for a name or adjective in any case ("england", "English")."""
        folded = spelling.strip().lower()
        for power in self.powers.values():
            if folded in (power.name.lower(), power.adjective.lower()):
                return power.name
        return None


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
    return _variant_from_setup(name, board, setup, str(setup_path))


def _variant_from_setup(name: str, board: Board, setup: Mapping[str, Any], source: str) -> Variant:
    problems: list[str] = []
    powers: dict[str, Power] = {}
    for power_name, spec in setup.get("powers", {}).items():
        homes = tuple(spec.get("home", ()))
        for center in homes:
            if center not in board.provinces or not board.provinces[center].center:
                problems.append(f"{power_name}: home {center!r} is not a supply center")
        units = tuple(
            _starting_unit(board, power_name, text, problems) for text in spec.get("units", ())
        )
        powers[power_name] = Power(
            name=power_name,
            adjective=str(spec.get("adjective", power_name)),
            color=str(spec.get("color", "#888888")),
            home_centers=homes,
            units=tuple(u for u in units if u is not None),
        )
    game = setup.get("game", {})
    if not powers:
        problems.append("no [powers] defined")
    if problems:
        raise MapError(source, problems)
    return Variant(
        id=name,
        board=board,
        powers=powers,
        start_year=int(game.get("start_year", 1901)),
        victory_centers=int(game.get("victory_centers", len(board.centers) // 2 + 1)),
    )


def _starting_unit(board: Board, power: str, text: str, problems: list[str]) -> Unit | None:
    kind, _, location = text.partition(" ")
    try:
        unit_type = UnitType(kind.upper())
    except ValueError:
        problems.append(f"{power}: starting unit {text!r} must begin with A or F")
        return None
    location = location.strip().lower()
    if not board.can_hold(unit_type, location):
        problems.append(
            f"{power}: starting unit {text!r} cannot stand in {province_of(location)!r}"
        )
        return None
    return Unit(power, unit_type, location)
