"""What a variant is: its board and setup, its calendar of phases, and the hooks through
which its game differs from the standard one.

`Variant` is the standard game. A variant whose game differs subclasses it (in its own
folder of `hegemon.variants`) and overrides what it needs; the judge only ever sees the
`Variant` object, its `Rules` and the procedures of its calendar.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import ClassVar, NamedTuple, Self

from hegemon.board import Board, MapError
from hegemon.game.chance import Chance, Draw
from hegemon.game.ending import GameEnd, solo_winner
from hegemon.game.marks import NO_MARKS, Marks
from hegemon.game.phases import Calendar, seasons_calendar
from hegemon.notation import OrderReader
from hegemon.orders import Order, ReadContext
from hegemon.position import NO_STATE, Position, Season, Unit, VariantState, Viewer, read_unit
from hegemon.rules import STANDARD, Edition, Rules


@dataclass(frozen=True)
class Power:
    name: str
    adjective: str
    color: str
    home_centers: tuple[str, ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Owner:
    """An owner of units and centers whom no player plays (a minor power, a state): its
    name, the heading its units appear under in a report (its name, if none), and other
    names a file may give it. A variant reads its owners from its setup, once, into
    `Variant.owners`; the core names them and heads the reports by them."""

    name: str
    heading: str = ""
    aliases: tuple[str, ...] = ()


class Lines(NamedTuple):
    """A variant's own lines in the report of a phase: `public` ones for everyone,
    `private` ones for one power and the game master."""

    public: tuple[str, ...] = ()
    private: Mapping[str, tuple[str, ...]] = MappingProxyType({})


class Preparation(NamedTuple):
    """What a variant makes of a phase before it is resolved.

    `position` is the one to resolve: its state brought up to date (influence deployed),
    units that enter or leave before the moves already there. `orders` are what the
    adjudicator sees (players' orders, and orders for units nobody owns under their
    owners' names). `public` lines are for everyone, `private` ones for one power and the
    game master. `rules` are those that follow for this very phase, if they changed.
    `told`, if given, writes the `public` and `private` lines in their place when a
    report first reads them: a variant whose lines cost much of its phase to write
    spares that work where nobody reads them (random games, bots, benchmarks).
    """

    position: Position
    orders: Mapping[str, Sequence[Order]]
    public: tuple[str, ...] = ()
    private: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    rules: Rules | None = None
    told: Callable[[], Lines] | None = None


class Voice(NamedTuple):
    """An identity that press may be signed as without naming the power behind it (a
    state whose patron the rules keep anonymous): the power that may speak as it now
    (None when none may), and the rule that keeps private messages from being addressed
    to it (they would be read by that power alone, and so name it)."""

    speaker: str | None
    rule: str


class SetupError(ValueError):
    """Options or seats a variant cannot be played with; says which and why."""


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,12}")  # as an option's value is written


# An option's value: true or false, a whole number, or one of its choices.
OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """A game option a variant declares (``[options.NAME]`` in its setup): its kind of
    value (``int``, ``bool`` or ``choice``), its default, and the values it may take."""

    name: str
    kind: str
    default: OptionValue
    least: int | None = None
    most: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    KINDS: ClassVar[tuple[str, ...]] = ("int", "bool", "choice")

    @classmethod
    def from_setup(cls, name: str, spec: object) -> Option:
        """The option as a variant's setup declares it; a ValueError says what is wrong."""
        if not isinstance(spec, Mapping) or spec.get("type") not in cls.KINDS:
            raise ValueError(f"[options.{name}]: a table with type = {' or '.join(cls.KINDS)}")
        default = spec.get("default")
        option = cls(
            name,
            spec["type"],
            # A value of another type is refused just below, with the option's own words.
            default if isinstance(default, OptionValue) else "",
            spec.get("min"),
            spec.get("max"),
            tuple(spec.get("choices", ())),
            str(spec.get("help", "")),
        )
        problem = option.problem(default)
        if problem:
            raise ValueError(f"[options.{name}] default: {problem}")
        return option

    def value(self, given: object) -> OptionValue:
        """`given` as this option's value, or a SetupError saying why it cannot be one. A
        choice among numbers written as text may come as a number (``"edition": 2023``)."""
        if self.kind == "choice" and type(given) is int and str(given) in self.choices:
            given = str(given)
        problem = self.problem(given)
        if problem or not isinstance(given, OptionValue):
            raise SetupError(f"option {self.name}: {problem}")
        return given

    def read(self, text: str) -> OptionValue:
        """The option's value as a command line writes it (``12``, ``true``, ``2023``),
        read as the option's kind of value, or a SetupError saying why it cannot be one."""
        written = text.strip()
        if self.kind == "bool":
            return self.value({"true": True, "false": False}.get(written.lower(), written))
        if self.kind == "int":
            return self.value(int(written) if _WHOLE_NUMBER.fullmatch(written) else written)
        return self.value(next((c for c in self.choices if c.lower() == written.lower()), written))

    def problem(self, value: object) -> str | None:
        """Why `value` cannot be this option's value, if it cannot."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"expected true or false, not {value!r}"
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return None
            return f"expected one of {', '.join(self.choices)}, not {value!r}"
        least = -(10**9) if self.least is None else self.least
        most = 10**9 if self.most is None else self.most
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            return f"expected a whole number from {least} to {most}, not {value!r}"
        return None

    def describe(self) -> str:
        """``year_cap: a whole number from 0 to 100 (default 10)``, with its help."""
        if self.kind == "bool":
            values = "true or false"
        elif self.kind == "choice":
            values = f"one of {', '.join(self.choices)}"
        else:
            values = f"a whole number from {self.least} to {self.most}"
        default = json.dumps(self.default)
        return f"{self.name}: {values} (default {default})" + (
            f"; {self.help}" if self.help else ""
        )


@dataclass(frozen=True, eq=False)
class Variant:
    """A variant's board and setup, and the hooks through which its game differs.

    The defaults below are the standard game; a variant's subclass overrides what it needs.
    A `Variant` as loaded seats every power with the default options; `configure` gives
    the one a game is played with.
    """

    id: str
    board: Board
    powers: Mapping[str, Power]
    start_year: int
    victory_centers: int
    calendar: Calendar
    options: Mapping[str, OptionValue] = field(default_factory=dict)  # each option's value
    declared: Mapping[str, Option] = field(default_factory=dict)  # the options it has
    seats: tuple[int, int] = (0, 0)  # fewest and most players; (0, 0): every power, always
    owners: Mapping[str, Owner] = field(default_factory=dict)  # whom no player plays, by name
    rules_class: ClassVar[type[Rules]] = Rules  # its rules, where they hang on no game state
    title: str = ""  # its name as players know it, for pages and lists
    summary: str = ""  # one line on what sets it apart, for a gallery of variants

    @classmethod
    def from_setup(cls, id: str, board: Board, setup: Mapping[str, object], source: str) -> Self:
        """The variant from its map and its setup as TOML reads it; a MapError lists every
        problem of the setup. A variant reads its own tables here too."""
        problems: list[str] = []
        powers = _powers(board, setup, problems)
        game = setup_table(setup, "game", problems)
        seasons = _seasons(game.get("seasons", ("Spring", "Fall")), problems)
        declared = _options(setup, problems)
        seats = _seats(game.get("seats", [0, 0]), len(powers), problems)
        start_year = _whole(game, "start_year", 1901, problems)
        victory_centers = _whole(game, "victory_centers", len(board.centers) // 2 + 1, problems)
        title = _text(game, "title", id, problems)
        summary = _text(game, "summary", "", problems)
        if problems:
            raise MapError(source, problems)
        try:
            calendar = seasons_calendar(seasons, start_year)
        except ValueError as exc:
            raise MapError(source, [f"[game] seasons: {exc}"]) from exc
        return cls(
            id=id,
            board=board,
            powers=powers,
            start_year=start_year,
            victory_centers=victory_centers,
            calendar=calendar,
            options={name: option.default for name, option in declared.items()},
            declared=declared,
            seats=seats,
            title=title,
            summary=summary,
        )

    # --- a game's configuration ---------------------------------------------------------
    def configure(
        self, options: Mapping[str, object] | None = None, seats: Sequence[str] | None = None
    ) -> Self:
        """This variant as one game plays it: `options` override the defaults, and only
        the powers named in `seats` take part (all of them if None)."""
        configured = self
        if options:
            values = {name: self._option(name).value(given) for name, given in options.items()}
            configured = replace(configured, options={**self.options, **values})
        if seats is not None:
            configured = replace(configured, powers=self._seated(seats))
        return configured

    def read_options(self, written: Mapping[str, str]) -> dict[str, OptionValue]:
        """Options as a command line writes them (``year_cap=12``), each read as its
        declared kind of value; a SetupError names an unknown option or a wrong value."""
        return {name: self._option(name).read(text) for name, text in written.items()}

    def _option(self, name: str) -> Option:
        option = self.declared.get(name)
        if option is None:
            known = ", ".join(sorted(self.declared)) or "none"
            raise SetupError(f"{self.id} has no option {name!r} (options: {known})")
        return option

    def _seated(self, seats: Sequence[str]) -> dict[str, Power]:
        fewest, most = self.seats
        if not most:
            raise SetupError(f"{self.id} is played by all its powers: {', '.join(self.powers)}")
        if not fewest <= len(seats) <= most:
            raise SetupError(f"{self.id} seats {fewest} to {most} players, not {len(seats)}")
        seated = {}
        for spelling in seats:
            power = self.power_named(spelling)
            if power is None:
                raise SetupError(f"seat {spelling!r}: not a power of {self.id}")
            if power in seated:
                raise SetupError(f"seats: {power} is named twice")
            seated[power] = self.powers[power]
        return seated

    @property
    def seated(self) -> tuple[str, ...] | None:
        """The powers playing, when the game seats fewer than all; else None."""
        return tuple(self.powers) if self.seats[1] else None

    # --- the start ----------------------------------------------------------------------
    def initial_position(self) -> Position:
        """The position a game of this variant starts from."""
        units = {u.province: u for p in self.powers.values() for u in p.units}
        centers = {c: p.name for p in self.powers.values() for c in p.home_centers}
        return Position.create(self.calendar.first_phase(), units, centers)

    # --- its state ----------------------------------------------------------------------
    def read_state(self, data: Mapping[str, object]) -> VariantState:
        """The variant's state from its JSON (`VariantState.to_json`); a ValueError names
        the part that is wrong. The standard game keeps no state."""
        if data:
            raise ValueError(f"state: {self.id} keeps no state, but {sorted(data)} was given")
        return NO_STATE

    # --- orders -------------------------------------------------------------------------
    def read_context(self, units: Mapping[str, Unit] | None = None) -> ReadContext:
        """What its orders may name: the map, the units standing, the powers (variants
        add their own names, such as states)."""
        return ReadContext(self.board, units, {"power": self.power_named})

    def parse_order(self, text: str, units: Mapping[str, Unit] | None = None) -> Order:
        """One order as written (without the power): one of the kinds its calendar's
        procedures take beyond the standard ones (`Calendar.order_kinds`) or a standard
        one. Raises OrderSyntaxError naming the text and the reason."""
        return self._reader.read(text, units)

    @cached_property
    def _reader(self) -> OrderReader:
        # Each attribute read on a variant costs some 300 instructions, a tenth of reading
        # an order: the reader keeps what it needs, read once, and for the standard orders
        # makes no context for each order read (that took a fifth of reading one).
        return OrderReader(self.board, self.calendar.order_kinds, self.read_context)

    def commander_of(self, position: Position, unit: Unit) -> str | None:
        """The player whose orders the unit follows: its owner's, if a player owns it."""
        return unit.power if unit.power in self.powers else None

    def commanded_units(self, position: Position, power: str) -> list[Unit]:
        """The units whose orders `power` gives this phase."""
        if type(self).commander_of is Variant.commander_of:
            # Each unit its owner's: read by the compiled core, not asked unit by unit in
            # Python, for every power's menu of every phase.
            return position.units_of(power) if power in self.powers else []
        return [u for u in position.units.values() if self.commander_of(position, u) == power]

    def secret_commanders(self, position: Position) -> Mapping[str, str]:
        """Owners of units (not players) whose orders come from a power kept secret, with
        that power: a state whose patron the rules keep anonymous. Whose orders a phase
        has and awaits lists such an owner by its own name and never names the power;
        none by default."""
        return {}

    def given_for(self, order: Order) -> str | None:
        """The owner of `secret_commanders` an order is given for, if it is one of those
        orders (an order for such a state's units): it counts as that owner's, never as
        its sender's own."""
        return None

    def press_voices(self, position: Position) -> Mapping[str, Voice]:
        """The identities press may be signed as besides the powers' own, by name: in
        public press and to the game master only, who relays messages addressed to one
        to its speaker. None by default."""
        return {}

    def eliminated(self, position: Position, power: str) -> bool:
        """Whether the power is out of the game (it reads public press, but sends none):
        by the standard rules, once it has neither units nor centers after the opening
        (where one has, powers start with nothing and place their units)."""
        if position.phase.year < self.calendar.start_year:
            return False
        return not position.units_of(power) and not position.centers_of(power)

    def may_order(self, position: Position, power: str, unit: Unit) -> bool:
        """Whether `power` may send an order for this unit: its own, by default. A variant
        where orders to a state are followed only if it turns out aligned with the sender
        accepts them for any state's unit, so as to reveal nothing at submission."""
        return unit.power == power

    # --- the rules of adjudication --------------------------------------------------------
    def rules_for(self, position: Position) -> Rules:
        """The rules object adjudicating this position: the variant's `rules_class`, of the
        game's edition (a variant whose rules hang on the position builds them here)."""
        return self._standard_rules

    @property
    def edition(self) -> Edition:
        """The rulebook this game follows where rulebooks differ (the `edition` option)."""
        return Edition(str(self.options.get("edition", Edition.RULES_2000)))

    @cached_property
    def _standard_rules(self) -> Rules:
        if self.rules_class is Rules and self.edition is Edition.RULES_2000:
            return STANDARD
        return self.rules_class(self.edition)

    def rules_at_submission(self, position: Position, power: str) -> Rules:
        """The rules a power's orders are checked against when given: only what that power
        may know. Where the rules of the phase hang on what other powers do in secret, a
        variant checks against less and lets adjudication decide."""
        return self.rules_for(position)

    def home_centers(self, position: Position) -> Mapping[str, frozenset[str]]:
        """Each power's home centers now (some variants let powers name more)."""
        return self._setup_homes

    @cached_property
    def _setup_homes(self) -> Mapping[str, frozenset[str]]:
        return {p.name: frozenset(p.home_centers) for p in self.powers.values()}

    # --- steps around each phase ---------------------------------------------------------
    def chances(self, position: Position) -> tuple[Chance, ...]:
        """The draws the variant needs when this position's phase is played (its
        procedure may ask for others)."""
        return ()

    def prepare(
        self, position: Position, orders: Mapping[str, Sequence[Order]], draws: Mapping[str, Draw]
    ) -> Preparation:
        """The step before the phase is resolved (influence deployed, units entering)."""
        return Preparation(position, orders)

    def automatic_builds(self, position: Position) -> list[Unit]:
        """Units the variant builds by itself this winter, where their site is vacant."""
        return []

    def after_adjustments(self, position: Position, built: Sequence[Unit]) -> Position:
        """The position once a winter's builds are done (e.g. recording new home centers)."""
        return position

    def random_influence(
        self, position: Position, power: str, planned: Mapping[str, Order], rng: random.Random
    ) -> list[Order]:
        """What a random player adds to its orders in this variant's own economy, given an
        order `planned` for every unit: nothing by default."""
        return []

    # --- the end ------------------------------------------------------------------------
    def game_end(self, position: Position) -> GameEnd:
        """Asked after every phase: a solo victory needs the victory threshold and strictly
        more centers than anyone else."""
        return solo_winner(position.center_counts, self.victory_centers)

    def points(self, position: Position) -> Mapping[str, int]:
        """Each power's standing by what decides the game's end, as far as the position
        shows it: its centers, or its victory points in a variant scored by points. What a
        bot plays for, and what the benchmarks compare players by."""
        counts = position.center_counts
        return {power: counts.get(power, 0) for power in self.powers}

    # --- what each viewer reads -----------------------------------------------------------
    def report_group(self, power: str) -> str:
        """The heading an owner's orders and units appear under in the report: a power's
        name, or the heading of an owner nobody plays (`owners`)."""
        owner = self.owners.get(power)
        return owner.heading if owner is not None and owner.heading else power

    def standings(self, position: Position) -> list[str]:
        """Public lines the report adds after the centers, such as victory points."""
        return []

    def position_lines(self, position: Position, viewer: Viewer) -> list[str]:
        """Lines the board as text adds for this viewer (e.g. a power's own points)."""
        return []

    def report_lines(self, before: Position, after: Position, viewer: Viewer) -> list[str]:
        """Lines a phase's report adds for this viewer, from the position the phase began
        in and the one it led to (e.g. a power's points, when they change)."""
        return []

    def board_marks(self, position: Position, viewer: Viewer) -> Marks:
        """What the drawn board adds for this viewer: the variant's own facts as shades
        on provinces, tags under their labels and glyphs of units (a minor state's status
        and patron, a unit that never moves). Only what the viewer may see."""
        return NO_MARKS

    # --- names ------------------------------------------------------------------------
    def power_named(self, spelling: str) -> str | None:
        """The player's power for a name or adjective in any case ("england", "English")."""
        return self._power_spellings.get(spelling.strip().lower())

    @cached_property
    def _power_spellings(self) -> Mapping[str, str]:
        """Each power by its name and its adjective in lower case: the first power's if
        two powers share a spelling. (A file names the powers of every unit and center.)"""
        spellings: dict[str, str] = {}
        for power in self.powers.values():
            for spelling in (power.name, power.adjective):
                spellings.setdefault(spelling.lower(), power.name)
        return spellings

    def owner_named(self, spelling: str) -> str | None:
        """Whoever may own units and centers, in any case: an owner nobody plays (`owners`,
        by its name or another) or a player's power."""
        return self._owner_spellings.get(spelling.strip().casefold()) or self.power_named(spelling)

    @cached_property
    def _owner_spellings(self) -> Mapping[str, str]:
        return {
            spelling.casefold(): owner.name
            for owner in self.owners.values()
            for spelling in (owner.name, *owner.aliases)
        }


# Every variant has this option; its setup may declare it anew with another default.
EDITION = Option(
    "edition",
    "choice",
    Edition.RULES_2000.value,
    choices=tuple(e.value for e in Edition),
    help="the rulebook where the 2000 and 2023 rules differ (DATC 2.4 or 3.0, docs/datc.md)",
)


def _seasons(written: object, problems: list[str]) -> tuple[Season, ...]:
    """The movement seasons a setup names (``["Spring", "Summer", "Fall"]``), each by its
    name (its letter in phase codes is the name's first) or as a table with its letter
    (``{ name = "Monsoon", letter = "N" }``): no season needs the core to know it."""
    seasons = []
    for entry in written if isinstance(written, list | tuple) else [written]:
        name, letter = entry, ""
        if isinstance(entry, Mapping):
            name, letter = entry.get("name"), entry.get("letter", "")
        try:
            if not isinstance(name, str) or not isinstance(letter, str):
                raise ValueError(f"a name or a table with a name and a letter, not {entry!r}")
            seasons.append(Season.named(name, letter))
        except ValueError as exc:
            problems.append(f"[game] seasons: {exc}")
    return tuple(seasons)


def setup_table(setup: Mapping[str, object], key: str, problems: list[str]) -> Mapping[str, object]:
    """The table `key` of a setup as TOML reads it (empty if it has none); a problem if
    it is no table."""
    table = setup.get(key, {})
    if isinstance(table, Mapping):
        return table
    problems.append(f"[{key}]: a table, not {table!r}")
    return {}


def _whole(table: Mapping[str, object], key: str, default: int, problems: list[str]) -> int:
    value = table.get(key, default)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    problems.append(f"[game] {key}: a whole number, not {value!r}")
    return default


def _text(table: Mapping[str, object], key: str, default: str, problems: list[str]) -> str:
    value = table.get(key, default)
    if isinstance(value, str):
        return value
    problems.append(f"[game] {key}: text, not {value!r}")
    return default


def _seats(written: object, powers: int, problems: list[str]) -> tuple[int, int]:
    """The fewest and the most players a game seats; (0, 0): every power, always."""
    if isinstance(written, list) and len(written) == 2 and all(type(n) is int for n in written):
        fewest, most = written
        if (fewest, most) == (0, 0) or 0 < fewest <= most <= powers:
            return fewest, most
    problems.append(f"[game] seats: the fewest and the most players, not {written!r}")
    return 0, 0


def _options(setup: Mapping[str, object], problems: list[str]) -> dict[str, Option]:
    declared = {EDITION.name: EDITION}
    for name, spec in setup_table(setup, "options", problems).items():
        try:
            declared[name] = Option.from_setup(name, spec)
        except ValueError as exc:
            problems.append(str(exc))
    return declared


def _powers(board: Board, setup: Mapping[str, object], problems: list[str]) -> dict[str, Power]:
    powers: dict[str, Power] = {}
    for power_name, spec in setup_table(setup, "powers", problems).items():
        if not isinstance(spec, Mapping):
            problems.append(f"[powers.{power_name}]: a table, not {spec!r}")
            continue
        homes = tuple(spec.get("home", ()))
        for center in homes:
            if center not in board.provinces or not board.provinces[center].center:
                problems.append(f"{power_name}: home {center!r} is not a supply center")
        units = [starting_unit(board, power_name, text, problems) for text in spec.get("units", ())]
        powers[power_name] = Power(
            name=power_name,
            adjective=str(spec.get("adjective", power_name)),
            color=str(spec.get("color", "#888888")),
            home_centers=homes,
            units=tuple(u for u in units if u is not None),
        )
    if not powers:
        problems.append("no [powers] defined")
    return powers


def starting_unit(board: Board, power: str, text: str, problems: list[str]) -> Unit | None:
    try:
        return read_unit(board, power, text)
    except ValueError as exc:
        problems.append(f"{power}: starting {exc}")
        return None
