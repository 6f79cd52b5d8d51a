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


def test_the_keyboards_focus_ring_stands_out_from_every_ground() -> None:
    """Issue 31: the focus ring was orange (#f0a400), under 3:1 on the pages' light
    grounds. The ring on the light grounds (the page, the cards), and the one on the dark
    bar at the top, stand out from their grounds at 3:1 or more."""
    css = CSS.read_text(encoding="utf-8")
    colour = dict(re.findall(r"--([\w-]+): (#\w{6})", css))
    light = (colour["ground"], "#ffffff", "#eef4fc")  # the page, the cards, the hint
    assert ":focus-visible { outline: 3px solid var(--focus);" in css
    assert ".top :focus-visible { outline-color: var(--focus-on-dark); }" in css
    assert "#f0a400" not in css
    for ground in light:
        assert palette.contrast(colour["focus"], ground) >= 3, ground
    assert palette.contrast(colour["focus-on-dark"], colour["ink"]) >= 3  # the top bar
