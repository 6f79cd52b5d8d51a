"""Notifications (docs/server.md, "Notifications"), against a real SMTP server (aiosmtpd)
and a real HTTP receiver run by the tests: a phase adjudicated mails each player who
asked and posts each webhook once, signed; a mail server that is down delays mail and
loses none; the press digest gathers messages, never one its reader may not read nor a
grey message's author; the deadline reminder goes to those whose orders are missing; the
unsubscribe link; input refused with its reason; two senders never send a mail twice; a
notifier down or failing never holds up an adjudication. Each test runs on SQLite and
PostgreSQL; and `hegemon serve` runs the sender itself, on SQLite."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from hegemon.server import create_app
from hegemon.server.live import Streams
from hegemon.server.notify import hooks, sender
from hegemon.server.notify.mail import SendFailed
from hegemon.server.notify.settings import NotifySettings
from hegemon.store import Store, models
from tests.server.conftest import (
    CHEAP,
    GENEROUS,
    Clock,
    Seated,
    User,
    free_port,
    seated_game,
)
from tests.server.processes import served

SITE = "http://hegemon.test"


# --- the SMTP server and the HTTP receiver ------------------------------------------------


@dataclass
class Mailbox:
    """What the SMTP server received: each mail, parsed."""

    mails: list[Message] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [mail for mail in self.mails if mail["To"] == address]


class SmtpServer:
    """aiosmtpd on a port of its own, which the test may stop and start again."""

    def __init__(self) -> None:
        self.port, self.box = free_port(), Mailbox()
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(self.box, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None


@dataclass
class Post:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """An HTTP server that records each POST and answers `status`."""

    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.status = 204
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts.append(Post(self.path, dict(self.headers.items()), body))
                self.send_response(receiver.status)
                self.send_header("Location", "/elsewhere")  # followed by nobody
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.server.shutdown()
    made.server.server_close()


@pytest.fixture
def settings(smtp: SmtpServer) -> NotifySettings:
    return NotifySettings(
        smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_tls="none", public_url=SITE,
        secret_key="a test's key", webhooks_private=True, timeout=5, digest_minutes=0,
    )  # fmt: skip


@pytest.fixture
def client(store: Store, clock: Clock, settings: NotifySettings) -> Iterator[TestClient]:
    app = create_app(store=store, hasher=CHEAP, clock=clock, limits=GENEROUS, notify=settings)
    app.state.streams = Streams(lifetime=0.2)
    with TestClient(app) as test_client:
        yield test_client


def _ask(user: User, *events: str, hours: int = 12) -> str:
    """The user asks for mail of those events: its address."""
    address = f"{user.name}@example.org"
    body = {"email": address, "events": list(events), "hours": hours}
    answer = user.client.put("/api/me/notifications", json=body, headers=user.headers)
    assert answer.status_code == 200, answer.text
    return address


def _text(mail: Message) -> str:
    """A plain-text mail's text."""
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def _pass(store: Store, settings: NotifySettings, clock: Clock) -> int:
    return sender.run_pass(store, settings, clock)


Sender = tuple[Store, NotifySettings, Clock]


def _game(client: TestClient, notified: Sender, **policy: Any) -> Seated:
    """A classic game started, every seat taken, its events so far followed by the sender
    (as `hegemon serve`'s, which follows each within seconds, would have)."""
    game = seated_game(client, "classic", seed=7, policy=policy)
    _pass(*notified)
    return game


# --- a phase adjudicated ------------------------------------------------------------------


