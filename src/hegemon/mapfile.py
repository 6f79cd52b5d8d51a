"""Reading a map: a variant's map.toml, or the same data as a mapping, into a `Board`.

The data's format is the one docs/writing-a-variant.md describes (``[meta]``,
``[provinces.X]``, ``[units.X]``, ``[[edges]]``). TOML's values are whatever its text
holds, so each is checked as it is read; a map with any problem is refused with every
problem listed (`MapError`), those of the graph found by hegemon.mapcheck.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path

from hegemon.board import STANDARD_KINDS, Board, GeoFrame, MapError, Province, Terrain, UnitKind
from hegemon.mapcheck import validate


def load_board(path: Path) -> Board:
    """Read and validate a map.toml; raise MapError listing every problem found."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [str(exc)]) from exc
    return board_from_data(data, str(path))


def board_from_data(data: Mapping[str, object], source: str = "the map") -> Board:
    problems: list[str] = []
    meta = _table(data.get("meta"))
    raw = data.get("provinces")
    if not isinstance(raw, dict) or not raw:
        raise MapError(source, ["no [provinces] table"])
    size = _pair(
        meta.get("width", 1000), meta.get("height", 1000), "[meta] width, height", problems
    )

    provinces: dict[str, Province] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    coast_xy: dict[str, tuple[float, float]] = {}
    coast_tags: dict[str, frozenset[str]] = {}
    coast_aliases: dict[str, str] = {}
    for written, value in raw.items():
        pid = sys.intern(written)
        entry = _table(value)
        province = _read_province(pid, entry, meta, problems)
        if province is None:
            continue
        provinces[pid] = province
        army[pid] = _ids(entry.get("army"), f"{province.name}: army", problems)
        if province.coasts:
            specs = _table(entry.get("coasts"))
            for coast in province.coasts:
                spec, location = _table(specs[coast]), f"{pid}/{coast}"
                where = f"{province.name} ({coast})"
                fleet[sys.intern(location)] = _ids(spec.get("fleet"), f"{where}: fleet", problems)
                coast_xy[location] = _xy(spec.get("xy", province.xy), where, problems)
                coast_tags[location] = frozenset(
                    _words(spec.get("tags"), f"{where}: tags", problems)
                )
                for alias in _words(spec.get("aliases"), f"{where}: aliases", problems):
                    _read_coast_alias(province, coast, alias, coast_aliases, problems)
            if "fleet" in entry:
                problems.append(f"{province.name}: has split coasts, so fleet edges go per coast")
        else:
            fleet[pid] = _ids(entry.get("fleet"), f"{province.name}: fleet", problems)

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


# TOML may give any value anywhere: each is read here as the type it must be, and a value
# of another type is a problem the map is refused for, named where it stands.


def _table(value: object) -> Mapping[str, object]:
    """A TOML table; anything else reads as an empty one, whose missing fields are the
    problems then reported (a province with no kind, say)."""
    return value if isinstance(value, dict) else {}


def _words(value: object, where: str, problems: list[str]) -> tuple[str, ...]:
    """An array of strings (``aliases = ["ec"]``); none if absent."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        problems.append(f"{where}: a list of names, not {value!r}")
        return ()
    return tuple(value)


def _ids(value: object, where: str, problems: list[str]) -> frozenset[str]:
    """Locations as a map names them, each the one string of its text (`sys.intern`): the
    judge looks them up in its tables many times a phase, and a lookup by the very string
    a table holds skips comparing the two."""
    return frozenset(sys.intern(word) for word in _words(value, where, problems))


def _number(value: object) -> float | None:
    """A TOML integer or float as a float; None for anything else (true and false too)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _pair(x: object, y: object, where: str, problems: list[str]) -> tuple[float, float]:
    """Two numbers (a coordinate, a size); (0, 0) and a problem for anything else."""
    a, b = _number(x), _number(y)
    if a is None or b is None:
        problems.append(f"{where}: two numbers, not {x!r} and {y!r}")
        return 0.0, 0.0
    return a, b


