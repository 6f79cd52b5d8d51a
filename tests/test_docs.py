"""docs/writing-a-variant.md follows the code: its code blocks run as they are, every
hook its tables name is the code's, with the code's parameters, and the tables of the
rules' hooks and of a phase kind's methods leave none out; and no page of the docs links
to what a clone lacks."""

from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hegemon.game import Procedure, Variant
from hegemon.position import VariantState
from hegemon.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "writing-a-variant.md"
TEXT = GUIDE.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", TEXT, re.MULTILINE | re.DOTALL)
# The sections whose table lists the hooks of a class, by the number of their heading.
TABLES: dict[str, type] = {"2": Variant, "3": Rules, "4": Procedure}
_HOOK = re.compile(r"`(\w+)(?:\(([^)]*)\))?`")


@pytest.mark.parametrize("number", range(1, len(BLOCKS) + 1))
def test_each_code_block_runs(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the blocks load the tests' variant by its path
    module = ModuleType(f"guide_block_{number}")  # a module of its own, as an author's
    monkeypatch.setitem(sys.modules, module.__name__, module)
    where = f"{GUIDE.name}, code block {number}"
    # dont_inherit: the block runs without this file's `from __future__ import annotations`.
    exec(compile(BLOCKS[number - 1], where, "exec", dont_inherit=True), module.__dict__)


def test_the_guide_has_its_code_blocks() -> None:
    assert len(BLOCKS) >= 6


def _section(number: str) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## |\Z)", TEXT, re.MULTILINE | re.DOTALL)
    assert match, f"no section {number}"
    return match.group(0)


def _table_hooks(number: str) -> dict[str, list[str] | None]:
    """The hooks named in the first column of a section's table, with their parameters
    where the table writes them."""
    hooks: dict[str, list[str] | None] = {}
    for line in _section(number).splitlines():
        if line.startswith("| `"):
            for match in _HOOK.finditer(line.split("|")[1]):
                written = match.group(2)
                params = None if written is None else [p.strip() for p in written.split(",")]
                hooks[match.group(1)] = [p for p in params if p] if params is not None else None
    return hooks


def _declares(cls: type, name: str) -> bool:
    """Whether the class has the attribute, or declares it for subclasses to set."""
    return hasattr(cls, name) or any(name in _annotated(c) for c in cls.__mro__)


def _annotated(cls: type) -> set[str]:
    """The names a class of Hegemon annotates in its body, read from its source: a
    compiled class keeps no `__annotations__`."""
    if not cls.__module__.startswith("hegemon."):
        return set()
    path = (ROOT / "src" / Path(*cls.__module__.split("."))).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = next(n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return {
        n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


@pytest.mark.parametrize("number", TABLES)
def test_each_hook_the_tables_name_is_the_codes(number: str) -> None:
    cls = TABLES[number]
    hooks = _table_hooks(number)
    assert len(hooks) > 10
    for name, params in hooks.items():
        assert _declares(cls, name), f"section {number}: {cls.__name__} has no {name}"
        if params is not None:
            signature = inspect.signature(getattr(cls, name))
            actual = [p for p in signature.parameters if p not in ("self", "cls")]
            assert params == actual, f"section {number}: {name}({', '.join(actual)})"


@pytest.mark.parametrize(("number", "cls"), [("3", Rules), ("4", Procedure)])
def test_the_tables_of_hooks_leave_none_out(number: str, cls: type) -> None:
    hooks = set(_table_hooks(number))
    public = {name for name in vars(cls) if not name.startswith("_") and name != "edition"}
    assert public - hooks == set(), f"section {number} leaves out {sorted(public - hooks)}"


# The base classes a variant subclasses, as the guide's table of what an author meets
# names them.
BASES: dict[str, type] = {"Variant": Variant, "Rules": Rules, "VariantState": VariantState}


def _public_members(cls: type) -> set[str]:
    """What a subclass meets of the class: its public attributes, methods and fields
    (read from the source for the names a compiled class only annotates)."""
    return {n for n in (*vars(cls), *_annotated(cls)) if not n.startswith("_")}


def _author_meets() -> dict[str, tuple[set[str], int]]:
    """The guide's table of what an author meets: each class's members and their count."""
    section = re.search(r"^## What an author meets\n.*?(?=^## )", TEXT, re.MULTILINE | re.DOTALL)
    assert section, "no section 'What an author meets'"
    table: dict[str, tuple[set[str], int]] = {}
    for line in section.group(0).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[2].isdigit():
            name = re.match(r"`(\w+)`", cells[0])
            assert name, line
            table[name.group(1)] = (set(re.findall(r"`(\w+)`", cells[1])), int(cells[2]))
    return table


def test_the_guide_counts_what_an_author_meets() -> None:
    table = _author_meets()
    assert set(table) == set(BASES)
    total = re.search(r"all their public members:\s+\*\*(\d+)\*\*", TEXT)
    assert total and int(total.group(1)) == sum(count for _, count in table.values())
    for name, (listed, count) in table.items():
        assert len(listed) == count, f"{name}: {count} counted, {len(listed)} listed"


@pytest.mark.parametrize("name", BASES)
def test_no_base_class_grows_past_what_the_guide_counts(name: str) -> None:
    # A new hook on a base class is one more member every variant author meets: the guide
    # says so first, and says why the rule cannot live in the one variant that needs it.
    listed, count = _author_meets()[name]
    members = _public_members(BASES[name])
    assert members <= listed, f"{name} has members the guide does not list: {members - listed}"
    assert len(members) <= count


# Every page of the documentation a clone holds.
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
# A link's target, and a path written as code that climbs out of its folder.
_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
_CLIMBING_PATH = re.compile(r"`(\.\./[^`\s]*)`")


def _outside(page: Path) -> list[str]:
    """The links and paths of a page that name what a clone lacks: a link (not a web
    address) to a file that is not in the repository, or a path written as code, which the
    pages write from the repository's root, that climbs out of it."""
    text = page.read_text(encoding="utf-8")
    links = [t for t in _LINK.findall(text) if not re.match(r"[a-z]+:", t)]
    missing = [t for t in links if not _within((page.parent / t).resolve())]
    return missing + [t for t in _CLIMBING_PATH.findall(text) if not _within((ROOT / t).resolve())]


def _within(path: Path) -> bool:
    return path.is_relative_to(ROOT) and path.exists()


def test_no_page_links_outside_the_repository() -> None:
    assert len(PAGES) > 10
    found = {str(p.relative_to(ROOT)): _outside(p) for p in PAGES}
    assert {page: targets for page, targets in found.items() if targets} == {}
