"""The ``--help`` page of every command: what it does, at more length than the one line of
the list of commands, and examples to copy. Kept together, one page a command, so that a
command's options (in its own module) and its page are read apart, and a test sees that
no command lacks one."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    description: str
    examples: tuple[str, ...]

    def epilog(self) -> str:
        return "examples:\n" + "\n".join(f"  {example}" for example in self.examples)


PAGES = {
    "new": Page(
        "Start a game of an installed variant in a new game file. An existing file is\n"
        "refused unless --force, and a file that is not a game is never replaced.",
        (
            "hegemon new classic game.json",
            "hegemon new sub_saharan game.json --option year_cap=12 --seed 7",
            "hegemon new african_riots game.json --seats Egypt,Ethiopia,Libya",
        ),
    ),
    "orders": Page(
        "Give a power's orders for the current phase. Each replaces the power's earlier\n"
        "order for the same unit (or bid, deployment ...), unless --replace or --clear.\n"
        "An illegal order is refused with its reason and nothing of the batch is stored.\n"
        "--phase CODE refuses the orders if the game has moved on to another phase.",
        (
            'hegemon orders game.json France "A par - bur" "A mar S A par - bur"',
            "hegemon orders game.json --from orders.txt     # lines of 'Power: order'",
            'hegemon orders game.json France --phase S1901M "F bre - mid"',
            "hegemon orders game.json France --clear",
        ),
    ),
    "adjudicate": Page(
        "Adjudicate the current phase, save the game and print the phase's report.\n"
        "--phase CODE adjudicates only if the game is at that phase (a second run, or a\n"
        "retry, is refused instead of adjudicating the next phase). --json adjudicates a\n"
        "position given as JSON on stdin, with no game file (docs/json.md).",
        (
            "hegemon adjudicate game.json",
            "hegemon adjudicate game.json --phase S1901M --as France",
            'hegemon adjudicate game.json --draw "order of play=Red,Blue,Green"',
            "hegemon adjudicate --json < request.json",
        ),
    ),
    "end": Page(
        "End a game as its players agreed: a draw shared by the powers named, or a\n"
        "concession to one power.",
        (
            "hegemon end game.json --draw France,England",
            "hegemon end game.json --concede-to Germany",
        ),
    ),
    "reveal": Page(
        "Once the game is over, print every order kept secret while it lasted (bids, INF\n"
        "deployments, waivers), phase by phase.",
        ("hegemon reveal game.json",),
    ),
    "show": Page(
        "Print the current position as a viewer may see it (everything everyone may see,\n"
        "by default), what the phase asks of whom, and whose orders are in.",
        ("hegemon show game.json", "hegemon show game.json --as France --json"),
    ),
    "status": Page(
        "Whose orders are in and whose are awaited; with --as POWER (or master) that\n"
        "power's stored orders and the units it has not ordered yet.",
        ("hegemon status game.json", "hegemon status game.json --as master"),
    ),
    "options": Page(
        "Every legal order of a power's units this phase, and how to write the variant's\n"
        "own orders: the menu a player picks from.",
        ("hegemon options game.json Italy", "hegemon options game.json Italy --json"),
    ),
    "report": Page(
        "Print again the report of a phase already adjudicated (the last one by default).",
        ("hegemon report game.json", "hegemon report game.json S1901M --as England"),
    ),
    "bot": Page(
        "Print the orders the bot gives a power for the current phase, as 'Power: order'\n"
        "lines that 'hegemon orders FILE --from -' reads back; nothing, and why on stderr,\n"
        "when the power has nothing to order. The bot is handed what the power may see,\n"
        "never the game's secrets. --seconds is its CPU time; --playouts and --seed make\n"
        "its orders the same on any machine. The game file is not changed.",
        (
            "hegemon bot game.json France",
            "hegemon bot game.json France --playouts 200 --seed 1 --json",
            "hegemon bot game.json France > f.txt  # then: hegemon orders game.json --from f.txt",
            "hegemon bot game.json Italy --random",
        ),
    ),
    "datc": Page(
        "Run DATC test files against the judge; a later file's case replaces an earlier\n"
        "one's of the same name. Exit status 1 if any case fails, or a file holds none.",
        (
            "hegemon datc tests/data/datc/datc_v2.4_06.txt",
            "hegemon datc --edition 2023 tests/data/datc/datc_v2.4_06.txt "
            "tests/data/datc/datc_v3.0_changes.txt",
        ),
    ),
    "map": Page(
        "Check a variant's map, or draw its board (empty, or a game's position).",
        ("hegemon map check classic", "hegemon map draw classic -o board.svg"),
    ),
    "map check": Page(
        "Validate a variant's map and setup and print every problem found (exit status 1\n"
        "if there is any).",
        ("hegemon map check classic", "hegemon --variant-dir my_variant map check my_variant"),
    ),
    "map draw": Page(
        "Draw the board as SVG or PNG (by the output's suffix, or --format): the empty\n"
        "map, or a game's position, with a phase's orders and results if asked. A file is\n"
        "replaced whole or not at all, and a game file never.",
        (
            "hegemon map draw classic -o board.svg",
            "hegemon map draw classic --game game.json --phase S1902M --orders -o s1902.png",
            "hegemon map draw classic --game game.json --every-phase -o boards/",
        ),
    ),
    "demo": Page(
        "Play a short scripted classic game and print each phase's report.",
        ("hegemon demo",),
    ),
    "serve": Page(
        "Run the server: the HTTP API and the site on a database, with a deadline worker\n"
        "in the same process unless --no-deadlines (docs/server.md).",
        (
            "hegemon serve",
            "hegemon serve --database postgresql+psycopg://hegemon@localhost/hegemon --port 8080",
            "hegemon serve --demo --database sqlite:///demo.db   # you as France, six bots",
            "hegemon serve --demo=humans   # an account for every seat",
        ),
    ),
    "worker": Page(
        "Run the deadlines of the games in a database: adjudicate each phase whose\n"
        "deadline has passed (docs/server.md).",
        ("hegemon worker --database sqlite:///hegemon.db", "hegemon worker --once"),
    ),
    "db": Page(
        "The server's database: make or upgrade its tables, import and export game files,\n"
        "verify a game against its log.",
        ("hegemon db upgrade", "hegemon db export 3 game.json"),
    ),
    "db upgrade": Page(
        "Make the server's tables, or bring them up to date.",
        ("hegemon db upgrade --database sqlite:///hegemon.db",),
    ),
    "db import": Page(
        "Store a CLI game file in the database as a new game.",
        ("hegemon db import game.json --master alice --title 'Friday game'",),
    ),
    "db export": Page(
        "Write a game of the database as a CLI game file (and its press, with --press).",
        (
            "hegemon db export 3 game.json",
            "hegemon db export 3 game.json --force",
            "hegemon db export 3 game.json --press press.json",
        ),
    ),
    "db verify": Page(
        "Replay a game's log and compare every phase with the snapshot stored for it.",
        ("hegemon db verify 3",),
    ),
}


def document(parser: argparse.ArgumentParser) -> None:
    """Give every command under `parser` its page; a KeyError names a command without one."""
    for name, command in commands(parser):
        page = PAGES[name]
        command.description = page.description
        command.epilog = page.epilog()
        command.formatter_class = argparse.RawDescriptionHelpFormatter


def commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command and subcommand of `parser`, by its full name (``map draw``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield f"{prefix}{name}", command
                yield from commands(command, f"{prefix}{name} ")
