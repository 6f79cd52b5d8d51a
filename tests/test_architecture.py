"""The shape the design asks for: variant names stay out of the judge's core, and each
module imports only from the modules above it in the data flow."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import hegemon
from hegemon.game import Variant
from hegemon.variants import available_variants, load_variant, load_variant_from

PACKAGE = Path(hegemon.__file__).parent
# The modules that name no variant at all. rules.py is left out: its docstrings say which
# variant needs each hook, and that is the point; the modules around the core (the CLI,
# the boards, the DATC) name the standard game as their default.
CORE = [
    "convoys.py",
    "board.py",
    "mapcheck.py",
    "mapfile.py",
    "position.py",
    "orders.py",
    "reasons.py",
    "beyond.py",
    "notation.py",
    "legality.py",
    *(f"adjudication/{p.name}" for p in (PACKAGE / "adjudication").glob("*.py")),
    *(f"game/{p.name}" for p in (PACKAGE / "game").glob("*.py")),
]
VARIANT_WORDS = ["classic", "saharan", "africa", "african", "europe", "1615", "riots"]

# Each module may import only the modules listed before it.
LAYERS = [
    "files",
    "convoys",
    "board",
    "mapcheck",
    "mapfile",
    "position",
    "orders",
    "reasons",
    "rules",
    "beyond",
    "notation",
    "legality",
    "adjudication",
    "influence",
    "game",
    "variants",
    "randomplay",
    "bots",
    "report",
    "render",
    "jsonio",
    "gamefile",
    "datc",
    "demo",
    "store",
    "server",
    "cli",
]


def test_no_variant_is_named_in_the_core() -> None:
    for name in CORE:
        text = (PACKAGE / name).read_text(encoding="utf-8").lower()
        named = [word for word in VARIANT_WORDS if word in text]
        assert not named, f"{name} names a variant: {named}"


def _imported_rooms(path: Path) -> set[str]:
    """The rooms a module imports at run time. Names imported for annotations alone (under
    ``if TYPE_CHECKING:``) are left out: the protocol of orders that adjudicate themselves
    (`orders.OwnOrder`) names the resolver's records it is handed, from below."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    rooms = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hegemon"):
            parts = node.module.split(".")
            rooms.add(parts[1] if len(parts) > 1 else node.names[0].name)
    return rooms


def test_each_room_uses_only_the_rooms_above_it() -> None:
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).parts
        room = relative[0].removesuffix(".py")
        if room not in LAYERS:
            continue
        allowed = set(LAYERS[: LAYERS.index(room) + 1])
        stray = _imported_rooms(path) - allowed
        assert not stray, f"{'/'.join(relative)} imports {stray} from below it"


# --- what belongs to a variant stays in its folder -------------------------------------------


def _variants() -> list[Variant]:
    """Every variant but the standard game, the tests' own included."""
    shipped = [load_variant(name) for name in available_variants() if name != "classic"]
    return [*shipped, load_variant_from(Path(__file__).parent / "variants" / "outposts")]


def _years(data: object) -> set[int]:
    """Every year a variant's setup names, as a value or as a key."""
    if isinstance(data, dict):
        keys = {int(k) for k in data if k.isdigit() and 1000 <= int(k) <= 3000}
        return keys | {y for v in data.values() for y in _years(v)}
    if isinstance(data, list):
        return {y for v in data for y in _years(v)}
    return {data} if isinstance(data, int) and 1000 <= data <= 3000 else set()


def _folder(variant: Variant) -> Path:
    """Where the variant's data and code live: shipped, or the tests' own."""
    folder = PACKAGE / "variants" / variant.id
    return folder if folder.is_dir() else Path(__file__).parent / "variants" / variant.id


def _setup_data(variant: Variant) -> object:
    return tomllib.loads((_folder(variant) / "setup.toml").read_text(encoding="utf-8"))


def _code_literals(tree: ast.AST) -> tuple[set[str], set[object]]:
    """The names a module's code uses and the constants it writes, docstrings aside."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    names: set[str] = set()
    constants: set[object] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name)
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            constants.add(node.value)
    return names, constants


# Module-level words that are also a province id of some variant, and why they are no
# province there: the check reads constants, not meanings.
ORDINARY_WORDS = {
    ("cli/tools.py", "map"): "the `hegemon map` command (and Maputo's id in two variants)",
    ("cli/manual.py", "map"): "the `hegemon map` command's help page",
    ("render/stored.py", "geo"): "a key of stored territories' JSON (and Georgia's id)",
    ("server/app.py", "loc"): "where pydantic says a field is (and a province's id)",
    ("server/routes/master.py", "loc"): "where pydantic says an imported body's field is",
    ("bots/player.py", "bot"): "the kind of player the bot is (and the Gulf of Bothnia's id)",
    ("cli/reading.py", "bot"): "the `hegemon bot` command",
    ("cli/manual.py", "bot"): "the `hegemon bot` command's help page",
}


def _outside_variants() -> list[Path]:
    """Every module of the judge but the variants' own folders."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "variants")


