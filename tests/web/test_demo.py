"""The demo in the browser (issue 26): a newcomer signs in once, with the one account
`hegemon serve --demo` prints, and plays France for three phases against six bots by
clicking on the board; each time the six bots' orders are in, and they are ready, before
the deadline, and nothing the newcomer's page received shows one of their orders before
the phase is played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select

from hegemon.orders import Waive
from hegemon.server import demo
from hegemon.store import models
from hegemon.store.models import now
from tests.server.conftest import CHEAP, User
from tests.web.conftest import LiveServer, Player, open_player
from tests.web.test_browser import board, choose, given, moved_on, sees_no_secret

BOTS = ("Austria", "England", "Germany", "Italy", "Russia", "Turkey")


def bots_ready(france: Player) -> None:
    """The page, reading the game's progress as it does every few seconds, shows each bot
    the phase awaits ready (a bot with nothing to order, "—"), the deadline still to
    come."""
    france.page.wait_for_function(
        """bots => bots.every(power => ["ready", "—"].includes(
             document.querySelector(`tr[data-seat='${power}'] .state`).textContent.trim()))""",
        arg=list(BOTS),
        timeout=20000,
    )
    assert "passed" not in france.page.inner_text("time.countdown")


def bots_orders(server: LiveServer, game_id: int, shown: set[str]) -> list[str]:
    """The bots' orders stored for the phase, which France must not be shown, but for those
    whose text France has been shown rightly: an order of a phase played, in its report,
    and an order of France's own menu in an earlier phase (France's fleet in Brest was
    offered "F Bre H" in Spring 1901, and England's fleet there may hold a year on)."""
    # A waived build names no unit or site: every power writes it alike, and France's own
    # builds list it, so it tells France nothing.
    known = shown | {Waive().format()}
    with server.store.reading() as session:
        played = session.scalars(select(models.Phase).where(models.Phase.game_id == game_id))
        known |= {order for row in played for orders in row.orders.values() for order in orders}
        rows = session.scalars(
            select(models.Pending).where(
                models.Pending.game_id == game_id, models.Pending.power.in_(BOTS)
            )
        )
        return [order for row in rows for order in row.orders if order not in known]


def offered(france: Player) -> set[str]:
    """The orders the page's menu offers France this phase: its own to be shown."""
    data = france.page.evaluate("JSON.parse(document.getElementById('hg-data').textContent)")
    return {c["text"] for form in data["choices"]["forms"] for c in form["choices"]}


def test_a_newcomer_plays_france_against_six_bots(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    password = demo.seed_against_bots(server.store, CHEAP, now(), "classic", "France")["france"]
    france = open_player(browser, server, "france", screenshots, password)
    france.screenshot("my games")
    # The game's page is the first board this server draws, which takes a while on a
    # busy machine: the navigation's own time bound, not a click's.
    with france.page.expect_navigation():
        france.page.click("a:has-text('Demo: France against bots')", no_wait_after=True)
    france.page.wait_for_selector("#hg-board svg")
    game_id = int(france.page.url.rstrip("/").rsplit("/", 1)[1])
    france.page.evaluate("window.hgSamePage = true")
    assert france.page.locator("td .badge.bot").count() == len(BOTS)

    # Spring 1901: into Spain and the Mid-Atlantic; Paris holds.
    bots_ready(france)
    shown = offered(france)
    board(france, "mar")
    board(france, "spa")
    given(france, "A Mar - Spa")
    board(france, "bre")
    board(france, "mid")
    given(france, "F Bre - Mid")
    board(france, "par")
    choose(france, "Hold")
    given(france, "A Par H")
    spring = bots_orders(server, game_id, shown)
    assert len(spring) == 19  # no order shown yet: each of the bots' units' is a secret
    sees_no_secret(france, spring)
    france.screenshot("spring orders, the bots ready")
    france.page.set_viewport_size({"width": 390, "height": 844})  # a phone
    france.screenshot("on a phone")
    france.page.locator("#hg-powers-title").scroll_into_view_if_needed()
    france.screenshot("the powers on a phone")
    france.page.set_viewport_size({"width": 1280, "height": 900})
    france.page.click("#hg-ready")
    moved_on([france], "Fall 1901 Movement")

    # Fall 1901: on to Portugal; Spain and Paris hold. Nothing can stop either this year.
    bots_ready(france)
    shown |= offered(france)
    board(france, "mid")
    board(france, "por")
    given(france, "F Mid - Por")
    for unit in ("spa", "par"):
        board(france, unit)
        choose(france, "Hold")
        given(france, f"A {unit.title()} H")
    sees_no_secret(france, bots_orders(server, game_id, shown))
    france.screenshot("fall orders")
    france.page.click("#hg-ready")

    # The third phase France plays: a build in Winter, if its centres gained outnumber
    # those the bots took (Spain and Portugal are sure; Brest and Marseilles were left
    # open), else the Spring's moves; either way, the first order its menu offers.
    france.page.wait_for_selector("#hg-phase:not(:has-text('Fall 1901 Movement'))", timeout=30000)
    france.page.wait_for_selector("#hg-orders-title", timeout=30000)
    assert france.page.evaluate("window.hgSamePage === true"), "the page was loaded again"
    third = france.page.inner_text("#hg-phase")
    bots_ready(france)
    shown |= offered(france)
    france.screenshot("the third phase")
    france.page.locator("#hg-units button.unit-choice").first.click()
    france.screenshot("the third phase, an order to choose")
    choice = france.page.locator("#hg-candidates button.order-choice").first
    order = choice.inner_text()
    choice.click()
    given(france, order)
    sees_no_secret(france, bots_orders(server, game_id, shown))
    france.page.click("#hg-ready")
    france.page.wait_for_selector(f"#hg-phase:not(:has-text('{third}'))", timeout=30000)
    france.screenshot("after three phases")
    played = france.page.locator("ol.phases li").all_inner_texts()
    assert played[-2:] == ["Fall 1901 Movement", "Spring 1901 Movement"] and third in played


def test_a_game_master_makes_a_game_of_bots_from_the_pages(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    """The new game's page (its press policy chosen there), its seats left empty given to
    bots when its game master starts it from the game master's page."""
    gm = User(server.client, "n_gm")
    master = open_player(browser, server, "n_gm", screenshots)
    # The gallery's thumbnails are not this test's: not drawn (each board's territories
    # would be derived afresh, tests/conftest.py), their place left empty.
    master.page.route("**/thumbnail.svg", lambda route: route.abort())
    master.page.click("a:has-text('Create a game')")
    master.page.check("input[name=variant][value=classic]")
    master.page.fill("#hg-title", "Bots at play")
    master.page.get_by_label("Fill the seats still empty when it starts with bots").check()
    master.page.select_option("#hg-press", "public")
    master.page.get_by_label("Public press may be grey (anonymous)").check()
    master.screenshot("a new game")
    master.page.click("#hg-new-game button.primary")
    master.page.wait_for_selector("h1:has-text('Bots at play: the game master')")
    game_id = int(master.page.url.split("/games/")[1].split("/")[0])
    press = gm.ok("get", f"/api/games/{game_id}")["press"]
    assert press == {"mode": "public", "grey": True, "other_phases": True, "master_reads": False}
    master.page.click("form[data-action=start] button")
    master.page.wait_for_selector("#hg-message:has-text('Done: start')")
    master.screenshot("started, every seat a bot's")
    assert master.page.locator("td .badge.bot").count() == len(BOTS) + 1
