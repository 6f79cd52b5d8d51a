"""Accounts as a public server needs them: names unique in any case, a password policy,
changing the password and signing out everywhere (both audited), no text that a database
cannot store, no deadline past what a date can hold, no way for a game master to probe
account names, the headers every answer carries, and a demo that touches only its own
accounts. Each on SQLite and PostgreSQL (the `client` fixture)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from benchmarks.server_load import _free_port, _wait_for
from fastapi.testclient import TestClient
from sqlalchemy import select

from hegemon.server import create_app, demo, passwords
from hegemon.server.mastering import LONGEST_WAIT
from hegemon.store import Store, models
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, Clock, User, seated_game

NEW_PASSWORD = "seven tame ravens"


def refused(answer: Any, status: int, *words: str) -> str:
    """The answer's reason, the answer being a refusal with that status and those words."""
    assert answer.status_code == status, answer.text
    detail: str = answer.json()["detail"]
    for word in words:
        assert word in detail, detail
    return detail


def raw(user: User, path: str, body: Any) -> Any:
    """A POST of `body` as JSON in ASCII, which holds even half of a surrogate pair."""
    headers = {**user.headers, "Content-Type": "application/json"}
    return user.client.post(path, content=json.dumps(body), headers=headers)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/sessions", json={"name": name, "password": password})


def bearer(answer: Any) -> dict[str, str]:
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def audited(store: Store, action: str) -> list[models.Audit]:
    with store.reading() as session:
        rows = session.scalars(select(models.Audit).where(models.Audit.action == action))
        return list(rows)


# --- names ---------------------------------------------------------------------------------


def test_a_name_is_one_account_in_any_case(client: TestClient) -> None:
    User(client, "Alice")
    refused(client.post("/api/accounts", json={"name": "alice", "password": PASSWORD}), 409,
            "'alice' is taken")  # fmt: skip
    for spelling in ("alice", "ALICE", "Alice"):
        answer = sign_in(client, spelling)
        assert answer.status_code == 201 and answer.json()["name"] == "Alice", answer.text


def test_names_that_differed_by_case_before_the_rule_both_sign_in(
    client: TestClient, store: Store
) -> None:
    """Migration 0002 kept both accounts, marking the later one's key: each signs in by its
    exact name, and another spelling finds the first."""
    with store.writing() as session:
        for name, key, password in (("Bob", "bob", PASSWORD), ("bob", "bob#2", NEW_PASSWORD)):
            session.add(models.User(name=name, name_key=key, password_hash=CHEAP.hash(password)))
    assert sign_in(client, "bob", NEW_PASSWORD).json()["name"] == "bob"
    assert sign_in(client, "Bob").json()["name"] == "Bob"
    assert sign_in(client, "BOB").json()["name"] == "Bob"


def test_a_game_master_cannot_tell_whether_a_name_exists(client: TestClient) -> None:
    """A seat goes only to a user who observes the game: an unknown name and an account
    that does not observe get the same answer; one who observes is found in any case."""
    game = seated_game(client, "classic", seed=3)
    User(client, "bystander")
    swap = f"{game.path}/replace"
    unknown = refused(game.master.post(swap, {"power": "Italy", "user": "ghost"}), 422)
    known = refused(game.master.post(swap, {"power": "Italy", "user": "bystander"}), 422)
    assert unknown.replace("ghost", "NAME") == known.replace("bystander", "NAME")
    assert "observes this game" in known
    newcomer = User(client, "Newcomer")
    newcomer.ok("post", f"{game.path}/observe")
    game.master.ok("post", swap, {"power": "Italy", "user": "NEWCOMER"})
    assert newcomer.ok("get", game.path)["you"] == {"role": "player", "power": "Italy"}


