"""Games players create and find (docs/server.md, "Creating a game"): every option of a
new game, the lobby's lines, private games joined by their invitation code, anonymous
players, powers chosen, dealt at random when the game fills, or assigned by the game
master; bad input refused naming its field."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import User

THREE = ["Red", "Blue", "Green"]  # African Diplomacy II, seated for three players


def _new(creator: User, **settings: Any) -> Any:
    body = {"variant": "african_diplomacy_ii", "seats": THREE, **settings}
    return creator.ok("post", "/api/games", body)


def _open(user: User) -> dict[int, Any]:
    return {line["id"]: line for line in user.ok("get", "/api/games", params={"which": "open"})}


def test_a_private_game_with_every_option_is_listed_to_its_members_and_joined_by_code(
    client: TestClient,
) -> None:
    creator, guest, stranger = (User(client, n) for n in ("pv_red", "pv_blue", "pv_stranger"))
    game = _new(
        creator,
        title="Three in Africa",
        options={"placement": "lists", "last_year": 1905},
        policy={"deadlines": {"movement": 3600, "other": 600}, "press": {"mode": "public"}},
        private=True,
        anonymous=False,
        assignment="chosen",
        play_as="red",
    )
    path, code = f"/api/games/{game['id']}", game["invitation"]
    assert game["you"] == {"role": "player", "power": "Red"} and len(code) >= 16
    assert [m["role"] for m in game["members"]] == ["player"]  # no game master
    chosen = {"placement": "lists", "last_year": 1905}
    assert game["options"] == {**game["options"], **chosen}
    line = _open(creator)[game["id"]]
    assert line == {
        **line,
        "title": "Three in Africa",
        "variant_title": "African Diplomacy II",
        "seats": 3,
        "seats_taken": 1,
        "open_seats": ["Blue", "Green"],
        "deadlines": {"movement": 3600, "other": 600},
        "press": "public",
        "options": game["options"],
        "private": True,
        "anonymous": False,
        "assignment": "chosen",
        "master": False,
    }
    assert game["id"] not in _open(guest)  # hidden from all but its members
    refused = guest.post(f"{path}/join", {"power": "Blue"})
    assert refused.status_code == 403 and refused.json()["detail"].startswith("code:")
    wrong = guest.post(f"{path}/join", {"power": "Blue", "code": code[::-1]})
    assert wrong.status_code == 403
    assert guest.post(f"{path}/observe").status_code == 403
    assert guest.ok("get", f"/api/invitations/{code}")["id"] == game["id"]
    assert guest.get("/api/invitations/nothing-here").status_code == 404
    joined = guest.ok("post", f"{path}/join", {"power": "Blue", "code": code})
    assert joined["status"] == "forming" and joined["invitation"] == code
    taken = stranger.post(f"{path}/join", {"power": "blue", "code": code})
    assert taken.status_code == 409 and "Blue is taken" in taken.json()["detail"]
    started = stranger.ok("post", f"{path}/join", {"power": "Green", "code": code})
    assert started["status"] == "active"  # full: it starts, nobody to start it
    late = User(client, "pv_late").post(f"{path}/join", {"power": "Green", "code": code})
    assert late.status_code == 409
    assert creator.post(f"{path}/start").status_code == 403  # no game master


def test_anonymous_players_are_nameless_to_one_another_until_the_end(client: TestClient) -> None:
    red, blue, green = (User(client, n) for n in ("an_red", "an_blue", "an_green"))
    master = User(client, "an_gm")
    game = master.ok(
        "post",
        "/api/games",
        {
            "variant": "classic",
            "anonymous": True,
            "bots": ["Austria", "Germany", "Italy", "Russia"],
        },
    )
    path = f"/api/games/{game['id']}"
    for user, power in ((red, "England"), (blue, "France"), (green, "Turkey")):
        user.ok("post", f"{path}/join", {"power": power})
    seen = blue.get(path)
    members = {m["power"]: m["name"] for m in seen.json()["members"] if m["role"] == "player"}
    assert members["France"] == "an_blue" and members["England"] is None
    assert members["Turkey"] is None and "an_red" not in seen.text and "an_green" not in seen.text
    lines = blue.get("/api/games").text + blue.get(f"{path}/progress").text
    assert "an_red" not in lines and "an_green" not in lines
    refused = blue.post(f"{path}/join", {"power": "Austria"}).text
    assert "an_red" not in refused and "an_green" not in refused
    by_master = {m["power"]: m["name"] for m in master.ok("get", path)["members"]}
    assert by_master["England"] == "an_red"  # the game master knows the players
    for user in (red, blue, green):
        user.ok("post", f"{path}/votes", {"kind": "draw"})
    ended = blue.ok("get", path)
    assert ended["status"] == "ended"
    names = {m["power"]: m["name"] for m in ended["members"] if m["role"] == "player"}
    assert names["England"] == "an_red" and names["Turkey"] == "an_green"


def test_random_assignment_deals_the_powers_when_the_game_fills(client: TestClient) -> None:
    creator = User(client, "rd_one")
    game = _new(creator, assignment="random", play_as="random", anonymous=True)
    path = f"/api/games/{game['id']}"
    assert game["you"] == {"role": "player", "power": None}
    line = _open(creator)[game["id"]]
    assert (line["open_seats"], line["seats_taken"], line["assignment"]) == ([], 1, "random")
    second, third = User(client, "rd_two"), User(client, "rd_three")
    named = second.post(f"{path}/join", {"power": "Blue"})
    assert named.status_code == 422 and named.json()["detail"].startswith("power:")
    assert second.ok("post", f"{path}/join", {})["status"] == "forming"
    assert third.ok("post", f"{path}/join", {})["status"] == "active"
    powers = [u.ok("get", path)["you"]["power"] for u in (creator, second, third)]
    assert sorted(powers) == sorted(THREE)
    full = User(client, "rd_four").post(f"{path}/join", {})
    assert full.status_code == 409 and full.json()["detail"] == "the game is full"


def test_the_game_master_assigns_the_powers(client: TestClient) -> None:
    master, red, blue = User(client, "gm_master"), User(client, "gm_a"), User(client, "gm_b")
    game = _new(master, assignment="master")
    path = f"/api/games/{game['id']}"
    for user in (red, blue):
        user.ok("post", f"{path}/join", {})
    refused = master.post(f"{path}/start")
    assert refused.status_code == 409 and "assign a power" in refused.json()["detail"]
    assert red.post(f"{path}/assign", {"user": "gm_a", "power": "Red"}).status_code == 403
    stranger = master.post(f"{path}/assign", {"user": "gm_master", "power": "Red"})
    assert stranger.status_code == 422 and stranger.json()["detail"].startswith("user:")
    assert master.ok("post", f"{path}/assign", {"user": "gm_a", "power": "red"})["status"] == (
        "forming"
    )
    taken = master.post(f"{path}/assign", {"user": "gm_b", "power": "Red"})
    assert taken.status_code == 409
    master.ok("post", f"{path}/assign", {"user": "gm_b", "power": "Blue"})
    third = User(client, "gm_c")
    third.ok("post", f"{path}/join", {})
    started = master.ok("post", f"{path}/assign", {"user": "gm_c", "power": "Green"})
    assert started["status"] == "active"
    assert {m["name"]: m["power"] for m in started["members"] if m["role"] == "player"} == {
        "gm_a": "Red",
        "gm_b": "Blue",
        "gm_c": "Green",
    }


def test_bad_settings_are_refused_naming_the_field(client: TestClient) -> None:
    creator = User(client, "bad_creator")
    cases = {
        "assignment": {"variant": "classic", "assignment": "dice"},
        "private": {"variant": "classic", "private": "yes"},
        "play_as": {"variant": "classic", "play_as": "Atlantis"},
        "options": {"variant": "sub_saharan", "options": {"year_cap": 1000}},
        "deadlines": {"variant": "classic", "policy": {"deadlines": {"movement": -1}}},
    }
    for field, body in cases.items():
        answer = creator.post("/api/games", body)
        assert answer.status_code == 422, (field, answer.text)
        assert field in answer.json()["detail"] or "year_cap" in answer.json()["detail"], field
    for body in (
        {"variant": "classic", "assignment": "master", "play_as": "France"},
        {"variant": "classic", "assignment": "random", "play_as": "France"},
    ):
        answer = creator.post("/api/games", body)
        assert answer.status_code == 422 and answer.json()["detail"].startswith("play_as:")
    assert creator.ok("get", "/api/games") == []  # nothing made
    long_code = creator.post("/api/games/1/join", {"code": "x" * 33})
    assert long_code.status_code == 422 and "code" in long_code.json()["detail"]
    assert json.dumps(creator.ok("get", "/api/games", params={"which": "open"})) == "[]"


def test_a_seat_still_free_in_a_game_under_way_gets_its_power(client: TestClient) -> None:
    """Dealt at once where powers are dealt; assigned by the game master where it assigns
    them, a player who already has a power keeping it."""
    master = User(client, "late_gm")
    dealt = _new(master, assignment="random")
    assigned = _new(master, assignment="master")
    first, second = User(client, "late_a"), User(client, "late_b")
    for game in (dealt, assigned):
        first.ok("post", f"/api/games/{game['id']}/join", {})
    master.ok("post", f"/api/games/{assigned['id']}/assign", {"user": "late_a", "power": "Red"})
    for game in (dealt, assigned):
        master.ok("post", f"/api/games/{game['id']}/start")
        second.ok("post", f"/api/games/{game['id']}/join", {})
    powers = {first.ok("get", f"/api/games/{dealt['id']}")["you"]["power"]}
    powers.add(second.ok("get", f"/api/games/{dealt['id']}")["you"]["power"])
    assert len(powers) == 2 and powers <= set(THREE)  # the late one dealt a power at once
    path = f"/api/games/{assigned['id']}"
    assert second.ok("get", path)["you"] == {"role": "player", "power": None}
    moved = master.post(f"{path}/assign", {"user": "late_a", "power": "Green"})
    assert moved.status_code == 409 and "late_a plays Red" in moved.json()["detail"]
    master.ok("post", f"{path}/assign", {"user": "late_b", "power": "Blue"})
    assert second.ok("get", path)["you"]["power"] == "Blue"
