"""Playing in the browser: seven players of a classic game sign in, each in a browser of
their own, and play a year by clicking on the board (a move, a support, a convoy, a
retreat, a build); a Sub-Saharan bid and a Europe 1615 INF deployment are given the same
way. Before each adjudication, nothing any page received (its HTML, every answer to its
scripts) shows another power's orders, bids or INFs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.server.conftest import Seated, seated_game
from tests.web.conftest import LiveServer, Player, open_player


def board(player: Player, province: str) -> None:
    """A click on a province of the board, on its name (where nothing else is drawn)."""
    player.page.click(f"#hg-board svg text[data-province='{province}']")


def given(player: Player, order: str) -> None:
    """Wait for the server's answer, which must say that the order is stored."""
    player.page.wait_for_selector("#hg-message:not(:has-text('Sending'))")
    assert player.page.inner_text("#hg-message") == f"Stored: {order}"


def choose(player: Player, button: str) -> None:
    player.page.get_by_role("button", name=button, exact=True).click()


def open_game(players: Iterable[Player], server: LiveServer, game: Seated) -> None:
    for player in players:
        player.page.goto(f"{server.url}/games/{game.id}")
        player.page.wait_for_selector("#hg-board svg")
        player.page.evaluate("window.hgSamePage = true")  # gone if the page is loaded again


def at_table(
    browser: Any, server: LiveServer, folder: Path, variant: str, prefix: str, *powers: str
) -> tuple[Seated, list[Player]]:
    """A game of `variant` seated, and the players of `powers` at its page."""
    game = seated_game(server.client, variant, prefix=prefix, seed=3)
    names = [prefix + power.lower().replace(" ", "_") for power in powers]
    players = [open_player(browser, server, name, folder) for name in names]
    open_game(players, server, game)
    return game, players


def sees_no_secret(player: Player, secrets: Iterable[str]) -> None:
    """Neither what the server sent the player's page nor what the page shows holds any of
    `secrets` (orders as the API writes them, and as the pages show them, a line each)."""
    shown = [line.strip() for line in player.page.inner_text("body").splitlines()]
    for secret in secrets:
        for answer in player.answers:
            at = answer.text.find(f'"{secret}"')
            where = answer.text[max(0, at - 300) : at + 100]
            assert at < 0, f"{player.name} was sent {secret!r} by {answer.url}: {where}"
        assert secret not in shown, f"{player.name}'s page shows {secret!r}"


def moved_on(players: Iterable[Player], phase: str) -> None:
    """Every page shows the new phase, read without loading the page again."""
    for player in players:
        player.page.wait_for_selector(f"#hg-phase:has-text('{phase}')", timeout=15000)
        assert player.page.evaluate("window.hgSamePage === true"), f"{player.name} reloaded"


def adjudicate(master: Player, server: LiveServer, game: Seated) -> None:
    master.page.goto(f"{server.url}/games/{game.id}/master")
    master.screenshot("master page")
    master.page.click("form[data-action=adjudicate] button")
    master.page.wait_for_selector("#hg-message:has-text('Done: adjudicate')")