def test_a_phase_adjudicated_mails_each_player_who_asked_and_posts_one_signed_webhook(
    client: TestClient,
    store: Store,
    clock: Clock,
    settings: NotifySettings,
    smtp: SmtpServer,
    receiver: Receiver,
) -> None:
    game = _game(client, (store, settings, clock))
    france, england = game.players["France"], game.players["England"]
    asked = [_ask(france, "adjudicated", "ended"), _ask(england, "adjudicated")]
    _ask(game.players["Germany"], "press")  # an address, but not for this
    hook = game.master.ok("post", f"{game.path}/webhooks", {"url": receiver.url})
    france.ok("post", f"{game.path}/orders", {"orders": ["A Par - Bur"]})
    game.master.ok("post", f"{game.path}/adjudicate", {})

    assert _pass(store, settings, clock) > 0
    assert sorted(mail["To"] for mail in smtp.box.mails) == sorted(asked)
    mail = smtp.box.to(asked[0])[0]
    title = game.master.ok("get", game.path)["title"]
    assert mail["Subject"] == f"{title}: Spring 1901 movement adjudicated"
    text = _text(mail)
    assert f"{SITE}/games/{game.id}/phases/1" in text
    assert "Fall 1901 movement" in text and "S1901M" not in mail["Subject"]
    assert f"{SITE}/unsubscribe/" in text and mail["List-Unsubscribe"].strip().startswith(
        f"<{SITE}/"
    )

    [post] = receiver.posts
    expected = hmac.new(hook["secret"].encode(), post.body, hashlib.sha256).hexdigest()
    assert post.headers["X-Hegemon-Signature"] == f"sha256={expected}"
    payload = json.loads(post.body)
    assert payload["event"] == "adjudicated" and payload["phase"] == "S1901M"
    assert payload["phase_name"] == "Spring 1901 movement"
    assert payload["report"] == f"{SITE}/games/{game.id}/phases/1"
    assert "A Par - Bur" not in post.body.decode()  # an order is in the report, not the post

    # Nothing is sent twice.
    assert _pass(store, settings, clock) == 0
    assert len(smtp.box.mails) == 2 and len(receiver.posts) == 1

    # The game ends: France asked, England did not; the webhook is told.
    game.master.ok("post", f"{game.path}/end", {"draw": ["France", "England"]})
    _pass(store, settings, clock)
    [ended] = [m for m in smtp.box.mails if "ended" in m["Subject"]]
    assert ended["To"] == asked[0]
    assert [json.loads(p.body)["event"] for p in receiver.posts] == ["adjudicated", "ended"]


def test_the_game_started_is_mailed_to_those_who_asked_and_posted_to_its_webhook(
    client: TestClient,
    store: Store,
    clock: Clock,
    settings: NotifySettings,
    smtp: SmtpServer,
    receiver: Receiver,
) -> None:
    master = User(client, "st_gm")
    game = master.ok("post", "/api/games", {"variant": "classic", "seed": 7})
    path = f"/api/games/{game['id']}"
    master.ok("post", f"{path}/webhooks", {"url": receiver.url})
    players = {power: User(client, f"st_{power.lower()}") for power in game["powers"]}
    asked = _ask(players["Italy"], "started")
    for power, user in players.items():
        user.ok("post", f"{path}/join", {"power": power})  # the last to join starts it
    _pass(store, settings, clock)
    [mail] = smtp.box.mails
    assert mail["To"] == asked and mail["Subject"].endswith(": the game has started")
    assert "has started, its first deadline 2030-01-" in _text(mail)
    [post] = receiver.posts
    assert json.loads(post.body)["event"] == "started"


def test_the_unsubscribe_link_turns_that_mail_off_without_signing_in(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, smtp: SmtpServer
) -> None:
    game = _game(client, (store, settings, clock))
    france = game.players["France"]
    _ask(france, "adjudicated", "press")
    game.master.ok("post", f"{game.path}/adjudicate", {})
    _pass(store, settings, clock)
    text = _text(smtp.box.mails[0])
    link = next(line for line in text.splitlines() if "/unsubscribe/" in line)

    page = client.get(link.removeprefix(SITE))  # no session, no cookie
    assert page.status_code == 200 and "no more mail when a phase adjudicated" in page.text
    assert france.ok("get", "/api/me/notifications")["events"] == ["press"]
    forged = client.get(link.removeprefix(SITE)[:-3] + "AAA")
    assert forged.status_code == 404 and "not one this server made" in forged.text

    game.master.ok("post", f"{game.path}/adjudicate", {})
    _pass(store, settings, clock)
    assert len(smtp.box.mails) == 1


# --- a mail server down ---------------------------------------------------------------------


