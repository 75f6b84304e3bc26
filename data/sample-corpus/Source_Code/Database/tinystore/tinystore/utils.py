"""Helpers: value freezing, an LRU cache and a lock decorator."""

import functools
from collections import OrderedDict
from typing import Any, Hashable


def freeze(value: Any) -> Hashable:
    """Return a hashable version of a JSON-like value: dicts, lists and sets become frozen."""
    if isinstance(value, dict):
        return frozenset((key, freeze(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    if isinstance(value, set):
        return frozenset(freeze(item) for item in value)
    return value


class LRUCache:
    """A mapping of bounded size that evicts the least recently used entry."""

    def __init__(self, capacity: int = 32):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._data: "OrderedDict[Hashable, Any]" = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, default: Any = None) -> Any:
        """Return the cached value of the key and mark it as recently used."""
        if key in self._data:
            self._data.move_to_end(key)
            self.hits += 1
            return self._data[key]
        self.misses += 1
        return default

    def set(self, key: Hashable, value: Any) -> None:
        """Store a value, evicting least recently used entries beyond the capacity."""
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.capacity:
            self._data.popitem(last=False)

    def clear(self) -> None:
        """Drop every entry (the hit and miss counters are kept)."""
        self._data.clear()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)


def synchronized(method):
    """Decorator: run the method while holding the instance's _lock."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper
