"""African Diplomacy II: every rule paragraph (A to F) of
../shared/rules/african_diplomacy_ii.txt that the judge applies, on the reconstructed map."""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import hegemon.variants
from hegemon import jsonio
from hegemon.board import Board, province_of
from hegemon.cli import main
from hegemon.game import (
    Game,
    GameEnd,
    PhaseResult,
    Termination,
    chances_for,
    order_problems,
    play_phase,
)
from hegemon.mapfile import board_from_data
from hegemon.orders import Waive
from hegemon.position import MASTER, OBSERVER, Phase, PhaseKind, Position, Season, Unit, read_unit
from hegemon.randomplay import random_game
from hegemon.report import phase_report, position_report
from hegemon.variants import load_variant
from hegemon.variants.african_diplomacy_ii import (
    ORDER_OF_PLAY,
    AfricanDiplomacyII,
    AfricanState,
    Declare,
    Place,
)

MAP = Path(hegemon.variants.__file__).parent / "african_diplomacy_ii" / "map.toml"
FOUR = ["Red", "Blue", "Green", "Yellow"]
DRAWN = ("Blue", "Red", "Yellow", "Green")  # the game master's roll in these tests
SPRING = Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)


@pytest.fixture(scope="module")
def adii() -> AfricanDiplomacyII:
    variant = load_variant("african_diplomacy_ii")
    assert isinstance(variant, AfricanDiplomacyII)
    return variant


@pytest.fixture(scope="module")
def four(adii: AfricanDiplomacyII) -> AfricanDiplomacyII:
    return adii.configure(seats=FOUR)


def _units(board: Board, spec: Mapping[str, Sequence[str]]) -> dict[str, Unit]:
    placed = {}
    for power, texts in spec.items():
        for text in texts:
            unit = read_unit(board, power, text)
            placed[unit.province] = unit
    return placed


def _position(
    variant: AfricanDiplomacyII,
    spec: Mapping[str, Sequence[str]],
    phase: Phase = SPRING,
    centers: Mapping[str, str] | None = None,
    homes: Mapping[str, tuple[str, ...]] | None = None,
) -> Position:
    state = AfricanState(tuple(variant.powers), (), dict(homes or {}))
    return Position.create(phase, _units(variant.board, spec), centers, state=state)


def _play(
    variant: AfricanDiplomacyII, position: Position, spec: Mapping[str, Sequence[str]]
) -> PhaseResult:
    orders = {
        p: [variant.parse_order(t, position.units) for t in given] for p, given in spec.items()
    }
    return play_phase(variant, position, orders)


def _notes(result: PhaseResult) -> dict[str, str]:
    return {o.text: o.note for o in result.outcomes}


def _winter(
    variant: AfricanDiplomacyII,
    spec: Mapping[str, Sequence[str]],
    centers: Mapping[str, str],
    homes: Mapping[str, tuple[str, ...]] | None = None,
) -> Position:
    """The position after a quiet Fall: the Winter as the phase machine enters it (centers
    already changed hands), or the next phase if the Winter has nothing to do."""
    fall = _position(variant, spec, Phase(1901, Season.FALL, PhaseKind.MOVEMENT), centers, homes)
    return play_phase(variant, fall, {}).after


# --- A. Starting positions -----------------------------------------------------------------


def _placed_game(variant: AfricanDiplomacyII, sites: Sequence[str]) -> Game:
    """Lots drawn by the game master's roll, then every placement in turn at `sites`."""
    game = Game.new(variant, seed=1)
    game.adjudicate({ORDER_OF_PLAY: DRAWN})
    for site in sites:
        (actor,) = game.actors()
        game.set_orders(actor, [Place((site,))])
        game.adjudicate()
    return game


# Blue, Red, Yellow, Green place in that order, round after round.
SITES = ["bam", "egy", "kin", "ken", "gui", "cyr", "lua", "tan",
         "sen", "syr", "kat", "rur", "lib", "con", "kas", "uga"]  # fmt: skip


def test_starting_positions_sequence_is_drawn_at_random_rule(four: AfricanDiplomacyII) -> None:
    # Rules A: "there are no 'countries' as yet and no home centers ... Sequence will be
    # determined randomly."
    game = Game.new(four, seed=3)
    assert str(game.position.phase) == "Winter 1900 Lots"
    assert game.position.units == {} and game.position.centers == {}
    (chance,) = chances_for(four, game.position)
    items = chance.items
    assert isinstance(items, tuple)
    assert (chance.name, sorted(items)) == (ORDER_OF_PLAY, sorted(FOUR))
    assert game.actors() == ()  # chance acts, not the players
    drawn = game.adjudicate().draws[ORDER_OF_PLAY]
    assert isinstance(drawn, tuple) and sorted(drawn) == sorted(FOUR)
    assert Game.new(four, seed=3).adjudicate().draws == {ORDER_OF_PLAY: drawn}  # recorded
    assert AfricanState.of(game.position).order == drawn
    assert game.actors() == drawn[:1]


def test_starting_positions_placed_round_by_round_rule(four: AfricanDiplomacyII) -> None:
    # Rules A: "starting with the first army of the player with the lowest assigned number,
    # followed the first army of the player with the next lowest ... The second army of each
    # player will be placed according to rank ... till all four armies of each player is
    # placed on the map. The game will then begin in Spring 1901."
    game = Game.new(four, seed=1)
    game.adjudicate({ORDER_OF_PLAY: DRAWN})
    turns: list[str] = []
    for site in SITES:
        turns.extend(game.actors())
        assert str(game.position.phase) == "Winter 1900 Placement"
        game.set_orders(game.actors()[0], [Place((site,))])
        game.adjudicate()
    assert turns == list(DRAWN) * 4
    assert str(game.position.phase) == "Spring 1901 Movement"
    for number, power in enumerate(DRAWN):
        mine = sorted(p for p, u in game.position.units.items() if u.power == power)
        assert mine == sorted(SITES[number::4])
        assert {u.type.name for u in game.position.units_of(power)} == {"army"}
    assert game.position.centers == {}  # decided: a placement owns nothing until a Fall


def test_starting_positions_a_player_places_only_in_its_turn_rule(
    four: AfricanDiplomacyII,
) -> None:
    # Each army is placed in its player's turn: a placement sent ahead of it (a list,
    # issue 28) waits for that turn, and only the player in turn waives.
    game = _placed_game(four, SITES[:1])
    assert game.actors() == ("Red",)
    assert order_problems(four, game.position, "Blue", [Waive()]) == [
        "Waive: only the player in turn waives (Red now)"
    ]
    assert order_problems(four, game.position, "Red", [Place(("egy",)), Place(("syr",))]) == [
        "one order for the placements: a province, a ranked list or Waive"
    ]
    game.set_orders("Blue", [Place(("gui",))])
    game.set_orders("Red", [Place(("egy",))])
    notes = {o.power: o.note for o in game.adjudicate().outcomes}
    assert notes == {"Blue": "Lapsed: the turns stopped at Yellow's", "Red": "Placed"}
    assert game.actors() == ("Yellow",) and "gui" not in game.position.units


