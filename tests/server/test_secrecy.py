"""No answer of the API to one power holds another's secrets: complete random games of
every variant, played through the API by one client per power (orders sent as text, as a
player would), with every answer each client receives searched as tests/test_secrets.py
searches the judge's own outputs: other powers' pending orders until adjudicated, their
orders secret until the end (bids, INF deployments), Europe 1615's INF numbers, spending,
offers, waivers and the Ottoman patron. Games without an end of their own before long
(the standard game, African Riots) end in a draw agreed after a few years."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.game import Game, PhaseResult
from hegemon.jsonio import position_to_json
from hegemon.orders import Order, Secrecy
from hegemon.position import OBSERVER, Position, Viewer
from hegemon.randomplay import random_orders
from hegemon.store import Store, models
from hegemon.store.records import current_position, phase_row, replay, variant_of
from tests.server.conftest import Seated, User, seated_game
from tests.test_secrets import RULES_SECRETS, Search, Shown, _empire_checks, _ledger_checks

GAMES = [
    # variant, its options, its seats, phases before the players agree a draw
    ("classic", {}, None, 6),
    ("african_riots", {}, None, 6),
    ("sub_saharan", {"year_cap": 2}, None, None),
    ("europe_1615", {}, None, None),
    ("african_diplomacy_ii", {"placement": "lists", "last_year": 1902}, ["Red", "Blue", "Green"],
     None),
]  # fmt: skip


def _state(store: Store, game_id: int) -> tuple[models.Game, Position]:
    with store.reading() as session:
        game = session.get(models.Game, game_id)
        assert game is not None
        return game, current_position(session, game)


def _played(store: Store, game_id: int, number: int) -> PhaseResult:
    with store.reading() as session:
        game = session.get(models.Game, game_id)
        row = phase_row(session, game, number) if game else None
        assert game is not None and row is not None
        return replay(session, game, row)


@pytest.mark.parametrize(("variant", "options", "seats", "draw_after"), GAMES)
def test_no_answer_to_a_power_holds_another_powers_secrets(
    client: TestClient,
    store: Store,
    variant: str,
    options: dict[str, Any],
    seats: list[str] | None,
    draw_after: int | None,
) -> None:
    game = seated_game(client, variant, options=options, seats=seats, seed=11)
    clients: dict[Viewer, User] = {Viewer(power=p): u for p, u in game.players.items()}
    clients[OBSERVER] = game.observer
    row, position = _state(store, game.id)
    search = Search(variant_of(row), RULES_SECRETS.get(variant, ()))
    rng = random.Random(5)
    while row.status != "ended":
        orders = random_orders(variant_of(row), position, rng)
        said = _give_orders(game, clients, orders, menus=row.played < 2)
        _status_is_the_judges(said, Game(variant_of(row), position, pending=orders))
        boards = {viewer: json.loads(said[viewer][-1])["board"] for viewer in clients}
        game.master.ok("post", f"{game.path}/adjudicate")
        number = row.played + 1
        result = _played(store, game.id, number)
        for viewer, user in clients.items():
            read = user.ok("get", f"{game.path}/phases/{number}")
            search.shown[viewer] = Shown(boards[viewer], read["report"], read["result"])
        search.search(orders, result, said)
        if variant == "europe_1615":
            _ledger_checks(search, result)
            _empire_checks(search, position, orders, result)
        _views_of_the_position(store, game, clients, search, result)
        if draw_after and number >= draw_after:
            game.master.ok("post", f"{game.path}/end", {"draw": list(game.players)[:2]})
        row, position = _state(store, game.id)
    assert row.played >= 5
    _revealed(game, search, variant)


def _status_is_the_judges(said: dict[Viewer, list[str]], game: Game) -> None:
    """Whose orders are in, as each client read it, is the judge's own account of it
    (`Game.order_status`, which names nobody whose name would tell who sent orders for
    another, as tests/test_secrets.py checks)."""
    status = game.order_status()
    for answers in said.values():
        view = json.loads(answers[-1])
        assert view["received"] == list(status.received)
        assert set(view["awaiting"]) <= set(status.awaited)


def _views_of_the_position(
    store: Store, game: Seated, clients: dict[Viewer, User], search: Search, result: PhaseResult
) -> None:
    """The position each client reads once the phase is played is the judge's view of it
    for that client (whose secrets tests/test_secrets.py checks); in Europe 1615, its ledger
    and its board as text are searched as the results are."""
    _, position = _state(store, game.id)
    views = {viewer: user.ok("get", game.path) for viewer, user in clients.items()}
    for viewer, view in views.items():
        assert view["position"] == position_to_json(position, viewer)
    if search.variant.id == "europe_1615":
        search.shown = {
            viewer: Shown(view["board"], view["board"], {"position": view["position"]})
            for viewer, view in views.items()
        }
        _ledger_checks(search, result)


def _give_orders(
    game: Seated, clients: dict[Viewer, User], orders: dict[str, list[Order]], menus: bool
) -> dict[Viewer, list[str]]:
    """Each power sends its orders as text, and everyone reads the game: everything each
    client was answered (the game's view last), less its own orders, which may well
    contain another's ("F Bre S F Lon - Eng"). Orders the judge refuses are left out of
    `orders` (random orders may build a fleet inland). A power's menu of legal orders, which names
    every order of others its units could support, is the same before and after the
    others give theirs: it hangs on nothing they sent (checked if `menus`, as it is slow to
    make)."""
    said: dict[Viewer, list[str]] = {viewer: [] for viewer in clients}
    own: dict[Viewer, list[str]] = {viewer: [] for viewer in clients}
    before = {power: _menu(game, clients, power) for power in orders if menus}
    for power, given in orders.items():
        viewer = Viewer(power=power)
        own[viewer] = [o.format() for o in given]
        answer = clients[viewer].post(f"{game.path}/orders", {"orders": own[viewer]})
        if answer.status_code == 422:  # the random orders may hold one the judge refuses
            refused = {problem.split(":")[0] for problem in answer.json()["problems"]}
            orders[power] = [o for o in given if o.format() not in refused]
            answer = clients[viewer].post(
                f"{game.path}/orders", {"orders": [o.format() for o in orders[power]]}
            )
        assert answer.status_code == 200, answer.text
        said[viewer].append(answer.json())
    for viewer, user in clients.items():
        said[viewer].append(user.ok("get", game.path))
    for power, menu in before.items():
        assert _menu(game, clients, power) == menu
    return {viewer: [_without(answer, own[viewer]) for answer in said[viewer]] for viewer in said}


def _menu(game: Seated, clients: dict[Viewer, User], power: str) -> Any:
    """The power's order forms, less what its own orders fill in: the order given for
    each form, the points they leave."""
    menu = clients[Viewer(power=power)].ok("get", f"{game.path}/options")
    forms = [{k: v for k, v in form.items() if k != "given"} for form in menu["forms"]]
    purses = [{k: v for k, v in purse.items() if k != "left"} for purse in menu["purses"]]
    return {**menu, "forms": forms, "purses": purses}


def _without(answer: Any, texts: list[str]) -> str:
    """The answer as JSON, each of these orders written out of it."""
    written = json.dumps(answer)
    for text in texts:
        written = written.replace(json.dumps(text), '"(own order)"')
    return written


def _revealed(game: Seated, search: Search, variant: str) -> None:
    """Once the game is over, everyone reads every secret order: the counterpart, that
    secrets were there to keep."""
    revealed = game.observer.ok("get", f"{game.path}/reveal")
    if variant in ("sub_saharan", "europe_1615"):
        assert revealed and search.own_secrets_seen["orders"]
        secret = [o for phase in revealed for texts in phase["orders"].values() for o in texts]
        assert secret
    else:
        assert revealed == []
    assert Secrecy.UNTIL_END  # the kind of order revealed
