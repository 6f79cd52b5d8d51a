"""The board while ordering, in the browser: a player's orders, given by the keyboard and
by clicking, drawn on the board before adjudication (and never on another player's); a
single refused order says why; the keys a move and a support take; the order buttons on
a phone; Africa II's paratroop off the board ordered by a click on it; the hint and the
outlines of a phase with no unit to move; the phase slider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import seated_game
from tests.web.conftest import LiveServer, Player, open_player

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
PENDING = "#hg-board svg g.order.pending"


def _at_game(player: Player, server: LiveServer, game_id: int) -> None:
    player.page.set_viewport_size(WIDE)
    player.page.goto(f"{server.url}/games/{game_id}")
    player.page.wait_for_selector("#hg-board svg")


def _keys(player: Player, unit: str, keys: list[str], stored: str) -> None:
    """`keys` pressed, the unit's button in the list focused first; the order stored, and
    the keyboard left on a button of the list of units, not on the page's body."""
    player.page.focus(f"#hg-units li[data-unit='{unit}'] button.unit-choice")
    for key in keys[:-1]:
        player.page.keyboard.press(key)
    player.screenshot(f"{stored} by the keyboard, before the last key")
    player.page.keyboard.press(keys[-1])
    player.page.wait_for_selector(f"#hg-message:has-text('Stored: {stored}')")
    focused = "document.activeElement.closest('#hg-units li') !== null"
    assert player.page.evaluate(focused), "the keyboard fell off the list of units"


def _drawn(player: Player) -> list[str]:
    """The orders drawn as pending on the player's board, by their tooltips."""
    return list(player.page.locator(f"{PENDING} > title").all_text_contents())


def test_orders_are_drawn_while_ordering_and_kept_secret(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", prefix="o_", seed=5)
    france = open_player(browser, server, "o_france", screenshots)
    england = open_player(browser, server, "o_england", screenshots)
    _at_game(france, server, game.id)
    assert _drawn(france) == []
    move = ["Enter", "b", "Enter"]  # A Par: Brest is first, then Burgundy
    _keys(france, "A Par", move, "A Par - Bur")
    support = ["Enter", "ArrowRight", "p", "Enter", "Enter"]  # support, Paris, Burgundy
    _keys(france, "A Mar", support, "A Mar S A Par - Bur")
    assert len(move) <= 4 and len(support) <= 6
    france.page.click("#hg-board svg text[data-province='bre']")  # and by clicking
    france.page.click("#hg-board svg text[data-province='mid']")
    france.page.wait_for_selector("#hg-message:has-text('Stored: F Bre - Mid')")
    france.page.wait_for_function(f"document.querySelectorAll('{PENDING}').length === 3")
    drawn = _drawn(france)
    for order in ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mid"):
        assert any(t.startswith(f"France: {order}: ") for t in drawn), (order, drawn)
    france.screenshot("orders drawn while ordering")

    france.page.fill("#hg-order", "A Par - Mun")  # one refused order: the page says why
    france.page.click("#hg-write button")
    france.page.wait_for_selector("#hg-message.bad")
    refusal = france.page.inner_text("#hg-message")
    assert refusal.startswith("nothing stored: orders refused for 1 reason: A Par - Mun"), refusal
    france.screenshot("a refused order says why")

    france.page.set_viewport_size(PHONE)  # the order buttons in sight, the board above them
    france.page.reload()
    france.page.wait_for_selector("#hg-units button.unit-choice")
    france.screenshot("ordering on a phone")
    box = france.page.locator("#hg-units button.unit-choice").first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    france.page.click("#hg-board svg [data-unit='A Par']")  # a tap on the unit: its choice
    france.page.wait_for_selector("#hg-steps button")
    france.screenshot("a unit picked on a phone")
    france.page.keyboard.press("Escape")

    _at_game(england, server, game.id)
    assert _drawn(england) == []
    england.screenshot("england sees no french order")
    for answer in england.answers:
        for order in ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mid"):
            assert order not in answer.text, f"england was sent {order!r} by {answer.url}"
    own = game.players["England"].get(f"{game.path}/board.svg?orders=true&power=France")
    assert own.status_code == 403 and "you play England, not France" in own.text
    seen = game.observer.get(f"{game.path}/board.svg?orders=true")
    assert seen.status_code == 403
    mine = game.players["France"].get(f"{game.path}/board.svg?orders=true")
    assert mine.status_code == 200 and "France: A Mar S A Par - Bur: " in mine.text


def test_africa_ii_paratroop_influence_outlines_and_the_phase_slider(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "africa_ii", prefix="p_", seed=3)
    britain = open_player(browser, server, "p_britain", screenshots)
    _at_game(britain, server, game.id)
    paratroop = "#hg-board svg [data-unit='P OFFBOARD'][data-power='Britain']"
    britain.page.click(paratroop)  # the fleet beside it at the same place stays unpicked
    assert britain.page.inner_text("#hg-picked") == "P OFFBOARD"
    britain.screenshot("the paratroop's menu")
    britain.page.keyboard.press("Escape")
    britain.page.click("#hg-board svg [data-unit='F OFFBOARD'][data-power='Britain']")
    assert britain.page.inner_text("#hg-picked") == "F OFFBOARD"

    game.master.ok("post", f"{game.path}/adjudicate")
    _at_game(britain, server, game.id)
    britain.page.wait_for_selector("#hg-phase:has-text('Influence')")
    hint = britain.page.inner_text("#hg-hint")
    assert "your units" not in hint and "outlined" in hint, hint
    outlined = britain.page.locator("#hg-board svg .province.target").count()
    assert outlined > 0
    britain.screenshot("influence: the states outlined")

    britain.page.focus("#hg-phase-range")  # the slider: arrows step back to the Spring
    britain.page.keyboard.press("ArrowLeft")
    britain.page.wait_for_selector("#hg-past svg")
    assert britain.page.is_hidden("#hg-board")
    assert "Spring 1961 Movement" in britain.page.inner_text("#hg-phase-shown")
    britain.screenshot("the slider on the spring")
    britain.page.keyboard.press("ArrowRight")
    britain.page.wait_for_selector("#hg-board", state="visible")
    assert britain.page.is_hidden("#hg-past")
