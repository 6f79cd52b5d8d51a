"""The web pages: sign in, my account, my games (and a new game), a game's page (the board
as my power sees it, my orders given by clicking), a past phase, the game master's page.

Pages are rendered on the server from the same views as the API (`hegemon.server.views`;
the orders a player may give are the `options` answer's forms), so a page shows a player
nothing the API would not; every change is made by
the page's script through the JSON API, with the session cookie and the CSRF token the
page carries (`auth.csrf_token`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy.orm import Session

from hegemon.game.variant import Option
from hegemon.render import draw_thumbnail
from hegemon.render.thumbnail import WIDTH as THUMBNAIL_WIDTH
from hegemon.server import answers, auth, events, passwords, press, views, votes
from hegemon.server.deps import Now, StoreDep
from hegemon.server.notify import preferences, signing
from hegemon.server.notify.notices import EVENT_NAMES
from hegemon.server.policy import DAY, PressPolicy
from hegemon.server.schemas import PRESS_TEXT, InvitationCode, PhaseNumber, PowerName, RowId
from hegemon.server.table import (
    ACTIVE,
    ENDED,
    FORMING,
    MASTER_ROLE,
    OBSERVER_ROLE,
    PAUSED,
    PLAYER,
    Refusal,
    Table,
)
from hegemon.server.web.boards import BOARDS
from hegemon.server.web.gzipped import Deflated, accepts_gzip, gzip_of
from hegemon.store import Store, models
from hegemon.variants import UnknownVariant, available_variants, load_variant

router = APIRouter(include_in_schema=False)

NO_COLOUR = "#5b6472"  # the game master's swatch: no power's

templates = Jinja2Templates(
    env=Environment(loader=PackageLoader("hegemon.server.web"), autoescape=select_autoescape())
)


def variant_title(name: str) -> str:
    """A variant's name as players know it (its title, not its id); the id of a game whose
    variant is no longer installed."""
    try:
        return load_variant(name).title or name
    except UnknownVariant:
        return name


templates.env.filters["variant_title"] = variant_title

# Pages hold no script or style but the server's own files: no inline script runs.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
)


class SignedOut(Exception):
    """The page needs a signed-in user: the browser is sent to sign in, then back."""


# Any in this module: what a Jinja template is given, which reads it by name (no types there).
def _page(request: Request, template: str, user: models.User | None, **context: Any) -> Response:
    token = request.cookies.get(auth.COOKIE, "")
    answer = templates.TemplateResponse(
        request,
        template,
        {"user": user, "csrf": auth.csrf_token(token) if user else "", **context},
    )
    answer.headers["Content-Security-Policy"] = POLICY
    answer.headers["Cache-Control"] = "no-store"  # a player's page holds their orders
    return answer


def _signed_in(request: Request, store: Store, moment: datetime) -> models.User:
    with store.reading() as session:
        return _caller(request, session, moment)


def _caller(request: Request, session: Session, moment: datetime) -> models.User:
    """The signed-in user, read in a transaction the page reads more in (one transaction
    costs less than two)."""
    try:
        user, _ = auth.caller(session, request.cookies.get(auth.COOKIE), moment)
    except auth.AuthError:
        raise SignedOut from None
    return user


@contextmanager
def _game(store: Store, game_id: int, user: models.User) -> Iterator[Table]:
    with store.reading() as session:
        table = Table.open(session, game_id, user)
        table.require_member()
        yield table


def handle_page_errors(request: Request, exc: Exception) -> Response:
    """A page that cannot be shown: to sign in, or a page saying why (a game the user takes
    no part in, one that does not exist)."""
    if isinstance(exc, SignedOut):
        return RedirectResponse(f"/signin?next={quote(request.url.path)}", status_code=303)
    assert isinstance(exc, Refusal)
    answer = _page(request, "refused.html", None, status=exc.status, detail=exc.detail)
    answer.status_code = exc.status
    return answer


def _outsider(request: Request, user: models.User, game_id: int) -> Response:
    """A game the user takes no part in: the page says so, and offers to observe it (which
    anyone signed in may; the game master may then give them a seat)."""
    detail = f"you take no part in game {game_id}: observe it to follow it"
    answer = _page(request, "refused.html", user, status=403, detail=detail, observe=game_id)
    answer.status_code = 403
    return answer


@router.get("/signin", response_class=HTMLResponse)
def signin(request: Request, next: Annotated[str, Query(max_length=200)] = "/") -> Response:
    return _page(request, "signin.html", None, next=local_path(next))


def local_path(wanted: str) -> str:
    """`wanted` if it is a path of this site, else ``/``: where the sign-in page leads
    after signing in, never to another site. Browsers read ``/\\host``, ``//host`` and a
    path with a tab or a line break in it (which they drop) as another host, so only a
    plain path passes: one slash first, no backslash, no space or control character, and
    neither a scheme nor a host as a URL."""
    parts = urlsplit(wanted)
    plain = wanted.startswith("/") and not wanted.startswith("//") and "\\" not in wanted
    printable = wanted.isprintable() and not any(c.isspace() for c in wanted)
    return wanted if plain and printable and not parts.scheme and not parts.netloc else "/"


@router.get("/account", response_class=HTMLResponse)
def account(request: Request, store: StoreDep, moment: Now) -> Response:
    """The caller's account: a new password, signing out everywhere, and what the account
    is told by mail."""
    user = _signed_in(request, store, moment)
    with store.reading() as session:
        notices = preferences.notices_view(session, user, request.app.state.notify)
    return _page(
        request,
        "account.html",
        user,
        shortest=passwords.SHORTEST,
        longest=passwords.LONGEST,
        notices=notices,
        event_names=EVENT_NAMES,
    )


@router.get("/unsubscribe/{token}", response_class=HTMLResponse)
def unsubscribe(
    request: Request, token: Annotated[str, Path(max_length=200)], store: StoreDep
) -> Response:
    """A mail's unsubscribe link: its kind of mail turned off for its account, no sign-in
    needed (the link is signed)."""
    settings = request.app.state.notify
    wanted = signing.read_unsubscribe(signing.server_key(store, settings.secret_key), token)
    if wanted is None or wanted.event not in EVENT_NAMES:
        answer = _page(request, "unsubscribed.html", None, event=None, was_on=False)
        answer.status_code = 404
        return answer
    with store.writing() as session:
        was_on = preferences.unsubscribe(session, wanted)
    event = EVENT_NAMES[wanted.event]
    return _page(request, "unsubscribed.html", None, event=event, was_on=was_on)


@router.get("/", response_class=HTMLResponse)
def my_games(request: Request, store: StoreDep, moment: Now) -> Response:
    user = _signed_in(request, store, moment)
    with store.reading() as session:
        mine = views.games_list(session, user, "mine")
    return _page(request, "games.html", user, games=mine)


# Declared before /games/{game_id}, which would read "new" as a game's number.
@router.get("/games/new", response_class=HTMLResponse)
def new_game(request: Request, store: StoreDep, moment: Now) -> Response:
    """The new game's form: a gallery of variants, each one's options, the phase lengths,
    press, who may join and how the powers are given."""
    user = _signed_in(request, store, moment)
    listed = [_listed(name) for name in available_variants()]
    return _page(
        request,
        "new.html",
        user,
        variants=listed,
        thumbnail_width=THUMBNAIL_WIDTH,
        lengths=LENGTHS,
        data={v.id: {"powers": v.powers} for v in listed},
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(
    request: Request,
    game_id: RowId,
    store: StoreDep,
    moment: Now,
    power: Annotated[PowerName | None, Query()] = None,
) -> Response:
    with store.reading() as session:
        user = _caller(request, session, moment)
        table = Table.open(session, game_id, user)
        if table.member is None:
            return _outsider(request, user, game_id)
        game = views.game_view(table)
        acting = _acting(table, power)
        data = {
            **_progress(game),
            "since": events.latest(session, game_id, table.viewer),
            "power": acting,
            "pending": views.pending_view(table, table.pending[acting]).model_dump()
            if acting
            else None,
            "choices": views.options_view(table, acting).model_dump() if acting else None,
        }
        page = _page(
            request,
            "game.html",
            user,
            game=game,
            acting=acting,
            data=data,
            board=BOARD_HERE,
            phases=views.phases_view(table),
            tally=views.tally_view(table),
            seats=_seats(game),
            press=_press(table, game),
            ballot=votes.votes_view(table),
            invitation=_invitation_link(request, game),
        )
        given = views.given_orders(table, acting) if acting else []
        board = BOARDS.board(table.variant, table.position, table.viewer, given, table.digest)
        return _with_board(request, page, board)


def _invitation_link(request: Request, game: answers.Game) -> str | None:
    """A private game's invitation link, for its members (`answers.Game.invitation`) to
    pass on: on the game's page, as on the page the link opens."""
    if game.invitation is None:
        return None
    return str(request.url_for("invitation_page", code=game.invitation))


