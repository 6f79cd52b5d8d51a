"""The pliant states of Europe 1615 as `setup.toml` describes them: the minor states, the
Barbary States, the Papal States and the Ottoman Empire."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from hegemon.board import Board
from hegemon.game import starting_unit
from hegemon.position import Unit
from hegemon.variants.europe_1615.ledger import CATHOLIC, ISLAMIC

# Final: compiled, a module's constant read in every phase is then no lookup in its dict.
MINOR: Final = "minor"
BARBARY: Final = "barbary"
PAPAL: Final = "papal"
EMPIRE: Final = "ottoman"


@dataclass(frozen=True)
class State:
    """A pliant state: a minor state, a Barbary State, the Papal States or the Empire."""

    id: str
    name: str
    label: str  # the two letters its units carry on the board (rules: Table 1 note)
    kind: str  # MINOR, BARBARY, PAPAL or EMPIRE
    provinces: tuple[str, ...]
    centers: tuple[str, ...]
    units: tuple[Unit, ...]  # its original units, which a free center rebuilds
    inf: int  # INFs a captor gains per center
    vp_capture: int
    vp_aligned: int
    vp_aligned_religious: int
    catholic_only: bool = False
    aliases: tuple[str, ...] = ()  # other spellings of its name accepted in orders

    @property
    def fixed_religion(self) -> str | None:
        if self.kind == PAPAL:
            return CATHOLIC
        if self.kind in (BARBARY, EMPIRE):
            return ISLAMIC
        return None

    @property
    def heading(self) -> str:
        """How reports name it: ``Saxony (Sx)``."""
        return f"{self.name} ({self.label})"

    def called(self, spelling: str) -> bool:
        """Whether an order may name the state so: id, label, name or alias, any case."""
        folded = spelling.strip().casefold()
        names = (self.id, self.label, self.name, *self.aliases)
        return folded in (n.casefold() for n in names)


def read_state(board: Board, sid: str, spec: Mapping[str, Any], problems: list[str]) -> State:
    """One state from its `setup.toml` table; every problem is added to `problems`. (Untyped:
    the table as TOML reads it.)"""
    name = str(spec.get("name", sid))
    units = tuple(
        u
        for u in (starting_unit(board, name, str(t), problems) for t in spec.get("units", ()))
        if u is not None
    )
    for place in (*spec.get("provinces", ()), *spec.get("centers", ())):
        if place not in board.provinces:
            problems.append(f"state {name}: unknown province {place!r}")
    return State(
        id=sid,
        name=name,
        label=str(spec.get("label", sid)),
        kind=str(spec.get("kind", MINOR)),
        provinces=tuple(spec.get("provinces", ())),
        centers=tuple(spec.get("centers", ())),
        units=units,
        inf=int(spec.get("inf", 0)),
        vp_capture=int(spec.get("vp_capture", 0)),
        vp_aligned=int(spec.get("vp_aligned", 0)),
        vp_aligned_religious=int(spec.get("vp_aligned_religious", 0)),
        catholic_only=bool(spec.get("catholic_only", False)),
        aliases=tuple(str(a) for a in spec.get("aliases", ())),
    )
