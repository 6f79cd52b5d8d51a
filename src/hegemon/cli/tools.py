"""The commands for the judge itself and for variants' authors: map check, map draw
(drawn by `hegemon.cli.drawing`), datc, demo."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from hegemon import demo
from hegemon.board import MapError
from hegemon.cli.common import (
    Commands,
    UserError,
    add_viewer_option,
    read_text,
    variant_loader,
)
from hegemon.datc import cases_of_file, merged, run_case
from hegemon.rules import Edition
from hegemon.variants import load_variant

FORMATS = ("svg", "png")  # what a board is drawn as


def add_commands(commands: Commands) -> None:
    datc = commands.add_parser(
        "datc", help="run DATC test files (a later file's case replaces an earlier one's)"
    )
    datc.add_argument("files", type=Path, nargs="+")
    datc.add_argument("-v", "--verbose", action="store_true", help="name every case")
    datc.add_argument(
        "--edition",
        choices=[e.value for e in Edition],
        default=Edition.RULES_2000.value,
        help="the rulebook the judge follows: 2000 (DATC 2.4, the default) or 2023 (DATC 3.0)",
    )
    datc.set_defaults(handler=_datc)

    board = commands.add_parser("map", help="check or draw a variant's map")
    board_commands = board.add_subparsers(required=True, metavar="ACTION")
    check = board_commands.add_parser("check", help="validate a variant's map and setup")
    check.add_argument("variant")
    check.set_defaults(handler=_map_check)
    draw = board_commands.add_parser("draw", help="draw the board as SVG or PNG")
    draw.add_argument("variant")
    draw.add_argument("--game", type=Path, help="draw this game's position (the current one)")
    draw.add_argument(
        "--phase", metavar="CODE", help="the position a phase began from, e.g. S1902M"
    )
    draw.add_argument("--orders", action="store_true", help="with the phase's orders and results")
    draw.add_argument(
        "--every-phase",
        action="store_true",
        help="one file per phase, with its orders, into the folder -o names",
    )
    draw.add_argument(
        "--format",
        choices=FORMATS,
        help="for --every-phase (default svg), or an output named otherwise (default svg into a "
        "pipe such as /dev/stdout)",
    )
    add_viewer_option(draw, "the board")
    draw.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="the .svg or .png file (or folder) to write",
    )
    draw.set_defaults(handler=_map_draw)

    demo_command = commands.add_parser("demo", help="play a short scripted classic game")
    demo_command.set_defaults(handler=_demo)


def _map_check(args: argparse.Namespace) -> int:
    try:
        checked = variant_loader(args)(args.variant)
    except MapError as exc:
        print(f"{args.variant}: {len(exc.problems)} problem(s) in {exc.source}")
        for problem in exc.problems:
            print(f"  - {problem}")
        return 1
    except LookupError as exc:
        raise UserError(str(exc)) from None
    board = checked.board
    terrain = Counter(p.terrain.value for p in board.provinces.values())
    reconstructed = sum(1 for p in board.provinces.values() if "reconstructed" in p.source)
    print(
        f"{checked.id}: {len(board.provinces)} provinces ({terrain['coast']} coastal, "
        f"{terrain['land']} inland, {terrain['sea']} sea), {len(board.centers)} supply centers, "
        f"{len(checked.powers)} powers"
    )
    if reconstructed:
        print(f"{reconstructed} provinces rest on reconstructed facts (see docs/variants/)")
    print("no problems found")
    return 0


def _map_draw(args: argparse.Namespace) -> int:
    # Drawing loads numpy and shapely, a good part of a second: only this command does.
    from hegemon.cli import drawing

    return drawing.map_draw(args)


def _datc(args: argparse.Namespace) -> int:
    judge = load_variant("classic").configure({"edition": args.edition})
    cases = merged(*(cases_of_file(read_text(path), str(path)) for path in args.files))
    passed = failed = 0
    for case in cases:
        result = run_case(case, judge)
        if result.passed:
            passed += 1
            if args.verbose:
                print(f"PASS {case.name}")
        else:
            failed += 1
            print(f"FAIL {case.name} (line {case.line})\n{result.difference}", end="")
    print(f"{passed} passed, {failed} failed (the {args.edition} rules)")
    return 1 if failed else 0


def _demo(args: argparse.Namespace) -> int:
    for report in demo.play():
        print(report)
    return 0
