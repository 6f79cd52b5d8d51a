"""A game's press: messages sent under the game's press policy (`PressPolicy`) and the
variant's voices (`Variant.press_voices`), and each message read through its reader's
view (docs/server.md, "Press").

Who may read a message is fixed when it is sent: everyone for public and grey press
(channel ``public``), else its participants (`models.MessageReader`), a voice's speaker
standing for the voice, and the game master where the policy lets it read private press.
Every answer is made by `message_view` (or `render`, for rows already read through
`readable`): a grey message's author, and the power behind a voice, are the game
master's alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Select, func, or_, select, true
from sqlalchemy.orm import Session

from hegemon.game import Voice
from hegemon.position import PhaseKind, Viewer
from hegemon.server import answers, events
from hegemon.server.policy import Policy, PressPolicy
from hegemon.server.table import ENDED, MASTER_ROLE, OBSERVER_ROLE, Refusal, Table
from hegemon.store import models
from hegemon.store.numbering import next_number

PUBLIC = "public"  # the channel of public (and grey) press
MASTER = "master"  # the game master, as a sender, recipient and participant
MOST_LISTED = 200  # messages a page lists at most


@dataclass(frozen=True)
class Reader:
    """Who reads a game's press: the viewer, and whether the game lets its master read
    the powers' private press."""

    game: models.Game
    viewer: Viewer

    @classmethod
    def of(cls, table: Table) -> Reader:
        return cls(table.game, table.viewer)

    @property
    def name(self) -> str | None:
        """The name the viewer's messages are delivered to: its power, 'master', or none
        (an observer)."""
        return MASTER if self.viewer.master else self.viewer.power

    def readable(self) -> ColumnElement[bool]:
        """The condition on `models.Message` of a message this reader may read."""
        public = models.Message.channel == PUBLIC
        if self.viewer.master and Policy.from_json(self.game.policy).press.master_reads:
            return true()
        if self.name is None:
            return public
        delivered = select(models.MessageReader.message_id).where(
            models.MessageReader.game_id == self.game.id, models.MessageReader.reader == self.name
        )
        return or_(public, models.Message.id.in_(delivered))


def readable(reader: Reader) -> Select[models.Message]:
    """The game's messages the reader may read, in no order."""
    return select(models.Message).where(models.Message.game_id == reader.game.id, reader.readable())


def render(viewer: Viewer, message: models.Message) -> answers.Message:
    """A message the viewer may read, as it reads it: a grey message unsigned, a voiced
    one signed by its voice, their author named to the game master only."""
    hidden = message.grey or message.voice is not None
    return answers.Message(
        id=message.number,
        channel=message.channel,
        sender=None if message.grey and not viewer.master else message.voice or message.sender,
        to=list(message.recipients),
        phase=message.phase,
        sent=message.sent.isoformat(),
        text=message.text,
        grey=message.grey,
        author=message.sender if hidden and viewer.master else None,
    )


def message_view(table: Table, message: models.Message) -> answers.Message | None:
    """The message as the table's caller reads it, or None if the caller may not read it
    (what the live stream sends each reader of a message's event)."""
    reader = Reader.of(table)
    found = table.session.scalar(readable(reader).where(models.Message.id == message.id))
    return None if found is None else render(reader.viewer, found)


# --- sending ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """A message as asked for: recipients as spelled, the text checked by the schema."""

    to: Sequence[str]
    text: str
    grey: bool = False
    voice: str | None = None


def send(table: Table, draft: Draft, moment: datetime) -> models.Message:
    """Store the caller's message and its event, or refuse it saying which rule refuses."""
    author = _author(table)
    voices = table.variant.press_voices(table.position)
    recipients = _recipients(table, author, draft.to, voices)
    voice = _voice(table, author, draft, recipients, voices)
    if draft.grey:
        _check_grey(table, author, recipients)
    _check_policy(table, author, recipients)
    speaking = voice or author
    channel = PUBLIC if not recipients else channel_of([speaking, *recipients])
    message = models.Message(
        game_id=table.game.id,
        number=next_number(table.session, table.game.id, f"press {channel}"),
        phase=table.game.phase,
        sent=moment,
        sender=author,
        voice=voice,
        grey=draft.grey,
        recipients=recipients,
        channel=channel,
        text=draft.text,
    )
    table.session.add(message)
    table.session.flush()
    readers = None if not recipients else _readers(author, recipients, voices)
    for name in readers or ():
        table.session.add(
            models.MessageReader(message_id=message.id, reader=name, game_id=table.game.id)
        )
    audience = None if readers is None else sorted(readers - {MASTER})
    events.publish(table.session, table.game.id, "message", {"id": message.id}, audience)
    return message