@pytest.mark.parametrize(
    ("site", "problem"),
    [
        ("bam", "Bamako is occupied"),
        ("lch", "Lake Chad is water: armies are placed on land"),
        ("ggu", "Gulf of Guinea is water: armies are placed on land"),
        ("sth", "an army comes to St Helena only by a build or a convoy"),
    ],
)
def test_starting_positions_where_an_army_may_not_be_placed_decision(
    four: AfricanDiplomacyII, site: str, problem: str
) -> None:
    # Decided: armies are placed on empty land; St Helena takes an army "only through a
    # build or a convoy" (rules F).
    game = _placed_game(four, SITES[:1])
    assert order_problems(four, game.position, "Red", [Place((site,))]) == [
        f"{Place((site,)).format()}: {problem}"
    ]


def test_starting_positions_orders_are_written_as_placements(adii: AfricanDiplomacyII) -> None:
    assert adii.parse_order("Place A Bamako") == Place(("bam",))
    assert adii.parse_order("place army 64") == Place(("bam",))  # numbers are aliases
    assert adii.parse_order("Place A Rio de Oro, A N'Djamena, R-U") == Place(("rdo", "ndj", "rur"))
    assert Place(("bam", "gui")).format() == "Place A Bam, Gui"
    for text, reason in [
        ("Place F Lagos", "only armies are placed (rules A)"),
        ("Place A Atlantis", "'Atlantis' is not a province on this map"),
        ("Place", "name the province to place the army in"),
    ]:
        with pytest.raises(ValueError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            adii.parse_order(text)


def test_starting_positions_a_turn_without_a_placement_is_waived_decision(
    four: AfricanDiplomacyII,
) -> None:
    game = _placed_game(four, SITES[:1])
    result = game.adjudicate()  # Red sends nothing
    assert [(o.power, o.note) for o in result.outcomes] == [("Red", "No placement: waived")]
    assert game.actors() == ("Yellow",)
    assert sum(u.power == "Red" for u in game.position.units.values()) == 0


LISTS = {
    "Blue": ["Place A Bam, Gui, Sen, Lib, Ivo"],
    "Red": ["Place A Bam, Egy, Cyr"],  # Bamako goes to Blue, who picks first
    "Yellow": ["Place A Kin, Lua, Kat, Kas, Bra"],
    "Green": ["Place A Gui, Ken, Tan, Rur"],  # Green's first pick comes before Blue's second
}


def placing(
    variant: AfricanDiplomacyII, game: Game, lists: Mapping[str, Sequence[str]]
) -> dict[str, str]:
    """Each player's orders, accepted as they are sent, then adjudicated: what each
    player's placements came to."""
    for power, given in lists.items():
        orders = [variant.parse_order(t) for t in given]
        assert order_problems(variant, game.position, power, orders) == []
        game.set_orders(power, orders)
    return {o.power: o.note for o in game.adjudicate().outcomes}


def _drafting(variant: AfricanDiplomacyII) -> tuple[AfricanDiplomacyII, Game]:
    """The variant placing by ranked lists, and a game of it at its draft (lots drawn)."""
    lists = variant.configure(options={"placement": "lists"})
    game = Game.new(lists, seed=1)
    game.adjudicate({ORDER_OF_PLAY: DRAWN})
    return lists, game


def test_starting_positions_by_ranked_lists_in_draft_order_rule(
    four: AfricanDiplomacyII,
) -> None:
    # Rules A's order of placement, by lists sent at once (for mail and forum play): each
    # placement in draft order takes the first province still open on its player's list.
    lists, game = _drafting(four)
    assert str(game.position.phase) == "Winter 1900 Draft"
    assert game.actors() == DRAWN
    assert placing(lists, game, LISTS) == {
        "Blue": "Placed A Bam, A Sen, A Lib, A Ivo",
        "Red": "Placed A Egy, A Cyr; 2 armies left to place in turn",
        "Yellow": "Placed A Kin, A Lua, A Kat, A Kas",
        "Green": "Placed A Gui, A Ken, A Tan, A Rur",
    }
    # Red's list ran out: its last two armies are placed in turn, in the same order.
    assert str(game.position.phase) == "Winter 1900 Placement"
    assert game.actors() == ("Red",)
    for site in ("syr", "con"):
        game.set_orders("Red", [Place((site,))])
        game.adjudicate()
    assert str(game.position.phase) == "Spring 1901 Movement"
    assert len(game.position.units) == 16


def test_starting_positions_a_list_is_checked_when_it_is_sent(four: AfricanDiplomacyII) -> None:
    lists, game = _drafting(four)
    assert order_problems(lists, game.position, "Red", [Place(("bam", "lch", "bam"))]) == [
        "Place A Bam, Lch, Bam: a province is named twice"
    ]
    assert order_problems(lists, game.position, "Red", [Place(("bam", "lch"))]) == [
        "Place A Bam, Lch: Lake Chad is water: armies are placed on land"
    ]


def test_starting_positions_a_new_list_replaces_the_last_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "game.json")
    seats = ",".join(FOUR)
    _cli(
        capsys, "new", "african_diplomacy_ii", game, "--seats", seats, "--option", "placement=lists"
    )
    _cli(capsys, "adjudicate", game, "--draw", f"order of play={','.join(DRAWN)}")
    _cli(capsys, "orders", game, "Red", "Place A Bam, Gui, Sen")
    out = _cli(capsys, "orders", game, "Red", "Place A Egy, Cyr")
    assert out.startswith("Red: 1 order(s) stored for Winter 1900 Draft, 1 in all")
    status = _cli(capsys, "status", game, "--as", "Red")
    assert "Red: 1 order(s)\n   Place A Egy, Cyr" in status


def test_the_placement_option_takes_turns_or_lists(adii: AfricanDiplomacyII) -> None:
    with pytest.raises(ValueError, match="option placement: expected one of turns, lists"):
        adii.configure(options={"placement": "draft"})
    with pytest.raises(ValueError, match="seats 3 to 8 players, not 2"):
        adii.configure(seats=["Red", "Blue"])


def _menu(variant: AfricanDiplomacyII, position: Position, power: str) -> dict[str, list[str]]:
    menu = variant.calendar.procedure(position.phase).menu(variant, position, power)
    return {form.title: [c.text for c in form.choices] for form in menu}


def _unordered(
    variant: AfricanDiplomacyII, position: Position, power: str, given: Sequence[str]
) -> list[str]:
    orders = [variant.parse_order(t, position.units) for t in given]
    return variant.calendar.procedure(position.phase).unordered(variant, position, power, orders)


AHEAD = "Ranked list for its turns"