def _xy(value: object, where: str, problems: list[str]) -> tuple[float, float]:
    """``xy = [120, 340]``: where a province or coast is drawn."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        problems.append(f"{where}: xy is two numbers, not {value!r}")
        return 0.0, 0.0
    return _pair(value[0], value[1], f"{where}: xy", problems)


def _read_coast_alias(
    province: Province, coast: str, alias: str, aliases: dict[str, str], problems: list[str]
) -> None:
    """Another name of a coast (``aliases = ["ec"]``), which must name no other coast."""
    where = f"{province.name} ({coast})"
    if alias in province.coasts:
        problems.append(f"{where}: the alias {alias!r} is not another name for a coast")
        return
    other = aliases.setdefault(f"{province.id}/{alias}", f"{province.id}/{coast}")
    if other != f"{province.id}/{coast}":
        problems.append(f"{where}: the alias {alias!r} also names {other}")


def _read_province(
    pid: str, entry: Mapping[str, object], meta: Mapping[str, object], problems: list[str]
) -> Province | None:
    label = str(entry.get("name", pid))
    kind = entry.get("kind", "")
    if kind not in tuple(Terrain):
        problems.append(f"{label}: kind must be land, sea or coast, not {entry.get('kind')!r}")
        return None
    terrain = Terrain(str(kind))
    if "xy" not in entry:
        problems.append(f"{label}: no coordinate (xy)")
    coasts = tuple(_table(entry.get("coasts")))
    return Province(
        id=pid,
        name=label,
        terrain=terrain,
        center=bool(entry.get("center", False)),
        xy=_xy(entry.get("xy", (0, 0)), label, problems),
        aliases=_words(entry.get("aliases"), f"{label}: aliases", problems),
        coasts=coasts,
        source=str(entry.get("source", meta.get("source", ""))),
        port=bool(entry.get("port", False)),
        tags=frozenset(_words(entry.get("tags"), f"{label}: tags", problems)),
        label=str(entry["label"]) if "label" in entry else _LABEL_CASES[_label_case(meta)](pid),
    )


# How a map labels provinces that give no label of their own (``[meta] labels``): their
# id capitalised ("Lon", the default) or in capitals ("LON", as some rulebooks write them).
_LABEL_CASES = {"capitalized": str.capitalize, "upper": str.upper}


def _label_case(meta: Mapping[str, object]) -> str:
    case = str(meta.get("labels", "capitalized"))
    return case if case in _LABEL_CASES else "capitalized"


def _read_geo(raw: object, problems: list[str]) -> GeoFrame | None:
    """``[meta.projection]``: the longitudes and latitudes the canvas spans, if given."""
    if raw is None:
        return None
    sides = [_number(_table(raw).get(side)) for side in ("west", "east", "north", "south")]
    degrees = [side for side in sides if side is not None]
    if len(degrees) != len(sides):
        problems.append("[meta.projection]: west, east, north and south, as numbers of degrees")
        return None
    frame = GeoFrame(*degrees)
    if not (frame.west < frame.east and frame.south < frame.north):
        problems.append("[meta.projection]: west must lie west of east, and south south of north")
        return None
    return frame


_KIND_FIELDS = {"name", "moves", "supply", "captures", "convoyed", "convoys", "buildable", "glyph"}


def _read_kinds(raw: object, problems: list[str]) -> dict[str, UnitKind]:
    """The ``[units.X]`` tables; a map without any has the standard army and fleet."""
    if raw is None:
        return dict(STANDARD_KINDS)
    kinds: dict[str, UnitKind] = {}
    for letter, value in _table(raw).items():
        where, spec = f"[units.{letter}]", _table(value)
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
    raw: object, problems: list[str]
) -> tuple[dict[frozenset[str], frozenset[str]], dict[frozenset[str], str]]:
    """``[[edges]] between = ["bam/nc", "sen"], tags = ["river"], source = "..."``: each
    border's tags, and the source of those that name one."""
    tags: dict[frozenset[str], frozenset[str]] = {}
    sources: dict[frozenset[str], str] = {}
    for entry in map(_table, raw if isinstance(raw, list) else ()):
        written = entry.get("between", [])
        ends = _words(written, f"[[edges]] {written!r}", problems)
        if len(ends) != 2:
            problems.append(f"[[edges]] {written!r}: between names two places")
            continue
        where = f"[[edges]] {' '.join(ends)}"
        tags[frozenset(ends)] = frozenset(_words(entry.get("tags"), f"{where}: tags", problems))
        if "source" in entry:
            sources[frozenset(ends)] = str(entry["source"])
    return tags, sources
