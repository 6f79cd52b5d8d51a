"""Work the server keeps rather than repeats on every request: the values read most
recently, a bounded number of them, shared by the threads that serve requests.

What is kept is made from what its key names alone (a position's digest, a viewer, a
power), so a value kept is never stale, and a key names whoever may read it, so a value
is never shown to another."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """Values by key, the most recently read last, at most `most` of them."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for the key, else `make()`'s, kept."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        # Made outside the lock: two threads may make the same value at once, and both
        # get one; none waits on another's making.
        value = make()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._most:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
