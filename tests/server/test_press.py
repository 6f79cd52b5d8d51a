"""Press (docs/server.md, "Press"): private, group and public messages, grey press, the
game master's channel, the press policy's refusals, mutes, powers out of the game,
observers, the rate of sending, the text's limits, paging, ETags, read marks, the events
the live stream follows and the exports. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from hegemon.cli import main
from hegemon.position import Viewer
from hegemon.server import auth, create_app, events, press
from hegemon.server.policy import Policy, PressPolicy
from hegemon.server.table import Table
from hegemon.store import Store, models
from hegemon.variants import available_variants, load_variant
from tests.server.conftest import CHEAP, GENEROUS, Clock, Seated, User, seated_game

SECRET = "Meet me in Burgundy, France"
REPLY = "Agreed, England: Burgundy it is"


def _game(client: TestClient, prefix: str = "", **press: Any) -> Seated:
    """A classic game started, every seat taken, with that press policy."""
    return seated_game(client, "classic", prefix=prefix, seed=7, policy={"press": press})


def _send(user: User, game: Seated, text: str, to: list[str] | None = None, **more: Any) -> Any:
    return user.post(f"{game.path}/messages", {"to": to or [], "text": text, **more})


def _sent(user: User, game: Seated, text: str, to: list[str] | None = None, **more: Any) -> Any:
    answer = _send(user, game, text, to, **more)
    assert answer.status_code == 201, answer.text
    return answer.json()


def _channel(user: User, game: Seated, channel: str, **params: Any) -> list[Any]:
    answer: list[Any] = user.ok(
        "get", f"{game.path}/messages", params={"channel": channel, **params}
    )
    return answer


def everything_read(user: User, game: Seated, channels: list[str]) -> list[str]:
    """Every answer the user can get of the game, as text: the game, its progress, its
    phases and their reports, its conversations, every channel named and each one listed,
    its whole press, its games list; and the web pages of each (signed in by the cookie
    a browser holds), the game master's page too."""
    paths = [game.path, f"{game.path}/progress", f"{game.path}/phases", f"{game.path}/press",
             f"{game.path}/conversations", "/api/games"]  # fmt: skip
    pages = ["/", f"/games/{game.id}", f"/games/{game.id}/master"]
    for line in user.ok("get", f"{game.path}/phases"):
        paths.append(f"{game.path}/phases/{line['number']}")
        pages.append(f"/games/{game.id}/phases/{line['number']}")
    texts = [user.get(path).text for path in paths]
    token = user.headers["Authorization"].removeprefix("Bearer ")
    cookie = {"Cookie": f"{auth.COOKIE}={token}"}
    shown = [user.client.get(page, headers=cookie, follow_redirects=False) for page in pages]
    assert shown[1].status_code == 200, shown[1].text  # the game's page, as a member reads it
    texts += [answer.text for answer in shown]
    listed = [c["channel"] for c in user.ok("get", f"{game.path}/conversations")]
    for channel in {*channels, *listed}:
        texts.append(user.get(f"{game.path}/messages", params={"channel": channel}).text)
    return texts


# --- private, group and public press ------------------------------------------------------


def test_a_private_message_is_read_by_its_participants_alone(client: TestClient) -> None:
    game = _game(client)
    england, france, germany = (game.players[p] for p in ("England", "France", "Germany"))
    sent = _sent(england, game, SECRET, ["France"])
    assert sent["channel"] == "England,France" and sent["sender"] == "England"
    assert sent["to"] == ["France"] and sent["phase"] == "S1901M" and "author" not in sent
    answer = _sent(france, game, REPLY, ["england"])  # in any case
    assert answer["channel"] == "England,France" and answer["to"] == ["England"]
    for reader in (england, france):
        assert [m["text"] for m in _channel(reader, game, "England,France")] == [SECRET, REPLY]
        conversations = reader.ok("get", f"{game.path}/conversations")
        assert conversations[1] == {
            "channel": "England,France",
            "members": ["England", "France"],
            "last": answer["id"],
            "unread": 1,  # the other's message; one's own is never unread
        }
    # Germany, the observer and the game master (who does not read private press by
    # default) find neither message, nor that the conversation exists, in any answer.
    for outsider in (germany, game.observer, game.master):
        texts = everything_read(outsider, game, ["England,France"])
        assert not any(SECRET in t or REPLY in t or "England,France" in t for t in texts)
        assert outsider.ok("get", f"{game.path}/conversations") == [
            {"channel": "public", "members": [], "last": 0, "unread": 0}
        ]


