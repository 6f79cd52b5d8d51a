"""The board as PNG, for forums and mail, put together from parts in some tens of
milliseconds.

resvg (the `resvg-py` package, which carries it compiled) draws SVG well but slowly for
this: half a second to a second a board, on its text (some 30 µs a letter), on each
stroked path (some 0.1 ms), and on the canvas itself (drawn, encoded as PNG, decoded
again). So a board is put together here:

- what every board of a map shares is drawn by resvg once per map and kept: which
  province each pixel shows (`_provinces`, drawn without antialiasing, so exact); the
  pixels that the land no province covers and the lakes (`_ground`), the borders and the
  rivers (`_lines`), and the labels with their tags (`_labels`) lay over the provinces;
- a board's fills are set by province through the provinces' pixels; a hatching is its
  pattern, drawn once, laid on the pixels of the provinces it marks (`_hatching`);
- its pieces are laid on in the SVG's order, each drawn by resvg in its own box
  (`Sketch`); a stamp (`Stamp`: a power's unit, a center, a legend's symbol, an order
  every viewer sees) once for all the boards it is on (`_stamp`);
- the legend's words are set in DejaVu Sans, the SVG's first choice of font, by FreeType
  (Pillow) a letter at a time, each letter set once (`_glyph`); the index of provinces
  once per map (`_index`);
- the image is encoded here, unfiltered, deflated by ISA-L (the `isal` package): five
  times as fast as zlib's fastest level, and smaller than resvg's own PNG.

What is kept is what looks the same to every viewer who draws it, never a viewer's own:
a stamp is kept by what it draws, and an order kept secret until the game ends is no
stamp. Without DejaVu Sans on the machine, the whole SVG is drawn by resvg, as before:
slower, with whatever font the machine has.
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
from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from hegemon.board import Board
from hegemon.game import Pattern, Shade
from hegemon.render import palette
from hegemon.render.board import (
    FONT_FAMILY,
    PATTERN_SIZE,
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
from hegemon.render.legend import INDEX_FONT, Words
from hegemon.render.svg import Box, Sketch

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
Fonts = tuple[tuple[tuple[bool, bool], Path], ...]  # DejaVu Sans's files by (bold, italic)


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
    """An RGB image as PNG: its rows unfiltered, compressed by ISA-L at its level 1 (five
    times as fast as zlib's fastest, and smaller than resvg's own PNG)."""
    height, width, _ = image.shape
    rows = np.empty((height, width * 3 + 1), np.uint8)
    rows[:, 0] = 0  # each row's filter: none
    rows[:, 1:] = image.reshape(height, -1)
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", head),
            _chunk(b"IDAT", isal_zlib.compress(rows, 1)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# --- the board, from its parts -------------------------------------------------------------
def _drawn(scene: Scene, zoom: float, fonts: Fonts) -> Pixels:
    board = scene.board
    provinces = _provinces(board, zoom)
    rows, width = provinces.index.shape
    image = np.full((max(rows, round(scene.height * zoom)), width, 3), 255, np.uint8)
    np.take(_fills(scene), provinces.index, axis=0, out=image[:rows])
    flat = image.reshape(-1, 3)
    _ground(board, zoom).lay_on(flat)
    for shade, marked in scene.hatched.items():
        hatching = _hatching(board, zoom, shade.pattern, shade.color)
        for province in marked:
            hatching.over(provinces.number[province], provinces).lay_on(flat)
    _lines(board, zoom).lay_on(flat)
    _labels(board, scene.tags, zoom).lay_on(flat)
    for piece in [*scene.pieces(), *scene.legend.sketches]:
        _lay(*_drawing_of(piece, scene.patterns, zoom), image)
    _set_legend(scene, zoom, fonts, image)
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
    """Pixels laid over others: the opaque ones (where: indices into the image's pixels,
    and their colour), then the others (where, their colour times their opacity, and
    255 less their opacity)."""

    opaque: np.ndarray
    color: np.ndarray
    translucent: np.ndarray
    paint: np.ndarray
    clear: np.ndarray

    @classmethod
    def of(cls, rgba: Pixels) -> _Overlay:
        """The drawn pixels of an RGBA image of the map."""
        pixels = rgba.reshape(-1, 4)
        where = np.flatnonzero(pixels[:, 3])
        return cls.at(where, pixels[where])

    @classmethod
    def at(cls, where: np.ndarray, rgba: Pixels) -> _Overlay:
        """Pixels of these colours (RGBA, one a row) at these places."""
        opacity = rgba[:, 3]
        opaque, translucent = opacity == 255, (opacity > 0) & (opacity < 255)
        drawn = rgba[translucent].astype(np.uint32)
        paint, clear = drawn[:, :3] * drawn[:, 3:], 255 - drawn[:, 3:]
        return cls(where[opaque], rgba[opaque, :3], where[translucent], paint, clear)

    def lay_on(self, pixels: np.ndarray) -> None:
        """Over `pixels` (RGB, flat), as resvg lays one colour over another."""
        pixels[self.opaque] = self.color
        under = pixels[self.translucent]
        pixels[self.translucent] = (self.paint + under * self.clear + 127) // 255


@lru_cache(maxsize=16)
def _provinces(board: Board, zoom: float) -> _Provinces:
    """Each province's shape drawn in a colour that is its number, without antialiasing:
    every pixel shows one province, whole."""
    uses = "".join(
        f'<use href="#{SHAPE}{p}" fill="#{n:06x}"/>' for n, p in enumerate(board.provinces, 1)
    )
    rgba = _rgba(_map_canvas(board, zoom, shapes(board) + uses), crisp=True).astype(np.int32)
    index = (rgba[:, :, 0] << 16 | rgba[:, :, 1] << 8 | rgba[:, :, 2]).astype(np.uint16)
    flat = index.ravel()
    order = np.argsort(flat, kind="stable").astype(np.int32)  # half the memory kept
    ends = np.cumsum(np.bincount(flat, minlength=len(board.provinces) + 1))
    pixels = tuple(np.split(order, ends[:-1]))
    return _Provinces(index, pixels, {p: n for n, p in enumerate(board.provinces, 1)})


@lru_cache(maxsize=16)
def _ground(board: Board, zoom: float) -> _Overlay:
    """The land no province covers, and the lakes, laid over the provinces."""
    drawn = f"<defs>{UNCLAIMED}</defs>{ground(board)}"
    return _Overlay.of(_rgba(_map_canvas(board, zoom, drawn)))


@lru_cache(maxsize=16)
def _lines(board: Board, zoom: float) -> _Overlay:
    """The borders and the rivers, over the shades."""
    return _Overlay.of(_rgba(_map_canvas(board, zoom, lines(board))))


# Kept apart from the lines: a map's tags change in play (Europe 1615's states, with the
# faith of each), and the labels alone are drawn the faster for it.
@lru_cache(maxsize=32)
def _labels(board: Board, tags: tuple[tuple[str, str], ...], zoom: float) -> _Overlay:
    """The labels, with these tags under them, over the lines."""
    return _Overlay.of(_rgba(_map_canvas(board, zoom, label_layer(board, tags))))


@dataclass(frozen=True)
class _Hatching:
    """A pattern, drawn from the map's top left corner: a tile of it, where it repeats
    every so many whole pixels (12 at 1.5 pixels a unit), else over the whole map; and
    the part of it over each province it has marked so far, by the province's number."""

    rgba: Pixels
    over_province: dict[int, _Overlay]

    def over(self, number: int, provinces: _Provinces) -> _Overlay:
        if number not in self.over_province:
            where = provinces.pixels[number]
            rows, columns = np.divmod(where, provinces.index.shape[1])
            height, width, _ = self.rgba.shape
            drawn = self.rgba[rows % height, columns % width]
            self.over_province[number] = _Overlay.at(where, drawn)
        return self.over_province[number]


