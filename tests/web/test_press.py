"""Press in the browser: three players of a classic game, each in a browser of their own.
England writes privately to France and France answers, live, while Germany's browser
receives nothing of it (not in a page, not in an answer to its scripts, not in an event
of its live stream); England's public message reaches all three within a second, without
a reload. Messages are text: script tags, attribute injection, a right-to-left override
and a 5,000-character word are shown as written, run nothing and leave the panel as wide
as it was."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.conftest import Seated, seated_game
from tests.web.conftest import LiveServer, Player, open_player

WIDE = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def streamed(player: Player) -> list[str]:
    """Every event the player's browser receives on a live stream from now on, as sent
    (Chromium's own record of the stream, whatever the page's script makes of it)."""
    events: list[str] = []
    devtools = player.page.context.new_cdp_session(player.page)
    devtools.on("Network.eventSourceMessageReceived", lambda event: events.append(event["data"]))
    devtools.send("Network.enable")
    return events


def at_game(player: Player, server: LiveServer, game: Seated) -> None:
    player.page.set_viewport_size(WIDE)
    player.page.goto(f"{server.url}/games/{game.id}")
    player.page.wait_for_selector("#hg-board svg")
    player.page.evaluate("window.hgSamePage = true")  # gone if the page is loaded again
    player.page.click("#hg-tab-press")
    player.page.wait_for_selector("#hg-thread .empty, #hg-thread .note")


def write(player: Player, text: str, *to: str) -> None:
    """A message written in the panel to `to` (everyone if none), and sent."""
    page = player.page
    everyone = page.locator("#hg-compose input[name=public]")
    if everyone.count():  # none to check where there is no public press
        everyone.check()  # and none of the recipients checked before
    for power in to:
        page.check(f"#hg-compose input[name=to][value='{power}']")
    page.fill("#hg-text", text)
    page.click("#hg-compose button[type=submit]")
    page.wait_for_selector("#hg-press-message:not(:has-text('Sending'))")


def shown(player: Player, text: str, timeout: float = 5000) -> None:
    """Wait until the thread shows a message whose text is exactly `text`."""
    player.page.wait_for_function(
        "text => [...document.querySelectorAll('#hg-thread .text')]"
        ".some((shown) => shown.textContent === text)",
        arg=text,
        timeout=timeout,
    )


def conversation(player: Player, title: str) -> None:
    player.page.click(f"#hg-conversations button:has-text('{title}')")


def unread(player: Player) -> str:
    count = player.page.locator("#hg-unread")
    return count.inner_text() if count.is_visible() else ""


def received_nothing_of(player: Player, events: list[str], secrets: list[str]) -> None:
    """No page, answer or event the player's browser received holds any of `secrets`."""
    page = player.page.content()
    for secret in secrets:
        assert secret not in page, f"{player.name}'s page shows {secret!r}"
        for answer in player.answers:
            assert secret not in answer.text, f"{player.name} was sent {secret!r} by {answer.url}"
        for event in events:
            assert secret not in event, f"{player.name}'s stream carried {secret!r}: {event}"


def test_private_press_reaches_its_readers_alone_and_public_press_everyone_live(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", prefix="p_", seed=5)
    england, france, germany = (
        open_player(browser, server, f"p_{power}", screenshots)
        for power in ("england", "france", "germany")
    )
    stream = {player.name: streamed(player) for player in (england, france, germany)}
    for player in (england, france, germany):
        at_game(player, server, game)

    offer = "Private offer 7f3a: Belgium for you, Holland for me"
    write(england, offer, "France")
    shown(england, offer)
    assert england.page.inner_text("#hg-thread-title") == "With France"
    france.page.wait_for_selector("#hg-unread:has-text('1')")  # live, on the tab
    conversation(france, "With England")
    shown(france, offer)
    france.page.wait_for_selector("#hg-unread", state="hidden")  # read once shown
    answer = "Agreed 7f3a, and keep out of the Channel"
    write(france, answer, "England")
    shown(england, answer)
    france.screenshot("a private conversation")

    public = "To all: a peaceful spring 9c2e"
    conversation(france, "Public press")
    conversation(germany, "Public press")
    write(england, public)
    shown(england, public)
    sent = time.monotonic()
    for reader in (france, germany):
        shown(reader, public, timeout=1000)
    assert time.monotonic() - sent < 1.5  # both within a second (give or take the asking)
    for player in (england, france, germany):
        assert player.page.evaluate("window.hgSamePage === true"), f"{player.name} reloaded"
    assert any(public in event for event in stream[germany.name])  # the stream recorded
    germany.page.reload()  # Germany's pages, drawn afresh, hold no word of it either
    germany.page.click("#hg-tab-press")
    shown(germany, public)
    germany.screenshot("the public press")
    received_nothing_of(germany, stream[germany.name], [offer, answer, "England,France"])

    england.screenshot("press beside the board")
    england.page.set_viewport_size(PHONE)
    england.page.locator("#hg-tabs").scroll_into_view_if_needed()
    england.screenshot("press on a phone")


HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "\u202eexe.txt the order is reversed",
    "W" * 5000,
]


