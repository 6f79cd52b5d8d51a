"""The bots' ground rules: a player program is handed its power's sight, never the
position, so that no secret of another power reaches it; and whatever it gives from its
menu is legal, in every kind of phase of every variant."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from hegemon.board import province_of
from hegemon.bots import Bot, Budget, Sight, sight_of
from hegemon.bots.choosing import Pick, complete, random_orders
from hegemon.game import PLAYING, Variant, chances_for, play_phase, settle
from hegemon.game.forms import OrderForm
from hegemon.influence.inf import Standing
from hegemon.orders import Move, Order, Support
from hegemon.position import Position, StateView, VariantState, Viewer
from hegemon.variants import load_variant, load_variant_from
from hegemon.variants.europe_1615.ledger import OTTOMAN, Ledger
from tests.variants.outposts import OutpostsState

OUTPOSTS = Path(__file__).parent / "variants" / "outposts"

# --- secrecy ----------------------------------------------------------------------------

BOT = Budget(playouts=20)


def _europe(patron: str | None = None, **held: int) -> Position:
    """Europe 1615's first position, with the Ottoman Empire aligned with `patron` (the
    rules keep the patron secret) and INFs in Bavaria by power (each power's number
    secret; the shares, public, are the same for numbers in the same proportions)."""
    europe = load_variant("europe_1615")
    start = europe.initial_position()
    ledger = Ledger.of(start)
    status = {**ledger.status}
    if patron is not None:
        status[OTTOMAN] = [Standing.ALIGNED.value, patron]
    inf = {**ledger.inf, "bav": dict(held)} if held else ledger.inf
    return start.evolve(state=replace(ledger, status=status, inf=inf))


def _bot_orders(sight: Sight) -> list[str]:
    return [o.format() for o in Bot(BOT, seed=1).orders(sight)]


def test_a_third_power_cannot_tell_who_the_empires_patron_is() -> None:
    europe = load_variant("europe_1615")
    by_france, by_spain = _europe(patron="France"), _europe(patron="Spain")
    assert by_france != by_spain
    england = sight_of(europe, by_france, "England")
    assert england == sight_of(europe, by_spain, "England")
    assert Ledger.of(england.position).patron(OTTOMAN) is None
    assert "France" not in repr(Ledger.of(england.position).status[OTTOMAN])
    assert _bot_orders(england) == _bot_orders(sight_of(europe, by_spain, "England"))


def test_the_patron_sees_that_it_is_the_patron() -> None:
    europe = load_variant("europe_1615")
    france = sight_of(europe, _europe(patron="France"), "France")
    assert Ledger.of(france.position).patron(OTTOMAN) == "France"
    assert france != sight_of(europe, _europe(patron="Spain"), "France")


def test_a_third_power_cannot_tell_how_many_infs_another_holds() -> None:
    europe = load_variant("europe_1615")
    few, many = _europe(France=3, Spain=3), _europe(France=9, Spain=9)
    assert few != many
    england = sight_of(europe, few, "England")
    assert england == sight_of(europe, many, "England")
    ledger = Ledger.of(england.position)
    # Presumed from the published shares alone (`Ledger.seen`): half each, the same guess
    # whether they hold 3 or 9.
    assert ledger.held("bav", "France") == ledger.held("bav", "Spain") > 0
    assert _bot_orders(england) == _bot_orders(sight_of(europe, many, "England"))
    # The power itself knows its own number, and so tells the two apart: with the even
    # shares published, it works out Spain's too.
    france = sight_of(europe, few, "France")
    assert Ledger.of(france.position).held("bav", "France") == 3
    assert Ledger.of(france.position).held("bav", "Spain") == 3
    assert france != sight_of(europe, many, "France")


def test_a_power_sees_its_own_secret_objective_alone() -> None:
    outposts = load_variant_from(OUTPOSTS)
    start = outposts.initial_position()
    objectives = {"North": "cov", "South": "mid"}
    position = start.evolve(state=replace(OutpostsState.of(start), objectives=objectives))
    north = sight_of(outposts, position, "North")
    assert OutpostsState.of(north.position).objectives == {"North": "cov"}
    assert OutpostsState.of(sight_of(outposts, position, "East").position).objectives == {}


@dataclass(frozen=True)
class _Hidden(StateView):
    """A view of another shape than its state's."""

    secret: str | None


@dataclass(frozen=True)
class _Vault(VariantState):
    """A state whose view hides its secret from all but the game master, and which does
    not say what a power may know of it (no `seen` of its own)."""

    secret: str | None = "the key"

    def view(self, viewer: Viewer) -> _Hidden:
        return _Hidden(self.secret if viewer.master else None)


def test_a_state_that_hides_something_without_saying_what_is_seen_is_refused() -> None:
    classic = load_variant("classic")
    hiding = classic.initial_position().evolve(state=_Vault())
    with pytest.raises(TypeError, match="_Vault has secrets and does not say what is seen"):
        sight_of(classic, hiding, "France")
    # A view of another shape that hides nothing is no secret: the state itself is seen.
    open_vault = classic.initial_position().evolve(state=_Vault(secret=None))
    assert sight_of(classic, open_vault, "France").position.state == _Vault(secret=None)


