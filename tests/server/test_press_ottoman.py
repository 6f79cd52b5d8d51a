"""Europe 1615's Ottoman Empire in press: "For a power aligned with the Ottoman Empire,
the GM keeps the player/power anonymous ... Communications with the Ottoman Empire should
be conducted by public white/grey press or through the GM" (rules: STATUS (3)). Its
patron writes as the Empire in public (white or grey) press and to the game master; no
private message is addressed to the Empire; the game master relays. Nothing any other
player can get ties the patron to the Empire's messages."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from hegemon.position import Viewer
from hegemon.server import events, press
from hegemon.server.table import Table
from hegemon.store import Store, models
from hegemon.variants.europe_1615 import EMPIRE_PRESS_RULE
from hegemon.variants.europe_1615.ledger import OTTOMAN, Ledger
from tests.server.conftest import Seated, User, seated_game
from tests.server.test_press import everything_read

EMPIRE = "Ottoman Empire"
PATRON = "Spain"
RULE = (
    '"Communications with the Ottoman Empire should be conducted by public white/grey press '
    'or through the GM"'
)


def _europe(client: TestClient, **press: Any) -> Seated:
    return seated_game(client, "europe_1615", seed=3, policy={"press": {"grey": True, **press}})


def _align(game: Seated, store: Store) -> None:
    """Spain buys the Empire's allegiance with 20 INFs (15 at least and 90% of those
    there: STATUS) in the first movement phase."""
    game.players[PATRON].ok("post", f"{game.path}/orders", {"orders": ["20: OTE"]})
    game.master.ok("post", f"{game.path}/adjudicate", {})
    with store.reading() as session:
        table = Table.open(session, game.id, None)
        assert Ledger.of(table.position).patron(OTTOMAN) == PATRON


def _send(user: User, game: Seated, text: str, to: list[str], **more: Any) -> Any:
    return user.post(f"{game.path}/messages", {"to": to, "text": text, **more})


def _sent(user: User, game: Seated, text: str, to: list[str], **more: Any) -> Any:
    return user.ok("post", f"{game.path}/messages", {"to": to, "text": text, **more})


def test_the_rule_is_the_rulebooks() -> None:
    assert RULE in EMPIRE_PRESS_RULE


def test_no_private_message_is_addressed_to_the_empire(client: TestClient, store: Store) -> None:
    game = _europe(client)
    _align(game, store)
    for power in ("England", PATRON):  # its patron too: the refusal tells nobody anything
        for to in ([EMPIRE], ["ottoman empire", "France"]):
            answer = _send(game.players[power], game, "a deal?", to)
            assert answer.status_code == 403
            assert answer.json()["detail"] == f"no private message to {EMPIRE}: {EMPIRE_PRESS_RULE}"
    assert game.players["England"].ok("get", f"{game.path}/press")["messages"] == []


def test_the_patron_speaks_as_the_empire_and_the_game_master_relays(
    client: TestClient, store: Store
) -> None:
    game = _europe(client)
    _align(game, store)
    spain, england = game.players[PATRON], game.players["England"]
    # Only its patron signs as the Empire, and only in public or to the game master.
    refused = _send(england, game, "The Sultan speaks", [], voice=EMPIRE)
    assert refused.status_code == 403 and refused.json()["detail"] == (
        f"voice: you may not sign as {EMPIRE!r}"
    )
    refused = _send(spain, game, "The Sultan speaks", ["France"], voice=EMPIRE)
    assert refused.status_code == 403
    white = _sent(spain, game, "The Sultan speaks", [], voice=EMPIRE)
    assert white["sender"] == EMPIRE and white["channel"] == "public" and "author" not in white
    grey = _sent(spain, game, "Whispers from the Porte", [], grey=True, voice=EMPIRE)
    assert grey["sender"] is None
    to_master = _sent(spain, game, "Tell Austria: peace", ["master"], voice=EMPIRE)
    assert to_master["channel"] == "master,Ottoman Empire" and to_master["sender"] == EMPIRE
    relayed = _sent(game.master, game, "Austria agrees", [EMPIRE])
    assert relayed["channel"] == "master,Ottoman Empire" and relayed["to"] == [EMPIRE]
    # The patron reads the Empire's channel with the game master, named as the Empire.
    conversations = spain.ok("get", f"{game.path}/conversations")
    assert conversations[1]["channel"] == "master,Ottoman Empire"
    assert conversations[1]["members"] == ["master", EMPIRE] and conversations[1]["unread"] == 1
    channel = spain.ok("get", f"{game.path}/messages", params={"channel": "master,Ottoman Empire"})
    assert [m["id"] for m in channel] == [to_master["id"], relayed["id"]]
    # The game master knows who writes.
    master_reads = game.master.ok("get", f"{game.path}/press")["messages"]
    assert [m.get("author") for m in master_reads] == [PATRON, PATRON, PATRON, None]
    # Every other member: the Empire's public messages, signed by the Empire or nobody,
    # and nothing anywhere ties Spain to them.
    for power in ("Austria", "England", "France", "Scandinavia"):
        _nothing_names_the_patron(game, game.players[power], [white, grey])
    _nothing_names_the_patron(game, game.observer, [white, grey])


def _nothing_names_the_patron(game: Seated, user: User, public: list[Any]) -> None:
    listed = user.ok("get", f"{game.path}/press")["messages"]
    assert listed == public, user.name
    assert [m["sender"] for m in listed] == [EMPIRE, None]
    texts = everything_read(
        user, game, ["public", "master,Ottoman Empire", "Ottoman Empire,master"]
    )
    press_answers = [t for t in texts if '"channel"' in t or '"messages"' in t]
    assert press_answers and not any(PATRON in t or '"author"' in t for t in press_answers)
    assert not any("Tell Austria" in t or "Austria agrees" in t for t in texts), user.name
    # Refusals name no patron either.
    refused = _send(user, game, "hello", [EMPIRE])
    assert refused.status_code == 403 and PATRON not in refused.text
    refused = _send(user, game, "hello", [], voice=EMPIRE)
    assert refused.status_code == 403 and PATRON not in refused.text


def test_the_events_of_the_empires_channel_are_its_patrons(
    client: TestClient, store: Store
) -> None:
    game = _europe(client)
    _align(game, store)
    sent = _sent(game.players[PATRON], game, "secret", ["master"], voice=EMPIRE)
    with store.reading() as session:
        message = session.get(models.Message, sent["id"])
        assert message is not None
        for power in ("England", "France"):
            assert not [
                e
                for e in events.since(session, game.id, 0, Viewer(power=power))
                if e.kind == "message"
            ]
            user = session.scalar(select(models.User).where(models.User.name == power.lower()))
            assert press.message_view(Table.open(session, game.id, user), message) is None
        assert [
            e.payload
            for e in events.since(session, game.id, 0, Viewer(power=PATRON))
            if e.kind == "message"
        ] == [{"id": sent["id"]}]


def test_nobody_speaks_for_a_neutral_empire(client: TestClient) -> None:
    game = _europe(client)
    answer = _send(game.master, game, "Sultan?", [EMPIRE])
    assert answer.status_code == 409
    assert answer.json()["detail"] == f"nobody speaks as {EMPIRE} now: nobody would read it"
    for power in game.players:
        answer = _send(game.players[power], game, "I am the Sultan", [], voice=EMPIRE)
        assert answer.status_code == 403