def test_messages_are_text_whatever_they_hold(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", prefix="x_", seed=5)
    writer, reader = (
        open_player(browser, server, f"x_{power}", screenshots) for power in ("italy", "turkey")
    )
    dialogs: list[str] = []

    def dismissed(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    for player in (writer, reader):
        player.page.on("dialog", dismissed)
        at_game(player, server, game)
    width = reader.page.locator(".panel").bounding_box()["width"]
    for text in HOSTILE:
        write(writer, text)
        shown(writer, text)
        shown(reader, text)
    after = "And this line reads left to right"
    write(writer, after)
    shown(reader, after)

    page = reader.page
    assert not dialogs, f"a message ran a script: {dialogs}"
    assert page.locator("#hg-thread img, #hg-thread script").count() == 0
    texts = page.locator("#hg-thread .text").all_inner_texts()
    assert texts[-5:] == [*HOSTILE, after]  # as written, every character
    assert page.locator(".panel").bounding_box()["width"] == width
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    for note in page.locator("#hg-thread .text").all():
        assert note.get_attribute("dir") == "auto"
        assert note.evaluate("node => getComputedStyle(node).unicodeBidi") == "isolate"
    # The message after the override is still laid out left to right: its first word at
    # the left of its box, as the one before it.
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#hg-thread .text')].slice(-3).map((node) => {
            const range = document.createRange();
            range.setStart(node.firstChild, 0);
            range.setEnd(node.firstChild, 1);
            return range.getBoundingClientRect().left - node.getBoundingClientRect().left;
        })"""
    )
    assert boxes[-1] < 5, f"the first letter after the override is at {boxes[-1]}px"
    page.locator("#hg-thread .note").nth(-3).scroll_into_view_if_needed()
    reader.screenshot("hostile messages shown as text")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.evaluate("document.getElementById('hg-thread').scrollTop = 0")  # the first ones
    page.evaluate("document.getElementById('hg-thread-title').scrollIntoView()")
    page.wait_for_timeout(300)  # drawn, after a screen's worth of a 5,000-letter word
    reader.screenshot("hostile messages on a phone")
    assert not dialogs


def test_a_gunboat_game_offers_only_the_game_master_and_a_refusal_says_why(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(
        server.client, "classic", prefix="g_", seed=5, policy={"press": {"mode": "none"}}
    )
    austria = open_player(browser, server, "g_austria", screenshots)
    at_game(austria, server, game)
    page = austria.page
    assert "No press between powers (gunboat)" in page.inner_text("#hg-press")
    assert page.locator("#hg-compose input[name=public]").count() == 0
    assert page.locator("#hg-compose input[name=to]").evaluate_all(
        "boxes => boxes.map((box) => [box.value, box.checked])"
    ) == [["master", True]]  # no power to write to; the game master addressed
    write(austria, "Is the deadline extended?", "master")
    shown(austria, "Is the deadline extended?")
    assert page.inner_text("#hg-thread-title") == "With Game master"
    austria.screenshot("gunboat: the game master only")
    # The game master reads it on the list of games, and mutes Austria: the next message
    # is refused, and the panel says why, as the server does.
    master = open_player(browser, server, "g_gm", screenshots)
    line = master.page.locator(f".game-line:has(a[href='/games/{game.id}'])")
    assert line.locator(".badge.unread").inner_text() == "1 unread message"
    game.master.ok("post", f"{game.path}/mute", {"power": "Austria", "muted": True})
    write(austria, "Hello?", "master")
    refusal = page.locator("#hg-press-message.bad")
    assert "the game master has muted you in this game" in refusal.inner_text()
    austria.screenshot("a message refused")