# --- the password policy -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1234", "at least 10 characters"),
        ("x" * 201, "at most 200 characters"),
        ("password", "at least 10"),
        ("Password2024!", "a common one"),
        ("p@ssw0rd!!!", "a common one"),
        ("iloveyou123", "a common one"),
        ("Monkey1234567", "a common one"),
        ("correcthorsebatterystaple", "a common one"),
        ("1234567890", "too few different letters"),
        ("aaaaaaaaaaaa", "too few different letters"),
        ("20242024!!", "too few different letters"),
        ("poiuytrewq", "a run of keys"),
        ("sdfghjkl12!", "a run of keys"),
        ("lmnopqrstu", "a run of keys"),
        ("Zorblax2024!", "the account's name"),
        ("zorblaxzorblax", "the account's name"),
        ("tab\there and more", "control character"),
    ],
)
def test_weak_passwords_are_refused_saying_why(client: TestClient, password: str, why: str) -> None:
    answer = client.post("/api/accounts", json={"name": "Zorblax", "password": password})
    detail = refused(answer, 422, why)
    assert detail.startswith("body"), detail  # the field or the body's names
    assert sign_in(client, "Zorblax", password).status_code in (401, 422)


def test_a_good_password_is_taken_and_an_old_short_one_still_signs_in(
    client: TestClient, store: Store
) -> None:
    for name, password in (("carol", "tram lines at dusk"), ("dave", PASSWORD)):
        assert client.post("/api/accounts", json={"name": name, "password": password}).is_success
    with store.writing() as session:  # an account from before the policy
        session.add(models.User(name="erin", name_key="erin", password_hash=CHEAP.hash("abc123")))
    assert sign_in(client, "erin", "abc123").status_code == 201


def test_the_list_of_common_passwords_is_shipped_and_read_in_lower_case() -> None:
    common = passwords.common()
    assert len(common) > 2000
    assert {"password", "qwerty", "letmein", "dragon", "diplomacy"} <= common
    assert all(entry == entry.lower() for entry in common)
    passwords.check("Seven tame ravens")  # no WeakPassword


# --- changing the password, signing out everywhere ---------------------------------------


def test_changing_the_password_signs_out_every_other_session(
    client: TestClient, store: Store
) -> None:
    user = User(client, "frank")
    phone = bearer(sign_in(client, "frank"))
    change = "/api/me/password"
    refused(client.post(change, json={"current": "not it at all", "new": NEW_PASSWORD},
                        headers=user.headers), 403, "current")  # fmt: skip
    refused(client.post(change, json={"current": PASSWORD, "new": "password123"},
                        headers=user.headers), 422, "new", "common")  # fmt: skip
    refused(client.post(change, json={"current": PASSWORD, "new": "frank-frank-frank"},
                        headers=user.headers), 422, "new", "account's name")  # fmt: skip
    refused(client.post(change, json={"current": PASSWORD, "new": NEW_PASSWORD}), 401)
    assert client.get("/api/me", headers=phone).status_code == 200  # nothing changed yet

    answer = user.ok("post", change, {"current": PASSWORD, "new": NEW_PASSWORD})
    assert answer == {"name": "frank", "signed_out": 1}
    assert user.ok("get", "/api/me") == {"name": "frank"}  # this session is kept
    refused(client.get("/api/me", headers=phone), 401, "unknown session")
    refused(sign_in(client, "frank"), 401, "wrong name or password")
    assert sign_in(client, "frank", NEW_PASSWORD).status_code == 201
    [row] = audited(store, "password changed")
    assert NEW_PASSWORD not in repr(row.detail) and PASSWORD not in repr(row.detail)


def test_signing_out_everywhere_ends_every_session_of_the_account(
    client: TestClient, store: Store
) -> None:
    user = User(client, "grace")
    other = User(client, "heidi")
    laptop = bearer(sign_in(client, "grace"))
    assert user.ok("delete", "/api/sessions") == {"name": "grace", "signed_out": 2}
    for headers in (user.headers, laptop):
        refused(client.get("/api/me", headers=headers), 401, "unknown session")
    assert other.ok("get", "/api/me") == {"name": "heidi"}  # another account's stay
    [row] = audited(store, "signed out everywhere")
    assert row.detail == {"sessions": 2}


def test_a_cookie_changes_the_password_only_with_the_pages_csrf_token(client: TestClient) -> None:
    User(client, "ivan")
    signed_in = client.post(
        "/api/sessions", json={"name": "ivan", "password": PASSWORD, "cookie": True}
    )
    body = {"current": PASSWORD, "new": NEW_PASSWORD}
    refused(client.post("/api/me/password", json=body), 403, "X-CSRF-Token")
    refused(client.delete("/api/sessions"), 403, "X-CSRF-Token")
    token = {"X-CSRF-Token": signed_in.json()["csrf"]}
    assert client.post("/api/me/password", json=body, headers=token).status_code == 200


