"""The tables a server keeps: accounts and their sessions, games, who plays what in each,
the orders pending for each power, the log of phases with a snapshot after each, and the
audit of every action.

A game's current position is the snapshot of its last phase (or its start), so that a
request reads one row and never replays a game; a phase's report or board is rebuilt by
playing that one phase again from the snapshot before it with its stored orders and
draws. `games.version` and `pending_orders.version` are optimistic versions: every update
says which version it changes, and one that finds another has changed it meanwhile fails
(`sqlalchemy.orm.exc.StaleDataError`) instead of silently writing over it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """A moment, kept as UTC without a zone (as SQLite and PostgreSQL alike can) and read
    back as UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


HUMAN = "human"  # the kind of an account a person signs in to (`User.kind`)


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {  # noqa: RUF012 (SQLAlchemy's own)
        datetime: UTCDateTime,
        # The JSON columns, each typed as what it holds: most are JSON objects whose
        # shape is the core's (a position, a policy), read back by their own readers
        # (jsonio, Policy.from_json), which check them.
        dict[str, object]: JSON,
        list[str]: JSON,
        dict[str, list[str]]: JSON,
        dict[str, int | list[str]]: JSON,
    }


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    # The name in lower case: two accounts never differ by case alone.
    name_key: Mapped[str] = mapped_column(String(60), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(default=now)
    demo: Mapped[bool] = mapped_column(Boolean, default=False)  # made by `serve --demo`
    # Who plays through it: a person (HUMAN), or a bot of that kind (`hegemon.bots.PlayerKind`),
    # an account the server makes and nobody signs in to.
    kind: Mapped[str] = mapped_column(String(10), default=HUMAN)

    @property
    def bot(self) -> bool:
        return self.kind != HUMAN


class Session(Base):
    """A signed-in session: only a hash of its token is kept, so that the table read by
    someone else opens no account."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(default=now)
    expires: Mapped[datetime]


class Game(Base):
    """A game: its variant as configured, its seed, status and deadline policy, and how far
    it has been played (`played` phases, the last of which holds the current position)."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(100))
    variant: Mapped[str] = mapped_column(String(60))
    options: Mapped[dict[str, object]]
    seats: Mapped[list[str] | None]  # the powers playing, where fewer than all
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(10), index=True)  # forming/active/paused/ended
    policy: Mapped[dict[str, object]]  # deadlines and missed orders (hegemon.server.policy)
    start: Mapped[dict[str, object]]  # the starting position, as JSON
    played: Mapped[int] = mapped_column(Integer, default=0)  # phases adjudicated
    phase: Mapped[str] = mapped_column(String(12))  # the current phase's code
    deadline: Mapped[datetime | None] = mapped_column(index=True)
    grace_used: Mapped[bool] = mapped_column(Boolean, default=False)
    paused_left: Mapped[float | None]  # seconds left to the deadline when paused
    idle_deadlines: Mapped[int] = mapped_column(Integer, default=0)  # passed in a row unplayed
    pause_reason: Mapped[str | None] = mapped_column(String(200))  # paused by the server: why
    # The seats left empty when the game starts go to bots (its creator's choice).
    fill_with_bots: Mapped[bool] = mapped_column(Boolean, default=False)
    # Who made it (its game master, or the player of a power where it has none).
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # A private game's invitation code: only those who have it may join (None: public).
    invitation: Mapped[str | None] = mapped_column(String(32), unique=True)
    # The players' names are hidden from one another until the game ends.
    anonymous: Mapped[bool] = mapped_column(Boolean, default=False)
    # How seats are given: chosen by each player, at random when the game fills, or by
    # the game master (`hegemon.server.seating`).
    assignment: Mapped[str] = mapped_column(String(10), default="chosen")
    agreed: Mapped[dict[str, object] | None]  # an end by agreement: {"draw": [...]} or ...
    ended: Mapped[dict[str, object] | None]  # how it ended: winners, draw, agreed
    created: Mapped[datetime] = mapped_column(default=now)
    version: Mapped[int] = mapped_column(Integer)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy's own)


