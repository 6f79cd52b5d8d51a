"""Europe 1615, issue 28 point 12: the last friction of the variant, each test named for
what it checks, its docstring starting with the rule (or the issue's point) it stands for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from hegemon.game import Game
from hegemon.position import PhaseKind
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import Europe1615
from hegemon.variants.europe_1615.ledger import Ledger


@pytest.fixture(scope="module")
def eu() -> Europe1615:
    variant = load_variant("europe_1615")
    assert isinstance(variant, Europe1615)
    return variant


def _play(game: Game, orders: Mapping[str, Sequence[str]] | None = None) -> None:
    """One phase of `game`, with each power's orders as a player writes them."""
    for power, texts in (orders or {}).items():
        units = game.position.all_units
        game.set_orders(power, [game.variant.parse_order(t, units) for t in texts])
    game.adjudicate()


def test_an_unaligned_empire_holding_more_centers_than_units_builds_no_clone(
    eu: Europe1615,
) -> None:
    """Re-building a minor state's army (issue 28, point 12): a unit comes back only "if
    the original unit was previously disbanded". Played from the start: Austria buys the
    Empire in 1615 and marches its army of Serbia into Hungary, which England's client
    left; in 1616 France's INFs end the alignment. The neutral Empire then holds five
    centers with its four units, Serbia free: room for a unit, yet none was disbanded,
    so no second army of Serbia is raised."""
    game = Game.new(eu, seed=1615)
    _play(game, {"Austria": ["15: OTE", "A ser - bud"], "England": ["16: HUN", "A hun - pre"]})
    _play(game, {"Austria": ["A bud - hun"]})  # Summer 1615
    while game.position.phase.year == 1615:
        _play(game)
    _play(game, {"France": ["5: OTE"]})  # Spring 1616: Austria's 75% is under 85%
    while game.position.phase.kind is not PhaseKind.ADJUSTMENT:
        _play(game)
    winter = game.position
    assert Ledger.of(winter).patron("ote") is None
    empire = sorted(str(u) for u in winter.units.values() if u.power == "Ottoman Empire")
    assert empire == ["A bul", "A hun", "A sal", "F gre"]
    assert winter.center_counts["Ottoman Empire"] == 5 and "ser" not in winter.units
    assert eu.automatic_builds(winter) == []
    _play(game)
    assert "ser" not in game.position.units
