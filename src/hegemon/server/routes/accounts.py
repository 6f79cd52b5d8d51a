"""Accounts and sessions."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import delete

from hegemon.server import auth
from hegemon.server.deps import Caller, Now, StoreDep, Token
from hegemon.server.limits import limiter
from hegemon.server.schemas import Credentials, SignIn
from hegemon.server.table import Refusal
from hegemon.store import models
from hegemon.store.records import audit

router = APIRouter(prefix="/api", tags=["accounts"])


@router.post("/accounts", status_code=201)
def register(body: Credentials, store: StoreDep, request: Request) -> dict[str, Any]:
    """Open an account."""
    limiter(request).opening_account(request)
    with store.writing() as session:
        try:
            user = auth.register(session, request.app.state.hasher, body.name, body.password)
        except ValueError as exc:
            raise Refusal(409, str(exc)) from None
        audit(session, None, user, "registered")
        return {"name": user.name}


@router.post("/sessions", status_code=201)
def sign_in(
    body: SignIn, store: StoreDep, moment: Now, request: Request, response: Response
) -> dict[str, Any]:
    """Sign in: a bearer token (and, if asked, the same as an HttpOnly cookie)."""
    with limiter(request).signing_in(request, body.name):
        user, token, expires = auth.sign_in(
            store, request.app.state.hasher, body.name, body.password, moment
        )
    if body.cookie:
        response.set_cookie(
            auth.COOKIE,
            token,
            max_age=int((expires - moment).total_seconds()),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
    answer = {"name": user.name, "token": token, "expires": expires.isoformat()}
    if body.cookie:
        answer["csrf"] = auth.csrf_token(token)
    return answer


@router.delete("/sessions/current")
def sign_out(user: Caller, store: StoreDep, given: Token, response: Response) -> dict[str, Any]:
    """Sign out: the session's token is good no more."""
    with store.writing() as session:
        session.execute(
            delete(models.Session).where(models.Session.token_hash == auth.token_hash(given or ""))
        )
    response.delete_cookie(auth.COOKIE)
    return {"name": user.name, "signed_out": True}


@router.get("/me")
def me(user: Caller) -> dict[str, Any]:
    """Who the caller is."""
    return {"name": user.name}