def test_starting_positions_the_player_in_turn_is_offered_every_open_province(
    four: AfricanDiplomacyII,
) -> None:
    game = _placed_game(four, SITES[:4])  # Blue's second army is next
    position = game.position
    menu = _menu(four, position, "Blue")
    places = menu["Army 2 of 4"]
    assert list(menu) == ["Army 2 of 4", AHEAD] and places[-1] == "Waive"
    sites = {p.removeprefix("Place A ").lower() for p in places[:-1]}
    assert sites == {
        p for p in four.board.army_edges if p not in position.units
    }  # every empty land space: no sea, no lake, not St Helena, not Bamako (taken)
    for order in places:
        assert order_problems(four, position, "Blue", [four.parse_order(order)]) == []
    assert list(_menu(four, position, "Red")) == [AHEAD]  # not Red's turn: a list ahead
    assert _unordered(four, position, "Blue", []) == ["Army 2 of 4"]
    assert _unordered(four, position, "Blue", ["Place A Sen"]) == []


def test_starting_positions_a_draft_offers_every_open_province_to_rank(
    four: AfricanDiplomacyII,
) -> None:
    lists, game = _drafting(four)
    (ranked,) = _menu(lists, game.position, "Red").values()
    assert len(ranked) == len(lists.board.army_edges) and "Place A Bam" in ranked
    (draft,) = lists.calendar.procedure(game.position.phase).menu(lists, game.position, "Red")
    bam, gui = (
        draft.choices.index(next(c for c in draft.choices if c.clicks == (p,)))
        for p in ("bam", "gui")
    )
    assert draft.ranking and draft.fill([gui, bam], {}).format() == "Place A Gui, Bam"
    assert _unordered(lists, game.position, "Red", []) == ["a ranked list"]
    assert _unordered(lists, game.position, "Red", ["Place A Bam, Gui"]) == []


# --- B. Home centers -----------------------------------------------------------------------


def test_home_centers_declared_in_winter_and_built_on_rule(four: AfricanDiplomacyII) -> None:
    # Rules B: "each player may declare up to four home centers. Home centers will be
    # declared and built upon (if unoccupied) in Winter".
    centers = {"bam": "Blue", "gui": "Blue", "sen": "Blue", "lib": "Blue"}
    winter = _winter(four, {"Blue": ["A bam", "A gui"]}, centers)
    result = _play(four, winter, {"Blue": ["Declare Bam", "Declare Sen", "Build A Sen"]})
    assert _notes(result) == {
        "Declare Bam": "Declared a home center",
        "Declare Sen": "Declared a home center",
        "Build A Sen": "Built",
    }
    assert four.home_centers(result.after)["Blue"] == {"bam", "sen"}
    assert result.after.units["sen"].power == "Blue"


def test_home_centers_builds_only_on_declared_homes_rule(four: AfricanDiplomacyII) -> None:
    centers = {"bam": "Blue", "gui": "Blue", "sen": "Blue"}
    winter = _winter(four, {"Blue": ["A bam"]}, centers, {"Blue": ("bam",)})
    result = _play(four, winter, {"Blue": ["Build A Sen"]})
    assert _notes(result) == {
        "Build A Sen": "Void: Senegal is not a supply center where Blue may build"
    }


def test_home_centers_up_to_four_rule(four: AfricanDiplomacyII) -> None:
    centers = dict.fromkeys(["bam", "gui", "sen", "lib", "ivo"], "Blue")
    winter = _winter(four, {"Blue": ["A bam"]}, centers, {"Blue": ("bam", "gui", "sen")})
    result = _play(four, winter, {"Blue": ["Declare Lib", "Declare Ivo"]})
    assert _notes(result) == {
        "Declare Lib": "Declared a home center",
        "Declare Ivo": "Void: Blue has declared its 4 home centers already",
    }


def test_home_centers_may_not_be_changed_rule(four: AfricanDiplomacyII) -> None:
    # Rules B: "once established, they may NOT be changed": a home stays its declarer's even
    # when another power takes it, and nobody may declare it again.
    centers = {"bam": "Red", "gui": "Blue"}
    winter = _winter(four, {"Red": ["A bam"]}, centers, {"Blue": ("bam",)})
    assert four.home_centers(winter)["Blue"] == {"bam"}
    result = _play(four, winter, {"Red": ["Declare Bam"], "Blue": ["Declare Bam"]})
    assert [o.note for o in result.outcomes] == [
        "Void: Bamako is already a home center of Blue, for good",
        "Void: Bamako is already a home center of Blue, for good",
    ]
    assert AfricanState.of(result.after).homes == {"Blue": ("bam",)}


def test_home_centers_declared_only_among_owned_centers_decision(
    four: AfricanDiplomacyII,
) -> None:
    winter = _winter(four, {"Blue": ["A bam"]}, {"bam": "Blue", "gui": "Red"})
    assert order_problems(four, winter, "Blue", [Declare("gui")]) == [
        "Declare Gui: Blue does not own Guinea"
    ]
    with pytest.raises(ValueError, match="'Upper Volta' is not a supply center"):
        four.parse_order("Declare Upper Volta")


def test_home_centers_the_winter_is_played_to_declare_alone_decision(
    four: AfricanDiplomacyII,
) -> None:
    # Blue has as many units as centers, so nothing is built or disbanded; the Winter is
    # still played, since Blue may declare. Once its only center is its home, it is not.
    winter = _winter(four, {"Blue": ["A bam"]}, {"bam": "Blue"})
    assert str(winter.phase) == "Winter 1901 Adjustment"
    assert four.calendar.procedure(winter.phase).actors(four, winter) == ("Blue",)
    settled = _winter(four, {"Blue": ["A bam"]}, {"bam": "Blue"}, {"Blue": ("bam",)})
    assert str(settled.phase) == "Spring 1902 Movement"


def test_home_centers_a_winter_menu_offers_declarations_and_the_disbands_due(
    four: AfricanDiplomacyII,
) -> None:
    centers = {"bam": "Blue", "gui": "Blue", "sen": "Blue"}
    winter = _winter(four, {"Blue": ["A bam", "A gui", "A sen", "A fsu"]}, centers)
    assert _menu(four, winter, "Blue") == {
        "Home centers": ["Declare Bam", "Declare Gui", "Declare Sen"],
        "A Bam": ["A Bam D"],
        "A Fsu": ["A Fsu D"],
        "A Gui": ["A Gui D"],
        "A Sen": ["A Sen D"],
    }
    # A lone declaration still leaves the disband owed.
    assert _unordered(four, winter, "Blue", ["Declare Bam"]) == ["1 disband"]
    assert _unordered(four, winter, "Blue", ["Declare Bam", "A fsu D"]) == []


