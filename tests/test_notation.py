"""Reading and writing orders in the notations GMs, players and the DATC use."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from hegemon.board import ARMY, FLEET, Board
from hegemon.notation import (
    OrderSyntaxError,
    parse_order,
    read_in_full,
    split_power,
    written_as_formatted,
)
from hegemon.orders import (
    STANDARD_ORDERS,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
    format_order,
)
from hegemon.randomplay import random_game
from hegemon.variants import available_variants, load_variant
from tests import peer
from tests.conftest import units

A, F = ARMY, FLEET


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A Par - Bur", Move(A, "par", "bur")),
        ("A par-bur", Move(A, "par", "bur")),
        ("a PAR -> bur", Move(A, "par", "bur")),
        ("Army Paris moves to Burgundy", Move(A, "par", "bur")),
        ("F NTH C A Lon - Bel", Convoy(F, "nth", "lon", "bel", A)),
        ("F North Sea convoys Army London to Belgium", Convoy(F, "nth", "lon", "bel", A)),
        ("F Nth C Lon - Bel", Convoy(F, "nth", "lon", "bel", None)),
        ("A bud S A ser-rum", Support(A, "bud", "ser", "rum", A)),
        ("A Boh S Mun - Sil", Support(A, "boh", "mun", "sil", None)),
        ("A mun S bur H", Support(A, "mun", "bur", None, None)),
        ("F gas-spa/nc", Move(F, "gas", "spa/nc")),
        ("F Spa(sc) - Wes", Move(F, "spa/sc", "wes")),
        ("F Spa[sc] - Wes", Move(F, "spa/sc", "wes")),  # as some rulebooks write coasts
        ("F Mid - Spa [ nc ]", Move(F, "mid", "spa/nc")),
        ("A Par \u2013 Bur", Move(A, "par", "bur")),  # an en dash, as typeset texts write it
        ("A Par\u2014Bur", Move(A, "par", "bur")),  # an em dash
        ("F NTH C A Lon \u2013 Bel", Convoy(F, "nth", "lon", "bel", A)),
        ("F spa (south coast) H", Hold(F, "spa/sc")),
        ("F Mid-Atlantic Ocean - Spain (north coast)", Move(F, "mid", "spa/nc")),
        ("F St. Petersburg/nc - Bar", Move(F, "stp/nc", "bar")),
        ("A lvp - edi via convoy", Move(A, "lvp", "edi", via_convoy=True)),
        ("A lon - bel by convoy", Move(A, "lon", "bel", via_convoy=True)),
        ("A ven h", Hold(A, "ven")),
        ("A Par", Hold(A, "par")),
        ("A par R bur", Retreat(A, "par", "bur")),
        ("A par D", Disband(A, "par")),
        ("Remove F tri", Disband(F, "tri")),
        ("Build A kie", Build(A, "kie")),
        ("A kie B", Build(A, "kie")),
        ("build fleet stp/nc", Build(F, "stp/nc")),
        ("Waive", Waive()),
    ],
)
def test_parser_accepts_common_notations(board: Board, text: str, expected: object) -> None:
    assert parse_order(text, board) == expected


def test_unit_type_may_be_left_out_when_the_position_is_known(board: Board) -> None:
    standing = units({"France": ["A par", "F gol"]})
    assert parse_order("Remove gol", board, standing) == Disband(F, "gol")
    assert parse_order("Par - Bur", board, standing) == Move(A, "par", "bur")
    with pytest.raises(OrderSyntaxError, match="say which unit"):
        parse_order("Remove pic", board, standing)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the order is empty"),
        ("A Xyz - Bur", "'xyz' is not a province on this map"),
        ("A par - ", "expected the destination, but the order ends there"),
        ("A par jumps bur", "'jumps' is not an order"),
        ("A par - bur now", "unexpected 'now' at the end of the order"),
        ("F nth C A lon", "a convoy order needs the convoyed unit's move"),
        ("par - bur", "say which unit"),
    ],
)
def test_unreadable_orders_name_the_order_and_the_reason(
    board: Board, text: str, reason: str
) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(text, board)
    assert reason in str(caught.value)
    assert repr(text.strip()) in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "A Par - Bur",
        "A Lvp - Edi via Convoy",
        "F Nth C A Lon - Bel",
        "F Nth C Lon - Bel",
        "A Bud S A Ser - Rum",
        "A Mun S Bur H",
        "F Spa/nc - Mid",
        "A Par R Bur",
        "A Par D",
        "Build F Stp/nc",
        "Waive",
    ],
)
def test_formatting_round_trips_through_the_parser(board: Board, text: str) -> None:
    order = parse_order(text, board)
    assert format_order(order) == text
    assert parse_order(format_order(order), board) == order


def test_power_prefix_is_split_off() -> None:
    assert split_power("England: F lon - nth") == ("England", "F lon - nth")
    assert split_power("F lon - nth") == (None, "F lon - nth")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_parser_raises_only_its_own_error_on_arbitrary_text(board: Board, text: str) -> None:
    with contextlib.suppress(OrderSyntaxError):
        parse_order(text, board)


_WORDS = st.sampled_from(
    [
        "A",
        "F",
        "par",
        "bur",
        "-",
        "S",
        "C",
        "H",
        "via",
        "convoy",
        "spa/nc",
        "(sc)",
        "R",
        "D",
        "Build",
        "Waive",
        "North",
        "Sea",
        "to",
        "/",
        "(",
        ")",
        "st.",
        "petersburg",
        "mid-atlantic",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_WORDS, max_size=9))
def test_parser_raises_only_its_own_error_on_order_like_text(
    board: Board, words: list[str]
) -> None:
    with contextlib.suppress(OrderSyntaxError):
        parse_order(" ".join(words), board)


@pytest.mark.parametrize(
    "name", ["sub_saharan", "europe_1615", "african_diplomacy_ii", "african_riots", "africa_ii"]
)
@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_variant_parsers_raise_only_their_own_error(name: str, text: str) -> None:
    # Bids ("2: A Kas - Kam"), deployments ("16: WUR"), attacks ("LOR > France"),
    # declarations ("Ally England", "Declare Bam"), placements ("Place A Bam, Gui") and
    # Africa II's IPs and declarations ("5: Kenya", "Aid 2 Kenya", "Civil war Congo
    # (Leopoldville)") go through the variant's parser first; African Riots' names run to
    # five words ("Central African Rep. Haute Kotto", "N'djamena").
    variant = load_variant(name)
    with contextlib.suppress(OrderSyntaxError):
        variant.parse_order(text)


# --- orders written as Order.format writes them: read without searching for place names ------


def _full_reading(text: str, board: Board) -> Order | str:
    try:
        return read_in_full(text, board)
    except OrderSyntaxError as refused:
        return refused.reason


@pytest.mark.parametrize("name", available_variants())
def test_every_order_of_random_games_reads_as_written_and_in_full_alike(name: str) -> None:
    variant = load_variant(name)
    texts = {
        order.format()
        for seed in range(2)
        for result in random_game(variant, random.Random(seed), 80)
        for given in result.orders.values()
        for order in given
        if type(order) in STANDARD_ORDERS
    }
    assert len(texts) > 100  # moves, supports, convoys, retreats, builds and disbands
    quick = {text: written_as_formatted(text, variant.board) for text in texts}
    for text, formatted in quick.items():
        if formatted is not None:
            assert formatted == _full_reading(text, variant.board), text
    # All but those naming a place a longer name begins with ("Mid" of "Mid-Atlantic Ocean",
    # "Dar" of "Dar es Salaam"), which the full reader reads.
    assert sum(1 for formatted in quick.values() if formatted is not None) > len(texts) / 2


def test_orders_as_the_peer_writes_them_read_as_written_and_in_full_alike() -> None:
    """The ``diplomacy`` package's notation (``A PAR - BUR``, ``F MAO S A PAR``, ``A PAR
    B``, ``WAIVE``): programs that speak it send every order so."""
    variant = load_variant("classic")
    texts = {
        peer.order_text(order, result.before)
        for seed in range(2)
        for result in random_game(variant, random.Random(seed), 80)
        for given in result.orders.values()
        for order in given
    }
    assert len(texts) > 100
    for text in texts:
        assert written_as_formatted(text, variant.board) == _full_reading(text, variant.board)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("A Par - To", "'to' after a move is a filler word"),
        ("A Gulf - Bur", "Gulf of Lyon: a longer name begins with this word"),
        ("A par/ - Bur", "a coast left out"),
        ("F Nth C A Lon", "a convoy names the move"),
        ("A Par - Bur via convoy", "formatted: via Convoy"),
        ("D Par - Bur", "D is read as a disband first"),
        ("A Spa/north - Gas", "a coast by its name"),
        ("A Par  - Bur", "two spaces"),
    ],
)
def test_orders_not_quite_as_formatted_are_left_to_the_full_reader(
    board: Board, text: str, why: str
) -> None:
    assert written_as_formatted(text, board) is None, why


# Places and kinds as orders write them, and as they might be miswritten: in other cases,
# names a longer name begins with ("Mid", "north") and the words that would follow them, a
# coast left out or not the place's.
_PLACES = st.sampled_from([
    "par", "Bur", "SPA/NC", "spa/sc", "stp/nc", "Mid", "mao", "MAO", "Nth", "to", "north",
    "spa/", "xyz", "Gulf", "LYO", "pAr", "Atlantic", "of", "Lyon",
])  # fmt: skip
_KINDS = st.sampled_from(["A", "F", "a", "M"])


@st.composite
def _order_like(draw: st.DrawFn) -> list[str]:
    """The words of an order shaped as `Order.format` writes one, of places and kinds right
    and wrong, up to two of its words then swapped for any of `_WORDS`."""
    unit, other, place = [draw(_KINDS), draw(_PLACES)], [draw(_KINDS), draw(_PLACES)], draw(_PLACES)
    shapes = [
        [*unit, "-", place],
        [*unit, "-", place, "via", "Convoy"],
        [*unit, "-", place, "VIA"],
        [*unit, "S", *other, "H"],
        [*unit, "S", *other],
        [*unit, "S", *other, "-", place],
        [*unit, "C", *other, "-", place],
        [*unit, "R", place],
        [*unit, "H"],
        [*unit, "D"],
        [*unit, "B"],
        ["Build", unit[0], place],
        ["Waive"],
        ["WAIVE"],
    ]
    words = draw(st.sampled_from(shapes))
    for _ in range(draw(st.integers(0, 2))):
        words[draw(st.integers(0, len(words) - 1))] = draw(_WORDS)
    return words


@settings(max_examples=500, deadline=None)
@given(_order_like())
def test_order_like_text_read_as_written_is_read_in_full_alike(
    board: Board, words: list[str]
) -> None:
    text = " ".join(words)
    formatted = written_as_formatted(text, board)
    event("read as written" if formatted is not None else "left to the full reader")
    if formatted is not None:
        assert formatted == _full_reading(text, board)
