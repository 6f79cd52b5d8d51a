"""The browser tests' fixtures: a real server (uvicorn, in a thread, on a free port, on a
fresh SQLite file) and Debian's headless Chromium driven by Playwright, never a browser
downloaded at run time.

Where /usr/bin/chromium is missing, the browser tests are skipped and the run says so at
its end; with HEGEMON_REQUIRE_BROWSER=1 (set by .ci/run) they fail instead.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from hegemon.server import create_app, worker
from hegemon.store import Store
from tests.server.conftest import CHEAP, GENEROUS, PASSWORD, free_port

CHROMIUM = Path("/usr/bin/chromium")
REQUIRED = "HEGEMON_REQUIRE_BROWSER"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"

_missing: list[str] = []


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The pages served in process (no browser) on a fresh SQLite file."""
    store = Store(f"sqlite:///{tmp_path}/hegemon.db")
    store.upgrade()
    with TestClient(create_app(store=store, hasher=CHEAP, limits=GENEROUS)) as test_client:
        yield test_client
    store.close()


def _browser_missing() -> str | None:
    if CHROMIUM.exists():
        return None
    reason = f"{CHROMIUM} is missing (apt-get install -y chromium): the browser tests did not run"
    if os.environ.get(REQUIRED):
        pytest.fail(f"{reason}, and ${REQUIRED} asks for them")
    _missing[:] = [reason]
    return reason


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _missing:
        terminalreporter.write_sep("!", "browser tests NOT run", red=True, bold=True)
        terminalreporter.write_line(_missing[0])


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = _browser_missing()
    if missing:
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright  # only where a browser is there to drive

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


@dataclass
class LiveServer:
    """The server running on loopback, and a client of its API to set games up with."""

    url: str
    client: TestClient
    store: Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app served, with a deadline worker beside it, as `hegemon serve` runs them."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('web')}/hegemon.db")
    store.upgrade()
    app = create_app(store=store, hasher=CHEAP, limits=GENEROUS)
    port = free_port()
    config = uvicorn.Config(
        app, port=port, log_level="warning", lifespan="off", timeout_graceful_shutdown=2
    )
    running = uvicorn.Server(config)  # pages left open keep their live streams: not waited for
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    stop = threading.Event()
    deadlines = threading.Thread(target=worker.work, args=(store, stop), daemon=True)
    deadlines.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield LiveServer(f"http://127.0.0.1:{port}", TestClient(app), store)
    running.should_exit = True
    stop.set()
    thread.join()
    deadlines.join()
    store.close()


@dataclass(frozen=True)
class Received:
    """One answer the server gave a page: where it was asked, and the text it sent."""

    url: str
    text: str


@dataclass
class Player:
    """One person at their browser: a context of their own (cookies apart), one page, and
    every answer the server gave that page, to look for secrets in."""

    name: str
    page: Any
    folder: Path
    answers: list[Received] = field(default_factory=list)
    shots: int = 0

    def screenshot(self, what: str) -> None:
        self.shots += 1
        slug = re.sub(r"[^a-z0-9]+", "-", what.lower()).strip("-")
        self.page.screenshot(path=self.folder / f"{self.name}-{self.shots:02d}-{slug}.png")


def open_player(
    browser: Any, server: LiveServer, name: str, folder: Path, password: str = PASSWORD
) -> Player:
    """`name` signed in through the sign-in page, on the list of their games."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10000)
    context.set_default_navigation_timeout(60000)  # a map's first drawing takes a while
    page = context.new_page()
    player = Player(name, page, folder)
    page.on("response", lambda answer: _keep(player, answer))
    page.on("pageerror", lambda error: pytest.fail(f"{name}'s page: {error}"))
    page.goto(server.url + "/")
    page.fill("#hg-name", name)
    page.fill("#hg-password", password)
    if not list(folder.glob("*sign-in.png")):
        player.screenshot("sign in")
    page.click("button.primary")
    page.wait_for_selector("h1:has-text('My games')")
    return player


def _keep(player: Player, answer: Any) -> None:
    kind = answer.headers.get("content-type", "")
    if answer.request.method != "OPTIONS" and ("json" in kind or "html" in kind or "svg" in kind):
        try:
            player.answers.append(Received(answer.url, answer.text()))
        except Exception:  # a page left before its answer was read: nothing to look in
            return


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Path:
    folder: Path = SCREENSHOTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder
