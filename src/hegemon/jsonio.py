"""The JSON wire format: the one module that knows how positions, orders, outcomes and
saved games look as JSON. docs/json.md documents it with examples.

Orders travel as text in the standard notation, so a saved game reads like a GM's log and
any program that can write ``"A par - bur"`` can drive the judge. Whatever a player or a
program reads goes through a viewer: the game master's view holds everything, a power's
view its own secrets and nobody else's.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Final, Never

import orjson

from hegemon.adjudication.outcome import Outcome
from hegemon.beyond import may_carry
from hegemon.game import (
    PLAYING,
    ChanceError,
    Draw,
    Game,
    GameEnd,
    GameOver,
    PhaseResult,
    SetupError,
    Termination,
    Variant,
    play_phase,
)
from hegemon.notation import OrderSyntaxError, read_order
from hegemon.orders import Order, Secrecy, format_order
from hegemon.position import (
    MASTER,
    OBSERVER,
    Dislodgement,
    Phase,
    PhaseKind,
    Position,
    StateView,
    Unit,
    Viewer,
    read_offboard_unit,
    read_unit,
    unit_text,
)
from hegemon.reasons import SUCCEEDED, Why
from hegemon.variants import load_variant

GAME_FORMAT = "hegemon-game/3"
# Formats of earlier versions, no longer read: /2 is /3 without the file's checksum, and
# nothing tells a file of it from one whose checksum was taken away (so that an edited
# file would pass unchecked).
RETIRED_FORMATS = ("hegemon-game/2",)
GAME_FORMATS = (GAME_FORMAT, *RETIRED_FORMATS)  # what a game file's first bytes may name
VariantLoader = Callable[[str], Variant]

# Limits on what is read, far above any real game, so that no input can make the judge
# spend minutes or gigabytes on it (docs/json.md, "Limits").
MAX_BYTES = 16 * 2**20  # a document: a game file or a request
MAX_DEPTH = 32  # objects and lists within one another
MAX_ORDERS = 500  # orders of one power in one phase
MAX_ORDER_LENGTH = 300  # characters in one order


class WireError(ValueError):
    """JSON input that does not follow the documented format; says where and why."""


# JSON as the json module reads and writes it. What is read is an `object` until it is
# checked part by part (each reader below narrows it, or says where it is wrong).
JsonObject = dict[str, object]


def parse(text: str, what: str) -> object:
    """A JSON document within the limits; a WireError names `what` and the problem.
    Integers beyond 64 bits are read as numbers with a fraction (orjson's way), which no
    reader here takes where it wants a whole number."""
    if len(text) > MAX_BYTES:
        raise WireError(f"{what}: larger than {MAX_BYTES} bytes")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        # What orjson refuses, the json module reads again: it says exactly what is wrong
        # (NaN, nesting), and reads the little orjson alone refuses (integers beyond 64 bits).
        data = _parse_slowly(text, what)
    if _depth(data) > MAX_DEPTH:
        raise WireError(f"{what}: nested more than {MAX_DEPTH} levels deep")
    return data


def _parse_slowly(text: str, what: str) -> object:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise WireError(f"{what}: nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise WireError(f"{what}: not valid JSON: {exc}") from None
    except _NotJson as exc:
        raise WireError(f"{what}: {exc}") from None


def dumps(data: object, indent: bool = False) -> str:
    """JSON text of what this module writes, on one line or indented for people."""
    return orjson.dumps(data, option=orjson.OPT_INDENT_2 if indent else 0).decode()


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str) -> Never:
    raise _NotJson(f"{name} is not a JSON value")


def _depth(data: object) -> int:
    """How deeply objects and lists nest in `data` (without recursion: it may be deep)."""
    if not isinstance(data, (dict, list)):
        return 0
    deepest = 0
    stack: list[tuple[dict[str, object] | list[object], int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_DEPTH:
            children = value.values() if isinstance(value, dict) else value
            # Only objects and lists are stacked: most values are strings, which nest nothing.
            for child in children:
                if isinstance(child, (dict, list)):
                    stack.append((child, depth + 1))
    return deepest


# --- positions --------------------------------------------------------------------------

_PHASE_CODE = re.compile(r"^([A-Za-z])(\d{1,6})([A-Za-z])$")


def phase_to_json(phase: Phase) -> str:
    return phase.code


def phase_from_json(code: object, variant: Variant) -> Phase:
    """``S1901M`` as a phase of the variant's calendar."""
    match = _PHASE_CODE.match(code) if isinstance(code, str) else None
    kind = variant.calendar.kinds.get(match.group(3).upper()) if match else None
    season = variant.calendar.seasons.get(match.group(1).upper()) if match else None
    phase = Phase(int(match.group(2)), season, kind) if match and kind and season else None
    try:
        if phase is not None:
            variant.calendar.procedure(phase)
            return phase
    except LookupError:
        pass
    steps = (*variant.calendar.opening, *variant.calendar.year)
    codes = ", ".join(
        f"{s.season.letter}{variant.start_year}{s.procedure.kind.code}" for s in steps
    )
    raise WireError(f"phase {code!r}: not a phase of {variant.id} (its phases: {codes} ...)")


def position_to_json(position: Position, viewer: Viewer) -> JsonObject:
    """The position as JSON, its variant state as `viewer` may see it (the game master
    sees all of it: what a saved game keeps)."""
    units: dict[str, list[str]] = {}
    for unit in position.units.values():
        units.setdefault(unit.power, []).append(unit_text(unit))
    # Sorted by key alone: the keys differ, and sorting (key, value) pairs costs more.
    owned = position.centers
    centers: dict[str, list[str]] = {}
    for province in sorted(owned):
        centers.setdefault(owned[province], []).append(province)
    data: JsonObject = {
        "phase": phase_to_json(position.phase),
        "units": {power: sorted(units[power]) for power in sorted(units)},
        "centers": centers,
    }
    if position.dislodged:
        data["dislodged"] = [
            {"power": d.unit.power, "unit": unit_text(d.unit), "attacker_from": d.attacker_from}
            for _, d in sorted(position.dislodged.items())
        ]
    if position.offboard:
        offboard: dict[str, list[str]] = {}
        for unit in position.offboard:
            offboard.setdefault(unit.power, []).append(unit_text(unit))
        data["offboard"] = offboard
    if position.contested:
        data["contested"] = sorted(position.contested)
    state = view_to_json(position.state.view(viewer))
    if state:
        data["state"] = state
    return data


def view_to_json(view: StateView) -> JsonObject:
    """A view of a variant's state as JSON: its fields by name, but those that are None;
    nothing for a view without fields (the standard game's)."""
    return _fields_to_json(view)


def _fields_to_json(value: object) -> JsonObject:
    if not is_dataclass(value):
        return {}
    written = {field.name: getattr(value, field.name) for field in fields(value)}
    return {name: _to_json(v) for name, v in written.items() if v is not None}


def _to_json(value: object) -> object:
    """A value of a view as JSON: mappings as objects (keys sorted, for a stable file),
    tuples and lists as lists, dataclasses as objects, the rest (text, numbers) as is."""
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return _fields_to_json(value)
    return value


def position_from_json(data: object, variant: Variant) -> Position:
    """A position as JSON, every part checked: a WireError names the part and the reason.
    Province ids and powers may be written in any case; they are read canonically."""
    if not isinstance(data, Mapping):
        raise WireError("position: expected an object with phase, units and centers")
    phase = phase_from_json(data.get("phase"), variant)
    units = _units(data, variant)
    dislodged = _dislodged(data, variant)
    contested = frozenset(
        _province(variant, name, "contested")
        for name in _strings(data.get("contested", []), "contested")
    )
    if (dislodged or contested) and phase.kind is not PhaseKind.RETREAT:
        raise WireError(
            f"position: dislodged units and contested provinces belong to a retreat phase, "
            f"not to {phase.code}"
        )
    try:
        state = variant.read_state(_object(data, "state"))
    except ValueError as exc:
        raise WireError(str(exc)) from None
    offboard = _offboard(data, variant)
    position = Position.create(
        phase, units, _centers(data, variant), dislodged, contested, state, offboard
    )
    if position.beyond_the_board or dislodged:
        _check_cargo(position, variant)
    return position


def _offboard(data: Mapping[str, object], variant: Variant) -> tuple[Unit, ...]:
    """``{"France": ["F [M]", "P"]}``: each power's units off the board, by kind."""
    offboard: list[Unit] = []
    for power, texts in _object(data, "offboard").items():
        owner = _owner(variant, power)
        for text in _strings(texts, f"offboard.{power}"):
            try:
                offboard.append(read_offboard_unit(variant.board, owner, text))
            except ValueError as exc:
                raise WireError(f"offboard.{power}: {exc}") from None
    return tuple(offboard)


def _check_cargo(position: Position, variant: Variant) -> None:
    """Every unit aboard another is one the variant's rules let it carry."""
    rules = variant.rules_for(position)
    carriers = [*position.units.values(), *position.offboard]
    carriers += [d.unit for d in position.dislodged.values()]
    for carrier in carriers:
        for index, unit in enumerate(carrier.cargo):
            if not may_carry(rules, carrier.carrying(carrier.cargo[:index]), unit):
                raise WireError(
                    f"unit {unit_text(carrier)!r} of {carrier.power}: "
                    f"{carrier.type.article} may not carry {unit.type.article}"
                )


def _units(data: Mapping[str, object], variant: Variant) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for power, texts in _object(data, "units", required=True).items():
        owner = _owner(variant, power)  # once per power, not per unit
        for text in _strings(texts, f"units.{power}"):
            unit = _unit(variant, owner, text)
            if unit.province in units:
                raise WireError(f"units: two units in {unit.province}")
            units[unit.province] = unit
    return units


def _centers(data: Mapping[str, object], variant: Variant) -> dict[str, str]:
    """Each owned supply center's owner; a center is listed under one owner only."""
    centers: dict[str, str] = {}
    supply = variant.board.centers  # read once: each read of a variant's board is a call
    for power, provinces in _object(data, "centers").items():
        owner = _owner(variant, power)
        for name in _strings(provinces, f"centers.{power}"):
            # A center's id as positions write it, else any spelling `_center` reads.
            center = name if name in supply else _center(variant, name, f"centers.{power}")
            if center in centers:
                raise WireError(
                    f"centers: {center!r} listed under both {centers[center]} and {owner}"
                )
            centers[center] = owner
    return centers


def _dislodged(data: Mapping[str, object], variant: Variant) -> dict[str, Dislodgement]:
    dislodged: dict[str, Dislodgement] = {}
    for number, entry in enumerate(_list(data, "dislodged")):
        where = f"dislodged[{number}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("power"), str):
            raise WireError(f"{where}: expected an object with power, unit and attacker_from")
        unit = _unit(variant, _owner(variant, entry["power"]), entry.get("unit"))
        came_from = entry.get("attacker_from")
        if came_from is not None:
            came_from = _province(variant, came_from, f"{where}.attacker_from")
        if unit.province in dislodged:
            raise WireError(f"{where}: two dislodged units in {unit.province}")
        dislodged[unit.province] = Dislodgement(unit, came_from)
    return dislodged


def _object(data: Mapping[str, object], name: str, required: bool = False) -> Mapping[str, object]:
    value = data.get(name, None if required else {})
    if not isinstance(value, Mapping):
        raise WireError(
            f"position: field {name!r} {'missing or ' if required else ''}not an object"
        )
    return value


def _list(data: Mapping[str, object], name: str) -> list[object]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise WireError(f"position: field {name!r} must be a list")
    return value


def _strings(value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise WireError(f"{where}: expected a list of strings")
    strings = [v for v in value if isinstance(v, str)]
    if len(strings) != len(value):
        raise WireError(f"{where}: expected a list of strings")
    return strings


def _province(variant: Variant, name: object, where: str) -> str:
    """A province by its id, in any case."""
    province = name.strip().lower() if isinstance(name, str) else ""
    if province not in variant.board.provinces:
        raise WireError(f"{where}: {name!r} is not a province of {variant.id}")
    return province


def _center(variant: Variant, name: object, where: str) -> str:
    """A supply center by its province id, in any case."""
    province = _province(variant, name, where)
    if province not in variant.board.centers:
        raise WireError(f"{where}: {variant.board.name_of(province)} is not a supply center")
    return province


def _power(variant: Variant, spelling: object) -> str:
    if isinstance(spelling, str) and spelling in variant.powers:  # its name as written
        return spelling
    power = variant.power_named(spelling) if isinstance(spelling, str) else None
    if power is None:
        raise WireError(f"unknown power {spelling!r} (powers: {', '.join(variant.powers)})")
    return power


def _owner(variant: Variant, spelling: object) -> str:
    # A name as positions write it is the owner it names, without undoing any spelling.
    if isinstance(spelling, str) and (spelling in variant.powers or spelling in variant.owners):
        return spelling
    owner = variant.owner_named(spelling) if isinstance(spelling, str) else None
    if owner is None:
        raise WireError(f"unknown power {spelling!r} (powers: {', '.join(variant.powers)})")
    return owner


def _unit(variant: Variant, owner: str, text: object) -> Unit:
    if not isinstance(text, str):
        raise WireError(f"unit {text!r}: expected a unit such as 'A par'")
    try:
        return read_unit(variant.board, owner, text)
    except ValueError as exc:
        raise WireError(str(exc)) from None


# --- orders and outcomes ----------------------------------------------------------------


def orders_from_json(
    data: object, variant: Variant, position: Position | None = None
) -> dict[str, list[Order]]:
    """``{"France": ["A par - bur", ...]}`` to orders by power (written canonically, in
    any case); the first unreadable one raises."""
    if not isinstance(data, Mapping):
        raise WireError("orders: expected an object mapping each power to a list of orders")
    context = variant.read_context(position.all_units if position else None)  # one for all
    orders: dict[str, list[Order]] = {}
    for spelling, texts in data.items():
        power = _power(variant, spelling)
        given = orders.setdefault(power, [])
        for text in _strings(texts, f"orders of {power}"):
            if len(given) >= MAX_ORDERS or len(text) > MAX_ORDER_LENGTH:
                raise WireError(
                    f"orders of {power}: more than {MAX_ORDERS} orders, or one longer than "
                    f"{MAX_ORDER_LENGTH} characters"
                )
            try:
                given.append(read_order(text, context, variant.calendar.order_kinds))
            except OrderSyntaxError as exc:
                raise WireError(f"orders of {power}: {exc}") from exc
    return orders


def storing_problem(orders: Sequence[Order]) -> str | None:
    """Why a power's orders for a phase could not be saved in a game file that the reader
    takes back (the limits above), if they could not."""
    if len(orders) > MAX_ORDERS:
        return f"{len(orders)} orders in all, more than the {MAX_ORDERS} a power may give"
    too_long = next((o for o in orders if len(format_order(o)) > MAX_ORDER_LENGTH), None)
    if too_long is not None:
        return f"{format_order(too_long)[:40]!r}...: longer than {MAX_ORDER_LENGTH} characters"
    return None


def orders_to_json(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[str]]:
    return {power: [format_order(o) for o in given] for power, given in orders.items()}


def orders_view(
    orders: Mapping[str, Sequence[Order]], viewer: Viewer, game_over: bool = False
) -> dict[str, list[str]]:
    """The adjudicated orders `viewer` may read: its own, and the others' but for those
    secret until the end (bids, INF deployments), until the game is over."""
    seen = {
        power: [
            o.format()
            for o in given
            if viewer.sees(power) or game_over or o.secrecy is not Secrecy.UNTIL_END
        ]
        for power, given in orders.items()
    }
    return {power: given for power, given in seen.items() if given}


def outcome_to_json(outcome: Outcome) -> JsonObject:
    """An order's outcome: its reason and the fate of its unit as typed data beside the
    note worded from them (docs/json.md, "Outcomes and their reasons"). The reason of an
    order that simply succeeded, most orders' and the result's already, goes unwritten:
    the reasons made the answer a third longer, and its writing as much slower."""
    data: JsonObject = {
        "power": outcome.power,
        "order": outcome.text,
        "result": outcome.verdict,  # a StrEnum: written as its value, without the call
        "note": outcome.note,
    }
    if outcome.reason is not SUCCEEDED:
        data["reason"] = reason_to_json(outcome.reason)
    if outcome.fate is not None:
        data["fate"] = reason_to_json(outcome.fate)
    if outcome.decided_by:
        data["decided_by"] = list(outcome.decided_by)
    if outcome.dislodged_by:
        data["dislodged_by"] = outcome.dislodged_by
    return data


# A reason's datum as JSON writes it: a tuple becomes a list.
JsonDatum = str | int | bool | list[str] | None


def reason_to_json(reason: Why) -> dict[str, JsonDatum]:
    """A reason as its kind, a variant's code for its own kinds, and its data but what it
    lacks (None: a value hidden, or none there): ``{"kind": "bounced", "unit": "A Mun",
    "attack": 2, "resisted": 2, "rival": "mom"}``."""
    data: dict[str, JsonDatum] = {"kind": reason.reason}  # a StrEnum: written as its value
    if reason.code:
        data["code"] = reason.code
    for name, value in reason.data().items():
        if value is not None:
            data[name] = list(value) if isinstance(value, tuple) else value
    return data


def phase_result_to_json(result: PhaseResult, viewer: Viewer) -> JsonObject:
    """A phase's results as `viewer` may read them."""
    data: JsonObject = {
        "phase": phase_to_json(result.before.phase),
        "orders": orders_view(result.orders, viewer, bool(result.end)),
        "outcomes": [
            outcome_to_json(o)
            for o in result.outcomes
            if o.order.secrecy is not Secrecy.UNTIL_END or viewer.sees(o.power)
        ],
        "position": position_to_json(result.after, viewer),
    }
    if result.draws:
        data["draws"] = {name: _draw_to_json(v) for name, v in result.draws.items()}
    if result.destroyed:
        data["destroyed"] = [f"{u.power}: {u}" for u in result.destroyed]
    if result.public:
        data["public"] = list(result.public)
    private = {p: list(lines) for p, lines in result.private.items() if viewer.sees(p) and lines}
    if private:
        data["private"] = private
    if result.end:
        data.update(end_to_json(result.end))
    return data


def end_to_json(end: GameEnd) -> JsonObject:
    """How a game ended: ``{"termination": "solo", "winners": ["France"]}``, or a draw's
    powers, ``{"termination": "last_year", "draw": ["Austria", "Italy"]}``."""
    data: JsonObject = {"termination": None if end.how is None else end.how.value}
    if end.winners:
        data["winners"] = list(end.winners)
    if end.draw:
        data["draw"] = list(end.draw)
    return data


def end_from_json(data: object) -> GameEnd:
    """A game's end as `end_to_json` writes it."""
    if not isinstance(data, Mapping) or data.get("termination") not in _TERMINATIONS:
        raise WireError(f"end: expected a termination, one of {', '.join(_TERMINATIONS)}")
    winners = tuple(_strings(data.get("winners", []), "end.winners"))
    draw = tuple(_strings(data.get("draw", []), "end.draw"))
    if not winners and not draw:
        raise WireError("end: expected its winners or its draw")
    return GameEnd(_TERMINATIONS[data["termination"]], winners, draw)


_TERMINATIONS: Final = {how.value: how for how in Termination}


def _draw_to_json(value: Draw) -> int | list[str]:
    return list(value) if isinstance(value, tuple) else value


def viewer_from_json(value: object, variant: Variant) -> Viewer:
    """``"master"``, ``"observer"`` or a power's name."""
    if value == "master":
        return MASTER
    if value == "observer":
        return OBSERVER
    return Viewer(power=_power(variant, value))


def adjudicate_request(request: object, variants: VariantLoader, viewer: str) -> JsonObject:
    """The ``hegemon adjudicate --json`` contract: a position, orders and any draws in,
    results out, as the request's `viewer` may read them, or where it names none, as
    `viewer` (the command's ``--as``, the observer unless it names another): never the
    game master's secrets unless someone asked for them by name."""
    if not isinstance(request, Mapping):
        raise WireError("request: expected an object with variant, position and orders")
    variant = configured(
        variants, request.get("variant", "classic"), request.get("options"), request.get("seats")
    )
    position = position_from_json(request.get("position"), variant)
    orders = orders_from_json(request.get("orders", {}), variant, position)
    draws = request.get("draws", {})
    if not isinstance(draws, Mapping):
        raise WireError("draws: expected an object of draws by name")
    try:
        result = play_phase(variant, position, orders, draws)
    except ChanceError as exc:
        raise WireError(f"draws: {exc}") from None
    return phase_result_to_json(result, viewer_from_json(request.get("viewer", viewer), variant))


def configured(variants: VariantLoader, name: object, options: object, seats: object) -> Variant:
    """A variant by name, configured with the game's options and seats."""
    if not isinstance(name, str):
        raise WireError(f"variant: expected a name, not {name!r}")
    try:
        variant = variants(name)
    except LookupError as exc:
        raise WireError(str(exc)) from exc
    if options is not None and not isinstance(options, Mapping):
        raise WireError("options: expected an object of option values")
    if seats is not None and not (
        isinstance(seats, list) and all(isinstance(s, str) for s in seats)
    ):
        raise WireError("seats: expected a list of powers")
    try:
        return variant.configure(options, seats)
    except SetupError as exc:
        raise WireError(str(exc)) from None


# --- saved games --------------------------------------------------------------------------


def position_digest(position: Position) -> str:
    """A short fingerprint of a position, checked on replay to catch any divergence."""
    text = json.dumps(position_to_json(position, MASTER), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_checksum(data: Mapping[str, object]) -> str:
    """A saved game's fingerprint as a whole: the first 16 hex digits of the SHA-256 of its
    JSON without the checksum itself, keys sorted, spaces left out."""
    rest = {key: value for key, value in data.items() if key != "checksum"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_to_json(game: Game) -> JsonObject:
    """Everything: the game master's file."""
    return saved_game(
        game.variant,
        game.seed,
        position_to_json(game.start, MASTER),
        [phase_entry(r) for r in game.history],
        orders_to_json(game.pending),
        game.agreed,
    )


def saved_game(
    variant: Variant,
    seed: int,
    start: Mapping[str, object],
    phases: Sequence[Mapping[str, object]],
    pending: dict[str, list[str]],
    agreed: GameEnd = PLAYING,
) -> JsonObject:
    """A game file from its parts as JSON (each phase as `phase_entry` writes it), for a
    program that keeps them apart, such as the server's database."""
    data: JsonObject = {"format": GAME_FORMAT, "variant": variant.id}
    if variant.options:
        data["options"] = dict(variant.options)
    if variant.seated is not None:
        data["seats"] = list(variant.seated)
    data["seed"] = seed
    data["start"] = start
    data["phases"] = phases
    data["pending"] = pending
    if agreed:
        data["agreed"] = (
            {"concede_to": agreed.winners[0]} if agreed.winners else {"draw": list(agreed.draw)}
        )
    data["checksum"] = game_checksum(data)
    return data


def phase_entry(result: PhaseResult) -> JsonObject:
    """A phase as a game file keeps it: its code, orders, draws and the digest after it."""
    entry: JsonObject = {
        "phase": phase_to_json(result.before.phase),
        "orders": orders_to_json(result.orders),
    }
    if result.draws:
        entry["draws"] = {name: _draw_to_json(v) for name, v in result.draws.items()}
    entry["digest"] = position_digest(result.after)
    return entry


_GAME_KEYS = {"format", "variant", "seed", "start", "phases", "pending", "checksum"}
# Every part of a game file and of each phase in it, what a save writes back: a file with
# anything else is refused, as a save would drop it without a word.
_GAME_PARTS: Final = frozenset({*_GAME_KEYS, "options", "seats", "agreed"})
_PHASE_PARTS: Final = frozenset({"phase", "orders", "draws", "digest"})


def game_from_json(data: object, variants: VariantLoader = load_variant) -> Game:
    """Rebuild a game by replaying every phase from the variant's start: each phase must
    be the one the replay reaches, and end in the position its digest records; then the
    whole must match its checksum, so that no part was cut or changed (the phases after
    one, the options, an agreed end). The CLI's game files and the server's imports are
    read by this alone."""
    if isinstance(data, Mapping) and data.get("format") in RETIRED_FORMATS:
        raise WireError(
            f"format {data['format']!r}: a file without a checksum, no longer read (nothing "
            "tells it from a file whose checksum was taken away)"
        )
    if not isinstance(data, Mapping) or data.get("format") != GAME_FORMAT:
        raise WireError(f"not a saved game: expected format {GAME_FORMAT!r}")
    missing = sorted(_GAME_KEYS - data.keys())
    if missing:
        raise WireError(f"not a complete saved game: {', '.join(missing)} missing")
    _refuse_unknown(data, _GAME_PARTS, "")
    variant = configured(variants, data["variant"], data.get("options"), data.get("seats"))
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise WireError("seed: expected a whole number")
    game = Game(variant, variant.initial_position(), seed=seed)
    if position_from_json(data["start"], variant) != game.start:
        raise WireError(f"start: not the starting position of {variant.id}")
    phases = data["phases"]
    if not isinstance(phases, list):
        raise WireError("phases: expected a list")
    for number, entry in enumerate(phases, start=1):
        _replay(game, number, entry)
    game.pending = orders_from_json(data.get("pending", {}), variant, game.position)
    _read_agreement(game, data.get("agreed"))
    if data["checksum"] != game_checksum(data):
        raise WireError(
            "checksum: the file is not as Hegemon saved it (edited or cut short: "
            "its checksum does not match its content)"
        )
    return game


def _replay(game: Game, number: int, entry: object) -> None:
    """Play one phase of a saved game again, checking it against what the file says."""
    where = f"phases[{number - 1}]"
    if not isinstance(entry, Mapping) or not {"phase", "orders", "digest"} <= entry.keys():
        raise WireError(f"{where}: expected an object with phase, orders and digest")
    _refuse_unknown(entry, _PHASE_PARTS, f"{where}.")
    if entry["phase"] != game.position.phase.code:
        raise WireError(
            f"{where}: phase {entry['phase']!r}, but the game is at {game.position.phase.code}"
        )
    game.pending = orders_from_json(entry["orders"], game.variant, game.position)
    draws = entry.get("draws", {})
    if not isinstance(draws, Mapping):
        raise WireError(f"{where}.draws: expected an object of draws by name")
    try:
        result = game.adjudicate(draws)
    except (ChanceError, GameOver) as exc:
        raise WireError(f"{where} ({entry['phase']}): {exc}") from None
    if entry["digest"] != position_digest(result.after):
        raise WireError(f"{where} ({entry['phase']}): replay gives a different position")


def _refuse_unknown(data: Mapping[str, object], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        named = ", ".join(repr(f"{where}{key}") for key in unknown)
        raise WireError(f"{named}: not a part of a game file (a save would drop it without a word)")


def _read_agreement(game: Game, agreed: object) -> None:
    """The end the players agreed, if any: ``{"draw": [...]}`` or ``{"concede_to": P}``."""
    if agreed is None:
        return
    if not isinstance(agreed, Mapping) or set(agreed) not in ({"draw"}, {"concede_to"}):
        raise WireError('agreed: expected {"draw": [powers]} or {"concede_to": power}')
    draw = [_power(game.variant, p) for p in _strings(agreed.get("draw", []), "agreed.draw")]
    conceded = agreed.get("concede_to")
    try:
        game.end_by_agreement(draw, None if conceded is None else _power(game.variant, conceded))
    except (GameOver, ValueError) as exc:
        raise WireError(f"agreed: {exc}") from None
