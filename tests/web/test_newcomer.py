"""A newcomer's first game, in Chromium (issue 31's acceptance story): they open an
account, create a Europe 1615 game from the new game's page playing one power, four
others open accounts and join it from the lobby, the game starts (every page shows its
first phase); the host orders a fleet by clicking on the board, and sees the order drawn
on it before adjudication (never on another player's board), then writes an order the
rules refuse and reads the server's reason; then all five vote a draw on the game's page
and the game ends.

The steps are helpers (`sign_up`, `create_game`, `join_from_lobby`, `order_by_clicking`,
`pending_drawn`, `vote_draw`, `shoot`) for further stories to reuse; each player keeps one
browser context throughout."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import PASSWORD, User
from tests.web.conftest import LiveServer, Player, open_player

WIDE = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
OVER = "p.end:has-text('The game is over')"
PENDING = "#hg-board svg #orders .order.pending"  # the player's own orders, not yet adjudicated


def sign_up(browser: Any, server: LiveServer, name: str, folder: Path) -> Player:
    """`name` opens an account on the sign-in page, and lands on their (empty) games."""
    context = browser.new_context(viewport=WIDE)
    context.set_default_timeout(15000)
    context.set_default_navigation_timeout(60000)  # a map's first drawing takes a while
    page = context.new_page()
    page.on("pageerror", lambda error: pytest.fail(f"{name}'s page: {error}"))
    page.goto(f"{server.url}/lobby")  # signed out: sent to sign in, then back
    page.fill("#hg-name", name)
    page.fill("#hg-password", PASSWORD)
    page.click("button[name=register]")
    page.wait_for_selector("h1:has-text('Lobby')")
    return Player(name, page, folder)


def shoot(player: Player, name: str, show: str | None = None) -> None:
    """The page as it is, on a desktop and on a phone (the viewport put back after); the
    element `show` finds first scrolled into sight on each (the page, and the board's
    window on a phone)."""
    page = player.page
    size = page.viewport_size
    for label, viewport in (("desktop", WIDE), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        if show:
            page.locator(show).first.scroll_into_view_if_needed()
        player.screenshot(f"{name} {label}")
    page.set_viewport_size(size)


def create_game(
    player: Player, server: LiveServer, variant: str, title: str, **choices: str
) -> int:
    """The new game's page filled in: the variant's card picked by its name, the title,
    then each of `choices` (a select's id without ``hg-``, and the option's label)."""
    page = player.page
    page.goto(f"{server.url}/games/new")
    page.locator(".variant-card", has_text=variant).click()
    page.fill("#hg-title", title)
    for field, label in choices.items():
        page.select_option(f"#hg-{field.replace('_', '-')}", label=label)
    page.wait_for_function("[...document.images].every((i) => i.complete)")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(player, f"new game {title}")
    page.click("#hg-new-game button.primary")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def join_from_lobby(player: Player, server: LiveServer, title: str, power: str) -> None:
    """The lobby's line of the game titled so: its power picked, Join pressed."""
    page = player.page
    page.goto(f"{server.url}/lobby")
    line = page.locator("li.lobby-line", has_text=title)
    line.locator("select[name=power]").select_option(power)
    line.get_by_role("button", name=f"Join {title}").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))


# The thumbnails drawn in these tests: the boards their games are played on, whose
# territories the server derives for the game pages anyway. Every other variant's would
# be derived afresh (tests/conftest.py), seconds each: its place in the gallery stays empty.
DRAWN = re.compile(r"/variants/(europe_1615|classic)/")


def only_played_thumbnails(player: Player) -> None:
    player.page.route(
        "**/thumbnail.svg",
        lambda route: route.continue_() if DRAWN.search(route.request.url) else route.abort(),
    )


