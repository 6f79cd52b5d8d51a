"""African Diplomacy II: St Helena, an island centre that can be taken (issue 28, point 8),
played from the lots and the draft to a supported attack on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hegemon.game import Game
from hegemon.variants import load_variant
from hegemon.variants.african_diplomacy_ii import ORDER_OF_PLAY, AfricanDiplomacyII

SEATS = ("Red", "Blue", "Green")

# Each line a phase: the orders given, everything else holds (or is waived).
PLAY: list[Mapping[str, Sequence[str]]] = [
    # Winter 1900 Draft: Red on the Gulf of Guinea, Blue on the Angolan coast, Green far off.
    {
        "Red": ["Place A Lag, Gld, Ivo, Lib"],
        "Blue": ["Place A Lua, Ang, Kin, Bra"],
        "Green": ["Place A Egy, Cyr, Syr, Con"],
    },
    {},  # Spring 1901: the armies stand on their centres
    {},  # Fall 1901: ... and own them
    {"Red": ["Declare Lag", "Declare Gld"], "Blue": ["Declare Lua"]},  # Winter 1901
    # Spring 1902: the armies leave the homes to be built on and take more centres.
    {"Red": ["A Lag - Nia", "A Gld - Upv", "A Lib - Gui"], "Blue": ["A Lua - Kas", "A Ang - Kat"]},
    {},  # Fall 1902: Red owns six centres, Blue five
    {"Red": ["Build F Lag", "Build F Gld"], "Blue": ["Build F Lua"]},  # Winter 1902
    {"Red": ["F Lag - Ggu"], "Blue": ["F Lua - Sat"]},  # Spring 1903
    {"Red": ["F Ggu - Sat", "F Gld - Ggu"], "Blue": ["F Sat - Sth"]},  # Fall 1903: Blue's island
    {},  # Winter 1903: Blue's build waived
]


def _play(game: Game, variant: AfricanDiplomacyII, given: Mapping[str, Sequence[str]]) -> None:
    for power, texts in given.items():
        game.set_orders(power, [variant.parse_order(t, game.position.units) for t in texts])
    game.adjudicate()


def playing(phases: Sequence[Mapping[str, Sequence[str]]]) -> tuple[AfricanDiplomacyII, Game]:
    """A game placed by lists, its lots drawn in the order of the seats, played through
    `phases`."""
    variant = load_variant("african_diplomacy_ii").configure(
        seats=list(SEATS), options={"placement": "lists"}
    )
    assert isinstance(variant, AfricanDiplomacyII)
    game = Game.new(variant, seed=1)
    game.adjudicate({ORDER_OF_PLAY: SEATS})
    for given in phases:
        _play(game, variant, given)
    return variant, game


def test_st_helena_is_taken_by_a_supported_attack_from_its_two_seas() -> None:
    """F (issue 28, point 8): St Helena borders the South Atlantic and the Gulf of Guinea
    (reconstructed), so a fleet in one supports an attack from the other, and the island's
    holder is dislodged 2 to 1 instead of bouncing every attack 1 to 1."""
    variant, game = playing(PLAY)
    position = game.position
    assert str(position.phase) == "Spring 1904 Movement"
    assert (position.units["sth"].power, position.centers["sth"]) == ("Blue", "Blue")
    assert {position.units[s].power for s in ("sat", "ggu")} == {"Red"}
    _play(game, variant, {"Red": ["F Sat - Sth", "F Ggu S F Sat - Sth"], "Blue": ["F Sth H"]})
    notes = {o.text: o.note for o in game.history[-1].outcomes}
    assert notes["F Ggu S F Sat - Sth"] == "Succeeds"
    assert notes["F Sth H"].startswith("Dislodged")
    assert str(game.position.phase) == "Fall 1904 Movement"  # Blue's fleet had nowhere to go
    game.adjudicate()
    assert game.position.centers["sth"] == "Red"