def test_a_group_message_reaches_each_member_and_its_channel_names_them_all(
    client: TestClient,
) -> None:
    game = _game(client)
    sent = _sent(game.players["Germany"], game, "Triple alliance?", ["Russia", "Austria"])
    assert sent["channel"] == "Austria,Germany,Russia"
    for power in ("Austria", "Russia"):
        assert _channel(game.players[power], game, "Austria,Germany,Russia")[0]["id"] == sent["id"]
    assert _channel(game.players["Turkey"], game, "Austria,Germany,Russia") == []


def test_public_press_reaches_every_member_and_observer(client: TestClient) -> None:
    game = _game(client)
    sent = _sent(game.players["Italy"], game, "Peace in the Mediterranean")
    assert sent["channel"] == "public" and sent["to"] == [] and sent["sender"] == "Italy"
    for reader in (*game.players.values(), game.observer, game.master):
        assert _channel(reader, game, "public") == [sent]
        unread = reader.ok("get", f"{game.path}/conversations")[0]["unread"]
        assert unread == (0 if reader is game.players["Italy"] else 1)
    assert game.outsider.get(f"{game.path}/messages").status_code == 403


def test_the_game_master_reads_private_press_only_where_the_policy_says(
    client: TestClient,
) -> None:
    closed, open_ = _game(client, "a"), _game(client, "b", master_reads=True)
    for game in (closed, open_):
        _sent(game.players["England"], game, SECRET, ["France"])
    assert _channel(closed.master, closed, "England,France") == []
    assert [m["text"] for m in _channel(open_.master, open_, "England,France")] == [SECRET]
    assert open_.master.ok("get", open_.path)["press"]["master_reads"] is True


def test_the_game_master_and_a_power_write_to_each_other_in_their_channel(
    client: TestClient,
) -> None:
    game = _game(client)
    france = game.players["France"]
    asked = _sent(france, game, "May I have an extension?", ["master"])
    answered = _sent(game.master, game, "Two more days", ["France"])
    assert asked["channel"] == answered["channel"] == "France,master"
    assert answered["sender"] == "master"
    assert [m["id"] for m in _channel(game.master, game, "France,master")] == [
        asked["id"],
        answered["id"],
    ]
    assert _channel(game.players["England"], game, "France,master") == []


def test_recipients_are_checked(client: TestClient) -> None:
    game = _game(client)
    england = game.players["England"]
    answer = _send(england, game, "hello", ["Atlantis"])
    assert answer.status_code == 422 and "unknown power 'Atlantis'" in answer.json()["detail"]
    answer = _send(england, game, "hello", ["England"])
    assert answer.status_code == 422 and "you are among the recipients" in answer.json()["detail"]
    answer = _send(england, game, "hello", ["France"] * 61)
    assert answer.status_code == 422 and "body.to" in answer.json()["detail"]
    assert _sent(england, game, "hello", ["France", "FRANCE"])["to"] == ["France"]


# --- grey press ----------------------------------------------------------------------------


def test_grey_press_hides_its_author_from_every_player(client: TestClient) -> None:
    game = _game(client, grey=True)
    england = game.players["England"]
    sent = _sent(england, game, "Russia cannot be trusted", grey=True)
    assert sent["sender"] is None and "author" not in sent and sent["grey"] is True
    for power, reader in game.players.items():
        for listed in (
            _channel(reader, game, "public"),
            reader.ok("get", f"{game.path}/press")["messages"],
        ):
            assert listed == [sent], power
        assert reader.ok("get", f"{game.path}/conversations")[0]["unread"] == (
            0 if power == "England" else 1
        )
    master_reads = _channel(game.master, game, "public")[0]
    assert master_reads["author"] == master_reads["sender"] == "England"
    # A grey message goes to everyone or nobody: refused with the reason, naming nobody.
    answer = _send(england, game, "psst", ["France"], grey=True)
    assert answer.status_code == 422 and "grey press is public" in answer.json()["detail"]


def test_grey_press_is_refused_where_the_policy_allows_none(client: TestClient) -> None:
    game = _game(client)
    answer = _send(game.players["England"], game, "anonymous", grey=True)
    assert answer.status_code == 403
    assert answer.json()["detail"] == "grey press is not allowed in this game"
    assert _channel(game.players["France"], game, "public") == []


