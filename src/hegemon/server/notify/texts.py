"""What each notice says: the mail's subject and plain text, the webhook's JSON. The game
and its phases are named in words ("Spring 1901 movement"), every link is on the site's
public URL, and every mail ends with the link that turns its kind of mail off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from hegemon import jsonio
from hegemon.game import Variant
from hegemon.server import answers


@dataclass(frozen=True)
class Mail:
    subject: str
    body: str


class WebhookPayload(BaseModel):
    """What a webhook is posted (docs/server.md, "Notifications"): the event, the game,
    and for a phase, the phase adjudicated, its report and the phase now played."""

    model_config = ConfigDict(extra="forbid")

    event: str  # started, adjudicated, ended
    game: int
    title: str
    url: str
    text: str  # one line for a chat channel
    phase: str | None = None  # the phase adjudicated (its code)
    phase_name: str | None = None
    report: str | None = None
    now: str  # the game's phase now (its code)
    now_name: str
    status: str
    deadline: str | None = None


def phase_words(variant: Variant, code: str) -> str:
    """``S1901M`` as "Spring 1901 movement"."""
    phase = jsonio.phase_from_json(code, variant)
    return f"{phase.season} {phase.year} {phase.kind.name.lower()}"


def when(moment: datetime | None) -> str:
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def signed_off(body: str, event: str, unsubscribe: str) -> str:
    """The body with the link that turns this kind of mail off below it."""
    return (
        f"{body}\n\n-- \nYou asked to be told of this ({event}) by Hegemon. To stop these "
        f"mails, open:\n{unsubscribe}\n"
    )


def digest(title: str, game_url: str, messages: Sequence[answers.Message], words: str) -> Mail:
    """Several messages of a game's press in one mail, each as its reader reads it (a
    grey message unsigned)."""
    count = len(messages)
    lines = [f"{count} new message(s) in {title} ({words}):", ""]
    for message in messages:
        sender = message.sender or "grey press (unsigned)"
        to = ", ".join(message.to) or "everyone"
        lines += [f"From {sender} to {to}, {message.sent[:16].replace('T', ' ')} UTC:"]
        lines += [f"    {line}" for line in message.text.splitlines() or [""]]
        lines.append("")
    lines.append(f"Read and answer: {game_url}")
    noun = "message" if count == 1 else "messages"
    return Mail(f"{title}: {count} new {noun} of press", "\n".join(lines))
