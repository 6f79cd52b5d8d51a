"""/openapi.json says what the server answers: schemathesis sends requests made from it
to every operation, in process, signed in as the game master of real games, and checks
each answer against it: never a server error, every status one the operation declares,
every body (answers and refusals alike) and header as the description gives it.

The number of examples is bounded so that `make test` runs it; the requests are the same
at every run (deterministic), so a failure is seen again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hegemon import jsonio
from hegemon.game import Game
from hegemon.server import create_app
from hegemon.server.live import Streams
from hegemon.store import Store
from hegemon.variants import available_variants, load_variant
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, Clock, User, fresh_database

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
PLAYING, ENDED = 1, 2  # the games every run makes first, by their numbers
CLASSIC = load_variant("classic")
GAME_FILE = jsonio.game_to_json(Game.new(CLASSIC, 1))  # what an import may send

# Values the generated requests often take in place of random ones, so that requests
# reach past "no such game" and "unknown power" to the answers of real games.
CONFIG = schemathesis.Config.from_dict(
    {
        "generation": {"max-examples": 12, "mode": "all", "deterministic": True},
        "phases": {"stateful": {"enabled": False}},
        "dictionaries": {
            "games": {"values": [PLAYING, ENDED]},
            "phases": {"values": [1, 2]},
            "variants": {"values": available_variants()},
            "powers": {"values": ["France", "England"]},
            "names": {"values": ["gm"]},
            "passwords": {"values": [PASSWORD]},
            "users": {"values": ["alice"]},
            "orders": {"values": ["A Par - Bur", "A Mar H", "F Bre - Mao", "A Par - Pic"]},
            "channels": {"values": ["public", "England,France", "England,master"]},
        },
        "parameters": {
            "path.game_id": {"dictionary": "games", "probability": 0.9},
            "path.number": {"dictionary": "phases", "probability": 0.9},
            "query.power": {"dictionary": "powers", "probability": 0.8},
            "body.power": {"dictionary": "powers", "probability": 0.8},
            "body.variant": {"dictionary": "variants", "probability": 0.8},
            "body.name": {"dictionary": "names", "probability": 0.5},
            "body.password": {"dictionary": "passwords", "probability": 0.5},
            "body.user": {"dictionary": "users", "probability": 0.8},
            "body.orders[*]": {"dictionary": "orders", "probability": 0.8},
            "body.to[*]": {"dictionary": "powers", "probability": 0.8},
            "query.channel": {"dictionary": "channels", "probability": 0.8},
            "body.channel": {"dictionary": "channels", "probability": 0.8},
        },
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app("sqlite://"), config=CONFIG)


@schema.hook
def flatmap_body(context: Any, body: Any) -> Any:
    """An import sends a real game file half of the time, a generated one else."""
    if context.operation.path != "/api/games/import" or not isinstance(body, dict):
        return st.just(body)
    return st.sampled_from([body, {**body, "game": GAME_FILE}])


class Server:
    """The application on a fresh database, with the game master of two classic games:
    one being played (its first phase adjudicated), one ended by a draw."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        self.store.upgrade()
        self.app = create_app(store=self.store, hasher=CHEAP, clock=Clock(), limits=GENEROUS)
        self.app.state.streams = Streams(lifetime=0.2)  # a live stream ends, to be checked
        self.client = TestClient(self.app)
        self.master = User(self.client, "gm")
        User(self.client, "alice")  # whom the game master may give a seat
        for number in (PLAYING, ENDED):
            game = self.master.ok("post", "/api/games", {"variant": "classic", "seed": 7})
            assert game["id"] == number
            self.master.ok("post", f"/api/games/{number}/start")
            self.master.ok("post", f"/api/games/{number}/adjudicate", {})
        self.master.ok("post", f"/api/games/{ENDED}/end", {"draw": list(CLASSIC.powers)})

    def sign_in_again(self) -> None:
        """After a generated request signed the game master out."""
        answer = self.client.post("/api/sessions", json={"name": "gm", "password": PASSWORD})
        self.master.headers = {"Authorization": f"Bearer {answer.json()['token']}"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    databases = fresh_database("sqlite", tmp_path)
    made = Server(next(databases))
    yield made
    made.store.close()
    next(databases, None)  # the database dropped


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_every_answer_is_as_described(case: Any, server: Server) -> None:
    """One operation's generated requests (the server is shared by its examples: what
    one request changes, the next one finds)."""
    answer = case.call_and_validate(app=server.app, headers=server.master.headers, checks=CHECKS)
    if (
        case.path == "/api/sessions/current"
        and case.method == "DELETE"
        and answer.status_code == 200
    ):
        server.sign_in_again()


def test_the_description_declares_every_refusal() -> None:
    """Every operation declares 429 and 503 with their Retry-After, and its refusals as
    `Problem`s: FastAPI's own 422 (a list of errors) is nowhere."""
    description = create_app("sqlite://").openapi()
    assert "HTTPValidationError" not in description["components"]["schemas"]
    problem = {"$ref": "#/components/schemas/Problem"}
    for path, operations in description["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status in ("429", "503"):
                assert responses[status]["headers"]["Retry-After"]["required"], (method, path)
            for status, response in responses.items():
                if status >= "400":
                    assert response["content"]["application/json"]["schema"] == problem
            if operation.get("security"):
                assert "401" in responses, (method, path)


def test_every_answer_has_a_response_schema() -> None:
    """Every operation's answers (2xx) name their content and its schema: a model for
    JSON, text for the boards (SVG) and the metrics; none is an object left undescribed
    (but 204, which has no content: a read mark stored)."""
    description = create_app("sqlite://").openapi()
    for path, operations in description["paths"].items():
        for method, operation in operations.items():
            answers = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
            assert answers, (method, path)
            for status, response in answers.items():
                if status == "204":
                    assert "content" not in response, (method, path)
                    continue
                assert response.get("content"), (method, path, status)
                for kind, content in response["content"].items():
                    schema = content.get("schema", {})
                    where = (method, path, status, kind)
                    assert schema, where
                    assert schema != {"type": "object"}, where
                    assert schema.get("additionalProperties") is not True, where
