"""The headers every answer carries, whatever route or error made it: a browser sniffs no
other type than the one declared, frames no page of ours into another site's, sends no
address of ours to another site, and caches no answer of the API (they hold a player's
orders); a board opened on its own, as SVG can hold script, runs none.

One pure ASGI middleware (`SafeHeaders`), so that answers made outside the routes (a 404,
a 413, a static file) get the headers too."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import Message, Receive, Scope, Send

from hegemon.server.asgi import HTTPMiddleware

EVERYWHERE = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
API_PREFIX = "/api/"
NO_STORE = "no-store"
# An SVG is a document that may hold script: one opened directly runs none, loads nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


class SafeHeaders(HTTPMiddleware):
    """Adds `EVERYWHERE` to every HTTP answer, ``Cache-Control: no-store`` to the API's,
    and `SVG_POLICY` to every SVG that sets no policy of its own."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        api = str(scope["path"]).startswith(API_PREFIX)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add(MutableHeaders(scope=message), api)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _add(headers: MutableHeaders, api: bool) -> None:
    for name, value in EVERYWHERE.items():
        headers[name] = value
    if api:
        headers["Cache-Control"] = NO_STORE
    if headers.get("content-type", "").startswith("image/svg+xml"):
        headers.setdefault("Content-Security-Policy", SVG_POLICY)
