"""The ``hegemon`` command: run games kept in JSON files, and check the judge.

Every user error ends in one line on stderr naming the input and the reason, and exit
status 2; a game file is only ever replaced whole, after the new state is complete.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hegemon import demo, jsonio
from hegemon.board import MapError
from hegemon.datc import DatcFormatError, read_cases, run_case
from hegemon.game import (
    ChanceError,
    Draw,
    Game,
    GameOver,
    SetupError,
    describe_end,
    order_problems,
)
from hegemon.notation import OrderSyntaxError, order_lines, split_power
from hegemon.orders import Order, Secrecy, format_order
from hegemon.position import MASTER, OBSERVER, Viewer
from hegemon.render import PngError, draw_board, draw_phase, png_of
from hegemon.report import phase_report, position_report
from hegemon.variants import available_variants, load_variant


class UserError(Exception):
    """A problem with what the user gave us; printed as one clear line, never a traceback."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except (UserError, jsonio.WireError, DatcFormatError, MapError, LookupError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        print(f"hegemon: error: {message}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hegemon", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="start a game of a variant in a new file")
    new.add_argument("variant", help=f"one of: {', '.join(available_variants())}")
    new.add_argument("file", type=Path)
    new.add_argument("--force", action="store_true", help="overwrite an existing file")
    new.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option of the variant, e.g. year_cap=12 (repeatable)",
    )
    new.add_argument(
        "--seats",
        metavar="POWER,POWER,...",
        help="the powers taking part, where the variant seats fewer than all",
    )
    new.add_argument("--seed", type=int, help="the seed of the game's draws of chance")
    new.set_defaults(handler=_new)

    orders = commands.add_parser("orders", help="submit a power's orders for the current phase")
    orders.add_argument("file", type=Path, help="the game file")
    orders.add_argument("power", nargs="?", help="the power giving the orders")
    orders.add_argument("orders", nargs="*", help='orders such as "A par - bur"')
    orders.add_argument(
        "--from",
        dest="source",
        type=Path,
        help='a text file of "Power: order" lines ("-" for stdin)',
    )
    orders.set_defaults(handler=_orders)

    adjudicate = commands.add_parser("adjudicate", help="adjudicate the current phase")
    adjudicate.add_argument("file", type=Path, nargs="?", help="the game file")
    adjudicate.add_argument(
        "--json",
        action="store_true",
        help="read a position and orders as JSON on stdin, write results",
    )
    adjudicate.add_argument(
        "--draw",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the game master's own roll for a draw the phase needs (a number, or an order "
        "of names separated by commas); others come from the game's seed",
    )
    _viewer_option(adjudicate, "the report")
    adjudicate.set_defaults(handler=_adjudicate)

    reveal = commands.add_parser(
        "reveal", help="print every order kept secret (bids, INFs), once the game is over"
    )
    reveal.add_argument("file", type=Path)
    reveal.set_defaults(handler=_reveal)

    show = commands.add_parser("show", help="print the current position")
    show.add_argument("file", type=Path)
    show.add_argument("--json", action="store_true", help="as JSON")
    _viewer_option(show, "the position")
    show.set_defaults(handler=_show)

    datc = commands.add_parser("datc", help="run DATC test files")
    datc.add_argument("files", type=Path, nargs="+")
    datc.add_argument("-v", "--verbose", action="store_true", help="name every case")
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
    draw.add_argument("--format", choices=("svg", "png"), default="svg", help="for --every-phase")
    _viewer_option(draw, "the board")
    draw.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="the .svg or .png file (or folder) to write",
    )
    draw.set_defaults(handler=_map_draw)

    demo_cmd = commands.add_parser("demo", help="play a short scripted classic game")
    demo_cmd.set_defaults(handler=_demo)
    return parser


def _viewer_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--as",
        dest="viewer",
        default="observer",
        metavar="VIEWER",
        help=f"print {what} as a power sees it, or 'master' for everything "
        "(default: 'observer', what everyone may see)",
    )


def _viewer(game: Game, spelling: str) -> Viewer:
    if spelling.lower() == "master":
        return MASTER
    if spelling.lower() == "observer":
        return OBSERVER
    return Viewer(power=_power(game, spelling))


# --- game files ---------------------------------------------------------------------------


def _load(path: Path) -> Game:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such game file (create one with 'hegemon new')") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: cannot read the game: {exc}") from None
    try:
        return jsonio.game_from_json(data)
    except jsonio.WireError as exc:
        raise UserError(f"{path}: {exc}") from None


def _save(game: Game, path: Path) -> None:
    text = json.dumps(jsonio.game_to_json(game), indent=1)
    folder = path.resolve().parent
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as handle:
        handle.write(text)
    os.replace(handle.name, path)


