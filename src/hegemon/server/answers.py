"""What the API answers, as types: each route's answer is one of these models (built by
`hegemon.server.views` and the routes), and a refusal is a `Problem`. FastAPI describes
them in ``/openapi.json``, so the description says what really comes back; the test
`tests/server/test_openapi.py` holds the server to it.

The content of a variant's own JSON (a position, the rest of a phase's results) stays
``dict[str, Any]``: its shape is the variant's (docs/json.md), not the server's. A phase's
results type their outcomes (`OutcomeAnswer`, with their reasons); a game file (`GameFile`)
is typed to its parts, its starting position as such JSON.

`refusals` gives the responses a route declares besides its answer: each status with its
`Problem` body and its headers (``Retry-After`` on 429 and 503).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from hegemon.adjudication.outcome import Verdict
from hegemon.game import Termination
from hegemon.reasons import Reason
from hegemon.server.policy import Policy, PressMode, PressPolicy

Moment = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
OptionValue = StrictBool | StrictInt | StrictStr
# How a game's seats are given: each player picks a power, powers are dealt at random when
# the game fills, or its game master assigns them (docs/server.md, "Creating a game").
Assignment = Literal["chosen", "random", "master"]


def _absent_when_none(value: object) -> bool:
    return value is None


class Answer(BaseModel):
    """An answer has exactly its fields: the description says so (no additional
    properties), and a view that names a field the model lacks fails at once."""

    model_config = ConfigDict(extra="forbid")


# --- refusals --------------------------------------------------------------------------


class Problem(Answer):
    """A refusal: what was refused and why, in one line; where several inputs were
    refused (orders), each with its reason."""

    detail: str
    problems: list[str] | None = Field(default=None, description="each refused input and why")


_RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before asking again",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    }
}
_WHY: dict[int, str] = {
    400: "the body could not be read: not JSON in UTF-8",
    401: "not signed in (or the session has expired), or a wrong name or password",
    403: "the caller may not do this: not the game's master or this power's player, or a "
    "change signed in by the session cookie without its X-CSRF-Token",
    404: "no such game (or phase, or user)",
    409: "not now: the game's state forbids it (not started, over, paused ...), the name "
    "is taken, or another request changed it meanwhile",
    413: "the request's body is larger than this route takes",
    422: "the request is invalid: `problems` names each input refused and why",
    429: "too many requests: wait as long as Retry-After says",
    503: "the database is unavailable or busy: nothing was stored; ask again after Retry-After",
}
# Any: OpenAPI fragments, as FastAPI's `responses` parameter types them.
_HEADERS: dict[int, dict[str, Any]] = {
    401: {
        "WWW-Authenticate": {
            "description": "how to sign in: Bearer",
            "required": True,
            "schema": {"type": "string"},
        }
    },
    429: _RETRY_AFTER,
    503: _RETRY_AFTER,
}

Responses = dict[int | str, dict[str, Any]]


def refusals(*statuses: int) -> Responses:
    """The responses of these statuses, each a `Problem` (for ``responses=``)."""
    return {
        status: {"model": Problem, "description": _WHY[status], "headers": _HEADERS.get(status, {})}
        for status in statuses
    }


ALWAYS = refusals(429, 503)  # every route: the rate limits, the database
SIGNED_IN = refusals(401, 403, 422)  # a change by a signed-in caller: its token, its input
IN_A_GAME = refusals(401, 403, 404, 409, 422)  # a route on one game
BODY = refusals(400, 413, 422)  # a route that reads a body


# --- accounts --------------------------------------------------------------------------


class Account(Answer):
    name: str


class SignedIn(Answer):
    name: str
    token: str = Field(description="send as 'Authorization: Bearer TOKEN'")
    expires: Moment
    csrf: str | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="with the session cookie only: the X-CSRF-Token its changes need",
    )


class SignedOut(Answer):
    name: str
    signed_out: bool


class PasswordChanged(Answer):
    name: str
    signed_out: int = Field(description="the account's other sessions, signed out")


class SignedOutEverywhere(Answer):
    name: str
    signed_out: int = Field(description="the account's sessions, the caller's own among them")


# --- games -----------------------------------------------------------------------------


class Variant(Answer):
    id: str
    title: str = Field(description="its name as players know it")
    summary: str = Field(description="one line on what sets it apart")
    map_name: str
    powers: list[str]
    seats: list[int] | None = Field(description="the fewest and most players, if not every power")
    options: dict[str, str] = Field(description="each option the variant takes, described")


class GameLine(Answer):
    """A game in a list of games."""

    id: int
    title: str
    variant: str
    status: str
    phase: str
    deadline: Moment | None
    role: str | None = Field(description="the caller's: master, player, observer")
    power: str | None
    open_seats: list[str] = Field(
        description="the powers still free to choose (none where powers are dealt or assigned)"
    )
    variant_title: str = Field(description="the variant's name as players know it")
    seats: int = Field(description="how many players the game takes")
    seats_taken: int = Field(description="how many have joined")
    deadlines: dict[str, int] = Field(description="each kind of phase's length in seconds")
    press: PressMode
    options: dict[str, OptionValue]
    private: bool = Field(description="joined by invitation only (listed to its members alone)")
    anonymous: bool = Field(description="the players' names are hidden until the end")
    assignment: Assignment
    master: bool = Field(description="the game has a game master (else its creator plays)")
    owes_orders: bool | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="in the caller's own games: whether its power still owes orders",
    )
    unread: int | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="in the caller's own games: the messages from others it has not read",
    )


class You(Answer):
    role: str | None
    power: str | None


class Member(Answer):
    name: str | None = Field(
        description="none for another player of an anonymous game, until it ends"
    )
    role: str
    power: str | None
    bot: bool = Field(description="a bot's account, made by the server: nobody signs in to it")


class PendingOrders(Answer):
    """A power's orders for the current phase: for that power and the game master."""

    power: str
    phase: str
    orders: list[str]
    unordered: list[str] = Field(description="what the power has given no order for yet")
    warnings: list[str] = Field(
        description="what the power is warned of in the orders it has given, which are "
        "stored as they are (an order the power's other orders will void, say)"
    )
    ready: bool
    disorder: bool
    missed: int
    version: int


