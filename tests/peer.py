"""Running one Hegemon phase through the peer judge, PyPI ``diplomacy`` 1.1.2 (MILA).

A helper for the differential test and the benchmark, not a test itself. It sets a peer
`Game` to a Hegemon `Position`, gives it Hegemon orders as the peer's order strings, runs
the phase and reads the peer's result back in Hegemon's terms, so the two judges can be
compared position against position.

Orders are sent WITHOUT the peer's ``NO_CHECK`` rule. Without it the peer validates each
order as it is given and names every order it refuses in ``game.error``, at once and one
by one; a refused order is dropped and its unit holds, which is also how Hegemon treats a
void order. So an order legal for us but illegal for the peer is reported by name rather
than surfacing later as an unexplained hold (under ``NO_CHECK`` it would only show up as
a ``void`` result after processing).

"Via convoy" is written only where it changes the meaning, for an army convoyed to a
province it borders; an overseas move is written plainly (``A LON - BEL``), as players
write it. The peer misreads a self-dislodgement support for a move that carries the
``VIA`` flag (see docs/differences.md), and writing the flag where it adds nothing would
only provoke that bug.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from diplomacy import Game

from hegemon.adjudication.retreat import retreat_options
from hegemon.board import STANDARD_KINDS, UnitKind, province_of
from hegemon.game import Variant
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from hegemon.position import PhaseKind, Position, Unit
from hegemon.variants import load_variant

BOARD = load_variant("classic").board

# Hegemon's classic province ids (godip's) and the peer's names (MILA's), all 75 checked
# against diplomacy.engine.map.Map("standard").locs. Only the four seas marked differ.
PROVINCES: Mapping[str, str] = {
    "adr": "ADR", "aeg": "AEG", "alb": "ALB", "ank": "ANK", "apu": "APU", "arm": "ARM",
    "bal": "BAL", "bar": "BAR", "bel": "BEL", "ber": "BER", "bla": "BLA", "boh": "BOH",
    "bot": "BOT", "bre": "BRE", "bud": "BUD", "bul": "BUL", "bur": "BUR", "cly": "CLY",
    "con": "CON", "den": "DEN", "eas": "EAS", "edi": "EDI", "eng": "ENG", "fin": "FIN",
    "gal": "GAL", "gas": "GAS", "gol": "LYO",  # Gulf of Lyon
    "gre": "GRE", "hel": "HEL", "hol": "HOL", "ion": "ION", "iri": "IRI", "kie": "KIE",
    "lon": "LON", "lvn": "LVN", "lvp": "LVP", "mar": "MAR",
    "mid": "MAO",  # Mid-Atlantic Ocean
    "mos": "MOS", "mun": "MUN", "naf": "NAF", "nap": "NAP",
    "nat": "NAO",  # North Atlantic Ocean
    "nrg": "NWG",  # Norwegian Sea
    "nth": "NTH", "nwy": "NWY", "par": "PAR", "pic": "PIC", "pie": "PIE", "por": "POR",
    "pru": "PRU", "rom": "ROM", "ruh": "RUH", "rum": "RUM", "ser": "SER", "sev": "SEV",
    "sil": "SIL", "ska": "SKA", "smy": "SMY", "spa": "SPA", "stp": "STP", "swe": "SWE",
    "syr": "SYR", "tri": "TRI", "tun": "TUN", "tus": "TUS", "tyr": "TYR", "tys": "TYS",
    "ukr": "UKR", "ven": "VEN", "vie": "VIE", "wal": "WAL", "war": "WAR", "wes": "WES",
    "yor": "YOR",
}  # fmt: skip
_FROM_PEER = {peer: ours for ours, peer in PROVINCES.items()}


def to_peer(location: str) -> str:
    """``"spa/nc"`` -> ``"SPA/NC"``, ``"mid"`` -> ``"MAO"``."""
    province, _, coast = location.partition("/")
    return PROVINCES[province] + (f"/{coast.upper()}" if coast else "")


def from_peer(location: str) -> str:
    """``"SPA/NC"`` -> ``"spa/nc"``, ``"MAO"`` -> ``"mid"`` (the peer's case varies)."""
    province, _, coast = location.upper().partition("/")
    return _FROM_PEER[province] + (f"/{coast.lower()}" if coast else "")


def unit_text(unit_type: UnitKind, location: str) -> str:
    return f"{unit_type.letter} {to_peer(location)}"


def order_text(order: Order, position: Position) -> str:
    """The order as the peer writes it; supports and convoys name the other unit's type."""
    if isinstance(order, Waive):
        return "WAIVE"
    if not isinstance(order, Hold | Move | Support | Convoy | Retreat | Disband | Build):
        raise TypeError(f"the peer has no such order: {order!r}")
    head = unit_text(order.unit, order.location)
    match order:
        case Hold():
            return f"{head} H"
        case Move(target=target):
            return f"{head} - {to_peer(target)}" + (" VIA" if writes_via(order) else "")
        case Support(supported=supported, target=None):
            return f"{head} S {_unit_at(position, supported)}"
        case Support(supported=supported, target=str(target)):
            return f"{head} S {_unit_at(position, supported)} - {to_peer(target)}"
        case Convoy(army=army, target=target):
            return f"{head} C A {to_peer(army)} - {to_peer(target)}"
        case Retreat(target=target):
            return f"{head} R {to_peer(target)}"
        case Disband():
            return f"{head} D"
        case Build():
            return f"{head} B"
    raise TypeError(f"not an order: {order!r}")


def writes_via(move: Move) -> bool:
    """Whether the move goes to the peer with ``VIA``: only a convoy to a bordering province."""
    return move.via_convoy and BOARD.adjacent(move.unit, move.location, move.target)


def _unit_at(position: Position, province: str) -> str:
    unit = position.units[province_of(province)]
    return unit_text(unit.type, unit.location)


# --- setting up a position -------------------------------------------------------------------


def setup(position: Position, retreats: Mapping[str, Sequence[str]] | None = None) -> Game:
    """A fresh peer game standing in `position`.

    `retreats` gives each dislodged unit's retreat options (Hegemon locations, by the unit's
    province) in a retreat phase: the peer cannot work them out itself, since it does not
    know where the attacker came from or which provinces were left empty by a standoff.
    """
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(position.phase.code)  # before set_units: '*' units need an R phase
    for power in sorted({u.power for u in position.units.values()} | _dislodged_powers(position)):
        texts = [unit_text(u.type, u.location) for u in position.units_of(power)]
        texts += [
            "*" + unit_text(d.unit.type, d.unit.location)
            for d in position.dislodged.values()
            if d.unit.power == power
        ]
        game.set_units(power.upper(), texts)
    for power in sorted(set(position.centers.values())):
        game.set_centers(power.upper(), [PROVINCES[c] for c in position.centers_of(power)])
    for province, dislodgement in position.dislodged.items():
        unit = dislodgement.unit
        options = (retreats or {}).get(province, ())
        peer_power = game.get_power(unit.power.upper())
        peer_power.retreats[unit_text(unit.type, unit.location)] = [to_peer(o) for o in options]
    return game


def _dislodged_powers(position: Position) -> set[str]:
    return {d.unit.power for d in position.dislodged.values()}


def submit(game: Game, position: Position, orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """Give the peer everyone's orders; return the peer's complaint for each one it refused."""
    for power, given in sorted(orders.items()):
        game.set_orders(power.upper(), [order_text(o, position) for o in given])
    refused = [str(e) for e in game.error]
    game.error = []
    return refused


# --- reading the result back ------------------------------------------------------------------


@dataclass(frozen=True)
class PeerResult:
    """The peer's verdict in Hegemon's terms.

    `dislodged` holds, by province, each dislodged unit the peer lets retreat and its
    options. The peer stores the options before the units that moved are placed and only
    rejects an occupied destination when the retreat is ordered; here occupied provinces
    are already taken out, so the options are those it would accept. `stranded` counts
    dislodged units the peer keeps for a retreat phase although every option it listed is
    occupied: it disbands them only then, where Hegemon destroys them at once.
    """

    units: Mapping[str, Unit]
    dislodged: Mapping[str, tuple[Unit, frozenset[str]]]
    destroyed: frozenset[Unit]
    refused: tuple[str, ...]
    stranded: frozenset[Unit] = frozenset()


def retreats_of(variant: Variant, position: Position) -> dict[str, list[str]] | None:
    """Hegemon's retreat options for a retreat phase (None in other phases): the peer cannot
    work them out for a position it did not adjudicate itself."""
    if position.phase.kind is not PhaseKind.RETREAT:
        return None
    rules = variant.rules_for(position)
    return {
        p: retreat_options(variant.board, position, d, rules) for p, d in position.dislodged.items()
    }


def play(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    retreats: Mapping[str, Sequence[str]] | None = None,
) -> PeerResult:
    """Set up, order and process one phase in the peer; read back what happened."""
    game = setup(position, retreats)
    refused = submit(game, position, orders)
    game.process()
    return read(game, position, tuple(refused))


def read(game: Game, before: Position, refused: tuple[str, ...] = ()) -> PeerResult:
    """The peer's units after the phase; for a movement phase also who must retreat."""
    units: dict[str, Unit] = {}
    for peer_power in game.powers.values():
        power = peer_power.name.title()
        for text in peer_power.units:
            unit = _unit_from_text(power, text)
            units[unit.province] = unit
    if before.phase.kind is not PhaseKind.MOVEMENT:
        return PeerResult(units, {}, frozenset(), refused)
    dislodged: dict[str, tuple[Unit, frozenset[str]]] = {}
    stranded: set[Unit] = set()
    for peer_power in game.powers.values():
        for text, peer_options in peer_power.retreats.items():
            unit = _unit_from_text(peer_power.name.title(), text)
            options = frozenset(
                loc for loc in map(from_peer, peer_options) if province_of(loc) not in units
            )
            if options:
                dislodged[unit.province] = (unit, options)
            else:
                stranded.add(unit)
    destroyed = frozenset(before.units[province_of(from_peer(t[2:]))] for t in game.popped)
    return PeerResult(units, dislodged, destroyed | stranded, refused, frozenset(stranded))


def _unit_from_text(power: str, text: str) -> Unit:
    kind, location = text.lstrip("*").split()
    return Unit(power, STANDARD_KINDS[kind], from_peer(location))