# --- the press policy ---------------------------------------------------------------------


def test_a_gunboat_game_refuses_press_but_to_the_game_master(client: TestClient) -> None:
    game = _game(client, mode="none")
    assert game.master.ok("get", game.path)["press"]["mode"] == "none"
    england = game.players["England"]
    for to in ([], ["France"]):
        answer = _send(england, game, "hello", to)
        assert answer.status_code == 403
        assert answer.json()["detail"].startswith("this game is gunboat: no press")
    assert _sent(england, game, "I will be late", ["master"])["channel"] == "England,master"
    assert _sent(game.master, game, "The deadline moves")["sender"] == "master"


def test_a_public_press_game_refuses_private_and_group_messages(client: TestClient) -> None:
    game = _game(client, mode="public")
    england = game.players["England"]
    for to in (["France"], ["France", "Germany"]):
        answer = _send(england, game, "hello", to)
        assert answer.status_code == 403
        assert answer.json()["detail"].startswith("public press only:")
    assert _sent(england, game, "hello all")["channel"] == "public"


def _to_adjustments(game: Seated) -> None:
    """Play the game to Winter 1901: France takes Spain and builds."""
    france = game.players["France"]
    for orders in (["A mar - spa"], ["A spa H"]):
        france.ok("post", f"{game.path}/orders", {"orders": orders})
        game.master.ok("post", f"{game.path}/adjudicate", {})
    assert game.master.ok("get", game.path)["phase"] == "W1901A"


def test_press_outside_movement_phases_follows_the_policy(client: TestClient) -> None:
    quiet, talkative = _game(client, "a", other_phases=False), _game(client, "b")
    for game in (quiet, talkative):
        _to_adjustments(game)
    answer = _send(quiet.players["England"], quiet, "hello", ["France"])
    assert answer.status_code == 403
    assert answer.json()["detail"] == "no press during retreats and adjustments in this game"
    assert _sent(quiet.players["England"], quiet, "where are my builds?", ["master"])
    assert _sent(talkative.players["England"], talkative, "hello", ["France"])["phase"] == "W1901A"


def test_a_game_stored_before_press_has_the_default_policy() -> None:
    stored = Policy().to_json()
    del stored["press"]
    assert Policy.from_json(stored).press == PressPolicy("full", False, True, False)


def test_the_press_policy_is_checked_when_the_game_is_made(client: TestClient) -> None:
    master = User(client, "maker")
    body = {"variant": "classic", "policy": {"press": {"mode": "whispers"}}}
    answer = master.post("/api/games", body)
    assert answer.status_code == 422 and "body.policy.press.mode" in answer.json()["detail"]


# --- who may send ---------------------------------------------------------------------------


def test_the_game_master_mutes_a_player(client: TestClient) -> None:
    game = _game(client)
    france = game.players["France"]
    refused = france.post(f"{game.path}/mute", {"power": "England", "muted": True})
    assert refused.status_code == 403
    assert game.master.ok("post", f"{game.path}/mute", {"power": "england", "muted": True}) == {
        "power": "England",
        "muted": True,
    }
    answer = _send(game.players["England"], game, "hello", ["France"])
    assert answer.status_code == 403
    assert (
        answer.json()["detail"] == "the game master has muted you in this game: you send no press"
    )
    assert _channel(france, game, "England,France") == []
    game.master.ok("post", f"{game.path}/mute", {"power": "England", "muted": False})
    assert _sent(game.players["England"], game, "hello again", ["France"])


def test_an_observer_reads_public_press_and_sends_none(client: TestClient) -> None:
    game = _game(client)
    _sent(game.players["England"], game, SECRET, ["France"])
    public = _sent(game.players["England"], game, "hello all")
    answer = _send(game.observer, game, "hello")
    assert answer.status_code == 403 and "an observer" in answer.json()["detail"]
    assert game.observer.ok("get", f"{game.path}/press")["messages"] == [public]


def _eliminate(store: Store, game_id: int, power: str, heir: str) -> None:
    """Take every unit of `power` off the board and give its centers to `heir` (the
    game's starting position, as nothing is played yet)."""
    with store.writing() as session:
        game = session.get(models.Game, game_id)
        assert game is not None and game.played == 0
        start: dict[str, Any] = json.loads(json.dumps(game.start))
        del start["units"][power]
        start["centers"][heir] += start["centers"].pop(power)
        game.start = start


