"""Accounts and sessions."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from sqlalchemy import delete

from hegemon.server import answers, auth
from hegemon.server.deps import Caller, Now, StoreDep, Token
from hegemon.server.schemas import Credentials, SignIn
from hegemon.server.table import Refusal
from hegemon.store import models
from hegemon.store.records import audit

router = APIRouter(prefix="/api", tags=["accounts"], responses=answers.ALWAYS)


@router.post("/accounts", status_code=201, responses=answers.BODY | answers.refusals(409))
def register(body: Credentials, store: StoreDep, request: Request) -> answers.Account:
    """Open an account."""
    with store.writing() as session:
        try:
            user = auth.register(session, request.app.state.hasher, body.name, body.password)
        except ValueError as exc:
            raise Refusal(409, str(exc)) from None
        audit(session, None, user, "registered")
        return answers.Account(name=user.name)


@router.post("/sessions", status_code=201, responses=answers.BODY | answers.refusals(401))
def sign_in(
    body: SignIn, store: StoreDep, moment: Now, request: Request, response: Response
) -> answers.SignedIn:
    """Sign in: a bearer token (and, if asked, the same as an HttpOnly cookie)."""
    with store.writing() as session:
        user, token, expires = auth.sign_in(
            session, request.app.state.hasher, body.name, body.password, moment
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
    return answers.SignedIn(
        name=user.name,
        token=token,
        expires=expires.isoformat(),
        csrf=auth.csrf_token(token) if body.cookie else None,
    )


@router.delete("/sessions/current", responses=answers.refusals(401, 403))
def sign_out(user: Caller, store: StoreDep, given: Token, response: Response) -> answers.SignedOut:
    """Sign out: the session's token is good no more."""
    with store.writing() as session:
        session.execute(
            delete(models.Session).where(models.Session.token_hash == auth.token_hash(given or ""))
        )
    response.delete_cookie(auth.COOKIE)
    return answers.SignedOut(name=user.name, signed_out=True)


@router.get("/me", responses=answers.refusals(401))
def me(user: Caller) -> answers.Account:
    """Who the caller is."""
    return answers.Account(name=user.name)
