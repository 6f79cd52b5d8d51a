"""The JSON wire format: the one module that knows how positions, orders, outcomes and
saved games look as JSON. docs/json.md documents it with examples.

Orders travel as text in the standard notation, so a saved game reads like a GM's log and
any program that can write ``"A par - bur"`` can drive the judge.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from hegemon.adjudication.outcome import Outcome
from hegemon.game import Game, PhaseResult, play_phase
from hegemon.notation import OrderSyntaxError
from hegemon.orders import Order, format_order
from hegemon.position import Dislodgement, Phase, PhaseKind, Position, Season, Unit, read_unit
from hegemon.variants import Variant, load_variant

GAME_FORMAT = "hegemon-game/1"


class WireError(ValueError):
    """JSON input that does not follow the documented format; says where and why."""


# --- positions --------------------------------------------------------------------------


def phase_to_json(phase: Phase) -> str:
    return phase.code


def phase_from_json(code: str) -> Phase:
    seasons = {season.letter: season for season in Season}
    kinds = {"M": PhaseKind.MOVEMENT, "R": PhaseKind.RETREAT, "A": PhaseKind.ADJUSTMENT}
    try:
        return Phase(int(code[1:-1]), seasons[code[0].upper()], kinds[code[-1].upper()])
    except (KeyError, ValueError, IndexError):
        raise WireError(
            f"phase {code!r}: expected a code like S1901M, U1615M, F1901R or W1901A"
        ) from None


def position_to_json(position: Position, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The position as JSON; `extras` replaces the variant state (e.g. a public view)."""
    units: dict[str, list[str]] = {}
    for unit in position.units.values():
        units.setdefault(unit.power, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for province, owner in sorted(position.centers.items()):
        centers.setdefault(owner, []).append(province)
    data: dict[str, Any] = {
        "phase": phase_to_json(position.phase),
        "units": {p: sorted(us) for p, us in sorted(units.items())},
        "centers": centers,
    }
    if position.dislodged:
        data["dislodged"] = [
            {
                "power": d.unit.power,
                "unit": str(d.unit),
                "attacker_from": d.attacker_from,
            }
            for d in position.dislodged.values()
        ]
    if position.contested:
        data["contested"] = sorted(position.contested)
    extras = position.extras if extras is None else extras
    if extras:
        data["extras"] = dict(extras)
    return data


def position_from_json(data: Mapping[str, Any], variant: Variant) -> Position:
    if not isinstance(data, Mapping):
        raise WireError("position: expected an object with phase, units and centers")
    phase = phase_from_json(_field(data, "phase", str, "position"))
    units: dict[str, Unit] = {}
    for power, texts in _field(data, "units", dict, "position").items():
        for text in texts:
            unit = _unit(variant, power, text)
            if unit.province in units:
                raise WireError(f"units: two units in {unit.province}")
            units[unit.province] = unit
    centers: dict[str, str] = {}
    for power, provinces in data.get("centers", {}).items():
        _owner(variant, power)
        for province in provinces:
            if province not in variant.board.centers:
                raise WireError(f"centers: {province!r} is not a supply center")
            centers[province] = power
    dislodged = {}
    for entry in data.get("dislodged", []):
        unit = _unit(variant, entry.get("power", ""), entry.get("unit", ""))
        dislodged[unit.province] = Dislodgement(unit, entry.get("attacker_from"))
    contested = frozenset(data.get("contested", []))
    extras = data.get("extras", {})
    if not isinstance(extras, Mapping):
        raise WireError("position: field 'extras' must be an object")
    return Position.create(phase, units, centers, dislodged, contested, extras)


def _field(data: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind):
        raise WireError(f"{where}: field {name!r} missing or not a {kind.__name__}")
    return value


def _power(variant: Variant, spelling: str) -> str:
    power = variant.power_named(spelling)
    if power is None:
        raise WireError(f"unknown power {spelling!r} (powers: {', '.join(variant.powers)})")
    return power


def _owner(variant: Variant, spelling: str) -> str:
    owner = variant.owner_named(spelling)
    if owner is None:
        raise WireError(f"unknown power {spelling!r} (powers: {', '.join(variant.powers)})")
    return owner


def _unit(variant: Variant, power: str, text: str) -> Unit:
    try:
        return read_unit(variant.board, _owner(variant, power), text)
    except ValueError as exc:
        raise WireError(str(exc)) from None


# --- orders and outcomes ----------------------------------------------------------------


def orders_from_json(
    data: Mapping[str, Any], variant: Variant, position: Position | None = None
) -> dict[str, list[Order]]:
    """``{"France": ["A par - bur", ...]}`` to orders; the first unreadable one raises."""
    if not isinstance(data, Mapping):
        raise WireError("orders: expected an object mapping each power to a list of orders")
    units = position.all_units if position else None
    orders: dict[str, list[Order]] = {}
    for power, texts in data.items():
        if not isinstance(texts, list):
            raise WireError(f"orders of {power}: expected a list of order strings")
        try:
            orders[power] = [variant.parse_order(str(t), units) for t in texts]
        except OrderSyntaxError as exc:
            raise WireError(f"orders of {power}: {exc}") from exc
    return orders


def orders_to_json(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[str]]:
    return {power: [format_order(o) for o in given] for power, given in orders.items()}


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    data: dict[str, Any] = {
        "power": outcome.power,
        "order": outcome.text,
        "result": outcome.verdict.value,
        "note": outcome.note,
    }
    if outcome.decided_by:
        data["decided_by"] = list(outcome.decided_by)
    if outcome.dislodged_by:
        data["dislodged_by"] = outcome.dislodged_by
    return data


def phase_result_to_json(result: PhaseResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "phase": phase_to_json(result.before.phase),
        "outcomes": [outcome_to_json(o) for o in result.outcomes],
        "position": position_to_json(result.after),
    }
    if result.destroyed:
        data["destroyed"] = [f"{u.power}: {u}" for u in result.destroyed]
    if result.public:
        data["public"] = list(result.public)
    if result.end.winners:
        data["winners"] = list(result.end.winners)
    if result.end.draw:
        data["draw"] = list(result.end.draw)
    return data


def adjudicate_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """The ``hegemon adjudicate --json`` contract: a position and orders in, results out."""
    if not isinstance(request, Mapping):
        raise WireError("request: expected an object with variant, position and orders")
    variant = _variant(str(request.get("variant", "classic")))
    position = position_from_json(_field(request, "position", dict, "request"), variant)
    orders = orders_from_json(request.get("orders", {}), variant, position)
    for power in orders:
        _power(variant, power)
    return phase_result_to_json(play_phase(variant, position, orders))


def _variant(name: str) -> Variant:
    try:
        return load_variant(name)
    except LookupError as exc:
        raise WireError(str(exc)) from exc


# --- saved games --------------------------------------------------------------------------


def position_digest(position: Position) -> str:
    """A short fingerprint of a position, checked on replay to catch any divergence."""
    text = json.dumps(position_to_json(position), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_to_json(game: Game) -> dict[str, Any]:
    return {
        "format": GAME_FORMAT,
        "variant": game.variant.id,
        "start": position_to_json(game.start),
        "phases": [
            {
                "phase": phase_to_json(r.before.phase),
                "orders": orders_to_json(r.orders),
                "digest": position_digest(r.after),
            }
            for r in game.history
        ],
        "pending": orders_to_json(game.pending),
    }


def game_from_json(data: Mapping[str, Any]) -> Game:
    """Rebuild a game by replaying every phase from the start; digests must match."""
    if not isinstance(data, Mapping) or data.get("format") != GAME_FORMAT:
        raise WireError(f"not a saved game: expected format {GAME_FORMAT!r}")
    variant = _variant(str(data.get("variant")))
    game = Game(variant, position_from_json(_field(data, "start", dict, "game"), variant))
    for number, entry in enumerate(data.get("phases", []), start=1):
        orders = orders_from_json(entry.get("orders", {}), variant, game.position)
        game.pending = orders
        result = game.adjudicate()
        if entry.get("digest") not in (None, position_digest(result.after)):
            raise WireError(
                f"phase {number} ({entry.get('phase')}): replay gives a different position"
            )
    game.pending = orders_from_json(data.get("pending", {}), variant, game.position)
    return game