def test_a_power_out_of_the_game_reads_public_press_but_sends_none(
    client: TestClient, store: Store
) -> None:
    game = _game(client)
    _eliminate(store, game.id, "Italy", "Austria")
    italy = game.players["Italy"]
    answer = _send(italy, game, "I am still here")
    assert answer.status_code == 403
    assert (
        answer.json()["detail"] == "Italy is out of the game: it reads public press but sends none"
    )
    public = _sent(game.players["Austria"], game, "Rome is mine")
    assert _channel(italy, game, "public") == [public]


def test_no_power_of_any_variant_is_out_of_the_game_at_its_start() -> None:
    # African Diplomacy II's powers start with nothing and place their armies; Africa
    # II's are superpowers off the board: neither is out before it has played.
    for name in available_variants():
        variant = load_variant(name)
        start = variant.initial_position()
        assert not [p for p in variant.powers if variant.eliminated(start, p)], name


# --- limits ----------------------------------------------------------------------------------


def test_sending_is_rate_limited_per_account(store: Store, clock: Clock) -> None:
    limits = replace(GENEROUS, press="3/minute")
    with TestClient(create_app(store=store, hasher=CHEAP, clock=clock, limits=limits)) as client:
        game = _game(client)
        england = game.players["England"]
        for number in range(3):
            _sent(england, game, f"message {number}")
        answer = _send(england, game, "one too many")
        assert answer.status_code == 429
        assert answer.json()["detail"].startswith("too many messages sent by this account")
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
        assert _sent(game.players["France"], game, "my own count")  # each account its own


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "at least 1 character"),
        ("x" * 5001, "at most 5000 characters"),
        (" \n\t  ", "holds nothing to read"),
        ("\u202e\u200b", "holds nothing to read"),
        ("\x07\x07", "holds the control character U+0007 at 0"),
        ("hello\x00", "holds the control character U+0000 at 5"),
    ],
)
def test_text_with_nothing_to_read_or_too_long_is_refused(
    client: TestClient, text: str, problem: str
) -> None:
    game = _game(client)
    answer = _send(game.players["England"], game, text)
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("body.text:") and problem in answer.json()["detail"]
    assert _channel(game.players["France"], game, "public") == []


@pytest.mark.parametrize(
    "text",
    [
        "x" * 5000,  # a 5,000-character word
        "<script>alert('press')</script>",
        '"><img src=x onerror=alert(1)>',
        "Paris \u202egnitaerter\u202c, line one\nline two\ttabbed",
        "Ελλάδα, Türkiye, 日本, 🙂",
    ],
)
def test_text_is_stored_and_answered_as_written(client: TestClient, text: str) -> None:
    game = _game(client)
    sent = _sent(game.players["England"], game, text, ["France"])
    answer = game.players["France"].get(
        f"{game.path}/messages", params={"channel": "England,France"}
    )
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()[0]["text"] == sent["text"] == text


# --- reading: pages, ETags, read marks ------------------------------------------------------


def test_a_channel_is_read_in_pages(client: TestClient) -> None:
    game = _game(client)
    ids = [_sent(game.players["England"], game, f"message {n}")["id"] for n in range(7)]
    france = game.players["France"]

    def page(**params: Any) -> list[int]:
        return [m["id"] for m in _channel(france, game, "public", **params)]

    assert page(limit=3) == ids[4:]  # the latest, oldest first
    assert page(limit=3, before=ids[4]) == ids[1:4]
    assert page(limit=3, after=ids[1]) == ids[2:5]
    assert page(after=ids[6]) == []
    assert page() == ids
    assert france.get(f"{game.path}/messages", params={"limit": 201}).status_code == 422


