"""Reading orders as game masters, players and the DATC write them.

Accepted, in any case: ``A Par - Bur``, ``A par-bur`` (or with an en or em dash for the
hyphen, as typeset texts write it), ``F NTH C A Lon - Bel``, ``A bud S A ser-rum``,
``F gas-spa/nc``, ``F Spa(sc)``, ``F Spa[sc]``, ``Fleet North Sea convoys Army London to
Belgium``, ``A lvp - edi via convoy``, ``A par R bur``, ``A par D``, ``Build A kie``,
``A kie B``, ``Remove F tri``, ``Waive``. Where a variant's rules allow units aboard others
and off the board: ``F OFFBOARD - sao``, ``P joh - OFFBOARD``, ``M sao - lus`` (the marine
aboard the fleet in Sao lands), ``M dca - F gog`` (it boards its fleet in Gog). A line may
begin with the power, ``England: F lon - nth``. A coast may be written by another name the
map gives it (``aliases`` of a coast).

A variant's own kinds of order read themselves (`Order.read`); `read_order` tries them
before the standard orders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, final

from hegemon.beyond import Embark
from hegemon.board import OFFBOARD, Board, UnitKind, province_of
from hegemon.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    ReadContext,
    Retreat,
    Support,
    Waive,
)
from hegemon.position import Unit


class OrderSyntaxError(ValueError):
    """An order that cannot be read; the message names the order and what is wrong."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text.strip()!r}: {reason}")


_MOVE = {"-", "->", "=>", "m", "move", "moves", "to", "mv"}
_OFFBOARD = {"offboard"}
_HOLD = {"h", "hold", "holds", "stand", "stands"}
_SUPPORT = {"s", "support", "supports", "sup"}
_CONVOY = {"c", "convoy", "convoys", "cvy"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands", "remove", "removes", "destroy"}
_BUILD = {"b", "build", "builds"}
_WAIVE = {"waive", "waives", "waived", "pass"}
_VIA = {"via", "by"}
_FILLER = {"convoy", "the", "of"}

_COAST_WORDS = {
    "nc": "nc", "n": "nc", "north": "nc", "north coast": "nc",
    "sc": "sc", "s": "sc", "south": "sc", "south coast": "sc",
    "ec": "ec", "e": "ec", "east": "ec", "east coast": "ec",
    "wc": "wc", "w": "wc", "west": "wc", "west coast": "wc",
}  # fmt: skip
_COAST = re.compile(
    r"\s*(?:/\s*|\(\s*|\[\s*)(north coast|south coast|east coast|west coast|north|south|east"
    r"|west|nc|sc|ec|wc|n|s|e|w)\s*[)\]]?(?=[\s\-=>]|$)",
    re.IGNORECASE | re.ASCII,  # ASCII only: a long s (U+017F) would match "s" otherwise
)
_TOKEN = re.compile(r"->|=>|-|[^\s\-]+")
# Signs typeset texts (rulebooks, forum posts) write for a move: en and em dashes, minus.
_DASHES = str.maketrans(dict.fromkeys("\u2013\u2014\u2212", "-"))


def _tokens(text: str) -> list[str]:
    # Fold "spa (north coast)", "spa(nc)", "spa[nc]" and "spa / nc" into one token "spa/nc".
    typed = text.strip().translate(_DASHES)
    folded = _COAST.sub(lambda m: "/" + _COAST_WORDS[m.group(1).lower()], typed)
    return [t.lower() for t in _TOKEN.findall(folded.replace(",", " ").replace(".", ". "))]


@dataclass
class _Reader:
    """A cursor over an order's tokens that reads units, places and keywords."""

    board: Board
    text: str
    tokens: list[str]
    at: int = 0

    def fail(self, reason: str) -> OrderSyntaxError:
        return OrderSyntaxError(self.text, reason)

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, words: Iterable[str]) -> str | None:
        word = self.peek()
        if word is not None and word in words:
            self.at += 1
            return word
        return None

    def unit_type(self) -> UnitKind | None:
        """The kind of unit written here, if any: ``A``, ``army``, ``F``, ``fleet``..."""
        words = self.board.unit_words
        word = self.take(words)
        return words[word] if word else None

    def location(self, what: str) -> str:
        """The longest run of tokens that names a province, with its coast if written; or
        OFFBOARD, the place of units off the board."""
        if self.take(_OFFBOARD):
            return OFFBOARD
        for end in range(min(len(self.tokens), self.at + 5), self.at, -1):
            words = [t for t in self.tokens[self.at : end] if t != "-"]
            if not words or self.tokens[end - 1] == "-":
                continue
            last, _, coast = words[-1].partition("/")
            spelled = " ".join([*words[:-1], last]).replace(". ", " ").rstrip(".")
            province = self.board.lookup(spelled)
            if province is not None:
                self.at = end
                return self._coast(province, coast) if coast else province
        word = self.peek()
        if word is None:
            raise self.fail(f"expected {what}, but the order ends there")
        raise self.fail(f"{word!r} is not a province on this map (expected {what})")

    def _coast(self, province: str, coast: str) -> str:
        location = self.board.coast_named(province, coast)
        if location is None:
            coasts = self.board.provinces[province].coasts
            known = f" (its coasts: {', '.join(coasts)})" if coasts else ""
            raise self.fail(f"{coast!r} is not a coast of {self.board.name_of(province)}{known}")
        return location

    def _where(self) -> str:
        word = self.peek()
        return f"at {word!r}" if word else "at the end"

    def end(self) -> None:
        if self.peek() is not None:
            rest = " ".join(self.tokens[self.at :])
            raise self.fail(f"unexpected {rest!r} at the end of the order")


