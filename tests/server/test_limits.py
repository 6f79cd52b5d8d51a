"""Rate limits, lockout and bounded work (hegemon.server.limits), and the limits on
bodies (hegemon.server.bodies), each with limits of its own set here: every test would
fail with its limit switched off (the `GENEROUS` limits of the other tests).

The counters are kept in the test's database (SQLite and PostgreSQL, as the server keeps
them by default) or in the Redis at 127.0.0.1:6379; the lockout's windows pass in real
time, as `limits` counts it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from hegemon.server import create_app
from hegemon.server.limits import Limits
from hegemon.store import Store
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, User

REDIS = "redis://127.0.0.1:6379/0"


def _client(store: Store, address: str = "203.0.113.7", **limits: Any) -> TestClient:
    """A client of a new app on `store` whose limits are generous but those given."""
    settings = dataclasses.replace(GENEROUS, **{"storage": "", **limits})
    app = create_app(store=store, hasher=CHEAP, limits=settings)
    return TestClient(app, client=(address, 40000))


def _sign_in(client: TestClient, name: str, password: str) -> Any:
    return client.post("/api/sessions", json={"name": name, "password": password})


def _limited(answer: Any, detail: str) -> int:
    """The seconds a 429 says to wait, its detail being `detail` and the wait."""
    assert answer.status_code == 429, answer.text
    wait = int(answer.headers["Retry-After"])
    assert answer.json()["detail"] == f"{detail}: try again in {wait} s"
    assert wait >= 1
    return wait


ACCOUNT_LOCKED = "too many failed sign-ins for this account"


def test_wrong_passwords_lock_the_account_even_against_the_right_one(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    with _client(store, failures_account="5/minute;20/hour") as client:
        User(client, "alice")
        with caplog.at_level(logging.WARNING, logger="hegemon.limits"):
            started = time.time()
            answers = [_sign_in(client, "alice", f"guess number {n}") for n in range(200)]
            took = time.time() - started
        assert [a.status_code for a in answers[:5]] == [401] * 5
        waits = [_limited(answer, ACCOUNT_LOCKED) for answer in answers[5:]]
        # The rest of the minute begun by the first failure, however long the sign-ins
        # took (a loaded machine makes them slow, not the lockout shorter than it is).
        assert all(60 - took <= wait <= 60 for wait in waits), (took, waits)
        _limited(_sign_in(client, "alice", PASSWORD), ACCOUNT_LOCKED)
    refusals = [r for r in caplog.records if r.getMessage() == "refused"]
    assert len(refusals) == 196
    assert {r.__dict__["limit"] for r in refusals} == {"failed-account"}
    assert {r.__dict__["address"] for r in refusals} == {"203.0.113.7"}
    logged = " ".join(str(r.__dict__) for r in refusals)
    assert "guess" not in logged and PASSWORD not in logged and "alice" not in logged


def test_the_lockout_ends_after_its_window_and_a_sign_in_clears_the_failures(
    store: Store,
) -> None:
    # The window is long enough for four sign-ins on a loaded machine: they must all fall
    # in it, the lockout being the window's.
    with _client(store, failures_account="3/10 seconds") as client:
        User(client, "bob")
        assert [_sign_in(client, "bob", "wrong password").status_code for _ in range(3)] == [
            401
        ] * 3
        wait = _limited(_sign_in(client, "bob", PASSWORD), ACCOUNT_LOCKED)
        assert wait <= 10
        time.sleep(wait + 0.2)
        assert _sign_in(client, "bob", PASSWORD).status_code == 201
    with _client(store, failures_account="3/minute") as client:
        assert [_sign_in(client, "bob", "wrong password").status_code for _ in range(2)] == [
            401
        ] * 2
        assert _sign_in(client, "bob", PASSWORD).status_code == 201
        # The failures before the success are forgotten: three more before the lockout.
        assert [_sign_in(client, "bob", "wrong password").status_code for _ in range(4)] == [
            401
        ] * 3 + [429]


def test_a_name_that_exists_and_one_that_does_not_are_locked_alike(store: Store) -> None:
    with _client(store, failures_account="4/minute") as client:
        User(client, "carol")
        answers = {}
        for name in ("carol", "nobody"):
            tries = [_sign_in(client, name, "not the password") for _ in range(5)]
            assert [t.status_code for t in tries] == [401, 401, 401, 401, 429]
            assert tries[0].json() == {"detail": "wrong name or password"}
            answers[name] = tries[-1]
        said = {re.sub(r"\d+", "N", a.json()["detail"]) for a in answers.values()}
        assert said == {f"{ACCOUNT_LOCKED}: try again in N s"}
        assert answers["carol"].headers.keys() == answers["nobody"].headers.keys()


def test_failures_from_one_address_lock_every_name_from_it(store: Store) -> None:
    with _client(store, failures_address="6/minute") as client:
        for n in range(6):
            assert _sign_in(client, f"name{n}", "wrong password").status_code == 401
        _limited(_sign_in(client, "another", "wrong password"),
                 "too many failed sign-ins from this address")  # fmt: skip
    with _client(store, address="198.51.100.1") as elsewhere:
        assert _sign_in(elsewhere, "another", "wrong password").status_code == 401


def test_sign_in_attempts_are_limited_by_address(store: Store) -> None:
    with _client(store, signin="3/minute") as client:
        User(client, "dave")  # one sign-in
        assert _sign_in(client, "dave", PASSWORD).status_code == 201
        assert _sign_in(client, "dave", PASSWORD).status_code == 201
        _limited(_sign_in(client, "dave", PASSWORD), "too many sign-in attempts from this address")


def test_accounts_opened_are_limited_by_address(store: Store) -> None:
    def open_account(client: TestClient, name: str) -> Any:
        return client.post("/api/accounts", json={"name": name, "password": PASSWORD})

    with _client(store, signup="3/hour") as client:
        assert [open_account(client, f"new{n}").status_code for n in range(3)] == [201] * 3
        wait = _limited(open_account(client, "new3"), "too many accounts opened from this address")
        assert 3500 < wait <= 3600
    with _client(store, address="198.51.100.2", signup="3/hour") as elsewhere:
        assert open_account(elsewhere, "new3").status_code == 201


def test_writes_are_limited_by_account_and_by_address(store: Store) -> None:
    new_game = {"variant": "classic"}
    with _client(store, writes_account="4/minute") as client:
        erin, frank = User(client, "erin"), User(client, "frank")
        assert [erin.post("/api/games", new_game).status_code for _ in range(4)] == [201] * 4
        _limited(erin.post("/api/games", new_game), "too many changes by this account")
        assert erin.get("/api/games").status_code == 200  # reads are not counted
        assert frank.post("/api/games", new_game).status_code == 201
    with _client(store, address="198.51.100.3", writes_address="6/minute") as client:
        # Opening an account and signing in are writes too.
        grace, heidi = User(client, "grace"), User(client, "heidi")
        assert grace.post("/api/games", new_game).status_code == 201
        assert heidi.post("/api/games", new_game).status_code == 201
        _limited(grace.post("/api/games", new_game), "too many changes from this address")
        assert heidi.get("/api/games").status_code == 200


def test_a_write_refused_by_its_address_is_not_counted_against_the_account(
    store: Store,
) -> None:
    """The address's count comes first, then the account's (in one transaction): a write
    the address's limit refuses leaves the account's count as it was, and a write by
    nobody signed in counts against its address all the same."""
    new_game = {"variant": "classic"}
    account = {"writes_account": "3/minute"}
    with _client(store, address="192.0.2.1") as client:
        jane = User(client, "jane")
    with _client(store, address="192.0.2.2", writes_address="2/minute", **account) as crowded:
        crowded.headers.update(jane.headers)
        assert crowded.post("/api/games", json=new_game).status_code == 201
        unknown = {"Authorization": "Bearer nobody's"}
        assert crowded.post("/api/games", json=new_game, headers=unknown).status_code == 401
        _limited(crowded.post("/api/games", json=new_game), "too many changes from this address")
    with _client(store, address="192.0.2.3", **account) as elsewhere:
        elsewhere.headers.update(jane.headers)
        for _ in range(2):  # the account's second and third this minute, then one too many
            assert elsewhere.post("/api/games", json=new_game).status_code == 201
        _limited(elsewhere.post("/api/games", json=new_game), "too many changes by this account")


def test_two_apps_on_one_database_share_their_counters(store: Store) -> None:
    """Two processes of a server, each with its app on the same database (SQLite file or
    PostgreSQL schema), count the same failures."""
    other = Store(str(store.engine.url.render_as_string(hide_password=False)))
    try:
        with (
            _client(store, failures_account="4/minute") as first,
            _client(other, failures_account="4/minute") as second,
        ):
            User(first, "ivan")
            for client in (first, second, first, second):
                assert _sign_in(client, "ivan", "wrong password").status_code == 401
            _limited(_sign_in(second, "ivan", PASSWORD), ACCOUNT_LOCKED)
            _limited(_sign_in(first, "ivan", PASSWORD), ACCOUNT_LOCKED)
    finally:
        other.close()


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own in the Redis at 127.0.0.1:6379; its keys deleted
    after."""
    connection = redis.Redis.from_url(REDIS)
    try:
        connection.ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"Redis at {REDIS} does not answer: {exc}")
    prefix = f"test-{secrets.token_hex(6)}"
    yield prefix
    for key in connection.scan_iter(f"*{prefix}*"):
        connection.delete(key)
    connection.close()


