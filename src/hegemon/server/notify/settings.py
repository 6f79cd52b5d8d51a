"""The notifications' settings, each read from its environment variable (documented in
docs/server.md, "Notifications")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

TlsMode = Literal["none", "starttls", "tls"]
TLS_MODES: tuple[TlsMode, ...] = ("none", "starttls", "tls")
DEFAULT_PORTS: dict[TlsMode, int] = {"none": 25, "starttls": 587, "tls": 465}


@dataclass(frozen=True)
class NotifySettings:
    """Where mail goes out (no `smtp_host`: no mail is sent, webhooks still are), where
    the links in it lead, and how long a try may take."""

    smtp_host: str = ""
    smtp_port: int = 587
    smtp_tls: TlsMode = "starttls"
    smtp_user: str = ""
    smtp_password: str = ""
    mail_from: str = "hegemon@localhost"
    public_url: str = "http://localhost:8000"  # the site, as links in mail name it
    secret_key: str = ""  # signs unsubscribe links; "": one the server makes and keeps
    webhooks_private: bool = False  # webhooks to private and loopback addresses allowed
    timeout: float = 10.0  # seconds a mail or a webhook post may take
    digest_minutes: float = 15.0  # press waits this long to be gathered into one mail

    @property
    def mail(self) -> bool:
        """Whether mail is sent at all."""
        return bool(self.smtp_host)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> NotifySettings:
        """The settings the environment gives; a ValueError names a variable that is
        wrong and why."""
        tls = environ.get("HEGEMON_SMTP_TLS", "starttls").lower()
        if tls not in TLS_MODES:
            raise ValueError(f"$HEGEMON_SMTP_TLS {tls!r}: expected none, starttls or tls")
        mode: TlsMode = "none" if tls == "none" else "tls" if tls == "tls" else "starttls"
        port = _number(environ, "HEGEMON_SMTP_PORT", DEFAULT_PORTS[mode], 65535)
        public_url = environ.get("HEGEMON_PUBLIC_URL", cls.public_url).rstrip("/")
        if not public_url.startswith(("http://", "https://")):
            raise ValueError(f"$HEGEMON_PUBLIC_URL {public_url!r}: expected an http(s) URL")
        return cls(
            smtp_host=environ.get("HEGEMON_SMTP_HOST", ""),
            smtp_port=int(port),
            smtp_tls=mode,
            smtp_user=environ.get("HEGEMON_SMTP_USER", ""),
            smtp_password=environ.get("HEGEMON_SMTP_PASSWORD", ""),
            mail_from=environ.get("HEGEMON_MAIL_FROM", cls.mail_from),
            public_url=public_url,
            secret_key=environ.get("HEGEMON_SECRET_KEY", ""),
            webhooks_private=environ.get("HEGEMON_WEBHOOKS_PRIVATE", "") == "1",
            timeout=_number(environ, "HEGEMON_NOTIFY_TIMEOUT", cls.timeout, 300),
            digest_minutes=_number(environ, "HEGEMON_DIGEST_MINUTES", cls.digest_minutes, 1440),
        )


def _number(environ: Mapping[str, str], variable: str, default: float, most: float) -> float:
    text = environ.get(variable)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= most:
        raise ValueError(f"${variable} {text!r}: expected a number from 0 to {most:g}")
    return value
