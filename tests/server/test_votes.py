"""Players' votes (docs/server.md, "Votes"): a draw, a concession, a pause and a resume,
each passing when every voter (a person playing a power still in) votes so; secret
until it passes unless the game's policy makes votes public; a passed draw or concession
ending the game by the game master's own path."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hegemon.server import events
from hegemon.store import Store, models
from tests.server.conftest import Seated, User, seated_game

DRAW = {"kind": "draw"}


def _votes(game: Seated, power: str, body: dict[str, Any]) -> Any:
    return game.players[power].ok("post", f"{game.path}/votes", body)


def _all_vote(game: Seated, body: dict[str, Any], powers: list[str]) -> Any:
    """Each power votes so, in turn: the last answer."""
    answer = None
    for power in powers:
        answer = _votes(game, power, body)
    return answer


def _last_event(store: Store, game: Seated) -> int:
    with store.reading() as session:
        return events.last(session, game.id)


def _actions(game: Seated) -> list[dict[str, Any]]:
    return game.master.ok("get", f"{game.path}/audit")  # type: ignore[no-any-return]


@pytest.fixture
def small_game(client: TestClient) -> Seated:
    """A standard game with three players; the other four seats are bots'."""
    bots = ("Austria", "Germany", "Russia", "Turkey")
    return seated_game(client, "classic", free=bots, fill_with_bots=True, seed=7)


PEOPLE = ["England", "France", "Italy"]


def test_a_draw_passes_when_every_voter_votes_it_and_not_before(small_game: Seated) -> None:
    game = small_game
    voted = _all_vote(game, DRAW, PEOPLE[:2])
    assert voted["status"] == "active" and voted["voters"] == PEOPLE
    assert game.master.ok("get", game.path)["status"] == "active"
    last = _votes(game, "Italy", DRAW)
    assert last["status"] == "ended" and last["votes"] == []  # no vote stands once over
    view = game.master.ok("get", game.path)
    assert view["awaiting"] == [] and view["received"] == []  # over: nobody's orders awaited
    ended = view["end"]
    # shared by every power still in, bots too, as the game master's end by agreement
    assert ended["termination"] == "draw_agreed" and "by agreement" in ended["text"]
    assert ended["draw"] == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    actions = _actions(game)
    assert [a["action"] for a in actions[-2:]] == ["vote passed", "ended"]
    assert actions[-2]["detail"] == {"kind": "draw", "to": None, "voters": PEOPLE}
    assert actions[-1]["detail"] == {"draw": ended["draw"]}  # as the game master's end logs it
    again = game.players["France"].post(f"{game.path}/votes", DRAW)
    assert again.status_code == 409 and "the game is over" in again.json()["detail"]


def test_a_voted_draw_is_recorded_as_the_game_masters(client: TestClient) -> None:
    """The same end, the same record: the game's view, its `agreed` and its log line."""
    voted = seated_game(client, "classic", prefix="v_", seed=7)
    _all_vote(voted, DRAW, list(voted.players))
    mastered = seated_game(client, "classic", prefix="m_", seed=7)
    mastered.master.ok("post", f"{mastered.path}/end", {"draw": list(mastered.players)})
    ends = [game.observer.ok("get", game.path)["end"] for game in (voted, mastered)]
    assert ends[0] == ends[1]
    logged = [[a for a in _actions(game) if a["action"] == "ended"] for game in (voted, mastered)]
    assert logged[0][0]["detail"] == logged[1][0]["detail"]


def test_a_concession_passes_when_every_other_voter_concedes_to_that_power(
    small_game: Seated,
) -> None:
    game = small_game
    _votes(game, "England", {"kind": "concede", "to": "France"})
    _votes(game, "Italy", {"kind": "concede", "to": "Russia"})
    replaced = _votes(game, "Italy", {"kind": "concede", "to": "England"})  # not France
    assert replaced["votes"] == [{"power": "Italy", "kind": "concede", "to": "England"}]
    assert game.master.ok("get", game.path)["status"] == "active"
    withdrawn = _votes(game, "Italy", {"kind": "concede", "vote": False})  # naming nobody
    assert withdrawn["votes"] == []
    passed = _votes(game, "Italy", {"kind": "concede", "to": "france"})
    assert passed["status"] == "ended"  # France itself need not vote
    end = game.observer.ok("get", game.path)["end"]
    assert end["termination"] == "concession" and end["winners"] == ["France"]


