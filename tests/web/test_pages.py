"""The pages without a browser: who may see which page, what a page holds for each
viewer, the CSRF token beside the session cookie, and where signing in leads."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from hegemon.server import auth, worker
from tests.server.conftest import PASSWORD, Seated, User, seated_game


def browser_of(client: TestClient, user: User) -> TestClient:
    """A client signed in by the session cookie, as a browser is."""
    answer = client.post(
        "/api/sessions", json={"name": user.name, "password": PASSWORD, "cookie": True}
    )
    assert answer.status_code == 201, answer.text
    return client


def page_data(html: str) -> Any:
    found = re.search(r'<script type="application/json" id="hg-data">(.*?)</script>', html, re.S)
    assert found, "the page holds no data for its script"
    return json.loads(found.group(1))


def test_pages_ask_to_sign_in_first_and_lead_back(client: TestClient) -> None:
    answer = client.get("/games/1", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/signin?next=/games/1"
    page = client.get("/signin?next=/games/1").text
    assert 'data-next="/games/1"' in page
    for elsewhere in ("//evil.example/x", "https://evil.example/"):
        assert 'data-next="/"' in client.get("/signin", params={"next": elsewhere}).text


def test_a_game_page_holds_the_players_own_orders_and_nobody_elses(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=1)
    game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A par - bur"]})
    game.players["Germany"].ok("post", f"{game.path}/orders", {"orders": ["A mun - ruh"]})
    browser = browser_of(client, game.players["France"])
    answer = browser.get(f"/games/{game.id}")
    assert answer.status_code == 200
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    data = page_data(answer.text)
    assert data["pending"]["orders"] == ["A Par - Bur"]
    assert sorted(f["title"] for f in data["choices"]["forms"]) == ["A Mar", "A Par", "F Bre"]
    assert '"A Mun - Ruh"' not in answer.text and "A Mun - Ruh<" not in answer.text
    par = next(f for f in data["choices"]["forms"] if f["title"] == "A Par")
    assert par["unit"] == "par" and par["given"] == "A Par - Bur"
    assert {"text": "A Par - Bur", "kind": "move", "clicks": ["bur"]} in par["choices"]
    support = {"text": "A Par S A Mar - Bur", "kind": "support", "clicks": ["mar", "bur"]}
    assert support in par["choices"]


def test_the_csrf_token_on_the_page_is_the_one_changes_need(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=1)
    browser = browser_of(client, game.players["Italy"])
    html = browser.get(f"/games/{game.id}").text
    token = re.search(r'<meta name="csrf-token" content="([0-9a-f]{64})">', html)
    assert token and token.group(1) == auth.csrf_token(browser.cookies[auth.COOKIE])
    path = f"/api/games/{game.id}/orders"
    refused = browser.post(path, json={"orders": ["A ven H"]})
    assert refused.status_code == 403 and "X-CSRF-Token" in refused.json()["detail"]
    stored = browser.post(
        path, json={"orders": ["A ven H"]}, headers={"X-CSRF-Token": token.group(1)}
    )
    assert stored.json()["orders"] == ["A Ven H"]


def _pages(game: Seated) -> list[str]:
    return [f"/games/{game.id}", f"/games/{game.id}/phases/1", f"/games/{game.id}/master"]


def test_each_page_is_shown_to_whom_it_concerns(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=1)
    game.master.ok("post", f"{game.path}/adjudicate", {})
    game_page, phase_page, master_page = _pages(game)
    outsider = browser_of(client, game.outsider)
    for path in (game_page, phase_page, master_page):
        answer = outsider.get(path)
        assert answer.status_code == 403 and "take no part" in answer.text
    player = browser_of(client, game.players["Russia"])
    assert player.get(phase_page).status_code == 200
    assert "Spring 1901 Movement" in player.get(phase_page).text
    refused = player.get(master_page)
    assert refused.status_code == 403 and "only the game master" in refused.text
    master = browser_of(client, game.master)
    assert "Adjudicate Fall 1901 Movement" in master.get(master_page).text
    assert master.get(f"/games/{game.id}/phases/9").status_code == 404


def test_my_games_say_whose_orders_are_due(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=1)
    game.players["England"].ok("post", f"{game.path}/orders", {"orders": ["F lon H"]})
    assert "Your orders are due" not in browser_of(client, game.players["England"]).get("/").text
    assert "Your orders are due" in browser_of(client, game.players["Turkey"]).get("/").text


def test_a_game_the_server_paused_says_why_on_its_pages(client: TestClient) -> None:
    policy = {"deadlines": {"other": 1}, "pause_after": 1}
    game = seated_game(client, "classic", seed=1, policy=policy)
    time.sleep(1.1)  # the deadline passes with nobody ordering
    app = client.app
    assert isinstance(app, FastAPI)
    assert worker.run_due(app.state.store) == 0  # paused, not played
    browser = browser_of(client, game.players["France"])
    reason = "Paused by the server: no orders by the last deadline; its game master may resume it"
    assert reason in browser.get(f"/games/{game.id}").text
    browser_of(client, game.master)
    assert reason in browser.get(f"/games/{game.id}/master").text


def _composer(client: TestClient, game: Seated, user: User) -> str:
    """The press panel's composer on the user's page of the game ('' if it has none)."""
    page = browser_of(client, user).get(f"/games/{game.id}").text
    found = re.search(r'<form id="hg-compose".*?</form>', page, re.S)
    return found.group(0) if found else ""


def test_the_press_composer_offers_what_the_policy_allows_each_member(client: TestClient) -> None:
    full = seated_game(client, "classic", prefix="f_", seed=1)
    composer = _composer(client, full, full.players["France"])
    recipients = re.findall(r'name="to" value="([^"]+)"', composer)
    assert recipients == ["Austria", "England", "Germany", "Italy", "Russia", "Turkey", "master"]
    assert 'name="public"' in composer and 'name="grey"' not in composer  # grey: not allowed
    assert 'style="background: #' in composer  # each power's swatch, in its board colour
    assert _composer(client, full, full.observer) == ""  # observers read
    grey = seated_game(client, "classic", prefix="y_", policy={"press": {"grey": True}})
    assert 'name="grey"' in _composer(client, grey, grey.players["Italy"])
    assert 'name="grey"' not in _composer(client, grey, grey.master)  # the master signs
    public = seated_game(client, "classic", prefix="u_", policy={"press": {"mode": "public"}})
    composer = _composer(client, public, public.players["Italy"])
    assert re.findall(r'name="to" value="([^"]+)"', composer) == ["master"]
    assert (
        "Public press only"
        in browser_of(client, public.players["Italy"]).get(f"/games/{public.id}").text
    )


def test_a_forming_game_names_its_variant_and_its_free_seats(client: TestClient) -> None:
    """The variant by the name players know (not its id), on the game's page and in the
    lists; a seat nobody took in a forming game is free, not awaited."""
    master = User(client, "gm")
    game = master.ok("post", "/api/games", {"variant": "europe_1615"})
    england = User(client, "england")
    england.ok("post", f"/api/games/{game['id']}/join", {"power": "England"})
    browser = browser_of(client, england)
    page = browser.get(f"/games/{game['id']}").text
    assert "<span>Europe 1615: Prelude to War</span>" in page and "europe_1615" not in page
    states = dict(re.findall(r'data-seat="([^"]+)">.*?<td class="state">([^<]*)</td>', page, re.S))
    free = {power: "free seat" for power in game["powers"] if power != "England"}
    assert states == {"England": "joined", **free}
    games = browser.get("/").text
    assert "Europe 1615: Prelude to War ·" in games
    assert '<span class="variant-name">Diplomacy</span>' in browser.get("/games/new").text


def test_a_private_games_page_shows_its_members_the_invitation_link(client: TestClient) -> None:
    """The game's page gave no way to find a private game's invitation again: it shows
    the link to its members while the game goes on, as the invitation's own page does."""
    creator = User(client, "pv_host")
    game = creator.ok(
        "post", "/api/games", {"variant": "classic", "private": True, "play_as": "France"}
    )
    link = f"/join/{game['invitation']}"
    page = browser_of(client, creator).get(f"/games/{game['id']}").text
    assert re.search(rf'id="hg-invitation" readonly value="http://[^"]+{link}"', page)
    outsider = browser_of(client, User(client, "pv_outsider")).get(f"/games/{game['id']}")
    assert game["invitation"] not in outsider.text
