"""Every endpoint, called by each kind of caller: nobody signed in, a signed-in user who
takes no part in the game, its observer, the player of one power (France) and its game
master; each answer's status is the one its role calls for."""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient

from hegemon import jsonio
from hegemon.game import Game
from hegemon.server.routes.operations import TOKEN_VARIABLE
from hegemon.variants import load_variant
from tests.server.conftest import PASSWORD, User, seated_game

ROLES = ("nobody", "outsider", "observer", "player", "master")
EVERY_MEMBER = (401, 403, 200, 200, 200)
PLAYERS = (401, 403, 403, 200, 200)
MASTER = (401, 403, 403, 403, 200)
SIGNED_IN = (401, 200, 200, 200, 200)


class Call(NamedTuple):
    method: str
    path: str  # {game} stands for the game's path
    statuses: tuple[int, int, int, int, int]  # by role, as in ROLES
    body: Any = None
    params: Any = None


_names = (f"someone{n}" for n in itertools.count())


def _calls() -> list[Call]:
    """In an order such that each call leaves the game fit for the next ones."""
    imported = jsonio.game_to_json(Game.new(load_variant("classic"), 1))
    france = {"power": "France"}
    return [
        Call("get", "/api/variants", (200, 200, 200, 200, 200)),
        Call("get", "/api/me", SIGNED_IN),
        Call("get", "/api/games", SIGNED_IN),
        Call("get", "{game}", EVERY_MEMBER),
        Call("get", "{game}/progress", EVERY_MEMBER),
        Call("get", "{game}/events", EVERY_MEMBER),  # a stream that ends at once, here
        Call("get", "{game}/options", PLAYERS, params=france),
        Call("post", "{game}/orders", PLAYERS, body={"orders": ["A par H"], **france}),
        Call("delete", "{game}/orders", PLAYERS, params=france),
        Call("post", "{game}/ready", PLAYERS, body={"ready": False, **france}),
        Call("post", "{game}/messages", (401, 403, 403, 201, 201), body={"text": "Hello all"}),
        Call("get", "{game}/messages", EVERY_MEMBER),
        Call("get", "{game}/conversations", EVERY_MEMBER),
        Call("post", "{game}/conversations/read", (401, 403, 204, 204, 204),
             body={"channel": "public", "up_to": 1000}),
        Call("get", "{game}/press", EVERY_MEMBER),
        Call("get", "{game}/votes", EVERY_MEMBER),
        Call("post", "{game}/votes", (401, 403, 403, 200, 403),
             body={"kind": "draw", "vote": False}),
        Call("post", "{game}/mute", MASTER, body={"power": "England", "muted": False}),
        Call("get", "{game}/phases", EVERY_MEMBER),
        Call("get", "{game}/phases/1", EVERY_MEMBER),
        Call("get", "{game}/board.svg", EVERY_MEMBER),
        Call("get", "{game}/board.svg", PLAYERS, params={"orders": True, **france}),  # my orders
        Call("get", "{game}/phases/1/board.svg", EVERY_MEMBER),
        Call("get", "{game}/reveal", (401, 403, 409, 409, 409)),  # the game is not over
        Call("get", "{game}/audit", MASTER),
        Call("get", "{game}/export", MASTER),
        Call("get", "{game}/verify", MASTER),
        Call("post", "/api/games", (401, 201, 201, 201, 201), body={"variant": "classic"}),
        Call("post", "/api/games/import", (401, 201, 201, 201, 201), body={"game": imported}),
        Call("post", "/api/accounts", (201,) * 5, body=lambda: {"name": next(_names),
                                                               "password": PASSWORD}),
        Call("post", "/api/sessions", (201,) * 5, body={"name": "gm", "password": PASSWORD}),
        # A free seat, taken by a newcomer; the others hold one, or are the game master.
        Call("post", "{game}/join", (401, 200, 409, 409, 409), body={"power": "Turkey"}),
        Call("post", "{game}/observe", (401, 200, 409, 409, 409)),
        # The game master gives powers to players who joined; "newbie" only observes.
        Call("post", "{game}/assign", (401, 403, 403, 403, 422),
             body={"power": "Italy", "user": "newbie"}),
        Call("get", "/api/invitations/no-such-code", (401, 404, 404, 404, 404)),
        Call("post", "{game}/start", (401, 403, 403, 403, 409)),  # started already
        Call("post", "{game}/fill-with-bots", (401, 403, 403, 403, 409)),  # no free seat
        Call("post", "{game}/extend", MASTER, body={"seconds": 60}),
        Call("post", "{game}/pause", MASTER),
        Call("post", "{game}/resume", MASTER),
        Call("post", "{game}/replace", MASTER, body={"power": "Italy", "user": "newbie"}),
        Call("post", "{game}/disorder", MASTER, body={"power": "Italy"}),
        Call("post", "{game}/adjudicate", MASTER),
        Call("post", "{game}/end", MASTER, body={"draw": ["France", "England"]}),
        Call("get", "/api/me/notifications", SIGNED_IN),
        Call("put", "/api/me/notifications", SIGNED_IN,
             body={"email": "me@example.org", "events": ["adjudicated"]}),
        Call("get", "{game}/webhooks", MASTER),  # each with its secret
        # A loopback address, refused to the game master alone (the others are refused first).
        Call("post", "{game}/webhooks", (401, 403, 403, 403, 422),
             body={"url": "http://127.0.0.1:9/hook"}),
        Call("delete", "{game}/webhooks/999999", (401, 403, 403, 403, 404)),
        Call("post", "/api/me/password", SIGNED_IN, body={"current": PASSWORD, "new": PASSWORD}),
        Call("delete", "/api/sessions/current", SIGNED_IN),
        # The operator's: open to all, and /metrics to no one but its own token's holder
        # (404 while $HEGEMON_METRICS_TOKEN is not set, as here).
        Call("get", "/healthz", (200,) * 5),
        Call("get", "/readyz", (200,) * 5),
        Call("get", "/metrics", (404,) * 5),
        # Signed out by the call before, all but the outsider, who is new at each call.
        Call("delete", "/api/sessions", (401, 200, 401, 401, 401)),
    ]  # fmt: skip