class Member(Base):
    """Who takes part in a game: its game master, the player of a power, an observer."""

    __tablename__ = "members"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        UniqueConstraint("game_id", "power"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(10))  # master, player, observer
    power: Mapped[str | None] = mapped_column(String(60))
    muted: Mapped[bool] = mapped_column(Boolean, default=False)  # by the game master: no press


class Pending(Base):
    """A power's orders for the current phase, as text, and how it stands: ready, phases
    missed in a row, in civil disorder. One row per power of a game, for the whole game,
    so that two powers' submissions never touch the same row."""

    __tablename__ = "pending_orders"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(60))
    orders: Mapped[list[str]]
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    missed: Mapped[int] = mapped_column(Integer, default=0)
    disorder: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy's own)


class Phase(Base):
    """One adjudicated phase: its orders and draws as the game file keeps them, the digest
    of the position after it, and that position as JSON (the game master's, with every
    secret)."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # 1 for the first phase played
    phase: Mapped[str] = mapped_column(String(12))
    orders: Mapped[dict[str, list[str]]]
    draws: Mapped[dict[str, int | list[str]]]
    digest: Mapped[str] = mapped_column(String(16))
    after: Mapped[dict[str, object]]
    adjudicated: Mapped[datetime] = mapped_column(default=now)


class RateLimit(Base):
    """A rate limit's counter, shared by every process of a server (`hegemon.server.limits`):
    the hits counted in the window that ends at `expires` (seconds since the epoch)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    expires: Mapped[float] = mapped_column(Float, index=True)


class Audit(Base):
    """Every action: who, when, what."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(default=now)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, object]]


class Event(Base):
    """The outbox of a game's changes that live pages and notifications follow: one row per
    change (orders received, a phase adjudicated, a message sent), written in the change's
    own transaction (`hegemon.server.events`). A row says who may see it and never carries
    a secret a view would hide: a message's event names the message, which each reader
    then reads through its own view.

    `seq` numbers a game's events in the order their transactions commit, so that a reader
    who has seen event n of a game and asks for those after it misses none: it is taken
    from the game's `Counter` of events, whose row the writer holds until it commits."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"), UniqueConstraint("game_id", "token"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    # What a reader resumes from (an SSE event's id): drawn at random, as `seq` would
    # show a reader, by its gaps, the events it may not see.
    token: Mapped[str] = mapped_column(String(24))
    at: Mapped[datetime] = mapped_column(default=now)
    kind: Mapped[str] = mapped_column(String(30))
    # Who may see it: the powers named (the game master sees every event); None for
    # everyone who may see the game, observers too.
    audience: Mapped[list[str] | None]
    payload: Mapped[dict[str, object]]


class Counter(Base):
    """A numbering within a game (its events; a channel's messages): the last number
    given. The row stays locked by the transaction that takes a number until it ends, so
    that the numbers commit in their order (`hegemon.store.numbering`)."""

    __tablename__ = "counters"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(Text, primary_key=True)
    last: Mapped[int] = mapped_column(Integer)


class Message(Base):
    """A message of a game's press, never edited once sent: its sender (a power, or
    ``master``), the identity it is signed as if not the sender's own (`voice`, one the
    variant lets the sender use), whether it is grey (public, its author hidden from
    every player), whom it is addressed to (powers, ``master``, voices; none for public
    press), its channel (``public``, or its participants sorted and joined by ``,``),
    the phase it was sent in and its text. Who may read it is `MessageReader`'s rows
    (`hegemon.server.press`): fixed when it is sent, as a voice's speaker may change."""

    __tablename__ = "messages"
    __table_args__ = (UniqueConstraint("game_id", "channel", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # Its number in its channel, the id its readers know it by: numbers shared by every
    # channel would show the readers of one how many messages others sent meanwhile.
    number: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(12))
    sent: Mapped[datetime] = mapped_column(default=now)
    sender: Mapped[str] = mapped_column(String(60))  # the author, whatever it is signed as
    voice: Mapped[str | None] = mapped_column(String(60))
    grey: Mapped[bool] = mapped_column(Boolean, default=False)
    recipients: Mapped[list[str]]
    channel: Mapped[str] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)