def channel_of(participants: Iterable[str]) -> str:
    """A private channel's id: its participants sorted (in any case) and joined by ','."""
    return ",".join(sorted(set(participants), key=str.casefold))


def _author(table: Table) -> str:
    """Who sends: a player's power, or 'master'; refused for observers, muted members and
    powers out of the game, and in a game over."""
    table.require_member()
    assert table.member is not None
    if table.member.role == OBSERVER_ROLE:
        raise Refusal(403, "an observer reads public press but sends none")
    if table.game.status == ENDED:
        raise Refusal(409, f"the game is over: {table.end_text()}")
    if table.member.muted:
        raise Refusal(403, "the game master has muted you in this game: you send no press")
    if table.member.role == MASTER_ROLE:
        return MASTER
    power = table.member.power or ""
    if table.variant.eliminated(table.position, power):
        raise Refusal(403, f"{power} is out of the game: it reads public press but sends none")
    return power


def _recipients(
    table: Table, author: str, spellings: Sequence[str], voices: Mapping[str, Voice]
) -> list[str]:
    """The recipients named, each once, by their own names: powers, 'master', voices."""
    most = len(table.variant.powers) + len(voices) + 1
    if len(spellings) > most:
        raise Refusal(422, f"to: {len(spellings)} recipients, more than the game's {most}")
    named: list[str] = []
    for spelling in spellings:
        name = _name(table, spelling, voices)
        if name == author:
            raise Refusal(422, "to: you are among the recipients: a message goes to others")
        if name not in named:
            named.append(name)
    return named


def _name(table: Table, spelling: str, voices: Mapping[str, Voice]) -> str:
    if spelling.casefold() == MASTER:
        return MASTER
    voice = next((v for v in voices if v.casefold() == spelling.casefold()), None)
    return voice or table.power_named(spelling)


def _voice(
    table: Table, author: str, draft: Draft, recipients: list[str], voices: Mapping[str, Voice]
) -> str | None:
    """The identity the message is signed as, if another than the author's own; and a
    private message to a voice refused, but the game master's (who relays it)."""
    addressed = [name for name in recipients if name in voices]
    if addressed and (author != MASTER or len(recipients) > 1):
        raise Refusal(403, f"no private message to {addressed[0]}: {voices[addressed[0]].rule}")
    if addressed and voices[addressed[0]].speaker is None:
        raise Refusal(409, f"nobody speaks as {addressed[0]} now: nobody would read it")
    if draft.voice is None:
        return None
    voice = next((v for v in voices if v.casefold() == draft.voice.casefold()), None)
    if voice is None or voices[voice].speaker != author:
        raise Refusal(403, f"voice: you may not sign as {draft.voice!r}")
    if recipients not in ([], [MASTER]):
        raise Refusal(403, f"voice: a message signed as {voice} is public or to the game master")
    return voice


def _check_grey(table: Table, author: str, recipients: list[str]) -> None:
    if not table.policy.press.grey:
        raise Refusal(403, "grey press is not allowed in this game")
    if recipients:
        raise Refusal(422, "grey: grey press is public: send it to no recipients")
    if author == MASTER:
        raise Refusal(422, "grey: the game master's press is signed")


def _check_policy(table: Table, author: str, recipients: list[str]) -> None:
    """The game's press policy, for the powers' press: the game master's own, and
    messages to it, are not negotiation between powers, and always go."""
    if author == MASTER or recipients == [MASTER]:
        return
    press: PressPolicy = table.policy.press
    if press.mode == "none":
        raise Refusal(403, "this game is gunboat: no press (but to the game master)")
    if press.mode == "public" and recipients:
        raise Refusal(403, "public press only: no private or group messages in this game")
    if not press.other_phases and table.position.phase.kind is not PhaseKind.MOVEMENT:
        raise Refusal(403, "no press during retreats and adjustments in this game")


def _readers(author: str, recipients: list[str], voices: Mapping[str, Voice]) -> set[str]:
    """Who reads a private message: its author and recipients, a voice's speaker for the
    voice (checked to have one)."""
    named = {author}
    for name in recipients:
        speaker = voices[name].speaker if name in voices else name
        assert speaker is not None
        named.add(speaker)
    return named


# --- reading ---------------------------------------------------------------------------


