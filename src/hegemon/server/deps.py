"""What every route needs: the store, the clock, and the signed-in caller."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from hegemon.server import auth
from hegemon.server.limits import SAFE_METHODS, limiter
from hegemon.server.table import Refusal
from hegemon.store import Store, models
from hegemon.store.models import now


async def store(request: Request) -> Store:
    found: Store = request.app.state.store
    return found


async def clock(request: Request) -> datetime:
    """Now (tests may set the app's clock to move time on)."""
    moment: datetime = request.app.state.clock()
    return moment


_bearer = HTTPBearer(auto_error=False, description="the token POST /api/sessions gives")


CSRF_HEADER = "X-CSRF-Token"


async def token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The session's token: the bearer token, else the session cookie, which signs in a
    change only with the page's CSRF token beside it (SameSite keeps other sites' requests
    from carrying the cookie in today's browsers; the token, in all)."""
    if credentials is not None:
        return credentials.credentials
    cookie = request.cookies.get(auth.COOKIE)
    if cookie and request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent, auth.csrf_token(cookie)):
            raise Refusal(403, f"a change signed in by the session cookie needs {CSRF_HEADER}")
    return cookie


def signed_in(
    request: Request,
    found: Annotated[Store, Depends(store)],
    given: Annotated[str | None, Depends(token)],
    moment: Annotated[datetime, Depends(clock)],
) -> models.User:
    """The caller, from a bearer token or the session cookie; 401 if none or expired;
    429 if a change goes past the address's or the account's rate of writes (both
    counted here, in the worker thread this runs in, rather than by `writes_by_address`
    in a thread of its own; the address's alone for a caller not signed in)."""
    writes = request.method not in SAFE_METHODS
    try:
        user = auth.signed_in_user(found, given, moment)
    except auth.AuthError:
        if writes:  # every write from an address counts, signed in or not
            limiter(request).writing_from(request)
        raise
    request.state.user_id = user.id  # for the logs
    if writes:
        limiter(request).writing(request, user.id)
    return user


async def writes_by_address(request: Request) -> None:
    """Every write from an address counts (a dependency of every route): here, unless
    the route signs its caller in, which counts it (`signed_in`). Counting talks to the
    limits' storage, in a worker thread; a hop to one costs more than the rest of this
    dependency, so a read makes none, and a write makes it once."""
    if request.method not in SAFE_METHODS and not _signs_in(request.scope.get("route")):
        await run_in_threadpool(limiter(request).writing_from, request)


def _signs_in(route: object) -> bool:
    """Whether the route (as the router matched it) depends on `signed_in` (a walk of a
    few dependencies: cheaper than the hop it saves)."""
    found = getattr(route, "dependant", None)
    return isinstance(found, Dependant) and _depends_on(found, signed_in)


def _depends_on(dependant: Dependant, call: Callable[..., object]) -> bool:
    return any(d.call is call or _depends_on(d, call) for d in dependant.dependencies)


StoreDep = Annotated[Store, Depends(store)]
Now = Annotated[datetime, Depends(clock)]
Caller = Annotated[models.User, Depends(signed_in)]
Token = Annotated[str | None, Depends(token)]

__all__ = ["Caller", "Now", "StoreDep", "Token", "now"]
