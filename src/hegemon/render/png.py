"""The board as PNG, for forums and mail: the SVG rendered by resvg (the `resvg-py`
package, which carries it compiled), with the machine's own fonts for the labels."""

from __future__ import annotations

import re
from pathlib import Path

import resvg_py

ZOOM = 1.5  # PNG pixels per canvas unit: labels of 10 units come out 15 pixels high
WIDEST = 2000  # pixels: a wider board is drawn smaller (African Riots' 1610 units at 1.24)
FONT_FOLDERS = (
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".local/share/fonts",
    Path.home() / ".fonts",
    Path("/System/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)


class PngError(RuntimeError):
    """A board that cannot be rendered as PNG here; says why."""


def png_of(svg: str, zoom: float = ZOOM) -> bytes:
    """The SVG as PNG bytes, at `zoom` pixels a canvas unit but no wider than `WIDEST`.
    Refuses, rather than drawing a board without its labels, when the machine has no font
    at all."""
    if not any(_fonts_in(folder) for folder in FONT_FOLDERS):
        raise PngError(
            "no font found to write the labels with (e.g. install fonts-dejavu-core); "
            "write the board as .svg instead"
        )
    width = re.search(r'<svg [^>]*width="([\d.]+)"', svg)
    if width:
        zoom = min(zoom, WIDEST / float(width.group(1)))
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff"))
    except ValueError as exc:
        raise PngError(f"the board could not be rendered: {exc}") from None


def _fonts_in(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    return any(path.suffix.lower() in (".ttf", ".otf", ".ttc") for path in folder.rglob("*"))
