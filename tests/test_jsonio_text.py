"""JSON text in and out (`jsonio.parse`, `jsonio.dumps`): orjson reads and writes it, and
what orjson alone refuses is read as the json module reads it."""

from __future__ import annotations

import json

import orjson
import pytest

from hegemon import jsonio


def test_what_orjson_refuses_is_read_as_before() -> None:
    text = '["\\ud800"]'  # a lone surrogate, which the json module reads
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(text)  # the case this test is about
    assert jsonio.parse(text, "the test") == json.loads(text)


def test_errors_name_the_input_and_the_reason() -> None:
    with pytest.raises(jsonio.WireError, match=r"^stdin: NaN is not a JSON value$"):
        jsonio.parse("[NaN]", "stdin")
    with pytest.raises(jsonio.WireError, match=r"^stdin: not valid JSON: Expecting"):
        jsonio.parse("[1,", "stdin")


def test_text_written_reads_back_the_same() -> None:
    data = {"power": "France", "orders": ["A Par - Bur"], "n": 3, "none": None, "é": "ü"}
    assert json.loads(jsonio.dumps(data)) == data
    indented = jsonio.dumps(data, indent=True)
    assert indented.startswith('{\n  "power": "France"')
    assert json.loads(indented) == data