def test_a_mail_server_down_for_a_while_delays_mail_and_loses_none(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, smtp: SmtpServer
) -> None:
    game = _game(client, (store, settings, clock))
    asked = [_ask(game.players[p], "adjudicated") for p in ("France", "Italy", "Turkey")]
    smtp.stop()
    game.master.ok("post", f"{game.path}/adjudicate", {})  # adjudicated all the same
    _pass(store, settings, clock)
    with store.reading() as session:
        rows = session.scalars(select(models.Delivery)).all()
    assert len(rows) == 3
    assert all(r.sent_at is None and r.attempts == 1 and r.last_error for r in rows)

    clock.advance(20)  # the first retry is after 30 seconds: not yet
    assert _pass(store, settings, clock) == 0
    smtp.start()
    clock.advance(11)
    assert _pass(store, settings, clock) == 3
    assert sorted(mail["To"] for mail in smtp.box.mails) == sorted(asked)
    clock.advance(3600)
    _pass(store, settings, clock)
    assert len(smtp.box.mails) == 3


# --- the press digest -----------------------------------------------------------------------


def test_the_press_digest_gathers_what_its_reader_may_read_and_never_a_grey_author(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, smtp: SmtpServer
) -> None:
    game = _game(client, (store, settings, clock), press={"grey": True})
    p = game.players
    france = _ask(p["France"], "press")
    master = _ask(game.master, "press")

    def send(user: User, text: str, to: list[str] | None = None, **more: Any) -> None:
        user.ok("post", f"{game.path}/messages", {"to": to or [], "text": text, **more})

    send(p["England"], "To France alone: the Channel stays empty", ["France"])
    send(p["Germany"], "A public word from Berlin")
    send(p["Italy"], "Someone will betray you all", grey=True)
    send(p["Russia"], "Secret to Turkey: the Black Sea is yours", ["Turkey"])
    send(p["France"], "France's own word to England", ["England"])
    _pass(store, settings, clock)

    [mail] = smtp.box.to(france)
    text = _text(mail)
    assert "3 new messages" in mail["Subject"]
    assert "From England to France" in text and "the Channel stays empty" in text
    assert "From Germany to everyone" in text
    assert "From grey press (unsigned) to everyone" in text and "betray" in text
    assert "Italy" not in text  # the grey message's author, never named
    assert "Black Sea" not in text  # a message between others, never shown
    assert "France's own word" not in text

    # The game master (who may not read private press here) reads the public ones, and
    # the grey author's name, which is its to see.
    [to_master] = smtp.box.to(master)
    master_text = _text(to_master)
    assert "Black Sea" not in master_text and "Channel" not in master_text
    assert "betray" in master_text

    assert _pass(store, settings, clock) == 0  # each message once


# --- the deadline reminder ------------------------------------------------------------------


def test_the_deadline_reminder_goes_to_players_whose_orders_are_missing(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, smtp: SmtpServer
) -> None:
    game = _game(client, (store, settings, clock), deadlines={"movement": 48 * 3600})
    france = _ask(game.players["France"], "deadline", hours=24)
    _ask(game.players["England"], "deadline", hours=24)
    game.players["England"].ok("post", f"{game.path}/orders", {"orders": ["F Lon - Nth"]})
    _pass(store, settings, clock)
    assert smtp.box.mails == []  # 48 hours left: not yet

    clock.advance(25 * 3600)
    _pass(store, settings, clock)
    [mail] = smtp.box.mails
    assert mail["To"] == france and "orders for France are missing" in mail["Subject"]
    assert "Spring 1901 movement" in mail["Subject"]
    clock.advance(3600)
    _pass(store, settings, clock)
    assert len(smtp.box.mails) == 1  # once a phase


# --- input ----------------------------------------------------------------------------------