def parse_order(text: str, board: Board, units: Mapping[str, Unit] | None = None) -> Order:
    """One order, without the power prefix. Raises OrderSyntaxError and nothing else.

    Where the order leaves out the unit type (``Remove par``, ``Par - Bur``), it is taken
    from the unit standing there in `units`, if given.
    """
    formatted = written_as_formatted(text, board)
    return formatted if formatted is not None else read_in_full(text, board, units)


def read_in_full(text: str, board: Board, units: Mapping[str, Unit] | None = None) -> Order:
    """One order, read word by word in any of the notations above: `parse_order` for any
    text not `written_as_formatted`."""
    reader = _Reader(board, text, _tokens(text))
    if not reader.tokens:
        raise reader.fail("the order is empty")
    if reader.take(_WAIVE):
        reader.end()
        return Waive()
    leading = reader.take(_BUILD) or reader.take(_DISBAND)
    written = reader.unit_type()
    location = reader.location("the unit's province")
    unit = written or _standing_type(reader, units, location)
    if leading:
        order: Order = Build(unit, location) if leading in _BUILD else Disband(unit, location)
        reader.end()
        return order
    order = _read_action(reader, unit, location)
    reader.end()
    return order


def written_as_formatted(text: str, board: Board) -> Order | None:
    """The order, if it is written as `Order.format` writes the standard orders (``A Par -
    Bur``, ``F Nth C A Lon - Bel``, ``A Bud S A Ser H``, ``Build F Stp/nc``) or as the
    ``diplomacy`` package does (``A PAR - BUR``, ``F MAO S A PAR``, ``A PAR - BUR VIA``,
    ``A PAR B``, ``WAIVE``); else None, for `read_in_full` to read, which reads these to
    the same orders. Most orders come so, from programs and players alike, and reading
    them this way needs no search for place names: a dict lookup a word
    (`Board.place_written`)."""
    if text == "Waive" or text == "WAIVE":
        return Waive()
    words = text.split(" ")
    count = len(words)
    if words[0] == "Build":
        if count != 3:
            return None
        kind = board.kind_lettered(words[1])
        location = _formatted_place(words, 2, board)
        return None if kind is None or location is None else Build(kind, location)
    if count < 3:
        return None
    kind = _formatted_kind(words[0], board)
    location = _formatted_place(words, 1, board)
    if kind is None or location is None:
        return None
    action = words[2]
    if action == "-":
        return _formatted_move(kind, location, words, board)
    if action == "S" or action == "C":
        return _formatted_support_or_convoy(action, kind, location, words, board)
    if action == "R" and count == 4:
        target = _formatted_target(words, 3, board)
        return None if target is None else Retreat(kind, location, target)
    if count != 3:
        return None
    if action == "H":
        return Hold(kind, location)
    if action == "D":
        return Disband(kind, location)
    return Build(kind, location) if action == "B" else None


# Words the full reader takes first, before a unit: a unit kind lettered so is not formatted.
_LEADING = _WAIVE | _BUILD | _DISBAND
_LEADING_LETTERS: Final = frozenset(word.upper() for word in _LEADING if len(word) == 1)
# How a move by convoy ends, as `Order.format` writes it and as the peer does.
_VIA_CONVOY = (["via", "Convoy"], ["VIA"])


