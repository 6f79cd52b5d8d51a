"""Reading an influence ledger back from a saved game: every field's type checked, each
failure a ValueError naming the field's path (``state.ledger.inf.sax``) and the reason.
Each check takes the value as read from JSON, an `object`, and gives it back typed."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

from mypy_extensions import mypyc_attr

K = TypeVar("K")
V = TypeVar("V")
Check = Callable[[str, object], V]  # a check of one value, by where it is and what it is


@mypyc_attr(allow_interpreted_subclasses=True)  # the variants' ledgers make their own
class FieldChecker:
    """Checks of a saved ledger's values, against the powers and states a variant has;
    `where` is the path the messages name (``state.ledger``)."""

    def __init__(self, where: str, powers: Collection[str], states: Collection[str]) -> None:
        self.where, self.powers, self.states = where, powers, states

    def fail(self, path: str, reason: str) -> ValueError:
        return ValueError(f"{self.where}.{path}: {reason}")

    def fields(
        self, data: Mapping[str, object], names: Collection[str], only: bool = False
    ) -> None:
        """That every field named is there (and, if `only`, no other)."""
        missing = [name for name in names if name not in data]
        if missing:
            raise ValueError(f"{self.where}: field {missing[0]!r} missing")
        unknown = sorted(set(data) - set(names)) if only else []
        if unknown:
            raise ValueError(f"{self.where}: unknown field {unknown[0]!r}")

    def list_(self, where: str, value: object) -> list[object]:
        if not isinstance(value, list):
            raise self.fail(where, "expected a list")
        return value

    def table(self, where: str, value: object, key: Check[K], item: Check[V]) -> dict[K, V]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "expected an object")
        return {key(where, k): item(f"{where}.{k}", v) for k, v in value.items()}

    def names(self, where: str, value: object, item: Check[V]) -> list[V]:
        return [item(where, v) for v in self.list_(where, value)]

    def power(self, where: str, value: object) -> str:
        if not isinstance(value, str) or value not in self.powers:
            raise self.fail(where, f"{value!r} is not a power")
        return value

    def state(self, where: str, value: object) -> str:
        if not isinstance(value, str) or value not in self.states:
            raise self.fail(where, f"{value!r} is not a state")
        return value

    def text(self, where: str, value: object) -> str:
        if not isinstance(value, str):
            raise self.fail(where, "expected a name")
        return value

    def count(self, where: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**6:
            raise self.fail(where, "expected a whole number from 0")
        return value

    def count_by_power(self, where: str, value: object) -> dict[str, int]:
        return self.table(where, value, self.power, self.count)
