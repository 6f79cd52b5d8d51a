"""Playing through the API: seats, orders checked as the CLI checks them, readiness,
adjudication, history, deadlines and missed orders, and the game master's actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from hegemon import jsonio
from hegemon.game import Draw, PhaseResult, Variant, play_phase
from hegemon.orders import Order
from hegemon.position import Position
from hegemon.server import adjudication
from hegemon.server.worker import run_due
from hegemon.store import Store
from tests.server.conftest import Clock, Seated, User, seated_game


def test_a_game_forms_and_starts_when_its_last_seat_is_taken(client: TestClient) -> None:
    master = User(client, "gm")
    game = master.ok("post", "/api/games", {"variant": "classic", "title": "Friday game"})
    assert game["status"] == "forming" and game["you"]["role"] == "master"
    path = f"/api/games/{game['id']}"
    france = User(client, "fr")
    assert france.ok("get", "/api/games", params={"which": "open"})[0]["open_seats"][2] == "France"
    france.ok("post", f"{path}/join", {"power": "france"})  # any case, as the CLI
    assert france.post(f"{path}/join", {"power": "England"}).status_code == 409
    assert User(client, "late").post(f"{path}/join", {"power": "France"}).status_code == 409
    # Seated in a forming game, nothing is due yet: "My games" said "Your orders are due".
    assert [(g["power"], g["owes_orders"]) for g in france.ok("get", "/api/games")] == [
        ("France", False)
    ]
    for power in ("Austria", "England", "Germany", "Italy", "Russia"):
        User(client, power).ok("post", f"{path}/join", {"power": power})
    assert master.ok("get", path)["status"] == "forming"
    last = User(client, "tr").ok("post", f"{path}/join", {"power": "Turkey"})
    assert last["status"] == "active" and last["deadline"] is not None
    mine = france.ok("get", "/api/games")
    assert [(g["power"], g["owes_orders"]) for g in mine] == [("France", True)]
    france.ok("post", f"{path}/orders", {"orders": ["A par H"]})
    assert france.ok("get", "/api/games")[0]["owes_orders"] is False


def test_orders_are_checked_stored_by_slot_and_withdrawn(classic_game: Seated) -> None:
    france, path = classic_game.players["France"], classic_game.path
    stored = france.ok("post", f"{path}/orders", {"orders": ["A par - bur", "F bre - mao"]})
    assert stored["orders"] == ["A Par - Bur", "F Bre - Mid"] and stored["unordered"] == ["A Mar"]
    # A later order for the same unit replaces the earlier one, as the CLI's do.
    stored = france.ok("post", f"{path}/orders", {"orders": ["A par - pic", "A mar H"]})
    assert stored["orders"] == ["F Bre - Mid", "A Par - Pic", "A Mar H"]
    refused = france.post(f"{path}/orders", {"orders": ["A par - mun", "A ber - kie", "zz"]})
    assert refused.status_code == 422
    problems = refused.json()["problems"]
    assert len(problems) == 1 and "zz" in problems[0]  # unreadable: nothing checked further
    refused = france.post(f"{path}/orders", {"orders": ["A par - mun", "A ber - kie"]})
    assert [p.split(":")[0] for p in refused.json()["problems"]] == ["A Par - Mun", "A Ber - Kie"]
    assert "belongs to Germany" in refused.json()["problems"][1]
    assert france.ok("get", path)["orders"]["France"]["orders"] == stored["orders"]  # unchanged
    replaced = france.ok("post", f"{path}/orders", {"orders": ["A par H"], "replace": True})
    assert replaced["orders"] == ["A Par H"]
    withdrawn = france.ok("delete", f"{path}/orders", params={"order": "A Par"})
    assert withdrawn["orders"] == [] and withdrawn["withdrawn"] == 1


def test_a_player_sees_its_own_pending_orders_and_only_whose_are_in(classic_game: Seated) -> None:
    game = classic_game
    game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A par - bur"]})
    seen_by_germany = game.players["Germany"].ok("get", game.path)
    assert list(seen_by_germany["orders"]) == ["Germany"]
    assert seen_by_germany["received"] == ["France"] and "France" not in seen_by_germany["awaiting"]
    assert "A Par - Bur" not in str(seen_by_germany)
    assert game.observer.ok("get", game.path)["orders"] == {}
    assert game.master.ok("get", game.path)["orders"]["France"]["orders"] == ["A Par - Bur"]


def test_the_phase_is_adjudicated_once_every_power_is_ready(classic_game: Seated) -> None:
    game = classic_game
    game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A par - bur"]})
    powers = list(game.players)
    for power in powers[:-1]:
        assert game.players[power].ok("post", f"{game.path}/ready")["adjudicated"] == []
    last = game.players[powers[-1]].ok("post", f"{game.path}/ready")
    assert last["adjudicated"] == ["S1901M"] and last["phase"] == "F1901M"
    phases = game.observer.ok("get", f"{game.path}/phases")
    assert [(p["number"], p["phase"], p["name"]) for p in phases] == [
        (1, "S1901M", "Spring 1901 Movement")
    ]
    played = game.observer.ok("get", f"{game.path}/phases/1")
    assert "A Par - Bur                 Succeeds" in played["report"]
    assert played["result"]["position"]["units"]["France"] == ["A bur", "A mar", "F bre"]
    assert game.players["France"].ok("get", game.path)["ready"] == []  # a new phase


def test_a_player_not_ready_holds_the_phase_until_the_deadline(
    classic_game: Seated, store: Store, clock: Clock
) -> None:
    game = classic_game
    for power in list(game.players)[1:]:
        game.players[power].ok("post", f"{game.path}/ready")
    assert game.master.ok("get", game.path)["phase"] == "S1901M"
    assert run_due(store, clock) == 0
    clock.advance(2 * 24 * 3600 + 1)  # the standard movement phase: two days
    assert run_due(store, clock) == 1
    view = game.master.ok("get", game.path)
    assert view["phase"] == "F1901M" and view["played"] == 1
    assert game.master.ok("get", f"{game.path}/verify")["sound"]


def test_a_game_whose_deadline_fails_holds_up_no_other(
    client: TestClient, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = seated_game(client, "classic", prefix="a", policy={"deadlines": {"other": 60}})
    second = seated_game(client, "classic", prefix="b", policy={"deadlines": {"other": 61}})
    failed: list[Variant] = []

    def failing(
        variant: Variant,
        position: Position,
        orders: Mapping[str, Sequence[Order]],
        draws: Mapping[str, Draw] | None = None,
    ) -> PhaseResult:
        if not failed:  # the first game due, the first time
            failed.append(variant)
            raise RuntimeError("a bug")
        return play_phase(variant, position, orders, draws)

    monkeypatch.setattr(adjudication, "play_phase", failing)
    clock.advance(62)
    assert run_due(store, clock) == 1
    assert first.master.ok("get", first.path)["played"] == 0
    assert second.master.ok("get", second.path)["played"] == 1
    assert run_due(store, clock) == 1  # tried again at the next look
    assert first.master.ok("get", first.path)["played"] == 1


def test_a_grace_period_then_civil_disorder_after_missed_phases(
    client: TestClient, store: Store, clock: Clock
) -> None:
    policy = {"deadlines": {"other": 3600}, "grace": 600, "disorder_after": 2}
    game = seated_game(client, "classic", policy=policy)
    _everyone_but_italy_orders(game)
    clock.advance(3601)
    assert run_due(store, clock) == 0  # Italy sent nothing: the grace period first
    assert game.master.ok("get", f"{game.path}/audit")[-1]["action"] == "grace"
    clock.advance(601)
    assert run_due(store, clock) == 1
    assert game.master.ok("get", game.path)["orders"]["Italy"]["missed"] == 1
    _everyone_but_italy_orders(game)
    clock.advance(3601 + 601)
    assert run_due(store, clock) == 0  # a game once a pass: the grace period, over already
    assert run_due(store, clock) == 1
    view = game.master.ok("get", game.path)
    assert view["disorder"] == ["Italy"] and "Italy" not in view["awaiting"]
    # Back: orders from Italy take it out of civil disorder.
    game.players["Italy"].ok("post", f"{game.path}/orders", {"orders": ["A rom H"]})
    assert game.master.ok("get", game.path)["disorder"] == []


def _everyone_but_italy_orders(game: Seated) -> None:
    for power, player in game.players.items():
        if power != "Italy":
            menu = player.ok("get", f"{game.path}/options")["forms"]
            holds = [form["choices"][0]["text"] for form in menu]
            player.ok("post", f"{game.path}/orders", {"orders": holds})


def test_the_game_masters_actions(client: TestClient, store: Store, clock: Clock) -> None:
    game = seated_game(client, "classic", policy={"deadlines": {"other": 3600}})
    master, path = game.master, game.path
    deadline = master.ok("get", path)["deadline"]
    assert master.ok("post", f"{path}/extend", {"seconds": 600})["deadline"] > deadline
    assert master.ok("post", f"{path}/pause")["status"] == "paused"
    clock.advance(10_000)
    assert run_due(store, clock) == 0  # a paused game's clock stands still
    assert master.ok("post", f"{path}/resume")["status"] == "active"
    newcomer = User(client, "newcomer")
    newcomer.ok("post", f"{path}/observe")  # a seat goes to one who observes the game
    master.ok("post", f"{path}/replace", {"power": "Italy", "user": "newcomer"})
    assert newcomer.ok("get", path)["you"] == {"role": "player", "power": "Italy"}
    assert game.players["Italy"].get(path).status_code == 403  # no longer takes part
    assert master.ok("post", f"{path}/disorder", {"power": "Turkey"})["disorder"] == ["Turkey"]
    assert master.ok("post", f"{path}/adjudicate")["adjudicated"] == ["S1901M"]
    ended = master.ok("post", f"{path}/end", {"draw": ["France", "England"]})
    assert ended["status"] == "ended"
    assert ended["end"]["draw"] == ["England", "France"] and "by agreement" in ended["end"]["text"]
    assert ended["end"]["termination"] == "draw_agreed"
    assert master.post(f"{path}/adjudicate").status_code == 409
    actions = [entry["action"] for entry in master.ok("get", f"{path}/audit")]
    for action in ("created", "joined", "extended", "paused", "resumed", "replaced"):
        assert action in actions
    assert actions[-2:] == ["adjudicated", "ended"]


def test_the_deadline_resumes_with_the_time_that_was_left(client: TestClient, clock: Clock) -> None:
    game = seated_game(client, "classic", policy={"deadlines": {"other": 3600}})
    game.master.ok("post", f"{game.path}/pause")
    clock.advance(10_000)
    resumed = game.master.ok("post", f"{game.path}/resume")
    left = (datetime.fromisoformat(resumed["deadline"]) - clock.moment).total_seconds()
    assert left == 3600


def test_a_submission_for_a_phase_gone_or_orders_changed_is_refused(classic_game: Seated) -> None:
    france, path = classic_game.players["France"], classic_game.path
    version = france.ok("get", path)["orders"]["France"]["version"]
    france.ok("post", f"{path}/orders", {"orders": ["A par H"], "version": version})
    stale = france.post(f"{path}/orders", {"orders": ["A mar H"], "version": version})
    assert stale.status_code == 409 and "changed meanwhile" in stale.json()["detail"]
    classic_game.master.ok("post", f"{path}/adjudicate")
    late = france.post(f"{path}/orders", {"orders": ["A par H"], "phase": "S1901M"})
    assert late.status_code == 409 and "F1901M" in late.json()["detail"]


def test_history_boards_and_the_game_file(classic_game: Seated) -> None:
    game = classic_game
    game.players["France"].ok("post", f"{game.path}/orders", {"orders": ["A par - bur"]})
    game.master.ok("post", f"{game.path}/adjudicate")
    board = game.players["Germany"].get(f"{game.path}/phases/1/board.svg")
    assert board.status_code == 200 and board.headers["content-type"] == "image/svg+xml"
    assert "<svg" in board.text and 'id="bur"' in board.text
    assert game.players["Germany"].get(f"{game.path}/phases/2").status_code == 404
    exported = game.master.ok("get", f"{game.path}/export")
    assert exported["format"] == jsonio.GAME_FORMAT and exported["seed"] == 7
    assert exported["phases"][0]["orders"] == {"France": ["A Par - Bur"]}


def test_a_game_ended_by_agreement_asks_nothing_more_on_its_board(client: TestClient) -> None:
    """Sub-Saharan's board tells a player the Diplomacy Points it may bid this turn, what
    the turn asks; once the players agree to end the game, it asks nothing (issue 28,
    point 13)."""
    game = seated_game(client, "sub_saharan", prefix="ss_")
    player = next(iter(game.players.values()))
    asks = "Diplomacy Points to bid this turn"
    assert asks in player.ok("get", game.path)["board"]
    game.master.ok("post", f"{game.path}/end", {"draw": list(game.players)})
    assert asks not in player.ok("get", game.path)["board"]


def test_a_warning_on_orders_stored_reaches_their_power_and_the_master_alone(
    client: TestClient,
) -> None:
    """Sub-Saharan's Attacking & Allocating rule (8.0): Yeke's bid for Kasongo's unit, which
    Yeke's own army attacks, is stored, and will be ignored; Yeke is warned when it sends
    it and whenever it reads its orders, as is the game master; nobody else reads a word."""
    game = seated_game(client, "sub_saharan", prefix="aa_")
    yeke = game.players["Yeke"]
    stored = yeke.ok("post", f"{game.path}/orders", {"orders": ["A Mwa - Kas", "2: A Kas - Kam"]})
    assert stored["orders"] == ["A Mwa - Kas", "2: A Kas - Kam"]
    (warning,) = stored["warnings"]
    assert warning.startswith("2: A Kas - Kam: ignored at adjudication") and "8.0" in warning
    assert yeke.ok("get", game.path)["orders"]["Yeke"]["warnings"] == [warning]
    assert game.master.ok("get", game.path)["orders"]["Yeke"]["warnings"] == [warning]
    for other in (game.players["Angola"], game.observer):
        assert "Kas - Kam" not in str(other.ok("get", game.path))
    angola = game.players["Angola"].ok("post", f"{game.path}/orders", {"orders": ["A Lua - Bra"]})
    assert angola["warnings"] == []