# Where the board goes in a page, as rendered: the board itself, kept drawn and compressed
# (`hegemon.server.web.boards`), is put there afterwards.
BOARD_HERE = Markup("<!--the board-->")


def _with_board(request: Request, page: Response, board: Sequence[Deflated]) -> Response:
    """The page with its board, gzip-compressed if the client takes it (the board's part
    compressed once, when it was drawn: `hegemon.server.web.gzipped`)."""
    before, after = bytes(page.body).split(BOARD_HERE.encode(), 1)
    headers = {k: v for k, v in page.headers.items() if k != "content-length"}
    headers["vary"] = "Accept-Encoding"
    if not accepts_gzip(request):
        body = b"".join([before, *(part.text for part in board), after])
        return Response(body, page.status_code, headers)
    headers["content-encoding"] = "gzip"
    return Response(gzip_of([before, *board, after]), page.status_code, headers)


def _press(table: Table, game: answers.Game) -> dict[str, Any]:
    """The press panel: the game's press policy in words, whom the caller writes as (its
    power, or the game master; an observer writes nothing), the identities it may sign as
    besides, and to whom it may write: the powers by name with their colour on the board
    where private press is allowed, the game master always."""
    policy = table.policy.press
    me = press.MASTER if table.role == MASTER_ROLE else table.member.power if table.member else None
    colours = {power.name: power.color for power in table.variant.powers.values()}
    powers = [p for p in game.powers if p != me and (policy.mode == "full" or me == press.MASTER)]
    recipients = [{"name": p, "label": p, "colour": colours.get(p, NO_COLOUR)} for p in powers]
    if me != press.MASTER:
        recipients.append({"name": press.MASTER, "label": "Game master", "colour": NO_COLOUR})
    voices = table.variant.press_voices(table.position)
    return {
        "rule": _press_rule(policy),
        "public": policy.mode != "none" or me == press.MASTER,
        "writes": me is not None,
        "reader": "Observers read the public press and write none.",
        "recipients": recipients,
        "grey": policy.grey and policy.mode != "none" and me != press.MASTER,  # it signs
        "voices": [name for name, voice in voices.items() if me and voice.speaker == me],
        "longest": PRESS_TEXT,
        "data": {"game": game.id, "me": me, "colours": colours},
    }


