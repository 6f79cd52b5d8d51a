"""The adjudication report as a game master posts it, and the board as text, each as one
viewer may read it.

Each power's orders with their results (Succeeds, Bounced 2v2, Cut by A Mwa, Dislodged by
A Lua (2v1), Void: ...), then the retreats due, then the supply center counts. An
observer reads what the rules make public; a power also reads the lines the variant
keeps for it (its own points or influence); the game master reads everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hegemon.adjudication.outcome import Outcome
from hegemon.adjudication.retreat import retreat_options
from hegemon.game import Game, PhaseResult, Variant, describe_end
from hegemon.orders import Secrecy, place
from hegemon.position import Position, Viewer

ORDER_WIDTH = 28


def phase_report(variant: Variant, result: PhaseResult, viewer: Viewer) -> str:
    drawn = "; ".join(f"{name}: {_drawn(value)}" for name, value in result.draws.items())
    destroyed = [f"   {u.power}: {u.type.letter} {place(u.location)}" for u in result.destroyed]
    return _blocks(
        [f"{result.before.phase} ({variant.board.name})"],
        [f"Drawn: {drawn}"] if drawn else [],
        list(result.public),
        [
            *private_lines(result, viewer),
            *variant.report_lines(result.before, result.after, viewer),
        ],
        order_lines(variant, [o for o in result.outcomes if _visible(o, viewer)]),
        ["Destroyed (no retreat possible):", *destroyed] if destroyed else [],
        retreat_lines(variant, result.after),
        [*center_lines(variant, result.after), *variant.standings(result.after)],
        [_closing(result)],
    )


def _blocks(*blocks: list[str]) -> str:
    """The blocks that are not empty, a blank line between each two."""
    return "\n\n".join("\n".join(block) for block in blocks if block) + "\n"


def _closing(result: PhaseResult) -> str:
    if result.winners:
        verdict = "wins the game" if len(result.winners) == 1 else "win the game together"
        return f"Victory: {' and '.join(result.winners)} {verdict}."
    if result.end.draw:
        return f"The game ends in a draw shared by {', '.join(result.end.draw)}."
    return f"Next phase: {result.after.phase}"


def _drawn(value: object) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def private_lines(result: PhaseResult, viewer: Viewer) -> list[str]:
    """The lines the variant keeps for one power: its own, or every power's for the GM."""
    if viewer.master:
        return [line for power in result.private for line in result.private[power]]
    return list(result.private.get(viewer.power or "", ()))


def _visible(outcome: Outcome, viewer: Viewer) -> bool:
    """An adjudicated order is public unless its kind stays secret until the game ends."""
    return outcome.order.secrecy is not Secrecy.UNTIL_END or viewer.sees(outcome.power)


def order_lines(variant: Variant, outcomes: Iterable[Outcome]) -> list[str]:
    """Orders grouped under their power's heading, each with its result in a column."""
    lines: list[str] = []
    for heading, listed in order_groups(variant, outcomes):
        lines.append(heading)
        lines += [line for o in listed for line in _order_with_result(o)]
    return lines


def order_groups(variant: Variant, outcomes: Iterable[Outcome]) -> list[tuple[str, list[Outcome]]]:
    """Orders grouped under their power's heading: the players' powers first in the
    variant's order, then any other group the variant names (such as the minor powers),
    each listed by province."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(variant.report_group(outcome.power), []).append(outcome)
    players = [p for p in variant.powers if p in groups]
    others = sorted(set(groups) - set(players))
    return [(heading, groups[heading]) for heading in players] + [
        (heading, sorted(groups[heading], key=_place)) for heading in others
    ]


def _order_with_result(outcome: Outcome) -> list[str]:
    """The order, then its result in the column; an order too long to leave two spaces
    before the column (a long ranked list) has its result on the next line."""
    text = outcome.text
    if len(text) + 2 > ORDER_WIDTH:
        return [f"   {text}", f"   {'':<{ORDER_WIDTH}}{outcome.note}"]
    return [f"   {text:<{ORDER_WIDTH}}{outcome.note}"]


def _place(outcome: Outcome) -> str:
    return outcome.text.split()[1] if " " in outcome.text else outcome.text


def retreat_lines(variant: Variant, position: Position) -> list[str]:
    """Each dislodged unit and where it may retreat, by the rules of this very position."""
    if not position.dislodged:
        return []
    rules = variant.rules_for(position)
    lines = ["Retreats needed:"]
    for dislodgement in position.dislodged.values():
        unit = dislodgement.unit
        options = retreat_options(variant.board, position, dislodgement, rules)
        where = ", ".join(place(o) for o in options)
        lines.append(f"   {unit.power}: {unit.type.letter} {place(unit.location)} -> {where}")
    return lines


def center_lines(variant: Variant, position: Position) -> list[str]:
    """Centers and units of each player, then of each other group (e.g. the minor powers)."""
    group_of = variant.report_group
    centers: dict[str, list[str]] = {}
    units: dict[str, int] = {}
    for center, owner in position.centers.items():
        centers.setdefault(group_of(owner), []).append(center)
    for unit in position.units.values():
        group = group_of(unit.power)
        units[group] = units.get(group, 0) + 1
    groups = _groups(variant, centers.keys() | units.keys())
    width = max(map(len, groups), default=0) + 2
    lines = ["Supply centers:"]
    for group in groups:
        held = sorted(centers.get(group, []))
        count = _plural(len(held), "center") + ", " + _plural(units.get(group, 0), "unit")
        lines.append(f"   {group:<{width}}{count:<22}{', '.join(map(place, held))}")
    return lines


def _groups(variant: Variant, present: Iterable[str]) -> list[str]:
    """The players' powers in the variant's order, then any other group by name."""
    present = set(present)
    return [p for p in variant.powers if p in present] + sorted(present - set(variant.powers))


def _plural(count: int, noun: str) -> str:
    return f"{count:>2} {noun}" + ("" if count == 1 else "s")


def position_report(
    variant: Variant,
    position: Position,
    viewer: Viewer,
    spending: Sequence[str] = (),
    over: bool = False,
) -> str:
    """The board as text: units by power, what the phase asks of whom (nothing once the
    game is `over`, which an end agreed by the players leaves the position unaware of),
    the variant's own lines for this viewer (and what its orders given spend,
    `spending`), pending retreats and centers."""
    units: dict[str, list[str]] = {}
    for unit in position.units.values():
        listed = f"{unit.type.letter} {place(unit.location)}"
        if unit.cargo:  # the units aboard it, by kind: ``F Gog [M]``
            listed += f" [{' '.join(u.type.letter for u in unit.cargo)}]"
        units.setdefault(variant.report_group(unit.power), []).append(listed)
    procedure = variant.calendar.procedure(position.phase)
    return _blocks(
        [f"{position.phase} ({variant.board.name})"],
        [f"{group}: {', '.join(sorted(units[group]))}" for group in _groups(variant, units)],
        [
            *([] if over else procedure.status_lines(variant, position, viewer)),
            *variant.position_lines(position, viewer),
            *spending,
        ],
        retreat_lines(variant, position),
        [*center_lines(variant, position), *variant.standings(position)],
    )


def order_status_lines(game: Game) -> list[str]:
    """Whose orders are in and whose are awaited (`Game.order_status`), or how the game
    ended: public, unlike the orders themselves."""
    if game.over:
        return [f"The game is over: {describe_end(game.end)}."]
    status = game.order_status()
    return [
        f"Orders received from: {', '.join(status.received) or 'none'}",
        f"Awaiting orders from: {', '.join(status.awaited) or 'nobody'}",
    ]
