"""What every route needs: the store, the clock, and the signed-in caller."""

from __future__ import annotations

import hmac
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

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
    429 if a change goes past the account's rate of writes."""
    with found.reading() as session:
        user, _ = auth.caller(session, given, moment)
    request.state.user_id = user.id  # for the logs
    if request.method not in SAFE_METHODS:
        limiter(request).writing(request, user.id)
    return user


StoreDep = Annotated[Store, Depends(store)]
Now = Annotated[datetime, Depends(clock)]
Caller = Annotated[models.User, Depends(signed_in)]
Token = Annotated[str | None, Depends(token)]

__all__ = ["Caller", "Now", "StoreDep", "Token", "now"]
