"""Reading the JSON that jsonio writes (objects and lists of `object`), checked at each step,
so that a test reaches into it typed, and fails saying where the shape was not as expected."""

from __future__ import annotations


def at(data: object, *path: str | int) -> object:
    """The value at `path`: a key of an object, or an index into a list, at each step."""
    for step in path:
        if isinstance(step, str):
            assert isinstance(data, dict), f"{step!r}: {data!r} is not an object"
            data = data[step]
        else:
            assert isinstance(data, list), f"[{step}]: {data!r} is not a list"
            data = data[step]
    return data


def obj(data: object, *path: str | int) -> dict[str, object]:
    """The object at `path`."""
    found = at(data, *path)
    assert isinstance(found, dict), f"{'/'.join(map(str, path))}: {found!r} is not an object"
    return found