def _formatted_kind(letter: str, board: Board) -> UnitKind | None:
    """The kind of unit a letter names at the start of an order, as `Order.format` writes
    it: not one the full reader would take for a build or a disband (a map's kinds are
    each one capital letter, so only a ``B`` or a ``D`` could be)."""
    return None if letter in _LEADING_LETTERS else board.kind_lettered(letter)


def _formatted_move(kind: UnitKind, location: str, words: list[str], board: Board) -> Move | None:
    """``A Par - Bur``, ``A Par - Bur via Convoy`` or ``A PAR - BUR VIA``."""
    count = len(words)
    if count < 4 or count > 6:
        return None
    target = _formatted_target(words, 3, board)
    if target is None:
        return None
    if count == 4:
        return Move(kind, location, target)
    return Move(kind, location, target, True) if words[4:] in _VIA_CONVOY else None


def _formatted_support_or_convoy(
    action: str, kind: UnitKind, location: str, words: list[str], board: Board
) -> Support | Convoy | None:
    """``A Bud S A Ser H`` (or the peer's ``A BUD S A SER``), ``A Bud S A Ser - Rum`` or
    ``F Nth C A Lon - Bel``."""
    count = len(words)
    if count < 5:
        return None
    other_kind = board.kind_lettered(words[3])
    other = _formatted_place(words, 4, board)
    if other_kind is None or other is None:
        return None
    if action == "S" and (count == 5 or (count == 6 and words[5] == "H")):
        return Support(kind, location, other, None, other_kind)
    if count != 7 or words[5] != "-":
        return None
    target = _formatted_target(words, 6, board)
    if target is None:
        return None
    if action == "S":
        return Support(kind, location, other, target, other_kind)
    return Convoy(kind, location, other, target, other_kind)


def _formatted_target(words: list[str], at: int, board: Board) -> str | None:
    """Where an order sends a unit, written after its ``-`` or ``R``: not ``to``, which
    the full reader takes for a filler (``- to Bur``), whatever the map names so."""
    word = words[at]
    if len(word) == 2 and word.lower() == "to":
        return None
    return _formatted_place(words, at, board)


def _formatted_place(words: list[str], at: int, board: Board) -> str | None:
    """The location the word at `at` names: one `Board.place_written` knows; else one
    word naming a province that a longer name begins with (``Mid``, of ``Mid-Atlantic
    Ocean``), if the words after it make no longer name, as the full reader would find
    (`_Reader.location`); else None."""
    word = words[at]
    location = board.place_written(word)
    if location is not None or not word.isalpha():
        return location
    province = board.lookup(word)
    if province is None:
        return None
    for end in range(min(len(words), at + 5), at + 1, -1):
        if words[end - 1] == "-":
            continue
        *run, last = [w for w in words[at:end] if w != "-"]
        if board.lookup(" ".join([*run, last.partition("/")[0]])) is not None:
            return None
    return province


# What an order of points (a bid, a deployment) may begin with before its colon: anything
# that looks like a number (``-1``, ``+1``, ``1.5``, ``1e3``), so that `read_points` says
# what is wrong with it rather than the order being read as some other kind. Digits are
# any script's (full-width, Arabic-Indic ...): each has one value, so a number written in
# them is as plain as in ASCII ones, and `int` reads it.
POINTS = r"[+-]?[\d.][\w.,+-]*"
_WHOLE_POINTS = re.compile(r"\d+")


def read_points(text: str, written: str, what: str) -> int:
    """A whole number of points as an order writes it, or an OrderSyntaxError naming the
    number and what is wrong with it (``-1``, ``1.5``, ``1e3``, a thousand digits)."""
    if not _WHOLE_POINTS.fullmatch(written):
        raise OrderSyntaxError(text, f"{what} is a whole number of points, not {written!r}")
    if len(written) > 9:
        raise OrderSyntaxError(text, f"{what} of {len(written)} digits is more than anyone has")
    return int(written)


def province_named(board: Board, text: str, written: str) -> str:
    """The province `written` names in the order `text` (a variant's own kind of order);
    an OrderSyntaxError naming the order if the map has none of that name."""
    province = board.lookup(written)
    if province is None:
        raise OrderSyntaxError(text, f"{written!r} is not a province on this map")
    return province


