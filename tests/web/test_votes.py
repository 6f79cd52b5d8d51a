"""Votes in the browser: two players of a standard game (the other seats bots') vote a
draw from the game's page, each in a browser of their own. The first vote is seen by its
voter alone; the second ends the game, and both pages say so without a reload. Where
votes are public, the other player's page shows the vote as it is cast."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import Seated, seated_game
from tests.web.conftest import LiveServer, Player, open_player

WIDE = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BOTS = ("Austria", "Germany", "Italy", "Russia", "Turkey")
OVER = "p.end:has-text('The game is over')"


def _game(server: LiveServer, prefix: str, **settings: Any) -> Seated:
    return seated_game(
        server.client, "classic", free=BOTS, prefix=prefix, fill_with_bots=True, **settings
    )


def _at_votes(player: Player, server: LiveServer, game: Seated, size: dict[str, int]) -> None:
    player.page.set_viewport_size(size)
    player.page.goto(f"{server.url}/games/{game.id}")
    player.page.wait_for_selector("#hg-board svg")
    player.page.evaluate("window.hgSamePage = true")  # gone if the page is loaded again
    player.page.locator("#hg-votes").scroll_into_view_if_needed()


def _vote(player: Player, label: str) -> None:
    player.page.get_by_role("button", name=label).click()


def test_two_players_vote_a_draw_from_the_page(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = _game(server, "vd_")
    england = open_player(browser, server, "vd_england", screenshots)
    france = open_player(browser, server, "vd_france", screenshots)
    for player, size in ((england, WIDE), (france, PHONE)):
        _at_votes(player, server, game, size)
        text = player.page.inner_text("#hg-votes")
        assert "Your votes are secret" in text and "Voters: England, France" in text
        player.screenshot("the votes panel")
    _vote(england, "Vote for a draw")
    england.page.wait_for_selector("#hg-votes button:has-text('Withdraw my draw vote')")
    assert england.page.evaluate("document.activeElement.dataset.kind") == "draw"
    assert "Your vote is cast" in england.page.inner_text("#hg-votes-message")
    england.screenshot("england voted a draw")
    france.page.reload()
    france.page.wait_for_selector("#hg-votes")
    assert "Withdraw" not in france.page.inner_text("#hg-votes")  # nothing of England's vote
    assert france.page.get_by_role("button", name="Vote for a draw").is_visible()
    france.page.locator("#hg-votes").scroll_into_view_if_needed()
    france.screenshot("france sees no vote of england")
    _vote(france, "Vote for a draw")
    france.page.wait_for_selector(OVER)
    england.page.wait_for_selector(OVER)  # told by the live stream
    assert england.page.evaluate("window.hgSamePage") is True
    for player in (england, france):
        assert "draw" in player.page.inner_text("p.end")
        assert player.page.locator("#hg-votes").count() == 0
        player.page.evaluate("window.scrollTo(0, 0)")
        player.screenshot("the game ended in a draw")


def test_a_public_vote_is_shown_to_the_other_player(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = _game(server, "vp_", policy={"votes": "public"})
    england = open_player(browser, server, "vp_england", screenshots)
    france = open_player(browser, server, "vp_france", screenshots)
    _at_votes(england, server, game, WIDE)
    _at_votes(france, server, game, PHONE)
    _vote(england, "Vote for a draw")
    england.page.wait_for_selector("#hg-votes button:has-text('Withdraw my draw vote')")
    france.page.wait_for_selector("#hg-votes .cast:has-text('England: draw')")
    assert france.page.evaluate("window.hgSamePage") is True  # shown live, without a reload
    france.page.locator("#hg-votes").scroll_into_view_if_needed()
    france.screenshot("france sees england's public draw vote")
    england.page.locator("#hg-votes").scroll_into_view_if_needed()
    england.screenshot("england voted a draw publicly")
    master = open_player(browser, server, "vp_gm", screenshots)
    _at_votes(master, server, game, WIDE)
    panel = master.page.inner_text("#hg-votes")
    assert "The game master does not vote" in panel and "England: draw" in panel
    assert master.page.locator("#hg-votes button").count() == 0
    master.screenshot("the game master sees the public vote and has no button")
