"""What the commands share: the variants they may use, the viewer an output is for, and
reading what the user gives (powers, orders, text files) with clear refusals."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeAlias

from hegemon import jsonio
from hegemon.game import Game, Variant
from hegemon.gamefile import read_game
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order
from hegemon.position import MASTER, OBSERVER, Viewer
from hegemon.variants import load_variant, load_variant_from

# What each module of commands adds its commands to: the parser's subparsers.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
# What a command runs: its parsed arguments in, its exit status out.
Handler: TypeAlias = Callable[[argparse.Namespace], int]


class UserError(Exception):
    """A problem with what the user gave us; printed as one clear line, never a traceback."""


# --- variants ---------------------------------------------------------------------------


def add_variant_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant-dir",
        type=Path,
        metavar="DIR",
        help="a variant being written, from its folder (its name is the folder's): for its "
        "author, beside the installed variants",
    )


def variant_loader(args: argparse.Namespace) -> jsonio.VariantLoader:
    """The variants this command may use: the installed ones, and the author's folder
    given with --variant-dir."""
    folder: Path | None = args.variant_dir
    if folder is None:
        return load_variant
    if not (folder / "map.toml").is_file():
        raise UserError(f"--variant-dir {folder}: no map.toml there, so not a variant's folder")
    authored = load_variant_from(folder)

    def load(name: str) -> Variant:
        return authored if name == folder.name else load_variant(name)

    return load


def variant(args: argparse.Namespace, name: str) -> Variant:
    try:
        return variant_loader(args)(name)
    except LookupError as exc:
        raise UserError(str(exc)) from None


def game_in(args: argparse.Namespace, path: Path) -> Game:
    """The game in a file, read (not locked) for a command that does not change it."""
    return read_game(path, variant_loader(args))


# --- which phase ---------------------------------------------------------------------------


def add_phase_guard(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--phase",
        metavar="CODE",
        help=f"{what} only if the game is at this phase, e.g. S1901M: a script's guard against "
        "a phase adjudicated meanwhile (refused with exit status 1 otherwise)",
    )


def refuse_another_phase(game: Game, code: str | None, file: Path, undone: str) -> None:
    """Refuse the command if `--phase CODE` names another phase than the game's."""
    now = game.position.phase
    if code is not None and code.strip().upper() != now.code:
        raise UserError(f"{file}: the game is at {now.code} ({now}), not {code}; {undone}")


# --- who is looking -------------------------------------------------------------------------


def add_viewer_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--as",
        dest="viewer",
        default="observer",
        metavar="VIEWER",
        help=f"print {what} as a power sees it, or 'master' for everything "
        "(default: 'observer', what everyone may see)",
    )


def viewer(game: Game, spelling: str) -> Viewer:
    if spelling.lower() == "master":
        return MASTER
    if spelling.lower() == "observer":
        return OBSERVER
    return Viewer(power=power(game, spelling))


def powers(game: Game, text: str, what: str) -> list[str]:
    """The powers in a list written ``France,Italy``, each once."""
    named: list[str] = []
    for spelling in listed(text, what):
        found = power(game, spelling)
        if found in named:
            raise UserError(f"{what}: {found} is named twice")
        named.append(found)
    return named


def power(game: Game, spelling: str) -> str:
    found = game.variant.power_named(spelling)
    if found is None:
        known = ", ".join(game.variant.powers)
        raise UserError(f"unknown power {spelling!r} (powers: {known})")
    return found


# --- reading what the user gives ------------------------------------------------------------


def parse_order(game: Game, text: str) -> Order:
    if len(text) > jsonio.MAX_ORDER_LENGTH:
        raise UserError(f"an order of {len(text)} characters is too long to be one")
    try:
        return game.variant.parse_order(text, game.position.all_units)
    except OrderSyntaxError as exc:
        raise UserError(str(exc)) from None


def read_text(path: Path) -> str:
    """A text file the user names ("-" for stdin), as UTF-8, within the size limit."""
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(jsonio.MAX_BYTES + 1)
        else:
            with path.open("rb") as handle:
                data = handle.read(jsonio.MAX_BYTES + 1)
    except OSError as exc:
        raise UserError(f"{path}: {(exc.strerror or str(exc)).lower()}") from None
    if len(data) > jsonio.MAX_BYTES:
        raise UserError(f"{path}: larger than {jsonio.MAX_BYTES} bytes")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is left out
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def listed(text: str, what: str) -> list[str]:
    """The names in a list written ``A,B,C``, or a refusal if one is empty."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise UserError(f"{what} {text!r}: name each one, separated by commas")
    return names


def name_values(texts: Sequence[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments by name, or a refusal saying how to write one, or which
    name was given twice."""
    values: dict[str, str] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        name = name.strip()
        if not equals or not name:
            raise UserError(f"{what} {text!r}: write it as NAME=VALUE")
        if name in values:
            raise UserError(f"{what} {name!r} is given twice")
        values[name] = value.strip()
    return values
