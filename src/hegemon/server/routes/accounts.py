"""Accounts and sessions."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from sqlalchemy import delete

from hegemon.server import answers, auth, passwords
from hegemon.server.deps import Caller, Now, StoreDep, Token
from hegemon.server.limits import limiter
from hegemon.server.schemas import Credentials, PasswordChange, SignIn
from hegemon.server.table import Refusal
from hegemon.store import models
from hegemon.store.records import audit

router = APIRouter(prefix="/api", tags=["accounts"], responses=answers.ALWAYS)


@router.post("/accounts", status_code=201, responses=answers.BODY | answers.refusals(409))
def register(body: Credentials, store: StoreDep, request: Request) -> answers.Account:
    """Open an account."""
    limiter(request).opening_account(request)
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


@router.post("/me/password", responses=answers.BODY | answers.refusals(401, 403))
def change_password(
    body: PasswordChange,
    caller: Caller,
    store: StoreDep,
    moment: Now,
    given: Token,
    request: Request,
) -> answers.PasswordChanged:
    """Change the caller's password (the current one is asked for): every other session of
    the account is signed out, this one is kept. A wrong current password counts as a
    failed sign-in of the account (see "Limits")."""
    try:
        with limiter(request).signing_in(request, caller.name), store.writing() as session:
            user, kept = auth.caller(session, given, moment)
            hasher = request.app.state.hasher
            gone = auth.change_password(session, hasher, (user, kept), body.current, body.new)
            audit(session, None, user, "password changed")
            return answers.PasswordChanged(name=user.name, signed_out=gone)
    except auth.WrongPassword as exc:
        raise Refusal(403, str(exc)) from None
    except passwords.WeakPassword as exc:
        raise Refusal(422, f"new: {exc}") from None


@router.delete("/sessions", responses=answers.refusals(401, 403))
def sign_out_everywhere(
    user: Caller, store: StoreDep, response: Response
) -> answers.SignedOutEverywhere:
    """Sign out every session of the caller's account, this one too (a lost phone, a
    shared computer)."""
    with store.writing() as session:
        gone = auth.sign_out_everywhere(session, user)
        audit(session, None, user, "signed out everywhere", {"sessions": gone})
    response.delete_cookie(auth.COOKIE)
    return answers.SignedOutEverywhere(name=user.name, signed_out=gone)
