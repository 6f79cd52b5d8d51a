"""The variants: each a folder of data (map.toml, setup.toml) beside this module, with an
``__init__.py`` defining ``VARIANT``, a subclass of `hegemon.game.Variant`, where its game
differs from the standard one. This package and those folders are the only places where
a variant's name appears.

The installed variants are the folders of this package and those other packages register
under the entry point group ``hegemon.variants`` (the entry point names the variant's
package, a folder of the same shape). `load_variant("classic")` reads an installed
variant by its name, once, and never takes a path; `load_variant_from(folder)` reads one
from any folder, for a variant's author trying it before it is installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import tomllib
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType

from hegemon.board import MapError
from hegemon.game import Variant
from hegemon.mapfile import load_board

VARIANTS_DIR = Path(__file__).parent


class UnknownVariant(LookupError):
    def __init__(self, name: str) -> None:
        known = ", ".join(available_variants())
        super().__init__(f"unknown variant {name!r} (known: {known})")


def available_variants() -> list[str]:
    return sorted(_installed())


@cache
def _installed() -> dict[str, Path]:
    """Every installed variant's folder, by name: this package's, then other packages'."""
    folders = {p.parent.name: p.parent for p in VARIANTS_DIR.glob("*/map.toml")}
    for entry in entry_points(group="hegemon.variants"):
        if entry.name not in folders:
            folders[entry.name] = _entry_folder(entry)
    return folders


def _entry_folder(entry: EntryPoint) -> Path:
    module = importlib.import_module(entry.value)
    return Path(str(module.__file__)).parent


@cache
def load_variant(name: str) -> Variant:
    """An installed variant by its name, such as ``classic`` (never a path)."""
    folder = _installed().get(name)
    if folder is None:
        raise UnknownVariant(name)
    return load_variant_from(folder)


def load_variant_from(folder: Path) -> Variant:
    """The variant whose data and code are in `folder`; its id is the folder's name.
    Raises MapError listing every problem of its data."""
    board = load_board(folder / "map.toml")
    setup_path = folder / "setup.toml"
    try:
        setup = tomllib.loads(setup_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(setup_path), [str(exc)]) from exc
    return _variant_class(folder).from_setup(folder.name, board, setup, str(setup_path))


def _variant_class(folder: Path) -> type[Variant]:
    if not (folder / "__init__.py").is_file():
        return Variant
    if folder.parent == VARIANTS_DIR:
        module = importlib.import_module(f"{__name__}.{folder.name}")
    else:
        module = _import_folder(folder)
    variant_class = getattr(module, "VARIANT", None)
    if not (isinstance(variant_class, type) and issubclass(variant_class, Variant)):
        raise MapError(str(folder / "__init__.py"), ["VARIANT must name a subclass of Variant"])
    return variant_class


def _import_folder(folder: Path) -> ModuleType:
    """A variant's code from outside the package, imported as a package of its own unless
    it is imported already (a test may have imported it under its own name)."""
    code = (folder / "__init__.py").resolve()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path is not None and Path(path).resolve() == code:
            return module
    name = f"hegemon_variant_{folder.name}"
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise MapError(str(folder), ["cannot import its __init__.py"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while they are made
    spec.loader.exec_module(module)
    return module