def order_by_clicking(player: Player, power: str, unit: str, to: str, stored: str) -> None:
    """On the game's page: a click on the power's unit on the board, then one on the name
    of the province it goes to; the page says the order is stored."""
    board = player.page.locator("#hg-board svg")
    board.locator(f"[data-unit='{unit}'][data-power='{power}']").click()
    board.locator(f"[data-province='{to}']:not([data-unit])").click()  # the name, not a unit
    player.page.wait_for_selector(f"#hg-message:has-text('Stored: {stored}')")


def pending_drawn(player: Player) -> list[str]:
    """The orders drawn as given and not yet adjudicated on the player's board, by their
    tooltips ("England: F Lon - Nth: given, not yet adjudicated")."""
    return list(player.page.locator(f"{PENDING} > title").all_text_contents())


def api_orders(player: Player, server: LiveServer, game_id: int) -> dict[str, Any]:
    """The pending orders the game's API shows the player, by power."""
    answer = player.page.request.get(f"{server.url}/api/games/{game_id}")
    assert answer.ok, answer.text()
    orders: dict[str, Any] = answer.json()["orders"]
    return orders


def vote_draw(player: Player) -> None:
    player.page.get_by_role("button", name="Vote for a draw").click()


def test_a_newcomer_creates_a_game_others_join_from_the_lobby_and_all_draw(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    title = "First steps 1615"
    host = sign_up(browser, server, "nc_host", screenshots)
    only_played_thumbnails(host)
    page = host.page
    page.goto(f"{server.url}/games/new")
    gallery = page.locator(".variant-card").all_inner_texts()
    assert any("Europe 1615" in card and "5 players" in card for card in gallery)
    page.locator(".variant-card", has_text="Sub-Saharan").click()
    page.fill("#hg-option-sub_saharan-year_cap", "500")  # above its range: refused
    page.evaluate("document.getElementById('hg-new-game').noValidate = true")
    page.click("#hg-new-game button.primary")
    refused = page.locator("#hg-new-message.bad")
    refused.wait_for()
    assert "year_cap" in refused.inner_text() and "0 to 100" in refused.inner_text()
    assert page.evaluate("document.activeElement.id") == "hg-option-sub_saharan-year_cap"
    assert page.get_attribute("#hg-option-sub_saharan-year_cap", "aria-invalid") == "true"
    shoot(host, "a refused option")
    game_id = create_game(
        host, server, "Europe 1615", title, movement="1 day", play_as="I play England"
    )
    head = page.inner_text(".game-head")
    assert "forming" in head and "You play England" in head
    shoot(host, "the host in the forming game")

    others = {"nc_france": "France", "nc_spain": "Spain", "nc_austria": "Austria"}
    players = [host]
    for name, power in others.items():
        player = sign_up(browser, server, name, screenshots)
        join_from_lobby(player, server, title, power)
        players.append(player)
    last = sign_up(browser, server, "nc_north", screenshots)
    last.page.goto(f"{server.url}/lobby")
    line = last.page.locator("li.lobby-line", has_text=title).inner_text()
    assert "4 of 5 taken; free: Scandinavia" in line and "movement 1 day" in line
    assert "full press" in line and "when full" in line
    shoot(last, "the lobby")
    join_from_lobby(last, server, title, "Scandinavia")
    players.append(last)

    for player in players:
        player.page.goto(f"{server.url}/games/{game_id}")
        phase = player.page.locator("#hg-phase")
        phase.wait_for()
        assert "1615" in phase.inner_text()
    shoot(last, "the game started")

    assert pending_drawn(host) == []
    order_by_clicking(host, "England", "F Lon", "nth", "F Lon - Nth")
    assert page.inner_text("#hg-units li[data-unit='F Lon'] .order") == "F Lon - Nth"
    assert api_orders(host, server, game_id)["England"]["orders"] == ["F Lon - Nth"]
    assert pending_drawn(host) == ["England: F Lon - Nth: given, not yet adjudicated"]
    assert "Spring 1615" in page.inner_text("#hg-phase")  # drawn before adjudication
    shoot(host, "an order given by clicking drawn on the board", show=PENDING)

    france = players[1]  # her board, read again: no English order on it, nor in the API
    france.page.reload()
    france.page.wait_for_selector("#hg-board svg #units")
    assert pending_drawn(france) == [] and "F Lon - Nth" not in france.page.content()
    assert "England" not in api_orders(france, server, game_id)

    with page.expect_response(lambda r: r.url.endswith("/orders")) as sent:
        page.fill("#hg-order", "Ally England")  # Optional Alliances: with another power
        page.click("#hg-write button")
    problems = sent.value.json()["problems"]
    assert problems == ["Ally England: a power cannot ally with itself"], problems
    refusal = page.locator("#hg-message.bad")
    refusal.wait_for()
    assert problems[0] in refusal.inner_text(), refusal.inner_text()
    assert pending_drawn(host) == ["England: F Lon - Nth: given, not yet adjudicated"]
    shoot(host, "a refused order says why", show="#hg-message")

    for player in players:
        player.page.locator("#hg-votes").scroll_into_view_if_needed()
        vote_draw(player)
        player.page.wait_for_selector(f"{OVER}, #hg-votes button:has-text('Withdraw my draw vote')")
    for player in players:
        player.page.wait_for_selector(OVER)
        assert "draw" in player.page.inner_text("p.end")
        assert "awaited" not in player.page.inner_text("table.seats")  # over: nobody is
    host.page.evaluate("window.scrollTo(0, 0)")
    shoot(host, "the game ended in a draw")


def test_an_invitation_link_opens_a_private_anonymous_game(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    """A private game created from the page leads its creator to the invitation link; a
    guest following it joins, and sees the creator's name hidden (anonymous players)."""
    host = sign_up(browser, server, "inv_host", screenshots)
    page = host.page
    only_played_thumbnails(host)
    page.goto(f"{server.url}/games/new")
    page.check("input[name=variant][value=classic]")
    page.fill("#hg-title", "By invitation")
    page.check("input[name=private][value=yes]")
    page.check("input[name=anonymous]")
    page.select_option("#hg-play-as", label="I play France")
    page.click("#hg-new-game button.primary")
    page.wait_for_url(re.compile(r"/join/[\w-]+$"))
    link = page.input_value("#hg-invitation")
    assert link == page.url and "You are in it: you play France" in page.inner_text("main")
    shoot(host, "the invitation link")
    guest = sign_up(browser, server, "inv_guest", screenshots)
    guest.page.goto(f"{server.url}/lobby")
    assert "By invitation" not in guest.page.inner_text("main")  # private: not listed
    guest.page.goto(link)
    line = guest.page.locator("li.lobby-line").inner_text()
    assert "private" in line and "anonymous" in line and "1 of 7 taken" in line
    shoot(guest, "an invitation")
    guest.page.locator("select[name=power]").select_option("England")
    guest.page.get_by_role("button", name="Join By invitation").click()
    guest.page.wait_for_url(re.compile(r"/games/\d+$"))
    seats = guest.page.inner_text("table.seats")
    assert "inv_host" not in guest.page.content() and "anonymous" in seats


def test_the_game_master_gives_a_waiting_player_a_power(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    master = User(server.client, "as_gm")
    game = master.ok("post", "/api/games", {"variant": "classic", "assignment": "master"})
    User(server.client, "as_player").ok("post", f"/api/games/{game['id']}/join", {})
    gm = open_player(browser, server, "as_gm", screenshots)
    gm.page.goto(f"{server.url}/games/{game['id']}/master")
    gm.page.select_option("#hg-assign-power", "Italy")
    shoot(gm, "a player waits for a power")
    gm.page.get_by_role("button", name="Assign").click()
    gm.page.wait_for_selector("tr[data-seat=Italy]:has-text('as_player')")
    assert gm.page.locator("form[data-action=assign]").count() == 0  # nobody waits now