def test_counters_in_redis_are_shared_by_two_apps(store: Store, redis_prefix: str) -> None:
    limits = {"storage": REDIS, "prefix": redis_prefix, "failures_account": "3/minute"}
    with _client(store, **limits) as first, _client(store, **limits) as second:
        User(first, "judy")
        for client in (first, second, first):
            assert _sign_in(client, "judy", "wrong password").status_code == 401
        _limited(_sign_in(second, "judy", PASSWORD), ACCOUNT_LOCKED)
    keys = list(redis.Redis.from_url(REDIS).scan_iter(f"*{redis_prefix}*"))
    assert keys and all(b"judy" not in key for key in keys)  # the names are hashed


def test_a_storage_that_does_not_answer_is_a_503(store: Store) -> None:
    with _client(store, storage="redis://127.0.0.1:1/0") as client:  # nothing listens there
        answer = _sign_in(client, "olga", PASSWORD)
        assert answer.status_code == 503
        assert answer.json() == {"detail": "the rate limits' storage does not answer: try again"}
        assert answer.headers["Retry-After"] == "5"


def test_argon2_runs_a_bounded_number_at_once(store: Store) -> None:
    with _client(store, hashes=1, hash_wait=0.3) as client:
        User(client, "kim")
        slots = client.app.state.hasher.slots  # type: ignore[attr-defined]
        slots.acquire()  # the one hash that may run is running
        try:
            answer = _sign_in(client, "kim", PASSWORD)
        finally:
            slots.release()
        assert answer.status_code == 503
        assert answer.json()["detail"] == "too many sign-ins at once: try again in a few seconds"
        assert int(answer.headers["Retry-After"]) >= 1
        assert _sign_in(client, "kim", PASSWORD).status_code == 201


