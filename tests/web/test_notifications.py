"""Notifications in the browser: a player chooses on the account page what mail they are
told by, kept when the page is read again, and a mail's unsubscribe link turns one kind
off; the game master adds a webhook on the master page, sees its secret, and removes it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from hegemon.server.notify import signing
from hegemon.server.table import find_user
from tests.server.conftest import seated_game
from tests.web.conftest import LiveServer, open_player

WIDE = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BOTS = ("Austria", "Germany", "Italy", "Russia", "Turkey")
HOOK = "http://127.0.0.1:9/hegemon-hook"  # loopback, allowed for this test: nothing listens


def test_the_account_page_sets_mail_and_the_master_page_webhooks(
    browser: Any, server: LiveServer, screenshots: Path
) -> None:
    game = seated_game(server.client, "classic", free=BOTS, prefix="nt_", fill_with_bots=True)
    france = open_player(browser, server, "nt_france", screenshots)
    page = france.page
    page.set_viewport_size(WIDE)
    page.goto(f"{server.url}/account")
    form = page.locator("#hg-notices")
    assert "This server sends no mail yet" in form.inner_text()  # no SMTP server set here
    page.fill("#hg-email", "france@example.org")
    form.get_by_label("A phase adjudicated").check()
    form.get_by_label("New press, gathered in a digest").check()
    page.fill("#hg-notice-hours", "6")
    form.get_by_role("button", name="Save").click()
    page.wait_for_selector("#hg-message:has-text('Saved: mail goes to france@example.org')")
    form.scroll_into_view_if_needed()
    france.screenshot("mail chosen")
    page.set_viewport_size(PHONE)
    page.reload()
    assert page.input_value("#hg-email") == "france@example.org"
    assert page.input_value("#hg-notice-hours") == "6"
    checked = page.locator("#hg-notices input[name=events]:checked")
    assert [checked.nth(i).get_attribute("value") for i in range(checked.count())] == [
        "adjudicated", "press"
    ]  # fmt: skip
    page.locator("#hg-notices").scroll_into_view_if_needed()
    france.screenshot("mail kept, on a phone")

    with server.store.reading() as session:
        user_id = find_user(session, "nt_france").id
    key = signing.server_key(server.store, server.client.app.state.notify.secret_key)  # type: ignore[attr-defined]
    token = signing.unsubscribe_token(key, signing.Unsubscribe(user_id, "press"))
    page.goto(f"{server.url}/unsubscribe/{token}")
    assert "Done: no more mail when new press" in page.inner_text("main")
    france.screenshot("unsubscribed")
    assert server.client.get(f"/unsubscribe/{token}x").status_code == 404

    settings = server.client.app.state.notify  # type: ignore[attr-defined]
    server.client.app.state.notify = replace(settings, webhooks_private=True)  # type: ignore[attr-defined]
    try:
        master = open_player(browser, server, "nt_gm", screenshots)
        master.page.set_viewport_size(WIDE)
        master.page.goto(f"{server.url}/games/{game.id}/master")
        section = master.page.locator("#hg-webhooks")
        master.page.fill("#hg-webhook-url", "gopher://example.org/")
        section.get_by_role("button", name="Add").click()
        master.page.wait_for_selector("#hg-webhook-message:has-text('expected an http')")
        master.page.fill("#hg-webhook-url", HOOK)
        section.get_by_role("button", name="Add").click()
        row = master.page.locator("#hg-webhooks tr[data-webhook]")
        row.wait_for()
        assert HOOK in row.inner_text() and len(row.locator("code.secret").inner_text()) == 64
        assert master.page.input_value("#hg-webhook-url") == ""  # ready for another
        master.page.locator("#hg-webhooks").scroll_into_view_if_needed()
        master.screenshot("a webhook added")
        master.page.set_viewport_size(PHONE)
        master.page.locator("#hg-webhooks").scroll_into_view_if_needed()
        master.screenshot("a webhook, on a phone")
        master.page.get_by_role("button", name=f"Remove the webhook {HOOK}").click()
        master.page.wait_for_selector("#hg-webhooks p:has-text('None.')")
    finally:
        server.client.app.state.notify = settings  # type: ignore[attr-defined]
