"""The adjudication report as a game master posts it.

Each power's orders with their results (Succeeds, Bounced 2v2, Cut by A Mwa, Dislodged by
A Lua (2v1), Void: ...), then the retreats due, then the supply center counts.
"""

from __future__ import annotations

from collections.abc import Iterable

from hegemon.adjudication.outcome import Outcome
from hegemon.adjudication.retreat import retreat_options
from hegemon.game import PhaseResult
from hegemon.orders import place
from hegemon.position import Position
from hegemon.variants import Variant

ORDER_WIDTH = 28


def phase_report(variant: Variant, result: PhaseResult) -> str:
    lines = [f"{result.before.phase} ({variant.board.name})", ""]
    if result.public:
        lines += [*result.public, ""]
    lines += order_lines(variant, result.outcomes)
    if result.destroyed:
        lines += ["", "Destroyed (no retreat possible):"]
        lines += [f"   {u.power}: {u.type.letter} {place(u.location)}" for u in result.destroyed]
    lines += retreat_lines(variant, result.after)
    lines += ["", *center_lines(variant, result.after), *variant.standings(result.after)]
    if result.winners:
        lines += ["", f"Victory: {', '.join(result.winners)} wins the game."]
    elif result.end.draw:
        lines += ["", f"The game ends in a draw shared by {', '.join(result.end.draw)}."]
    else:
        lines += ["", f"Next phase: {result.after.phase}"]
    return "\n".join(lines) + "\n"


def order_lines(variant: Variant, outcomes: Iterable[Outcome]) -> list[str]:
    """Orders grouped under their power's heading, each with its result in a column.

    The players' powers come first in the variant's order, then any other group the
    variant names (such as the minor powers), each listed by province."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(variant.report_group(outcome.power), []).append(outcome)
    players = [p for p in variant.powers if p in groups]
    others = sorted(set(groups) - set(players))
    lines: list[str] = []
    for heading in players + others:
        lines.append(heading)
        listed = groups[heading] if heading in players else sorted(groups[heading], key=_place)
        lines += [f"   {o.text:<{ORDER_WIDTH}}{o.note}" for o in listed]
    return lines


def _place(outcome: Outcome) -> str:
    return outcome.text.split()[1] if " " in outcome.text else outcome.text


def retreat_lines(variant: Variant, position: Position) -> list[str]:
    if not position.dislodged:
        return []
    lines = ["", "Retreats needed:"]
    for dislodgement in position.dislodged.values():
        unit = dislodgement.unit
        options = retreat_options(variant.board, position, dislodgement, variant.rules)
        where = ", ".join(place(o) for o in options)
        lines.append(f"   {unit.power}: {unit.type.letter} {place(unit.location)} -> {where}")
    return lines


def center_lines(variant: Variant, position: Position) -> list[str]:
    """Centers and units of each player, then of each other group (e.g. the minor powers)."""
    centers: dict[str, list[str]] = {}
    units: dict[str, int] = {}
    for center, owner in position.centers.items():
        centers.setdefault(variant.report_group(owner), []).append(center)
    for unit in position.units.values():
        group = variant.report_group(unit.power)
        units[group] = units.get(group, 0) + 1
    groups = [p for p in variant.powers if p in centers or p in units]
    groups += sorted((set(centers) | set(units)) - set(variant.powers))
    width = max((len(g) for g in groups), default=0) + 2
    lines = ["Supply centers:"]
    for group in groups:
        held = sorted(centers.get(group, []))
        count = _plural(len(held), "center") + ", " + _plural(units.get(group, 0), "unit")
        lines.append(f"   {group:<{width}}{count:<22}{', '.join(place(c) for c in held)}")
    return lines


def _plural(count: int, noun: str) -> str:
    return f"{count:>2} {noun}" + ("" if count == 1 else "s")


def position_report(variant: Variant, position: Position) -> str:
    """The board as text: units by power, pending retreats and centers."""
    lines = [f"{position.phase} ({variant.board.name})", ""]
    for power in variant.powers:
        units = sorted(f"{u.type.letter} {place(u.location)}" for u in position.units_of(power))
        if units:
            lines.append(f"{power}: {', '.join(units)}")
    lines += retreat_lines(variant, position)
    lines += ["", *center_lines(variant, position)]
    return "\n".join(lines) + "\n"
