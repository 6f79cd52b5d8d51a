"""The shape the design asks for: variant names stay out of the judge's core, and each
module imports only from the modules above it in the data flow."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import hegemon
from hegemon.game import Variant
from hegemon.variants import available_variants, load_variant, load_variant_from

PACKAGE = Path(hegemon.__file__).parent
# rules.py is left out: its docstrings say which variant needs each hook, and that is the point.
CORE = [
    "board.py",
    "position.py",
    "orders.py",
    "notation.py",
    "legality.py",
    *(f"adjudication/{p.name}" for p in (PACKAGE / "adjudication").glob("*.py")),
    *(f"game/{p.name}" for p in (PACKAGE / "game").glob("*.py")),
]
VARIANT_WORDS = ["classic", "saharan", "africa", "african", "europe", "1615", "riots"]

# Each module may import only the modules listed before it.
LAYERS = [
    "board",
    "position",
    "orders",
    "notation",
    "rules",
    "legality",
    "adjudication",
    "influence",
    "game",
    "variants",
    "randomplay",
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
    rooms = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def _setup_data(variant: Variant) -> object:
    folder = PACKAGE / "variants" / variant.id
    if not folder.is_dir():
        folder = Path(__file__).parent / "variants" / variant.id
    return tomllib.loads((folder / "setup.toml").read_text(encoding="utf-8"))


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


def test_no_core_module_names_a_variants_orders_units_provinces_or_years() -> None:
    variants = _variants()
    standard = load_variant("classic")
    order_types = {kind.__name__ for v in variants for kind in v.order_types}
    unit_kinds = {k.name for v in variants for k in v.board.kinds.values()}
    unit_kinds -= {k.name for k in standard.board.kinds.values()}
    provinces = {p for v in variants for p in v.board.provinces}
    years = {y for v in variants for y in _years(_setup_data(v))}
    years -= _years(_setup_data(standard))  # 1901 is the standard game's, not a variant's
    assert {"Bid", "Deploy", "Place", "Declare"} <= order_types and "scout" in unit_kinds
    assert {"rom", "kas", "hil", "bam", "sue"} <= provinces and {1618, 1881, 2001} <= years
    for name in CORE:
        names, constants = _code_literals(ast.parse((PACKAGE / name).read_text(encoding="utf-8")))
        assert not names & order_types, f"{name} names orders of a variant: {names & order_types}"
        named = constants & (unit_kinds | provinces | years)
        assert not named, f"{name} names a variant's unit kind, province or year: {named}"