def test_a_concession_to_a_bots_power_needs_every_voter(small_game: Seated) -> None:
    game = small_game
    _all_vote(game, {"kind": "concede", "to": "Russia"}, PEOPLE[:2])
    assert game.master.ok("get", game.path)["status"] == "active"
    assert _votes(game, "Italy", {"kind": "concede", "to": "Russia"})["status"] == "ended"


def test_pause_and_resume_pass_as_the_game_masters_and_clear_their_votes(
    client: TestClient,
) -> None:
    game = seated_game(client, "classic", free=("Austria", "Germany", "Russia", "Turkey"),
                       fill_with_bots=True, policy={"deadlines": {"other": 3600}})  # fmt: skip
    assert _all_vote(game, {"kind": "pause"}, PEOPLE[:2])["status"] == "active"
    paused = _votes(game, "Italy", {"kind": "pause"})
    assert paused["status"] == "paused" and paused["votes"] == []  # the pause votes cleared
    view = game.observer.ok("get", game.path)
    assert view["deadline"] is None
    refused = game.players["France"].post(f"{game.path}/votes", {"kind": "pause"})
    assert refused.status_code == 409 and "nothing to pause" in refused.json()["detail"]
    _all_vote(game, {"kind": "resume"}, PEOPLE[:2])
    assert game.observer.ok("get", game.path)["status"] == "paused"
    resumed = _votes(game, "Italy", {"kind": "resume"})
    assert resumed["status"] == "active" and resumed["votes"] == []
    assert game.observer.ok("get", game.path)["deadline"] is not None  # the clock runs again
    actions = [a["action"] for a in _actions(game)]
    assert actions[-4:] == ["vote passed", "paused", "vote passed", "resumed"]


def test_the_game_masters_pause_clears_the_pause_votes(small_game: Seated) -> None:
    game = small_game
    _votes(game, "England", {"kind": "pause"})
    game.master.ok("post", f"{game.path}/pause")
    game.master.ok("post", f"{game.path}/resume")
    assert game.players["England"].ok("get", f"{game.path}/votes")["votes"] == []


def test_bots_and_civil_disorder_neither_vote_nor_block(small_game: Seated) -> None:
    game = small_game
    game.master.ok("post", f"{game.path}/disorder", {"power": "Italy"})
    standing = game.players["Italy"].ok("get", f"{game.path}/votes")
    assert standing["voters"] == ["England", "France"] and standing["power"] is None
    assert "civil disorder" in standing["reason"]
    refused = game.players["Italy"].post(f"{game.path}/votes", DRAW)
    assert refused.status_code == 409 and "civil disorder" in refused.json()["detail"]
    assert _all_vote(game, DRAW, ["England", "France"])["status"] == "ended"
    assert "Italy" in game.observer.ok("get", game.path)["end"]["draw"]  # but shares the draw


def test_a_withdrawn_vote_no_longer_counts(small_game: Seated) -> None:
    game = small_game
    _votes(game, "England", DRAW)
    withdrawn = _votes(game, "England", {**DRAW, "vote": False})
    assert withdrawn["votes"] == []
    assert _all_vote(game, DRAW, ["France", "Italy"])["status"] == "active"
    assert _votes(game, "England", DRAW)["status"] == "ended"


def test_a_secret_vote_is_seen_by_its_voter_alone(small_game: Seated, store: Store) -> None:
    game = small_game
    path = f"{game.path}/votes"
    first = _votes(game, "France", DRAW)
    assert first["secrecy"] == "secret"
    assert first["votes"] == [{"power": "France", "kind": "draw", "to": None}]
    before = _last_event(store, game)
    _votes(game, "England", DRAW)
    _votes(game, "England", {**DRAW, "vote": False})
    _votes(game, "England", {"kind": "concede", "to": "Italy"})
    assert _last_event(store, game) == before  # no event, not even one kept from others
    for other in (game.players["Italy"], game.master, game.observer):
        assert "draw" not in str(other.ok("get", path)["votes"])
        assert "France" not in str(other.ok("get", path)["votes"])
    # France's answer is the same whatever England voted meanwhile
    assert _votes(game, "France", DRAW) == first
    _votes(game, "England", {"kind": "concede", "to": "Italy", "vote": False})
    assert _votes(game, "France", DRAW) == first
    assert not any(a["action"].startswith("vote") for a in _actions(game))  # nor logged


