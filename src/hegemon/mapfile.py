"""Reading a map: a variant's map.toml, or the same data as a mapping, into a `Board`.

The data's format is the one docs/writing-a-variant.md describes (``[meta]``,
``[provinces.X]``, ``[units.X]``, ``[[edges]]``). TOML's values are whatever its text
holds, so each is checked as it is read; a map with any problem is refused with every
problem listed (`MapError`), those of the graph found by hegemon.mapcheck.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hegemon.board import STANDARD_KINDS, Board, GeoFrame, MapError, Province, Terrain, UnitKind
from hegemon.mapcheck import validate


def load_board(path: Path) -> Board:
    """Read and validate a map.toml; raise MapError listing every problem found."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [str(exc)]) from exc
    return board_from_data(data, str(path))


def board_from_data(data: Mapping[str, Any], source: str = "the map") -> Board:
    problems: list[str] = []
    meta = data.get("meta", {})
    raw = data.get("provinces")
    if not isinstance(raw, dict) or not raw:
        raise MapError(source, ["no [provinces] table"])
    size = (float(meta.get("width", 1000)), float(meta.get("height", 1000)))

    provinces: dict[str, Province] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    coast_xy: dict[str, tuple[float, float]] = {}
    coast_tags: dict[str, frozenset[str]] = {}
    coast_aliases: dict[str, str] = {}
    for written, entry in raw.items():
        pid = sys.intern(written)
        province = _read_province(pid, entry, meta, problems)
        if province is None:
            continue
        provinces[pid] = province
        army[pid] = _ids(entry.get("army", ()))
        if province.coasts:
            for coast in province.coasts:
                spec = entry["coasts"][coast]
                fleet[sys.intern(f"{pid}/{coast}")] = _ids(spec.get("fleet", ()))
                coast_xy[f"{pid}/{coast}"] = _xy(spec.get("xy", province.xy))
                coast_tags[f"{pid}/{coast}"] = frozenset(spec.get("tags", ()))
                for alias in spec.get("aliases", ()):
                    _read_coast_alias(province, coast, alias, coast_aliases, problems)
            if "fleet" in entry:
                problems.append(f"{province.name}: has split coasts, so fleet edges go per coast")
        else:
            fleet[pid] = _ids(entry.get("fleet", ()))

    edge_tags, edge_sources = _read_edges(data.get("edges", []), problems)
    board = Board(
        name=str(meta.get("name", source)),
        provinces=provinces,
        army_edges={k: v for k, v in army.items() if v},
        fleet_edges={k: v for k, v in fleet.items() if v},
        size=size,
        source=str(meta.get("source", "")),
        coast_xy=coast_xy,
        kinds=_read_kinds(data.get("units"), problems),
        coast_tags=coast_tags,
        edge_tags=edge_tags,
        edge_sources=edge_sources,
        geo=_read_geo(meta.get("projection"), problems),
        coast_aliases=coast_aliases,
    )
    problems.extend(validate(board))
    if _label_case(meta) != meta.get("labels", "capitalized"):
        problems.append(f"[meta] labels: one of {', '.join(_LABEL_CASES)}, not {meta['labels']!r}")
    if problems:
        raise MapError(source, problems)
    return board


def _ids(written: Iterable[Any]) -> frozenset[str]:
    """Locations as a map names them, each the one string of its text (`sys.intern`): the
    judge looks them up in its tables many times a phase, and a lookup by the very string
    a table holds skips comparing the two."""
    return frozenset(sys.intern(w) if isinstance(w, str) else w for w in written)


def _read_coast_alias(
    province: Province, coast: str, alias: Any, aliases: dict[str, str], problems: list[str]
) -> None:
    """Another name of a coast (``aliases = ["ec"]``), which must name no other coast."""
    where = f"{province.name} ({coast})"
    if not isinstance(alias, str) or alias in province.coasts:
        problems.append(f"{where}: the alias {alias!r} is not another name for a coast")
        return
    other = aliases.setdefault(f"{province.id}/{alias}", f"{province.id}/{coast}")
    if other != f"{province.id}/{coast}":
        problems.append(f"{where}: the alias {alias!r} also names {other}")


def _xy(value: Any) -> tuple[float, float]:
    x, y = value
    return float(x), float(y)


