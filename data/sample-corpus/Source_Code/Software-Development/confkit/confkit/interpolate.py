"""${name} interpolation of string values from other keys and the environment."""

import os
import re
from typing import Any, Dict, Mapping, Optional

from .errors import InterpolationError
from .merge import flatten, unflatten

PATTERN = re.compile(r"\$\{([^}:]+)(?::-([^}]*))?\}")

MAX_DEPTH = 10

ENV_PREFIX = "env."


def interpolate_value(
    value: str,
    lookup: Mapping[str, Any],
    *,
    depth: int = 0,
    environ: Optional[Mapping[str, str]] = None,
) -> str:
    """Replace ${key}, ${env.NAME} and ${key:-default} references in the value, recursively."""
    if depth > MAX_DEPTH:
        raise InterpolationError(f"interpolation is nested too deeply in {value!r}")
    environ = os.environ if environ is None else environ

    def replace(match):
        key, default = match.group(1).strip(), match.group(2)
        if key in lookup:
            found = str(lookup[key])
        elif key.startswith(ENV_PREFIX) and key[len(ENV_PREFIX):] in environ:
            found = environ[key[len(ENV_PREFIX):]]
        elif default is not None:
            found = default
        else:
            raise InterpolationError(f"unknown reference ${{{key}}}")
        if PATTERN.search(found):
            found = interpolate_value(found, lookup, depth=depth + 1, environ=environ)
        return found

    return PATTERN.sub(replace, value)


def interpolate(config: Mapping[str, Any], environ: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
    """Interpolate every string value of a nested configuration; references use dotted keys."""
    flat = flatten(config)
    resolved = {
        key: interpolate_value(value, flat, environ=environ) if isinstance(value, str) else value
        for key, value in flat.items()
    }
    return unflatten(resolved)
