"""The commands that read a game without changing it: show, status, options, report; and
bot, a power's orders as the bot gives them. Each prints what its viewer may see (`--as`),
everyone's by default; the bot sees what its power may see."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

from hegemon import jsonio
from hegemon.bots import Bot, Budget, Player, RandomPlayer, sight_of
from hegemon.cli.common import Commands, UserError, add_viewer_option, game_in, power, viewer
from hegemon.game import Game, PhaseResult, describe_end
from hegemon.game.forms import Choice, purses
from hegemon.game.menus import offered
from hegemon.position import Viewer
from hegemon.report import order_status_lines, phase_report, position_report


def add_commands(commands: Commands) -> None:
    show = commands.add_parser("show", help="print the current position")
    show.add_argument("file", type=Path)
    show.add_argument("--json", action="store_true", help="as JSON")
    add_viewer_option(show, "the position")
    show.set_defaults(handler=_show)

    status = commands.add_parser(
        "status", help="whose orders are in; a power's stored orders and its units without one"
    )
    status.add_argument("file", type=Path)
    add_viewer_option(status, "the orders")
    status.set_defaults(handler=_status)

    options = commands.add_parser("options", help="every legal order of a power this phase")
    options.add_argument("file", type=Path)
    options.add_argument("power")
    options.add_argument("--json", action="store_true", help="as JSON, by unit")
    options.set_defaults(handler=_options)

    report = commands.add_parser("report", help="print the report of a phase already played")
    report.add_argument("file", type=Path)
    report.add_argument("phase", nargs="?", help="its code, e.g. S1901M (default: the last)")
    add_viewer_option(report, "the report")
    report.set_defaults(handler=_report)

    bot = commands.add_parser(
        "bot", help="print a power's orders for this phase, as the bot gives them"
    )
    bot.add_argument("file", type=Path)
    bot.add_argument("power")
    bot.add_argument(
        "--seconds",
        type=_positive(float),
        default=Budget().seconds,
        metavar="S",
        help=f"CPU seconds the bot may think (default: {Budget().seconds})",
    )
    bot.add_argument(
        "--playouts",
        type=_positive(int),
        metavar="N",
        help="at most this many playouts: with --seed, the same orders on any machine",
    )
    bot.add_argument("--seed", type=int, help="the seed of the bot's own draws")
    bot.add_argument(
        "--random", action="store_true", help="random legal orders instead of the bot's"
    )
    bot.add_argument("--json", action="store_true", help="as a JSON list of orders")
    bot.set_defaults(handler=_bot)


def _show(args: argparse.Namespace) -> int:
    game = game_in(args, args.file)
    reader = viewer(game, args.viewer)
    if args.json:
        json.dump(jsonio.position_to_json(game.position, reader), sys.stdout, indent=1)
        print()
        return 0
    spending = _spending_lines(game, reader)
    print(position_report(game.variant, game.position, reader, spending, game.over))
    print("\n".join(order_status_lines(game)))
    return 0


def _spending_lines(game: Game, reader: Viewer) -> list[str]:
    """For a power, what the orders it has given this phase spend of its points (a Europe
    1615 power's INFs, a Sub-Saharan power's Diplomacy Points): the board counts only
    what earlier phases spent, and these orders are the power's secret until adjudicated."""
    who = reader.power
    given = game.pending.get(who, []) if who is not None and not game.over else []
    if who is None or not given:
        return []
    return [
        f"{who}'s orders given this phase spend {spent} {purse.name}(s): "
        f"{purse.left(given)} of the {purse.total} left"
        for purse in purses(offered(game.variant, game.position, who))
        if (spent := purse.total - purse.left(given))
    ]


def _status(args: argparse.Namespace) -> int:
    game = game_in(args, args.file)
    reader = viewer(game, args.viewer)
    lines = [f"{game.position.phase} ({game.variant.board.name})", *order_status_lines(game)]
    if not game.over:
        for who in game.variant.powers:
            if reader.sees(who) and (who in game.actors() or game.pending.get(who)):
                lines += ["", *_orders_of(game, who)]
    print("\n".join(lines))
    return 0


def _orders_of(game: Game, who: str) -> list[str]:
    """A power's stored orders and what it has still to order: for it and the GM only."""
    pending = game.pending.get(who, [])
    procedure = game.variant.calendar.procedure(game.position.phase)
    missing = procedure.unordered(game.variant, game.position, who, pending)
    lines = [f"{who}: {len(pending)} order(s)"]
    lines += [f"   {order.format()}" for order in pending]
    if missing:
        lines.append(f"   No order yet for: {', '.join(missing)}")
    warned = procedure.cautions(game.variant, game.position, who, pending)
    return lines + [f"   Warning: {w}" for w in warned]


def _choice_line(choice: Choice) -> str:
    """An order as `options` lists it, with its note if it has one: ``Place A Bam
    (Bamako)``."""
    return f"{choice.text}  ({choice.note})" if choice.note else choice.text


def _options(args: argparse.Namespace) -> int:
    game = game_in(args, args.file)
    who = power(game, args.power)
    if game.over:
        raise UserError(f"{args.file}: the game is over: {describe_end(game.end)}")
    given = game.pending.get(who, [])
    menu = offered(game.variant, game.position, who)
    orders = {form.title: [c.text for c in form.choices] for form in menu if form.choices}
    forms = [form.describe() for form in menu if form.fields or form.ranking]
    left = [f"{p.name}s left: {p.left(given)} of {p.total}" for p in purses(menu)]
    if args.json:
        json.dump({"orders": orders, "forms": forms, "purses": left}, sys.stdout, indent=1)
        print()
        return 0
    print(f"{who}, {game.position.phase}: every legal order")
    if not menu:
        print("   nothing to order this phase")
    for form in menu:
        if form.choices:
            print(form.title)
            print("\n".join(f"   {_choice_line(c)}" for c in form.choices))
    if forms:
        print("Forms to fill in:")
        print("\n".join(f"   {form}" for form in [*forms, *left]))
    return 0


def _report(args: argparse.Namespace) -> int:
    game = game_in(args, args.file)
    if not game.history:
        raise UserError(f"{args.file}: no phase has been played yet")
    result = _played(game, args.phase)
    print(phase_report(game.variant, result, viewer(game, args.viewer)), end="")
    return 0


def _played(game: Game, code: str | None) -> PhaseResult:
    if code is None:
        return game.history[-1]
    for result in game.history:
        if result.before.phase.code == code.upper():
            return result
    played = ", ".join(r.before.phase.code for r in game.history)
    raise UserError(f"no phase {code!r} was played (played: {played})")


def _bot(args: argparse.Namespace) -> int:
    """The orders as ``Power: order`` lines, which ``hegemon orders FILE --from -`` reads
    back; nothing on stdout, and why on stderr, when the power has nothing to order."""
    game = game_in(args, args.file)
    who = power(game, args.power)
    if game.over:
        raise UserError(f"{args.file}: the game is over: {describe_end(game.end)}")
    if who not in game.actors():
        print(f"{who} has nothing to order in {game.position.phase}", file=sys.stderr)
        orders = []
    else:
        player: Player = (
            RandomPlayer(args.seed)
            if args.random
            else Bot(Budget(args.seconds, args.playouts), args.seed)
        )
        orders = player.orders(sight_of(game.variant, game.position, who))
    texts = [order.format() for order in orders]
    if args.json:
        json.dump(texts, sys.stdout, indent=1)
        print()
    elif texts:
        print("\n".join(f"{who}: {text}" for text in texts))
    return 0


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """An option's reader of a number above zero, refusing any other with its reason."""

    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"a number more than 0, not {text}")
        return value

    return read
