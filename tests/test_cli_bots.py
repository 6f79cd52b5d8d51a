"""``hegemon bot``: a power's orders from the bot, read back by ``hegemon orders``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hegemon.cli import main
from hegemon.gamefile import read_game
from hegemon.variants import available_variants, load_variant
from tests.conftest import stdin
from tests.test_cli_inputs import hegemon

VARIANTS = tuple(available_variants())  # every variant installed
POWERS = load_variant("classic").powers


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _new(capsys: pytest.CaptureFixture[str], path: Path, variant: str = "classic") -> Path:
    assert run(capsys, "new", variant, str(path), "--seed", "1")[0] == 0
    return path


def test_the_bots_orders_are_stored_back_and_adjudicated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _new(capsys, tmp_path / "game.json")
    code, out, err = run(capsys, "bot", str(game), "france", "--playouts", "20", "--seed", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3 and all(line.startswith("France: ") for line in lines)
    assert read_game(game, load_variant).pending == {}  # the bot changes no file
    monkeypatch.setattr("sys.stdin", stdin(out))
    code, stored, _ = run(capsys, "orders", str(game), "--from", "-")
    assert code == 0 and "France: 3 order(s) stored for Spring 1901 Movement" in stored
    code, report, _ = run(capsys, "adjudicate", str(game))
    assert code == 0
    assert all(line.removeprefix("France: ") in report for line in lines)


def test_with_playouts_and_a_seed_the_orders_are_the_same_each_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _new(capsys, tmp_path / "game.json")
    asked = ("bot", str(game), "Turkey", "--playouts", "30", "--seed", "7")
    assert run(capsys, *asked)[1] == run(capsys, *asked)[1]


def test_with_playouts_and_a_seed_the_orders_are_the_same_in_every_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each Python process orders a set of strings its own way (PYTHONHASHSEED): the bot
    draws among its choices in an order of their own, never a set's, so that its orders
    are the same on any machine, as `hegemon bot --help` says."""
    game = _new(capsys, tmp_path / "game.json")

    def given(hash_seed: str) -> list[str]:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        asked = [("bot", str(game), power, "--playouts", "20", "--seed", "2") for power in POWERS]
        return [hegemon(*argv, env=env).stdout for argv in asked]

    assert given("1") == given("2")


def test_json_and_random_orders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _new(capsys, tmp_path / "game.json")
    code, out, _ = run(capsys, "bot", str(game), "England", "--random", "--seed", "2", "--json")
    assert code == 0
    orders = json.loads(out)
    assert len(orders) == 3 and {o.split()[1] for o in orders} == {"Edi", "Lon", "Lvp"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variants_orders_read_back_for_three_phases(
    variant: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every power the phase awaits gets the bot's orders, all of them stored back in one
    go from the command's output, and the phase adjudicated: the variant's own orders
    (bids, deployments, IP spending, placements) in the notation the judge reads."""
    game = _new(capsys, tmp_path / "game.json", variant)
    for _ in range(3):
        actors = read_game(game, load_variant).actors()
        given = "".join(run(capsys, "bot", str(game), who, "--seed", "1")[1] for who in actors)
        if given:
            monkeypatch.setattr("sys.stdin", stdin(given))
            code, _, err = run(capsys, "orders", str(game), "--from", "-")
            assert code == 0, err
        assert run(capsys, "adjudicate", str(game))[0] == 0


def test_a_power_with_nothing_to_order_gets_nothing_and_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _new(capsys, tmp_path / "game.json", "african_diplomacy_ii")  # lots are drawn first
    code, out, err = run(capsys, "bot", str(game), "Green")
    assert (code, out) == (0, "")
    assert err == "Green has nothing to order in Winter 1900 Lots\n"
    assert run(capsys, "bot", str(game), "Green", "--json")[1] == "[]\n"


def test_refusals_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _new(capsys, tmp_path / "game.json")
    code, _, err = run(capsys, "bot", str(game), "Prussia")
    assert code == 1 and "unknown power 'Prussia' (powers: Austria, England, France" in err
    assert "no such game file" in run(capsys, "bot", str(tmp_path / "none.json"), "France")[2]
    with pytest.raises(SystemExit) as usage:
        main(["bot", str(game), "France", "--seconds", "0"])
    assert usage.value.code == 2
    assert "--seconds: a number more than 0, not 0" in capsys.readouterr().err
    assert run(capsys, "end", str(game), "--draw", "France,England")[0] == 0
    code, _, err = run(capsys, "bot", str(game), "France")
    assert code == 1 and "the game is over" in err