def _press_rule(policy: PressPolicy) -> str:
    """The press policy in a few words, as every member of the game reads it."""
    rule = {
        "full": "Full press: private, group and public messages.",
        "public": "Public press only: every message between powers goes to everyone.",
        "none": "No press between powers (gunboat).",
    }[policy.mode]
    if policy.grey and policy.mode != "none":
        rule += " Grey (anonymous) public press is allowed."
    if not policy.other_phases and policy.mode != "none":
        rule += " Press only in movement phases."
    if policy.master_reads:
        rule += " The game master may read private press."
    return rule + " Anyone may write to the game master."


def _progress(game: answers.Game) -> dict[str, Any]:
    """What the page's script compares with `/progress` to know when to read it again."""
    return {"played": game.played, "status": game.status, "version": game.version, "game": game.id}


def _acting(table: Table, named: str | None) -> str | None:
    """The power whose orders the page gives: a player's own while the phase awaits it;
    for the game master, the power chosen (the first awaited, if none)."""
    if table.game.status not in (ACTIVE, PAUSED) or table.role not in (PLAYER, MASTER_ROLE):
        return None
    if table.role == MASTER_ROLE:
        actors = list(table.actors)
        if named is not None:
            return table.power_named(named)
        return actors[0] if actors else None
    own = table.member.power if table.member else None
    return own if own in table.actors else None


def _seats(game: answers.Game) -> list[dict[str, Any]]:
    """Each power's line in the public table: its player (a bot marked as one), and what
    its orders are at (`_orders_state`)."""
    players = {m.power: m for m in game.members if m.role == PLAYER}
    return [
        {
            "power": power,
            "player": _player_name(players[power]) if power in players else None,
            "bot_seat": power in players and players[power].bot,
            "state": _orders_state(game, power, power in players),
        }
        for power in game.powers
    ]


def _orders_state(game: answers.Game, power: str, seated: bool) -> str:
    """Whether a power's orders are in, ready, awaited, or it is in civil disorder (and then
    whether a bot plays it); in a forming game, no orders being awaited before it starts,
    whether the seat is taken or free."""
    if game.status == FORMING:
        return "joined" if seated else "free seat"
    if power in game.disorder:
        return "civil disorder, a bot plays" if power in game.bots else "civil disorder"
    if power in game.ready:
        return "ready"
    if power in game.received:
        return "in"
    return "awaited" if power in game.awaiting else "—"


def _player_name(member: answers.Member) -> str:
    """A player's name, or what stands for it in an anonymous game."""
    return member.name or "anonymous"


