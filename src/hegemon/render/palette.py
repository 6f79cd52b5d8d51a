"""The board's colours, and how far apart two colours look.

Distances are CIE76 colour differences (Euclidean distance in CIELAB, D65): about 2 is
the smallest difference an eye notices side by side, 10 is plain, 25 unmistakable. The
board's own colours (land, sea, lines) are chosen so that every power's colour stands
apart from them; `tests/test_boards.py` checks each variant's powers against
them and against each other, their tints on the land, and the powers' colours as
colour-blind players see them (`as_seen`: the red-blind, protanopia, and the
green-blind, deuteranopia, simulated after Machado, Oliveira and Fernandes, 2009,
at full severity): at least `COLOUR_BLIND_APART` apart.
"""

from __future__ import annotations

from functools import cache

LAND = "#e8dcb8"  # land nobody owns
SEA = "#a9cbe0"  # the water of seas
LAKE = "#c4dcea"  # lakes, part of the land around them
RIVER = "#2b7bba"  # navigable rivers
OFF_MAP = "#dfe9ef"  # water no sea covers
UNCLAIMED = "#cfc8b8"  # land no province covers: impassable
BORDER = "#8a7b66"  # borders between regions
COAST = "#5d7d92"  # the shore
BARRIER = "#3a2f25"  # a border between provinces that are not neighbours
INK = "#1d1d1d"  # labels and text
HALO = "#ffffff"  # behind labels
NEUTRAL = "#9a9185"  # units and centers of owners nobody plays

FAINT = 0.42  # how much of a power's colour tints the land it owns, at the least
TINT_APART = 12.0  # how far a tint stands from the bare land, at the least
COLOUR_BLIND_APART = 10.0  # how far two powers' colours stand as colour-blind players see them

# Linear-RGB matrices simulating dichromacy (Machado, Oliveira and Fernandes 2009, severity 1).
_DICHROMACY = {
    "protan": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deutan": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
COLOUR_BLINDNESS = tuple(_DICHROMACY)


@cache  # a board asks for the same few colours hundreds of times
def lab(color: str) -> tuple[float, float, float]:
    """A ``#rrggbb`` colour in CIELAB (D65)."""
    r, g, b = (_linear(int(color[i : i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (_f(v) for v in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a: str, b: str) -> float:
    """How far apart two colours look (CIE76 ΔE)."""
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5)


@cache  # a board asks for the same few colours hundreds of times
def mix(color: str, base: str, amount: float) -> str:
    """`amount` of `color` laid over `base`, as one colour."""
    channels = (
        round(int(color[i : i + 2], 16) * amount + int(base[i : i + 2], 16) * (1 - amount))
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{c:02x}" for c in channels)


@cache  # a board asks for the same few colours hundreds of times
def tint(color: str) -> str:
    """A colour's tint on the land it owns: `FAINT` of it, or more of a light colour
    (Mozambique's white, the Mahdists' peach), until it stands out from the bare land."""
    amount = FAINT
    while amount < 0.8 and difference(mix(color, LAND, amount), LAND) < TINT_APART:
        amount += 0.05
    return mix(color, LAND, amount)


def as_seen(color: str, blindness: str) -> str:
    """The colour as a colour-blind player sees it (`COLOUR_BLINDNESS`)."""
    channels = [_linear(int(color[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    seen = (
        sum(m * c for m, c in zip(row, channels, strict=True)) for row in _DICHROMACY[blindness]
    )
    return "#" + "".join(f"{round(_encoded(c) * 255):02x}" for c in seen)


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white);
    an outline that must be seen stands at 3 or more against what it is drawn on."""
    lighter, darker = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(color: str) -> float:
    r, g, b = (_linear(int(color[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@cache  # a board asks for the same few colours hundreds of times
def ink_on(color: str) -> str:
    """Text that reads on a background of this colour: black on light, white on dark."""
    return INK if lab(color)[0] > 58 else HALO


@cache  # a board asks for the same few colours hundreds of times
def outline_of(color: str) -> str:
    """The outline that sets a unit of this colour off from any ground: dark around light
    colours, white around dark ones."""
    return INK if lab(color)[0] > 45 else HALO


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _encoded(channel: float) -> float:
    channel = min(1.0, max(0.0, channel))
    return channel * 12.92 if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
