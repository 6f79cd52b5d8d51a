"""Bots in the server (issue 26): accounts of their own kind, marked in every player list
and opened by no password; seats given to bots when a game is created, when it starts or
by its game master; a policy that gives a power in civil disorder to a bot until its player
comes back; and the deadline worker's pass that plays them through the players' own calls,
claimed so that no two workers play one game, with nothing kept but in the database."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from hegemon.bots import PlayerKind, Sight
from hegemon.orders import Order
from hegemon.server import demo
from hegemon.server.bot_play import PLAYERS, BotPlay, _claim
from hegemon.server.worker import run_due
from hegemon.store import Store, models
from hegemon.store.database import _alembic_config
from hegemon.variants import available_variants, load_variant
from tests.server.conftest import CHEAP, PASSWORD, Clock, User, seated_game

CLASSIC_BOTS = ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"]
HOUR = 3600


def _orders_given(store: Store, game_id: int) -> dict[str, int]:
    """How many times each account gave orders in the game (the audit's "orders")."""
    with store.reading() as session:
        rows = session.execute(
            select(models.User.name)
            .join(models.Audit, models.Audit.user_id == models.User.id)
            .where(models.Audit.game_id == game_id, models.Audit.action == "orders")
        )
        counted: dict[str, int] = {}
        for (name,) in rows:
            counted[name] = counted.get(name, 0) + 1
        return counted


def _pending(store: Store, game_id: int) -> dict[str, models.Pending]:
    with store.reading() as session:
        rows = session.scalars(select(models.Pending).where(models.Pending.game_id == game_id))
        return {row.power: row for row in rows}


def _france_against_bots(client: TestClient, **settings: Any) -> tuple[User, User, int]:
    """A classic game, its game master, France's player; the other seats bots'."""
    master = User(client, "gm")
    game = master.ok(
        "post", "/api/games", {"variant": "classic", "seed": 5, "bots": CLASSIC_BOTS, **settings}
    )
    france = User(client, "fran")
    france.ok("post", f"/api/games/{game['id']}/join", {"power": "France"})
    return master, france, game["id"]


def test_bots_are_marked_as_bots_and_nobody_signs_in_as_one(client: TestClient) -> None:
    _, france, game_id = _france_against_bots(client)
    game = france.ok("get", f"/api/games/{game_id}")
    assert game["status"] == "active" and game["bots"] == CLASSIC_BOTS
    seated = {m["power"]: m for m in game["members"] if m["role"] == "player"}
    assert seated["Germany"] == {"name": "Germany bot", "role": "player", "power": "Germany",
                                 "bot": True}  # fmt: skip
    assert seated["France"]["bot"] is False
    assert not any(m["bot"] for m in game["members"] if m["role"] == "master")
    for password in (PASSWORD, "", "!", "x" * 20):
        answer = client.post("/api/sessions", json={"name": "Germany bot", "password": password})
        assert answer.status_code in (401, 422), answer.text
    # Nobody can open an account of a bot's name either: it holds a space.
    taken = client.post("/api/accounts", json={"name": "Italy bot", "password": PASSWORD})
    assert taken.status_code == 422 and "name" in taken.text
    # The pages mark them too: the seat table of a player's page.
    client.post("/api/sessions", json={"name": "fran", "password": PASSWORD, "cookie": True})
    page = client.get(f"/games/{game_id}").text
    assert page.count('class="badge bot"') == len(CLASSIC_BOTS)
    assert 'title="Germany bot: the server' in page


def test_the_create_api_refuses_bots_it_cannot_seat_saying_why(client: TestClient) -> None:
    master = User(client, "gm")
    for bots, status, why in (
        (["Narnia"], 422, "bots: unknown power 'Narnia'"),
        (["France", "france"], 422, "bots: France is named twice"),
    ):
        answer = master.post("/api/games", {"variant": "classic", "bots": bots})
        assert answer.status_code == status and answer.json()["detail"].startswith(why), answer.text
    wrong = master.post("/api/games", {"variant": "classic", "fill_with_bots": "yes"})
    assert wrong.status_code == 422 and "fill_with_bots" in wrong.text
    assert master.ok("get", "/api/games") == []  # nothing was made


def test_every_seat_a_bot_and_the_game_starts_at_once(client: TestClient) -> None:
    master = User(client, "gm")
    powers = [*CLASSIC_BOTS, "France"]
    game = master.ok("post", "/api/games", {"variant": "classic", "bots": powers})
    assert game["status"] == "active" and sorted(game["bots"]) == sorted(powers)


def test_seats_left_empty_go_to_bots_when_the_game_starts(client: TestClient) -> None:
    master = User(client, "gm")
    game = master.ok("post", "/api/games", {"variant": "classic", "fill_with_bots": True})
    assert game["fill_with_bots"] is True and game["bots"] == []
    User(client, "fran").ok("post", f"/api/games/{game['id']}/join", {"power": "France"})
    started = master.ok("post", f"/api/games/{game['id']}/start")
    assert started["status"] == "active" and started["bots"] == CLASSIC_BOTS


def test_the_game_master_fills_the_empty_seats_with_bots(client: TestClient) -> None:
    game = seated_game(client, "classic", free=("Italy", "Turkey"))
    client.post("/api/sessions", json={"name": "gm", "password": PASSWORD, "cookie": True})
    page = client.get(f"/games/{game.id}/master").text  # the page's action, for free seats
    assert 'data-action="fill-with-bots"' in page and "Italy, Turkey: each played" in page
    filled = game.master.ok("post", f"{game.path}/fill-with-bots")
    assert 'data-action="fill-with-bots"' not in client.get(f"/games/{game.id}/master").text
    assert filled["bots"] == ["Italy", "Turkey"]
    again = game.master.post(f"{game.path}/fill-with-bots")
    assert again.status_code == 409 and "every seat is taken" in again.text
    refused = game.players["France"].post(f"{game.path}/fill-with-bots")
    assert refused.status_code == 403


def test_bots_give_orders_and_say_ready_as_players_do_and_keep_them_secret(
    client: TestClient, store: Store, clock: Clock
) -> None:
    master, france, game_id = _france_against_bots(client)
    path = f"/api/games/{game_id}"
    assert BotPlay().run(store, clock) == len(CLASSIC_BOTS)
    game = france.ok("get", path)
    assert game["ready"] == CLASSIC_BOTS and set(game["received"]) >= set(CLASSIC_BOTS)
    assert game["played"] == 0  # France is awaited still
    assert _orders_given(store, game_id) == {f"{p} bot": 1 for p in CLASSIC_BOTS}
    # Their orders are the game master's to read, and nobody else's.
    secret = {p: row.orders for p, row in _pending(store, game_id).items() if p != "France"}
    assert all(secret.values())
    assert master.ok("get", path)["orders"]["Germany"]["orders"] == secret["Germany"]
    seen = json.dumps([france.ok("get", path), france.ok("get", f"{path}/progress"),
                       france.ok("get", f"{path}/options")])  # fmt: skip
    for orders in secret.values():
        for order in orders:
            assert f'"{order}"' not in seen, order
    assert list(france.ok("get", path)["orders"]) == ["France"]
    # France says ready: the phase is played at once, the bots' orders in it.
    france.ok("post", f"{path}/orders", {"orders": ["A par - bur"]})
    assert france.ok("post", f"{path}/ready", {})["adjudicated"] == ["S1901M"]
    played = france.ok("get", f"{path}/phases/1")["result"]["outcomes"]
    given = {(o["power"], o["order"]) for o in played}
    assert {("Germany", order) for order in secret["Germany"]} <= given
    # The next phase: the bots play it at the next pass.
    assert BotPlay().run(store, clock) == len(CLASSIC_BOTS)


def test_two_workers_never_both_play_a_game(client: TestClient, store: Store, clock: Clock) -> None:
    """Two workers' passes at once over games with bots: each bot gives its orders once."""
    games = [_france_against_bots(client)[2]]
    other = seated_game(client, "classic", free=("Italy",), prefix="b_")
    other.master.ok("post", f"{other.path}/fill-with-bots")
    games.append(other.id)
    counts: list[int] = []
    passes = [threading.Thread(target=lambda: counts.append(BotPlay().run(store, clock)))
              for _ in range(2)]  # fmt: skip
    for one in passes:
        one.start()
    for one in passes:
        one.join()
    assert sum(counts) == len(CLASSIC_BOTS) + 1
    assert _orders_given(store, games[0]) == {f"{p} bot": 1 for p in CLASSIC_BOTS}
    assert _orders_given(store, games[1]).get("Italy bot") == 1
    assert BotPlay().run(store, clock) == 0  # nothing owed: all are ready


class _Meddler:
    """Stands in for a bot, and while it decides, has the game worked on elsewhere."""

    kind = PlayerKind.BOT

    def __init__(self, meddle: Callable[[], None]) -> None:
        self.meddle = meddle

    def orders(self, sight: Sight) -> list[Order]:
        self.meddle()
        return []


def test_bots_decide_holding_no_lock_and_a_phase_played_meanwhile_takes_none_of_their_orders(
    client: TestClient, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision takes its budget of CPU time: the game stays free while the bots decide
    (another worker may claim it, the game master may adjudicate), and orders decided on
    a phase the game has left are never stored."""
    master, _, game_id = _france_against_bots(client)
    path = f"/api/games/{game_id}"
    claimed: list[bool] = []

    def meddle() -> None:
        with store.writing() as session:
            claimed.append(_claim(session, game_id))
        if claimed == [True]:  # free, as it must be: the game master adjudicates it now
            master.ok("post", f"{path}/adjudicate", {})

    monkeypatch.setitem(PLAYERS, PlayerKind.BOT, lambda budget, seed: _Meddler(meddle))
    assert BotPlay().run(store, clock) == 0
    assert claimed == [True] * len(CLASSIC_BOTS)
    assert master.ok("get", path)["played"] == 1
    assert _orders_given(store, game_id) == {}
    monkeypatch.undo()
    assert BotPlay().run(store, clock) == len(CLASSIC_BOTS)  # the phase the game is in now
    assert _orders_given(store, game_id) == {f"{p} bot": 1 for p in CLASSIC_BOTS}


def test_a_worker_started_again_finds_what_the_bots_owe(
    client: TestClient, store: Store, clock: Clock
) -> None:
    """Nothing but the database says what is owed: a new worker plays a phase begun while
    none ran, and leaves alone one played already."""
    _, france, game_id = _france_against_bots(client)
    path = f"/api/games/{game_id}"
    first = BotPlay()
    assert first.run(store, clock) == len(CLASSIC_BOTS)
    assert BotPlay().run(store, clock) == 0  # the same phase, a new worker: nothing again
    france.ok("post", f"{path}/ready", {})
    assert BotPlay().run(store, clock) == len(CLASSIC_BOTS)  # a new worker, the next phase
    assert first.run(store, clock) == 0
    assert first.settled == {}


def test_bots_alone_never_hurry_a_phase_nor_keep_an_abandoned_game_going(
    client: TestClient, store: Store, clock: Clock
) -> None:
    """Every power awaited ready, but no player among them: the phase waits for its
    deadline; deadlines nobody but bots played pause the game as abandoned."""
    master, _, game_id = _france_against_bots(
        client, policy={"deadlines": {"other": HOUR}, "pause_after": 2, "disorder_after": 1}
    )
    path = f"/api/games/{game_id}"
    master.ok("post", f"{path}/disorder", {"power": "France"})
    assert BotPlay().run(store, clock) == len(CLASSIC_BOTS)
    assert master.ok("get", path)["played"] == 0  # every bot ready: still the deadline's
    clock.advance(HOUR)
    assert run_due(store, clock) == 1
    BotPlay().run(store, clock)
    clock.advance(HOUR)
    run_due(store, clock)
    game = master.ok("get", path)
    assert game["status"] == "paused" and "no orders by 2 deadlines" in game["pause_reason"]


def _missed_a_phase(client: TestClient, clock: Clock, store: Store, **policy: Any) -> Any:
    """A classic game whose Italy sent nothing by the first deadline: in civil disorder."""
    settings = {"deadlines": {"other": HOUR}, "disorder_after": 1, **policy}
    game = seated_game(client, "classic", seed=2, policy=settings)
    clock.advance(HOUR)
    assert run_due(store, clock) == 1
    assert game.master.ok("get", game.path)["disorder"] == list(game.players)
    return game


def test_the_policy_gives_a_power_in_civil_disorder_to_a_bot_until_its_player_is_back(
    client: TestClient, store: Store, clock: Clock
) -> None:
    game = _missed_a_phase(client, clock, store, disorder_bot=True)
    italy, path = game.players["Italy"], game.path
    assert italy.ok("get", path)["policy"]["disorder_bot"] is True
    assert BotPlay().run(store, clock) == len(game.players)  # everyone missed it
    seen = italy.ok("get", path)
    assert seen["bots"] == list(game.players) and "Italy" in seen["ready"]
    assert "Italy" in seen["received"]
    assert _orders_given(store, game.id)["Italy bot"] == 1
    bot_orders = _pending(store, game.id)["Italy"].orders
    assert bot_orders
    # Italy's player is back: out of civil disorder, not ready, and the bot stops.
    back = italy.ok("post", f"{path}/orders", {"orders": ["A ven H"]})
    assert back["disorder"] is False and back["ready"] is False
    assert "A Ven H" in back["orders"]
    seen = italy.ok("get", path)
    assert "Italy" not in seen["bots"] and "Italy" not in seen["ready"]
    # Germany's seat goes to another player: the bot stops playing it too.
    newcomer = User(client, "newcomer")
    newcomer.ok("post", f"{path}/observe")
    game.master.ok("post", f"{path}/replace", {"power": "Germany", "user": "newcomer"})
    seen = newcomer.ok("get", path)
    assert "Germany" not in seen["bots"] and "Germany" not in seen["ready"]
    # Both unready, neither is the bots' any more: nothing is played for them.
    assert BotPlay().run(store, clock) == 0
    assert _orders_given(store, game.id)["Germany bot"] == 1


def test_by_default_a_power_in_civil_disorder_holds(
    client: TestClient, store: Store, clock: Clock
) -> None:
    game = _missed_a_phase(client, clock, store)
    assert game.master.ok("get", game.path)["policy"]["disorder_bot"] is False
    assert BotPlay().run(store, clock) == 0
    assert game.master.ok("get", game.path)["bots"] == []


def test_the_demo_seats_a_newcomer_against_bots(store: Store, client: TestClient) -> None:
    first = demo.seed_against_bots(store, CHEAP, datetime.now().astimezone(), "classic", "France")
    again = demo.seed_against_bots(store, CHEAP, datetime.now().astimezone(), "classic", "France")
    assert list(first) == ["france"] and first["france"] != again["france"]
    signed = client.post("/api/sessions", json={"name": "france", "password": again["france"]})
    token = signed.json()["token"]
    games = client.get("/api/games", headers={"Authorization": f"Bearer {token}"}).json()
    assert len(games) == 1 and games[0]["power"] == "France" and games[0]["status"] == "active"
    game = client.get(f"/api/games/{games[0]['id']}", headers={"Authorization": f"Bearer {token}"})
    assert game.json()["bots"] == CLASSIC_BOTS and game.json()["policy"]["disorder_bot"]


def test_an_old_database_is_brought_up_to_bots(database: str) -> None:
    """A database at migration 0002, with an account and a game in it: upgraded, the
    account is a person's and signs in still, the game fills no seat with bots."""
    store = Store(database)
    config = _alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(
            text("INSERT INTO users (name, name_key, password_hash, created, demo) "
                 "VALUES ('ann', 'ann', :hash, :now, false)"),
            {"hash": CHEAP.hash(PASSWORD), "now": datetime(2030, 1, 1)},
        )  # fmt: skip
    store.upgrade()
    with store.reading() as session:
        ann = session.scalars(select(models.User)).one()
        assert ann.kind == models.HUMAN and not ann.bot
    assert store.is_current()
    store.close()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)  # the text, not the database
def test_bots_play_every_variant_through_the_server(
    client: TestClient, store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """Games of bots alone, one of each variant, played a few phases at their deadlines'
    pace: every bot's orders are read back and accepted as a player's would be."""
    master = User(client, "gm")
    policy = {"deadlines": {"other": 60}, "pause_after": 0}
    games = []
    for name in available_variants():
        powers = list(load_variant(name).powers)
        body = {"variant": name, "bots": powers, "policy": policy, "seed": 1}
        games.append(master.ok("post", "/api/games", body)["id"])
    bots = BotPlay()
    with caplog.at_level(logging.WARNING, logger="hegemon.bots"):
        for _ in range(2):
            bots.run(store, clock)
            clock.advance(60)
            run_due(store, clock)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    for game_id in games:
        seen = master.ok("get", f"/api/games/{game_id}")
        assert seen["played"] == 2, seen["variant"]
        given = _orders_given(store, game_id)
        assert given and all(name.endswith(" bot") for name in given), seen["variant"]