def _new(args: argparse.Namespace) -> int:
    if args.file.exists() and not args.force:
        raise UserError(f"{args.file}: already exists (use --force to overwrite)")
    options = dict(_option(text) for text in args.option)
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    try:
        variant = load_variant(args.variant).configure(options, seats)
    except SetupError as exc:
        raise UserError(str(exc)) from None
    game = Game.new(variant, args.seed)
    _save(game, args.file)
    print(f"New {game.variant.board.name} game in {args.file}: {game.position.phase}")
    return 0


def _option(text: str) -> tuple[str, Any]:
    """``year_cap=12`` -> ("year_cap", 12): numbers and true/false as JSON, the rest as text."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise UserError(f"option {text!r}: write it as NAME=VALUE")
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value


def _orders(args: argparse.Namespace) -> int:
    game = _load(args.file)
    if game.over:
        raise UserError(f"{args.file}: the game is over")
    if args.source is not None:
        batches = _orders_from_text(game, _read_text(args.source))
    elif args.power and args.orders:
        batches = {_power(game, args.power): [_parse(game, text) for text in args.orders]}
    else:
        raise UserError("give a power and its orders, or --from FILE")
    for power, orders in batches.items():
        problems = order_problems(game.variant, game.position, power, orders)
        if problems:
            listing = "; ".join(problems)
            raise UserError(f"{power}: nothing stored, {len(problems)} illegal order(s): {listing}")
    for power, orders in batches.items():
        game.set_orders(power, orders)
    _save(game, args.file)
    for power, orders in batches.items():
        print(f"{power}: {len(orders)} order(s) stored for {game.position.phase}")
    return 0


def _read_text(path: Path) -> str:
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror}") from None


def _orders_from_text(game: Game, text: str) -> dict[str, list[Order]]:
    batches: dict[str, list[Order]] = {}
    for number, line in order_lines(text):
        power, order_text = split_power(line)
        if power is None:
            raise UserError(f"line {number}: {line!r} does not start with 'Power:'")
        try:
            order = _parse(game, order_text)
        except UserError as exc:
            raise UserError(f"line {number}: {exc}") from None
        batches.setdefault(_power(game, power), []).append(order)
    if not batches:
        raise UserError("no orders found")
    return batches


def _power(game: Game, spelling: str) -> str:
    power = game.variant.power_named(spelling)
    if power is None:
        known = ", ".join(game.variant.powers)
        raise UserError(f"unknown power {spelling!r} (powers: {known})")
    return power


def _parse(game: Game, text: str) -> Order:
    try:
        return game.variant.parse_order(text, game.position.all_units)
    except OrderSyntaxError as exc:
        raise UserError(str(exc)) from None


def _adjudicate(args: argparse.Namespace) -> int:
    if args.json:
        return _adjudicate_json()
    if args.file is None:
        raise UserError("give the game file, or --json to read a position from stdin")
    game = _load(args.file)
    viewer = _viewer(game, args.viewer)
    draws = dict(_draw(text) for text in args.draw)
    try:
        result = game.adjudicate(draws)
    except (GameOver, ChanceError) as exc:
        raise UserError(f"{args.file}: {exc}") from None
    _save(game, args.file)
    print(phase_report(game.variant, result, viewer), end="")
    return 0


def _draw(text: str) -> tuple[str, Draw]:
    """``event=7`` -> ("event", 7); ``order of play=Amber,Basalt`` -> a shuffle's result."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise UserError(f"draw {text!r}: write it as NAME=VALUE")
    value = value.strip()
    if value.isdigit():
        return name.strip(), int(value)
    return name.strip(), tuple(v.strip() for v in value.split(","))


def _adjudicate_json() -> int:
    try:
        request: Any = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        raise UserError(f"stdin: not valid JSON: {exc}") from None
    json.dump(jsonio.adjudicate_request(request), sys.stdout, indent=1)
    print()
    return 0


def _reveal(args: argparse.Namespace) -> int:
    """Every order kept secret while the game lasted (bids, INF deployments), phase by phase."""
    game = _load(args.file)
    if not game.over:
        raise UserError(f"{args.file}: secret orders stay secret until the game is over")
    for result in game.history:
        secret = {
            power: [o for o in given if o.secrecy is Secrecy.UNTIL_END]
            for power, given in result.orders.items()
        }
        secret = {p: given for p, given in secret.items() if given}
        if secret:
            print(result.before.phase)
            for power, given in secret.items():
                print(f"   {power}: {', '.join(format_order(o) for o in given)}")
    return 0