@lru_cache(maxsize=32)
def _hatching(board: Board, zoom: float, pattern: Pattern, color: str) -> _Hatching:
    """A pattern over the whole map, as each province it marks shows it."""
    side = PATTERN_SIZE * zoom
    if side.is_integer():  # a tile of it will do
        width = height = float(PATTERN_SIZE)
        pixels = (0, 0, int(side), int(side))
    else:
        width, height = board.size
        pixels = (0, 0, round(width * zoom), round(height * zoom))
    shade = Shade("", color, pattern)
    filled = f'<rect width="{width}" height="{height}" fill="url(#{pattern_id(shade)})"/>'
    return _Hatching(_rgba(_svg(pixels, zoom, f"<defs>{shade_pattern(shade)}</defs>{filled}")), {})


def _map_canvas(board: Board, zoom: float, body: str) -> str:
    """An SVG of the map, to be drawn at `zoom`."""
    width, height = board.size
    return _svg((0, 0, round(width * zoom), round(height * zoom)), zoom, body)


def _svg(pixels: tuple[int, int, int, int], zoom: float, body: str) -> str:
    """An SVG that shows the box `pixels` (left, top, right, bottom) of a canvas drawn at
    `zoom`, a pixel for each of its pixels."""
    left, top, right, bottom = pixels
    view = " ".join(repr(p / zoom) for p in (left, top, right - left, bottom - top))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" width="{right - left}" '
        f'height="{bottom - top}" font-family="{FONT_FAMILY}">{body}</svg>'
    )


