"""`make bench`'s lines that issue 27 sets targets for: each prints its figure with the
target and whether it is met. Figures are not tested (performance lives in benchmarks/);
that the lines are there, the verdicts right, and the benchmarks run, is."""

from __future__ import annotations

import re

import pytest
from benchmarks import classic_phases, menus
from benchmarks.targets import at_least, at_most

from hegemon.variants import load_variant


def test_a_target_says_whether_a_figure_meets_it() -> None:
    assert at_least(40).verdict(40.0) == "target >= 40x: met"
    assert at_least(40).verdict(39.9) == "target >= 40x: NOT met"
    assert at_most(2, "ms").verdict(1.5) == "target <= 2 ms: met"
    assert at_most(60, "us").verdict(61) == "target <= 60 us: NOT met"


def test_the_menus_benchmark_prints_each_target(capsys: pytest.CaptureFixture[str]) -> None:
    menus.main(["--phases", "4", "classic", "africa_ii"])
    out = capsys.readouterr().out
    assert re.search(r"all menus of a movement phase: \d+ us  target <= 60 us: (met|NOT met)", out)
    assert re.search(r"get_all_possible_orders\(\) .*x  target >= 50x: (met|NOT met)", out)
    assert re.search(r"africa_ii +4 .* target <= 3x: (met|NOT met)", out)


def test_the_classic_benchmark_holds_enough_of_each_kind_and_judges_movement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    classic = load_variant("classic")
    samples = classic_phases.collect(classic, 2, 20)
    assert {kind: len(held) for kind, held in samples.items()} == {kind: 2 for kind in samples}
    rows = [classic_phases.measure(classic, kind, samples[kind], runs=1) for kind in samples]
    classic_phases.print_report(rows, phases=20, runs=1)
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line[11:20].strip() in classic_phases.LINES]
    movement = [line for line in lines if line.startswith("movement ")]
    assert [line.split()[1] for line in movement] == ["parsed", "strings", "json"]
    assert [line.split("target ")[1].split(":")[0] for line in movement] == [
        ">= 40x",
        ">= 40x",
        ">= 25x",
    ]
    assert len(lines) == 9 and all("target" not in line for line in lines[3:])