def _show(args: argparse.Namespace) -> int:
    game = _load(args.file)
    viewer = _viewer(game, args.viewer)
    if args.json:
        json.dump(jsonio.position_to_json(game.position, viewer), sys.stdout, indent=1)
        print()
        return 0
    print(position_report(game.variant, game.position, viewer), end="")
    if game.over:
        print(f"\nThe game is over: {describe_end(game.end)}.")
        return 0
    # Whose orders are in, never what they are: orders stay secret until adjudication.
    received = ", ".join(sorted(game.pending)) or "none"
    awaited = ", ".join(p for p in game.actors() if p not in game.pending) or "nobody"
    print(f"\nOrders received from: {received}\nAwaiting orders from: {awaited}")
    return 0


# --- maps -----------------------------------------------------------------------------


def _map_check(args: argparse.Namespace) -> int:
    try:
        variant = load_variant(args.variant)
    except MapError as exc:
        print(f"{args.variant}: {len(exc.problems)} problem(s) in {exc.source}")
        for problem in exc.problems:
            print(f"  - {problem}")
        return 1
    board = variant.board
    terrain = Counter(p.terrain.value for p in board.provinces.values())
    reconstructed = sum(1 for p in board.provinces.values() if "reconstructed" in p.source)
    print(
        f"{variant.id}: {len(board.provinces)} provinces ({terrain['coast']} coastal, "
        f"{terrain['land']} inland, {terrain['sea']} sea), {len(board.centers)} supply centers, "
        f"{len(variant.powers)} powers"
    )
    if reconstructed:
        print(f"{reconstructed} provinces rest on reconstructed facts (see docs/variants/)")
    print("no problems found")
    return 0


def _map_draw(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    if args.game is None:
        if args.phase or args.orders or args.every_phase:
            raise UserError("--phase, --orders and --every-phase draw a game: give --game FILE")
        _write_board(args.output, draw_board(variant))
        print(f"Drew {variant.board.name} to {args.output}")
        return 0
    game = _load(args.game)
    if game.variant.id != variant.id:
        raise UserError(f"{args.game}: a {game.variant.id} game, not {variant.id}")
    viewer = _viewer(game, args.viewer)
    if args.every_phase:
        return _draw_every_phase(game, viewer, args.output, args.format)
    _write_board(args.output, _board_of_phase(game, viewer, args.phase, args.orders))
    print(f"Drew {variant.board.name} to {args.output}")
    return 0


def _board_of_phase(game: Game, viewer: Viewer, code: str | None, orders: bool) -> str:
    """The SVG of the position a phase began from (the current one if no code), with that
    phase's orders if asked."""
    current = game.position.phase.code
    code = (code or current).upper()
    for result in game.history:
        if result.before.phase.code == code:
            if orders:
                return draw_phase(game.variant, result, viewer)
            return draw_board(game.variant, result.before, viewer)
    if code != current:
        played = ", ".join(r.before.phase.code for r in game.history) or "none"
        raise UserError(f"phase {code!r}: not in this game (played: {played}; now: {current})")
    if orders:
        raise UserError(f"phase {code!r}: not adjudicated yet, so it has no orders to draw")
    return draw_board(game.variant, game.position, viewer)


def _draw_every_phase(game: Game, viewer: Viewer, folder: Path, kind: str) -> int:
    """Every adjudicated phase with its orders, and the current position, one file each."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: {exc.strerror}") from None
    boards = [(r.before.phase.code, draw_phase(game.variant, r, viewer)) for r in game.history]
    if not game.over:
        boards.append((game.position.phase.code, draw_board(game.variant, game.position, viewer)))
    for code, svg in boards:
        _write_board(folder / f"{code}.{kind}", svg)
    print(f"Drew {len(boards)} boards of {game.variant.board.name} to {folder}")
    return 0


def _write_board(path: Path, svg: str) -> None:
    """The board as SVG or PNG, by the file's suffix."""
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UserError(f"{path}: write the board to a .svg or a .png file")
    try:
        if suffix == ".png":
            path.write_bytes(png_of(svg))
        else:
            path.write_text(svg, encoding="utf-8")
    except PngError as exc:
        raise UserError(f"{path}: {exc}") from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror}") from None


# --- checking the judge -----------------------------------------------------------------


def _datc(args: argparse.Namespace) -> int:
    passed = failed = 0
    for path in args.files:
        try:
            cases = list(read_cases(path.read_text(encoding="utf-8")))
        except OSError as exc:
            raise UserError(f"{path}: {exc.strerror}") from None
        for case in cases:
            result = run_case(case)
            if result.passed:
                passed += 1
                if args.verbose:
                    print(f"PASS {case.name}")
            else:
                failed += 1
                print(f"FAIL {case.name} ({path}:{case.line})\n{result.difference}", end="")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _demo(args: argparse.Namespace) -> int:
    for report in demo.play():
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
