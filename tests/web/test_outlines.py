"""The outlines the game page draws round provinces (where a click may go, what is
chosen, the province the keyboard is on) stand at 3:1 contrast or more (WCAG 2.1, 1.4.11)
against every fill a province can have on any variant's map: the sea, lakes, bare and
unclaimed land, a minor power's land, and every power's tint on the land it owns."""

from __future__ import annotations

import re
from pathlib import Path

from hegemon.render import palette
from hegemon.variants import available_variants, load_variant

CSS = Path(__file__).resolve().parents[2] / "src/hegemon/server/web/static/hegemon.css"
OUTLINES = re.compile(r"\.board \.province(?:\.\w+|:focus-visible) \{[^}]*stroke: (#\w{6})")


def _fills() -> dict[str, str]:
    fills = {
        "sea": palette.SEA,
        "lake": palette.LAKE,
        "land": palette.LAND,
        "unclaimed land": palette.UNCLAIMED,
        "water off the map": palette.OFF_MAP,
        "a minor power's land": palette.mix(palette.NEUTRAL, palette.LAND, palette.FAINT / 2),
    }
    for name in available_variants():
        for power in load_variant(name).powers.values():
            fills[f"{name}: {power.name}'s land"] = palette.tint(power.color)
    return fills


def test_every_outline_stands_out_from_every_fill() -> None:
    outlines = OUTLINES.findall(CSS.read_text(encoding="utf-8"))
    assert len(outlines) == 3, outlines  # the target, the chosen, the focused province
    fills = _fills()
    assert len(fills) > 30
    for outline in outlines:
        weakest = min(fills, key=lambda name: palette.contrast(outline, fills[name]))
        ratio = palette.contrast(outline, fills[weakest])
        assert ratio >= 3, f"{outline} on {weakest} ({fills[weakest]}): {ratio:.2f}:1"
    # The orange the page drew before stood at 1.23:1 on the sea: the test tells it.
    assert palette.contrast("#f0a400", palette.SEA) < 3
    assert round(palette.contrast("#000000", "#ffffff"), 2) == 21