def test_home_centers_a_build_on_a_center_still_to_declare_is_offered_decision(
    four: AfricanDiplomacyII,
) -> None:
    # A declaration takes effect at once (rules B: "declared and built upon"), so the menu
    # offers builds on every center the player may still declare; such a build is
    # accepted when sent, since the declaration may come in another go, and until it
    # comes the status says it is missing.
    centers = {"bam": "Blue", "gui": "Blue", "sen": "Blue"}
    winter = _winter(four, {"Blue": ["A bam"]}, centers)
    menu = _menu(four, winter, "Blue")
    assert menu["Home centers"] == ["Declare Bam", "Declare Gui", "Declare Sen"]
    assert menu["Builds"] == [
        "Build A Gui",
        "Build F Gui/ec",  # on the Niger
        "Build F Gui/wc",
        "Build A Sen",
        "Build F Sen",
        "Waive",
    ]
    for build in menu["Builds"]:
        assert order_problems(four, winter, "Blue", [four.parse_order(build)]) == []
    assert _unordered(four, winter, "Blue", ["Build A Sen"]) == [
        "Declare Sen (Build A Sen is void without it)"
    ]
    assert _unordered(four, winter, "Blue", ["Build A Sen", "Declare Sen"]) == []
    assert _unordered(four, winter, "Blue", ["Declare Gui", "Declare Sen"]) == ["2 builds"]
    assert _notes(_play(four, winter, {"Blue": ["Build A Sen"]})) == {
        "Build A Sen": "Void: Senegal is not a supply center where Blue may build"
    }


def test_home_centers_a_declaration_builds_nothing_by_itself_decision(
    four: AfricanDiplomacyII,
) -> None:
    # Rules B's "declared and built upon (if unoccupied)" read as: the player may build on
    # a home as it declares it; a declaration alone builds nothing.
    winter = _winter(four, {"Blue": ["A bam"]}, {"bam": "Blue", "sen": "Blue"})
    result = _play(four, winter, {"Blue": ["Declare Sen"]})
    assert _notes(result) == {"Declare Sen": "Declared a home center"}
    assert "sen" not in result.after.units


def test_home_centers_fleets_are_built_on_river_and_lake_shore_centers_decision(
    four: AfricanDiplomacyII,
) -> None:
    # The rivers are "considered a coast" and the lakes "may be occupied just like any sea"
    # (rules C, D, F): a fleet is built on a lake shore (Jos, on Lake Chad) or a river
    # (Jonglei, on the Nile) as on any coast; never inland.
    centers = dict.fromkeys(["jos", "jon", "dar", "bam"], "Blue")
    homes = {"Blue": ("jos", "jon", "dar")}
    winter = _winter(four, {"Blue": ["A bam"]}, centers, homes)
    result = _play(four, winter, {"Blue": ["Build F Jos", "Build F Jon", "Build F Dar"]})
    assert _notes(result) == {
        "Build F Jos": "Built",
        "Build F Jon": "Built",
        "Build F Dar": "Void: a fleet cannot be built in Darfur",
    }
    assert four.board.neighbours(result.after.units["jon"].type, "jon") == {"kha/wc", "uga"}


def test_home_centers_civil_disorder_without_homes_decision(four: AfricanDiplomacyII) -> None:
    # Decided: a power that has declared no home center has its units farthest from the
    # centers it owns disbanded first; measured to its (missing) homes, every unit would be
    # as far as any other, and French Sudan would go first by its name.
    winter = _winter(four, {"Blue": ["A fsu", "A sld"]}, {"gui": "Blue"})
    result = play_phase(four, winter, {})
    assert [(o.text, o.note) for o in result.outcomes] == [("A Sld D", "Civil disorder: disbanded")]
    assert "fsu" in result.after.units


# --- C. Rivers -------------------------------------------------------------------------------

RIVERS = {  # rules C: where each river is entered, and the provinces it traverses
    "congo": ("kin", {"kin", "bra", "lis", "kis", "kat", "nrh"}),
    "niger": ("lag", {"lag", "nia", "fsu", "bam", "gui"}),
    "nile": ("egy", {"egy", "elo", "kha", "jon", "uga", "kis"}),
    "senegal": ("sen", {"sen", "gui", "bam"}),
}


def _along(board: Board, river: str, start: str) -> set[str]:
    """The provinces a fleet reaches from `start` sailing this river's coasts alone."""
    banks = {loc for loc in board.fleet_edges if river in board.tags_of(loc)}
    reached = {loc for loc in board.locations(start) if loc in banks}
    frontier = list(reached)
    while frontier:
        for target in board.fleet_edges[frontier.pop()] & banks - reached:
            reached.add(target)
            frontier.append(target)
    return {province_of(loc) for loc in reached}


@pytest.mark.parametrize("river", sorted(RIVERS))
def test_rivers_traverse_the_provinces_the_text_names_rule(
    adii: AfricanDiplomacyII, river: str
) -> None:
    # Rules C: "The Congo: entered at Kinshasa, traverses Brazzaville, Lisala, Kisangani,
    # Katanga, and North Rhodesia", and likewise the Niger, the Nile and the Senegal.
    entry, provinces = RIVERS[river]
    board = adii.board
    assert _along(board, river, entry) == provinces
    banks = {loc for loc in board.fleet_edges if river in board.tags_of(loc)}
    assert {province_of(loc) for loc in banks} == provinces
    at_sea = {province_of(loc) for loc in banks if board.convoy_shores and _by_sea(board, loc)}
    assert entry in at_sea  # entered from the sea


def _by_sea(board: Board, location: str) -> bool:
    return any(board.provinces[province_of(t)].is_sea for t in board.fleet_edges[location])


def test_rivers_the_senegal_is_entered_at_senegal_or_guinea_rule(
    adii: AfricanDiplomacyII,
) -> None:
    # "The Senegal: entered at either Senegal or Guinea, and terminating at Bamako."
    assert _along(adii.board, "senegal", "gui") == {"sen", "gui", "bam"}
    # Straight up from either entry (issue 28, point 9: both listings kept).
    assert {loc for loc in adii.board.fleet_edges["bam/nc"]} == {"gui/wc", "sen"}


ENTRIES = {"congo": {"kin"}, "niger": {"lag"}, "nile": {"egy"}, "senegal": {"sen", "gui"}}


@pytest.mark.parametrize("river", sorted(ENTRIES))
def test_rivers_are_entered_from_the_sea_only_where_the_text_says_rule(
    adii: AfricanDiplomacyII, river: str
) -> None:
    # Rules C: each river is "entered at" a province (the Senegal at either of two): a
    # fleet from the open sea (any sea but the lakes, where rules D ends the Congo and the
    # Nile) reaches none of its banks without passing through its entry.
    board = adii.board
    entries = ENTRIES[river]
    open_sea = [
        p
        for p, province in board.provinces.items()
        if province.is_sea and "lake" not in province.tags
    ]
    reached = set(open_sea)
    frontier = list(open_sea)
    while frontier:
        for target in board.fleet_edges.get(frontier.pop(), frozenset()) - reached:
            reached.add(target)
            if province_of(target) not in entries:
                frontier.append(target)
    banks = {loc for loc in board.fleet_edges if river in board.tags_of(loc)}
    assert {province_of(loc) for loc in reached & banks} == entries