def test_preferences_and_webhooks_refuse_bad_input_saying_why(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, receiver: Receiver
) -> None:
    game = _game(client, (store, settings, clock))
    france = game.players["France"]
    answer = france.client.put(
        "/api/me/notifications", json={"email": "not an address"}, headers=france.headers
    )
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("body.email") and "name@example.org" in answer.text
    for body in ({"events": ["everything"]}, {"hours": 0}, {"hours": 1000}):
        answer = france.client.put("/api/me/notifications", json=body, headers=france.headers)
        assert answer.status_code == 422, body
    assert france.ok("get", "/api/me/notifications") == {
        "email": None, "events": [], "hours": 12, "mail": True
    }  # fmt: skip

    hooks = f"{game.path}/webhooks"
    assert france.post(hooks, {"url": receiver.url}).status_code == 403
    assert game.observer.get(hooks).status_code == 403
    for url, why in (("ftp://example.org/x", "http"), ("http://", "host")):
        answer = game.master.post(hooks, {"url": url})
        assert answer.status_code == 422 and why in answer.json()["detail"], answer.text
    client.app.state.notify = replace(settings, webhooks_private=False)  # type: ignore[attr-defined]
    for url in (receiver.url, "http://[::1]/", "http://169.254.169.254/", "https://10.1.2.3/"):
        answer = game.master.post(hooks, {"url": url})
        assert answer.status_code == 422, url
        assert "private or local address" in answer.json()["detail"], url
    client.app.state.notify = settings  # type: ignore[attr-defined]
    made = game.master.ok("post", hooks, {"url": receiver.url})
    assert game.master.post(hooks, {"url": receiver.url}).status_code == 409
    assert game.master.ok("get", hooks)["webhooks"] == [made]
    assert game.master.delete(f"{hooks}/{made['id']}").status_code == 204
    assert game.master.delete(f"{hooks}/{made['id']}").status_code == 404


# --- two senders, and adjudication never held up -------------------------------------------


def test_two_senders_on_one_database_never_send_a_mail_twice(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, smtp: SmtpServer
) -> None:
    game = _game(client, (store, settings, clock))
    asked = [_ask(user, "adjudicated") for user in game.players.values()]
    game.master.ok("post", f"{game.path}/adjudicate", {})
    game.master.ok("post", f"{game.path}/adjudicate", {})
    other = Store(str(store.engine.url.render_as_string(hide_password=False)))
    try:
        passes = [threading.Thread(target=_pass, args=(s, settings, clock)) for s in (store, other)]
        for thread in passes:
            thread.start()
        for thread in passes:
            thread.join()
        _pass(store, settings, clock)
    finally:
        other.close()
    assert sorted(m["To"] for m in smtp.box.mails) == sorted(asked * 2)


def test_a_notifier_down_or_failing_never_holds_up_adjudication(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, receiver: Receiver
) -> None:
    game = _game(client, (store, settings, clock))
    _ask(game.players["France"], "adjudicated")
    game.master.ok("post", f"{game.path}/webhooks", {"url": receiver.url})
    receiver.status = 500
    failing = replace(settings, smtp_port=free_port(), timeout=1)  # nobody listens there
    stop = threading.Event()
    running = threading.Thread(target=sender.work, args=(store, stop, failing, 0.05, clock))
    running.start()
    try:
        for _ in range(3):
            game.master.ok("post", f"{game.path}/adjudicate", {})
    finally:
        stop.set()
        running.join(10)
    assert not running.is_alive()
    assert game.master.ok("get", game.path)["phase"] == "F1902M"
    _pass(store, failing, clock)  # whatever the thread had not turned yet
    with store.reading() as session:
        rows = session.scalars(select(models.Delivery)).all()
    assert {r.kind for r in rows} == {"mail", "webhook"}
    assert all(r.sent_at is None and r.last_error for r in rows)


def test_a_webhook_redirect_is_not_followed_and_a_refusal_is_final(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, receiver: Receiver
) -> None:
    game = _game(client, (store, settings, clock))
    game.master.ok("post", f"{game.path}/webhooks", {"url": receiver.url})
    receiver.status = 302
    game.master.ok("post", f"{game.path}/adjudicate", {})
    _pass(store, settings, clock)
    assert [post.path for post in receiver.posts] == ["/hook"]
    with store.reading() as session:
        [row] = session.scalars(select(models.Delivery)).all()
    assert row.last_error == "answered 302" and row.next_attempt is not None  # tried again

    receiver.status = 410  # the receiver is gone for good: given up at once
    clock.advance(60)
    _pass(store, settings, clock)
    clock.advance(7200)
    _pass(store, settings, clock)
    assert len(receiver.posts) == 2
    with store.reading() as session:
        [row] = session.scalars(select(models.Delivery)).all()
    assert row.last_error == "answered 410" and row.next_attempt is None and row.attempts == 2


