"""The lobby's pages without a browser: the new game's form shows each variant's options
with their types and ranges; the lobby hides a private game from all but its members and
never names an anonymous game's players; a variant's thumbnail is small, kept by
browsers, and refused for a variant that does not exist."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ElementTree

from fastapi.testclient import TestClient

from hegemon.render import palette
from hegemon.variants import load_variant
from tests.server.conftest import User
from tests.web.test_pages import browser_of


def test_the_new_games_form_types_each_option(client: TestClient) -> None:
    browser = browser_of(client, User(client, "form_user"))
    page = browser.get("/games/new").text
    year_cap = 'data-option="year_cap" data-kind="int" value="10" min="0" max="100"'
    assert year_cap in page  # Sub-Saharan's whole number, with its range
    assert '<select id="hg-option-african_diplomacy_ii-placement"' in page  # a choice
    assert page.count('class="variant-card"') == 6 and "3 to 8 players" in page


def test_the_lobby_lists_public_games_and_hides_anonymous_names(client: TestClient) -> None:
    host, other = User(client, "lobby_host"), User(client, "lobby_other")
    body = {"variant": "classic", "anonymous": True, "play_as": "France"}
    host.ok("post", "/api/games", {**body, "title": "Open to all"})
    host.ok("post", "/api/games", {**body, "title": "Friends only", "private": True})
    seen = browser_of(client, other).get("/lobby").text
    assert "Open to all" in seen and "Friends only" not in seen
    assert "lobby_host" not in seen
    assert "1 of 7 taken" in seen and "movement 2 days, others 1 day" in seen


def test_a_thumbnail_is_small_and_kept_by_browsers(client: TestClient) -> None:
    answer = client.get("/variants/classic/thumbnail.svg")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["cache-control"] == "public, max-age=86400"
    assert len(gzip.compress(answer.content)) < 16_000
    drawing = ElementTree.fromstring(answer.content)
    assert drawing.get("width") == "240"
    fills = {path.get("fill") for path in drawing.iter("{http://www.w3.org/2000/svg}path")}
    tints = {palette.tint(power.color) for power in load_variant("classic").powers.values()}
    assert tints <= fills and palette.SEA in fills
    assert client.get("/variants/atlantis/thumbnail.svg").status_code == 404