def test_rivers_a_fleet_sails_up_the_niger_rule(four: AfricanDiplomacyII) -> None:
    position = _position(four, {"Blue": ["F lag"]})
    for target in ("nia/wc", "fsu", "bam/sc", "gui/ec"):
        result = _play(
            four, position, {"Blue": [f"F {position.units_of('Blue')[0].location} - {target}"]}
        )
        assert [o.note for o in result.outcomes] == ["Succeeds"]
        position = result.after.evolve(phase=position.phase)
    assert position.units["gui"].location == "gui/ec"
    # The Niger's coast of Guinea leads back up the river only: not to the sea.
    result = _play(four, position, {"Blue": ["F gui/ec - cvd"]})
    assert (
        _notes(result)["F Gui/ec - Cvd"]
        == "Void: a fleet in Guinea (ec) cannot reach Cape Verde; holds"
    )


# --- D. Lakes --------------------------------------------------------------------------------

LAKES = {  # rules D: each lake and the provinces bordering it
    "lch": {"cam", "jos", "ndj", "ngu"},
    "lma": {"kov", "nya", "tan"},
    "lta": {"kat", "kis", "nrh", "rur", "tan"},
    "lvi": {"ken", "rur", "tan", "uga"},
}


@pytest.mark.parametrize("lake", sorted(LAKES))
def test_lakes_bordered_by_the_listed_provinces_rule(adii: AfricanDiplomacyII, lake: str) -> None:
    # Rules D: "These lakes may be occupied just like any sea"; i. to iv. list their shores.
    board = adii.board
    assert board.provinces[lake].is_sea
    assert {province_of(loc) for loc in board.fleet_edges[lake]} == LAKES[lake]
    assert lake in board.convoy_places


def test_lakes_are_sailed_and_convoy_like_any_sea_rule(four: AfricanDiplomacyII) -> None:
    position = _position(four, {"Blue": ["A kat", "F lta"], "Red": ["F lch", "A jos"]})
    result = _play(
        four,
        position,
        {
            "Blue": ["A kat - tan", "F lta C A kat - tan"],
            "Red": ["F lch - ndj", "A jos - lch"],
        },
    )
    notes = _notes(result)
    assert notes["A Kat - Tan"] == "Succeeds"  # Katanga and Tanganyika share no border
    assert notes["F Lch - Ndj"] == "Succeeds"
    assert notes["A Jos - Lch"] == "Void: armies cannot enter sea provinces; holds"


# --- E. Convoys on rivers: the example -------------------------------------------------------

EXAMPLE_ORDERS = {
    "Red": ["A Rio de Oro - Upper Volta"],
    "Blue": ["F Senegal convoys A Rio de Oro - Upper Volta"],
}


@pytest.mark.parametrize("bamako", ["bam/nc", "bam/sc"])
def test_convoys_on_rivers_example_fails_rule(four: AfricanDiplomacyII, bamako: str) -> None:
    # Rules E: "A Rio de Oro - Upper Volta; F Senegal convoys A Rio de Oro - Upper Volta;
    # F Bamako convoys A Rio de Oro - Upper Volta. These moves fail" (on either coast).
    position = _position(four, {"Red": ["A rdo"], "Blue": ["F sen", f"F {bamako}"]})
    orders = {**EXAMPLE_ORDERS, "Blue": [*EXAMPLE_ORDERS["Blue"], "F Bamako C A rdo - upv"]}
    result = _play(four, position, orders)
    assert "rdo" in result.after.units and "upv" not in result.after.units
    assert _notes(result)["A Rdo - Upv"] == (
        "Void: Rio de Oro does not border Upper Volta, and no convoy route joins them; holds"
    )


def test_convoys_on_rivers_the_two_reasons_rule(four: AfricanDiplomacyII) -> None:
    # "Firstly, F Senegal cannot move to Bamako ... Secondly, F Bamako cannot move to Upper
    # Volta": the example's F Bamako stands on the Niger (sc), which a fleet in Senegal does
    # not reach; no coast of Bamako reaches Upper Volta.
    position = _position(four, {"Blue": ["F sen", "F bam/sc"]})
    board = four.board
    assert not board.adjacent(board.kinds["F"], "sen", "bam/sc")
    for coast in ("bam/nc", "bam/sc"):
        assert not board.reaches_province(board.kinds["F"], coast, "upv")
    notes = _notes(_play(four, position, {"Blue": ["F sen - bam/sc", "F bam/sc - upv"]}))
    assert notes["F Sen - Bam/sc"] == "Void: a fleet in Senegal cannot reach Bamako (sc); holds"
    assert (
        notes["F Bam/sc - Upv"]
        == "Void: fleets cannot enter inland provinces such as Upper Volta; holds"
    )


def test_convoys_on_rivers_senegal_and_bamako_share_the_senegal_river_decision(
    four: AfricanDiplomacyII,
) -> None:
    """F, E (issue 28, point 9): Senegal's entry lists Bamako[wc] and Bamako's Senegal
    coast lists Senegal; rule E's "F Senegal cannot move to Bamako" is read of the
    example's fleet, on the Niger coast. Both listings stand, and so does the example."""
    position = _position(four, {"Blue": ["F sen"], "Red": ["F bam/nc"]})
    notes = _notes(_play(four, position, {"Blue": ["F sen - bam/nc"], "Red": ["F bam/nc - sen"]}))
    assert notes == {"F Sen - Bam/nc": "Bounced 1v1", "F Bam/nc - Sen": "Bounced 1v1"}
    result = _play(four, _position(four, {"Blue": ["F sen"]}), {"Blue": ["F sen - bam"]})
    assert result.after.units["bam"].location == "bam/nc"  # the one coast Senegal reaches


def _counterfactual(senegal_to_bamako: bool, bamako_to_upper_volta: bool) -> AfricanDiplomacyII:
    """The variant on its own map data, with either reason of rule E taken away."""
    data = tomllib.loads(MAP.read_text(encoding="utf-8"))
    provinces = data["provinces"]
    if senegal_to_bamako:
        provinces["sen"]["fleet"].append("bam/sc")
        provinces["bam"]["coasts"]["sc"]["fleet"].append("sen")
    if bamako_to_upper_volta:
        provinces["upv"] |= {"kind": "coast", "tags": ["river"], "fleet": ["bam/sc"]}
        provinces["bam"]["coasts"]["sc"]["fleet"].append("upv")
    variant = load_variant("african_diplomacy_ii").configure(seats=FOUR)
    return AfricanDiplomacyII.from_setup(
        variant.id, board_from_data(data), _setup(), "counterfactual"
    ).configure(seats=FOUR)