def messages(
    table: Table, channel: str, after: int | None, before: int | None, limit: int
) -> list[answers.Message]:
    """A channel's messages the caller reads, oldest first: the first `limit` after
    `after`, else the last `limit` (before `before`, if given)."""
    reader = Reader.of(table)
    query = readable(reader).where(models.Message.channel == channel)
    number = models.Message.number
    if before is not None:
        query = query.where(number < before)
    if after is not None:
        query = query.where(number > after).order_by(number)
        found = list(table.session.scalars(query.limit(limit)))
    else:
        newest = table.session.scalars(query.order_by(number.desc()).limit(limit))
        found = list(reversed(list(newest)))
    return [render(reader.viewer, m) for m in found]


def conversations(table: Table) -> list[answers.Conversation]:
    """The caller's channels, the public one first and always, then the latest first, each
    with its last message and how many messages from others it has not marked read."""
    reader = Reader.of(table)
    game = models.Message.game_id == table.game.id
    lasts = (
        select(func.max(models.Message.id))
        .where(game, reader.readable())
        .group_by(models.Message.channel)
    )
    unread = _unread(table, reader)
    rows = {
        m.channel: m
        for m in table.session.scalars(select(models.Message).where(models.Message.id.in_(lasts)))
    }
    public = rows.pop(PUBLIC, None)
    listed = [
        answers.Conversation(
            channel=PUBLIC,
            members=[],
            last=public.number if public else 0,
            unread=unread.get(PUBLIC, 0),
        )
    ]
    for channel, last in sorted(rows.items(), key=lambda item: -item[1].id):
        listed.append(
            answers.Conversation(
                channel=channel,
                members=participants(last),
                last=last.number,
                unread=unread.get(channel, 0),
            )
        )
    return listed


def participants(message: models.Message) -> list[str]:
    """A private message's participants as its channel names them."""
    return sorted({message.voice or message.sender, *message.recipients}, key=str.casefold)


def _unread(table: Table, reader: Reader) -> dict[str, int]:
    """By channel, the messages from others after the caller's read mark."""
    assert table.member is not None
    mark = models.ReadMark
    rows = table.session.execute(
        select(models.Message.channel, func.count(models.Message.id))
        .outerjoin(
            mark, (mark.member_id == table.member.id) & (mark.channel == models.Message.channel)
        )
        .where(
            models.Message.game_id == table.game.id,
            reader.readable(),
            models.Message.sender != (reader.name or ""),
            models.Message.number > func.coalesce(mark.last, 0),
        )
        .group_by(models.Message.channel)
    )
    return {channel: count for channel, count in rows}


def unread(table: Table) -> int:
    """How many messages from others the caller has not read in the game, in all."""
    return sum(_unread(table, Reader.of(table)).values())


def mark_read(table: Table, channel: str, up_to: int) -> None:
    """The caller has read the channel up to message `up_to` (a mark never goes back)."""
    assert table.member is not None
    reader = Reader.of(table)
    last = table.session.scalar(
        select(func.max(models.Message.number)).where(
            models.Message.game_id == table.game.id,
            models.Message.channel == channel,
            models.Message.number <= up_to,
            reader.readable(),
        )
    )
    if last is None:
        raise Refusal(404, f"channel: you have no message in {channel!r} up to {up_to}")
    mark = table.session.scalar(
        select(models.ReadMark).where(
            models.ReadMark.member_id == table.member.id, models.ReadMark.channel == channel
        )
    )
    if mark is None:
        table.session.add(models.ReadMark(member_id=table.member.id, channel=channel, last=last))
    else:
        mark.last = max(mark.last, last)


def export(session: Session, reader: Reader) -> answers.PressExport:
    """Every message the reader may read, oldest first."""
    found = session.scalars(readable(reader).order_by(models.Message.id))
    return answers.PressExport(
        game=reader.game.id,
        viewer=str(reader.viewer),
        messages=[render(reader.viewer, m) for m in found],
    )


def mute(table: Table, spelling: str, muted: bool) -> answers.Muted:
    """The game master mutes (or lets speak again) a power's player."""
    table.require_master()
    power = table.power_named(spelling)
    member = table.session.scalar(
        select(models.Member).where(
            models.Member.game_id == table.game.id, models.Member.power == power
        )
    )
    if member is None:
        raise Refusal(409, f"nobody plays {power} in this game")
    member.muted = muted
    table.log("muted" if muted else "unmuted", power=power)
    return answers.Muted(power=power, muted=muted)
