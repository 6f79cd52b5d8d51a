"""The HTTP API: `create_app(database_url)` gives the FastAPI application.

Every answer is JSON (or a board as SVG); every refusal is a 4xx answer whose ``detail``
says why in one line, with ``problems`` listing each refused order and its reason where
there are several; a refused request changes nothing, as each request is one
transaction. The OpenAPI description is served at ``/openapi.json``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from datetime import datetime

from argon2 import PasswordHasher
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import (
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    InternalError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute

from hegemon.server import live, logs
from hegemon.server.access import AccessLog
from hegemon.server.auth import AuthError
from hegemon.server.bodies import BodyLimit
from hegemon.server.deps import writes_by_address
from hegemon.server.headers import SafeHeaders
from hegemon.server.limits import BoundedHasher, Limits
from hegemon.server.limits import install as install_limits
from hegemon.server.notify.settings import NotifySettings
from hegemon.server.routes import (
    accounts,
    games,
    history,
    master,
    notifications,
    operations,
    press,
    votes,
)
from hegemon.server.routes import live as live_events
from hegemon.server.table import Refusal
from hegemon.server.web import gzipped, pages
from hegemon.store import Store, database_url
from hegemon.store.database import first_line
from hegemon.store.models import now

log = logging.getLogger("hegemon.server")


def create_app(
    url: str | None = None,
    *,
    store: Store | None = None,
    hasher: PasswordHasher | None = None,
    clock: Callable[[], datetime] = now,
    limits: Limits | None = None,
    notify: NotifySettings | None = None,
) -> FastAPI:
    """The API on the database at `url` (see `hegemon.store.database_url`), or on a
    `store` already open. The tables must be current (`Store.upgrade`). Its `limits`
    are those the environment sets unless given (`Limits.from_environment`), and so are
    its notifications' settings (`NotifySettings.from_environment`)."""
    limits = limits or Limits.from_environment()
    app = FastAPI(
        title="Hegemon",
        summary="A judge for Diplomacy and its variants, for many players over HTTP",
        version="1",
        docs_url=None,  # the interactive pages load their scripts from elsewhere
        redoc_url=None,
        dependencies=[Depends(writes_by_address)],
        lifespan=live.lifespan,  # on PostgreSQL, the process's listener for live events
    )
    app.state.store = store or Store(database_url(url))
    app.state.hasher = BoundedHasher(hasher or password_hasher(), limits.hashes, limits.hash_wait)
    app.state.clock = clock
    app.state.streams = live.Streams()
    app.state.notify = notify or NotifySettings.from_environment()
    app.include_router(_hot_routes(), include_in_schema=False)
    routers = (accounts, games, history, master, notifications, operations, press, votes)
    for module in (*routers, live_events):
        app.include_router(module.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(packages=[("hegemon.server.web", "static")]), "static")
    _handle_errors(app)
    install_limits(app, limits)
    app.add_middleware(BodyLimit)
    # Answers compressed where the client takes it (the game page compresses its own:
    # `hegemon.server.web.gzipped`); the live events' stream is not, as it must flow.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_SMALLEST, compresslevel=gzipped.LEVEL)
    app.add_middleware(SafeHeaders)  # on every answer, a refusal's too
    app.add_middleware(AccessLog)  # the outermost: it times and counts every answer
    return app


def _hot_routes() -> APIRouter:
    """The routes players ask for most (`games.HOT`), tried first: the router tries
    every route in turn until one matches, each at a cost (those before an order given
    took a twentieth of its time). The games' router declares them still, where
    /openapi.json lists them in the order declared (this router is not in it). No route
    declared before them takes a path they take, so that every request is answered by
    the route it was before, a method they do not take too (405)."""
    hot: list[BaseRoute] = [
        r for r in games.router.routes if isinstance(r, APIRoute) and r.endpoint in games.HOT
    ]
    return APIRouter(routes=hot)


