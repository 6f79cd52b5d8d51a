"""African Riots: the rulebook's letters for the powers (issue 28, point 11)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hegemon.variants import load_variant
from tests.test_cli import run

# The rules' "Starting positions are:", each power with its letter, as written.
STARTING_POSITIONS = """
Angola (A): Luanda, Lubango, Saurimo
Arabia (R): Al Hufuf, Riad, United Arabian Emirates
Bedouin (B): Bordj Omar Driss, Djado, N'djamena
East Africa (E): Oroa, Mogadishu, Mombasa
Egypt (Y): Assuan, Cairo, Qarah
Madagascar (D): Antananarivo, Maputo, Mauritius
Morocco (C): Casablanca, El Aaiun, Las Palmas de Gran Canaria
South Africa (S): Free State, Cape Town, Johannesburg
West Africa (W): Abidjan, Mourovia, Nzerekore
"""


def test_the_rulebooks_letters_name_the_powers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Starting positions (issue 28, point 11): "Egypt (Y)" and the rest: a power's letter
    names it wherever a power is named, in either case."""
    variant = load_variant("african_riots")
    letters = dict(re.findall(r"^(.+) \(([A-Z])\):", STARTING_POSITIONS, re.MULTILINE))
    assert sorted(letters) == sorted(variant.powers)
    for power, letter in letters.items():
        assert variant.power_named(letter) == power
        assert variant.power_named(letter.lower()) == power
    game = str(tmp_path / "game.json")
    assert run(capsys, "new", "african_riots", game)[0] == 0
    code, out, err = run(capsys, "orders", game, "Y", "F Cai/wc - Ems")
    assert code == 0, err
    assert out.startswith("Egypt: 1 order(s) stored")
    code, _, err = run(capsys, "orders", game, "Q", "A Qar H")
    assert code == 1 and "unknown power 'Q'" in err
