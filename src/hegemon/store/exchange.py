"""The CLI's game files in and out of the database, and the check that a game's log
replays to its stored snapshots.

An imported file is read by the same reader as the CLI's (`jsonio.game_from_json`, which
replays it and checks every digest); an exported one is put together from the stored
rows without replaying anything, and the CLI reads it like any game file.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session

from hegemon import jsonio
from hegemon.game import PLAYING, ChanceError, GameEnd, Termination, play_phase
from hegemon.position import MASTER, Position
from hegemon.store import models
from hegemon.store.records import (
    parse_orders,
    pending_rows,
    phase_record,
    phase_rows,
    variant_of,
)


def export_game(session: Session, game: models.Game) -> dict[str, object]:
    """The game as a CLI game file: everything, every power's pending orders included,
    so for its game master only."""
    pending = {p: list(row.orders) for p, row in pending_rows(session, game).items() if row.orders}
    phases = [
        {
            "phase": row.phase,
            "orders": row.orders,
            **({"draws": row.draws} if row.draws else {}),
            "digest": row.digest,
        }
        for row in phase_rows(session, game)
    ]
    return jsonio.saved_game(
        variant_of(game), game.seed, game.start, phases, pending, agreement(game)
    )


def agreement(game: models.Game) -> GameEnd:
    """The end its players agreed, if they did."""
    if not game.agreed:
        return PLAYING
    concede_to = game.agreed.get("concede_to")
    if isinstance(concede_to, str) and concede_to:
        return GameEnd(Termination.CONCESSION, winners=(concede_to,))
    return GameEnd(Termination.DRAW_AGREED, draw=_powers(game.agreed.get("draw")))


def import_game(
    session: Session, data: object, title: str, policy: dict[str, object]
) -> models.Game:
    """A game file (already parsed as JSON) stored as a new game: its phases with a
    snapshot each and its pending orders. A `jsonio.WireError` says why a file is refused."""
    game = jsonio.game_from_json(data)
    assert isinstance(data, Mapping)  # game_from_json refuses anything but an object
    agreed = data.get("agreed")  # checked by game_from_json
    variant = game.variant
    ended = game.end
    row = models.Game(
        title=title,
        variant=variant.id,
        options=dict(variant.options),
        seats=None if variant.seated is None else list(variant.seated),
        seed=game.seed,
        status="ended" if ended else "active",
        policy=policy,
        start=jsonio.position_to_json(game.start, MASTER),
        played=len(game.history),
        phase=game.position.phase.code,
        agreed=agreed if isinstance(agreed, dict) else None,
        ended=end_json(ended) if ended else None,
    )
    session.add(row)
    session.flush()  # gives the game its id
    for number, result in enumerate(game.history, start=1):
        session.add(phase_record(row, number, result))
    pending = jsonio.orders_to_json(game.pending)
    for power in variant.powers:
        session.add(models.Pending(game_id=row.id, power=power, orders=pending.get(power, [])))
    session.flush()
    return row


def end_json(end: GameEnd) -> dict[str, object]:
    return jsonio.end_to_json(end)


def end_from_json(data: Mapping[str, object]) -> GameEnd:
    """A stored end. One stored before its termination was (``{"winners", "draw",
    "agreed"}``) has none, but where the players agreed it."""
    if "termination" in data:
        return jsonio.end_from_json(data)
    winners, draw = _powers(data.get("winners")), _powers(data.get("draw"))
    agreed = Termination.CONCESSION if winners else Termination.DRAW_AGREED
    return GameEnd(agreed if data.get("agreed") else None, winners, draw)


def _powers(stored: object) -> tuple[str, ...]:
    """The powers a stored end names (a JSON list of names), none if it names none."""
    return tuple(p for p in stored if isinstance(p, str)) if isinstance(stored, list) else ()


def verify(session: Session, game: models.Game) -> list[str]:
    """Replay every stored phase from the start with its stored orders and draws; each
    must be the phase the replay reaches and end in its stored snapshot (and digest).
    Returns what does not match, phase by phase: nothing for a sound log."""
    variant = variant_of(game)
    position: Position = jsonio.position_from_json(game.start, variant)
    problems: list[str] = []
    for row in phase_rows(session, game):
        where = f"phase {row.number} ({row.phase})"
        if row.phase != position.phase.code:
            return [*problems, f"{where}: the replay reaches {position.phase.code} instead"]
        try:
            orders = parse_orders(variant, position, row.orders)
            result = play_phase(variant, position, orders, row.draws)
        except (jsonio.WireError, ChanceError) as exc:
            return [*problems, f"{where}: cannot be played again: {exc}"]
        digest = jsonio.position_digest(result.after)
        if digest != row.digest:
            problems.append(f"{where}: replay gives digest {digest}, the log {row.digest}")
        if jsonio.position_to_json(result.after, MASTER) != row.after:
            problems.append(f"{where}: replay gives another position than the stored snapshot")
        position = result.after
    if position.phase.code != game.phase:
        problems.append(f"the replay ends in {position.phase.code}, the game is at {game.phase}")
    return problems