def _setup() -> dict[str, Any]:
    folder = MAP.parent
    return tomllib.loads((folder / "setup.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("senegal_to_bamako", "bamako_to_upper_volta", "succeeds"),
    [(False, False, False), (True, False, False), (False, True, False), (True, True, True)],
    ids=["as-in-the-rules", "only-the-second-reason", "only-the-first-reason", "neither"],
)
def test_convoys_on_rivers_each_reason_alone_is_enough_rule(
    senegal_to_bamako: bool, bamako_to_upper_volta: bool, succeeds: bool
) -> None:
    variant = _counterfactual(senegal_to_bamako, bamako_to_upper_volta)
    position = _position(variant, {"Red": ["A rdo"], "Blue": ["F sen", "F bam/sc"]})
    orders = {**EXAMPLE_ORDERS, "Blue": [*EXAMPLE_ORDERS["Blue"], "F Bam/sc C A rdo - upv"]}
    result = _play(variant, position, orders)
    assert ("upv" in result.after.units) is succeeds


def test_convoys_on_rivers_a_fleet_on_the_niger_convoys_rule(four: AfricanDiplomacyII) -> None:
    # Each leg is a move the fleet could make: Lagos to Niamey (wc), Niamey (wc) to French
    # Sudan.
    position = _position(four, {"Red": ["A lag", "F nia/wc"]})
    result = _play(four, position, {"Red": ["A lag - fsu", "F nia C A lag - fsu"]})
    assert _notes(result)["A Lag - Fsu"] == "Succeeds"


# --- F. Unusual spaces -----------------------------------------------------------------------

# Rules F as written: each coast's moves in the text's own words ("?" where the text names a
# province of split coasts without its coast).
RULE_F = {
    "bam/sc": "fsu gui/ec", "bam/nc": "gui/wc sen",
    "bra/ec": "kin lis", "bra/wc": "cam/sc gcn ggu kin",
    "cam/nc": "jos lch ndj", "cam/sc": "bra/wc ggu lag",
    "elo": "egy/wc kha/wc",
    "egy/ec": "cyr eme kha/ec red syr", "egy/wc": "cyr eme elo kha/wc syr",
    "fsu": "bam? nia/nc",
    "gui/ec": "bam/ec", "gui/wc": "bam/wc cvd ggu lib sen",
    "jon": "kha/wc uga",
    "jos": "cam/nc lch ngu",
    "kat": "kis/sc kis/wc lta nrh",
    "kha/wc": "egy/wc elo jon", "kha/ec": "egy/ec eri red",
    "kin": "bra/ec bra/wc gcn lis lua",
    "kis/wc": "kat lis", "kis/ec": "uga", "kis/sc": "kat lta rur/wc",
    "kov": "lta nya tan/sc",
    "lag": "cam/sc ggu nia/sc nia/nc",
    "lch": "cam/nc jos ndj ngu", "lma": "kov nya tan/sc",
    "lta": "kat kis/sc nrh rur/wc tan/wc", "lvi": "ken/wc rur/ec tan/nc uga",
    "lis": "bra/ec kin kis/wc",
    "ndj": "cam/nc lch ngu", "ngu": "jos lch ndj",
    "nia/wc": "fsu lag", "nia/sc": "gld ggu lag",
    "nrh": "kat lta nya",
    "nya": "kov lta tan/sc",
    "rur/wc": "kis/sc lta tan/wc", "rur/ec": "lvi tan/nc uga",
    "sen": "bam/wc cvd gui? rdo",
    "tan/nc": "ken/wc lvi rur/ec", "tan/sc": "kov lma nya",
    "tan/ec": "eaf ken/ec nam", "tan/wc": "lta nrh rur/wc",
    "uga": "jon ken/wc kis? lvi rur/ec",
}  # fmt: skip
# The decisions where the text contradicts itself (docs/variants/african_diplomacy_ii.md).
# Each space's coasts go by its own entry's names; a coast left unnamed is the one meant.
NAMES = {"nia/nc": "nia/wc", "bam/ec": "bam/sc", "bam/wc": "bam/nc",
         "bam?": "bam/sc", "gui?": "gui/wc", "kis?": "kis/ec"}  # fmt: skip
# Kovuma and Nyasaland lie on Lake Malawi (as that lake's entry says), North Rhodesia on Lake
# Tanganyika, with Tanganyika (wc) beside it.
LEFT_OUT = {("kov", "lta"), ("nya", "lta"), ("nrh", "nya")}
ADDED = {("kov", "lma"), ("nya", "lma"), ("nrh", "tan/wc")}


def _as_decided(space: str) -> set[str]:
    listed = {NAMES.get(t, t) for t in RULE_F[space].split()}
    return {t for t in listed if (space, t) not in LEFT_OUT} | {t for s, t in ADDED if s == space}


@pytest.mark.parametrize("space", sorted(RULE_F))
def test_unusual_spaces_move_as_the_text_lists_rule(adii: AfricanDiplomacyII, space: str) -> None:
    # Rules F: "restrictions on movement associated with these spaces", coast by coast.
    assert adii.board.fleet_edges[space] == _as_decided(space)


def test_unusual_spaces_every_departure_from_the_text_is_a_recorded_decision() -> None:
    changed = {(s, NAMES.get(t, t)) for s, ts in RULE_F.items() for t in ts.split()}
    assert changed | {(t, s) for s, t in changed} >= LEFT_OUT
    assert not ADDED & changed


def test_unusual_spaces_the_other_coast_names_are_read_as_decided_rule(
    adii: AfricanDiplomacyII,
) -> None:
    # The names a neighbour's entry gives a coast (Niamey[nc], Bamako[ec], Bamako[wc]) are
    # read as the coast taken, and as no other.
    assert adii.board.coast_aliases == {k: v for k, v in NAMES.items() if "/" in k}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F Lagos - Niamey[nc]", "F Lag - Nia/wc"),  # French Sudan's and Lagos's entries
        ("F Guinea[ec] - Bamako[ec]", "F Gui/ec - Bam/sc"),  # Guinea's entry
        ("F Guinea[wc] - Bamako[wc]", "F Gui/wc - Bam/nc"),
        ("F Egy[ec] - Red", "F Egy/ec - Red"),
        ("A Rio de Oro \u2013 Upper Volta", "A Rdo - Upv"),  # rule E's example, as printed
        ("F Senegal convoys A Rio de Oro \u2013 Upper Volta", "F Sen C A Rdo - Upv"),
        ("A N\u2019Djamena - Nguigmi", "A Ndj - Ngu"),
        ("Place A N\u2019Djamena", "Place A Ndj"),
    ],
)
def test_unusual_spaces_the_texts_own_notation_is_read_rule(
    adii: AfricanDiplomacyII, text: str, expected: str
) -> None:
    assert adii.parse_order(text).format() == expected


