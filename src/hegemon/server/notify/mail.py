"""Sending one mail by SMTP (aiosmtplib), as the settings say: plain text, a
``List-Unsubscribe`` header beside the link in its text."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import aiosmtplib

from hegemon.server.notify.settings import NotifySettings


class SendFailed(Exception):
    """A try that failed: why, in one line; `final` if trying again cannot help."""

    def __init__(self, reason: str, final: bool = False) -> None:
        super().__init__(reason)
        self.final = final


def compose(settings: NotifySettings, to: str, subject: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=settings.mail_from.rpartition("@")[2] or None)
    unsubscribe = next((line for line in body.splitlines() if "/unsubscribe/" in line), None)
    if unsubscribe:
        message["List-Unsubscribe"] = f"<{unsubscribe.split()[-1]}>"
    message.set_content(body)
    return message


def send_mail(settings: NotifySettings, message: EmailMessage) -> None:
    """Send it, or raise `SendFailed` (a refused address is final; a server that does
    not answer is not)."""
    try:
        _run_alone(
            aiosmtplib.send(
                message,
                hostname=settings.smtp_host,
                port=settings.smtp_port,
                username=settings.smtp_user or None,
                password=settings.smtp_password or None,
                use_tls=settings.smtp_tls == "tls",
                start_tls=settings.smtp_tls == "starttls",
                timeout=settings.timeout,
            )
        )
    except aiosmtplib.SMTPRecipientsRefused as exc:
        raise SendFailed(f"address refused: {exc}", final=True) from None
    except (aiosmtplib.SMTPException, OSError) as exc:
        raise SendFailed(f"{type(exc).__name__}: {exc}") from None


def _run_alone(coroutine: Coroutine[Any, Any, Any]) -> None:
    """Run it to its end on an event loop of its own, in a thread of its own: the sender is
    a plain function, and the thread that calls it may be running a loop already (where
    `asyncio.run` refuses to start another; a test's Playwright runs one in the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as alone:
        alone.submit(asyncio.run, coroutine).result()
