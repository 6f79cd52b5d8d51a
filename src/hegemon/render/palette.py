"""The board's colours, and how far apart two colours look.

Distances are CIE76 colour differences (Euclidean distance in CIELAB, D65): about 2 is
the smallest difference an eye notices side by side, 10 is plain, 25 unmistakable. The
board's own colours (land, sea, lines) are chosen so that every power's colour stands
apart from them; `tests/test_boards.py` checks each variant's powers against
them and against each other.
"""

from __future__ import annotations

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

FAINT = 0.42  # how much of a power's colour tints the land it owns


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


def mix(color: str, base: str, amount: float) -> str:
    """`amount` of `color` laid over `base`, as one colour."""
    channels = (
        round(int(color[i : i + 2], 16) * amount + int(base[i : i + 2], 16) * (1 - amount))
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{c:02x}" for c in channels)


def ink_on(color: str) -> str:
    """Text that reads on a background of this colour: black on light, white on dark."""
    return INK if lab(color)[0] > 58 else HALO


def outline_of(color: str) -> str:
    """The outline that sets a unit of this colour off from any ground: dark around light
    colours, white around dark ones."""
    return INK if lab(color)[0] > 45 else HALO


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