@final
class OrderReader:
    """How a variant reads its orders (`Variant.parse_order`): its own kinds first, each
    given what the variant lets it look up (`context`, made for each order); without
    kinds of its own, the standard orders from the board alone, with no context to make.
    Kept by the variant, so that reading an order asks it for nothing more."""

    def __init__(
        self,
        board: Board,
        kinds: tuple[type[Order], ...],
        context: Callable[[Mapping[str, Unit] | None], ReadContext],
    ) -> None:
        self.board: Final = board
        self.kinds: Final = kinds
        self.context: Final = context

    def read(self, text: str, units: Mapping[str, Unit] | None = None) -> Order:
        if not self.kinds:
            return parse_order(text, self.board, units)
        return read_order(text, self.context(units), self.kinds)


def read_order(text: str, context: ReadContext, kinds: Sequence[type[Order]] = ()) -> Order:
    """One order of the given kinds or a standard one, without the power prefix. Raises
    OrderSyntaxError and nothing else."""
    for kind in kinds:
        order = kind.read(text, context)
        if order is not None:
            return order
    return parse_order(text, context.board, context.units)


def _standing_type(reader: _Reader, units: Mapping[str, Unit] | None, location: str) -> UnitKind:
    standing = (units or {}).get(province_of(location))
    if standing is None:
        kinds = ", ".join(f"{k.letter} ({k.name})" for k in reader.board.kinds.values())
        raise reader.fail(f"say which unit: {kinds}")
    return standing.type


def _read_action(reader: _Reader, unit: UnitKind, location: str) -> Order:
    word = reader.peek()
    if word is None or reader.take(_HOLD):
        return Hold(unit, location)
    if reader.take(_MOVE):
        reader.take({"to"})  # "moves to"
        carrier = _carrier(reader)
        target = reader.location("the destination")
        if carrier is not None:
            return Embark(unit, location, target, carrier)
        return Move(unit, location, target, via_convoy=_via_convoy(reader))
    if reader.take(_SUPPORT):
        return _read_support(reader, unit, location)
    if reader.take(_CONVOY):
        return _read_convoy(reader, unit, location)
    if reader.take(_RETREAT):
        return Retreat(unit, location, reader.location("the retreat's destination"))
    if reader.take(_DISBAND):
        return Disband(unit, location)
    if reader.take(_BUILD):
        return Build(unit, location)
    raise reader.fail(f"{word!r} is not an order (expected H, -, S, C, R, D or B)")


def _carrier(reader: _Reader) -> UnitKind | None:
    """The kind of unit a move boards, if written before its province (``M Dca - F Gog``);
    a word that only looks like one, being the start of the province's name, is left."""
    start = reader.at
    kind = reader.unit_type()
    if kind is None:
        return None
    after = reader.at
    try:
        reader.location("the carrier's province")
    except OrderSyntaxError:
        reader.at = start
        return None
    reader.at = after  # the caller reads the province
    return kind


def _read_support(reader: _Reader, unit: UnitKind, location: str) -> Support:
    supported_unit = reader.unit_type()
    supported = reader.location("the supported unit's province")
    if reader.take(_MOVE):
        target = reader.location("the supported move's destination")
        return Support(unit, location, supported, target, supported_unit)
    reader.take(_HOLD)
    return Support(unit, location, supported, None, supported_unit)


def _read_convoy(reader: _Reader, unit: UnitKind, location: str) -> Convoy:
    convoyed_unit = reader.unit_type()
    convoyed = reader.location("the convoyed unit's province")
    if not reader.take(_MOVE):
        raise reader.fail("a convoy order needs the convoyed unit's move, e.g. 'C A Lon - Bel'")
    target = reader.location("the convoy's destination")
    return Convoy(unit, location, convoyed, target, convoyed_unit)


def _via_convoy(reader: _Reader) -> bool:
    if reader.take(_VIA):
        reader.take(_FILLER)
        return True
    return False


_POWER_LINE = re.compile(r"^\s*([A-Za-z][\w .'-]*?)\s*:\s*(.*)$")


def split_power(line: str) -> tuple[str | None, str]:
    """``"England: F lon - nth"`` -> ``("England", "F lon - nth")``; no prefix -> None."""
    match = _POWER_LINE.match(line)
    if match is None:
        return None, line.strip()
    return match.group(1), match.group(2).strip()


def order_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of an orders file, without comments, with line numbers."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield number, line