class Withdrawal(PendingOrders):
    withdrawn: int = Field(description="how many orders were withdrawn")


class End(Answer):
    """How the game ended: what ended it, its winners or the powers sharing its draw, and
    the same in words (``Spain won on points``)."""

    termination: Termination | None = Field(
        description="what ended the game (docs/json.md, 'How a game ends'); null for a "
        "game that ended before the server recorded it, unless its players agreed its end"
    )
    winners: list[str]
    draw: list[str]
    agreed: bool = Field(description="whether the players ended it (a draw, a concession)")
    text: str


class Game(Answer):
    """A game as the caller may see it."""

    id: int
    title: str
    variant: str
    map_name: str
    options: dict[str, OptionValue]
    powers: list[str]
    status: str
    phase: str
    phase_name: str
    played: int
    deadline: Moment | None
    policy: Policy
    press: PressPolicy = Field(description="the press the game allows (docs/server.md, 'Press')")
    version: int
    you: You
    members: list[Member]
    position: dict[str, Any] = Field(description="the position as JSON (docs/json.md)")
    board: str = Field(description="the position as text")
    received: list[str]
    awaiting: list[str]
    ready: list[str]
    disorder: list[str]
    bots: list[str] = Field(
        description="the powers a bot plays: bots' seats, and the powers in civil disorder "
        "where the policy gives them to a bot (`disorder_bot`)"
    )
    fill_with_bots: bool = Field(description="the seats still free when it starts go to bots")
    anonymous: bool = Field(description="the players' names are hidden until the end")
    assignment: Assignment
    invitation: str | None = Field(
        description="a private game's invitation code, for its members to pass on"
    )
    orders: dict[str, PendingOrders]
    end: End | None
    pause_reason: str | None = Field(default=None, description="why the server paused the game")


class PowerTally(Answer):
    """A power's standing on the board: its colour, its centres (as the variant counts
    them: Africa II's superpowers, those of the states they control), its units."""

    power: str
    colour: str
    centres: int
    units: int


class Progress(Answer):
    status: str
    phase: str
    played: int
    version: int
    deadline: Moment | None
    received: list[str]
    ready: list[str]


class ListedOrder(Answer):
    """One legal order a form lists."""

    text: str = Field(description="the order, as the judge writes it")
    kind: str = Field(description="its kind of order: hold, move, support, build ...")
    clicks: list[str] = Field(description="the provinces clicked to give it, once the form is open")


class FormField(Answer):
    """A field of a form: a whole number from `least` to `most`, or one of `values`."""

    name: str
    label: str
    type: Literal["amount", "one of"]
    least: int | None = None
    most: int | None = None
    values: list[str] | None = None


class PurseLine(Answer):
    """Points the power spends with its orders this phase."""

    name: str = Field(description="what a point is called")
    total: int = Field(description="how many the power has this phase")
    left: int = Field(description="how many its orders given leave")


