"""What the server's own ASGI middlewares share: they act on HTTP requests alone, and
let anything else (the server's start and stop, the lifespan events) pass untouched."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class HTTPMiddleware:
    """A pure ASGI middleware around `app` whose `http` sees every HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One HTTP request, passed on to `self.app` as the middleware sees fit."""
        raise NotImplementedError