def _defined_classes(tree: ast.AST) -> set[str]:
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def test_no_module_outside_the_variants_names_their_orders_units_provinces_or_years() -> None:
    variants = _variants()
    standard = load_variant("classic")
    order_types = {kind.__name__ for v in variants for kind in v.calendar.order_kinds}
    unit_kinds = {k.name for v in variants for k in v.board.kinds.values()}
    unit_kinds -= {k.name for k in standard.board.kinds.values()}
    provinces = {p for v in variants for p in v.board.provinces}
    years = {y for v in variants for y in _years(_setup_data(v))}
    years -= _years(_setup_data(standard))  # 1901 is the standard game's, not a variant's
    assert {"Bid", "Deploy", "Place", "Declare"} <= order_types and "scout" in unit_kinds
    assert {"rom", "kas", "hil", "bam", "sue"} <= provinces and {1618, 1881, 2001} <= years
    allowed_seen = set()
    # The influence economies define their orders (bids, INFs) in one module, read by their
    # rules beside it: the economy's own modules may name them.
    economies = _defined_classes(ast.parse((PACKAGE / "influence/orders.py").read_text("utf-8")))
    for path in _outside_variants():
        name = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names, constants = _code_literals(tree)
        # The module that defines an order type may name it.
        defined = _defined_classes(tree) | (economies if name.startswith("influence/") else set())
        named_orders = names & order_types - defined
        assert not named_orders, f"{name} names orders of a variant: {named_orders}"
        named = constants & (unit_kinds | provinces | years)
        allowed = {word for word in named if (name, word) in ORDINARY_WORDS}
        allowed_seen |= {(name, word) for word in allowed}
        named -= allowed
        assert not named, f"{name} names a variant's unit kind, province or year: {named}"
    assert allowed_seen == set(ORDINARY_WORDS), "an ordinary word is no longer written there"


def test_no_variants_code_names_a_year_or_province_of_its_data() -> None:
    # Data over code: a deadline year or a holy city is read from the variant's data, so
    # that the data alone says it (Europe 1615's 1618 and 1620 were Python defaults).
    checked = 0
    for variant in _variants():
        facts = _years(_setup_data(variant)) | set(variant.board.provinces)
        for path in _folder(variant).rglob("*.py"):
            _, constants = _code_literals(ast.parse(path.read_text(encoding="utf-8")))
            named = constants & facts
            assert not named, f"{variant.id}'s {path.name} names its data's {named}"
            checked += 1
    assert checked > 10


# The server renders the core's order forms: it knows no variant, no variant's economy and
# no order's notation (issue 25). Its word list of common passwords is no code.
SERVER_FILES = [
    p for p in (PACKAGE / "server").rglob("*") if p.suffix in {".py", ".js", ".html", ".css"}
]
ECONOMY = re.compile(
    r"\b(sub_saharan|europe_1615|africa_ii|african_diplomacy_ii|african_riots|classic"
    r"|bids?|bidding|ranked)\b|hegemon\.influence|\bdp\.|\binf\.",
    re.IGNORECASE,
)
POINTS = re.compile(r"\b(DP|INFs?|IPs?)\b")  # the economies' points (a client's "ip" is none)
ORDER_SYNTAX = re.compile(
    r"OFFBOARD"  # the edge of the board
    r"|\b[AF] [A-Z][a-z]{2}\b"  # a unit as orders name it: "A Par"
    r"|[\"'`] [-SCHR>] [\"'`]"  # a move, support, convoy, hold, retreat, attack put together
    r"|\)\}: \$\{|\} > \$\{"  # points or an attack put together: `${points()}: ${order}`
)


def test_the_server_names_no_variant_economy_or_order_syntax() -> None:
    for path in SERVER_FILES:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE)
        assert not ECONOMY.findall(text), f"{where} names {ECONOMY.findall(text)}"
        assert not POINTS.findall(text), f"{where} names {POINTS.findall(text)}"
        assert not ORDER_SYNTAX.findall(text), f"{where} writes {ORDER_SYNTAX.findall(text)}"


def test_the_server_test_finds_what_it_looks_for() -> None:
    """The patterns catch the words and the notation the pages once held."""
    assert ECONOMY.search("from hegemon.influence import dp") and ECONOMY.search("Bid on A Bra")
    assert ECONOMY.search("menu.key.startsWith('ranked')") and POINTS.search("3 INFs")
    for written in ("`${points()}: ${o}`", "`${state} > ${power}`", '"A Par - Bur"', "' - '"):
        assert ORDER_SYNTAX.search(written), written
