"""The bodies requests send, checked before anything is read: types, lengths and counts
(the same limits as the CLI's readers, `hegemon.jsonio`), and no field that is not known,
so that a mistyped field is refused rather than ignored; no text that holds a control
character (`Line`)."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Self

from fastapi import Path
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)

from hegemon import jsonio
from hegemon.server import passwords
from hegemon.server.answers import Assignment, NoticeEvent, VoteKind
from hegemon.server.policy import Policy, PressMode, PressPolicy, VoteSecrecy


def _printable(allowed: str = "") -> AfterValidator:
    """Refuses text holding a control character (but those `allowed`): nothing a player
    types holds one, and PostgreSQL stores no NUL in text. (Half of a surrogate pair,
    which no database stores either, is refused by the JSON reader already.)"""

    def check(text: str) -> str:
        for at, char in enumerate(text):
            if char not in allowed and unicodedata.category(char) == "Cc":
                raise ValueError(f"holds the control character U+{ord(char):04X} at {at}")
        return text

    return AfterValidator(check)


Line = Annotated[str, _printable()]  # a line of free text: a title, a name, an option
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\-]+$")]
# A new password, as the policy takes it (`hegemon.server.passwords`); one signed in with
# may be older than the policy.
Password = Annotated[
    str,
    Field(min_length=passwords.SHORTEST, max_length=passwords.LONGEST),
    _printable(),
    AfterValidator(passwords.check),
]
GivenPassword = Annotated[str, Field(min_length=1, max_length=passwords.LONGEST)]
PowerName = Annotated[Line, Field(min_length=1, max_length=60)]
OrderText = Annotated[
    str, Field(min_length=1, max_length=jsonio.MAX_ORDER_LENGTH), _printable("\t")
]
PhaseCode = Annotated[Line, Field(min_length=1, max_length=12)]
Seconds = Annotated[int, Field(ge=0, le=10**8)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    """A new account's name and password."""

    name: Name
    password: Password

    @model_validator(mode="after")
    def password_is_not_the_name(self) -> Self:
        passwords.check_not_named(self.password, self.name)
        return self


class SignIn(Strict):
    name: Name
    password: GivenPassword
    cookie: bool = Field(False, description="also set the session as an HttpOnly cookie")


class PasswordChange(Strict):
    current: GivenPassword
    new: Password


class PressIn(Strict):
    """The press a game allows (docs/server.md, "Press")."""

    mode: PressMode = Field(
        default="full", description="full press, public press only, or none (gunboat)"
    )
    grey: StrictBool = Field(default=False, description="public press may be grey (anonymous)")
    other_phases: StrictBool = Field(
        default=True, description="press during retreats, adjustments and other phases"
    )
    master_reads: StrictBool = Field(
        default=False, description="the game master may read the powers' private press"
    )

    def policy(self) -> PressPolicy:
        return PressPolicy(self.mode, self.grey, self.other_phases, self.master_reads)


class PolicyIn(Strict):
    """Deadlines and missed orders (docs/server.md, "Deadlines")."""

    deadlines: dict[Annotated[Line, Field(max_length=40)], Seconds] = Field(
        default_factory=lambda: dict(Policy().deadlines), max_length=20
    )
    early: bool = True
    grace: Seconds = 0
    disorder_after: Annotated[int, Field(ge=0, le=1000)] = 2
    pause_after: Annotated[int, Field(ge=0, le=1000)] = 3
    disorder_bot: StrictBool = Field(
        default=False, description="a power in civil disorder is played by a bot instead of holding"
    )
    press: PressIn = Field(default_factory=PressIn)
    votes: VoteSecrecy = Field(
        default="secret", description="players' votes secret until they pass, or public"
    )

    def policy(self) -> Policy:
        return Policy(
            dict(self.deadlines),
            self.early,
            self.grace,
            self.disorder_after,
            self.pause_after,
            self.disorder_bot,
            self.press.policy(),
            self.votes,
        )


OptionValue = StrictInt | StrictBool | Annotated[StrictStr, Field(max_length=100), _printable()]


class NewGame(Strict):
    variant: Annotated[Line, Field(min_length=1, max_length=60)]
    title: Annotated[Line, Field(max_length=100)] = ""
    options: dict[Annotated[Line, Field(max_length=60)], OptionValue] | None = Field(
        None, max_length=50
    )
    seats: list[PowerName] | None = Field(None, max_length=50)
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    policy: PolicyIn = Field(default_factory=PolicyIn)
    bots: list[PowerName] = Field(
        default_factory=list, max_length=50, description="the powers whose seats go to bots now"
    )
    fill_with_bots: StrictBool = Field(
        default=False, description="the seats left empty when the game starts go to bots"
    )
    private: StrictBool = Field(
        default=False, description="joined only by its invitation link (the game's code)"
    )
    anonymous: StrictBool = Field(
        default=False, description="the players' names hidden from one another until the end"
    )
    assignment: Assignment = Field(
        default="chosen",
        description="chosen: each player picks a power; random: powers dealt when the game "
        "fills; master: the game master assigns them",
    )
    play_as: PowerName | None = Field(
        default=None,
        description="the creator plays this power (or 'random' where seats are dealt at "
        "random) and the game has no game master; otherwise the creator is its game master",
    )


