"""The commands that change a game: new, orders, adjudicate, end; and reveal, which
reads what the game kept secret once it is over."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

from hegemon import gamefile, jsonio
from hegemon.cli.common import (
    Commands,
    UserError,
    add_phase_guard,
    add_viewer_option,
    game_in,
    listed,
    name_values,
    parse_order,
    power,
    powers,
    read_text,
    refuse_another_phase,
    variant,
    variant_loader,
    viewer,
)
from hegemon.cli.output import say_after_saving
from hegemon.game import (
    ChanceError,
    Game,
    GameOver,
    chances_for,
    describe_end,
    latest_per_slot,
    order_problems,
    read_draws,
)
from hegemon.notation import order_lines, split_power
from hegemon.orders import Order, Secrecy
from hegemon.report import phase_report


def add_commands(commands: Commands) -> None:
    new = commands.add_parser("new", help="start a game of a variant in a new file")
    new.add_argument("variant", help="an installed variant, e.g. classic or sub_saharan")
    new.add_argument("file", type=Path)
    new.add_argument("--force", action="store_true", help="replace a game already in the file")
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

    orders = commands.add_parser(
        "orders",
        help="give a power's orders for the current phase: each replaces that unit's "
        "earlier order (or that bid, that deployment ...)",
    )
    orders.add_argument("file", type=Path, help="the game file")
    orders.add_argument("power", nargs="?", help="the power giving the orders")
    orders.add_argument("orders", nargs="*", help='orders such as "A par - bur"')
    orders.add_argument(
        "--from",
        dest="source",
        type=Path,
        help='a text file of "Power: order" lines ("-" for stdin)',
    )
    orders.add_argument(
        "--replace", action="store_true", help="these orders replace all the power's earlier ones"
    )
    orders.add_argument(
        "--clear", action="store_true", help="withdraw all the power's orders for this phase"
    )
    add_phase_guard(orders, "store the orders")
    orders.set_defaults(handler=_orders)

    adjudicate = commands.add_parser("adjudicate", help="adjudicate the current phase")
    adjudicate.add_argument("file", type=Path, nargs="?", help="the game file")
    adjudicate.add_argument(
        "--json",
        action="store_true",
        help="read a position and orders as JSON on stdin, write the results (docs/json.md)",
    )
    adjudicate.add_argument(
        "--draw",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the game master's own roll for a draw the phase needs (a number, or an order "
        "of names separated by commas); others come from the game's seed",
    )
    add_phase_guard(adjudicate, "adjudicate")
    add_viewer_option(adjudicate, "the report")
    adjudicate.set_defaults(handler=_adjudicate)

    end = commands.add_parser("end", help="end a game as its players agreed")
    end.add_argument("file", type=Path)
    how = end.add_mutually_exclusive_group(required=True)
    how.add_argument("--draw", metavar="POWER,POWER,...", help="a draw shared by these powers")
    how.add_argument("--concede-to", metavar="POWER", help="everyone concedes to this power")
    end.set_defaults(handler=_end)

    reveal = commands.add_parser(
        "reveal", help="print every order kept secret (bids, INFs), once the game is over"
    )
    reveal.add_argument("file", type=Path)
    reveal.set_defaults(handler=_reveal)


# --- new --------------------------------------------------------------------------------


def _new(args: argparse.Namespace) -> int:
    written = name_values(args.option, "--option")
    seats = listed(args.seats, "--seats") if args.seats is not None else None
    chosen = variant(args, args.variant)
    chosen = chosen.configure(chosen.read_options(written), seats)
    game = Game.new(chosen, args.seed)
    gamefile.create(args.file, game, force=args.force)
    say_after_saving(
        f"New {game.variant.board.name} game in {args.file}: {game.position.phase}\n",
        f"{args.file}: made",
    )
    return 0


# --- orders -----------------------------------------------------------------------------


def _orders(args: argparse.Namespace) -> int:
    with gamefile.updating(args.file, variant_loader(args)) as update:
        game = update.game
        if game.over:
            raise UserError(f"{args.file}: the game is over: {describe_end(game.end)}")
        refuse_another_phase(game, args.phase, args.file, "nothing stored")
        given, unreadable, numbers = _given_orders(game, args)
        batches = {who: latest_per_slot(orders) for who, orders in given.items()}
        stored = {
            who: batch if args.replace or args.clear else game.with_orders(who, batch)
            for who, batch in batches.items()
        }
        refused = {who: list(lines) for who, lines in unreadable.items()}
        for who, orders in stored.items():
            beyond = jsonio.storing_problem(orders)
            problems = order_problems(game.variant, game.position, who, orders)
            refused.setdefault(who, []).extend(
                [beyond] if beyond else _numbered(problems, numbers.get(who, {}))
            )
        if any(refused.values()):
            raise UserError(f"nothing stored; {_refusals(refused)}")
        for who, orders in stored.items():
            game.set_orders(who, orders)
        update.save()
    lines = [_stored_line(game, who, batch) for who, batch in batches.items()]
    say_after_saving(
        "".join(f"{line}\n" for line in lines),
        f"{args.file}: orders stored",
        f"; 'hegemon status {args.file} --as POWER' shows them",
    )
    return 0


Unreadable = dict[str, list[str]]  # power ("" for none) -> its lines that could not be read
LineNumbers = dict[str, dict[str, int]]  # power -> each order read from a file -> its line


def _given_orders(
    game: Game, args: argparse.Namespace
) -> tuple[dict[str, list[Order]], Unreadable, LineNumbers]:
    if args.clear:
        if args.source is not None or args.orders or not args.power:
            raise UserError("--clear takes a power and no orders")
        return {power(game, args.power): []}, {}, {}
    if args.source is not None:
        if args.power or args.orders:
            raise UserError("give orders either on the command line or with --from, not both")
        return _orders_from_text(game, read_text(args.source))
    if not (args.power and args.orders):
        raise UserError("give a power and its orders, or --from FILE")
    if len(args.orders) > jsonio.MAX_ORDERS:
        raise UserError(f"more than {jsonio.MAX_ORDERS} orders for one power")
    return {power(game, args.power): [parse_order(game, text) for text in args.orders]}, {}, {}


def _orders_from_text(
    game: Game, text: str
) -> tuple[dict[str, list[Order]], Unreadable, LineNumbers]:
    """Every power's orders in a file of "Power: order" lines, every line that could not
    be read, under its power when it names one, so that a refusal names every power whose
    orders were refused and why, and the line each order was read from."""
    batches: dict[str, list[Order]] = {}
    unreadable: Unreadable = {}
    numbers: LineNumbers = {}
    for number, line in order_lines(text):
        spelling, order_text = split_power(line)
        who = ""
        try:
            if spelling is None:
                raise UserError(f"{line!r} does not start with 'Power:'")
            who = power(game, spelling)
            orders = batches.setdefault(who, [])
            if len(orders) >= jsonio.MAX_ORDERS:
                raise UserError(f"more than {jsonio.MAX_ORDERS} orders for one power")
            orders.append(parse_order(game, order_text))
            numbers.setdefault(who, {})[orders[-1].format()] = number
        except UserError as exc:
            unreadable.setdefault(who, []).append(f"line {number}: {exc}")
    if not batches and not unreadable:
        raise UserError("no orders found")
    return batches, unreadable, numbers


def _numbered(problems: Sequence[str], numbers: Mapping[str, int]) -> list[str]:
    """Each problem, after the line of the file its order was read from: a problem
    begins with its order as written back (`order_problems`), an order that was stored
    before has no line, nor has a problem of the orders together."""
    numbered = []
    for problem in problems:
        line = next((n for text, n in numbers.items() if problem.startswith(f"{text}: ")), None)
        numbered.append(f"line {line}: {problem}" if line else problem)
    return numbered


SHOWN_PROBLEMS = 10  # a refusal names this many problems, and counts the others


def _refusals(refused: Unreadable) -> str:
    """``France: line 3: ...; line 4: ... | England: ...``: the first problems by power, and
    how many more there are (a file of a million bad lines gets one short line)."""
    problems = [(who, why) for who, reasons in refused.items() for why in reasons]
    shown: dict[str, list[str]] = {}
    for who, why in problems[:SHOWN_PROBLEMS]:
        shown.setdefault(who, []).append(why)
    text = " | ".join(
        f"{who}: {'; '.join(why)}" if who else "; ".join(why) for who, why in shown.items()
    )
    hidden = len(problems) - SHOWN_PROBLEMS
    return text + (f" (and {hidden} more)" if hidden > 0 else "")


def _stored_line(game: Game, who: str, given: Sequence[Order]) -> str:
    pending = game.pending.get(who, [])
    procedure = game.variant.calendar.procedure(game.position.phase)
    missing = procedure.unordered(game.variant, game.position, who, pending)
    warned = procedure.cautions(game.variant, game.position, who, pending)
    line = f"{who}: {len(given)} order(s) stored for {game.position.phase}, {len(pending)} in all"
    line += f"; no order yet for {', '.join(missing)}" if missing else ""
    return "\n".join([line, *(f"   Warning: {w}" for w in warned)])


# --- adjudicate -------------------------------------------------------------------------


def _adjudicate(args: argparse.Namespace) -> int:
    if args.json and args.file is not None:
        raise UserError(f"{args.file}: --json reads a position from stdin, not a game file")
    if args.json and args.phase is not None:
        raise UserError("--phase guards a game file's phase; --json reads its position from stdin")
    if args.json:
        return _adjudicate_json(args)
    if args.file is None:
        raise UserError("give the game file, or --json to read a position from stdin")
    written = name_values(args.draw, "--draw")
    with gamefile.updating(args.file, variant_loader(args)) as update:
        game = update.game
        refuse_another_phase(game, args.phase, args.file, "nothing adjudicated")
        reader = viewer(game, args.viewer)
        try:
            draws = read_draws(chances_for(game.variant, game.position), written)
            result = game.adjudicate(draws)
        except (GameOver, ChanceError) as exc:
            raise UserError(f"{args.file}: {exc}") from None
        update.save()
    say_after_saving(
        phase_report(game.variant, result, reader),
        f"{args.file}: {result.before.phase.code} adjudicated and saved",
        f"; 'hegemon report {args.file}' prints it",
    )
    return 0


def _adjudicate_json(args: argparse.Namespace) -> int:
    """The request's answer as the viewer it names, else as `--as` names (the observer
    unless it names another): the game master's secrets go only to whoever asks for them."""
    request = jsonio.parse(read_text(Path("-")), "stdin")
    answer = jsonio.adjudicate_request(request, variant_loader(args), args.viewer)
    print(jsonio.dumps(answer, indent=True))
    return 0