@router.get("/games/{game_id}/phases/{number}", response_class=HTMLResponse)
def phase_page(
    request: Request, game_id: RowId, number: PhaseNumber, store: StoreDep, moment: Now
) -> Response:
    user = _signed_in(request, store, moment)
    with _game(store, game_id, user) as table:
        phase = views.phase_view(table, number)
        return _page(
            request,
            "phase.html",
            user,
            game=views.game_view(table),
            phase=phase,
            number=number,
            board=views.board_svg(table, number, True),
            phases=views.phases_view(table),
        )


@router.get("/games/{game_id}/master", response_class=HTMLResponse)
def master_page(request: Request, game_id: RowId, store: StoreDep, moment: Now) -> Response:
    user = _signed_in(request, store, moment)
    with _game(store, game_id, user) as table:
        table.require_master()
        game = views.game_view(table)
        return _page(
            request,
            "master.html",
            user,
            game=game,
            seats=_seats(game),
            observers=[m.name for m in game.members if m.role == OBSERVER_ROLE],
            waiting=[m.name for m in game.members if m.role == PLAYER and m.power is None],
            data={**_progress(game), "since": events.latest(table.session, game_id, table.viewer)},
            ended=game.status == ENDED,
            webhooks=preferences.webhooks_view(table).webhooks,
        )


# --- the lobby: a new game, the open games, an invitation ---------------------------------
THUMBNAIL_AGE = 24 * 3600  # seconds a browser keeps a variant's thumbnail: it changes only
# with a release


@dataclass(frozen=True)
class Listed:
    """A variant in the new game's gallery: what a player picks it by, and what it takes."""

    id: str
    title: str
    summary: str
    players: str  # "7 players", "3 to 8 players"
    powers: list[str]
    seated: bool  # the game chooses which powers play (`Variant.seats`)
    options: list[Option]
    thumbnail_height: int  # its thumbnail's, at THUMBNAIL_WIDTH


def _listed(name: str) -> Listed:
    variant = load_variant(name)
    fewest, most = variant.seats if variant.seats[1] else (len(variant.powers),) * 2
    players = f"{most} players" if fewest == most else f"{fewest} to {most} players"
    return Listed(
        id=name,
        title=variant.title or name,
        summary=variant.summary,
        players=players,
        powers=list(variant.powers),
        seated=bool(variant.seats[1]),
        options=list(variant.declared.values()),
        thumbnail_height=round(THUMBNAIL_WIDTH * variant.board.size[1] / variant.board.size[0]),
    )


# The phase lengths the form offers, in seconds (0: no deadline), by what it shows.
LENGTHS = {
    "No deadline": 0,
    "1 hour": 3600,
    "12 hours": 12 * 3600,
    "1 day": DAY,
    "2 days": 2 * DAY,
    "3 days": 3 * DAY,
    "1 week": 7 * DAY,
}


@router.get("/lobby", response_class=HTMLResponse)
def lobby(request: Request, store: StoreDep, moment: Now) -> Response:
    """The games with a seat free: public ones, and the private ones the caller is in."""
    user = _signed_in(request, store, moment)
    with store.reading() as session:
        games = views.games_list(session, user, "open")
    return _page(request, "lobby.html", user, games=games)


@router.get("/join/{code}", response_class=HTMLResponse)
def invitation_page(
    request: Request, code: InvitationCode, store: StoreDep, moment: Now
) -> Response:
    """A private game's invitation: the game as the lobby lists it, and a button to join;
    to its members, the link to pass on."""
    user = _signed_in(request, store, moment)
    with store.reading() as session:
        line = views.invited(session, user, code)
    link = str(request.url_for("invitation_page", code=code))
    return _page(request, "join.html", user, game=line, code=code, link=link)


@router.get("/variants/{name}/thumbnail.svg")
def variant_thumbnail(name: Annotated[str, Path(max_length=60)]) -> Response:
    """A variant's board in miniature (`render.draw_thumbnail`), kept by browsers a day."""
    if name not in available_variants():
        raise Refusal(404, f"no variant {name!r}")
    return Response(
        _thumbnail(name),
        media_type="image/svg+xml",
        headers={"Cache-Control": f"public, max-age={THUMBNAIL_AGE}"},
    )


@cache
def _thumbnail(name: str) -> str:
    return draw_thumbnail(load_variant(name))


def duration(seconds: int) -> str:
    """A phase's length as the lobby shows it: ``2 days``, ``12 hours``, ``none``."""
    if not seconds:
        return "none"
    for size, unit in ((7 * DAY, "week"), (DAY, "day"), (3600, "hour"), (60, "minute")):
        if seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} s"


templates.env.filters["duration"] = duration
