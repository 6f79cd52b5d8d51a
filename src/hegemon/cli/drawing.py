"""``hegemon map draw``: boards drawn into files, folders and pipes. Loaded only by the
command that draws, as drawing needs numpy and shapely."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from hegemon import files
from hegemon.cli.common import UserError, game_in, variant, viewer
from hegemon.cli.tools import FORMATS
from hegemon.game import Game
from hegemon.gamefile import is_game_file
from hegemon.position import OBSERVER, Viewer
from hegemon.render import PngError, board_scene, phase_scene, png_of
from hegemon.render.board import Scene


def map_draw(args: argparse.Namespace) -> int:
    """``hegemon map draw``: the board of a variant or of a game, into a file or a pipe."""
    drawn = variant(args, args.variant)
    if args.game is None:
        if args.phase or args.orders or args.every_phase:
            raise UserError("--phase, --orders and --every-phase draw a game: give --game FILE")
        _write_board(args.output, args.format, board_scene(drawn, None, OBSERVER))
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


def _board_of_phase(game: Game, seen_by: Viewer, code: str | None, orders: bool) -> Scene:
    """The board of the position a phase began from (the current one if no code), with
    that phase's orders if asked."""
    current = game.position.phase.code
    code = (code or current).upper()
    for result in game.history:
        if result.before.phase.code == code:
            if orders:
                return phase_scene(game.variant, result, seen_by)
            return board_scene(game.variant, result.before, seen_by)
    if code != current:
        played = ", ".join(r.before.phase.code for r in game.history) or "none"
        raise UserError(f"phase {code!r}: not in this game (played: {played}; now: {current})")
    if orders:
        raise UserError(f"phase {code!r}: not adjudicated yet, so it has no orders to draw")
    return board_scene(game.variant, game.position, seen_by)


def _draw_every_phase(game: Game, seen_by: Viewer, folder: Path, kind: str) -> int:
    """Every adjudicated phase with its orders, and the current position, one file each."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: {exc.strerror}") from None
    boards = [(r.before.phase.code, phase_scene(game.variant, r, seen_by)) for r in game.history]
    if not game.over:
        boards.append((game.position.phase.code, board_scene(game.variant, game.position, seen_by)))
    for code, board in boards:
        _write_board(folder / f"{code}.{kind}", kind, board)
    print(f"Drew {len(boards)} boards of {game.variant.board.name} to {folder}")
    return 0


def _write_board(path: Path, written_as: str | None, board: Scene) -> None:
    """The board as SVG or PNG, by the file's suffix, else as `written_as` (--format), else
    as SVG into a pipe or a terminal (/dev/stdout); never over a game file. A file is
    replaced whole or not at all; a pipe or a terminal is written to as it is."""
    if is_game_file(path):
        raise UserError(f"{path}: a game file, which a drawing never replaces")
    stream = path.exists() and not path.is_file()
    suffix = path.suffix.lower().lstrip(".")
    kind = suffix if suffix in FORMATS else written_as or ("svg" if stream else None)
    if kind is None:
        raise UserError(f"{path}: write the board to a .svg or a .png file, or give --format")
    try:
        data = png_of(board) if kind == "png" else board.svg.encode()
        if stream:
            with path.open("wb") as output:
                output.write(data)
        else:
            target = Path(os.path.realpath(path))
            files.remove_leftovers(target)  # of a drawing killed while it wrote this one
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
