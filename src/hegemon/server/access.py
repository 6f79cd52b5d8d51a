"""Every request, logged and counted as it is answered: method, route, status, time.

The route is the template the request matched (``/api/games/{game_id}``), so that a log
or a metric groups requests by what they did rather than by number; the query string, the
body and the headers (tokens, cookies) are never read. The caller's id is the one
`deps.signed_in` leaves in the request's state, where a route signs the caller in.
"""

from __future__ import annotations

import logging
import time

from starlette.types import Message, Receive, Scope, Send

from hegemon.server import metrics
from hegemon.server.asgi import HTTPMiddleware

log = logging.getLogger("hegemon.access")


class AccessLog(HTTPMiddleware):
    """Pure ASGI middleware: one log line ("request") and one count per request."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500  # what the client sees if the application fails before answering

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - started
            route = route_template(scope)
            metrics.observe_request(scope["method"], route, status, seconds)
            log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "route": route,
                    "status": status,
                    "ms": round(seconds * 1000, 2),
                    "user": _user_id(scope),
                    "client": scope["client"][0] if scope.get("client") else None,
                },
            )


def route_template(scope: Scope) -> str:
    """The path template of the route that took the request (set in the scope by the
    router as it matched), or a fixed word for none."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else metrics.UNMATCHED


def _user_id(scope: Scope) -> object:
    state = scope.get("state")
    return state.get("user_id") if isinstance(state, dict) else None