def test_every_endpoint_answers_each_role_as_it_should(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    game = seated_game(client, "classic", free=("Turkey",), seed=3)
    game.master.ok("post", f"{game.path}/adjudicate")  # a phase to read
    User(client, "newbie").ok("post", f"{game.path}/observe")  # to be given a seat
    members = {"observer": game.observer, "player": game.players["France"], "master": game.master}
    calls = _calls()
    for call in calls:
        for role, expected in zip(ROLES, call.statuses, strict=True):
            caller = members.get(role) or (
                User(client, next(_names)) if role == "outsider" else None
            )
            answer = _send(client, caller, call, game.path)
            assert answer.status_code == expected, (
                f"{call.method} {call.path} as {role}: {answer.status_code} {answer.text[:200]}"
            )
            if answer.status_code >= 400:
                assert answer.json()["detail"], "every refusal says why"
    tested = {(c.method.upper(), c.path.replace("{game}", "/api/games/{game_id}")) for c in calls}
    tested = {(m, p.replace("/phases/1", "/phases/{number}")) for m, p in tested}
    tested = {(m, p.replace("/no-such-code", "/{code}")) for m, p in tested}
    tested = {(m, p.replace("/webhooks/999999", "/webhooks/{hook_id}")) for m, p in tested}
    spec = client.get("/openapi.json").json()
    routes = {(method.upper(), path) for path, item in spec["paths"].items() for method in item}
    assert routes == tested, f"untested: {routes - tested}"


def _send(client: TestClient, caller: User | None, call: Call, game_path: str) -> Any:
    headers = caller.headers if caller else {}
    body = call.body() if callable(call.body) else call.body
    path = call.path.replace("{game}", game_path)
    if call.method == "get":
        return client.get(path, headers=headers, params=call.params)
    if call.method == "delete":
        return client.delete(path, headers=headers, params=call.params)
    return client.request(
        call.method.upper(), path, headers=headers, json=body or {}, params=call.params
    )
