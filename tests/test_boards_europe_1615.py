"""Europe 1615's board (issue 28, point 12): what a drawing in PNG, which has no tooltips,
shows of the INFs, and the alignments of two powers of like colours told apart."""

from __future__ import annotations

import html
import re

import pytest

from hegemon.game import Pattern, play_phase
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.render import draw_board
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import Europe1615
from hegemon.variants.europe_1615.board import SECRET_PATRON


@pytest.fixture(scope="module")
def eu() -> Europe1615:
    variant = load_variant("europe_1615")
    assert isinstance(variant, Europe1615)
    return variant


@pytest.fixture(scope="module")
def summer(eu: Europe1615) -> Position:
    """Summer 1615, after France and Scandinavia each bought states, Hesse shared."""
    spec = {
        "France": ["16: WUR", "16: RHI"],
        "Scandinavia": ["16: DUT", "15: BRA", "10: HES"],
        "England": ["6: HES"],
        "Austria": ["10: SAX"],
    }
    start = eu.initial_position()
    given = {p: [eu.parse_order(t, start.all_units) for t in ts] for p, ts in spec.items()}
    return play_phase(eu, start, given).after


def _drawn_text(svg: str) -> str:
    """The words the drawing shows, tooltips (`<title>`, which a PNG loses) left out."""
    shown = re.sub(r"<title>.*?</title>", "", svg, flags=re.DOTALL)
    return html.unescape(" ".join(re.findall(r"<text[^>]*>([^<]*)</text>", shown)))


def test_the_drawn_board_shows_the_shares_and_the_viewers_own_infs(
    eu: Europe1615, summer: Position
) -> None:
    """STATUS (issue 28, point 12): "the percentage of INFs held is published": the board's
    legend lists each state's shares, where a PNG (no tooltips) shows them; a power reads
    its own INFs there too, the game master every power's, and nobody another's number."""
    for viewer, hesse in (
        (OBSERVER, "He Hesse: shares: England 37%, Scandinavia 62%"),
        (Viewer(power="Scandinavia"), "He Hesse: shares: England 37%, Scandinavia 62%; "
                                      "your INFs: 10"),
        (Viewer(power="England"), "He Hesse: shares: England 37%, Scandinavia 62%; "
                                  "your INFs: 6"),
        (MASTER, "He Hesse: INFs: England 6, Scandinavia 10"),
    ):  # fmt: skip
        drawn = _drawn_text(draw_board(eu, summer, viewer))
        assert hesse in drawn, viewer
        assert "Wu Wurtemburg: " in drawn and "Me Mecklenburg:" not in drawn  # none there
    england = _drawn_text(draw_board(eu, summer, Viewer(power="England")))
    assert re.findall(r"your INFs: (\d+)", england) == ["6"]
    assert not re.search(r"Scandinavia \d+(?!\d|%)", england)


def test_france_and_scandinavia_alignments_lean_opposite_ways(
    eu: Europe1615, summer: Position
) -> None:
    """STATUS, drawn (issue 28, point 12): France's blue and Scandinavia's paler blue
    hatchings were told apart by their shade alone; their lines now lean opposite ways,
    on the map and in the legend, as do Austria's near-black and the secret patron's grey."""
    marks = eu.board_marks(summer, OBSERVER)
    lean = {
        shade.meaning: shade.pattern
        for province in ("wur", "bra", "sax")
        for shade in marks.shades[province]
        if shade.meaning.startswith("ALIGNED")
    }
    assert lean == {
        "ALIGNED with France": Pattern.HATCH,
        "ALIGNED with Scandinavia": Pattern.BACK_HATCH,
        "ALIGNED with Austria": Pattern.HATCH,
    }
    assert SECRET_PATRON.pattern is Pattern.BACK_HATCH
    svg = draw_board(eu, summer, OBSERVER)
    france, scandinavia = (eu.powers[p].color.lstrip("#") for p in ("France", "Scandinavia"))
    lines = [
        _pattern_lines(svg, f"hatch-{france}"),
        _pattern_lines(svg, f"backhatch-{scandinavia}"),
    ]
    assert lines[0] != lines[1]
    legend = svg[svg.index('<g id="legend">') :]
    assert f"url(#hatch-{france})" in legend and f"url(#backhatch-{scandinavia})" in legend


def _pattern_lines(svg: str, pattern: str) -> str:
    """The lines a pattern of the drawing is made of."""
    found = re.search(rf'<pattern id="{pattern}"[^>]*>.*?<path d="([^"]+)"', svg)
    assert found, pattern
    return found.group(1)
