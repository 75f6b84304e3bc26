"""Deep merging, flattening and unflattening of nested configuration dicts."""

import copy
from typing import Any, Dict, Mapping

LIST_STRATEGIES = ("replace", "append")


def deep_merge(base: Mapping[str, Any], *others: Mapping[str, Any], list_strategy: str = "replace") -> Dict[str, Any]:
    """Merge mappings left to right: nested dicts merge recursively, other values are replaced or lists appended."""
    if list_strategy not in LIST_STRATEGIES:
        raise ValueError(f"list_strategy must be one of {LIST_STRATEGIES}")
    result = copy.deepcopy(dict(base))
    for other in others:
        for key, value in other.items():
            current = result.get(key)
            if isinstance(current, dict) and isinstance(value, Mapping):
                result[key] = deep_merge(current, value, list_strategy=list_strategy)
            elif list_strategy == "append" and isinstance(current, list) and isinstance(value, list):
                result[key] = current + copy.deepcopy(value)
            else:
                result[key] = copy.deepcopy(value)
    return result


def flatten(data: Mapping[str, Any], *, separator: str = ".", prefix: str = "") -> Dict[str, Any]:
    """Flatten nested dicts into a single dict with joined keys; empty dicts are kept as values."""
    flat: Dict[str, Any] = {}
    for key, value in data.items():
        full_key = f"{prefix}{separator}{key}" if prefix else str(key)
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, separator=separator, prefix=full_key))
        else:
            flat[full_key] = value
    return flat


def unflatten(flat: Mapping[str, Any], *, separator: str = ".") -> Dict[str, Any]:
    """Build nested dicts from joined keys; a key cannot be both a value and a section (keys are processed sorted)."""
    result: Dict[str, Any] = {}
    for key in sorted(flat):
        parts = key.split(separator)
        node = result
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"key {key!r} conflicts with the value at {part!r}")
            node = child
        node[parts[-1]] = flat[key]
    return result