def test_seven_players_play_a_year_by_clicking(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", prefix="c_", seed=7)
    names = {power: f"c_{power.lower()}" for power in game.players}
    players = {p: open_player(browser, server, name, screenshots) for p, name in names.items()}
    players["France"].screenshot("my games")
    france, england, austria = players["France"], players["England"], players["Austria"]
    germany = players["Germany"]
    master = open_player(browser, server, "c_gm", screenshots)
    assert "Your orders are due" in france.page.inner_text("main")
    open_game(players.values(), server, game)

    # Spring 1901: a move and a support for France, England's fleet to sea, Austria to Bohemia.
    board(france, "par")
    board(france, "bur")
    given(france, "A Par - Bur")
    board(france, "mar")
    choose(france, "Support")
    board(france, "par")
    france.screenshot("a support half given")
    board(france, "bur")
    given(france, "A Mar S A Par - Bur")
    france.page.get_by_role("button", name="F Bre", exact=True).click()  # by the list
    board(france, "mid")
    given(france, "F Bre - Mid")
    for unit, to, order in (("lon", "nth", "F Lon - Nth"), ("lvp", "yor", "A Lvp - Yor")):
        board(england, unit)
        board(england, to)
        given(england, order)
    board(england, "edi")
    board(england, "nrg")
    given(england, "F Edi - Nrg")
    board(austria, "vie")
    board(austria, "boh")
    given(austria, "A Vie - Boh")
    france.screenshot("spring orders given")
    france.page.set_viewport_size({"width": 390, "height": 844})  # a phone
    france.screenshot("on a phone")
    france.page.set_viewport_size({"width": 1280, "height": 900})
    assert "A Mar S A Par - Bur" in france.page.inner_text("#hg-units")
    spring = {
        "France": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mid"],
        "England": ["F Lon - Nth", "A Lvp - Yor", "F Edi - Nrg"],
        "Austria": ["A Vie - Boh"],
    }
    for power, player in players.items():
        sees_no_secret(player, [o for p, os in spring.items() if p != power for o in os])
    england.screenshot("what england sees")

    for player in players.values():
        player.page.click("#hg-ready")
    moved_on(players.values(), "Fall 1901 Movement")
    germany.screenshot("fall, after spring's moves")

    # Fall 1901: a convoy to Norway; France into Munich, supported by Austria: a dislodgement.
    board(england, "nth")
    choose(england, "Convoy")
    board(england, "yor")
    board(england, "nwy")
    given(england, "F Nth C A Yor - Nwy")
    board(england, "yor")
    board(england, "nwy")
    given(england, "A Yor - Nwy")
    board(france, "bur")
    board(france, "mun")
    given(france, "A Bur - Mun")
    board(austria, "boh")
    choose(austria, "Support")
    board(austria, "bur")
    board(austria, "mun")
    given(austria, "A Boh S A Bur - Mun")
    board(germany, "mun")
    choose(germany, "Hold")
    given(germany, "A Mun H")
    england.screenshot("a convoy given")
    fall = {
        "England": ["F Nth C A Yor - Nwy", "A Yor - Nwy"],
        "France": ["A Bur - Mun"],
        "Austria": ["A Boh S A Bur - Mun"],
        "Germany": ["A Mun H"],
    }
    for power, player in players.items():
        sees_no_secret(player, [o for p, os in fall.items() if p != power for o in os])
    adjudicate(master, server, game)
    moved_on(players.values(), "Fall 1901 Retreat")

    # The German army dislodged from Munich retreats to the Ruhr.
    germany.screenshot("a retreat to give")
    board(germany, "mun")
    board(germany, "ruh")
    given(germany, "A Mun R Ruh")
    adjudicate(master, server, game)
    moved_on(players.values(), "Winter 1901 Adjustment")

    # Winter: France builds in Paris with one click; England picks a fleet in London.
    board(france, "par")
    given(france, "Build A Par")
    board(england, "lon")
    england.screenshot("a build to choose")
    choose(england, "Build F Lon")
    given(england, "Build F Lon")
    adjudicate(master, server, game)
    moved_on(players.values(), "Spring 1902 Movement")
    france.screenshot("spring 1902")

    # Every phase's board and report, with what was ordered and what came of it.
    france.page.click("text=Fall 1901 Movement")
    france.page.wait_for_selector("pre.report")
    report = france.page.inner_text("pre.report")
    assert "A Yor - Nwy" in report and "A Bur - Mun" in report
    assert "Dislodged by A Bur (2v1)" in report
    france.screenshot("fall 1901 results")
    units = france.page.locator("#hg-board svg, figure.board svg").first.inner_html()
    assert 'data-province="mun"' in units


def test_a_sub_saharan_bid_is_given_by_clicking_and_kept_secret(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game, (angola, ashanti) = at_table(
        browser, server, screenshots, "sub_saharan", "s_", "Angola", "Ashanti"
    )
    board(angola, "bra")  # Brazzaville's army: a minor power's, for bids
    angola.screenshot("a minor power's unit")
    choose(angola, "Bid on A Bra")
    angola.page.get_by_label("Diplomacy Points to bid").fill("2")
    board(angola, "cho")
    angola.screenshot("a bid to give")
    choose(angola, "A Bra - Cho")
    given(angola, "2: A Bra - Cho")
    assert "2: A Bra - Cho" in angola.page.inner_text("#hg-given").splitlines()
    ashanti.page.reload()
    ashanti.screenshot("ashanti sees no bid")
    sees_no_secret(ashanti, ["2: A Bra - Cho"])
    game.master.ok("post", f"{game.path}/adjudicate", {})
    ashanti.page.goto(f"{server.url}/games/{game.id}/phases/1")
    ashanti.page.wait_for_selector("pre.report")
    sees_no_secret(ashanti, ["2: A Bra - Cho"])  # bids stay secret until the game ends


def test_a_bid_the_bidders_own_attack_voids_is_warned_on_its_page(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    """Sub-Saharan's Attacking & Allocating rule (8.0): Yeke attacks Kasongo, then bids for
    Kasongo's army; the bid is stored, and the page warns that it will be ignored."""
    _, (yeke,) = at_table(browser, server, screenshots, "sub_saharan", "w_", "Yeke")
    board(yeke, "mwa")
    board(yeke, "kas")
    given(yeke, "A Mwa - Kas")
    board(yeke, "kas")
    choose(yeke, "Bid on A Kas")
    yeke.page.get_by_label("Diplomacy Points to bid").fill("2")
    board(yeke, "kam")
    choose(yeke, "A Kas - Kam")
    given(yeke, "2: A Kas - Kam")
    warning = yeke.page.locator("#hg-given li.warning")
    assert warning.inner_text().startswith("Warning: 2: A Kas - Kam: ignored at adjudication")
    yeke.page.locator("#hg-given").scroll_into_view_if_needed()
    yeke.screenshot("a bid warned")
    yeke.page.set_viewport_size({"width": 390, "height": 844})  # a phone
    yeke.page.locator("#hg-given li.warning").scroll_into_view_if_needed()
    yeke.screenshot("a bid warned, on a phone")


def test_a_europe_1615_deployment_is_given_by_clicking_and_kept_secret(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    _, (france, spain) = at_table(
        browser, server, screenshots, "europe_1615", "e_", "France", "Spain"
    )
    hint = france.page.inner_text("#hg-hint")  # the states to deploy in are outlined
    assert "or a province outlined on the board (Deploy INFs, Waive a capture)" in hint, hint
    assert france.page.locator("#hg-board svg .province.target#lor").count() == 1
    board(france, "lor")  # Lorraine, a minor state
    france.page.get_by_label("INFs to deploy to LOR").fill("2")
    france.screenshot("INFs to deploy")
    choose(france, "Deploy INFs")
    given(france, "2: LOR")
    assert "INFs left: 66 of 68" in france.page.inner_text("#hg-purses")
    board(france, "bav")
    assert france.page.get_by_role("button", name="Attack").count() == 0  # none offered yet
    france.page.fill("#hg-order", "BAV > Spain")  # written, refused, and the page says why
    france.page.click("#hg-write button")
    france.page.wait_for_selector("#hg-message.bad")
    assert "no diplomatic attacks in the first movement phase" in france.page.inner_text(
        "#hg-message"
    )
    france.screenshot("an attack refused")
    assert france.page.inner_text("#hg-given").splitlines()[:2] == ["Other orders", "2: LOR"]
    spain.page.reload()
    spain.screenshot("spain sees no INF")
    sees_no_secret(spain, ["2: LOR", "BAV > Spain"])


def test_african_placements_and_spending_are_given_by_clicking(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    _, (blue,) = at_table(browser, server, screenshots, "african_diplomacy_ii", "a_", "Blue")
    moved_on([blue], "Placement")  # the draw of lots awaits nobody: the worker plays it
    board(blue, "aby")  # a click in turn places the army; the list for turns to come
    given(blue, "Place A Aby")  # is opened from the panel
    blue.screenshot("an army placed")
    choose(blue, "Ranked list for its turns")
    assert "best first" in blue.page.inner_text("#hg-hint")
    africa, (britain,) = at_table(browser, server, screenshots, "africa_ii", "i_", "Britain")
    # The Spring moves first: Britain's intervention units off the board might enter it.
    africa.master.ok("post", f"{africa.path}/adjudicate")
    moved_on([britain], "Spring 1961 Influence")
    board(britain, "kis")  # Kisumu, in Kenya
    britain.page.get_by_label("IPs to spend on Kenya").fill("3")
    britain.screenshot("IPs to spend")
    choose(britain, "Spend IPs")
    given(britain, "3: Kenya")
