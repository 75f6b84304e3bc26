"""Configuration overrides given as 'dotted.key=value' strings, as on a command line."""

import json
from typing import Any, Dict, Iterable

from ..errors import SourceError
from ..merge import unflatten


def parse_value(text: str) -> Any:
    """Read an override value as a JSON literal (number, boolean, null, list, object), else as a plain string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_overrides(items: Iterable[str], *, separator: str = ".") -> Dict[str, Any]:
    """Turn ['db.port=5432', 'debug=true'] into {'db': {'port': 5432}, 'debug': True}."""
    flat: Dict[str, Any] = {}
    for index, item in enumerate(items, 1):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SourceError("overrides", index, f"expected key=value, got {item!r}")
        flat[key] = parse_value(value.strip())
    return unflatten(flat, separator=separator)
