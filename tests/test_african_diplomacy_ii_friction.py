"""African Diplomacy II: the friction of issue 28, point 10: the warning on a build whose
declaration is missing, the Winter's status, whom the Winter awaits, the placement menu's
names, and placements sent ahead of their turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hegemon import jsonio
from hegemon.game import Game
from hegemon.game.forms import FormError
from hegemon.game.menus import offered
from hegemon.position import OBSERVER
from hegemon.variants import load_variant
from hegemon.variants.african_diplomacy_ii import ORDER_OF_PLAY, AfricanDiplomacyII, Place
from tests import test_african_diplomacy_ii_islands as islands
from tests.test_african_diplomacy_ii import DRAWN, FOUR, _cli, _winter, placing


@pytest.fixture(scope="module")
def four() -> AfricanDiplomacyII:
    variant = load_variant("african_diplomacy_ii").configure(seats=FOUR)
    assert isinstance(variant, AfricanDiplomacyII)
    return variant


# Winter 1901: Blue owns three centers with one army, none declared yet; Red owns three
# with three armies; Green owns one with one army and has declared it.
CENTERS = {"bam": "Blue", "gui": "Blue", "sen": "Blue", "egy": "Red", "kha": "Red"}
CENTERS |= {"cyr": "Red", "kin": "Green"}
UNITS = {"Blue": ["A bam"], "Red": ["A egy", "A kha", "A cyr"], "Green": ["A kin"]}


def _winter_game(four: AfricanDiplomacyII) -> Game:
    return Game(four, _winter(four, UNITS, CENTERS, {"Green": ("kin",)}))


def test_a_build_on_a_center_still_to_declare_warns_its_sender(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """B (issue 28, point 10): a build on a center the player owns but has not declared is
    stored (the declaration may come in another go), and its sender is told at once that
    it is void without the declaration; nobody else reads it."""
    _, game = islands.playing(islands.PLAY[:6])  # to Winter 1902
    assert str(game.position.phase) == "Winter 1902 Adjustment"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(jsonio.game_to_json(game)))
    out = _cli(capsys, "orders", str(path), "Blue", "Build A Ang")  # Blue declared Lua only
    assert "no order yet for Declare Ang (Build A Ang is void without it)" in out
    assert "void without it" not in _cli(capsys, "status", str(path), "--as", "Red")
    assert "void" not in _cli(capsys, "orders", str(path), "Blue", "Declare Ang")


def test_the_winter_status_counts_the_centers_each_player_may_declare(
    four: AfricanDiplomacyII,
) -> None:
    """B (issue 28, point 10): "may be declared" counts what a player may declare this
    Winter: no more than the undeclared centers it owns, nor than four less its homes."""
    position = _winter_game(four).position
    lines = four.calendar.procedure(position.phase).status_lines(four, position, OBSERVER)
    assert "Home centers that may be declared: Red 3, Blue 3" in lines


def test_awaiting_orders_leaves_out_a_player_who_may_only_declare(
    four: AfricanDiplomacyII,
) -> None:
    """B (issue 28, point 10): a declaration is optional; the Winter awaits only players
    with builds or disbands due (builds on centers they may still declare counted). Red,
    three centers and three armies, may only declare: it is not awaited."""
    game = _winter_game(four)
    assert game.actors() == ("Red", "Blue")
    assert game.order_status().awaited == ("Blue",)
    game.set_orders("Red", [four.parse_order("Declare Egy")])
    assert game.order_status().received == ("Red",)


def test_the_placement_menu_names_every_province(
    four: AfricanDiplomacyII, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A (issue 28, point 10): `options` lists each open province with its name beside
    its abbreviation, which alone would tell a player little."""
    game = str(tmp_path / "game.json")
    _cli(capsys, "new", "african_diplomacy_ii", game, "--seats", ",".join(FOUR))
    _cli(capsys, "adjudicate", game, "--draw", f"order of play={','.join(DRAWN)}")
    lines = _cli(capsys, "options", game, "Blue").splitlines()
    assert "   Place A Bam  (Bamako)" in lines
    assert "   Place A Ndj  (N'Djamena)" in lines
    assert "   Waive" in lines


def test_placements_sent_ahead_place_every_army_at_one_adjudication(
    four: AfricanDiplomacyII,
) -> None:
    """A (issue 28, point 10): in the plain sequence, any player may send a ranked list
    ahead of its turn; one adjudication plays every turn its list reaches, round by round
    in the order of play, each army on the first province of the list still open."""
    game = Game.new(four, seed=1)
    game.adjudicate({ORDER_OF_PLAY: DRAWN})  # Blue, Red, Yellow, Green
    lists = {  # sent in turn (Blue) or ahead of it (the others)
        "Blue": ["Place A Bam, Gui, Sen, Lib"],
        "Red": ["Place A Bam, Egy, Cyr, Syr, Con"],  # Bamako goes to Blue, in turn first
        "Yellow": ["Place A Kin, Lua, Kat, Kas"],
        "Green": ["Place A Ken, Tan, Rur"],  # one short: the turns stop at Green's fourth
    }
    assert placing(four, game, lists) == {
        "Blue": "Placed A Bam, A Gui, A Sen, A Lib",
        "Red": "Placed A Egy, A Cyr, A Syr, A Con",
        "Yellow": "Placed A Kin, A Lua, A Kat, A Kas",
        "Green": "Placed A Ken, A Tan, A Rur",
    }
    assert game.actors() == ("Green",) and len(game.position.units) == 15
    game.set_orders("Green", [Place(("uga",))])
    game.adjudicate()
    assert str(game.position.phase) == "Spring 1901 Movement"


def test_a_list_ahead_takes_no_more_provinces_than_armies_still_to_place(
    four: AfricanDiplomacyII,
) -> None:
    """A: every placement takes a province, so a list's place past the armies still to
    place (16 for four players) could never count; the form takes that many at most and
    refuses one more, saying so (a list of all 82 was too long to send)."""
    game = Game.new(four, seed=1)
    game.adjudicate({ORDER_OF_PLAY: DRAWN})
    (ahead,) = [f for f in offered(four, game.position, "Red") if f.ranking]
    assert ahead.most == 16 and len(ahead.choices) > 16
    assert isinstance(ahead.fill(list(range(16)), {}), Place)
    with pytest.raises(FormError, match="16 at most"):
        ahead.fill(list(range(17)), {})


def test_the_order_of_play_may_be_drawn_in_lower_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A (issue 28, point 11): the game master's roll names the players as he types them,
    in any case; the draw keeps their own names."""
    game = str(tmp_path / "game.json")
    _cli(capsys, "new", "african_diplomacy_ii", game, "--seats", ",".join(FOUR))
    out = _cli(capsys, "adjudicate", game, "--draw", "order of play=blue,RED,yellow,Green")
    assert "Drawn: order of play: Blue, Red, Yellow, Green" in out
