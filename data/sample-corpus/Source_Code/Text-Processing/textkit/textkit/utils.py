"""Small helpers shared across textkit."""

import functools
from typing import Iterable, Iterator, List, TypeVar

T = TypeVar("T")


def memoize(func):
    """Cache the results of a function of hashable positional arguments."""
    cache = {}

    @functools.wraps(func)
    def wrapper(*args):
        if args not in cache:
            cache[args] = func(*args)
        return cache[args]

    wrapper.cache = cache
    wrapper.cache_clear = cache.clear
    return wrapper


def chunked(items: Iterable[T], size: int) -> Iterator[List[T]]:
    """Yield successive lists of at most size items from the iterable."""
    if size < 1:
        raise ValueError("size must be a positive integer")
    chunk: List[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def dedupe(items):
    """Return the items without duplicates, keeping the first occurrence order."""
    seen = set()
    result = []
    for item in items:
        if item not in seen:
            seen.add(item)
            result.append(item)
    return result
