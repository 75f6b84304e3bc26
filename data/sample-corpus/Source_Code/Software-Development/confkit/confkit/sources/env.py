"""Configuration from environment variables and .env files."""

import os
import re
from typing import Any, Dict, Mapping, Optional

from ..compat import removeprefix
from ..errors import SourceError

ENV_SEPARATOR = "__"

_DOTENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def load_env(prefix: str, environ: Optional[Mapping[str, str]] = None, *, separator: str = ENV_SEPARATOR) -> Dict[str, Any]:
    """Collect the variables that start with the prefix into a nested dict: APP_DB__HOST -> {'db': {'host': ...}}."""
    environ = os.environ if environ is None else environ
    result: Dict[str, Any] = {}
    for name in sorted(environ):
        if not name.upper().startswith(prefix.upper()):
            continue
        parts = [part.lower() for part in removeprefix(name, prefix, case_sensitive=False).split(separator) if part]
        if not parts:
            continue
        node = result
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise SourceError("environment", 0, f"{name} conflicts with the value of {part!r}")
            node = child
        node[parts[-1]] = environ[name]
    return result


def parse_dotenv(text: str, *, source: str = ".env") -> Dict[str, str]:
    """Parse .env text: KEY=value lines with optional 'export', quotes and comments."""
    values: Dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _DOTENV_LINE.match(line)
        if match is None:
            raise SourceError(source, lineno, f"invalid line {stripped!r}")
        key, value = match.groups()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            quote, value = value[0], value[1:-1]
            if quote == '"':
                value = value.replace("\\n", "\n").replace('\\"', '"')
        else:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values