def test_public_votes_are_seen_by_every_member_and_told_on_the_stream(
    client: TestClient, store: Store
) -> None:
    game = seated_game(client, "classic", free=("Austria", "Germany", "Russia", "Turkey"),
                       fill_with_bots=True, policy={"votes": "public"})  # fmt: skip
    assert game.observer.ok("get", game.path)["policy"]["votes"] == "public"
    before = _last_event(store, game)
    _votes(game, "France", DRAW)
    for other in (game.players["Italy"], game.master, game.observer):
        seen = other.ok("get", f"{game.path}/votes")
        assert seen["votes"] == [{"power": "France", "kind": "draw", "to": None}]
    with store.reading() as session:
        (told,) = events.after(session, game.id, before)
    assert told.kind == "vote" and told.audience is None
    assert told.payload == {"change": "cast", "kind": "draw", "to": None, "power": "France"}


def test_a_vote_that_passes_is_told_on_the_stream(small_game: Seated, store: Store) -> None:
    game = small_game
    before = _last_event(store, game)
    _all_vote(game, DRAW, PEOPLE)
    with store.reading() as session:
        told = [(e.kind, e.payload, e.audience) for e in events.after(session, game.id, before)]
    passed = {"change": "passed", "kind": "draw", "to": None, "power": None}
    assert told[0] == ("vote", passed, None)
    assert told[1][0] == "game" and told[1][1]["change"] == "ended"


def test_who_may_not_vote_and_what_is_refused(client: TestClient, small_game: Seated) -> None:
    game = small_game
    path = f"{game.path}/votes"
    for user, said in ((game.master, "game master"), (game.observer, "observer")):
        refused = user.post(path, DRAW)
        assert refused.status_code == 403 and said in refused.json()["detail"]
        assert said in user.ok("get", path)["reason"]
    assert game.outsider.post(path, DRAW).status_code == 403
    assert game.outsider.get(path).status_code == 403
    france = game.players["France"]
    for body, field in (
        ({"kind": "surrender"}, "kind"),
        ({"kind": "concede"}, "to"),
        ({"kind": "concede", "to": "Atlantis"}, "to"),
        ({"kind": "concede", "to": "France"}, "to"),
        ({"kind": "draw", "to": "Italy"}, "to"),
    ):
        refused = france.post(path, body)
        assert refused.status_code == 422 and field in refused.json()["detail"], body
    resume = france.post(path, {"kind": "resume"})
    assert resume.status_code == 409 and "not paused" in resume.json()["detail"]


def test_a_forming_game_takes_no_votes(client: TestClient) -> None:
    master = User(client, "gm")
    game = master.ok("post", "/api/games", {"variant": "classic"})
    france = User(client, "france")
    france.ok("post", f"/api/games/{game['id']}/join", {"power": "France"})
    refused = france.post(f"/api/games/{game['id']}/votes", DRAW)
    assert refused.status_code == 409 and "not started" in refused.json()["detail"]


def test_a_seat_given_to_another_carries_no_vote(small_game: Seated) -> None:
    game = small_game
    _votes(game, "England", DRAW)
    newcomer = User(game.master.client, "newcomer")
    newcomer.ok("post", f"{game.path}/observe")
    game.master.ok("post", f"{game.path}/replace", {"power": "England", "user": "newcomer"})
    assert newcomer.ok("get", f"{game.path}/votes")["votes"] == []
    _all_vote(game, DRAW, ["France", "Italy"])
    assert game.observer.ok("get", game.path)["status"] == "active"


def test_a_voted_draw_reveals_the_secret_bids(client: TestClient) -> None:
    """Bids stay secret until the game ends; a draw the players vote ends it, and they are
    revealed as after the game master's end."""
    game = seated_game(client, "sub_saharan", prefix="ss_", seed=5)
    game.players["Angola"].ok("post", f"{game.path}/orders", {"orders": ["2: A Bra - Cho"]})
    game.master.ok("post", f"{game.path}/adjudicate")
    assert game.observer.get(f"{game.path}/reveal").status_code == 409
    _all_vote(game, DRAW, list(game.players))
    revealed = game.observer.ok("get", f"{game.path}/reveal")
    assert revealed[0]["orders"]["Angola"] == ["2: A Bra - Cho"]


def test_a_voted_draw_ends_a_game_scored_by_points(client: TestClient, store: Store) -> None:
    game = seated_game(client, "europe_1615", prefix="e_", seed=3)
    voted = _all_vote(game, DRAW, list(game.players))
    assert voted["status"] == "ended"
    end = game.observer.ok("get", game.path)["end"]
    assert end["termination"] == "draw_agreed" and end["draw"] == sorted(
        game.players, key=list(game.players).index
    )
    with store.reading() as session:
        row = session.get(models.Game, game.id)
        assert row is not None and row.agreed == {"draw": end["draw"]}