class OrderFormLine(Answer):
    """One order the power may give, as it fills it in (`hegemon.game.forms`)."""

    id: str = Field(description="the form, within this phase's menu: what a filled form names")
    title: str
    unit: str | None = Field(description="the province of the unit it orders, if it orders one")
    sites: list[str] = Field(description="provinces whose click opens it")
    choices: list[ListedOrder] = Field(description="the legal orders it lists")
    ranking: bool = Field(description="it takes several of its choices in a row, best first")
    most: int | None = Field(description="the most choices a ranking takes; none for no limit")
    fields: list[FormField] = Field(description="what the player fills in")
    action: str | None = Field(
        description="the button opening or sending a form offered beside the power's own "
        "units and sites; none for those"
    )
    spends: str | None = Field(description="the name of the purse it spends from")
    fill: bool = Field(description="the order is made from the form filled in (POST `forms`)")
    given: str | None = Field(description="the power's order given for what the form lists")


class OrderForms(Answer):
    """Everything the power may order this phase: what `hegemon options` lists."""

    power: str
    phase: str
    forms: list[OrderFormLine]
    purses: list[PurseLine]


class Readiness(Answer):
    power: str
    ready: bool
    adjudicated: list[str] = Field(description="the phases this made the server adjudicate")
    phase: str


# --- history ---------------------------------------------------------------------------


class PhaseLine(Answer):
    number: int
    phase: str
    name: str
    adjudicated: Moment | None


class ReasonAnswer(BaseModel):
    """Why an order fared as it did, or what became of its unit: a kind, a variant's code
    for a kind of its own, and the kind's data beside them (docs/json.md, "Outcomes and
    their reasons")."""

    model_config = ConfigDict(extra="allow")  # the kind's data, which differs by kind

    kind: Reason
    code: StrictStr | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="a variant's name for a kind of reason of its own (kind 'variant')",
    )


class OutcomeAnswer(Answer):
    power: str
    order: str
    result: Verdict
    note: str = Field(description="the report's words, made from the reason and the fate")
    reason: ReasonAnswer | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="why; absent for an order that simply succeeded (kind 'succeeds')",
    )
    fate: ReasonAnswer | None = Field(default=None, exclude_if=_absent_when_none)
    decided_by: list[str] | None = Field(default=None, exclude_if=_absent_when_none)
    dislodged_by: str | None = Field(default=None, exclude_if=_absent_when_none)


class PhaseResultAnswer(BaseModel):
    """A phase's results as JSON (docs/json.md): its outcomes typed, the rest (the
    position, the variant's own lines) as the variant writes it."""

    model_config = ConfigDict(extra="allow")

    outcomes: list[OutcomeAnswer]


class PhaseReport(Answer):
    number: int
    phase: str
    report: str
    result: PhaseResultAnswer = Field(description="the phase's results as JSON (docs/json.md)")


class Revealed(Answer):
    number: int
    phase: str
    orders: dict[str, list[str]] = Field(description="each power's orders kept secret")


# --- the game master -------------------------------------------------------------------


class Adjudication(Answer):
    adjudicated: list[str]
    phase: str


class AuditEntry(Answer):
    at: Moment
    user: str | None
    action: str
    detail: dict[str, Any]  # each audited action's own details, as stored


class SavedPhase(Answer):
    """A phase as a game file keeps it (docs/json.md, "A saved game")."""

    phase: str
    orders: dict[str, list[str]]
    draws: dict[str, int | list[str]] | None = Field(
        default=None, exclude_if=_absent_when_none, description="the draws of chance it used"
    )
    digest: str


class GameFile(Answer):
    """A CLI game file (docs/json.md, "A saved game"): everything, every power's pending
    orders included. Its parts are the file's as `hegemon.jsonio` writes them, so that
    its checksum holds; a part the game has not (options, seats, an agreed end) is
    absent."""

    format: str
    variant: str
    options: dict[str, OptionValue] | None = Field(default=None, exclude_if=_absent_when_none)
    seats: list[str] | None = Field(default=None, exclude_if=_absent_when_none)
    seed: int
    start: dict[str, Any] = Field(description="the starting position as JSON (docs/json.md)")
    phases: list[SavedPhase]
    pending: dict[str, list[str]]
    agreed: dict[str, str | list[str]] | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description='the end its players agreed: {"draw": [powers]} or {"concede_to": power}',
    )
    checksum: str


class Verification(Answer):
    phases: int
    sound: bool
    problems: list[str]


# --- press ---------------------------------------------------------------------------