def test_sign_ins_wait_for_their_turn_outside_the_worker_threads(store: Store) -> None:
    """The sign-ins past the argon2 bound wait in the event loop, holding no thread, and
    are refused once they have waited long enough."""
    with _client(store, hashes=1, hash_wait=0.3) as client:
        User(client, "kate")
        gate = client.app.state.signing_in.semaphore  # type: ignore[attr-defined]
        client.portal.call(gate.acquire)  # type: ignore[union-attr]
        try:
            answer = _sign_in(client, "kate", PASSWORD)
            opened = client.post("/api/accounts", json={"name": "kurt", "password": PASSWORD})
        finally:
            client.portal.call(gate.release)  # type: ignore[union-attr]
        for refused in (answer, opened):
            assert refused.status_code == 503
            assert refused.json() == {
                "detail": "too many sign-ins at once: try again in a few seconds"
            }
            assert int(refused.headers["Retry-After"]) >= 1
        assert _sign_in(client, "kate", PASSWORD).status_code == 201


def test_imports_run_a_bounded_number_at_once(store: Store) -> None:
    with _client(store, imports=1, import_wait=0.3) as client:
        lee = User(client, "lee")
        game = lee.ok("post", "/api/games", {"variant": "classic"})
        exported = lee.ok("get", f"/api/games/{game['id']}/export")
        semaphore = client.app.state.imports.semaphore  # type: ignore[attr-defined]
        client.portal.call(semaphore.acquire)  # type: ignore[union-attr]
        try:
            answer = lee.post("/api/games/import", {"game": exported})
        finally:
            client.portal.call(semaphore.release)  # type: ignore[union-attr]
        assert answer.status_code == 503
        assert answer.json()["detail"] == "too many imports at once: try again in a few seconds"
        assert lee.post("/api/games/import", {"game": exported}).status_code == 201