class MessageReader(Base):
    """A power (or ``master``) that may read a private or group message: its sender and
    recipients, a voice's speaker standing for the voice. Public press has none: everyone
    reads it."""

    __tablename__ = "message_readers"
    __table_args__ = (Index("ix_message_readers_game_reader", "game_id", "reader", "message_id"),)

    message_id: Mapped[int] = mapped_column(
        ForeignKey("messages.id", ondelete="CASCADE"), primary_key=True
    )
    reader: Mapped[str] = mapped_column(String(60), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))


class ReadMark(Base):
    """The last message a member has read in one of its channels."""

    __tablename__ = "read_marks"
    __table_args__ = (UniqueConstraint("member_id", "channel"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(Text)
    last: Mapped[int] = mapped_column(Integer)


class Vote(Base):
    """A player's standing vote (`hegemon.server.votes`): a draw, a concession (`to` the
    power conceded to), a pause or a resume, for the power it plays. It stands until its
    voter withdraws it; it counts only while the account that cast it still plays that
    power, so that a seat given to another player carries no vote to its new player. A
    power has one vote of each kind: a concession to another power replaces the first."""

    __tablename__ = "votes"
    __table_args__ = (UniqueConstraint("game_id", "power", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(10))  # draw, concede, pause, resume
    to: Mapped[str | None] = mapped_column(String(60))  # the power conceded to
    cast: Mapped[datetime] = mapped_column(default=now)


class NoticeSettings(Base):
    """What an account asked to be told by mail (`hegemon.server.notify`): its address,
    the kinds of event, and how many hours before a deadline its missing orders are
    recalled. No row: nothing is sent."""

    __tablename__ = "notice_settings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254))
    events: Mapped[list[str]]
    hours: Mapped[int] = mapped_column(Integer)


class Webhook(Base):
    """A URL the game master had each public event of a game posted to, signed with its
    `secret` (HMAC SHA-256)."""

    __tablename__ = "webhooks"
    __table_args__ = (UniqueConstraint("game_id", "url"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(500))
    secret: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(default=now)


class Delivery(Base):
    """A mail or webhook post to send, kept until sent: tried at `next_attempt` (None once
    sent or given up), each try counted in `attempts`. A sender claims a row by moving its
    `next_attempt` on past the time a try can take, in a transaction of its own, so that
    two senders never send it twice; `key`, where given, keeps a notice from being queued
    twice (a deadline's reminder)."""

    __tablename__ = "deliveries"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # mail, webhook
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    webhook_id: Mapped[int | None] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    target: Mapped[str] = mapped_column(String(500))  # the address, or the URL
    subject: Mapped[str | None] = mapped_column(String(300))  # a mail's
    body: Mapped[str] = mapped_column(Text)  # the mail's text, or the webhook's JSON
    key: Mapped[str | None] = mapped_column(String(120), unique=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt: Mapped[datetime | None] = mapped_column(index=True)
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(300))
    created: Mapped[datetime] = mapped_column(default=now)


class DigestItem(Base):
    """A message of a game's press that an account asked to be told of, waiting for the
    next digest mail."""

    __tablename__ = "digest_items"
    __table_args__ = (UniqueConstraint("user_id", "message_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"))
    added: Mapped[datetime] = mapped_column(default=now)


class NoticeCursor(Base):
    """The last of a game's events (`Event.seq`) that notices were made of: a row of its
    own, so that the sender never locks the game's numbering that adjudication takes."""

    __tablename__ = "notice_cursors"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    last: Mapped[int] = mapped_column(Integer)


class ServerSecret(Base):
    """A secret the server made itself where its configuration gives none (the key that
    signs unsubscribe links when $HEGEMON_SECRET_KEY is not set)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