# --- text a database cannot store, deadlines a date cannot hold ---------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "classic", "title": "a\x00b"}, "body.title"),
        ({"variant": "classic", "title": "bell\x07"}, "body.title"),
        ({"variant": "classic", "title": "new\nline"}, "body.title"),
        ({"variant": "classic", "title": "c1 \x85"}, "body.title"),
        ({"variant": "classic\x00"}, "body.variant"),
        ({"variant": "classic", "options": {"edition": "2000\x00"}}, "body.options"),
        ({"variant": "classic", "options": {"edi\x00tion": 1}}, "body.options"),
        ({"variant": "classic", "policy": {"deadlines": {"move\x00ment": 60}}}, "body.policy"),
    ],
)
def test_text_with_a_control_character_is_refused_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    master = User(client, "titler")
    refused(raw(master, "/api/games", body), 422, field, "control character")
    assert master.ok("get", "/api/games") == []


def test_orders_with_a_control_character_are_refused_and_a_tab_is_not(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=3)
    france, orders = game.players["France"], f"{game.path}/orders"
    for text in ("A Par - Bur\x00", "A Par\x1b - Bur"):
        refused(raw(france, orders, {"orders": [text]}), 422, "body.orders[0]", "control")
    half_a_pair = raw(france, orders, {"orders": ["A Par - Bur\ud800"]})  # the reader's refusal
    refused(half_a_pair, 422, "body.orders[0]", "unicode string")
    refused(game.master.post(f"{game.path}/adjudicate", {"draws": {"x\x00": 1}}), 422,
            "body.draws", "control")  # fmt: skip
    assert france.ok("post", orders, {"orders": ["A Par\t- Bur"]})["orders"] == ["A Par - Bur"]


def test_a_deadline_is_never_extended_past_what_a_date_holds(
    client: TestClient, clock: Clock
) -> None:
    game = seated_game(client, "classic", seed=3, policy={"deadlines": {"other": 3600}})
    master, extend = game.master, f"{game.path}/extend"
    for _ in range(LONGEST_WAIT.days * 86400 // 10**8):
        master.ok("post", extend, {"seconds": 10**8})
    refused(master.post(extend, {"seconds": 10**8}), 422, "seconds", "days away at most")
    deadline = datetime.fromisoformat(master.ok("get", game.path)["deadline"])
    assert deadline <= clock.moment + LONGEST_WAIT
    master.ok("post", f"{game.path}/pause")  # the time left, paused, has the same bound
    refused(master.post(extend, {"seconds": 10**8}), 422, "days away at most")
    clock.advance(86400)
    resumed = master.ok("post", f"{game.path}/resume")
    left = datetime.fromisoformat(resumed["deadline"]) - clock.moment
    assert timedelta(0) < left <= LONGEST_WAIT


# --- headers -------------------------------------------------------------------------------


def test_every_kind_of_answer_carries_the_safety_headers(client: TestClient) -> None:
    game = seated_game(client, "classic", seed=3)
    master = game.master
    answers = {
        "json": master.get("/api/me"),
        "page": client.get("/signin"),
        "svg": master.get(f"{game.path}/board.svg"),
        "static": client.get("/static/hegemon.css"),
        "404 api": master.get("/api/games/999"),
        "404 page": client.get("/no/such/page"),
        "401": client.get("/api/me"),
        "413": client.post(f"{game.path}/orders", content=b"x" * (2 << 20), headers=master.headers),
        "422": master.post("/api/games", {"variant": 5}),
    }
    for kind, answer in answers.items():
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", kind
        assert headers["x-frame-options"] == "DENY", kind
        assert headers["referrer-policy"] == "same-origin", kind
        if kind in ("json", "svg", "404 api", "401", "413", "422", "page"):
            assert headers["cache-control"] == "no-store", kind
    svg = answers["svg"]
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.headers["content-security-policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert "script-src 'self'" in answers["page"].headers["content-security-policy"]


# --- the demo ------------------------------------------------------------------------------


def test_the_demo_resets_only_its_own_accounts(store: Store) -> None:
    first = demo.seed(store, CHEAP, datetime.now().astimezone(), "classic")
    again = demo.seed(store, CHEAP, datetime.now().astimezone(), "classic")
    assert first.keys() == again.keys() and first["gm"] != again["gm"]
    with store.reading() as session:
        users = session.scalars(select(models.User)).all()
        assert sorted(u.name for u in users) == sorted(first) and all(u.demo for u in users)
        assert CHEAP.verify(next(u for u in users if u.name == "gm").password_hash, again["gm"])
        assert session.scalar(select(models.Game.id).where(models.Game.title == demo.TITLE))
        assert len(session.scalars(select(models.Game)).all()) == 1  # made once


def test_the_demo_refuses_a_database_where_people_hold_its_names(
    client: TestClient, store: Store
) -> None:
    User(client, "France")  # a person's account, in another case
    User(client, "gm")
    with pytest.raises(demo.NamesTaken) as taken:
        demo.seed(store, CHEAP, datetime.now().astimezone(), "classic")
    assert taken.value.names == ["gm", "france"]
    assert "only ever touches accounts it made" in str(taken.value)
    assert sign_in(client, "France").status_code == 201  # the password is the person's still
    with store.reading() as session:
        assert not any(u.demo for u in session.scalars(select(models.User)))
        assert session.scalars(select(models.Game)).all() == []


def test_serve_demo_says_which_names_are_taken_and_serves_nothing(tmp_path: Path) -> None:
    """`hegemon serve --demo` (a newcomer against bots) on a database where a person holds
    "france", the newcomer's name."""
    url = f"sqlite:///{tmp_path}/hegemon.db"
    store = Store(url)
    store.upgrade()
    with TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS)) as client:
        User(client, "france")
    store.close()
    done = _serve_demo(url, _free_port())
    assert done.returncode != 0, done.stdout + done.stderr
    assert "france" in done.stderr and "only ever touches accounts it made" in done.stderr
    assert "open http" not in done.stdout