def test_an_import_is_bounded_in_phases(store: Store) -> None:
    with _client(store) as client:
        nina = User(client, "nina")
        phases = [{"phase": "S1901M", "orders": {}, "digest": "0"}] * 2001
        answer = nina.post("/api/games/import", {"game": {"format": "hegemon-game/3",
                                                          "phases": phases}})  # fmt: skip
        assert answer.status_code == 422
        assert answer.json()["detail"] == (
            "game.phases: 2001 phases, more than the 2000 a game imported here may have"
        )


def test_bodies_are_refused_by_their_declared_size_or_as_they_stream_past_it(
    store: Store,
) -> None:
    with _client(store) as client:
        mia = User(client, "mia")
        small = b'{"name": "x", "password": "' + b"p" * 5000 + b'"}'
        answer = client.post("/api/accounts", content=small)
        assert answer.status_code == 413
        assert answer.json()["detail"] == (
            "the request's body is larger than 4096 bytes, the most a request may send before "
            "signing in"
        )

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            yield b'{"game": {"format": "'
            for _ in range(20):
                yield b"x" * (1 << 20)

        streamed = client.post("/api/games/import", content=chunks(), headers=mia.headers)
        assert streamed.status_code == 413
        assert streamed.json()["detail"] == (
            f"the request's body is larger than {16 << 20} bytes, the most a game file may be"
        )
        # Signed in, the same body is no longer too large for the API: refused for its name.
        answer = client.post("/api/accounts", content=small, headers=mia.headers)
        assert answer.status_code == 422


def test_the_import_route_describes_its_body() -> None:
    described = create_app("sqlite://", limits=GENEROUS).openapi()
    body = described["paths"]["/api/games/import"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert schema["required"] == ["game"]
    assert set(schema["properties"]) == {"game", "title", "policy"}
    assert "deadlines" in schema["properties"]["policy"]["properties"]


def test_limits_from_the_environment_are_checked() -> None:
    assert Limits.from_environment({}) == Limits()
    given = Limits.from_environment({"HEGEMON_LIMIT_SIGNUP": "2/day", "HEGEMON_HASHES": "3"})
    assert (given.signup, given.hashes) == ("2/day", 3)
    with pytest.raises(ValueError, match=r"\$HEGEMON_LIMIT_SIGNIN 'often': expected rates"):
        Limits.from_environment({"HEGEMON_LIMIT_SIGNIN": "often"})
    with pytest.raises(ValueError, match=r"\$HEGEMON_IMPORTS 'two': not a number"):
        Limits.from_environment({"HEGEMON_IMPORTS": "two"})
    with pytest.raises(ValueError, match=r"\$HEGEMON_HASHES 0: must be above 0"):
        Limits.from_environment({"HEGEMON_HASHES": "0"})