def test_an_unchanged_channel_answers_304_to_its_etag(client: TestClient) -> None:
    game = _game(client)
    france = game.players["France"]
    _sent(game.players["England"], game, "first")
    first = france.get(f"{game.path}/messages")
    etag = first.headers["ETag"]
    again = client.get(f"{game.path}/messages", headers={**france.headers, "If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.content
    _sent(game.players["England"], game, "second")
    changed = client.get(f"{game.path}/messages", headers={**france.headers, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert [m["text"] for m in changed.json()] == ["first", "second"]
    listed = france.get(f"{game.path}/conversations")
    tagged = client.get(
        f"{game.path}/conversations",
        headers={**france.headers, "If-None-Match": listed.headers["ETag"]},
    )
    assert tagged.status_code == 304


def test_read_marks_count_what_is_unread(client: TestClient) -> None:
    game = _game(client)
    england, france = game.players["England"], game.players["France"]
    ids = [_sent(england, game, f"note {n}", ["France"])["id"] for n in range(3)]

    def unread() -> int:
        listed = france.ok("get", f"{game.path}/conversations")
        return int(next(c["unread"] for c in listed if c["channel"] == "England,France"))

    assert unread() == 3
    read = {"channel": "England,France", "up_to": ids[1]}
    assert france.post(f"{game.path}/conversations/read", read).status_code == 204
    assert unread() == 1
    assert [g["unread"] for g in france.ok("get", "/api/games")] == [1]  # the list of games
    assert [g["unread"] for g in game.players["Germany"].ok("get", "/api/games")] == [0]
    read = {"channel": "England,France", "up_to": ids[0]}  # a mark never goes back
    assert france.post(f"{game.path}/conversations/read", read).status_code == 204
    assert unread() == 1
    # Germany has no such conversation: refused as for a channel that does not exist.
    for channel in ("England,France", "Narnia"):
        answer = game.players["Germany"].post(
            f"{game.path}/conversations/read", {"channel": channel, "up_to": ids[2]}
        )
        assert answer.status_code == 404
        assert (
            answer.json()["detail"] == f"channel: you have no message in {channel!r} up to {ids[2]}"
        )


# --- what the live stream and the exports read -------------------------------------------------


def test_each_message_publishes_an_event_for_its_readers_alone(
    client: TestClient, store: Store
) -> None:
    game = _game(client)
    private = _sent(game.players["England"], game, SECRET, ["France"])
    public = _sent(game.players["Germany"], game, "hello all")
    with store.reading() as session:
        rows = session.scalars(select(models.Message).order_by(models.Message.id)).all()
        assert [(m.channel, m.number) for m in rows] == [
            (private["channel"], private["id"]),
            (public["channel"], public["id"]),
        ]
        for power, read in (("France", rows), ("Germany", rows[1:])):
            seen = events.since(session, game.id, 0, Viewer(power=power))
            told = [e.payload["id"] for e in seen if e.kind == "message"]  # not the game's progress
            assert told == [m.id for m in read]
        germany = session.scalar(select(models.User).where(models.User.name == "germany"))
        table = Table.open(session, game.id, germany)
        assert press.message_view(table, rows[0]) is None
        assert press.message_view(table, rows[1]) == press.render(table.viewer, rows[1])


def test_the_database_export_carries_the_press_as_the_game_master_reads_it(
    client: TestClient, store: Store, database: str, tmp_path: Path
) -> None:
    game = _game(client, grey=True)
    _sent(game.players["England"], game, SECRET, ["France"])
    grey = _sent(game.players["France"], game, "Down with England", grey=True)
    to_master = _sent(game.players["France"], game, "a word for the GM", ["master"])
    files = tmp_path / "game.json", tmp_path / "press.json"
    command = ["db", "export", str(game.id), str(files[0]), "--press", str(files[1])]
    assert main([*command, "--database", database]) == 0
    exported = json.loads(files[1].read_text())
    assert exported["viewer"] == "the game master"
    assert [m["id"] for m in exported["messages"]] == [grey["id"], to_master["id"]]
    assert exported["messages"][0]["author"] == "France"
    assert main([*command, "--database", database]) == 1  # the files are there already
    # A player's export holds what it reads, the grey author hidden.
    germany = game.players["Germany"].ok("get", f"{game.path}/press")
    assert germany["viewer"] == "Germany" and germany["messages"] == [grey]


def test_a_channels_numbers_count_its_own_messages_alone(client: TestClient) -> None:
    """Messages are known by their number in their channel: a player reading the public
    channel cannot count, by gaps in the numbers, the private messages sent meanwhile."""
    game = _game(client)
    first = _sent(game.players["Germany"], game, "one")
    for _ in range(3):
        _sent(game.players["England"], game, SECRET, ["France"])
    second = _sent(game.players["Germany"], game, "two")
    assert (first["id"], second["id"]) == (1, 2)
    assert [m["id"] for m in _channel(game.players["Germany"], game, "public")] == [1, 2]
    private = _channel(game.players["France"], game, "England,France")
    assert [m["id"] for m in private] == [1, 2, 3]
