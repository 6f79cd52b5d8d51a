"""What the operator sees: /healthz, /readyz, /metrics behind its token, the log's lines
(JSON or logfmt, one per request, never a secret), and the 503 a database that does not
answer gives, on the API and the pages."""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from benchmarks.server_load import HEGEMON, _free_port, _wait_for
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from hegemon.server import create_app, logs, metrics
from hegemon.server.routes.operations import TOKEN_VARIABLE
from hegemon.store import Store
from hegemon.store.database import Timeouts
from hegemon.store.models import now
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, Clock, Seated, User, postgres_missing

TOKEN = "a metrics token"
DAY = 24 * 3600


def test_healthz_answers_without_asking_the_database(tmp_path: Path) -> None:
    dead = Store(_refusing_postgres(), Timeouts(connect=1))
    with TestClient(create_app(store=dead, hasher=CHEAP, limits=GENEROUS)) as client:
        answer = client.get("/healthz")
    assert (answer.status_code, answer.json()) == (200, {"status": "ok"})


def test_readyz_answers_ready_on_current_tables(client: TestClient) -> None:
    answer = client.get("/readyz")
    assert (answer.status_code, answer.json()) == (200, {"status": "ready"})


def test_readyz_refuses_on_tables_not_current(tmp_path: Path) -> None:
    empty = Store(f"sqlite:///{tmp_path}/empty.db")  # never upgraded
    with TestClient(create_app(store=empty, hasher=CHEAP, limits=GENEROUS)) as client:
        answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"]
    assert "not current" in answer.json()["detail"]


def test_readyz_refuses_when_the_database_does_not_answer() -> None:
    dead = Store(_refusing_postgres(), Timeouts(connect=1))
    with TestClient(create_app(store=dead, hasher=CHEAP, limits=GENEROUS)) as client:
        answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"]
    assert "did not answer" in answer.json()["detail"]


def test_a_database_that_refuses_gives_503_on_the_api_and_the_pages() -> None:
    dead = Store(_refusing_postgres(), Timeouts(connect=1))
    with TestClient(create_app(store=dead, hasher=CHEAP, limits=GENEROUS)) as client:
        api = client.post("/api/sessions", json={"name": "ann", "password": PASSWORD})
        client.cookies.set("hegemon_session", "some token")
        page = client.get("/")
    assert api.status_code == 503 and api.headers["Retry-After"]
    assert "database is unavailable" in api.json()["detail"]
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "text/html" in page.headers["content-type"]
    assert "database is unavailable" in page.text


def test_a_pool_with_no_connection_free_gives_503_not_500() -> None:
    """Every connection of the pool held elsewhere: a request waits the pool's timeout,
    then is refused with 503 (it was a 500)."""
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    from benchmarks.server_load import postgres_schema

    with postgres_schema() as url:
        store = Store(url, Timeouts(pool=0.5, pool_size=1, overflow=0))
        store.upgrade()
        with TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS)) as client:
            User(client, "ann")
            with store.engine.connect():  # the pool's only connection
                answer = client.post("/api/sessions", json={"name": "ann", "password": PASSWORD})
            assert answer.status_code == 503 and answer.headers["Retry-After"]
            again = client.post("/api/sessions", json={"name": "ann", "password": PASSWORD})
            assert again.status_code == 201
        store.close()


def test_timeouts_are_read_from_the_environment_and_checked() -> None:
    timeouts = Timeouts.from_environment(
        {"HEGEMON_DB_CONNECT_TIMEOUT": "2", "HEGEMON_DB_STATEMENT_TIMEOUT": "1.5"}
    )
    assert (timeouts.connect, timeouts.statement, timeouts.lock) == (2, 1.5, Timeouts.lock)
    assert "-c statement_timeout=1500" in timeouts.postgresql_options()
    with pytest.raises(Exception, match="HEGEMON_DB_LOCK_TIMEOUT"):
        Timeouts.from_environment({"HEGEMON_DB_LOCK_TIMEOUT": "soon"})


