"""The commands for the judge itself and for variants' authors: map check, map draw,
datc, demo."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hegemon import demo, files
from hegemon.board import MapError
from hegemon.cli.common import (
    UserError,
    add_viewer_option,
    game_in,
    read_text,
    variant,
    variant_loader,
    viewer,
)
from hegemon.datc import merged, read_cases, run_case
from hegemon.game import Game
from hegemon.gamefile import is_game_file
from hegemon.position import Viewer
from hegemon.render import PngError, draw_board, draw_phase, png_of
from hegemon.rules import Edition
from hegemon.variants import load_variant

FORMATS = ("svg", "png")  # what a board is drawn as


def add_commands(commands: Any) -> None:
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
        help="for --every-phase (default svg), or an output named otherwise, such as /dev/stdout",
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
    drawn = variant(args, args.variant)
    if args.game is None:
        if args.phase or args.orders or args.every_phase:
            raise UserError("--phase, --orders and --every-phase draw a game: give --game FILE")
        _write_board(args.output, args.format, draw_board(drawn))
        _say(f"Drew {drawn.board.name} to {args.output}", args.output)
        return 0
    game = game_in(args, args.game)
    if game.variant.id != drawn.id:
        raise UserError(f"{args.game}: a {game.variant.id} game, not {drawn.id}")
    seen_by = viewer(game, args.viewer)
    if args.every_phase:
        return _draw_every_phase(game, seen_by, args.output, args.format or "svg")
    board = _board_of_phase(game, seen_by, args.phase, args.orders)
    _write_board(args.output, args.format, board)
    _say(f"Drew {drawn.board.name} to {args.output}", args.output)
    return 0


def _board_of_phase(game: Game, seen_by: Viewer, code: str | None, orders: bool) -> str:
    """The SVG of the position a phase began from (the current one if no code), with that
    phase's orders if asked."""
    current = game.position.phase.code
    code = (code or current).upper()
    for result in game.history:
        if result.before.phase.code == code:
            if orders:
                return draw_phase(game.variant, result, seen_by)
            return draw_board(game.variant, result.before, seen_by)
    if code != current:
        played = ", ".join(r.before.phase.code for r in game.history) or "none"
        raise UserError(f"phase {code!r}: not in this game (played: {played}; now: {current})")
    if orders:
        raise UserError(f"phase {code!r}: not adjudicated yet, so it has no orders to draw")
    return draw_board(game.variant, game.position, seen_by)


def _draw_every_phase(game: Game, seen_by: Viewer, folder: Path, kind: str) -> int:
    """Every adjudicated phase with its orders, and the current position, one file each."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: {exc.strerror}") from None
    boards = [(r.before.phase.code, draw_phase(game.variant, r, seen_by)) for r in game.history]
    if not game.over:
        boards.append((game.position.phase.code, draw_board(game.variant, game.position, seen_by)))
    for code, svg in boards:
        _write_board(folder / f"{code}.{kind}", kind, svg)
    print(f"Drew {len(boards)} boards of {game.variant.board.name} to {folder}")
    return 0


def _write_board(path: Path, written_as: str | None, svg: str) -> None:
    """The board as SVG or PNG, by the file's suffix (or `written_as`, for an output such
    as /dev/stdout); never over a game file. A file is replaced whole or not at all; a
    pipe or a terminal is written to as it is."""
    if is_game_file(path):
        raise UserError(f"{path}: a game file, which a drawing never replaces")
    suffix = path.suffix.lower().lstrip(".")
    kind = suffix if suffix in FORMATS else written_as
    if kind is None:
        raise UserError(f"{path}: write the board to a .svg or a .png file, or give --format")
    try:
        data = png_of(svg) if kind == "png" else svg.encode()
        if path.exists() and not path.is_file():
            with path.open("wb") as stream:
                stream.write(data)
        else:
            target = Path(os.path.realpath(path))
            files.replace_whole(target, data, target.stat() if target.exists() else None)
    except PngError as exc:
        raise UserError(f"{path}: {exc}") from None
    except BrokenPipeError:
        raise  # the reader went away: quietly, as for any output
    except OSError as exc:
        raise UserError(f"{path}: {(exc.strerror or str(exc)).lower()}; nothing written") from None


def _say(line: str, output: Path) -> None:
    """Say what was drawn, unless the drawing itself went to the standard output."""
    if not _is_stdout(output):
        print(line)


def _is_stdout(output: Path) -> bool:
    try:
        return output.exists() and os.path.samestat(output.stat(), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError):
        return False


def _datc(args: argparse.Namespace) -> int:
    judge = load_variant("classic").configure({"edition": args.edition})
    cases = merged(*(list(read_cases(read_text(path))) for path in args.files))
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
