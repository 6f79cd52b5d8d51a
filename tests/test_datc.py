"""The DATC (v2.4 section 6) and the real-game case files, one test per case."""

from __future__ import annotations

import pytest

from hegemon.datc import DatcCase, read_cases, run_case
from tests.conftest import DATC_DIR


def _cases() -> list[DatcCase]:
    return [
        case
        for path in sorted(DATC_DIR.glob("*.txt"))
        for case in read_cases(path.read_text(encoding="utf-8"))
    ]


CASES = _cases()


def test_the_datc_files_are_all_read() -> None:
    names = [c.name for c in CASES]
    assert sum(1 for n in names if n.startswith("6.")) == 167
    assert len(names) == 185


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_datc_case(case: DatcCase) -> None:
    result = run_case(case)
    assert result.passed, f"{case.name}:\n{result.difference}"
