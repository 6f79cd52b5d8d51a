"""Bad requests get a 4xx answer that says why, never a server error, and change nothing:
requests generated from the OpenAPI description (schemathesis), and written by hand
(wrong types, unknown games, other powers' units, expired sessions, oversized bodies)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.core.result import Ok
from sqlalchemy import select

from hegemon.store import Store, models
from tests.server.conftest import PASSWORD, Clock, Seated, User, seated_game


def database_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Everything the database holds, table by table."""
    with store.reading() as session:
        return {
            table.name: sorted(
                (tuple(map(repr, row)) for row in session.execute(select(table))), key=str
            )
            for table in models.Base.metadata.sorted_tables
        }


@pytest.fixture
def game(client: TestClient) -> Seated:
    return seated_game(client, "sub_saharan", seed=5)


def test_no_generated_request_gets_a_server_error(
    client: TestClient, game: Seated, store: Store
) -> None:
    """Requests made from the API's description, for every operation, sent by the game
    master of a real game (or whoever the request says) so as to reach past the sign-in
    to the game itself."""
    api = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    results = list(api.get_all_operations())
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    assert len(operations) == len(results) > 25  # every one read

    for operation in operations:
        _send_generated(operation, client, game, store)


def _send_generated(operation: Any, client: TestClient, game: Seated, store: Store) -> None:
    @settings(
        max_examples=5,
        deadline=None,
        database=None,
        derandomize=True,  # the same requests every run: a failure is seen again
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def send(case: Any) -> None:
        if "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game.id
        signed_in = client.post("/api/sessions", json={"name": "gm", "password": PASSWORD})
        token = signed_in.json()["token"]  # a session of its own: the request may sign out
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        before = database_rows(store)
        answer = case.call(session=client)
        assert answer.status_code < 500, f"{case.method} {case.path}: {answer.text}"
        if answer.status_code >= 400:
            assert answer.json()["detail"], "a refusal says why"
            assert database_rows(store) == before, "a refused request changed the database"

    send()


Refused = tuple[int, str]  # the status, and words its reason holds


def _refused(answer: Any, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert words in answer.json()["detail"], answer.json()


@pytest.fixture
def unchanged(store: Store) -> Iterator[None]:
    """The test's requests are all refused: nothing in the database changes."""
    before = database_rows(store)
    yield
    assert database_rows(store) == before


def test_wrong_types_and_unknown_fields(client: TestClient, game: Seated, unchanged: None) -> None:
    path, yeke = game.path, game.players["Yeke"]
    _refused(yeke.post(f"{path}/orders", {"orders": "A kas - kam"}), 422, "valid list")
    _refused(yeke.post(f"{path}/orders", {"orders": [3]}), 422, "body.orders[0]")
    _refused(yeke.post(f"{path}/orders", {"orders": [], "replce": True}), 422, "replce")
    _refused(yeke.post(f"{path}/orders", {"orders": ["x" * 301]}), 422, "300 characters")
    _refused(yeke.post(f"{path}/orders", {"orders": ["A kas H"] * 501}), 422, "500 items")
    as_json = {**yeke.headers, "Content-Type": "application/json"}
    _refused(client.post(f"{path}/orders", content=b"{orders", headers=as_json), 422, "JSON")
    _refused(
        client.post(f"{path}/ready", content=b'{"ready": NaN}', headers=as_json), 422, "boolean"
    )
    _refused(yeke.get("/api/games/abc"), 422, "game_id")
    _refused(yeke.get(f"/api/games/{2**40}"), 422, "game_id")
    new_game = {"variant": "classic", "options": {"year_cap": 1.5}}
    _refused(game.master.post("/api/games", new_game), 422, "options")
    _refused(game.master.post("/api/games", {"variant": "atlantis"}), 422, "unknown variant")
    _refused(game.master.post("/api/games", {"variant": "classic", "options": {"x": 1}}), 422,
             "no option 'x'")  # fmt: skip
    _refused(game.master.post("/api/games", {"variant": "classic", "seats": ["France"]}), 422,
             "played by all its powers")  # fmt: skip
    _refused(game.master.post(f"{path}/adjudicate", {"draws": {"dice": 3}}), 422, "draws")


def test_an_import_is_read_as_the_cli_reads_a_game_file(game: Seated, store: Store) -> None:
    # A file of the format before the checksum, or with a part a save would drop, is
    # refused by the server as by the CLI (one reader: jsonio.game_from_json).
    game.master.ok("post", f"{game.path}/adjudicate")
    exported = game.master.ok("get", f"{game.path}/export")
    before = database_rows(store)
    relabelled = {key: value for key, value in exported.items() if key != "checksum"}
    relabelled["format"] = "hegemon-game/2"
    _refused(game.master.post("/api/games/import", {"game": relabelled}), 422,
             "a file without a checksum, no longer read")  # fmt: skip
    _refused(game.master.post("/api/games/import", {"game": {**exported, "notes": "x"}}), 422,
             "'notes': not a part of a game file")  # fmt: skip
    phases = [{**exported["phases"][0], "comment": "x"}]
    _refused(game.master.post("/api/games/import", {"game": {**exported, "phases": phases}}),
             422, "'phases[0].comment': not a part of a game file")  # fmt: skip
    assert database_rows(store) == before


def test_unknown_games_powers_and_phases(game: Seated, unchanged: None) -> None:
    master = game.master
    _refused(master.get("/api/games/999"), 404, "no game 999")
    _refused(master.post("/api/games/999/orders", {"orders": []}), 404, "no game 999")
    _refused(master.get(f"{game.path}/phases/5"), 404, "no phase 5")
    _refused(master.post(f"{game.path}/orders", {"orders": [], "power": "Narnia"}), 422,
             "unknown power 'Narnia'")  # fmt: skip
    _refused(master.post(f"{game.path}/replace", {"power": "Yeke", "user": "nobody"}), 422,
             "nobody named 'nobody' observes this game")  # fmt: skip
    _refused(master.post(f"{game.path}/orders", {"orders": []}), 422, "name the power")


def test_orders_for_other_powers_units_are_refused_with_the_judges_reason(
    game: Seated, unchanged: None
) -> None:
    path, yeke = game.path, game.players["Yeke"]
    angola_unit = yeke.post(f"{path}/orders", {"orders": ["A lua - moc"]})
    _refused(angola_unit, 422, "refused")
    assert angola_unit.json()["problems"] == ["A Lua - Moc: the unit in Luanda belongs to Angola"]
    _refused(yeke.post(f"{path}/orders", {"orders": ["A lua H"], "power": "Angola"}), 403,
             "you play Yeke, not Angola")  # fmt: skip
    _refused(yeke.get(f"{path}/options", params={"power": "Angola"}), 403, "not Angola")
    overbid = yeke.post(f"{path}/orders", {"orders": ["99: A kas - kam"]})
    _refused(overbid, 422, "refused")
    assert "99" in overbid.json()["problems"][0]


def test_signed_out_unknown_and_expired_sessions(
    client: TestClient, game: Seated, clock: Clock, unchanged: None
) -> None:
    _refused(client.get(game.path), 401, "sign in first")
    _refused(client.get(game.path, headers={"Authorization": "Bearer nonsense"}), 401, "unknown")
    _refused(client.get(game.path, headers={"Authorization": "Basic abc"}), 401, "sign in")
    clock.advance(31 * 24 * 3600)
    _refused(game.master.get(game.path), 401, "expired")
    _refused(client.post("/api/sessions", json={"name": "gm", "password": "wrong one"}), 401,
             "wrong name or password")  # fmt: skip
    _refused(client.post("/api/sessions", json={"name": "nobody", "password": PASSWORD}), 401,
             "wrong name or password")  # fmt: skip
    _refused(client.post("/api/accounts", json={"name": "gm", "password": PASSWORD}), 409,
             "taken")  # fmt: skip
    _refused(client.post("/api/accounts", json={"name": "a b", "password": PASSWORD}), 422,
             "name")  # fmt: skip


def test_oversized_bodies_are_refused_before_they_are_read(
    client: TestClient, game: Seated, unchanged: None
) -> None:
    huge = b'{"orders": ["' + b"x" * (1 << 20) + b'"]}'
    answer = client.post(f"{game.path}/orders", content=huge, headers=game.master.headers)
    _refused(answer, 413, "larger than 1048576 bytes")


def test_a_session_cookie_signs_in_and_out(client: TestClient) -> None:
    User(client, "cookie")
    answer = client.post("/api/sessions", json={"name": "cookie", "password": PASSWORD,
                                                "cookie": True})  # fmt: skip
    assert "httponly" in answer.headers["set-cookie"].lower()
    assert "samesite=strict" in answer.headers["set-cookie"].lower()
    assert client.get("/api/me").json() == {"name": "cookie"}
    # A change the cookie signs in needs the page's CSRF token: another site has none.
    _refused(client.delete("/api/sessions/current"), 403, "X-CSRF-Token")
    wrong = {"X-CSRF-Token": "0" * 64}
    _refused(client.delete("/api/sessions/current", headers=wrong), 403, "X-CSRF-Token")
    assert client.get("/api/me").json() == {"name": "cookie"}
    client.delete("/api/sessions/current", headers={"X-CSRF-Token": answer.json()["csrf"]})
    _refused(client.get("/api/me"), 401, "sign in")