class Seat(Strict):
    power: PowerName | None = Field(
        default=None, description="the power; none where powers are dealt or assigned"
    )
    code: Annotated[Line, Field(max_length=32)] | None = Field(
        default=None, description="a private game's invitation code"
    )


class AssignIn(Strict):
    """The game master gives a player who joined a power (`assignment` master)."""

    user: Name
    power: PowerName


FieldValue = StrictInt | Annotated[StrictStr, Field(max_length=100), _printable()]


class FilledForm(Strict):
    """An order form of the `options` answer, filled in: the form's id, the choices
    picked (by their place in its list, best first where it ranks them) and its fields."""

    form: Annotated[Line, Field(min_length=1, max_length=200)]
    picks: list[Annotated[int, Field(ge=0, le=100_000)]] = Field(
        default_factory=list, max_length=jsonio.MAX_ORDERS
    )
    values: dict[Annotated[Line, Field(max_length=60)], FieldValue] = Field(
        default_factory=dict, max_length=20
    )


class OrdersIn(Strict):
    orders: list[OrderText] = Field(max_length=jsonio.MAX_ORDERS)
    forms: list[FilledForm] = Field(
        default_factory=list,
        max_length=jsonio.MAX_ORDERS,
        description="order forms filled in (the `options` answer's): each gives one order",
    )
    power: PowerName | None = Field(None, description="the game master names the power")
    replace: bool = Field(False, description="these orders replace all the power's earlier ones")
    phase: PhaseCode | None = Field(None, description="refuse if the game is at another phase")
    version: StrictInt | None = Field(None, description="refuse if the orders changed since")


class ReadyIn(Strict):
    power: PowerName | None = None
    ready: bool = True


DrawValue = Annotated[int, Field(ge=1, le=10**6)] | list[Annotated[Line, Field(max_length=60)]]


class AdjudicateIn(Strict):
    draws: dict[Annotated[Line, Field(max_length=60)], DrawValue] | None = Field(
        None, max_length=20
    )


class ExtendIn(Strict):
    seconds: Annotated[int, Field(ge=1, le=10**8)]


class ReplaceIn(Strict):
    power: PowerName
    user: Name


class DisorderIn(Strict):
    power: PowerName
    disorder: bool = True


class EndIn(Strict):
    draw: list[PowerName] = Field(default_factory=list, max_length=50)
    concede_to: PowerName | None = None


class ImportIn(Strict):
    game: dict[str, object] = Field(description="a CLI game file (docs/json.md)")
    title: Annotated[Line, Field(max_length=100)] = ""
    policy: PolicyIn = Field(default_factory=PolicyIn)


InvitationCode = Annotated[
    str, Path(max_length=32, pattern=r"^[A-Za-z0-9_\-]+$", description="an invitation code")
]
RowId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a game's number")]
PhaseNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="1 for the first phase played")]


def _visible(text: str) -> str:
    """Refuses text with nothing to read: only spaces, line breaks or invisible format
    characters."""
    if all(unicodedata.category(char) in _INVISIBLE for char in text):
        raise ValueError("holds nothing to read: only spaces or invisible characters")
    return text


_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
PRESS_TEXT = 5000  # characters a message holds at most
PressText = Annotated[
    str,
    Field(min_length=1, max_length=PRESS_TEXT),
    _printable("\t\n\r"),
    AfterValidator(_visible),
]
Recipient = Annotated[Line, Field(min_length=1, max_length=60)]
Channel = Annotated[str, Field(min_length=1, max_length=2000), _printable()]


class MessageIn(Strict):
    """A message to send (docs/server.md, "Press")."""

    to: list[Recipient] = Field(
        default_factory=list,
        max_length=60,
        description="powers and/or 'master'; none for public press",
    )
    text: PressText
    grey: StrictBool = Field(default=False, description="public press, its author hidden")
    voice: Recipient | None = Field(
        default=None, description="sign as an identity the variant lets this power use"
    )


class ReadIn(Strict):
    channel: Channel
    up_to: Annotated[int, Field(ge=1, le=2**31 - 1, description="the last message read")]


class MuteIn(Strict):
    power: PowerName
    muted: StrictBool = True


class VoteIn(Strict):
    """A vote cast or withdrawn (docs/server.md, "Votes")."""

    kind: VoteKind
    to: PowerName | None = Field(default=None, description="the power conceded to (concede)")
    vote: StrictBool = Field(default=True, description="cast the vote, or withdraw it")


# An address as mail servers take it: no spaces, no quoting, a domain with a dot.
EMAIL = re.compile(r"[^@\s<>,;:\"()\[\]\\]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)+")


def _email(text: str) -> str:
    if not EMAIL.fullmatch(text):
        raise ValueError("expected an address such as name@example.org")
    return text


Email = Annotated[str, Field(min_length=3, max_length=254), AfterValidator(_email)]
MOST_HOURS = 168  # a week


class NoticesIn(Strict):
    """What the caller wants to be told by mail (docs/server.md, "Notifications")."""

    email: Email | None = Field(default=None, description="where mail goes; none: no mail")
    events: list[NoticeEvent] = Field(default_factory=list, max_length=5)
    hours: Annotated[StrictInt, Field(ge=1, le=MOST_HOURS)] = Field(
        default=12, description="hours before a deadline that missing orders are recalled"
    )


class WebhookIn(Strict):
    url: Annotated[Line, Field(min_length=1, max_length=500)] = Field(
        description="http:// or https://, where each public event of the game is posted"
    )
