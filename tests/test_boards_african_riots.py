"""African Riots' board (issue 28, point 11): the labels about the Suez canal."""

from __future__ import annotations

import pytest
import shapely

from hegemon.position import OBSERVER
from hegemon.render.board import Scene
from hegemon.render.territories import territories
from hegemon.variants import load_variant


@pytest.fixture(scope="module")
def scene() -> Scene:
    variant = load_variant("african_riots")
    return Scene(variant, variant.initial_position(), OBSERVER, ())


def _share_inside(scene: Scene, province: str) -> float:
    """How much of a province's label lies inside its own region, on the opening board."""
    (label,) = [p for p in scene.labels(with_units=True) if p.province == province]
    box = shapely.box(*label.box)
    return float(box.intersection(territories(scene.board).regions[province]).area / box.area)


@pytest.mark.parametrize("province", ["sue", "cai", "sin"])
def test_the_labels_about_the_suez_canal_stand_in_their_own_provinces(
    scene: Scene, province: str
) -> None:
    """Characteristic 8 (issue 28, point 11): "Cai" sat on the Gulf of Suez shore and
    "Sue" began over Cairo beside Egypt's fleet: each label stands in its own province."""
    assert _share_inside(scene, province) >= 0.9
