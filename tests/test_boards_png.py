"""The board as PNG (`hegemon.render.png`): put together from parts kept per map, it looks
as resvg draws the whole SVG; what it keeps for every board is the same for every viewer."""

from __future__ import annotations

import io
import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hegemon.adjudication.outcome import Outcome
from hegemon.game import PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.orders import Move, Secrecy
from hegemon.position import OBSERVER, Viewer
from hegemon.randomplay import random_orders
from hegemon.render import PngError, board_scene, phase_scene, png_of
from hegemon.render import png as png_module
from hegemon.render.arrows import order_marks
from hegemon.render.board import Scene
from hegemon.variants import load_variant

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
needs_dejavu = pytest.mark.skipif(
    not (DEJAVU / "DejaVuSans.ttf").exists(), reason="the PNG sets its words in DejaVu Sans"
)


def _mid_game(variant: Variant, seed: int = 7) -> PhaseResult:
    """A movement phase in the third year of a seeded random game."""
    rng = random.Random(seed)
    position = variant.initial_position()
    while True:
        orders = random_orders(variant, position, rng)
        result = play_phase(
            variant, position, orders, settle(chances_for(variant, position), None, rng)
        )
        if position.phase.year >= variant.start_year + 2 and result.outcomes:
            return result
        position = result.after


def _pixels(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB")).astype(int)


def _whole(scene: Scene) -> np.ndarray:
    """The board as resvg draws its whole SVG: what the PNG's parts must add up to."""
    zoom = min(png_module.ZOOM, png_module.WIDEST / scene.board.size[0])
    return _pixels(png_module.whole_png(scene.svg, zoom))


@needs_dejavu
@pytest.mark.parametrize("name", ["classic", "europe_1615"])
def test_a_mid_game_png_looks_as_resvg_draws_the_whole_board(name: str) -> None:
    # Europe 1615 for its hatchings, laid over the provinces they mark.
    variant = load_variant(name)
    scene = phase_scene(variant, _mid_game(variant), OBSERVER)
    fast, whole = _pixels(png_of(scene)), _whole(scene)
    assert fast.shape == whole.shape
    difference = np.abs(fast - whole).max(axis=2)
    map_rows = int(variant.board.size[1] * png_module.ZOOM)
    board, legend = difference[:map_rows], difference[map_rows:]
    # The map: the same but for the edges between provinces (under the borders), and the
    # units and centers, which may stand half a pixel off.
    assert board.mean() < 2 and (board > 64).mean() < 0.01
    # The legend: the same words, set by FreeType rather than traced by resvg.
    assert legend.mean() < 12 and (legend > 64).mean() < 0.08


@needs_dejavu
def test_what_is_kept_from_one_viewers_board_changes_no_other_board() -> None:
    variant = load_variant("europe_1615")  # its marks (shades, notes) differ by viewer
    result = _mid_game(variant)
    viewers = [OBSERVER, *(Viewer(power=p) for p in list(variant.powers)[:2])]
    warm = [png_of(phase_scene(variant, result, viewer)) for viewer in viewers]
    for viewer, drawn in zip(viewers, warm, strict=True):
        _forget_boards()
        assert png_of(phase_scene(variant, result, viewer)) == drawn, viewer


def _forget_boards() -> None:
    for kept in (png_module._stamp, png_module._face, png_module._hatching, png_module._index):
        kept.cache_clear()


def test_only_orders_every_viewer_sees_are_drawn_once_for_all(classic: Variant) -> None:
    result = _mid_game(classic)
    moves = [o for o in result.outcomes if isinstance(o.order, Move)]
    secret = [Outcome(o.power, _kept_secret(o.order), o.verdict, o.reason) for o in moves]
    scene = phase_scene(classic, result, OBSERVER)
    public = list(order_marks(moves, scene.locate, scene.colors, scene.unit_at))
    kept_secret = list(order_marks(secret, scene.locate, scene.colors, scene.unit_at))
    assert public and all(sketch.stamp for sketch in public)
    assert kept_secret and not any(sketch.stamp for sketch in kept_secret)
    assert [s.svg for s in public] == [s.svg for s in kept_secret]  # drawn alike all the same


class _SecretMove(Move):
    secrecy = Secrecy.UNTIL_END


def _kept_secret(order: object) -> _SecretMove:
    assert isinstance(order, Move)
    return _SecretMove(order.unit, order.location, order.target, order.via_convoy)


@needs_dejavu
def test_without_dejavu_sans_the_whole_svg_is_drawn_by_resvg(
    classic: Variant, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fonts = Path("/usr/share/fonts").rglob("*.ttf")
    other = next((f for f in fonts if not f.name.startswith("DejaVuSans")), None)
    if other is None:
        pytest.skip("no font here but DejaVu Sans")
    (tmp_path / other.name).symlink_to(other)
    monkeypatch.setattr(png_module, "FONT_FOLDERS", (tmp_path,))
    scene = board_scene(classic, classic.initial_position(), OBSERVER)
    assert png_of(scene) == png_module.whole_png(scene.svg)


def test_an_image_is_encoded_as_a_png_any_reader_decodes() -> None:
    image = np.random.default_rng(1).integers(0, 256, (37, 53, 3), dtype=np.uint8)
    assert (_pixels(png_module.encoded(image)) == image).all()


def test_an_svg_resvg_cannot_read_is_refused_with_the_reason() -> None:
    with pytest.raises(PngError, match="could not be rendered"):
        png_module.whole_png("<svg")
