"""Europe 1615, issue 28 point 12: the last friction of the variant, each test named for
what it checks, its docstring starting with the rule (or the issue's point) it stands for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from hegemon.cli import main
from hegemon.game import Game
from hegemon.influence.orders import Deploy
from hegemon.notation import OrderSyntaxError
from hegemon.position import PhaseKind
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import Europe1615
from hegemon.variants.europe_1615.ledger import Ledger
from tests.conftest import Command


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


# --- the command line: what a power reads of its own orders, and why one is refused ----------


@pytest.fixture
def game(tmp_path: Path, cli: Command) -> str:
    """A new game's file."""
    path = str(tmp_path / "game.json")
    cli("new", "europe_1615", path, "--seed", "1615")
    return path


def test_show_as_a_power_counts_its_pending_deployments(game: str, cli: Command) -> None:
    """DEPLOYMENT (issue 28, point 12): "players cannot deploy more than the available INFs
    for the year", and what a power has given this phase is part of what it has spent:
    its board says so, and no one else's (the deployments are secret)."""
    before = cli("show", game, "--as", "Austria")
    cli("orders", game, "Austria", "16: SAX", "5: BAV")
    shown = cli("show", game, "--as", "Austria")
    left = "INFs of Austria: none; 52 left to deploy in 1615"
    assert left in before and left in shown
    spent = "Austria's orders given this phase spend 21 INF(s): 31 of the 52 left"
    assert spent in shown and "spend" not in before
    for other in ("England", "master", "observer"):
        assert "spend" not in cli("show", game, "--as", other)


def test_orders_from_a_file_number_the_lines_of_illegal_orders(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md (issue 28, point 12): "each power whose orders were refused is named with
    its reasons and line numbers": an order read well but illegal is told with its line,
    as an unreadable one is; a problem of the orders together has none to give."""
    given = tmp_path / "orders.txt"
    given.write_text(
        "France: 16: WUR\nEngland: 5: PAP\n# a comment\nFrance: A par - lor\nFrance: 60: LOR\n",
        encoding="utf-8",
    )
    assert main(["orders", game, "--from", str(given)]) == 1
    assert capsys.readouterr().err == (
        "hegemon: error: nothing stored; France: deployments total 76 INFs, but France has "
        "68 left this year; line 4: A Par - Lor: Paris does not border Lorraine, and no "
        "convoy route joins them | England: line 2: 5: PAP: only Catholic powers may "
        "deploy to Papal States\n"
    )


@pytest.mark.parametrize("written", ["\uff15: WUR", "\u0665: WUR", "5:WUR", "\u0665:Wurtemburg"])
def test_a_deployment_in_any_scripts_digits_is_read(
    eu: Europe1615, game: str, cli: Command, written: str
) -> None:
    """DEPLOYMENT (issue 28, point 12; decision in docs/variants/europe_1615.md): a digit
    of any script has one value, so a full-width or an Arabic-Indic 5 before ``: WUR`` is
    as plain as ``5: WUR``, and is read so."""
    assert eu.parse_order(written) == Deploy(5, "wur")
    cli("orders", game, "France", written)
    assert "   5: WUR" in cli("status", game, "--as", "France")


@pytest.mark.parametrize("written", ["5:", "5: ", " \u0665 :"])
def test_a_deployment_without_its_state_is_refused_with_why(
    eu: Europe1615, game: str, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    """DEPLOYMENT (issue 28, point 12): ``5:`` names no state; the refusal names the input
    and what it lacks, not a province it never meant."""
    with pytest.raises(OrderSyntaxError, match="no state after the colon"):
        eu.parse_order(written)
    assert main(["orders", game, "France", written]) == 1
    err = capsys.readouterr().err
    assert f"{written.strip()!r}: no state after the colon (deploy INFs to one" in err
