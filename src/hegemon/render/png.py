"""The board as PNG, for forums and mail, put together from parts in some tens of
milliseconds.

resvg (the `resvg-py` package, which carries it compiled) draws SVG well but slowly for
this: half a second for a whole board, spent on its text (some 30 µs a letter) and on the
canvas itself (drawn, encoded as PNG, decoded again). So a board is put together here:

- what is the same for every position of a map is drawn by resvg once per map and kept
  (`_provinces`, `_overlay`): which province each pixel shows (drawn without
  antialiasing, so exact), and the pixels the land no province covers, the lakes, the
  borders, the rivers and the labels touch, as they are laid over the provinces;
- each position's fills are set by province through that map of pixels; a hatching is a
  pattern drawn once per map and colour, laid on the pixels of the provinces it marks;
- the pieces (centers, orders, units, the legend's drawings) are drawn by resvg in one
  go, side by side on a sheet (`_sheet`), each then laid on the board in its own box, in
  the SVG's order;
- the legend's many words are set by Pillow (FreeType) in DejaVu Sans, the SVG's first
  choice of font, as resvg would set them;
- the image is encoded here, unfiltered at zlib's fastest level: as small as resvg's
  own PNG, in a quarter of the time.

Only what is the same for every viewer of a map is kept; what a position shows is drawn
anew each time. Without DejaVu Sans on the machine, the whole SVG is drawn by resvg, as
before: slower, with whatever font the machine has.
"""

from __future__ import annotations

import io
import math
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import resvg_py
from PIL import Image, ImageDraw, ImageFont

from hegemon.board import Board
from hegemon.game import Shade
from hegemon.render import palette
from hegemon.render.board import (
    FONT_FAMILY,
    SHAPE,
    UNCLAIMED,
    Scene,
    ground,
    label_layer,
    lines,
    pattern_id,
    shade_pattern,
    shapes,
)
from hegemon.render.legend import Words
from hegemon.render.svg import Sketch

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
DEJAVU = {  # (bold, italic): DejaVu Sans's file; its italic is an oblique, as resvg takes
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSans-Oblique.ttf",
    (True, True): "DejaVuSans-BoldOblique.ttf",
}
EDGE = 2  # pixels around a piece's box: its antialiased edge, and a rounding's room
Pixels = np.ndarray  # rows of pixels: RGB, or RGBA (straight alpha); uint8


class PngError(RuntimeError):
    """A board that cannot be rendered as PNG here; says why."""


def png_of(scene: Scene, zoom: float = ZOOM) -> bytes:
    """The board as PNG bytes, at `zoom` pixels a canvas unit but no wider than `WIDEST`.
    Refuses, rather than drawing a board without its labels, when the machine has no font
    at all."""
    if not any(_fonts_in(folder) for folder in FONT_FOLDERS):
        raise PngError(
            "no font found to write the labels with (e.g. install fonts-dejavu-core); "
            "write the board as .svg instead"
        )
    zoom = min(zoom, WIDEST / scene.board.size[0])
    fonts = _dejavu(FONT_FOLDERS)
    if fonts is None:
        return whole_png(scene.svg, zoom)
    return encoded(_drawn(scene, zoom, fonts))


def whole_png(svg: str, zoom: float = ZOOM) -> bytes:
    """Any SVG drawn whole by resvg, on white: as a board's PNG looks, but slowly."""
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff"))
    except ValueError as exc:
        raise PngError(f"the board could not be rendered: {exc}") from None


def encoded(image: Pixels) -> bytes:
    """An RGB image as PNG: its rows unfiltered, compressed at zlib's fastest level."""
    height, width, _ = image.shape
    rows = np.empty((height, width * 3 + 1), np.uint8)
    rows[:, 0] = 0  # each row's filter: none
    rows[:, 1:] = image.reshape(height, -1)
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", head),
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# --- the board, from its parts -------------------------------------------------------------
def _drawn(scene: Scene, zoom: float, fonts: dict[tuple[bool, bool], Path]) -> Pixels:
    board = scene.board
    provinces = _provinces(board, zoom)
    rows, width = provinces.index.shape
    image = np.full((max(rows, math.ceil(scene.height * zoom)), width, 3), 255, np.uint8)
    image[:rows] = _fills(scene)[provinces.index]
    flat = image.reshape(-1, 3)
    _ground(board, zoom).lay_on(flat)
    for shade, marked in scene.hatched.items():
        where = np.concatenate([provinces.pixels[provinces.number[p]] for p in marked])
        _Overlay.of(_hatching(board, zoom, shade), where).lay_on(flat)
    _lines(board, scene.tags, zoom).lay_on(flat)
    _lay_pieces([*scene.pieces(), *scene.legend.sketches], scene.patterns, zoom, image)
    top = math.floor(board.size[1] * zoom)
    image[top:] = _set(image[top:], scene.legend.words, zoom, top, fonts)
    return image


