"""Orders on the board (issue 31): a player's orders given and not yet adjudicated drawn
on the board now, as pending; a support cut while the move it supports succeeds crossed
out on its own line, not on the move's arrow."""

from __future__ import annotations

import math
import re

from hegemon.game import Variant, play_phase
from hegemon.position import Viewer
from hegemon.render import draw_board, draw_phase
from tests.conftest import orders, units

CROSS = re.compile(r'stroke="#d7191c" stroke-width="2.4"><path d="M([\d.]+),([\d.]+)L')


def test_orders_given_are_drawn_as_pending(classic: Variant) -> None:
    start = classic.initial_position()
    given = orders(classic.board, {"France": ["A par - bur", "A mar S A par - bur"]})
    france = Viewer(power="France")
    svg = draw_board(classic, start, france, [("France", o) for o in given["France"]])
    drawn = re.findall(r'<g class="order pending"><title>([^<]*)</title>', svg)
    assert drawn == [
        "France: A Par - Bur: given, not yet adjudicated",
        "France: A Mar S A Par - Bur: given, not yet adjudicated",
    ]
    assert "order given, not yet adjudicated" in svg  # in the legend, with the kinds drawn
    assert "#d7191c" not in svg  # nothing failed: nothing is adjudicated
    assert 'class="order pending"' not in draw_board(classic, start, france)


def test_a_cut_support_is_crossed_out_on_its_own_line(classic: Variant) -> None:
    start = classic.initial_position().evolve(
        units=units({"France": ["A par", "A mar"], "Italy": ["A pie"]})
    )
    given = orders(
        classic.board, {"France": ["A par - bur", "A mar S A par - bur"], "Italy": ["A pie - mar"]}
    )
    svg = draw_phase(classic, play_phase(classic, start, given), Viewer(power="France"))
    assert '<g class="order succeeds"><title>France: A Par - Bur: Succeeds' in svg
    support = svg[svg.index("France: A Mar S A Par - Bur") :].split('<g class="order', 1)[0]
    line = re.search(r'd="M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)" stroke-width="1.6"', support)
    cross = CROSS.search(support)
    assert line and cross, support
    x1, y1, x2, y2 = (float(v) for v in line.groups())
    x, y = float(cross.group(1)) + 5, float(cross.group(2)) + 5  # the cross's middle
    assert math.dist((x, y), ((x1 + x2) / 2, (y1 + y2) / 2)) < 0.1  # half way along it
    assert math.dist((x, y), (x2, y2)) > 10  # not on the move it supports