class Message(Answer):
    """A message of the game's press as the caller reads it."""

    id: int
    channel: str = Field(
        description="'public' for public and grey press; else its participants, sorted and "
        "joined by ',' (England,France; France,master)"
    )
    sender: str | None = Field(
        description="the power, 'master', or the identity it is signed as; null for grey "
        "press but for the game master"
    )
    to: list[str] = Field(description="whom it is addressed to; none for public press")
    phase: str = Field(description="the phase it was sent in")
    sent: Moment
    text: str = Field(description="as written: text, never markup")
    grey: bool = Field(description="grey press: public, its author hidden from every player")
    author: str | None = Field(
        default=None,
        exclude_if=_absent_when_none,
        description="for the game master only: the power that wrote a grey or signed message",
    )


class Conversation(Answer):
    """A channel the caller reads: its participants, its last message, how many of its
    messages from others the caller has not marked read."""

    channel: str
    members: list[str] = Field(description="its participants; none for the public channel")
    last: int = Field(description="the id of its last message; 0 for none")
    unread: int


class Muted(Answer):
    power: str
    muted: bool


class PressExport(Answer):
    """Every message of the game's press the caller may read, oldest first, as it reads
    them."""

    game: int
    viewer: str = Field(description="whose reading this is: a power, the game master, an observer")
    messages: list[Message]


# --- operations ------------------------------------------------------------------------


class Health(Answer):
    """The process answers."""

    status: str = "ok"


class Ready(Answer):
    """The process can serve: its database answers and its tables are current."""

    status: str = "ready"


# --- live events: the `data` of each kind of event (GET /api/games/{id}/events) ----------

GameChange = Literal["started", "paused", "resumed", "ended", "extended", "grace"]
MembersChange = Literal[
    "joined",
    "assigned",
    "observes",
    "bot seated",
    "replaced",
    "civil disorder",
    "out of civil disorder",
]


class OrdersEvent(Answer):
    """A power's orders are now in (or no longer in), by the public count."""

    power: str
    phase: str
    received: bool


class ReadyEvent(Answer):
    power: str
    ready: bool


class PhaseEvent(Answer):
    """Phase `number` was adjudicated: the game is now at `next`."""

    phase: str
    number: int
    next: str


class GameEvent(Answer):
    """The game's status and deadline, and what changed them."""

    status: str
    change: GameChange
    deadline: Moment | None


class MembersEvent(Answer):
    """Who takes part changed: the power concerned, if any."""

    change: MembersChange
    power: str | None


# --- votes (docs/server.md, "Votes") ----------------------------------------------------

VoteKind = Literal["draw", "concede", "pause", "resume"]


class VoteLine(Answer):
    """A standing vote: the power that cast it, its kind, the power conceded to."""

    power: str
    kind: VoteKind
    to: str | None = None


class Votes(Answer):
    """The votes as the caller may see them: its own, and the others' only where the game's
    votes are public; who votes is public, how many voted is not (while secret)."""

    secrecy: Literal["secret", "public"]
    status: str = Field(description="the game's status: a vote that passed may have changed it")
    powers_in: list[str] = Field(description="the powers still in: a draw is shared by them")
    voters: list[str] = Field(description="the powers whose players vote: in, played by a person")
    power: str | None = Field(description="the power the caller votes for, if it votes")
    reason: str | None = Field(description="why the caller does not vote, if it does not")
    votes: list[VoteLine] = Field(description="the caller's own votes; everyone's if public")


VoteChange = Literal["cast", "withdrawn", "passed"]


class VoteEvent(Answer):
    """A public vote cast or withdrawn (`power` cast it), or a vote that passed (secret
    or public: `power` is then none): its kind and the power conceded to."""

    change: VoteChange
    kind: VoteKind
    to: str | None
    power: str | None


# --- notifications -----------------------------------------------------------------------


NoticeEvent = Literal["started", "adjudicated", "deadline", "press", "ended"]
NOTICE_EVENTS: tuple[NoticeEvent, ...] = ("started", "adjudicated", "deadline", "press", "ended")


class Notices(Answer):
    """What the account asked to be told by mail (docs/server.md, "Notifications")."""

    email: str | None = Field(description="the address mail goes to; none: no mail")
    events: list[NoticeEvent] = Field(description="the kinds of event mailed")
    hours: int = Field(description="how many hours before a deadline missing orders are recalled")
    mail: bool = Field(description="whether this server sends mail at all (its SMTP settings)")


class Webhook(Answer):
    id: int
    url: str
    secret: str = Field(description="the key of the HMAC SHA-256 in X-Hegemon-Signature")
    created: Moment


class Webhooks(Answer):
    """A game's webhooks, which its game master alone sees."""

    webhooks: list[Webhook]