def _rgba(svg: str, crisp: bool = False) -> Pixels:
    """An SVG drawn by resvg on a clear ground."""
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg, shape_rendering="crisp_edges" if crisp else "geometric_precision"
        )
    except ValueError as exc:
        raise PngError(f"the board could not be rendered: {exc}") from None
    with Image.open(io.BytesIO(bytes(png))) as decoded:
        return np.asarray(decoded.convert("RGBA"))


# --- the pieces ---------------------------------------------------------------------------
def _drawing_of(piece: Sketch, patterns: str, zoom: float) -> tuple[Pixels, int, int]:
    """A piece drawn, and where its top left pixel goes: in its own box, or, for a
    stamp, as drawn once for all its places, moved to the nearest pixel of its own. Only
    a piece filled with a pattern (a legend's swatch) is drawn with the board's patterns:
    what the others look like owes nothing to them."""
    defs = patterns if "url(#" in piece.svg else ""
    if piece.stamp is None:
        box = _pixel_box(piece.box, zoom)
        return _rgba(_svg(box, zoom, f"<defs>{defs}</defs>{piece.svg}")), box[0], box[1]
    (x, y), (left, top, right, bottom) = piece.stamp.at, piece.box
    around = _pixel_box((left - x, top - y, right - x, bottom - y), zoom)
    drawn = _stamp(piece.stamp.drawing, around, zoom, defs)
    return drawn, round(x * zoom) + around[0], round(y * zoom) + around[1]


# A stamp is a power's unit or center, a legend's symbol (some tens for a map, each of
# which looks the same to every viewer), or an order every viewer of its phase sees.
@lru_cache(maxsize=1024)
def _stamp(drawing: str, box: tuple[int, int, int, int], zoom: float, defs: str) -> Pixels:
    return _rgba(_svg(box, zoom, f"<defs>{defs}</defs>{drawing}"))


def _pixel_box(box: Box, zoom: float) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return (
        math.floor(left * zoom) - EDGE,
        math.floor(top * zoom) - EDGE,
        math.ceil(right * zoom) + EDGE,
        math.ceil(bottom * zoom) + EDGE,
    )


def _lay(drawn: Pixels, x: int, y: int, image: Pixels) -> None:
    """An RGBA drawing laid over the image with its top left pixel at (x, y), as much of
    it as is on the image."""
    height, width, _ = image.shape
    left, top = max(x, 0), max(y, 0)
    right, bottom = min(x + drawn.shape[1], width), min(y + drawn.shape[0], height)
    if left >= right or top >= bottom:
        return
    part = drawn[top - y : bottom - y, left - x : right - x]
    region = image[top:bottom, left:right]
    opacity = part[:, :, 3:].astype(np.uint32)
    region[:] = (part[:, :, :3] * opacity + region * (255 - opacity) + 127) // 255


# --- the legend's words --------------------------------------------------------------------
# Pillow sets a line of text in some 0.3 ms, most of it in FreeType; a legend has hundreds
# of lines. So each letter is set once for each font and size (`_glyph`), and a line is
# put together from its letters, each at the whole pixel nearest its place, as Pillow
# itself places them.
def _set_legend(scene: Scene, zoom: float, fonts: Fonts, image: Pixels) -> None:
    """The legend's words set under the map; its index of provinces, the same on every
    board of a map, set once for the map and laid on."""
    for line in scene.legend.words:
        _set(line, zoom, (0, 0), fonts, image)
    index = _index(scene.legend.index, zoom, fonts, image.shape[1])
    at = round(scene.legend.index_top * zoom) - round(INDEX_FONT * zoom) - EDGE
    image[at : at + index.shape[0]] = index[: image.shape[0] - at]