def _fills(scene: Scene) -> Pixels:
    """The colour of each province by its number in `_Provinces.index`: none's first."""
    fills = [palette.OFF_MAP, *(scene.fill(p) for p in scene.board.provinces)]
    return np.array([_rgb(color) for color in fills], np.uint8)


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


# --- what is kept for each map ---------------------------------------------------------------
@dataclass(frozen=True)
class _Provinces:
    """Which province each pixel of the map shows: its number (one more than its place
    among the board's provinces; 0 for none), and each province's pixels by number."""

    index: np.ndarray
    pixels: tuple[np.ndarray, ...]
    number: dict[str, int]


@dataclass(frozen=True)
class _Overlay:
    """Pixels laid over others: where (indices into the image's pixels), their colour
    times their opacity, and 255 less their opacity."""

    at: np.ndarray
    paint: np.ndarray
    clear: np.ndarray

    @classmethod
    def of(cls, rgba: Pixels, where: np.ndarray | None = None) -> _Overlay:
        """The drawn pixels of `rgba`, or of those of them at `where`."""
        pixels = rgba.reshape(-1, 4)
        at = np.flatnonzero(pixels[:, 3]) if where is None else where
        drawn = pixels[at].astype(np.uint32)
        return cls(at, drawn[:, :3] * drawn[:, 3:], 255 - drawn[:, 3:])

    def lay_on(self, pixels: np.ndarray) -> None:
        """Over `pixels` (RGB, flat), as resvg lays one colour over another."""
        under = pixels[self.at]
        pixels[self.at] = (self.paint + under * self.clear + 127) // 255


@lru_cache(maxsize=16)
def _provinces(board: Board, zoom: float) -> _Provinces:
    """Each province's shape drawn in a colour that is its number, without antialiasing:
    every pixel shows one province, whole."""
    uses = "".join(
        f'<use href="#{SHAPE}{p}" fill="#{n:06x}"/>' for n, p in enumerate(board.provinces, 1)
    )
    rgba = _rgba(_canvas(board, shapes(board) + uses), zoom, crisp=True).astype(np.int32)
    index = rgba[:, :, 0] << 16 | rgba[:, :, 1] << 8 | rgba[:, :, 2]
    flat = index.ravel()
    order = np.argsort(flat, kind="stable")
    ends = np.cumsum(np.bincount(flat, minlength=len(board.provinces) + 1))
    pixels = tuple(np.split(order, ends[:-1]))
    return _Provinces(index, pixels, {p: n for n, p in enumerate(board.provinces, 1)})


@lru_cache(maxsize=16)
def _ground(board: Board, zoom: float) -> _Overlay:
    """The land no province covers, and the lakes, laid over the provinces."""
    return _Overlay.of(_rgba(_canvas(board, f"<defs>{UNCLAIMED}</defs>{ground(board)}"), zoom))


@lru_cache(maxsize=32)
def _lines(board: Board, tags: tuple[tuple[str, str], ...], zoom: float) -> _Overlay:
    """The borders, the rivers and the labels (with these tags), over the shades."""
    return _Overlay.of(_rgba(_canvas(board, lines(board) + label_layer(board, tags)), zoom))


@lru_cache(maxsize=32)
def _hatching(board: Board, zoom: float, shade: Shade) -> Pixels:
    """A shade's pattern over the whole map, as each province it marks shows it."""
    width, height = board.size
    filled = f'<rect width="{width}" height="{height}" fill="url(#{pattern_id(shade)})"/>'
    return _rgba(_canvas(board, f"<defs>{shade_pattern(shade)}</defs>{filled}"), zoom)


def _canvas(board: Board, body: str) -> str:
    """An SVG of the map's size."""
    width, height = board.size
    return _svg(width, height, body)


def _svg(width: float, height: float, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width!r} {height!r}" '
        f'width="{width!r}" height="{height!r}" font-family="{FONT_FAMILY}">{body}</svg>'
    )