COASTS = {"bul": {"ec", "sc"}, "spa": {"nc", "sc"}, "irn": {"nc", "sc"}, "sev": {"wc", "ec"},
          "bam": {"nc", "sc"}, "bra": {"ec", "wc"}, "cam": {"nc", "sc"}, "egy": {"ec", "wc"},
          "gui": {"ec", "wc"}, "kha": {"ec", "wc"}, "kis": {"wc", "ec", "sc"},
          "nia": {"wc", "sc"}, "rur": {"wc", "ec"}, "tan": {"nc", "sc", "ec", "wc"}}  # fmt: skip


def test_unusual_spaces_have_the_coasts_the_text_gives_rule(adii: AfricanDiplomacyII) -> None:
    assert {p: set(adii.board.provinces[p].coasts) for p in COASTS} == COASTS


NUMBERS = {14: "bul", 20: "spa", 30: "con", 31: "eme", 34: "syr", 36: "sev", 40: "irn",
           45: "red", 46: "kha", 47: "egy", 48: "cyr", 53: "ngu", 56: "nia", 57: "fsu",
           59: "rdo", 62: "sen", 63: "cvd", 64: "bam", 65: "gui", 67: "lib", 69: "gld",
           70: "lag", 72: "ggu", 73: "jos", 74: "cam", 75: "bra", 76: "kin", 78: "lis",
           80: "ndj", 81: "elo", 82: "kis", 83: "rur", 84: "uga", 85: "jon", 86: "ken",
           88: "eri", 94: "eaf", 95: "nam", 96: "tan", 97: "kov", 98: "nya", 99: "kat",
           100: "nrh", 102: "lua", 104: "gcn", 106: "sth"}  # fmt: skip


def test_unusual_spaces_numbers_name_their_spaces_rule(adii: AfricanDiplomacyII) -> None:
    # Rules F gives each space's number on the map, e.g. "Bamako (64)".
    assert {n: adii.board.lookup(str(n)) for n in NUMBERS} == NUMBERS


CENTERS = {"bam", "bra", "bul", "con", "egy", "gui", "irn", "jon", "jos", "kat", "kha", "kin",
           "kis", "kov", "lag", "ndj", "ngu", "nia", "nrh", "nya", "rur", "sen", "sev", "spa",
           "sth", "tan"}  # fmt: skip
PROVINCES_ONLY = {"cam", "elo", "fsu", "lis", "uga"}  # "a province", no supply center


def test_unusual_spaces_supply_centers_as_the_text_says_rule(adii: AfricanDiplomacyII) -> None:
    assert adii.board.centers >= CENTERS and not PROVINCES_ONLY & adii.board.centers
    assert adii.victory_centers == len(adii.board.centers) // 2 + 1 == 33


def test_unusual_spaces_constantinople_canal_rule(four: AfricanDiplomacyII) -> None:
    # "This canal allows fleet movement through the province to and from any adjacent
    # province or body of water."
    board = four.board
    waters = {
        loc
        for province in board.province_graph["con"]
        for loc in board.locations(province)
        if board.can_hold(board.kinds["F"], loc)
    }
    assert board.fleet_edges["con"] == waters
    position = _position(four, {"Blue": ["F bla"]})
    position = _play(four, position, {"Blue": ["F bla - con"]}).after.evolve(phase=position.phase)
    assert _notes(_play(four, position, {"Blue": ["F con - aeg"]})) == {"F Con - Aeg": "Succeeds"}


def test_unusual_spaces_egypt_canal_coast_must_be_specified_rule(
    four: AfricanDiplomacyII,
) -> None:
    # "The canal is considered a 'coast' [ec] for movement & must be specified for fleet
    # movements": even from the Red Sea, which reaches no other coast of Egypt.
    position = _position(four, {"Blue": ["F red"], "Red": ["F kha/wc"]})
    notes = _notes(_play(four, position, {"Blue": ["F red - egy"], "Red": ["F kha - egy"]}))
    assert notes["F Red - Egy"] == "Void: say which coast of Egypt: egy/ec; holds"
    assert notes["F Kha/wc - Egy/wc"] == "Succeeds"  # the Nile's coast is filled in as usual
    notes = _notes(_play(four, position, {"Blue": ["F red - egy/ec"]}))
    assert notes["F Red - Egy/ec"] == "Succeeds"


def test_unusual_spaces_egypt_canal_coast_must_be_specified_in_a_retreat_rule(
    four: AfricanDiplomacyII,
) -> None:
    # "Must be specified for fleet movements": a retreat too.
    position = _position(four, {"Blue": ["F red"], "Red": ["F eri", "F ade"]})
    moved = _play(four, position, {"Red": ["F eri - red", "F ade S F eri - red"]})
    retreat = moved.after
    assert str(retreat.phase) == "Spring 1901 Retreat"
    assert "F Red R Egy/ec" in _menu(four, retreat, "Blue")["F Red"]
    assert "F Red R Egy" not in _menu(four, retreat, "Blue")["F Red"]
    notes = _notes(_play(four, retreat, {"Blue": ["F red R egy"]}))
    assert notes["F Red R Egy"] == "Void: say which coast of Egypt: egy/ec"
    notes = _notes(_play(four, retreat, {"Blue": ["F red R egy/ec"]}))
    assert notes["F Red R Egy/ec"] == "Succeeds"


def test_unusual_spaces_st_helena_rule(four: AfricanDiplomacyII) -> None:
    # "The space may be occupied by either a fleet or an army, although an army may only come
    # to be on the space through a build or a convoy."
    board = four.board
    assert "sth" not in board.army_edges and board.provinces["sth"].center
    position = _position(four, {"Blue": ["A lua", "F sat"]})
    result = _play(four, position, {"Blue": ["A lua - sth", "F sat C A lua - sth"]})
    assert _notes(result)["A Lua - Sth"] == "Succeeds"
    assert _notes(_play(four, position, {"Blue": ["A lua - sth"]}))["A Lua - Sth"] == (
        "Fails: no convoy route"
    )
    # A fleet sails in from the South Atlantic, or the Gulf of Guinea (reconstructed:
    # issue 28, point 8), and out again.
    assert board.fleet_edges["sth"] == {"ggu", "sat"}
    result = _play(four, position, {"Blue": ["F sat - sth"]})
    assert _notes(result)["F Sat - Sth"] == "Succeeds"
    assert result.after.units["sth"].type.letter == "F"
    winter = _winter(four, {"Blue": ["F sat"]}, {"sth": "Blue", "lua": "Blue"}, {"Blue": ("sth",)})
    assert _notes(_play(four, winter, {"Blue": ["Build A sth"]})) == {"Build A Sth": "Built"}
    assert _notes(_play(four, winter, {"Blue": ["Build F sth"]})) == {"Build F Sth": "Built"}


# --- a game played through the CLI, saved and replayed -----------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


