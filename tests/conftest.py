"""Shared fixtures: the classic variant and small helpers to state positions tersely."""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from hegemon.board import STANDARD_KINDS, Board
from hegemon.game import Variant
from hegemon.notation import parse_order
from hegemon.orders import Order
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
from hegemon.variants import load_variant

# The DATC cases the suite runs, converted from ../shared/datc by tools/import_datc.py.
DATC_DIR = Path(__file__).resolve().parent / "data" / "datc"


@pytest.fixture(scope="session", autouse=True)
def _territories_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Boards derive their territories afresh in the tests: none read from a store that
    an earlier run (or the user's own drawings) left behind."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HEGEMON_CACHE", str(tmp_path_factory.mktemp("territories")))
        yield


@pytest.fixture(scope="session")
def classic() -> Variant:
    return load_variant("classic")


@pytest.fixture(scope="session")
def board(classic: Variant) -> Board:
    return classic.board


def units(spec: Mapping[str, Sequence[str]]) -> dict[str, Unit]:
    """``{"France": ["A par", "F spa/nc"]}`` to units by province."""
    placed = {}
    for power, texts in spec.items():
        for text in texts:
            kind, location = text.split()
            unit = Unit(power, STANDARD_KINDS[kind], location)
            placed[unit.province] = unit
    return placed


def spring(spec: Mapping[str, Sequence[str]], year: int = 1901) -> Position:
    return Position.create(Phase(year, Season.SPRING, PhaseKind.MOVEMENT), units(spec))


def orders(board: Board, spec: Mapping[str, Sequence[str]]) -> dict[str, list[Order]]:
    return {power: [parse_order(t, board) for t in texts] for power, texts in spec.items()}


def stdin(text: str | bytes) -> io.TextIOWrapper:
    """Standard input holding `text`, bytes underneath as a real one has."""
    data = text.encode() if isinstance(text, str) else text
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
