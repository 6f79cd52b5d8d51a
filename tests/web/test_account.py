"""The account page, and where signing in leads: only ever to a path of this site (a list
of the ways browsers are known to be led elsewhere), never another site; in the browser,
a password changed and every session signed out from the account page, on a desktop and a
phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import PASSWORD, User, seated_game
from tests.web.conftest import LiveServer, open_player

NEW_PASSWORD = "seven tame ravens"


ELSEWHERE = [
    "//evil.example/x",
    "///evil.example/x",
    "/\\evil.example/x",
    "/\\/evil.example/x",
    "\\\\evil.example/x",
    "/\tevil.example/x",
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example",
    "/ /evil.example",
    "/\x00/evil.example",
    "/\u2028/evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "games/1",
    "",
]


@pytest.mark.parametrize("wanted", ELSEWHERE)
def test_signing_in_never_leads_to_another_site(client: TestClient, wanted: str) -> None:
    page = client.get("/signin", params={"next": wanted}).text
    assert re.search(r'data-next="([^"]*)"', page)[1] == "/"  # type: ignore[index]


@pytest.mark.parametrize(
    "wanted",
    [
        "/",
        "/games/3",
        "/games/3?power=France",
        "/games/3/phases/2",
        "/account",
        "/%2F%2Fevil.example",  # a path of this site: a browser keeps %2F as it is
        "/%5Cevil.example",
    ],
)
def test_signing_in_leads_back_to_a_path_of_this_site(client: TestClient, wanted: str) -> None:
    page = client.get("/signin", params={"next": wanted}).text
    shown = re.search(r'data-next="([^"]*)"', page)[1]  # type: ignore[index]
    assert shown == wanted.replace("&", "&amp;")


def test_the_account_page_needs_signing_in_and_is_linked_from_every_page(
    client: TestClient,
) -> None:
    answer = client.get("/account", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/signin?next=/account"
    User(client, "kim")
    client.post("/api/sessions", json={"name": "kim", "password": PASSWORD, "cookie": True})
    for path in ("/", "/account"):
        page = client.get(path).text
        assert '<a href="/account">Account</a>' in page
    page = client.get("/account").text
    assert 'id="hg-password-change"' in page and 'id="hg-everywhere"' in page
    assert 'minlength="10"' in page and "Signed in as <strong>kim</strong>" in page


def test_a_password_changed_and_every_session_signed_out_in_the_browser(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    User(server.client, "lena")
    laptop = open_player(browser, server, "lena", tmp_path)
    phone = open_player(browser, server, "lena", tmp_path)
    page = laptop.page
    page.click("a[href='/account']")
    page.wait_for_selector("h1:has-text('Account')")
    page.fill("#hg-current", "not the password")
    page.fill("#hg-new", NEW_PASSWORD)
    page.click("#hg-password-change button")
    page.wait_for_selector("#hg-message.bad")
    assert "current: not the account's password" in page.inner_text("#hg-message")
    page.fill("#hg-current", PASSWORD)
    page.fill("#hg-new", "password2024")
    page.click("#hg-password-change button")
    page.wait_for_selector("#hg-message:has-text('common')")
    page.fill("#hg-new", NEW_PASSWORD)
    page.click("#hg-password-change button")
    page.wait_for_selector("#hg-message:has-text('Password changed')")
    # The phone's, and the one `User` signed in with when it made the account.
    assert page.inner_text("#hg-message") == "Password changed; 2 other sessions signed out."
    laptop.screenshot("account desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    laptop.screenshot("account phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    phone.page.goto(server.url + "/account")  # the other session is over
    phone.page.wait_for_selector("h1:has-text('Sign in')")
    assert "next=/account" in phone.page.url
    _sign_in(phone.page, NEW_PASSWORD)
    phone.page.wait_for_selector("h1:has-text('Account')")  # back where it was going

    page.click("#hg-everywhere button")
    page.wait_for_selector("h1:has-text('Sign in')")
    phone.page.reload()
    phone.page.wait_for_selector("h1:has-text('Sign in')")
    shots = sorted(path.name for path in tmp_path.glob("lena-*.png"))
    assert any("account-desktop" in shot for shot in shots), shots
    assert any("account-phone" in shot for shot in shots), shots


def _sign_in(page: Any, password: str) -> None:
    page.fill("#hg-name", "lena")
    page.fill("#hg-password", password)
    page.click("button.primary")


def test_a_newcomer_observes_a_game_and_the_game_master_gives_them_a_seat(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    """A seat goes only to one who observes the game: from the game's page, which offers
    an outsider to observe it, to the master page, which lists those who observe."""
    game = seated_game(server.client, "classic", prefix="o_", seed=3)
    User(server.client, "o_newcomer")
    newcomer = open_player(browser, server, "o_newcomer", tmp_path)
    master = open_player(browser, server, "o_gm", tmp_path)
    master.page.goto(f"{server.url}/games/{game.id}/master")
    assert master.page.inner_text("#hg-replace-user") == "o_watcher"  # who observes so far

    newcomer.page.goto(f"{server.url}/games/{game.id}")
    assert "you take no part" in newcomer.page.inner_text("main")
    newcomer.screenshot("observe offered")
    newcomer.page.click("#hg-observe button")
    newcomer.page.wait_for_selector("#hg-board svg", timeout=60000)

    master.page.reload()
    assert master.page.inner_text("#hg-replace-user").split() == ["o_watcher", "o_newcomer"]
    master.page.select_option("#hg-replace-power", "Italy")
    master.page.select_option("#hg-replace-user", "o_newcomer")
    master.page.click("form[data-action=replace] button")
    master.page.wait_for_selector("#hg-message:has-text('Done: replace')")
    master.screenshot("a seat given")
    newcomer.page.reload()
    newcomer.page.wait_for_selector("#hg-board svg", timeout=60000)
    assert "Italy" in newcomer.page.inner_text("main")