def test_postgresql_connections_carry_the_timeouts_and_keep_the_urls_options() -> None:
    missing = postgres_missing()
    if missing:
        pytest.skip(missing)
    from benchmarks.server_load import postgres_schema

    with postgres_schema() as url:
        store = Store(url, Timeouts(statement=7, lock=3, idle=11))
        with store.engine.connect() as connection:
            shown = [
                connection.exec_driver_sql(f"SHOW {name}").scalar()
                for name in ("statement_timeout", "lock_timeout", "search_path")
            ]
        store.close()
    assert shown[:2] == ["7s", "3s"]
    search_path = shown[2]
    assert isinstance(search_path, str)
    assert search_path.startswith("hegemon_load_")  # the URL's own search_path, kept


# --- /metrics ----------------------------------------------------------------------------


def test_metrics_are_not_served_without_a_token_set(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    assert client.get("/metrics", headers={"Authorization": "Bearer x"}).status_code == 404


def test_metrics_refuse_a_wrong_or_missing_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    for headers in ({}, {"Authorization": "Bearer not it"}, {"Authorization": TOKEN}):
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code == 401, headers
        assert "hegemon_http_requests_total" not in answer.text


def test_metrics_count_requests_by_route_template_and_status(
    client: TestClient, classic_game: Seated, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    route = "/api/games/{game_id}"
    before = _scrape(client)
    player = classic_game.players["England"]
    for _ in range(3):
        player.ok("get", classic_game.path)
    classic_game.outsider.get("/api/games/99999")
    after = _scrape(client)
    ok, missing = ("GET", route, "200"), ("GET", route, "404")
    assert after["requests"].get(ok, 0) - before["requests"].get(ok, 0) == 3
    assert after["requests"].get(missing, 0) - before["requests"].get(missing, 0) == 1
    assert after["latency_count"][route] - before["latency_count"].get(route, 0) == 4
    assert not any(str(classic_game.id) in key[1] for key in after["requests"])


def test_metrics_are_served_without_the_queue_lag_while_the_database_is_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    dead = Store(_refusing_postgres(), Timeouts(connect=1))
    with TestClient(create_app(store=dead, hasher=CHEAP, limits=GENEROUS)) as client:
        client.get("/healthz")
        scraped = _scrape(client)
    assert scraped["lag"] is None
    assert scraped["requests"][("GET", "/healthz", "200")] >= 1


def test_metrics_count_adjudications(store: Store, classic_game: Seated) -> None:
    before = _sample(store, "hegemon_adjudications_total")
    classic_game.master.ok("post", f"{classic_game.path}/adjudicate")
    assert _sample(store, "hegemon_adjudications_total") == before + 1


def test_queue_lag_is_how_long_the_oldest_passed_deadline_has_waited(
    client: TestClient, classic_game: Seated, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    assert _scrape(client)["lag"] == 0  # the deadline, two days off
    clock.advance(2 * DAY + 90)  # nobody ran the worker
    assert _scrape(client)["lag"] == pytest.approx(90, abs=2)


def _scrape(client: TestClient) -> dict[str, Any]:
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    found: dict[str, Any] = {"requests": {}, "latency_count": {}, "lag": None}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == "hegemon_http_requests_total":
                key = (labels["method"], labels["route"], labels["status"])
                found["requests"][key] = sample.value
            elif sample.name == "hegemon_http_request_duration_seconds_count":
                found["latency_count"][labels["route"]] = sample.value
            elif sample.name == "hegemon_queue_lag_seconds":
                found["lag"] = sample.value
    return found


def _sample(store: Store, name: str) -> float:
    text = metrics.render(store, now())
    for family in text_string_to_metric_families(text.decode()):
        for sample in family.samples:
            if sample.name == name:
                return float(sample.value)
    raise AssertionError(f"{name} not in the metrics")


def _refusing_postgres() -> str:
    """A PostgreSQL URL on a port where nothing listens: every connection refused."""
    return f"postgresql+psycopg://postgres@127.0.0.1:{_free_port()}/test"


# --- the log -----------------------------------------------------------------------------


@pytest.fixture
def restored_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers, root.level = handlers, level
    logging.captureWarnings(False)


def test_other_parts_log_lines_render_their_fields(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    logs.configure("json", "info")
    fields = {"game": 3, "phase": "S1901M", "seconds": 0.01}
    logging.getLogger("hegemon.adjudication").info("adjudicated", extra=fields)
    logging.getLogger("hegemon.limits").info("refused", extra={"limit": "sign-in"})
    logging.getLogger("hegemon.worker").debug("below the level")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [line["event"] for line in lines] == ["adjudicated", "refused"]
    assert lines[0] | fields == lines[0] and lines[0]["logger"] == "hegemon.adjudication"
    assert lines[1]["limit"] == "sign-in" and lines[1]["level"] == "info"
    assert all(re.match(r"\d{4}-\d\d-\d\dT", line["timestamp"]) for line in lines)


def test_a_log_setting_not_known_is_refused_by_name() -> None:
    with pytest.raises(logs.LogSettingError, match="HEGEMON_LOG_FORMAT"):
        logs.configure("xml")


@pytest.mark.parametrize("log_format", ["json", "logfmt"])
def test_serve_logs_each_request_once_with_its_route_and_no_secret(
    log_format: str, tmp_path: Path
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_file = tmp_path / "serve.log"
    command = [HEGEMON, "serve", "--database", f"sqlite:///{tmp_path}/h.db", "--port",
               str(port), "--no-deadlines"]  # fmt: skip
    environment = {**os.environ, "HEGEMON_LOG_FORMAT": log_format, "HEGEMON_ARGON2": "1,1024,1"}
    with log_file.open("wb") as sink:
        server = subprocess.Popen(command, env=environment, stdout=sink, stderr=sink)
        try:
            _wait_for(base)
            secret = "my secret password"
            httpx.post(f"{base}/api/accounts", json={"name": "ann", "password": secret})
            token = httpx.post(
                f"{base}/api/sessions?remember=querysecret",
                json={"name": "ann", "password": secret},
            ).json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            httpx.get(f"{base}/api/games/12345", headers=headers)
        finally:
            server.terminate()
            server.wait(timeout=15)
    text = log_file.read_text()
    for secret_text in (secret, token, "querysecret"):
        assert secret_text not in text
    lines = [_parse(line, log_format) for line in text.splitlines() if line.startswith(("{", "t"))]
    requests = [line for line in lines if line.get("event") == "request"]
    routes = [(line["method"], line["route"], str(line["status"])) for line in requests]
    assert ("POST", "/api/accounts", "201") in routes
    assert routes.count(("POST", "/api/sessions", "201")) == 1  # uvicorn's own line is off
    assert ("GET", "/api/games/{game_id}", "404") in routes
    for line in requests:
        assert {"timestamp", "level", "ms", "client"} <= line.keys()
        assert float(line["ms"]) >= 0 and line["client"] == "127.0.0.1"


def _parse(line: str, log_format: str) -> dict[str, Any]:
    if log_format == "json":
        parsed: dict[str, Any] = json.loads(line)
        return parsed
    return dict(part.partition("=")[::2] for part in shlex.split(line))


def test_metrics_add_up_every_process_of_serve_workers(tmp_path: Path) -> None:
    """With --workers 2 the requests are spread over two processes (their log lines say
    which); a scrape, answered by either, counts them all (prometheus-client's
    multiprocess mode)."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_file = tmp_path / "serve.log"
    command = [HEGEMON, "serve", "--database", f"sqlite:///{tmp_path}/h.db", "--port",
               str(port), "--no-deadlines", "--workers", "2", "--log-format", "json"]  # fmt: skip
    environment = {**os.environ, TOKEN_VARIABLE: TOKEN}
    environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with log_file.open("wb") as sink:
        server = subprocess.Popen(command, env=environment, stdout=sink, stderr=sink)
        try:
            _wait_for(base)
            sent = 0
            # a new connection each time, until both processes have taken some
            while sent < 20 or len(set(_served(log_file, "/healthz"))) < 2:
                assert sent < 400, "one process took every request: nothing to add up"
                assert httpx.get(f"{base}/healthz").status_code == 200
                sent += 1
            # each request is counted as its line is logged, just after its answer
            until = time.monotonic() + 10
            while len(_served(log_file, "/healthz")) < sent and time.monotonic() < until:
                time.sleep(0.1)
            answer = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        finally:
            server.terminate()
            server.wait(timeout=15)
    counted = {
        sample.labels["route"]: sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
        if sample.name == "hegemon_http_requests_total"
    }
    assert counted["/healthz"] == sent


def _served(log_file: Path, route: str) -> list[int]:
    """The process that served each request to `route`, by the log."""
    lines = [json.loads(line) for line in log_file.read_text().splitlines() if line[:1] == "{"]
    return [line["process"] for line in lines if line.get("route") == route]
