"""Posting one webhook: JSON, signed, to an address that is not private (unless the
server allows it), within the timeout, no redirect followed.

The host is resolved once and checked, and the connection made to the address checked,
so that a name that resolves elsewhere the second time (DNS rebinding) reaches nothing
the check refused. What answers a 2xx has it; a 4xx other than 408 and 429 is final (the
receiver refuses it, and will again); anything else is tried again later.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from hegemon.server.notify.mail import SendFailed
from hegemon.server.notify.signing import SIGNATURE_HEADER, webhook_signature

MAX_URL = 500
RETRIED = (408, 429)

# The system's resolver takes no timeout, and may wait half a minute on a name server that
# does not answer: lookups run here and are waited for only so long. One stuck keeps one
# of these threads, never a request's or the sender's.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-lookup")


def check_url(url: str) -> str | None:
    """Why the URL cannot be a webhook's, or None if it can (before any lookup)."""
    if len(url) > MAX_URL:
        return f"longer than {MAX_URL} characters"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return "expected an http:// or https:// URL"
    if not parts.hostname:
        return "names no host"
    if parts.username or parts.password:
        return "holds a user name or password"
    try:
        parts.port  # noqa: B018 (a port out of range raises)
    except ValueError:
        return "has a bad port"
    return None


def host_of(url: str) -> str:
    return urlsplit(url).hostname or ""


def resolve(host: str, port: int, private_allowed: bool, timeout: float) -> str:
    """The address to connect to: the host's first, each of them checked to be public
    (unless `private_allowed`); not found unless the lookup ends within `timeout` seconds."""
    lookup = _LOOKUPS.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        found = lookup.result(timeout)
    except TimeoutError:
        lookup.cancel()  # if it is still queued behind stuck lookups
        raise SendFailed(f"{host}: not found within {timeout:g} seconds") from None
    except (OSError, UnicodeError) as exc:
        raise SendFailed(f"{host}: not found ({exc})") from None
    addresses = [str(info[4][0]) for info in found]
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not private_allowed and not ip.is_global:
            raise SendFailed(
                f"{host} is at {ip}, a private or local address "
                "(allowed only with HEGEMON_WEBHOOKS_PRIVATE=1)",
                final=True,
            )
    return addresses[0]


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to an address already checked, the certificate checked for the host's name."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]


def _connection(
    url: str, private_allowed: bool, timeout: float
) -> tuple[http.client.HTTPConnection, str]:
    parts = urlsplit(url)
    host = host_of(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = resolve(host, port, private_allowed, timeout)
    if parts.scheme == "https":
        return _PinnedHTTPS(host, address, port, timeout), parts.netloc
    return http.client.HTTPConnection(address, port, timeout=timeout), parts.netloc


def post(url: str, secret: str, body: bytes, private_allowed: bool, timeout: float) -> None:
    """Post the JSON body, signed; raise `SendFailed` unless it is answered with 2xx."""
    connection, netloc = _connection(url, private_allowed, timeout)
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = {
        "Host": netloc,
        "Content-Type": "application/json",
        "User-Agent": "Hegemon-Webhook",
        SIGNATURE_HEADER: webhook_signature(secret, body),
    }
    try:
        connection.request("POST", path, body=body, headers=headers)
        status = connection.getresponse().status
    except (OSError, http.client.HTTPException) as exc:
        raise SendFailed(f"{type(exc).__name__}: {exc}") from None
    finally:
        connection.close()
    if not 200 <= status < 300:
        final = 400 <= status < 500 and status not in RETRIED
        raise SendFailed(f"answered {status}", final=final)