# --- legality ---------------------------------------------------------------------------

# Each variant as configured for play, with the kinds of phase it plays: African
# Diplomacy II's opening places armies in turn, or by ranked lists in a draft phase.
CONFIGURATIONS: tuple[tuple[str, Mapping[str, str], str], ...] = (
    ("classic", {}, "MRA"),
    ("sub_saharan", {}, "MRA"),
    ("europe_1615", {}, "MRA"),
    ("africa_ii", {}, "MRIA"),
    ("african_diplomacy_ii", {}, "LPMRA"),
    ("african_diplomacy_ii", {"placement": "lists"}, "LDMRA"),
    ("african_riots", {}, "MRA"),
)

# The kinds of order, the variant's own and the standard game's beyond moves and
# supports, that random play from the menus gives within the phases played (the rare
# ones, such as Africa II's declarations of independence, are left to the variants' own
# tests): each form is filled in, not only offered.
GIVEN = {
    "classic": {"Build", "Disband", "Retreat", "Convoy"},
    "sub_saharan": {"Bid", "Build"},
    "europe_1615": {"Deploy", "DiplomaticAttack", "AllianceOffer", "CaptureWaiver", "EmpireOrder"},
    "africa_ii": {"Spend", "Aid", "Raise", "Build"},
    "african_diplomacy_ii": {"Place", "Declare", "Build"},
    "african_riots": {"Build"},
}
MAX_PHASES = 80  # over all the games of a variant, enough to meet every kind of phase


def _configured(name: str, options: Mapping[str, str]) -> Variant:
    variant = load_variant(name)
    return variant.configure(variant.read_options(dict(options)), None) if options else variant


def attacking(rng: random.Random) -> Pick:
    """A pick for one power's units that moves most of them and has the others support
    the moves already picked: random play that dislodges units, so that the retreats
    come within a few years (uniform picks, mostly supports of nothing moving, rarely
    dislodge anything)."""
    moves: list[Move] = []

    def pick(form: OrderForm) -> int:
        orders = [c.order for c in form.choices]
        backing = [i for i, o in enumerate(orders) if _backs(o, moves)]
        if backing:
            return rng.choice(backing)
        onward = [i for i, o in enumerate(orders) if isinstance(o, Move)]
        i = rng.choice(onward) if onward and rng.random() < 0.7 else rng.randrange(len(orders))
        if isinstance(picked := orders[i], Move):
            moves.append(picked)
        return i

    return pick


def _backs(order: Order, moves: list[Move]) -> bool:
    return isinstance(order, Support) and any(
        province_of(m.location) == province_of(order.supported)
        and province_of(m.target) == order.destination
        for m in moves
    )


def test_the_configurations_play_every_kind_of_phase_of_each_calendar() -> None:
    for name in GIVEN:
        played = {code for n, _, codes in CONFIGURATIONS if n == name for code in codes}
        assert played == set(load_variant(name).calendar.kinds), name


@pytest.mark.parametrize(("name", "options", "codes"), CONFIGURATIONS)
def test_players_from_sights_give_legal_orders_in_every_kind_of_phase(
    name: str, options: Mapping[str, str], codes: str
) -> None:
    """Random players from their sights, half of them uniform (the random player) and
    half attacking, play until every kind of phase the configuration plays has come and
    every kind of order expected was given; the judge accepts every set, and each game
    goes on to its end or the bound."""
    variant = _configured(name, options)
    met: Counter[str] = Counter()
    given: Counter[str] = Counter()
    played = 0

    def done() -> bool:
        return set(codes) <= set(met) and GIVEN[name] <= set(given)

    for seed in range(1, 10):
        rng = random.Random(seed)
        position = variant.initial_position()
        while played < MAX_PHASES and not done():
            procedure = variant.calendar.procedure(position.phase)
            met[position.phase.kind.code] += 1
            orders = {}
            for number, power in enumerate(procedure.actors(variant, position)):
                sight = sight_of(variant, position, power)
                if (number + played) % 2:
                    chosen = random_orders(sight, rng)
                else:
                    chosen = complete(sight, sight.menu, attacking(rng), rng)
                assert procedure.check(variant, position, power, chosen) == [], (
                    f"{name} {position.phase}: {power}: {[o.format() for o in chosen]}"
                )
                given.update(type(o).__name__ for o in chosen)
                # As `hegemon bot` prints them, read back: the same orders, but that a unit
                # leaving the board is read as a move off it, which checking makes a Leave.
                written = [variant.parse_order(o.format(), position.all_units) for o in chosen]
                assert [o.format() for o in written] == [o.format() for o in chosen]
                assert procedure.check(variant, position, power, written) == []
                orders[power] = chosen
            draws = settle(chances_for(variant, position), None, rng)
            result = play_phase(variant, position, orders, draws)
            played += 1
            if result.end is not PLAYING:
                break
            position = result.after
    assert set(codes) <= set(met), f"{name}: phases met {dict(met)}"
    assert GIVEN[name] <= set(given), f"{name}: orders given {dict(given)}"