def _rgba(svg: str, zoom: float, crisp: bool = False) -> Pixels:
    """An SVG drawn by resvg on a clear ground."""
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=zoom,
            shape_rendering="crisp_edges" if crisp else "geometric_precision",
        )
    except ValueError as exc:
        raise PngError(f"the board could not be rendered: {exc}") from None
    with Image.open(io.BytesIO(bytes(png))) as decoded:
        return np.asarray(decoded.convert("RGBA"))


# --- the pieces ---------------------------------------------------------------------------
def _lay_pieces(pieces: list[Sketch], defs: str, zoom: float, image: Pixels) -> None:
    """Each piece laid on the image in its box, in order (the later over the earlier)."""
    boxes = [_pixel_box(piece, zoom) for piece in pieces]
    places, sheet = _sheet(pieces, boxes, defs, zoom, image.shape[1])
    height, width, _ = image.shape
    for (x0, y0, x1, y1), (sx, sy) in zip(boxes, places, strict=True):
        # the part of the box on the image: a piece may reach over its edge
        left, top, right, bottom = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if left >= right or top >= bottom:
            continue
        drawn = sheet[sy + top - y0 : sy + bottom - y0, sx + left - x0 : sx + right - x0]
        region = image[top:bottom, left:right]
        opacity = drawn[:, :, 3:].astype(np.uint32)
        region[:] = (drawn[:, :, :3] * opacity + region * (255 - opacity) + 127) // 255


def _pixel_box(piece: Sketch, zoom: float) -> tuple[int, int, int, int]:
    left, top, right, bottom = piece.box
    return (
        math.floor(left * zoom) - EDGE,
        math.floor(top * zoom) - EDGE,
        math.ceil(right * zoom) + EDGE,
        math.ceil(bottom * zoom) + EDGE,
    )


def _sheet(
    pieces: list[Sketch],
    boxes: list[tuple[int, int, int, int]],
    defs: str,
    zoom: float,
    width: int,
) -> tuple[list[tuple[int, int]], Pixels]:
    """The pieces drawn by resvg side by side on one sheet, in shelves of the tallest
    first: where each stands on it, and the sheet. Each is moved by whole pixels, so that
    it is drawn as it would be in its place on the board."""
    order = sorted(range(len(pieces)), key=lambda i: boxes[i][1] - boxes[i][3])
    places = [(0, 0)] * len(pieces)
    x = y = shelf = 0
    width = max([width, *(x1 - x0 for x0, _, x1, _ in boxes)])
    for i in order:
        x0, y0, x1, y1 = boxes[i]
        if x + x1 - x0 > width:
            x, y, shelf = 0, y + shelf, 0
        places[i] = (x, y)
        x, shelf = x + x1 - x0, max(shelf, y1 - y0)
    moved = "".join(
        f'<g transform="translate({(sx - x0) / zoom!r},{(sy - y0) / zoom!r})">{piece.svg}</g>'
        for piece, (x0, y0, _, _), (sx, sy) in zip(pieces, boxes, places, strict=True)
    )
    sheet = _rgba(_svg(width / zoom, max(y + shelf, 1) / zoom, f"<defs>{defs}</defs>{moved}"), zoom)
    return places, sheet


# --- the legend's words --------------------------------------------------------------------
def _set(
    band: Pixels,
    words: tuple[Words, ...],
    zoom: float,
    top: int,
    fonts: dict[tuple[bool, bool], Path],
) -> Pixels:
    """The words set on the band under the map (whose first row is the image's `top`)."""
    page = Image.fromarray(band)
    pen = ImageDraw.Draw(page)
    for line in words:
        x, y = line.x * zoom, line.y * zoom - top
        size = line.size * zoom
        if line.lead:
            bold = _font(fonts[(True, line.italic)], size)
            pen.text((x, y), line.lead, fill=line.fill, font=bold, anchor="ls")
            x += bold.getlength(line.lead)
            text = f" {line.text}"
        else:
            text = line.text
        font = _font(fonts[(line.bold, line.italic)], size)
        pen.text((x, y), text, fill=line.fill, font=font, anchor="ls")
    return np.asarray(page)


@lru_cache(maxsize=32)
def _font(path: Path, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


@lru_cache(maxsize=4)
def _dejavu(folders: tuple[Path, ...]) -> dict[tuple[bool, bool], Path] | None:
    """DejaVu Sans's files in the font folders, if all are there."""
    found = {
        path.name: path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("DejaVuSans*.ttf")
    }
    if not all(name in found for name in DEJAVU.values()):
        return None
    return {style: found[name] for style, name in DEJAVU.items()}


def _fonts_in(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    return any(path.suffix.lower() in (".ttf", ".otf", ".ttc") for path in folder.rglob("*"))