# `hegemon serve --demo` as `make run` starts it, its output unbuffered to be read as it comes.
SERVE_ENVIRONMENT = {**os.environ, "HEGEMON_ARGON2": "1,8,1", "PYTHONUNBUFFERED": "1"}


def _serve_command(url: str, port: int) -> list[str]:
    return [sys.executable, "-m", "hegemon.cli", "serve", "--demo", "--database", url,
            "--port", str(port), "--no-deadlines"]  # fmt: skip


def _serve_demo(url: str, port: int) -> subprocess.CompletedProcess[str]:
    """`hegemon serve --demo` run to its end (a refusal)."""
    return subprocess.run(_serve_command(url, port), capture_output=True, text=True,
                          timeout=120, env=SERVE_ENVIRONMENT, check=False)  # fmt: skip


def _demo_account(serving: subprocess.Popen[str]) -> tuple[str, str]:
    """The name and password a starting `serve --demo` prints, read up to its address."""
    assert serving.stdout is not None
    lines = iter(serving.stdout.readline, "")
    printed = list(itertools.takewhile(lambda line: "open http" not in line, lines))
    name, password = printed[-1].split()  # the last line: the newcomer's account
    return name, password


def test_a_second_server_on_a_busy_port_is_refused_before_it_touches_the_demo(
    tmp_path: Path,
) -> None:
    """A second `make run` while the first serves: refused, saying why, before it seeds the
    demo, so the passwords the running server printed still sign in."""
    url, port = f"sqlite:///{tmp_path}/hegemon.db", _free_port()
    with (tmp_path / "first.log").open("w") as log:
        first = subprocess.Popen(_serve_command(url, port), stdout=subprocess.PIPE, stderr=log,
                                 text=True, env=SERVE_ENVIRONMENT)  # fmt: skip
        try:
            name, password = _demo_account(first)
            _wait_for(f"http://127.0.0.1:{port}")
            second = _serve_demo(url, port)
            assert second.returncode != 0 and "france" not in second.stdout
            assert f"--port {port}: cannot listen on 127.0.0.1:{port}" in second.stderr
            assert "(Address already in use: is a server running there already?)" in second.stderr
            assert "nothing was changed: choose another port with --port (make run PORT=8001)" in (
                second.stderr
            )
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
                answer = client.post("/api/sessions", json={"name": name, "password": password})
                assert answer.status_code == 201, answer.text
        finally:
            first.terminate()
            first.wait(timeout=30)
