"""Shared fixtures: the classic variant and small helpers to state positions tersely."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

import hegemon.board
from hegemon.board import STANDARD_KINDS, Board
from hegemon.cli import main
from hegemon.game import Variant
from hegemon.notation import parse_order
from hegemon.orders import Order
from hegemon.position import Phase, PhaseKind, Position, Season, Unit
from hegemon.variants import load_variant

# The DATC cases the suite runs, converted from ../shared/datc by tools/import_datc.py.
DATC_DIR = Path(__file__).resolve().parent / "data" / "datc"


# The build a run asks for (the Makefile sets HEGEMON_BUILD): the pure package, or the
# compiled core put first on PYTHONPATH. A compiled build can differ silently from the
# pure one, so a run that meant to test it must not test the other by mistake.
BUILDS = {"pure": "pure Python", "compiled": "compiled core"}


def imported_build() -> str:
    """Which build of Hegemon this process imported: its core modules as mypyc extension
    modules, or as Python source."""
    return "compiled" if not hegemon.board.__file__.endswith(".py") else "pure"


def pytest_sessionstart(session: pytest.Session) -> None:
    asked = os.environ.get("HEGEMON_BUILD")
    if asked is not None and asked not in BUILDS:
        raise pytest.UsageError(f"HEGEMON_BUILD={asked!r}: one of {', '.join(BUILDS)}")
    if asked is not None and asked != imported_build():
        raise pytest.UsageError(
            f"HEGEMON_BUILD={asked} asks for the {BUILDS[asked]}, but the "
            f"{BUILDS[imported_build()]} was imported, from {hegemon.board.__file__}"
        )


def pytest_report_header() -> str:
    return f"hegemon: the {BUILDS[imported_build()]}, from {Path(hegemon.board.__file__).parent}"


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


Command = Callable[..., str]  # the `hegemon` command, as the `cli` fixture runs it


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Command:
    """The `hegemon` command as a function of its arguments, returning what it printed
    once it has succeeded (a failure shows what it wrote to stderr)."""

    def run(*argv: str) -> str:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    return run


def run_cli(*argv: str) -> str:
    """The `cli` fixture's command for a fixture that outlives one test (a game played
    once for a whole module), where `capsys` cannot serve: its output caught here."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code == 0, err.getvalue()
    return out.getvalue()
