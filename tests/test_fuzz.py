"""The readers hold up to anything: mutated game files and `adjudicate --json` requests
end in a `WireError` naming the path and the reason, or are read, never a crash.

Each document starts from a real one (a saved random game of every variant, a request
for each phase kind) and Hypothesis changes it: a value replaced by another of any JSON
type, a key deleted or renamed, a list emptied or repeated, a string mangled. Each crash
a run found is kept below as a regression case.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon import jsonio
from hegemon.cli import main
from hegemon.game import Game, Variant
from hegemon.position import MASTER
from hegemon.randomplay import random_game
from hegemon.variants import available_variants, load_variant

Json = Any


@cache
def saved_game(name: str) -> Json:
    """A saved random game of the variant, a few phases long, as its file holds it."""
    variant = load_variant(name)
    game = Game.new(variant, seed=7)
    for result in random_game(variant, random.Random(7), 12):
        game.history.append(result)
    return json.loads(json.dumps(jsonio.game_to_json(game)))


@cache
def requests(name: str) -> tuple[Json, ...]:
    """An `adjudicate --json` request for each phase of a short random game."""
    variant = load_variant(name)
    made = []
    for result in random_game(variant, random.Random(3), 12):
        request = {
            "variant": name,
            "position": jsonio.position_to_json(result.before, MASTER),
            "orders": jsonio.orders_to_json(result.orders),
        }
        if result.draws:
            request["draws"] = {k: jsonio._draw_to_json(v) for k, v in result.draws.items()}
        made.append(json.loads(json.dumps(request)))
    return tuple(made)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "France", "france", "A par", "F spa/nc", "S1901M", "W1901A", "Bav"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(document: Json, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in the document."""
    found = [prefix]
    if isinstance(document, dict):
        for key, value in document.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _paths(value, (*prefix, index))
    return found


def _at(document: Json, path: tuple[Any, ...]) -> Json:
    for step in path:
        document = document[step]
    return document


@st.composite
def mutated(draw: st.DrawFn, originals: st.SearchStrategy[Json]) -> Json:
    """A document with one to three of its values, keys or strings changed."""
    document = copy.deepcopy(draw(originals))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent, last = _at(document, path[:-1]), path[-1]
        mutation = draw(st.sampled_from(["replace", "delete", "rename", "mangle", "repeat"]))
        if mutation == "replace":
            parent[last] = draw(VALUES)
        elif mutation == "delete" and isinstance(parent, dict):
            del parent[last]
        elif mutation == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = parent.pop(last)
        elif mutation == "mangle" and isinstance(parent[last], str):
            text = parent[last]
            cut = draw(st.integers(0, len(text)))
            parent[last] = text[:cut] + draw(st.text(max_size=4)) + text[cut:]
        elif mutation == "repeat" and isinstance(parent[last], list):
            parent[last] = parent[last] * draw(st.integers(0, 3))
    return document


FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("name", available_variants())
@FUZZ
@given(data=st.data())
def test_the_game_reader_never_crashes(name: str, data: st.DataObject) -> None:
    document = data.draw(mutated(st.just(saved_game(name))))
    try:
        jsonio.game_from_json(document)
    except jsonio.WireError as exc:
        _assert_one_clear_line(exc)


@pytest.mark.parametrize("name", available_variants())
@FUZZ
@given(data=st.data())
def test_adjudicate_json_never_crashes(name: str, data: st.DataObject) -> None:
    document = data.draw(mutated(st.sampled_from(requests(name))))
    try:
        json.dumps(jsonio.adjudicate_request(document, load_variant, "observer"))
    except jsonio.WireError as exc:
        _assert_one_clear_line(exc)


def test_a_dislodged_units_attacker_given_as_a_list_is_refused_in_one_line(
    classic: Variant,
) -> None:
    # Found by the fuzzing above: a list is no province, and cannot be looked up as one.
    position = {
        "phase": "S1901R",
        "units": {"Germany": ["A bur"]},
        "dislodged": [{"power": "France", "unit": "A bur", "attacker_from": []}],
    }
    with pytest.raises(jsonio.WireError, match="attacker_from") as refused:
        jsonio.position_from_json(position, classic)
    _assert_one_clear_line(refused.value)


def _assert_one_clear_line(exc: Exception) -> None:
    """A refusal is one line that says what is wrong, not a bare key or value."""
    message = str(exc)
    assert "\n" not in message and len(message.split()) >= 3, message


# --- each crash found, kept ----------------------------------------------------------------

RETREAT = {"phase": "S1901R", "units": {"Germany": ["A bur"]}}


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (
            {
                "position": {
                    **RETREAT,
                    "dislodged": [{"power": "France", "unit": "A bur", "attacker_from": []}],
                }
            },
            "dislodged[0].attacker_from: [] is not a province of classic",
        ),
        (
            {
                "variant": "sub_saharan",
                "position": {
                    "phase": "S1881M",
                    "units": {},
                    "state": {"additional_homes": {"Ethiopia": [["har"]]}},
                },
            },
            "['har'] did not begin the game as a minor's center",
        ),
    ],
    ids=["attacker_from a list", "additional home a list"],
)
def test_the_requests_that_crashed_are_refused_clearly(request_: Json, reason: str) -> None:
    with pytest.raises(jsonio.WireError) as refused:
        jsonio.adjudicate_request(request_, load_variant, "observer")
    assert reason in str(refused.value)
    _assert_one_clear_line(refused.value)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (
            ["new", "sub_saharan", "{new}", "--option", "year_cap=--5"],
            "option year_cap: expected a whole number from 0 to 100, not '--5'",
        ),
        (
            ["new", "sub_saharan", "{new}", "--option", "year_cap=\u00b2"],
            "option year_cap: expected a whole number from 0 to 100, not '\u00b2'",
        ),
        (["adjudicate", "{game}", "--draw", "x=\u00b2"], "'x': this phase asks for no such draw"),
    ],
    ids=["two minus signs", "a superscript two", "a superscript draw"],
)
def test_the_commands_that_crashed_end_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    game = tmp_path / "game.json"
    assert main(["new", "classic", str(game)]) == 0
    files = {"{game}": str(game), "{new}": str(tmp_path / "new.json")}
    capsys.readouterr()
    assert main([files.get(a, a) for a in argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hegemon: error: ") and err.count("\n") == 1, err
    assert reason in err