def test_a_webhook_host_whose_lookup_hangs_is_refused_within_the_timeout(
    client: TestClient, store: Store, clock: Clock, settings: NotifySettings, monkeypatch: Any
) -> None:
    """The system's resolver takes no timeout. No name server that never answers runs on
    this machine, so its lookup is made to hang: adding the webhook is refused with the
    reason once the notifications' timeout has passed, and the lookup's thread is freed
    when it ends (had the wait not been bounded, the request would end in an error only
    once the hang did, with no address)."""
    game = _game(client, (store, settings, clock))
    ended = threading.Event()

    def hanging(*_: Any, **__: Any) -> list[Any]:
        ended.wait(30)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    with pytest.raises(SendFailed, match=r"^hooks\.example: not found within 0\.3 seconds$"):
        hooks.resolve("hooks.example", 443, False, timeout=0.3)
    answer = game.master.post(f"{game.path}/webhooks", {"url": "https://hooks.example/x"})
    ended.set()
    assert answer.status_code == 422
    assert answer.json()["detail"] == (
        "url 'https://hooks.example/x': hooks.example: not found within 5 seconds"
    )


# --- the sender `hegemon serve` runs ----------------------------------------------------------


def test_hegemon_serve_runs_the_sender_from_the_environments_settings(
    tmp_path: Path, smtp: SmtpServer, receiver: Receiver
) -> None:
    """The tests above run the sender's passes themselves; `hegemon serve` runs them in a
    thread of its own, with the settings its environment gives: the game started and the
    phase adjudicated reach the mail server and the game's webhook, each once."""
    environment = {
        "HEGEMON_SMTP_HOST": "127.0.0.1",
        "HEGEMON_SMTP_PORT": str(smtp.port),
        "HEGEMON_SMTP_TLS": "none",
        "HEGEMON_PUBLIC_URL": SITE,
        "HEGEMON_WEBHOOKS_PRIVATE": "1",  # the receiver is on 127.0.0.1
    }
    database = f"sqlite:///{tmp_path / 'served.db'}"
    with (
        served(database, tmp_path / "serve.log", environment) as (address, _),
        httpx.Client(base_url=address, timeout=10) as http,
    ):
        client: Any = http  # a TestClient's requests, sent to the process
        master = User(client, "sv_gm")
        game = master.ok("post", "/api/games", {"variant": "classic", "seed": 7})
        path = f"/api/games/{game['id']}"
        master.ok("post", f"{path}/webhooks", {"url": receiver.url})
        players = {power: User(client, f"sv_{power.lower()}") for power in game["powers"]}
        asked = _ask(players["Italy"], "started", "adjudicated")
        for power, user in players.items():
            user.ok("post", f"{path}/join", {"power": power})  # the last to join starts it
        master.ok("post", f"{path}/adjudicate", {})
        _wait(lambda: len(smtp.box.mails) >= 2 and len(receiver.posts) >= 2, seconds=30)
        time.sleep(sender.POLL)  # a pass more: nothing is sent twice
    assert [mail["To"] for mail in smtp.box.mails] == [asked, asked]
    subjects = [mail["Subject"] for mail in smtp.box.mails]
    assert subjects[0].endswith(": the game has started"), subjects
    assert f"{SITE}/games/{game['id']}" in _text(smtp.box.mails[1])
    assert [json.loads(post.body)["event"] for post in receiver.posts] == [
        "started",
        "adjudicated",
    ]


def _wait(done: Callable[[], bool], seconds: float) -> None:
    until = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < until, f"not done within {seconds} s"
        time.sleep(0.2)