GZIP_SMALLEST = 1000  # bytes: a smaller answer gains little by compression

ARGON2_VARIABLE = "HEGEMON_ARGON2"


def password_hasher() -> PasswordHasher:
    """argon2 with its library's defaults, or with the time cost, memory (KiB) and
    parallelism that $HEGEMON_ARGON2 gives (``3,65536,4``), tuned to the machine."""
    setting = os.environ.get(ARGON2_VARIABLE)
    if not setting:
        return PasswordHasher()
    try:
        time_cost, memory_cost, parallelism = (int(part) for part in setting.split(","))
        return PasswordHasher(time_cost, memory_cost, parallelism)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"${ARGON2_VARIABLE} {setting!r}: expected TIME,MEMORY_KIB,LANES") from exc


def _problem(
    status: int,
    detail: str,
    problems: list[str] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, object] = {"detail": detail}
    if problems:
        body["problems"] = problems
    return JSONResponse(body, status_code=status, headers=headers)


def _handle_errors(app: FastAPI) -> None:
    @app.exception_handler(Refusal)
    def refused(request: Request, exc: Refusal) -> Response:
        if not request.url.path.startswith("/api/"):
            return pages.handle_page_errors(request, exc)
        return _problem(exc.status, exc.detail, exc.problems)

    @app.exception_handler(pages.SignedOut)
    def signed_out(request: Request, exc: pages.SignedOut) -> Response:
        return pages.handle_page_errors(request, exc)

    @app.exception_handler(AuthError)
    def unauthorized(request: Request, exc: AuthError) -> Response:
        return _problem(401, str(exc), headers={"WWW-Authenticate": "Bearer"})

    @app.exception_handler(RequestValidationError)
    def invalid(request: Request, exc: RequestValidationError) -> Response:
        problems = [_validation_line(error) for error in exc.errors()]
        return _problem(422, "; ".join(problems[:3]) or "invalid request", problems)

    @app.exception_handler(StaleDataError)
    @app.exception_handler(IntegrityError)
    def conflict(request: Request, exc: Exception) -> Response:
        log.info("conflict on %s: %s", request.url.path, exc)
        return _problem(409, "changed by another request meanwhile: nothing stored; read it again")

    for failure in DATABASE_FAILURES:
        app.add_exception_handler(failure, _database_unavailable)


# The database did not answer, or not in time: connecting, a statement or lock timed out,
# the connection was lost, or no connection of the pool came free (PoolTimeout).
DATABASE_FAILURES = (
    OperationalError,
    InterfaceError,
    InternalError,
    DisconnectionError,
    PoolTimeout,
)
DATABASE_RETRY = "5"  # seconds a client is asked to wait, about a connect timeout


def _database_unavailable(request: Request, exc: Exception) -> Response:
    """503 and Retry-After: the transaction was rolled back, so nothing was stored."""
    log.warning(
        "database unavailable",
        extra={"path": request.url.path, "error": first_line(exc)},
    )
    detail = "the database is unavailable or busy: nothing stored; try again shortly"
    headers = {"Retry-After": DATABASE_RETRY}
    if not request.url.path.startswith("/api/"):
        answer = pages.handle_page_errors(request, Refusal(503, detail))
        answer.headers.update(headers)
        return answer
    return _problem(503, detail, headers=headers)


def _validation_line(error: Mapping[str, object]) -> str:
    """``body.orders[0]: String should have at most 300 characters``: one of pydantic's
    errors, a JSON object (`ErrorDetails`)."""
    where = ""
    loc = error.get("loc", ())
    for part in loc if isinstance(loc, tuple | list) else ():
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return f"{where}: {error.get('msg', 'invalid')}"


def from_environment() -> FastAPI:
    """The API on the database $HEGEMON_DATABASE_URL names: for ``uvicorn --factory``,
    which may run it in several processes, each logging as ``serve`` was told."""
    logs.configure()
    return create_app()