def _read_province(
    pid: str, entry: Mapping[str, Any], meta: Mapping[str, Any], problems: list[str]
) -> Province | None:
    label = entry.get("name", pid)
    try:
        terrain = Terrain(entry.get("kind", ""))
    except ValueError:
        problems.append(f"{label}: kind must be land, sea or coast, not {entry.get('kind')!r}")
        return None
    if "xy" not in entry:
        problems.append(f"{label}: no coordinate (xy)")
    coasts = tuple(entry.get("coasts", {}))
    return Province(
        id=pid,
        name=str(label),
        terrain=terrain,
        center=bool(entry.get("center", False)),
        xy=_xy(entry.get("xy", (0, 0))),
        aliases=tuple(entry.get("aliases", ())),
        coasts=coasts,
        source=str(entry.get("source", meta.get("source", ""))),
        port=bool(entry.get("port", False)),
        tags=frozenset(entry.get("tags", ())),
        label=str(entry["label"]) if "label" in entry else _LABEL_CASES[_label_case(meta)](pid),
    )


# How a map labels provinces that give no label of their own (``[meta] labels``): their
# id capitalised ("Lon", the default) or in capitals ("LON", as some rulebooks write them).
_LABEL_CASES = {"capitalized": str.capitalize, "upper": str.upper}


def _label_case(meta: Mapping[str, Any]) -> str:
    case = str(meta.get("labels", "capitalized"))
    return case if case in _LABEL_CASES else "capitalized"


def _read_geo(raw: Any, problems: list[str]) -> GeoFrame | None:
    """``[meta.projection]``: the longitudes and latitudes the canvas spans, if given."""
    if raw is None:
        return None
    try:
        frame = GeoFrame(*(float(raw[side]) for side in ("west", "east", "north", "south")))
    except (KeyError, TypeError, ValueError):
        problems.append("[meta.projection]: west, east, north and south, as numbers of degrees")
        return None
    if not (frame.west < frame.east and frame.south < frame.north):
        problems.append("[meta.projection]: west must lie west of east, and south south of north")
        return None
    return frame


_KIND_FIELDS = {"name", "moves", "supply", "captures", "convoyed", "convoys", "buildable", "glyph"}


def _read_kinds(raw: Any, problems: list[str]) -> dict[str, UnitKind]:
    """The ``[units.X]`` tables; a map without any has the standard army and fleet."""
    if raw is None:
        return dict(STANDARD_KINDS)
    kinds: dict[str, UnitKind] = {}
    for letter, spec in raw.items():
        where = f"[units.{letter}]"
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            problems.append(f"{where}: a unit kind is one capital letter")
            continue
        unknown = sorted(set(spec) - _KIND_FIELDS)
        if unknown:
            problems.append(f"{where}: unknown field {unknown[0]!r}")
        if spec.get("moves") not in ("army", "fleet"):
            problems.append(f"{where}: moves must be 'army' or 'fleet' (which edges it takes)")
            continue
        by_land = spec["moves"] == "army"
        kinds[letter] = UnitKind(
            letter=letter,
            name=str(spec.get("name", letter)),
            by_land=by_land,
            supply=bool(spec.get("supply", True)),
            captures=bool(spec.get("captures", True)),
            convoyed=bool(spec.get("convoyed", by_land)),
            convoys=bool(spec.get("convoys", not by_land)),
            buildable=bool(spec.get("buildable", True)),
            glyph=str(spec.get("glyph", "")),
        )
    names = [k.name.lower() for k in kinds.values()]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"[units]: two kinds are called {name!r}")
    return kinds


def _read_edges(
    raw: Any, problems: list[str]
) -> tuple[dict[frozenset[str], frozenset[str]], dict[frozenset[str], str]]:
    """``[[edges]] between = ["bam/nc", "sen"], tags = ["river"], source = "..."``: each
    border's tags, and the source of those that name one."""
    tags: dict[frozenset[str], frozenset[str]] = {}
    sources: dict[frozenset[str], str] = {}
    for entry in raw:
        ends = entry.get("between", [])
        if len(ends) != 2:
            problems.append(f"[[edges]] {ends!r}: between names two places")
            continue
        tags[frozenset(ends)] = frozenset(entry.get("tags", ()))
        if "source" in entry:
            sources[frozenset(ends)] = str(entry["source"])
    return tags, sources
