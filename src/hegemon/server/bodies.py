"""Limits before work: a request's body is refused (413) as soon as it is known to be
larger than its route and caller may send: by its Content-Length before a byte of it is
read, or the moment it streams past the limit. A request signed in by nothing (no
``Authorization`` header, no session cookie) may send only what signing in and opening an
account take, so that nobody can make the server read, hold or parse megabytes without an
account; a game file to import may be large, but that route first checks the caller's
session (`hegemon.server.routes.master.import_game`)."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import IO

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from hegemon import jsonio
from hegemon.server import auth
from hegemon.server.asgi import HTTPMiddleware
from hegemon.server.table import Refusal

ANONYMOUS_BODY = 4 << 10  # a request signed in by nothing: sign in, open an account
SIGNED_IN_BODY = 1 << 20  # orders, a new game ... far below this
IMPORT_BODY = jsonio.MAX_BYTES  # a game file sent to be imported
IMPORT_PATH = "/api/games/import"
IN_MEMORY = 1 << 20  # of a body spooled, the rest goes to a temporary file


def body_limit(scope: Scope) -> tuple[int, str]:
    """The most the request may send, and what that limit is."""
    headers = Headers(scope=scope)
    if "authorization" not in headers and auth.COOKIE not in cookie_parser(
        headers.get("cookie", "")
    ):
        return ANONYMOUS_BODY, "the most a request may send before signing in"
    if scope["path"] == IMPORT_PATH:
        return IMPORT_BODY, "the most a game file may be"
    return SIGNED_IN_BODY, "the most a request may send"


class TooLarge(Exception):
    """The body went past its limit (the 413 sent, unless an answer had begun)."""


@dataclass
class _Exchange:
    """One request's progress: bytes received, and whether an answer has begun."""

    received: int = 0
    started: bool = False
    refused: bool = False


class BodyLimit(HTTPMiddleware):
    """The ASGI middleware that holds every request to its `body_limit`."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit, what = body_limit(scope)
        if _declared_length(scope) > limit:
            await _too_large(scope, send, limit, what)
            return
        exchange = _Exchange()

        async def counted() -> Message:
            message = await receive()
            exchange.received += len(message.get("body", b""))
            if exchange.received > limit:
                if not exchange.started:
                    exchange.refused = True
                    await _too_large(scope, send, limit, what)
                raise TooLarge(f"the request's body is larger than {limit} bytes")
            return message

        async def guarded(message: Message) -> None:
            if exchange.refused:  # the 413 is the answer: nothing more is sent
                return
            exchange.started = True
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except TooLarge:
            if not exchange.refused:
                raise


def _declared_length(scope: Scope) -> int:
    """The Content-Length the request declares (0 if none: then its stream is counted)."""
    text = Headers(scope=scope).get("content-length", "0")
    return int(text) if text.isdigit() else 0


async def _too_large(scope: Scope, send: Send, limit: int, what: str) -> None:
    detail = f"the request's body is larger than {limit} bytes, {what}"
    # The rest of the body is never read: the connection closes after the answer.
    answer = JSONResponse({"detail": detail}, 413, headers={"Connection": "close"})
    await answer(scope, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


async def spool(stream: AsyncIterator[bytes], limit: int) -> IO[bytes]:
    """A request's body, read as it comes into a temporary file (in memory while small),
    rewound; a 413 past `limit` bytes."""
    body = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115 (the caller's)
    try:
        async for chunk in stream:
            if body.tell() + len(chunk) > limit:
                raise Refusal(413, f"the request's body is larger than {limit} bytes")
            body.write(chunk)
    except BaseException:
        body.close()
        raise
    body.seek(0)
    return body