# --- the end ----------------------------------------------------------------------------


def _end(args: argparse.Namespace) -> int:
    with gamefile.updating(args.file, variant_loader(args)) as update:
        game = update.game
        draw = powers(game, args.draw, "--draw") if args.draw is not None else []
        winner = power(game, args.concede_to) if args.concede_to else None
        try:
            end = game.end_by_agreement(draw, winner)
        except (GameOver, ValueError) as exc:
            raise UserError(f"{args.file}: {exc}") from None
        update.save()
    say_after_saving(f"The game is over: {describe_end(end)}.\n", f"{args.file}: ended")
    return 0


def _reveal(args: argparse.Namespace) -> int:
    """Every order kept secret while the game lasted (bids, INF deployments), phase by phase."""
    game = game_in(args, args.file)
    if not game.over:
        raise UserError(f"{args.file}: secret orders stay secret until the game is over")
    lines = []
    for result in game.history:
        secret = {
            who: [o.format() for o in given if o.secrecy is Secrecy.UNTIL_END]
            for who, given in result.orders.items()
        }
        secret = {who: given for who, given in secret.items() if given}
        if secret:
            lines.append(str(result.before.phase))
            lines += [f"   {who}: {', '.join(given)}" for who, given in secret.items()]
    print("\n".join(lines) if lines else "No order was kept secret in this game.")
    return 0