@lru_cache(maxsize=16)
def _index(words: tuple[Words, ...], zoom: float, fonts: Fonts, width: int) -> Pixels:
    """The words of an index, set on white from the first line's baseline: the band they
    take, from a font's height above that baseline to one below the last."""
    above = round(INDEX_FONT * zoom) + EDGE
    height = round(max(w.y for w in words) * zoom) + above + round(INDEX_FONT * zoom)
    page = np.full((height, width, 3), 255, np.uint8)
    for line in words:
        _set(line, zoom, (0, above), fonts, page)
    return page


@dataclass(frozen=True)
class _Glyph:
    """A letter as FreeType draws it: its coverage, where that starts from the letter's
    point on the baseline, and how far the next letter's point is."""

    coverage: np.ndarray
    left: int
    top: int
    advance: float


def _set(line: Words, zoom: float, offset: tuple[int, int], fonts: Fonts, image: Pixels) -> None:
    """A line of words set on the image, from its `x` on its baseline (moved by `offset`
    pixels), in its colour."""
    files, size = dict(fonts), line.size * zoom
    runs = [((line.bold, line.italic), line.text)]
    if line.lead:  # set bold, before the text
        runs = [((True, line.italic), line.lead), ((line.bold, line.italic), f" {line.text}")]
    x, y = line.x * zoom + offset[0], round(line.y * zoom) + offset[1]
    placed = []
    for style, words in runs:
        face = _face(files[style], size)
        for letter in words:
            glyph = face.get(letter) or face.setdefault(letter, _glyph(files[style], size, letter))
            placed.append((glyph, round(x) + glyph.left, y + glyph.top))
            x += glyph.advance
    if not placed:
        return
    left = min(gx for _, gx, _ in placed)
    top = min(gy for _, _, gy in placed)
    right = max(gx + g.coverage.shape[1] for g, gx, _ in placed)
    bottom = max(gy + g.coverage.shape[0] for g, _, gy in placed)
    coverage = np.zeros((bottom - top, right - left), np.uint8)
    for glyph, gx, gy in placed:
        h, w = glyph.coverage.shape
        under = coverage[gy - top : gy - top + h, gx - left : gx - left + w]
        np.maximum(under, glyph.coverage, out=under)
    ink = np.array(_rgb(line.fill), np.uint32)
    region = image[top:bottom, left:right]
    cover = coverage[: region.shape[0], : region.shape[1], None].astype(np.uint32)
    region[:] = (ink * cover + region * (255 - cover) + 127) // 255


@lru_cache(maxsize=32)
def _face(path: Path, size: float) -> dict[str, _Glyph]:
    """The letters of a font at a size set so far, by letter."""
    return {}


def _glyph(path: Path, size: float, letter: str) -> _Glyph:
    font = _font(path, size)
    left, top, right, bottom = font.getbbox(letter, anchor="ls")
    page = Image.new("L", (max(int(right - left), 1), max(int(bottom - top), 1)))
    ImageDraw.Draw(page).text((-left, -top), letter, fill=255, font=font, anchor="ls")
    return _Glyph(np.asarray(page), int(left), int(top), font.getlength(letter))


@lru_cache(maxsize=32)
def _font(path: Path, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


@lru_cache(maxsize=4)
def _dejavu(folders: tuple[Path, ...]) -> Fonts | None:
    """DejaVu Sans's files in the font folders, if all are there."""
    found = {
        path.name: path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("DejaVuSans*.ttf")
    }
    if not all(name in found for name in DEJAVU.values()):
        return None
    return tuple((style, found[name]) for style, name in DEJAVU.items())


def _fonts_in(folder: Path) -> bool:
    if not folder.is_dir():
        return False
    return any(path.suffix.lower() in (".ttf", ".otf", ".ttc") for path in folder.rglob("*"))
