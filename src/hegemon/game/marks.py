"""What a variant adds to the drawn board: marks on provinces and units, each with the
legend's words for it, for one position as one viewer may see it.

The drawing knows provinces, centers and units; a variant's own facts (a state's status
and patron, its religion, a unit that never moves) reach it only through these marks,
which the variant makes from what the viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Pattern(StrEnum):
    """How a shade covers a province's region."""

    FILL = "fill"  # the whole region, in a light tint of the colour
    HATCH = "hatch"  # diagonal lines in the colour
    BACK_HATCH = "backhatch"  # diagonal lines leaning the other way, to tell two like colours
    CROSSHATCH = "crosshatch"  # crossed lines in the colour
    DOTS = "dots"  # dots in the colour


@dataclass(frozen=True)
class Shade:
    """One way of marking provinces, with what the legend says of it."""

    meaning: str  # "aligned with France"
    color: str  # "#1f4fbf"
    pattern: Pattern = Pattern.FILL


@dataclass(frozen=True)
class Marks:
    """A variant's marks on one position, for one viewer."""

    shades: Mapping[str, tuple[Shade, ...]] = field(default_factory=dict)  # by province
    tags: Mapping[str, str] = field(default_factory=dict)  # a short text under a province's label
    notes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # lines to read on request
    glyphs: Mapping[str, str] = field(default_factory=dict)  # a unit's glyph, by its province
    captions: Mapping[str, str] = field(default_factory=dict)  # the text on a unit, by province
    glyph_meanings: Mapping[str, str] = field(default_factory=dict)  # legend: glyph -> words
    key: tuple[str, ...] = ()  # lines the legend prints to explain the tags and shades
    # The centers the legend counts for each power, where a power's are not those it owns
    # (the states' it controls, in a variant whose players own none); None: those it owns.
    centers: Mapping[str, int] | None = None


NO_MARKS = Marks()