CLI_SPRING = """
Blue: A sen - rdo
Blue: A bam - sen
Red: A egy - kha
Yellow: A kin - bra
"""
# After the Fall, Blue holds three centers with four armies, Yellow too, Green too; Red four.
CLI_WINTER = """
Blue: Declare Gui
Blue: Declare Sen
Blue: Disband A Rdo
Red: Declare Con
Yellow: Disband A Kas
"""


def test_a_placement_round_and_a_first_year_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "game.json")
    out = _cli(capsys, "new", "african_diplomacy_ii", game, "--seats", ",".join(FOUR))
    assert out.strip() == f"New African Diplomacy II game in {game}: Winter 1900 Lots"
    out = _cli(capsys, "adjudicate", game, "--draw", f"order of play={','.join(DRAWN)}")
    assert "Drawn: order of play: Blue, Red, Yellow, Green" in out
    assert "Order of play: Blue, Red, Yellow, Green; Blue places army 1 of 4 now" in _cli(
        capsys, "show", game
    )
    for number, site in enumerate(SITES):
        power = DRAWN[number % 4]
        assert "stored" in _cli(capsys, "orders", game, power, f"Place A {site}")
        out = _cli(capsys, "adjudicate", game)
    assert out.rstrip().endswith("Next phase: Spring 1901 Movement")
    orders = tmp_path / "spring.txt"
    orders.write_text(CLI_SPRING)
    _cli(capsys, "orders", game, "--from", str(orders))
    out = _cli(capsys, "adjudicate", game)
    assert "A Bam - Sen" in out and "Next phase: Fall 1901 Movement" in out
    out = _cli(capsys, "adjudicate", game)  # Fall: everyone holds
    assert "Next phase: Winter 1901 Adjustment" in out
    shown = _cli(capsys, "show", game)
    assert "Home centers that may be declared: Red 4, Blue 3, Green 3, Yellow 3" in shown
    assert "Awaiting orders from: Blue, Green, Yellow" in shown  # Red may only declare
    (disbands,) = [line for line in shown.splitlines() if line.startswith("Disbands: ")]
    assert sorted(disbands.removeprefix("Disbands: ").split(", ")) == [
        "Blue 1",
        "Green 1",
        "Yellow 1",
    ]
    orders.write_text(CLI_WINTER)
    _cli(capsys, "orders", game, "--from", str(orders))
    out = _cli(capsys, "adjudicate", game)
    for line in [
        "Declare Gui                 Declared a home center",
        "A Rdo D                     Disbanded",
        "A Uga D                     Civil disorder: disbanded",  # Green sent nothing
        "Home centers: Red Con; Blue Gui, Sen",
        "Next phase: Spring 1902 Movement",
    ]:
        assert line in out
    # Saved and replayed: every position and every draw as it was.
    data = json.loads(Path(game).read_text())
    loaded = jsonio.game_from_json(data)
    assert loaded.history[0].draws == {ORDER_OF_PLAY: DRAWN}
    assert jsonio.position_digest(loaded.position) == data["phases"][-1]["digest"]


def test_the_board_and_the_report_tell_each_thing_once(four: AfricanDiplomacyII) -> None:
    placing = _placed_game(four, SITES[:3]).position
    assert (
        position_report(four, placing, OBSERVER).count("Order of play: Blue, Red, Yellow, Green")
        == 1
    )
    homes = {"Blue": ("bam", "sen")}
    winter = _winter(four, {"Blue": ["A bam"]}, {"bam": "Blue", "sen": "Blue"}, homes)
    assert position_report(four, winter, OBSERVER).count("Home centers: Blue Bam, Sen") == 1
    # A long ranked list leaves its result to the next line, in the column.
    lists, game = _drafting(four)
    game.set_orders("Blue", [lists.parse_order("Place A Bam, Gui, Sen, Lib, Ivo")])
    report = phase_report(lists, game.adjudicate(), OBSERVER).splitlines()
    listed = report.index("   Place A Bam, Gui, Sen, Lib, Ivo")
    assert report[listed + 1] == " " * 31 + "Placed A Bam, A Gui, A Sen, A Lib"


@pytest.mark.parametrize("placement", ["turns", "lists"])
def test_random_games_save_and_replay_to_identical_positions(
    adii: AfricanDiplomacyII, placement: str
) -> None:
    variant = adii.configure(options={"placement": placement}, seats=FOUR)
    game = Game.new(variant, seed=11)
    for result in random_game(variant, random.Random(11), 80):
        game.history.append(result)
    assert any(r.draws for r in game.history)  # the lots, drawn from the generator
    loaded = jsonio.game_from_json(json.loads(json.dumps(jsonio.game_to_json(game))))
    assert [jsonio.position_to_json(r.after, MASTER) for r in loaded.history] == [
        jsonio.position_to_json(r.after, MASTER) for r in game.history
    ]
    assert [r.draws for r in loaded.history] == [r.draws for r in game.history]
    assert AfricanState.of(loaded.position).homes  # homes were declared and kept


def test_the_last_year_option_ends_random_games_in_a_draw(adii: AfricanDiplomacyII) -> None:
    variant = adii.configure(options={"last_year": 1903})
    history = list(random_game(variant, random.Random(2), 300))
    assert history[-1].end.draw and history[-1].after.phase.year == 1903


@pytest.mark.parametrize("options", [{}, {"last_year": 1903}])
def test_a_game_where_nobody_placed_an_army_ends_in_a_draw_of_every_player_decision(
    adii: AfricanDiplomacyII, options: dict[str, int]
) -> None:
    # Nobody places an army: no unit and no center can ever be anyone's, and the game ends
    # as the first year begins (lots, 3 x 4 placements waived), rather than playing years
    # of nobody for ever (a draw of nobody would read as no end).
    variant = adii.configure(seats=["Red", "Blue", "Green"], options=options)
    game = Game.new(variant, seed=1)
    while not game.over and len(game.history) < 100:
        game.adjudicate()
    assert len(game.history) == 1 + 3 * 4
    assert str(game.position.phase) == "Spring 1901 Movement"
    assert game.end == GameEnd(Termination.EMPTY_BOARD, draw=("Red", "Blue", "Green"))


def test_the_last_year_ends_the_game_at_the_first_phase_past_it_decision(
    four: AfricanDiplomacyII,
) -> None:
    # The end is asked at every phase: a game that reaches a later year without its last
    # Winter (a position given past it) is over there, a draw of the survivors.
    variant = four.configure(options={"last_year": 1903})
    units = {"Red": ["A Bam"], "Blue": ["A Egy"]}
    spring = _position(variant, units, Phase(1904, Season.SPRING, PhaseKind.MOVEMENT))
    assert variant.game_end(spring).draw == ("Red", "Blue")
    fall = _position(variant, units, Phase(1903, Season.FALL, PhaseKind.MOVEMENT))
    assert not variant.game_end(fall)
    assert _play(variant, fall, {}).end == GameEnd(Termination.LAST_YEAR, draw=("Red", "Blue"))
