"""What each viewer sees of a variant's state (`VariantState.view`): typed views, written
as JSON by `jsonio.view_to_json`. For each variant's state: the observer and the other
powers never see its secrets, the power they belong to and the game master do, and the
game master's view is the whole state, what a saved game keeps and reads back."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from hegemon.game import Variant
from hegemon.jsonio import view_to_json
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.randomplay import random_game
from hegemon.variants import load_variant, load_variant_from
from hegemon.variants.europe_1615.ledger import OTTOMAN, Award, Ledger
from tests.variants.outposts import OutpostsState

OUTPOSTS = Path(__file__).parent / "variants" / "outposts"
SPAIN, FRANCE = Viewer(power="Spain"), Viewer(power="France")


def _europe_with_secrets() -> Ledger:
    """A ledger holding every kind of Europe 1615's secrets, Spain's and England's: INFs,
    spending, an alliance offer, a waiver, an award and an annexation that name the
    Ottoman Empire's patron (Spain)."""
    ledger = Ledger.of(load_variant("europe_1615").initial_position())
    return replace(
        ledger,
        inf={"sax": {"Spain": 12, "England": 6}, OTTOMAN: {"Spain": 20}},
        spent={"Spain": 32, "England": 6},
        offers={"Spain": "England"},
        waived={"Spain": ["vie"]},
        status={**ledger.status, OTTOMAN: ["ALIGNED", "Spain"]},
        secret_awards={"Spain": [Award(1616, "Ottoman Empire aligned", 478)]},
        secret_annexed={"bos": "Spain"},
    )


@pytest.mark.parametrize("viewer", [OBSERVER, FRANCE])
def test_europe_1615s_ledger_shows_no_other_powers_secrets(viewer: Viewer) -> None:
    seen = _europe_with_secrets().view(viewer).ledger
    assert seen.inf == {}  # France holds no INFs: it reads nobody's numbers
    for secret in (seen.spent, seen.offers, seen.waived, seen.secret_awards, seen.secret_annexed):
        assert secret == {}
    assert seen.patron(OTTOMAN) is None and seen.status[OTTOMAN] == ["ALIGNED", None]
    assert seen.shares is not None and seen.shares["sax"] == {"Spain": 66, "England": 33}
    assert OTTOMAN not in seen.shares  # the shares there would name the patron
    written = view_to_json(_europe_with_secrets().view(viewer))["ledger"]
    assert isinstance(written, dict)
    assert written["inf"] == written["spent"] == written["secret_awards"] == {}
    assert written["status"][OTTOMAN] == ["ALIGNED", None]


def test_europe_1615s_ledger_shows_a_power_its_own_secrets() -> None:
    seen = _europe_with_secrets().view(SPAIN).ledger
    assert seen.inf == {"sax": {"Spain": 12}, OTTOMAN: {"Spain": 20}}
    assert seen.spent == {"Spain": 32} and seen.offers == {"Spain": "England"}
    assert seen.waived == {"Spain": ["vie"]} and seen.secret_annexed == {"bos": "Spain"}
    assert seen.secret_awards["Spain"] == [Award(1616, "Ottoman Empire aligned", 478)]
    assert seen.patron(OTTOMAN) == "Spain"


def test_the_game_masters_view_of_europe_1615s_ledger_is_all_of_it() -> None:
    ledger = _europe_with_secrets()
    written = view_to_json(ledger.view(MASTER))
    assert isinstance(written["ledger"], dict) and "shares" not in written["ledger"]
    assert load_variant("europe_1615").read_state(written) == ledger


@pytest.mark.parametrize("viewer", [OBSERVER, Viewer(power="South")])
def test_the_outposts_objectives_show_to_their_power_alone(viewer: Viewer) -> None:
    state = OutpostsState(order=("North", "South"), objectives={"North": "cov", "South": "mid"})
    seen = state.view(viewer)
    assert isinstance(seen, OutpostsState)
    assert seen.objectives == ({"South": "mid"} if viewer.power else {})
    assert seen.order == ("North", "South")  # public
    assert view_to_json(state.view(MASTER))["objectives"] == {"North": "cov", "South": "mid"}


def _late_position(variant: Variant, seed: int) -> Position:
    """The last position of a random game of `variant`: a state with most of its parts."""
    history = list(random_game(variant, random.Random(seed), 60))
    return history[-1].after


@pytest.mark.parametrize("name", ["africa_ii", "sub_saharan", "african_diplomacy_ii"])
def test_a_public_state_shows_everyone_all_of_it(name: str) -> None:
    variant = load_variant(name)
    state = _late_position(variant, 3).state
    whole = view_to_json(state.view(MASTER))
    assert whole  # something to show, or this test shows nothing
    for viewer in (OBSERVER, Viewer(power=next(iter(variant.powers)))):
        assert view_to_json(state.view(viewer)) == whole
    assert variant.read_state(whole) == state


@pytest.mark.parametrize("name", ["europe_1615", "africa_ii", "sub_saharan", "outposts"])
def test_the_game_masters_view_is_what_a_saved_game_reads_back(name: str) -> None:
    variant = load_variant_from(OUTPOSTS) if name == "outposts" else load_variant(name)
    state = _late_position(variant, 5).state
    assert variant.read_state(view_to_json(state.view(MASTER))) == state


def test_the_standard_game_has_no_state_to_show() -> None:
    assert view_to_json(load_variant("classic").initial_position().state.view(MASTER)) == {}
